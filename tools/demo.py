"""``make demo``: one 6-player game between heuristic agents, with a readable log and a map per phase.

Writes ``demo/game-log.md``, ``demo/summary.json`` and ``demo/maps/NN-round-R-phase.png``; prints where to
look. It combines the engine, the renderer and the bot's narration, so it lives outside all three.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.narration import narrate  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.sim import play_game  # noqa: E402
from render import render_board  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--out", type=Path, default=ROOT / "demo")
    args = parser.parse_args(argv)
    out: Path = args.out
    maps = out / "maps"
    maps.mkdir(parents=True, exist_ok=True)
    for old in maps.glob("*.png"):
        old.unlink()
    log: list[str] = [f"# Demo game (seed {args.seed}, {args.players} players, heuristic agents)", ""]
    snapshots = 0
    last_phase: list[Any] = [None]

    def on_step(g: Game, prompt: Any, events: list[dict[str, Any]]) -> None:
        nonlocal snapshots
        for e in events:
            if "private_to" in e:
                continue
            line = narrate(e, "en")
            if line:
                log.append(f"- R{g.state.round} {g.state.phase}: {line}")
        phase = (g.state.round, g.state.phase)
        if phase != last_phase[0]:
            last_phase[0] = phase
            log.append(f"\n## Round {g.state.round}, {g.state.phase}\n")
            snapshots += 1
            png = render_board(g.view(None), lang="en")
            (maps / f"{snapshots:02d}-round-{g.state.round}-{g.state.phase}.png").write_bytes(png)

    result = play_game(args.players, args.seed, "heuristic", check_invariants=True, on_step=on_step)
    if result.error:
        log.append(f"\n**The game stopped with an error at step {result.error['step']}:** {result.error['message']}")
    else:
        log.append(f"\n**Winner: {result.winner}** after {result.rounds} rounds, {result.battles} battles.")
    (out / "game-log.md").write_text("\n".join(log) + "\n", encoding="utf-8")
    (out / "summary.json").write_text(json.dumps(result.__dict__ | {"act_ms": None}, indent=1), encoding="utf-8")
    print(f"Demo written to {out}/: game-log.md, summary.json and {snapshots} maps in maps/")
    if result.error:
        print(f"error: {result.error['message']}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

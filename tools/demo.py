"""``make demo``: one game between heuristic agents, with a readable log and a map per phase.

    make demo [RULESET=base|mother-of-dragons] [PLAYERS=3..6 for the base game, 3..8 for the expansion]
              [GAME_LANG=en|ru] [SEED=7]


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

from app.labels import house_name  # noqa: E402
from app.narration import group_item, last_phase, narrate, narrate_all, phase_header  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.rulesets import named  # noqa: E402
from engine.sim import play_game  # noqa: E402
from render import render_board  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--ruleset", default="base", choices=("base", "mother-of-dragons"))
    parser.add_argument("--lang", default="en", choices=("en", "ru"))
    parser.add_argument("--out", type=Path, default=ROOT / "demo")
    args = parser.parse_args(argv)
    counts = named(args.ruleset).player_counts()
    if args.players not in counts:
        # One line a newcomer can act on, not the engine's traceback from deep inside the setup.
        game = "the base game" if args.ruleset == "base" else "Mother of Dragons"
        parser.exit(2, f"demo: {game} is played by {counts[0]} to {counts[-1]} players, not {args.players}\n")
    lang: str = args.lang
    options = {"ruleset": args.ruleset} if args.ruleset != "base" else {}
    out: Path = args.out
    maps = out / "maps"
    maps.mkdir(parents=True, exist_ok=True)
    for old in maps.glob("*.png"):
        old.unlink()
    title = f"{args.ruleset}, seed {args.seed}, {args.players} players, heuristic agents"
    log: list[str] = [f"# Demo game ({title})", ""]
    snapshots = 0
    shown: list[str | None] = [None]  # the phase whose header the log shows last
    drawn: list[Any] = [None]
    held: list[dict[str, Any]] = []  # steps that only told a house's part of a grouped line (each house's muster)

    def on_step(g: Game, prompt: Any, events: list[dict[str, Any]]) -> None:
        # The bot's own narration: a header opens each phase before its events, as in the game channel.
        nonlocal snapshots
        new = [e for e in events if "private_to" not in e]
        public = [*held, *new]
        held.clear()
        if new and not g.finished and all(group_item(e, lang) or not narrate(e, lang) for e in new):
            held.extend(public)  # told with the next step, so that houses mustering nothing make one line
        else:
            round_ = g.state.round - (1 if any(e["type"] == "round-started" for e in public) else 0)
            lines = narrate_all(public, lang, round_=round_, phase=shown[0])
            shown[0] = last_phase(public, shown[0])
            if not g.finished and g.state.phase != shown[0]:
                lines.append(phase_header(g.state.round, g.state.phase, lang))
                shown[0] = g.state.phase
            log.extend(line if line.startswith("**") or line.startswith("#") else f"- {line}" for line in lines)
        phase = (g.state.round, g.state.phase)
        if phase != drawn[0]:
            drawn[0] = phase
            snapshots += 1
            png = render_board(g.view(None), lang=lang)
            (maps / f"{snapshots:02d}-round-{g.state.round}-{g.state.phase}.png").write_bytes(png)

    result = play_game(args.players, args.seed, "heuristic", check_invariants=True, options=options, on_step=on_step)
    if result.error:
        log.append(f"\n**The game stopped with an error at step {result.error['step']}:** {result.error['message']}")
    else:
        winner = house_name(str(result.winner), lang)
        log.append(f"\n**Winner: {winner}** after {result.rounds} rounds, {result.battles} battles.")
    (out / "game-log.md").write_text("\n".join(log) + "\n", encoding="utf-8")
    (out / "summary.json").write_text(json.dumps(result.__dict__ | {"act_ms": None}, indent=1), encoding="utf-8")
    print(f"Demo written to {out}/: game-log.md, summary.json and {snapshots} maps in maps/")
    if result.error:
        print(f"error: {result.error['message']}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

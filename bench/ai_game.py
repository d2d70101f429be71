"""One game of bench/ai.py told round by round, to read what the searching agent did (issue 42: "what it does badly,
read from games it lost").

    python bench/ai_game.py --seed S [--house H | --index I] [--budget-ms B] [--players 6] [--ruleset R] [--json]

The game is bench/ai.py's game of that seed: game i of ``bench/ai.py --seed 1`` is ``--seed 1+i --index i`` (the
searching seat is the house at place ``index`` of the game's houses; ``--house`` names it instead). At the start of
every round, and at the end, a line per house: victory points, units, Power, supply and places on the three tracks;
between them, every battle the searching house fought (where, against whom, the strengths and the winner). With no
clock stop (bench/ai.py's ``clock_stops``) the game is the same as the bench's.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.ai import Outcome, Setup, new_bench_game, play
from engine import rules, rulesets
from engine.game import Game

TRACKS = ("iron_throne", "fiefdoms", "kings_court")


def standing(g: Game) -> dict[str, dict[str, Any]]:
    """Each player house's public figures now."""
    s = g.state
    points = rules.victory_points(s)
    rows: dict[str, dict[str, Any]] = {}
    for house in rules.player_houses(s):
        held = s.houses[house]
        units = sum(1 for stack in s.units.values() for unit in stack if unit.house == house)
        places = {t: s.tracks[t].index(house) + 1 for t in TRACKS if t in s.tracks and house in s.tracks[t]}
        rows[house] = {"points": points.get(house, 0), "units": units, "power": held.power, "supply": held.supply}
        rows[house] |= places
    return rows


class Story:
    """What bench/ai.py's play shows of the game, kept round by round."""

    def __init__(self, searcher: str) -> None:
        self.searcher = searcher
        self.rounds: list[dict[str, Any]] = []
        self.battles: list[dict[str, Any]] = []
        self.losses: list[dict[str, Any]] = []  # the searching house's units gone outside its battles, and why
        self.end: dict[str, dict[str, Any]] = {}
        self._round = 0
        self._units = -1

    def watch(self, g: Game, house: str, events: list[dict[str, Any]]) -> None:
        if g.state.round != self._round:
            self._round = g.state.round
            self.rounds.append({"round": g.state.round, "houses": standing(g)})
        units = sum(1 for stack in g.state.units.values() for unit in stack if unit.house == self.searcher)
        fought = any(e["type"] == "combat-result" and self.searcher in (e["attacker"], e["defender"]) for e in events)
        if 0 <= units < self._units and not fought:
            why = sorted({e["type"] for e in events} - {"prompt-opened", "prompt-answered"})
            self.losses.append({"round": g.state.round, "units": self._units - units, "events": why})
        self._units = units
        self.end = standing(g)
        for event in events:
            if event["type"] == "combat-result" and self.searcher in (event["attacker"], event["defender"]):
                strength = event["strength"]
                self.battles.append(
                    {
                        "round": g.state.round,
                        "area": event["area"],
                        "attacker": event["attacker"],
                        "defender": event["defender"],
                        "strength": [strength["attacker"]["total"], strength["defender"]["total"]],
                        "winner": event["winner"],
                    }
                )


def searcher_for(setup: Setup, seed: int, house: str | None, index: int | None) -> int:
    if index is not None:
        return index
    players = rules.player_houses(new_bench_game(setup, seed).state)
    if house not in players:
        raise SystemExit(f"{house} does not play in this game: {', '.join(players)}")
    return players.index(house)


def tell(story: Story, outcome: Outcome) -> None:
    happenings = sorted(story.battles + story.losses, key=lambda item: item["round"])
    battles = iter(happenings)
    pending = next(battles, None)
    for line in story.rounds:
        while pending is not None and pending["round"] < line["round"]:
            print(f"    ⚔ {battle_line(pending, story.searcher)}")
            pending = next(battles, None)
        print(f"round {line['round']}:")
        for house, row in sorted(line["houses"].items(), key=lambda item: -int(item[1]["points"])):
            mark = "*" if house == story.searcher else " "
            tracks = " ".join(f"{t[0]}{row.get(t, '-')}" for t in TRACKS)
            print(
                f"  {mark}{house:10} vp {row['points']}  units {row['units']:2}  power {row['power']:2}  "
                f"supply {row['supply']}  {tracks}"
            )
    while pending is not None:
        print(f"    ⚔ {battle_line(pending, story.searcher)}")
        pending = next(battles, None)
    story.rounds.append({"round": "end", "houses": story.end})
    print("end:")
    for house, row in sorted(story.end.items(), key=lambda item: -int(item[1]["points"])):
        mark = "*" if house == story.searcher else " "
        print(f"  {mark}{house:10} vp {row['points']}  supply {row['supply']}  power {row['power']}")
    print(f"winner: {outcome.winner} in round {outcome.rounds}; points {outcome.points}")


def battle_line(battle: dict[str, Any], searcher: str) -> str:
    if "units" in battle:
        return f"round {battle['round']}: {battle['units']} unit(s) lost outside battle ({', '.join(battle['events'])})"
    role = "attacks" if battle["attacker"] == searcher else "defends against"
    other = battle["defender"] if battle["attacker"] == searcher else battle["attacker"]
    result = "won" if battle["winner"] == searcher else "lost"
    a, d = battle["strength"]
    return f"round {battle['round']}: {role} {other} at {battle['area']} ({a} to {d}), {result}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--house", default=None)
    parser.add_argument("--index", type=int, default=None)
    parser.add_argument("--budget-ms", type=float, default=200.0)
    parser.add_argument("--players", type=int, default=6, choices=[3, 4, 5, 6, 7, 8])
    parser.add_argument("--ruleset", default=rulesets.DEFAULT, choices=sorted(rulesets.RULESETS))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.house is None and args.index is None:
        parser.error("name the searching seat: --house or --index")
    setup = Setup(args.players, args.ruleset, args.budget_ms, self_play=False, rounds=None)
    index = searcher_for(setup, args.seed, args.house, args.index)
    players = rules.player_houses(new_bench_game(setup, args.seed).state)
    story = Story(players[index % len(players)])
    outcome = play(setup, args.seed, index, watch=story.watch)
    if args.json:
        told: dict[str, Any] = {"searcher": story.searcher, "rounds": story.rounds, "battles": story.battles}
        told |= {"losses": story.losses, "end": story.end, "winner": outcome.winner, "points": outcome.points}
        print(json.dumps(told | {"stops": outcome.clock_stops}))
    else:
        tell(story, outcome)
    return 1 if outcome.error else 0


if __name__ == "__main__":
    sys.exit(main())

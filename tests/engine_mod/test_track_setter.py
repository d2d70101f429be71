"""Issue T, the first seam: one function writes the influence tracks, and it keeps a house the ruleset pins to a space
there whatever moves (Targaryen will keep space 8 of all three tracks: M-TARG-16). Until Targaryen plays, a pinned
house is set up by overriding the ruleset's hook in these tests."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import data, new_game, rules
from engine.rulesets.base import Ruleset
from engine.steps.wildlings import move_on_track

ROOT = Path(__file__).resolve().parents[2]
MUTATORS = ("remove", "insert", "append", "pop", "reverse", "sort", "extend")


def pin(monkeypatch: pytest.MonkeyPatch, house: str, index: int) -> None:
    monkeypatch.setattr(Ruleset, "pinned_on_tracks", lambda self, s: {house: index})


def test_a_pinned_house_stays_on_its_space_through_bids_moves_and_doran(monkeypatch: pytest.MonkeyPatch) -> None:
    g = new_game(6, seed=3)
    s = g.state
    pinned = s.tracks["iron_throne"][3]
    pin(monkeypatch, pinned, 3)
    # A Clash of Kings result that would put it first (bids: it bid the most).
    others = [h for h in s.tracks["fiefdoms"] if h != pinned]
    assert rules.set_track(s, "fiefdoms", [pinned, *others]).index(pinned) == 3
    assert s.tracks["fiefdoms"] == [*others[:3], pinned, *others[3:]]
    # A wildling outcome moving it to the bottom, and one moving it to the top.
    move_on_track(g, "kings_court", pinned, len(s.players) - 1, "test")
    assert s.tracks["kings_court"].index(pinned) == 3
    move_on_track(g, "kings_court", pinned, 0, "test")
    assert s.tracks["kings_court"].index(pinned) == 3
    assert rules.move_on_track(s, "kings_court", pinned, 5) == (4, 4)
    # Another house moving past it leaves it where it is.
    mover = s.tracks["kings_court"][5]
    move_on_track(g, "kings_court", mover, 0, "test")
    assert s.tracks["kings_court"][0] == mover and s.tracks["kings_court"].index(pinned) == 3


def test_without_a_pin_moves_are_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    g = new_game(4, seed=1)
    s = g.state
    order = list(s.tracks["iron_throne"])
    last = order[-1]
    assert rules.move_on_track(s, "iron_throne", last, 0) == (4, 1)
    assert s.tracks["iron_throne"] == [last, *order[:-1]]
    assert rules.move_on_track(s, "iron_throne", last, 99) == (1, 4)  # clamped to the track
    assert s.tracks["iron_throne"] == order


@settings(max_examples=200, deadline=None)
@given(
    players=st.integers(min_value=3, max_value=6),
    pinned_at=st.integers(min_value=0, max_value=5),
    moves=st.lists(st.tuples(st.integers(0, 2), st.integers(0, 5), st.integers(-2, 8), st.randoms()), max_size=12),
)
def test_any_sequence_of_writes_keeps_every_track_whole_and_the_pin_in_place(
    players: int, pinned_at: int, moves: list[tuple[int, int, int, object]]
) -> None:
    g = new_game(players, seed=players)
    s = g.state
    pinned_at = min(pinned_at, players - 1)
    pinned = s.players[0]
    original = Ruleset.pinned_on_tracks
    Ruleset.pinned_on_tracks = lambda self, state: {pinned: pinned_at}  # type: ignore[method-assign]
    try:
        for t in data.TRACKS:
            rules.set_track(s, t, list(s.tracks[t]))
        for track_i, house_i, index, rnd in moves:
            track = data.TRACKS[track_i]
            house = s.players[house_i % players]
            if index < 0:
                shuffled = list(s.tracks[track])
                rnd.shuffle(shuffled)  # type: ignore[attr-defined]
                rules.set_track(s, track, shuffled)
            else:
                rules.move_on_track(s, track, house, index)
            for t in data.TRACKS:
                assert sorted(s.tracks[t]) == sorted(s.players)
                assert s.tracks[t].index(pinned) == pinned_at
    finally:
        Ruleset.pinned_on_tracks = original  # type: ignore[method-assign]


def track_writes(source: str) -> list[int]:
    """Lines that change a track outside ``rules``: an assignment to ``tracks[...]``, or a list method that changes it
    in place, called on ``tracks[...]`` or on a name bound to it."""

    def is_track(node: ast.expr) -> bool:
        return isinstance(node, ast.Subscript) and "tracks" in ast.unparse(node.value).split(".")

    tree = ast.parse(source)
    aliases = {
        target.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and is_track(node.value)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            lines += [node.lineno for target in targets if is_track(target)]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
            owner = node.func.value
            if is_track(owner) or (isinstance(owner, ast.Name) and owner.id in aliases):
                lines.append(node.lineno)
    return lines


def test_the_scanner_finds_the_ways_a_track_was_written_before() -> None:
    assert track_writes("s.tracks[t] = list(order)\n") == [1]
    assert track_writes("s.tracks[t].remove(h)\ns.tracks[t].append(h)\n") == [1, 2]
    assert track_writes("order = g.s.tracks[t]\norder.remove(h)\norder.insert(0, h)\n") == [2, 3]
    assert track_writes("order = list(s.tracks[t])\norder.remove(h)\n") == []  # a copy


def test_no_engine_module_but_rules_writes_a_track() -> None:
    """The five writers (bidding, wildlings, Doran Martell, the vassal cards, scenarios) go through ``rules``."""
    offenders = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted((ROOT / "engine").rglob("*.py"))
        if path.name != "rules.py"
        for line in track_writes(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []

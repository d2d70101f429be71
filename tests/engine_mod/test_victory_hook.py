"""Issue T, a seam: the victory track is the ruleset's (Targaryen will not score castles, M-TARG-02), and the instant
win, the final standing and every view read it from the one hook."""

from __future__ import annotations

import pytest

from engine import new_game, rules, victory
from engine.rulesets.base import Ruleset


def test_the_instant_win_the_standing_and_the_view_follow_the_rulesets_victory_points(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    g = new_game(4, seed=2)
    s = g.state
    counted = rules.castle_counts(s)
    assert rules.victory_points(s) == counted == g.view(None)["victory"]
    favourite = s.players[-1]

    def points(self: Ruleset, state: object, castles: dict[str, int], controller: object) -> dict[str, int]:
        return {h: (6 if h == favourite else 0) for h in s.players}

    monkeypatch.setattr(Ruleset, "victory_points", points)
    assert g.view(None)["victory"][favourite] == 6
    assert victory.final_winner(s) == favourite
    assert not g.check_instant_win()  # 6 is one short
    monkeypatch.setattr(Ruleset, "instant_win_at", 6)
    assert g.check_instant_win()
    assert s.winner == favourite and s.ended_reason == "seven-castles"

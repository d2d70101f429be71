"""Games saved in the middle of a combat by an earlier version of the engine play on exactly as they did then.

A running bot keeps games in its database between answers, so a combat frame written before a change to the
combat's insides must still load and resolve the same way. ``legacy_combat_states.json`` holds states saved
at every kind of combat decision (support and its refusal, cards, abilities, the Blade, casualties, retreat,
port capture, a neutral force) by the engine before combat became declared stages; each is played to the end
with every house giving its default answer.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from engine.game import Game

SAVED = json.loads(Path(__file__).with_name("legacy_combat_states.json").read_text())


def finish_with_defaults(g: Game) -> tuple[str, str]:
    events = hashlib.sha256()
    while not g.finished:
        prompt = next(p for p in g.prompts() if not p.answered)
        events.update(json.dumps(g.act(prompt.house, prompt.default), sort_keys=True).encode())
    return events.hexdigest()[:16], hashlib.sha256(g.to_json().encode()).hexdigest()[:16]


@pytest.mark.parametrize("saved", SAVED, ids=lambda s: s["what"])
def test_a_combat_saved_by_an_earlier_engine_resolves_as_it_did(saved: dict[str, Any]) -> None:
    g = Game.from_json(json.dumps(saved["state"]))
    assert finish_with_defaults(g) == (saved["events"], saved["final_state"])

"""Issue U, fault 3: what the game channel shows of each step (app/channel_posts.py). A phase's lines grow one message
by edits; a battle, a bidding, the orders revealed and the end of the Action phase each get a message of their own;
per-house results in a row read as one line; nothing narrated is lost."""

from __future__ import annotations

from collections import Counter
from itertools import count
from typing import Any

import pytest

from app.channel_posts import MESSAGE_LIMIT, Post, Table, plan_step
from app.narration import group_item, narrate, with_attack
from engine import RuleError, new_game
from engine.agents import HeuristicAgent

MARCH = {"type": "march", "house": "stark", "origin": "winterfell", "to": "moat-cailin", "units": ["footman"]}
ATTACK = {
    "type": "combat-started",
    "attacker": "stark",
    "defender": "lannister",
    "area": "riverrun",
    "origin": "the-twins",
    "units": ["knight"],
}
RESULT = {
    "type": "combat-result",
    "area": "riverrun",
    "attacker": "stark",
    "defender": "lannister",
    "strength": {"attacker": {"total": 4}, "defender": {"total": 2}},
    "winner": "stark",
}
RETREAT = {"type": "retreat", "house": "lannister", "area": "riverrun", "to": "harrenhal", "units": ["footman"]}
ENDED = {"type": "combat-ended", "area": "riverrun", "winner": "stark"}


GROUPED = ("supply-adjusted", "power-gained", "mustered")  # said as items of one line (some of them)


class Channel:
    """Posts as Discord would hold them: a new post gets an id, a changed one is edited."""

    def __init__(self, lang: str = "en") -> None:
        self.lang = lang
        self.table = Table()
        self.ids = count(1)
        self.texts: dict[int, str] = {}
        self.kinds: dict[int, str] = {}
        self.new: list[int] = []  # message ids in the order they were posted
        self.edits = 0

    def step(self, events: list[dict[str, Any]], *, round_: int = 1, phase_after: str | None = None) -> list[Post]:
        table, posts = plan_step(self.table, events, self.lang, round_=round_, phase_after=phase_after)
        for post in posts:
            if post.message_id is None:
                post.message_id = next(self.ids)
                self.new.append(post.message_id)
                self.kinds[post.message_id] = post.kind
            else:
                self.edits += 1
            self.texts[post.message_id] = post.text(self.lang)
            post.changed = False
        self.table = table
        return posts


def test_the_lines_of_one_phase_grow_one_message_by_edits() -> None:
    channel = Channel()
    channel.step([{"type": "orders-revealed", "orders": {}}], phase_after="action")
    assert len(channel.new) == 1
    for _ in range(5):
        channel.step([MARCH], phase_after="action")
    assert len(channel.new) == 1 and channel.edits == 5
    text = channel.texts[channel.new[0]]
    assert text.count("Stark marches 1 footman from Winterfell to Moat Cailin.") == 5
    assert text.splitlines()[0] == "**— Round 1 · Action phase —**"


def test_the_raven_after_the_reveal_stays_in_the_action_phase_message() -> None:
    channel = Channel()
    channel.step([{"type": "orders-revealed", "orders": {}}], phase_after="planning")  # the raven is still to play
    channel.step([{"type": "raven-declined", "house": "stark"}, MARCH], phase_after="action")
    assert len(channel.new) == 1
    assert "Planning" not in channel.texts[channel.new[0]]


def test_a_battle_gets_its_message_when_decided_and_what_follows_until_it_ends() -> None:
    channel = Channel()
    channel.step([{"type": "orders-revealed", "orders": {}}], phase_after="action")
    channel.step([ATTACK], phase_after="action")
    assert len(channel.new) == 1  # the attack is told in the phase's message; the battle is not decided yet
    assert "⚔ Stark attacks Riverrun" in channel.texts[channel.new[0]]
    posts = channel.step([RESULT], phase_after="action")
    battle = [p for p in posts if p.kind == "battle"]
    assert len(battle) == 1 and battle[0].area == "riverrun"
    battle_id = channel.new[-1]
    assert channel.kinds[battle_id] == "battle"
    assert "⚔ Stark attacks Riverrun" in channel.texts[battle_id] and "Stark wins" in channel.texts[battle_id]
    channel.step([RETREAT, ENDED], phase_after="action")  # the loser chose where to retreat: the battle's message
    assert len(channel.new) == 2 and "retreats" in channel.texts[battle_id]
    channel.step([MARCH], phase_after="action")  # the battle ended: the phase goes on in its own message
    assert len(channel.new) == 2 and "marches" in channel.texts[channel.new[0]].splitlines()[-1]


def test_a_battle_with_a_neutral_force_is_a_message_of_its_own() -> None:
    channel = Channel()
    channel.step([{"type": "orders-revealed", "orders": {}}], phase_after="action")
    neutral = {"type": "neutral-attack", "house": "stark", "area": "riverrun", "strength": 6, "needed": 5, "won": True}
    posts = channel.step([neutral, MARCH], phase_after="action")
    assert [p.kind for p in posts] == ["battle", "phase"]
    assert channel.kinds[channel.new[-1]] == "battle"


def test_per_house_results_in_a_row_read_as_one_line_in_both_languages() -> None:
    for lang, supply, nothing in (
        ("en", "Supply: ", "Nothing mustered: "),
        ("ru", "Снабжение: ", "Ничего не собирают: "),
    ):
        channel = Channel(lang)
        channel.step([{"type": "round-started", "round": 2}], round_=2, phase_after="westeros")
        events = [
            {"type": "supply-adjusted", "house": "stark", "old": 1, "new": 2},
            {"type": "supply-adjusted", "house": "lannister", "old": 2, "new": 2},
        ]
        channel.step(events, round_=2, phase_after="westeros")
        for house in ("stark", "greyjoy", "arryn"):  # one house's muster per step: each a decision of its own
            channel.step([{"type": "mustered", "house": house, "plan": {}}], round_=2, phase_after="westeros")
        (message,) = channel.new
        lines = channel.texts[message].splitlines()
        assert sum(line.startswith(supply) for line in lines) == 1
        assert [line for line in lines if line.startswith(nothing)] == [
            nothing + ", ".join(house_of(h, lang) for h in ("stark", "greyjoy", "arryn")) + "."
        ]
        assert "2 → 2" not in channel.texts[message]  # a supply that did not change is said once


def house_of(house: str, lang: str) -> str:
    from app.labels import house_name

    return house_name(house, lang)


def test_a_bidding_gets_its_message_and_the_next_card_goes_back_to_the_phase() -> None:
    channel = Channel()
    channel.step([{"type": "round-started", "round": 2}, {"type": "westeros-card", "deck": 1, "card": "supply"}],
                 round_=2, phase_after="westeros")  # fmt: skip
    bids = {"type": "bids-revealed", "bids": {"stark": 2, "lannister": 1}, "purpose": "track", "track": "iron_throne"}
    track_set = {"type": "track-set", "track": "iron_throne", "order": ["stark", "lannister"], "bids": bids["bids"]}
    channel.step([bids, {**track_set, "holder": "stark"}], round_=2)
    assert [channel.kinds[m] for m in channel.new] == ["phase", "bids"]
    assert len(channel.texts[channel.new[1]].splitlines()) == 2
    channel.step([{"type": "westeros-card", "deck": 2, "card": "supply"}], round_=2)
    assert len(channel.new) == 2 and "deck 2" in channel.texts[channel.new[0]]


def test_the_end_of_the_action_phase_posts_the_board_and_the_next_round_goes_on_under_it() -> None:
    channel = Channel()
    channel.step([{"type": "orders-revealed", "orders": {}}], phase_after="action")
    posts = channel.step(
        [{"type": "action-cleanup"}, {"type": "round-started", "round": 2}], round_=1, phase_after="westeros"
    )
    assert [p.kind for p in posts] == ["board"] and posts[0].board
    channel.step([{"type": "westeros-card", "deck": 1, "card": "supply"}], round_=2, phase_after="westeros")
    assert len(channel.new) == 2
    lines = channel.texts[channel.new[1]].splitlines()
    assert lines[0].startswith("**End of round 1") and lines[1] == "**— Round 2 · Westeros phase —**"


def test_a_full_message_goes_on_in_a_new_one() -> None:
    channel = Channel()
    channel.step([{"type": "orders-revealed", "orders": {}}], phase_after="action")
    for _ in range(60):
        channel.step([MARCH], phase_after="action")
    assert len(channel.new) >= 2
    assert all(len(text) <= MESSAGE_LIMIT for text in channel.texts.values())
    assert sum(text.count("Stark marches") for text in channel.texts.values()) == 60


def test_planning_a_step_leaves_the_table_it_was_given_as_it_was() -> None:
    table = Table()
    plan_step(table, [{"type": "orders-revealed", "orders": {}}, MARCH], "en", round_=1, phase_after="action")
    assert table == Table()


@pytest.mark.parametrize(("players", "seed"), [(4, 3), (7, 5)])
def test_a_whole_game_keeps_every_line_and_a_round_under_six_messages_besides_its_battles(
    players: int, seed: int
) -> None:
    """Mother of Dragons played to its end by the engine's agents, every step planned as the publisher does."""
    game = new_game(players, seed=seed, options={"ruleset": "mother-of-dragons"})
    channel = Channel()
    agents: dict[str, HeuristicAgent] = {}
    per_round: Counter[int] = Counter()
    battles: Counter[int] = Counter()
    told: list[str] = []
    for _ in range(6000):
        waiting = [p for p in game.prompts() if not p.answered]
        if game.finished or not waiting:
            break
        prompt = waiting[0]
        round_ = game.round
        agent = agents.setdefault(prompt.house, HeuristicAgent(seed))
        try:
            events = game.act(prompt.house, agent.answer(prompt, game.view(prompt.house)))
        except RuleError:
            events = game.act(prompt.house, prompt.default)
        public = [e for e in events if "private_to" not in e]
        before = len(channel.new)
        posts = channel.step(public, round_=round_, phase_after=None if game.finished else game.view(None)["phase"])
        per_round[round_] += sum(1 for m in channel.new[before:] if channel.kinds[m] != "battle")
        battles[round_] += sum(1 for e in public if e["type"] in ("combat-result", "neutral-attack"))
        for post in posts:
            if post.kind == "battle" and any(e["type"] == "combat-result" for e in public):
                assert any(w in channel.texts[post.message_id or 0] for w in (" wins", " win")), post.entries
        # Lines said alone (a grouped no-op is an item of its group's line; an attack on a neutral force is told with
        # its attackers, as the channel sees them)
        alone = [e for e in with_attack(public) if e["type"] not in GROUPED and group_item(e, "en") is None]
        told += [line for e in alone if (line := narrate(e, "en"))]
    assert game.finished
    everything = "\n".join(channel.texts.values())
    assert [line for line in told if line not in everything] == []  # a battle's lines too, once it was decided
    assert sum(battles.values()) > 0, "the agents fought no battle: pick another seed"
    assert max(per_round.values()) <= 6, per_round
    assert sum(1 for kind in channel.kinds.values() if kind == "battle") == sum(battles.values())
    assert all(len(text) <= MESSAGE_LIMIT for text in channel.texts.values())


def test_a_game_won_in_mid_phase_posts_the_board_without_calling_it_the_end_of_the_action_phase() -> None:
    channel = Channel()
    channel.step([{"type": "orders-revealed", "orders": {}}], phase_after="action")
    posts = channel.step([{"type": "game-over", "winner": "stark"}], phase_after=None)
    assert [p.kind for p in posts] == ["board"] and posts[0].board
    assert "End of round" not in channel.texts[channel.new[-1]]


def test_a_secret_answer_plans_nothing_and_copies_no_table() -> None:
    table = Table(phase="planning", round=2)
    after, posts = plan_step(table, [{"type": "orders-submitted", "house": "stark"}], "en", round_=2, phase_after=None)
    assert after is table and posts == []

"""Issue U, fault 11: a decision DM opens with one header line whose game name links to the game channel; a name
given by a member cannot break that link or add one of its own."""

from __future__ import annotations

import re

from cogs.dms import channel_link, link_text
from cogs.text import shown
from i18n import t

UNESCAPED_CLOSE = re.compile(r"(?<!\\)\]")


def test_a_hostile_game_name_stays_the_text_of_the_one_link() -> None:
    url = channel_link(1, 2)
    for name in ("Ga]me", "[x](https://evil.example)", "]](y)", "plain"):
        header = t(
            "dm.decision",
            "en",
            game=link_text(shown(name)),
            channel=url,
            house="Stark",
            round=1,
            phase="Planning",
            title="Orders",
            ask="Place your orders.",
            deadline="soon",
        )
        first = header.splitlines()[0]
        closes = [m.start() for m in UNESCAPED_CLOSE.finditer(first)]
        assert len(closes) == 1 and first[closes[0] + 1 :].startswith(f"({url})"), first


def test_a_long_option_text_is_cut_at_a_word_and_says_so() -> None:
    """Issue U, fault 11: option descriptions were cut mid-word at Discord's 100 characters."""
    from cogs.text import clip

    text = "Win: your opponent discards a card of his choice from his hand, and you may look at the rest of it too"
    cut = clip(text, 100)
    assert len(cut) <= 100 and cut.endswith("…") and text.startswith(cut[:-1])
    assert text[len(cut) - 1] == " "  # the cut falls between two words
    assert clip("short", 100) == "short"
    assert clip("x" * 150, 100) == "x" * 99 + "…"  # one word longer than the limit is cut where it must be


def test_a_card_question_names_its_card_once_in_the_header() -> None:
    """The header shows the decision's title, the card's name; its question, which opens with that name, follows
    without repeating it."""
    from app.decisions import build_form
    from cogs.dms import ask_line
    from tests.engine_mod.test_targaryen_cards import open_decision

    g, p = open_decision("viserys-discard")
    for lang in ("en", "ru"):
        form = build_form(p, g.view("targaryen"), lang)
        assert form.ask.startswith(form.title + ": ")
        line = ask_line(form)
        assert form.title not in line and line and line in form.ask

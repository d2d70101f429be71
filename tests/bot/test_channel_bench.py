"""bench/channel.py (issue U) plays a whole 4-player Mother of Dragons game in Russian through the fake Discord and
reports real figures: what the channel got each round, the DMs, the taps; consistent with one another."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytestmark = pytest.mark.slow

BENCH = Path(__file__).resolve().parents[2] / "bench" / "channel.py"


def load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_channel", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench  # its dataclasses look their module up there
    spec.loader.exec_module(bench)
    return bench


async def test_the_channel_bench_measures_a_whole_four_player_game() -> None:
    bench = load_bench()
    figures = await bench.run("mod_4_ru", games=1)
    rounds = figures["rounds"]
    assert 1 <= rounds <= 10 and figures["games"] == 1

    # The channel: every round posts something, images among it; the per-round lists add up to the totals.
    messages, images, battles = figures["per_round_messages"], figures["per_round_images"], figures["per_round_battles"]
    assert len(messages) == len(images) == len(battles) == rounds
    assert all(n > 0 for n in messages)
    assert sum(messages) == figures["channel_messages"] > 0
    assert sum(images) == figures["channel_images"] > 0
    assert sum(battles) == figures["battles"] >= 0
    assert figures["channel_images"] <= figures["channel_messages"] * bench.MAX_ATTACHMENTS
    assert all(i <= m * bench.MAX_ATTACHMENTS for m, i in zip(messages, images, strict=True))
    per_round = figures["channel_messages_per_round"]
    assert per_round["mean"] == round(figures["channel_messages"] / rounds, 2) and per_round["max"] == max(messages)
    assert figures["channel_images_per_round"]["max"] == max(images) <= per_round["max"] * bench.MAX_ATTACHMENTS
    less = figures["channel_messages_per_round_less_battles"]
    assert less["mean"] == round((sum(messages) - sum(battles)) / rounds, 2) <= per_round["mean"]
    assert figures["channel_edits"] > 0  # the pinned status at least

    # DMs: every player is asked something every round, by DM; answering from the DM edits it (picks, receipt).
    assert figures["dms_per_player_per_round"] >= 1
    assert figures["dms_per_player_round_max"] >= figures["dms_per_player_per_round"]
    assert figures["dm_edits_per_player_per_round"] > 0

    # Taps: four players give their own orders every round (the last round's perhaps not, if the game ended before);
    # each decision takes at least its Submit.
    assert 4 * (rounds - 1) <= figures["orders_turns"] <= 4 * rounds
    assert figures["taps_per_orders_turn"] >= 1 and figures["taps_per_decision"] >= 1
    assert figures["decisions"] > figures["orders_turns"]
    assert figures["seconds"] > 0

"""The end of a game, told (issue W): its final standing, every house's victory points, Power and supply round by
round, each house's battles, units and castles, and the battle that changed the most, worked out from the start
position and the command log (``app.replay``), never from the current state.

Everything read is what a spectator saw: the public view at the end of each phase (``Game.view(None)``) and the
public events of the log. The standing is the engine's own (``engine.victory.standing``: victory points, then the
rulebook's tie-breakers), the winner first as the engine named it. ``story`` is plain data in, plain data out: the bot
runs it in its image pool with the drawing (``told_in_pool``), never on the event loop.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.labels import area_label, house_mark, house_name
from app.queries import LOAD_ERRORS, ServiceError
from app.replay import GameLog, Refusal, timeline
from engine import Game, rules
from engine.rulesets import ruleset
from engine.victory import standing
from i18n import t, tn

CHART_VICTORY = "story-victory.png"
CHART_POWER = "story-power.png"
TIMELAPSE = "story-timelapse.gif"


@dataclass(frozen=True)
class HouseLine:
    """One house's line of the story."""

    house: str
    place: int  # 1: the winner; 0: a vassal at the end (not ranked: a vassal never wins)
    victory: int
    battles: int = 0
    won: int = 0
    units_lost: int = 0
    units_destroyed: int = 0  # the enemy's units that fell in battles against this house
    castles_taken: int = 0
    castles_lost: int = 0


@dataclass(frozen=True)
class Battle:
    round: int
    area: str
    attacker: str
    defender: str
    winner: str
    fallen: int  # units destroyed in it, both sides
    castle: bool  # the attacker won a castle or a stronghold by it


@dataclass(frozen=True)
class Story:
    game_id: int
    winner: str
    reason: str  # the engine's: round-limit, seven-castles, seven-loyalty
    loyalty: bool  # Targaryen's victory points are its loyalty (Mother of Dragons)
    rounds: tuple[int, ...]  # 0 (the start), then every round played
    houses: tuple[str, ...]  # in the final standing, vassals last
    victory: dict[str, tuple[int, ...]]  # house -> its victory points at the start and at the end of each round
    power: dict[str, tuple[int, ...]]
    supply: dict[str, tuple[int, ...]]
    lines: tuple[HouseLine, ...]
    battles: tuple[Battle, ...]  # every battle between houses, in order
    biggest: Battle | None
    frames: tuple[int, ...]  # the versions the timelapse shows: the start and the end of each round


@dataclass(frozen=True)
class Told:
    """A story with its pictures (file name, bytes), as the image pool hands it back."""

    story: Story
    pictures: tuple[tuple[str, bytes], ...] = ()
    drawn_ms: dict[str, float] = field(default_factory=dict)


def board_name(game: Game) -> str:
    """The board a game is drawn on (cogs/warm.py warms the image workers for it; the cogs never read a state)."""
    return ruleset(game.state).board_name(game.state)


def _fortified(game: Game) -> frozenset[str]:
    """The castle and stronghold areas of the game's board (static data)."""
    return frozenset(a.id for a in rules.board(game.state).areas.values() if a.is_land and a.fortification > 0)


def _count(units: Any) -> int:
    return len(units) if isinstance(units, list) else 0


def story(log: GameLog) -> tuple[Story, list[dict[str, Any]]]:
    """The story of an ended game, and the public views its timelapse shows (one per ``Story.frames``)."""
    try:
        line = timeline(log)
    except LOAD_ERRORS as err:
        raise ServiceError("replay-no-history", f"The log cannot be replayed: {type(err).__name__}") from err
    if not line.phases or line.phases[-1].done is False:
        raise ServiceError("story-not-ended", "This game has not ended.")
    start = Game.from_json(log.start)
    end = Game.from_json(line.boards[line.phases[-1].version])
    if not end.finished or end.state.winner is None:
        raise ServiceError("story-not-ended", "This game has not ended.")
    castles = _fortified(end)
    # The public view at the start and at the end of every phase, in order; a round's end is its last phase's.
    ends: list[tuple[int, int]] = [(0, 0)] + [(p.round, p.version) for p in line.phases]
    views: dict[int, dict[str, Any]] = {0: start.view(None)}
    for _, version in ends[1:]:
        if version not in views:
            views[version] = Game.from_json(line.boards[version]).view(None)
    round_end: dict[int, int] = {}
    for round_, version in ends:
        round_end[round_] = version
    rounds = tuple(sorted(round_end))
    frames = tuple(round_end[r] for r in rounds)
    houses_in_play = list(views[0]["players"])

    def series(key: str) -> dict[str, tuple[int, ...]]:
        return {h: tuple(int((views[v].get(key) or {}).get(h) or 0) for v in frames) for h in houses_in_play}

    def power() -> dict[str, tuple[int, ...]]:
        """Available Power; while a bid is open (a round's end may run on into the next round's Clash of Kings) the
        Power each house announced as it opened, which is what the table saw (B-HIDDEN-02)."""
        return {h: tuple(power_shown(views[v], h) for v in frames) for h in houses_in_play}

    # Castles changing hands, phase end by phase end.
    taken = dict.fromkeys(houses_in_play, 0)
    lost = dict.fromkeys(houses_in_play, 0)
    previous = views[0]
    for _, version in ends[1:]:
        now = views[version]
        for area in castles:
            was = (previous["areas"].get(area) or {}).get("controller")
            is_ = (now["areas"].get(area) or {}).get("controller")
            if was != is_:
                if is_ in taken:
                    taken[is_] += 1
                if was in lost:
                    lost[was] += 1
        previous = now

    # Battles: each from its start to its end, the units that fell in it.
    fought = dict.fromkeys(houses_in_play, 0)
    won = dict.fromkeys(houses_in_play, 0)
    units_lost = dict.fromkeys(houses_in_play, 0)
    destroyed = dict.fromkeys(houses_in_play, 0)
    battles: list[Battle] = []
    current: dict[str, Any] | None = None
    for index, events in enumerate(line.events):
        round_ = line.phases[index].round
        for e in events:
            kind = e.get("type")
            if kind == "combat-started" and e.get("defender") != "neutral":
                current = {"attacker": e["attacker"], "defender": e["defender"], "area": e["area"], "fallen": 0}
            elif kind == "neutral-attack":
                current = None
            elif kind == "units-destroyed":
                n = _count(e.get("units"))
                owner = e.get("house")
                if owner in units_lost:
                    units_lost[owner] += n
                if current is not None:
                    current["fallen"] += n
                    enemy = current["defender"] if owner == current["attacker"] else current["attacker"]
                    if enemy in destroyed and enemy != owner:
                        destroyed[enemy] += n
            elif kind == "combat-ended" and current is not None:
                attacker, defender, victor = current["attacker"], current["defender"], str(e.get("winner"))
                for side in (attacker, defender):
                    if side in fought:
                        fought[side] += 1
                if victor in won:
                    won[victor] += 1
                castle = victor == attacker and current["area"] in castles
                battles.append(Battle(round_, current["area"], attacker, defender, victor, current["fallen"], castle))
                current = None

    s = end.state
    winner = s.winner
    if winner is None:
        raise ServiceError("story-not-ended", "This game has not ended.")
    players = [h for h in rules.player_houses(s) if h != winner]
    ranked = [winner, *sorted(players, key=lambda h: standing(s, h), reverse=True)]
    vassals = [h for h in houses_in_play if h not in ranked]
    final = views[frames[-1]]
    lines = tuple(
        HouseLine(
            house=h,
            place=(ranked.index(h) + 1) if h in ranked else 0,
            victory=int((final.get("victory") or {}).get(h) or 0),
            battles=fought.get(h, 0),
            won=won.get(h, 0),
            units_lost=units_lost.get(h, 0),
            units_destroyed=destroyed.get(h, 0),
            castles_taken=taken.get(h, 0),
            castles_lost=lost.get(h, 0),
        )
        for h in [*ranked, *vassals]
    )
    # The battle that changed the most: the most units fallen, then a castle won by it, then the earliest.
    biggest = max(battles, key=lambda b: (b.fallen, b.castle, -battles.index(b)), default=None)
    told = Story(
        game_id=log.game_id,
        winner=winner,
        reason=s.ended_reason or "",
        loyalty="targaryen" in houses_in_play and final.get("targaryen") is not None,
        rounds=rounds,
        houses=tuple(line_.house for line_ in lines),
        victory=series("victory"),
        power=power(),
        supply=series("supply"),
        lines=lines,
        battles=tuple(battles),
        biggest=biggest,
        frames=frames,
    )
    return told, [views[v] for v in frames]


def power_shown(view: dict[str, Any], house: str) -> int:
    """A house's Power as a public view shows it: available, or while a bid hides it, as announced."""
    shown = (view.get("power") or {}).get(house)
    if shown is None:
        shown = (view.get("power_announced") or {}).get(house)
    return int(shown or 0)


def told_in_pool(
    log: GameLog,
    lang: str,
    draw: Callable[[Story, list[dict[str, Any]], str], list[tuple[str, bytes]]] | None = None,
) -> Told | Refusal:
    """``story`` as the image pool runs it, with its pictures drawn by ``draw`` (``render.story.pictures``) in the
    game's language; a refusal comes back as a value."""
    try:
        started = time.perf_counter()
        told, views = story(log)
        worked = time.perf_counter()
        pictures = draw(told, views, lang) if draw is not None else []
        done = time.perf_counter()
        timing = {"story_ms": (worked - started) * 1000, "draw_ms": (done - worked) * 1000}
        return Told(told, tuple(pictures), timing)
    except ServiceError as err:
        return Refusal(err.code, err.message, dict(err.params))


# ----- the words (in the reader's language; plain functions of the story) -----


def place_line(line: HouseLine, story_: Story, lang: str) -> str:
    """One house's line: its place (or that it ended a vassal), victory points, battles, units and castles."""
    points = tn("story.points.loyalty" if story_.loyalty and line.house == "targaryen" else "story.points",
                line.victory, lang)  # fmt: skip
    head = (
        t("story.place", lang, place=line.place, house=house_mark(line.house, lang), points=points)
        if line.place
        else t("story.place.vassal", lang, house=house_mark(line.house, lang), points=points)
    )
    battles = tn("story.battles", line.battles, lang, won=line.won)
    units = t("story.units", lang, lost=line.units_lost, destroyed=line.units_destroyed)
    castles = t("story.castles", lang, taken=line.castles_taken, lost=line.castles_lost)
    return f"{head} · {battles} · {units} · {castles}"


def battle_line(battle: Battle, lang: str) -> str:
    """The battle that changed the most, in one sentence."""
    key = "story.biggest.castle" if battle.castle else "story.biggest"
    fallen = tn("story.fallen", battle.fallen, lang)
    return t(
        key,
        lang,
        round=battle.round,
        area=area_label(battle.area, lang),
        attacker=house_name(battle.attacker, lang),
        defender=house_name(battle.defender, lang),
        winner=house_name(battle.winner, lang),
        fallen=fallen,
    )


def story_lines(story_: Story, name: str, lang: str) -> list[str]:
    """The channel's story: the winner and why, the final standing house by house, the battle that changed the
    most, and what the pictures show."""
    head = t("story.title", lang, name=name)
    why = t(f"story.reason.{story_.reason}" if story_.reason in REASONS else "story.reason.other", lang,
            winner=house_mark(story_.winner, lang), round=story_.rounds[-1])  # fmt: skip
    lines = [head, why, t("story.standing", lang)]
    lines += [place_line(line, story_, lang) for line in story_.lines]
    if story_.biggest is not None:
        lines.append(battle_line(story_.biggest, lang))
    else:
        lines.append(t("story.no-battle", lang))
    lines.append(t("story.pictures", lang))
    return lines


def dm_text(story_: Story, house: str, name: str, lang: str) -> str:
    """A player's DM: their own house's line of the story, with the winner."""
    line = next((x for x in story_.lines if x.house == house), None)
    if line is None:
        return ""
    return "\n".join(
        [
            t("story.dm", lang, name=name, winner=house_mark(story_.winner, lang)),
            place_line(line, story_, lang),
        ]
    )


REASONS = frozenset({"round-limit", "seven-castles", "seven-loyalty"})

"""Which images to post after a step, and the images themselves: the API the Discord layer calls.

    images_for_step(view_before, view_after, events, lang) -> [(filename, png_bytes, kind), ...]

``kind`` is ``"battle"`` (a battle ended: its crop and strength table), ``"change"`` (a crop of the few areas the
step changed) or ``"board"`` (the full board: the start of the game, the end of each round's action phase, the end
of the game, or a step that changed too many areas for one crop; on the board with Essos two images, the board then
Essos with the dragon track, render/essos.py). ``/game map`` calls :func:`render.api.render_board`.
"""

from __future__ import annotations

from typing import Any

import i18n
from render.api import compose_board
from render.battle import compose_battle
from render.changes import changed_areas
from render.crop import Crop, compose, encode
from render.data import UNIT_TYPES, RenderBoard, board_of
from render.essos import compose_essos
from render.png import encode_png
from render.strings import house_name
from render.views import View, lang_of, require_public

# Steps after which the table looks at the whole board: the orders just revealed (the most important map of a round,
# issue U), the end of the Action phase, the end of the game.
WHOLE_BOARD_AFTER = frozenset({"orders-revealed", "action-cleanup", "game-over"})
MAX_CROP_AREAS = 8  # more changed areas than this, or too far apart for one crop: the full board instead
Image = tuple[str, bytes, str]


def change_crop(
    board: RenderBoard, before: View | None, after: View, events: list[dict[str, Any]], lang: str
) -> Crop | None:
    """The crop of what a step changed, or None when nothing changed or too much did for one crop."""
    changes = changed_areas(board, events, before, after)
    if not changes.areas or len(changes.areas) > MAX_CROP_AREAS:
        return None
    return compose(board, after, lang, changes.areas, moves=changes.moves, highlight=changes.areas,
                   highlight_colour=(232, 178, 20))  # fmt: skip


def _battle_images(
    board: RenderBoard,
    before: View | None,
    after: View,
    events: list[dict[str, Any]],
    lang: str,
    outcomes: dict[str, list[str]],
) -> list[Image]:
    out: list[Image] = []
    seen = (before or {}).get("battle") if isinstance((before or {}).get("battle"), dict) else None
    for battle, notes in battles_of_step(board, seen, events, lang, outcomes):
        view = before if before is not None and seen else after
        png = compose_battle(board, view, lang, battle, notes)
        out.append((f"battle-{battle['area']}-{after.get('version', 0)}.png", png, "battle"))
    return out


def battles_of_step(
    board: RenderBoard,
    seen: dict[str, Any] | None,
    events: list[dict[str, Any]],
    lang: str,
    outcomes: dict[str, list[str]],
) -> list[tuple[dict[str, Any], list[str]]]:
    """Each battle the step decided, as its image shows it (``seen``: the battle the view before the step showed),
    with the lines drawn under it: the cards fought with, whether a tie was broken, the totals by source."""
    out: list[tuple[dict[str, Any], list[str]]] = []
    for i, ev in enumerate(events):
        kind = ev.get("type")
        if kind not in ("combat-result", "neutral-attack") or ev.get("area") not in board.areas:
            continue
        battle: dict[str, Any] = dict(seen) if seen and seen.get("area") == ev.get("area") else {}
        battle["area"] = ev["area"]
        notes: list[str] = list(outcomes.get(ev["area"], []))
        if kind == "combat-result":
            battle.update(attacker=ev.get("attacker"), defender=ev.get("defender"), winner=ev.get("winner"))
            battle["cards"] = _cards_played(battle, events[:i], str(ev["area"]))
            battle["tie_broken"] = bool(ev.get("tie_broken_by_fiefdoms"))
            strength = ev.get("strength")
            if isinstance(strength, dict):
                battle["components"] = strength
            for later in events[i + 1 :] if ev["area"] not in outcomes else []:
                if later.get("type") == "combat-ended":
                    break
                notes += _note(board, later, lang)
        else:
            battle.setdefault("attacker", ev.get("house"))
            battle.setdefault("defender", "neutral")
            total = ev.get("strength")
            needed = ev.get("needed")
            comp = dict((battle.get("components") or {}).get("attacker") or {})
            if isinstance(total, int):
                comp["total"] = total
            battle["components"] = {"attacker": comp, "defender": {"neutral": needed, "total": needed}}
            battle["winner"] = ev.get("house") if ev.get("won") else "neutral"
        out.append((battle, notes))
    return out


def _cards_played(battle: dict[str, Any], earlier: list[dict[str, Any]], area: str) -> dict[str, Any]:
    """The house card each side fought with: as the view before the step showed them, then as this step's events
    revealed, cancelled and replaced them (a battle decided in the step its cards are revealed names them too)."""
    cards = dict(battle.get("cards") or {})
    sides = {battle.get("attacker"): "attacker", battle.get("defender"): "defender"}
    for e in earlier:
        if e.get("area") != area:
            continue
        if e.get("type") == "house-cards-revealed":
            cards.update({side: e[side] for side in ("attacker", "defender") if isinstance(e.get(side), str)})
        elif e.get("type") == "house-card-revealed" and e.get("side") in ("attacker", "defender"):
            cards[str(e["side"])] = e.get("card")
        elif e.get("type") == "house-card-swapped" and e.get("house") in sides:
            cards[sides[e["house"]]] = e.get("to")
    return cards


def _note(board: RenderBoard, ev: dict[str, Any], lang: str) -> list[str]:
    from render.strings import t

    kind = ev.get("type")
    if kind == "units-destroyed" and ev.get("area") in board.areas:
        units = ", ".join(t(f"unit.{u}", lang) for u in ev.get("units") or [] if f"unit.{u}" in _UNIT_KEYS)
        return [f"✕ {house_name(str(ev.get('house')), lang)}: {units} ({board.areas[ev['area']].name(lang)})"]
    if kind == "retreat" and ev.get("to") in board.areas:
        # A sentence, as the channel says it: "Arryn retreats 1 knight to Seagard".
        house = house_name(str(ev.get("house")), lang)
        return [
            t(
                "note.retreat",
                lang,
                house=house,
                units=_units(ev.get("units") or [], lang),
                to=board.areas[ev["to"]].name(lang),
            )
        ]
    return []


def _units(units: list[str], lang: str) -> str:
    """``1 knight, 2 footmen`` (declinable: «1 рыцаря»), from the catalogs' counted unit names."""
    counts: dict[str, int] = {}
    for unit in units:
        counts[unit] = counts.get(unit, 0) + 1
    groups = [i18n.Declined(i18n.tn(f"units.{u}", n, lang), i18n.unit_forms(u, lang, n)) for u, n in counts.items()]
    forms = set.intersection(*(set(g.forms) for g in groups)) if groups else set()
    return i18n.Declined(", ".join(groups), {case: ", ".join(format(g, case) for g in groups) for case in forms})


_UNIT_KEYS = {f"unit.{u}" for u in UNIT_TYPES}


def _whole_board(board: RenderBoard, view: View, lang: str, version: object) -> list[Image]:
    """The whole board: its image, and on the board with Essos the Essos image after it (render/essos.py)."""
    out = [(f"board-{version}.png", encode_png(compose_board(board, view, lang)), "board")]
    if board.has_essos:
        out.append((f"essos-{version}.png", encode(compose_essos(board, view, lang).image), "board"))
    return out


def images_for_step(
    view_before: View | None,
    view_after: View,
    events: list[dict[str, Any]],
    lang: str = "en",
    *,
    crops: bool = True,
    outcomes: dict[str, list[str]] | None = None,
) -> list[Image]:
    """The images of one step. ``view_before`` is the public view before the step (None at the start of the game),
    ``view_after`` the public view after it, ``events`` the public events it produced (private ones are ignored).
    Private views are refused (:class:`PrivateViewError`). Without ``crops``, only what the game channel shows
    (issue U): each battle, and the whole board when the table looks at it (:data:`WHOLE_BOARD_AFTER`, the start).
    ``outcomes``: by battle area, what followed the battle in words (losses, retreats, cards' effects), as the channel
    tells it, drawn under the battle's table; without them, short notes are drawn."""
    after = require_public(view_after)
    before = require_public(view_before) if view_before is not None else None
    lang = lang_of(lang)
    board = board_of(after)
    events = [e for e in events if isinstance(e, dict) and not e.get("private_to")]
    version = after.get("version", 0)
    out = _battle_images(board, before, after, events, lang, outcomes or {})
    kinds = {e.get("type") for e in events}
    if before is None or kinds & WHOLE_BOARD_AFTER:
        return [*out, *_whole_board(board, after, lang, version)]
    if not crops:
        return out
    battle_areas = {e.get("area") for e in events if e.get("type") in ("combat-result", "neutral-attack")}
    fight = before.get("battle") if isinstance(before.get("battle"), dict) else None
    if fight and fight.get("area") in battle_areas:  # the battle image already shows its origin and supporters
        battle_areas.add(fight.get("from"))
        for group in (fight.get("supporters") or {}).values():
            battle_areas.update(group or [])
    changes = changed_areas(board, events, before, after)
    rest = [a for a in changes.areas if a not in battle_areas]
    if out and not rest:
        return out
    if not changes.areas:
        return out
    if len(changes.areas) > MAX_CROP_AREAS:
        return [*out, *_whole_board(board, after, lang, version)]
    crop = change_crop(board, before, after, events, lang)
    if crop is None:
        return out
    return [*out, (f"changes-{version}.png", encode(crop.image), "change")]

"""The answers a search compares: a few sensible ones and variations of them, every one legal by construction.

Orders: the heuristic agent's assignments under several seeds, then variations of the first (two areas swap their
tokens, or an area takes a token left unused, within the prompt's special-order allowance). Marches: the heuristic
agent's march, holding still, and every whole army moving to each place all of it can reach (also with one footman
left behind to keep the land), ranked by a quick look at what lies there and cut to a handful.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from engine import rulesets
from engine.agents import HeuristicAgent
from engine.prompts import Prompt


def _key(answer: Any) -> str:
    return repr(answer)


def order_candidates(prompt: Prompt, view: dict[str, Any], rng: random.Random, count: int) -> list[dict[str, Any]]:
    """Up to ``count`` different legal ``orders`` answers; the first is the heuristic agent's."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()

    def add(answer: dict[str, Any]) -> None:
        if _key(answer) not in seen and len(out) < count:
            seen.add(_key(answer))
            out.append(answer)

    for _ in range(max(2, count // 3)):
        add(HeuristicAgent(rng.getrandbits(32)).answer(prompt, view))
    base = dict(out[0]["orders"]) if out else {}
    tokens: Counter[str] = Counter(prompt.choices["tokens"])
    stars = int(prompt.choices["stars"])
    for _ in range(count * 6):
        if len(out) >= count or not base:
            break
        varied = _vary(base, tokens, stars, rng)
        if varied is not None:
            add({"orders": varied})
    return out


def _vary(orders: dict[str, str], tokens: Counter[str], stars: int, rng: random.Random) -> dict[str, str] | None:
    """One or two changes to ``orders``: a swap of two areas' tokens, or a token left unused put on an area."""
    varied = dict(orders)
    for _ in range(rng.randint(1, 2)):
        areas = sorted(varied)
        if len(areas) >= 2 and rng.random() < 0.4:
            a, b = rng.sample(areas, 2)
            varied[a], varied[b] = varied[b], varied[a]
            continue
        used = Counter(varied.values())
        unused = sorted(t for t, n in tokens.items() if n > used[t])
        area = rng.choice(areas)
        starred = sum(1 for t in varied.values() if t.endswith("*")) - varied[area].endswith("*")
        options = [t for t in unused if not t.endswith("*") or starred < stars]
        if not options:
            continue
        varied[area] = rng.choice(options)
    return varied if varied != orders else None


def march_candidates(prompt: Prompt, view: dict[str, Any], heuristic: Any, count: int) -> list[dict[str, Any]]:
    """Up to ``count`` different legal ``march`` answers; the first is the heuristic agent's, the second holds."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()

    def add(answer: dict[str, Any]) -> None:
        if _key(answer) not in seen:
            seen.add(_key(answer))
            out.append(answer)

    add(heuristic)
    add(prompt.default)
    kinds = rulesets.named(view["options"]["ruleset"]).unit_types()
    ranked: list[tuple[float, str, dict[str, Any]]] = []
    for origin, option in sorted(prompt.choices.items()):
        units = [t for t, n in option["units"].items() for _ in range(n)]
        reach = [set(option["destinations"].get(t, [])) for t in option["units"]]
        common = sorted(set.intersection(*reach)) if reach else []
        leave = bool(option.get("can_leave_power"))
        for dest in common:
            value = _destination_value(view, prompt.house, dest, sum(kinds[t].strength for t in units))
            whole = {"from": origin, "moves": [{"to": dest, "units": units}], "leave_power": leave}
            ranked.append((value, f"{origin}>{dest}", whole))
            if len(units) >= 2:  # all but its weakest unit, left to hold the area
                rest = list(units)
                rest.remove(min(units, key=lambda t: (kinds[t].strength, t)))
                part = {"from": origin, "moves": [{"to": dest, "units": rest}], "leave_power": False}
                ranked.append((value - 0.5, f"{origin}>{dest}-", part))
    for _, _, answer in sorted(ranked, key=lambda r: (-r[0], r[1])):
        if len(out) >= count:
            break
        add(answer)
    return out


def _destination_value(view: dict[str, Any], house: str, dest: str, strength: int) -> float:
    """A quick look: castles and Power crowns not ours are worth taking, enemy strength there costs."""
    info = view["areas"][dest]
    value = 0.0
    if info["controller"] != house:
        value += 3.0 if info.get("garrison") or _fortified(view, dest) else 1.0
    enemy = sum(1 for u in info["units"] if u["house"] != house)
    neutral = info.get("neutral")
    if isinstance(neutral, int):
        enemy += neutral
    return value - max(0, enemy - strength) * 1.5


def _fortified(view: dict[str, Any], area: str) -> bool:
    board = rulesets.board_named(view["options"]["board"])
    return board.areas[area].fortification > 0

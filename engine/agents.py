"""Agents that answer any prompt legally, seeing only their prompt and their own house's view.

``RandomAgent`` picks uniformly among legal answers where they can be enumerated cheaply, and
``HeuristicAgent`` plays a simple sensible game. Both stand in for absent players and fill seats in
the demo. An agent's answer may still be refused by the engine (e.g. a random march that breaks
supply); the caller then falls back to the prompt's default, which is always legal.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from engine import data, rulesets
from engine.prompts import Prompt


class Agent:
    name = "default"

    def __init__(self, seed: int = 0) -> None:
        self.random = random.Random(seed)

    def answer(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        return prompt.default


class RandomAgent(Agent):
    name = "random"

    def answer(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        handler = getattr(self, "_" + prompt.kind.replace("-", "_"), None)
        if handler is None:
            return self._generic(prompt)
        return handler(prompt, view)

    def _generic(self, prompt: Prompt) -> Any:
        choices = prompt.choices
        if isinstance(choices, list) and choices:
            return self.random.choice(choices)
        return prompt.default

    def _orders(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        c = prompt.choices
        tokens: list[str] = []
        for t, n in c["tokens"].items():
            tokens += [t] * n
        self.random.shuffle(tokens)
        stars = c["stars"]
        orders: dict[str, str] = {}
        for area in c["areas"]:
            while tokens:
                t = tokens.pop()
                if t.endswith("*"):
                    if stars == 0:
                        continue
                    stars -= 1
                orders[area] = t
                break
        return {"orders": orders}

    def _vassal_orders(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        c = prompt.choices
        areas = list(c["areas"])
        tokens = list(c["tokens"])
        self.random.shuffle(areas)
        self.random.shuffle(tokens)
        count = self.random.randint(0, min(c["max"], len(areas), len(tokens)))
        return {"orders": dict(zip(areas[:count], tokens[:count], strict=True))}

    def _raid(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        area = self.random.choice(sorted(prompt.choices))
        targets = prompt.choices[area]
        return {"from": area, "target": self.random.choice([*targets, None])}

    def _march(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        area = self.random.choice(sorted(prompt.choices))
        option = prompt.choices[area]
        moves: dict[str, list[str]] = {}
        if self.random.random() < 0.5:
            # The whole army to one place it can all reach: the kind of march that starts battles.
            reach = [set(option["destinations"].get(t, [])) for t in option["units"]]
            common = sorted(set.intersection(*reach)) if reach else []
            if common:
                dest = self.random.choice(common)
                units = [t for t, n in option["units"].items() for _ in range(n)]
                leave = option.get("can_leave_power", False) and self.random.random() < 0.5
                return {"from": area, "moves": [{"to": dest, "units": units}], "leave_power": leave}
        for unit_type, count in option["units"].items():
            for _ in range(count):
                destinations = option["destinations"].get(unit_type, [])
                if destinations and self.random.random() < 0.6:
                    moves.setdefault(self.random.choice(destinations), []).append(unit_type)
        leave = option.get("can_leave_power", False) and self.random.random() < 0.5
        return {"from": area, "moves": [{"to": d, "units": u} for d, u in moves.items()], "leave_power": leave}

    def _bid(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        high = prompt.choices.get("max", 0) if isinstance(prompt.choices, dict) else max(prompt.choices, default=0)
        return self.random.randint(0, int(high))

    def _bid_handout(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        """Targaryen's tokens, one at a time to any other house in the bid (M-TARG-18)."""
        handout: Counter[str] = Counter()
        for _ in range(prompt.choices["amount"]):
            handout[self.random.choice(prompt.choices["houses"])] += 1
        return dict(handout)

    def _loyalty_areas(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        """Deck IV: now and then decline (when allowed), else tokens on areas picked at random."""
        c = prompt.choices
        if c["optional"] and self.random.random() < 0.3:
            return []
        count = c["count"] if c["exact"] else self.random.randint(1, c["count"])
        return self.random.sample(c["areas"], count)

    def _playing_with_fire(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        """Deck IV's Playing With Fire: now and then decline, else a land and a player picked at random."""
        c = prompt.choices
        if self.random.random() < 0.3:
            return None
        return {"area": self.random.choice(c["areas"]), "house": self.random.choice(c["houses"])}

    def _loyalty_move(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        """Scattering Dissent, Word Spreads Quickly: any token, to any land it may go to."""
        origin = self.random.choice(sorted(prompt.choices))
        return {"from": origin, "to": self.random.choice(prompt.choices[origin])}

    def _loan_faceless(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        """The Faceless Men: for each unit type the card names, in its order, an area at random among those not
        picked yet (the first must be named when it can be)."""
        picks: dict[str, str | None] = {}
        for unit_type, areas in prompt.choices.items():
            free = [a for a in areas if a not in picks.values()]
            picks[unit_type] = self.random.choice(free) if free else None
        return picks

    def _loan_areas(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        c = prompt.choices
        return self.random.sample(c["areas"], min(c["count"], len(c["areas"])))

    def _loan_pyromancer(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        c = prompt.choices
        return {"area": self.random.choice(c["areas"]), "token": self.random.choice(c["tokens"])}

    def _loan_spy_deck(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        return self.random.choice(prompt.choices)

    def _loan_spy_arrange(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        """Each card on top or at the bottom at random, in a random order."""
        cards = list(prompt.choices["cards"])
        self.random.shuffle(cards)
        split = self.random.randint(0, len(cards))
        return {"top": cards[:split], "bottom": cards[split:]}

    def _loan_units(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        """The default placement with now and then a unit left in the reserve (fewer units never break supply)."""
        plan: dict[str, list[str]] = {}
        for area, types in prompt.default.items():
            kept = [t for t in types if self.random.random() < 0.8]
            if kept:
                plan[area] = kept
        return plan

    def _interest_units(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        return prompt.default

    def _casualties(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        pool = [t for t, n in prompt.choices["units"].items() for _ in range(n)]
        self.random.shuffle(pool)
        return pool[: prompt.choices["count"]]


class HeuristicAgent(RandomAgent):
    """Defends home, marches at weakly held castles, bids modestly, picks sensible house cards."""

    name = "heuristic"

    def _orders(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        c = prompt.choices
        house = prompt.house
        left = Counter(c["tokens"])
        stars = c["stars"]
        areas = view["areas"]
        home = next((a for a, v in areas.items() if v.get("garrison") and v["controller"] == house), None)

        def take(*preferred: str) -> str | None:
            nonlocal stars
            for t in preferred:
                if left[t] > 0 and (not t.endswith("*") or stars > 0):
                    left[t] -= 1
                    stars -= t.endswith("*")
                    return t
            return None

        orders: dict[str, str] = {}
        kinds = rulesets.named(view["options"].get("ruleset", rulesets.DEFAULT)).unit_types()
        strong = sorted(c["areas"], key=lambda a: -sum(kinds[u["type"]].strength for u in areas[a]["units"]))
        for area in strong:
            size = len(areas[area]["units"])
            at_sea = not view["areas"][area]["units"] or kinds[areas[area]["units"][0]["type"]].at_sea
            if area == home:
                t = take("defense2*", "defense1", "consolidate*", "consolidate", "support0")
            elif size == 1 and at_sea and left["sea-iron-bank"] and _bank_worth_a_visit(view, house):
                t = take("sea-iron-bank", "support0", "raid")  # a lone ship visits the bank it can afford
            elif size >= 2 or self.random.random() < 0.5:
                t = take("march1*", "march0", "march-1", "raid", "support0", "consolidate")
            else:
                t = take("consolidate", "support0", "raid", "defense1", "support1*", "raid*")
            if t is None:
                t = take(*sorted(k for k, n in left.items() if n > 0))
            if t is not None:
                orders[area] = t
        return {"orders": orders}

    def _march(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        house = prompt.house
        areas = view["areas"]
        best: tuple[int, str, str] | None = None
        for origin, option in sorted(prompt.choices.items()):
            for dest in sorted(set().union(*[set(d) for d in option["destinations"].values()] or [set()])):
                info = areas[dest]
                castle_value = 3 if info.get("garrison") or _is_castle(view, dest) else 1
                enemy = sum(1 for u in info["units"] if u["house"] != house)
                if info.get("neutral") not in (None, "impassable"):
                    enemy += int(info["neutral"])
                if info["controller"] == house:
                    continue
                score = castle_value * 2 - enemy
                if best is None or score > best[0]:
                    best = (score, origin, dest)
        if best is None or best[0] <= 0:
            return prompt.default
        _, origin, dest = best
        option = prompt.choices[origin]
        units = [t for t, n in option["units"].items() for _ in range(n) if dest in option["destinations"].get(t, [])]
        return {
            "from": origin,
            "moves": [{"to": dest, "units": units}],
            "leave_power": option.get("can_leave_power", False),
        }

    def _bid(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        high = prompt.choices.get("max", 0) if isinstance(prompt.choices, dict) else max(prompt.choices, default=0)
        return min(int(high), self.random.randint(0, 2))

    def _bid_handout(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        """Targaryen's tokens to the house that bid least, where they change the top of the track least."""
        bids: dict[str, int] = prompt.choices["bids"]
        lowest = min(prompt.choices["houses"], key=lambda h: (bids.get(h, 0), -prompt.choices["houses"].index(h)))
        return {lowest: prompt.choices["amount"]}

    def _loyalty_areas(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        """Deck IV: Targaryen pays when it keeps Power for later; tokens go first where they are closest to being
        collected (areas it already has armies beside are not known here: the board's order decides)."""
        c = prompt.choices
        if c["optional"] and prompt.house == "targaryen" and view["power"].get(prompt.house, 0) < c["cost"] + 2:
            return []
        return list(c["areas"][: c["count"]])

    def _loyalty_move(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        """The default: Targaryen moves a token into an area it controls, the others keep tokens out of them."""
        return prompt.default

    def _loyalty_undo(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        """Targaryen undoes a move when it keeps 2 Power after paying for it."""
        return "undo" if view["power"].get(prompt.house, 0) >= prompt.info["cost"] + 2 else "keep"

    def _house_card(self, prompt: Prompt, view: dict[str, Any]) -> Any:

        cards = sorted(prompt.choices, key=lambda c: data.house_cards()[c].strength)
        return cards[len(cards) // 2]

    def _support(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        house = prompt.house
        if house == prompt.info.get("attacker") or house == prompt.info.get("defender"):
            return "attacker" if house == prompt.info.get("attacker") else "defender"
        return "none"

    def _consolidate_order(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        """The Iron Bank first when a loan it can carry is already within reach (a house after it may take it);
        otherwise Consolidate Power first, whose Power may pay for a better loan."""
        power = int(prompt.info["power"])
        bank = view.get("bank") or {"slots": [], "loans": {}}
        loans = len(bank["loans"].get(prompt.house, []))
        within_reach = [
            slot
            for slot in bank["slots"]
            if slot["loan"] is not None and slot["payment"] <= power and _carried(slot, power, loans, view)
        ]
        return "iron-bank" if within_reach else prompt.default

    def _loan(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        """The first loan the house can carry to the end: it stands in for absent players, and a loan it cannot pay
        interest on costs units every Westeros phase after."""
        loans = int(prompt.info["loans"])
        for offer in prompt.info["offers"]:
            if offer["loan"] in prompt.choices and _carried(offer, prompt.info["power"], loans, view):
                return offer["loan"]
        return None

    def _loan_faceless(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        """Other houses' units first; the taker's own only when the text leaves no other choice."""
        units, house = prompt.info["units"], prompt.house
        picks: dict[str, str | None] = {}
        for unit_type, areas in prompt.choices.items():
            free = sorted((a for a in areas if a not in picks.values()), key=lambda a: units[a]["house"] == house)
            picks[unit_type] = free[0] if free else None
        return picks

    def _loan_areas(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        """Tokens in the house's own areas first."""
        c, house = prompt.choices, prompt.house
        areas = sorted(c["areas"], key=lambda a: view["areas"][a]["controller"] != house)
        return areas[: min(c["count"], len(areas))]

    def _loan_pyromancer(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        """Another house's castle burns when there is one (and takes a crown); else the house's own, with a barrel."""
        c, house = prompt.choices, prompt.house
        foreign = [a for a in c["areas"] if view["areas"][a]["controller"] not in (None, house)]
        if foreign:
            return {"area": foreign[0], "token": "crown"}
        return {"area": c["areas"][0], "token": "barrel"}

    def _loan_spy_deck(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        return prompt.default

    def _loan_spy_arrange(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        return prompt.default

    def _loan_units(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        return prompt.default

    def _casualties(self, prompt: Prompt, view: dict[str, Any]) -> Any:
        return prompt.default


def _carried(offer: dict[str, Any], power: int, loans: int, view: dict[str, Any]) -> bool:
    """Whether, after paying for this loan and taking what it gives, the house's Power covers the interest on all its
    loans at every Westeros phase left."""
    card = data.loan_cards()[offer["loan"]]
    gives = int(card.get("power") or (card.get("develop") or {}).get("power") or 0)
    phases_left = max(0, int(data.setups()["rounds"]) - int(view["round"]))
    return power - int(offer["payment"]) + gives >= (loans + 1) * phases_left


def _bank_worth_a_visit(view: dict[str, Any], house: str) -> bool:
    """Some card in the bank the house could take and carry (a discount aside: the order resolves later)."""
    bank = view.get("bank")
    power = (view.get("power") or {}).get(house)
    if not bank or power is None:
        return False
    loans = len(bank["loans"].get(house, []))
    return any(slot["loan"] is not None and _carried(slot, int(power), loans, view) for slot in bank["slots"])


def _is_castle(view: dict[str, Any], area: str) -> bool:
    board = rulesets.board_named(view["options"]["board"])
    return board.areas[area].fortification > 0


AGENTS: dict[str, type[Agent]] = {"random": RandomAgent, "heuristic": HeuristicAgent, "default": Agent}

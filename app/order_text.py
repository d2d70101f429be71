"""Read typed orders such as ``Winterfell march+1, White Harbor defense, Shivering Sea support``.

Forgiving on purpose: English or Russian, any case, with or without apostrophes and hyphens, common
abbreviations (``wf``, ``kl``), unique prefixes and small typos. Everything it cannot read is reported
with a reason, never guessed silently.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from functools import cache

from engine import data

AREA_ALIASES = {
    "wf": "winterfell",
    "kl": "kings-landing",
    "wh": "white-harbor",
    "ds": "dragonstone",
    "se": "storms-end",
    "hg": "highgarden",
    "lp": "lannisport",
    "rr": "riverrun",
    "hh": "harrenhal",
    "mc": "moat-cailin",
    "ss": "the-shivering-sea",
    "bb": "blackwater-bay",
    "sb": "shipbreaker-bay",
    "gs": "the-golden-sound",
    "ib": "ironmans-bay",
}

# Order words -> (type, is it the special one, bonus when given); RU words from the Russian rulebook.
ORDER_WORDS = {
    "march": "march", "m": "march", "поход": "march", "марш": "march",
    "defense": "defense", "defence": "defense", "def": "defense", "d": "defense", "оборона": "defense",
    "support": "support", "sup": "support", "s": "support", "подмога": "support", "поддержка": "support",
    "raid": "raid", "r": "raid", "набег": "raid",
    "consolidate": "consolidate", "cp": "consolidate", "power": "consolidate", "consolidatepower": "consolidate",
    "усиление": "consolidate", "усилениевласти": "consolidate", "власть": "consolidate",
}  # fmt: skip
SPECIAL_WORDS = {"special", "star", "особый", "особая", "звезда"}


def normalise(text: str) -> str:
    text = text.lower().replace("ё", "е")
    return re.sub(r"[^0-9a-zа-я]+", "", text)


@cache
def area_names() -> dict[str, str]:
    """Normalised name -> area id, for every name in every language, with and without a leading 'the'."""
    names: dict[str, str] = {}
    for a in data.board().areas.values():
        for name in [a.id, *a.names.values()]:
            key = normalise(name)
            names[key] = a.id
            if key.startswith("the"):
                names[key[3:]] = a.id
    for alias, area in AREA_ALIASES.items():
        names[alias] = area
    return names


@dataclass
class Parsed:
    orders: dict[str, str] = field(default_factory=dict)
    problems: list[dict[str, str]] = field(default_factory=list)  # {"code", "text", and details}


def find_area(text: str) -> tuple[str | None, list[str]]:
    """The area a piece of text names, or None with the candidates when it is ambiguous or unknown."""
    key = normalise(text)
    names = area_names()
    if key in names:
        return names[key], []
    prefixed = sorted({area for name, area in names.items() if name.startswith(key)}) if len(key) >= 3 else []
    if len(prefixed) == 1:
        return prefixed[0], []
    if len(prefixed) > 1:
        return None, prefixed
    close = difflib.get_close_matches(key, list(names), n=3, cutoff=0.75)
    areas = sorted({names[c] for c in close})
    if len(areas) == 1:
        return areas[0], []
    return None, areas


def parse_order_word(text: str) -> str | None:
    """``march+1`` / ``поход +1`` / ``special raid`` / ``defense*`` -> an order token id, or None."""
    lowered = text.lower().replace("ё", "е").strip()
    star = "*" in lowered or any(w in lowered.split() for w in SPECIAL_WORDS) or "★" in lowered
    bonus_match = re.search(r"([+-]\s*\d)", lowered)
    bonus = int(bonus_match.group(1).replace(" ", "")) if bonus_match else None
    words = [w for w in re.split(r"[^a-zа-я]+", lowered) if w and w not in SPECIAL_WORDS]
    kind = ORDER_WORDS.get("".join(words)) or next((ORDER_WORDS[w] for w in words if w in ORDER_WORDS), None)
    if kind is None:
        return None
    if kind == "march":
        if star or bonus == 1:
            return "march1*"
        return "march-1" if bonus == -1 else "march0"
    if kind == "defense":
        return "defense2*" if star or bonus == 2 else "defense1"
    if kind == "support":
        return "support1*" if star or bonus == 1 else "support0"
    if kind == "raid":
        return "raid*" if star else "raid"
    return "consolidate*" if star else "consolidate"


def parse_orders(text: str) -> Parsed:
    """Split on commas, semicolons or new lines; in each piece the order word comes last (or first)."""
    result = Parsed()
    for piece in re.split(r"[,;\n]+", text):
        piece = piece.strip()
        if not piece:
            continue
        token, area_text = _split_piece(piece)
        if token is None:
            result.problems.append({"code": "order-unreadable", "text": piece})
            continue
        area, candidates = find_area(area_text)
        if area is None:
            code = "area-ambiguous" if candidates else "area-unknown"
            result.problems.append({"code": code, "text": area_text, "candidates": ", ".join(candidates)})
            continue
        if area in result.orders:
            result.problems.append({"code": "area-twice", "text": piece, "area": area})
            continue
        result.orders[area] = token
    return result


def _split_piece(piece: str) -> tuple[str | None, str]:
    words = piece.split()
    # Try the longest order phrase at the end, then at the start: "White Harbor special raid", "raid* Pyke".
    for n in range(min(3, len(words) - 1), 0, -1):
        token = parse_order_word(" ".join(words[-n:]))
        if token is not None and _looks_like_order(words[-n:]):
            return token, " ".join(words[:-n])
        token = parse_order_word(" ".join(words[:n]))
        if token is not None and _looks_like_order(words[:n]):
            return token, " ".join(words[n:])
    glued = re.match(r"^(.*?)[\s]*((?:special\s+|особый\s+)?[a-zа-я]+\s*[*★]?\s*[+-]?\s*\d?\s*[*★]?)$", piece.lower())
    if glued:
        token = parse_order_word(glued.group(2))
        if token is not None and glued.group(1).strip():
            return token, glued.group(1)
    return None, piece


def _looks_like_order(words: list[str]) -> bool:
    first = re.split(r"[^a-zа-яё]+", words[0].lower().replace("ё", "е"))
    return any(w in ORDER_WORDS or w in SPECIAL_WORDS for w in first if w) or any(
        w.lower().strip("*+-0123456789") in ORDER_WORDS for w in words
    )

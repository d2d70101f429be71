"""Legibility figures worked out from the renderer's own layout (not from pixels): the smallest chip or token and
the smallest name, at a phone's width (1080 px), and the overlaps between pieces, names and arrows. Used by
``bench/render.py --json`` and the tests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from render import style
from render.battle import battle_crop
from render.crop import Crop, Move, compose
from render.data import board_of
from render.essos import compose_essos, essos_areas
from render.layout import board_pieces, min_sizes, order_gaps, outside, overlaps
from render.views import View


@dataclass
class Figures:
    min_piece_px: float
    min_label_px: float
    overlaps: int
    outside: int = 0  # pieces partly off their own area
    max_order_gap_px: float = 0.0  # the farthest an order lies from its units

    def as_dict(self, prefix: str) -> dict[str, Any]:
        return {
            f"{prefix}_min_piece_px": round(self.min_piece_px, 1),
            f"{prefix}_min_label_px": round(self.min_label_px, 1),
            f"{prefix}_overlaps": self.overlaps,
            f"{prefix}_outside": self.outside,
            f"{prefix}_max_order_gap_px": round(self.max_order_gap_px, 1),
        }


def board_figures(views: list[View], lang: str = "en") -> Figures:
    """The full board shown ``style.PHONE_W`` px wide (the board image is as wide as the map; on the board with
    Essos, as its Westeros side, and the areas the Essos image shows are measured there: :func:`essos_figures`)."""
    piece, label, count, off, gap = 1e9, 1e9, 0, 0, 0.0
    for view in views:
        board = board_of(view)
        k = style.PHONE_W / board.board_width
        pieces = board_pieces(board, view, lang)
        if board.has_essos:
            apart = set(essos_areas(board))
            pieces = [p for p in pieces if p.area not in apart]
        p, lab = min_sizes(pieces)
        piece, label = min(piece, p * k), min(label, lab * k)
        count += len(overlaps(pieces))
        off += len(outside(board, pieces))
        gap = max([gap, *(g * k for g in order_gaps(pieces).values())])
    return Figures(piece, label, count, off, gap)


def essos_figures(views: list[View], lang: str = "en") -> Figures:
    """The Essos image of each view on the board with Essos (others have none), as a post shows it: 1080 px wide."""
    crops = [compose_essos(board_of(v), v, lang) for v in views if board_of(v).has_essos]
    return crop_figures(crops)


def crop_figures(crops: list[Crop]) -> Figures:
    piece, label, count = 1e9, 1e9, 0
    for c in crops:
        p, lab = c.min_sizes()
        piece, label = min(piece, p), min(label, lab)
        count += c.overlap_count()
    return Figures(piece, label, count)


def sample_crops(view: View, battles: list[View], lang: str = "en") -> list[Crop]:
    """Change crops for typical steps on ``view`` (marches, a raid, a retreat, a muster across the board's regions, and
    in Essos on the board with it) and the battle crops of ``battles``."""
    steps: list[tuple[list[str], list[Move]]] = [
        (["moat-cailin", "the-twins"], [Move("stark", "march", "moat-cailin", "the-twins")]),
        (["riverrun", "harrenhal", "stoney-sept"], [Move("lannister", "march", "riverrun", "harrenhal")]),
        (["sunset-sea", "ironmans-bay"], [Move("greyjoy", "march", "sunset-sea", "ironmans-bay")]),
        (["yronwood", "sunspear", "salt-shore"], [Move("martell", "march", "yronwood", "salt-shore")]),
        (["the-reach", "highgarden"], [Move("tyrell", "retreat", "the-reach", "highgarden")]),
        (["port-of-lannisport", "the-golden-sound"],
         [Move("lannister", "raid", "port-of-lannisport", "the-golden-sound")]),
        (["kings-landing", "dragonstone", "blackwater-bay"], []),
        (["winterfell", "white-harbor", "karhold"], [Move("stark", "march", "winterfell", "karhold")]),
    ]  # fmt: skip
    board = board_of(view)
    if board.has_essos:  # and steps in Essos, to it and back (the areas' houses do not matter here)
        steps += [
            (["norvos", "the-rhoyne"], [Move("targaryen", "march", "norvos", "the-rhoyne")]),
            (
                ["pentos", "port-of-pentos", "bay-of-pentos"],
                [Move("targaryen", "raid", "port-of-pentos", "bay-of-pentos")],
            ),
            (["volantis", "myr", "the-disputed-lands"], [Move("targaryen", "march", "myr", "volantis")]),
            (["braavos", "pentos"], [Move("targaryen", "retreat", "braavos", "pentos")]),
            (["dragonstone", "bay-of-pentos"], [Move("baratheon", "march", "dragonstone", "bay-of-pentos")]),
        ]
    out = [compose(board, view, lang, focus, moves=moves, highlight=focus) for focus, moves in steps]
    out += [battle_crop(board_of(b), b, b["battle"], lang) for b in battles]
    return out

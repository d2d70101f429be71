"""Checks and accessors for the view dicts the renderer draws from (docs/view-format.md)."""

from __future__ import annotations

from typing import Any

from render.data import ORDER_TYPES, board_of

View = dict[str, Any]


class ViewError(ValueError):
    """The view cannot be drawn (not a view, or the wrong kind for this entry point)."""


class PrivateViewError(ViewError):
    """A private view reached a public entry point: its secrets must never be drawn into a public image."""


def check(view: Any) -> View:
    """A view that can be drawn: every area it names is on its board (:func:`render.data.board_of`), every unit of a
    type of that board's game (dragons only where Targaryen plays)."""
    if not isinstance(view, dict) or not isinstance(view.get("areas"), dict):
        raise ViewError("not a view: expected a dict with an 'areas' mapping")
    board = board_of(view)
    unknown = set(view["areas"]) - set(board.areas)
    if unknown:
        raise ViewError(f"unknown areas in view: {sorted(unknown)}")
    for area_id, state in view["areas"].items():
        if state is None:
            continue
        if not isinstance(state, dict):
            raise ViewError(f"{area_id}: area state must be a dict")
        for unit in state.get("units") or []:
            if not isinstance(unit, dict) or unit.get("type") not in board.unit_types:
                raise ViewError(f"{area_id}: bad unit {unit!r}")
        order = state.get("order")
        if order is not None:
            if not isinstance(order, dict) or not isinstance(order.get("house"), str):
                raise ViewError(f"{area_id}: bad order {order!r}")
            if not order.get("hidden") and order.get("type") not in ORDER_TYPES:
                raise ViewError(f"{area_id}: bad order type {order.get('type')!r}")
    return view


def require_public(view: Any) -> View:
    v = check(view)
    if v.get("viewer") is not None:
        raise PrivateViewError(f"refusing to draw the private view of {v['viewer']!r} as a public image")
    return v


def require_private(view: Any) -> View:
    v = check(view)
    viewer = v.get("viewer")
    if not isinstance(viewer, str) or not viewer:
        raise ViewError("render_private_board needs a private view (viewer = a house id)")
    return v


def area_state(view: View, area_id: str) -> dict[str, Any]:
    state: dict[str, Any] = view["areas"].get(area_id) or {}
    return state


def players(view: View) -> list[str]:
    got = view.get("players")
    if isinstance(got, list) and got:
        return [str(h) for h in got]
    seen: list[str] = []
    for track in (view.get("tracks") or {}).values():
        for h in track or []:
            if h not in seen:
                seen.append(h)
    return seen


def dragon_strength(view: View) -> int | None:
    """The strength of Targaryen's dragons (``view["targaryen"]["dragon_strength"]``), None in a game without them."""
    block = view.get("targaryen")
    got = block.get("dragon_strength") if isinstance(block, dict) else None
    return got if isinstance(got, int) and not isinstance(got, bool) else None


def dragon_rounds(view: View) -> list[int]:
    """The rounds whose space on the dragon strength track still holds a strength token."""
    block = view.get("targaryen")
    got = block.get("dragon_rounds") if isinstance(block, dict) else None
    return sorted(r for r in got if isinstance(r, int) and not isinstance(r, bool)) if isinstance(got, list) else []


def lang_of(lang: str) -> str:
    if lang not in ("en", "ru"):
        raise ViewError(f"unsupported language {lang!r} (en | ru)")
    return lang


def loyalty_tokens(view: View) -> dict[str, int]:
    """Targaryen's loyalty tokens on the board (``view["targaryen"]["loyalty_tokens"]``): area -> how many, only the
    areas holding at least one; empty in a game without Targaryen."""
    block = view.get("targaryen")
    got = block.get("loyalty_tokens") if isinstance(block, dict) else None
    if not isinstance(got, dict):
        return {}
    return {str(a): n for a, n in got.items() if isinstance(n, int) and not isinstance(n, bool) and n > 0}


def loyalty_reserve(view: View) -> int | None:
    """Targaryen's loyalty tokens not on the board (``view["targaryen"]["loyalty_reserve"]``), None when not given."""
    block = view.get("targaryen")
    got = block.get("loyalty_reserve") if isinstance(block, dict) else None
    return got if isinstance(got, int) and not isinstance(got, bool) else None


DEVELOPMENT_TOKENS = ("barrel", "crown", "stronghold")  # the Iron Bank's development tokens, in drawing order


def bank(view: View) -> dict[str, Any] | None:
    """The Iron Bank (``view["bank"]``, Mother of Dragons with Targaryen), None in a view without one."""
    got = view.get("bank")
    return got if isinstance(got, dict) and isinstance(got.get("slots"), list) else None


def developed(view: View) -> dict[str, tuple[tuple[str, int], ...]]:
    """The Iron Bank's development tokens on the board: area -> (token, how many) in ``DEVELOPMENT_TOKENS`` order,
    only the areas holding at least one; empty in a view without the bank."""
    got = (bank(view) or {}).get("developed")
    if not isinstance(got, dict):
        return {}
    out: dict[str, tuple[tuple[str, int], ...]] = {}
    for area, tokens in got.items():
        if not isinstance(tokens, dict):
            continue
        held = tuple(
            (kind, n) for kind in DEVELOPMENT_TOKENS if isinstance(n := tokens.get(kind), int) and not isinstance(
                n, bool) and n > 0
        )  # fmt: skip
        if held:
            out[str(area)] = held
    return out


def declined(view: View) -> dict[str, tuple[str, ...]]:
    """The printed symbols the Iron Bank's decline tokens cover: area -> symbols ("castle"); empty without the bank."""
    got = (bank(view) or {}).get("declined")
    if not isinstance(got, dict):
        return {}
    return {str(a): tuple(str(x) for x in xs) for a, xs in got.items() if isinstance(xs, list) and xs}

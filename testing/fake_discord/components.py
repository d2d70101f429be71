"""Helpers over message/modal component trees (action rows, buttons, selects, v2 layouts)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from .errors import FakeDiscordError

ACTION_ROW = 1
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
USER_SELECT = 5
ROLE_SELECT = 6
MENTIONABLE_SELECT = 7
CHANNEL_SELECT = 8
SECTION = 9
TEXT_DISPLAY = 10
CONTAINER = 17
LABEL = 18

SELECT_TYPES = frozenset({STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT})
LINK_STYLE = 5
PREMIUM_STYLE = 6


def walk(components: Sequence[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    """Every component in a tree, depth first (rows, containers, sections and labels are entered)."""
    for component in components:
        yield component
        children = component.get("components")
        if isinstance(children, list):
            yield from walk(children)
        for key in ("accessory", "component"):
            child = component.get(key)
            if isinstance(child, dict):
                yield from walk([child])


def find(components: Sequence[Mapping[str, Any]], custom_id: str) -> Mapping[str, Any] | None:
    for component in walk(components):
        if component.get("custom_id") == custom_id:
            return component
    return None


def custom_ids(components: Sequence[Mapping[str, Any]]) -> list[str]:
    return [str(c["custom_id"]) for c in walk(components) if "custom_id" in c]


def texts(components: Sequence[Mapping[str, Any]]) -> list[str]:
    """Visible text of components: text displays, button labels and select placeholders."""
    out: list[str] = []
    for component in walk(components):
        if component.get("type") == TEXT_DISPLAY and component.get("content"):
            out.append(str(component["content"]))
    return out


def require_clickable(components: Sequence[Mapping[str, Any]], custom_id: str) -> Mapping[str, Any]:
    component = find(components, custom_id)
    if component is None:
        raise FakeDiscordError(f"no component with custom_id {custom_id!r}; have {custom_ids(components)}")
    if component.get("type") != BUTTON:
        raise FakeDiscordError(f"component {custom_id!r} is not a button (type {component.get('type')})")
    if component.get("style") in (LINK_STYLE, PREMIUM_STYLE):
        raise FakeDiscordError(f"button {custom_id!r} is a link/premium button and sends no interaction")
    if component.get("disabled"):
        raise FakeDiscordError(f"button {custom_id!r} is disabled")
    return component


def require_select(components: Sequence[Mapping[str, Any]], custom_id: str, values: Sequence[str]) -> Mapping[str, Any]:
    component = find(components, custom_id)
    if component is None:
        raise FakeDiscordError(f"no component with custom_id {custom_id!r}; have {custom_ids(components)}")
    if component.get("type") not in SELECT_TYPES:
        raise FakeDiscordError(f"component {custom_id!r} is not a select menu (type {component.get('type')})")
    if component.get("disabled"):
        raise FakeDiscordError(f"select {custom_id!r} is disabled")
    check_select_values(component, values)
    return component


def check_select_values(component: Mapping[str, Any], values: Sequence[str]) -> None:
    custom_id = component.get("custom_id")
    min_values = int(component.get("min_values", 1))
    max_values = int(component.get("max_values", 1))
    if not min_values <= len(values) <= max_values:
        raise FakeDiscordError(f"select {custom_id!r} takes {min_values}..{max_values} values, got {len(values)}")
    if len(set(values)) != len(values):
        raise FakeDiscordError(f"select {custom_id!r}: duplicate values {list(values)}")
    if component.get("type") == STRING_SELECT:
        allowed = [str(o.get("value")) for o in component.get("options", [])]
        for value in values:
            if value not in allowed:
                raise FakeDiscordError(f"select {custom_id!r} has no option {value!r}; options are {allowed}")


def modal_inputs(modal: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """Input components (text inputs and selects) of a modal, in order."""
    return [c for c in walk(modal.get("components", [])) if c.get("type") in SELECT_TYPES | {TEXT_INPUT}]


def build_modal_submission(modal: Mapping[str, Any], values: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The ``data.components`` of a MODAL_SUBMIT, mirroring the modal's own structure.

    ``values`` maps an input's custom_id to a string (text input) or a list of
    strings (select). Unset text inputs submit their pre-filled ``value`` or "".
    """
    inputs = {str(c["custom_id"]): c for c in modal_inputs(modal)}
    unknown = set(values) - set(inputs)
    if unknown:
        raise FakeDiscordError(f"modal {modal.get('custom_id')!r} has no inputs {sorted(unknown)}; has {list(inputs)}")

    def submitted(component: Mapping[str, Any]) -> dict[str, Any]:
        custom_id = str(component["custom_id"])
        ctype = component["type"]
        if ctype == TEXT_INPUT:
            raw = values.get(custom_id, component.get("value") or "")
            if not isinstance(raw, str):
                raise FakeDiscordError(f"text input {custom_id!r} takes a string, got {raw!r}")
            _check_text_input(component, raw)
            return {"type": TEXT_INPUT, "custom_id": custom_id, "value": raw}
        raw_values = values.get(custom_id, [])
        if isinstance(raw_values, str):
            raw_values = [raw_values]
        chosen = [str(v) for v in raw_values]
        if chosen or component.get("required", True):
            check_select_values(component, chosen)
        return {"type": ctype, "custom_id": custom_id, "values": chosen}

    out: list[dict[str, Any]] = []
    for top in modal.get("components", []):
        ttype = top.get("type")
        if ttype == ACTION_ROW:
            row = [submitted(c) for c in top.get("components", []) if "custom_id" in c]
            if row:
                out.append({"type": ACTION_ROW, "components": row})
        elif ttype == LABEL and isinstance(top.get("component"), dict) and "custom_id" in top["component"]:
            out.append({"type": LABEL, "component": submitted(top["component"])})
        elif "custom_id" in top:
            out.append(submitted(top))
    return out


def _check_text_input(component: Mapping[str, Any], value: str) -> None:
    custom_id = component.get("custom_id")
    required = component.get("required", True)
    if required and not value:
        raise FakeDiscordError(f"text input {custom_id!r} is required")
    if value:
        min_length = int(component.get("min_length", 0))
        max_length = int(component.get("max_length", 4000))
        if not min_length <= len(value) <= max_length:
            raise FakeDiscordError(f"text input {custom_id!r} takes {min_length}..{max_length} chars, got {len(value)}")

"""Discord's documented size limits, so the bot's oversize payloads fail here as they would in production."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from . import components as comps
from .errors import CANNOT_SEND_EMPTY_MESSAGE, ApiError, invalid_form
from .models import FLAG_COMPONENTS_V2

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_NONCE = 25  # characters of a message's nonce
MAX_EMBED_TOTAL = 6000
EMBED_LIMITS = {"title": 256, "description": 4096}
MAX_FIELDS = 25
MAX_ROWS = 5
MAX_ROW_WIDTH = 5
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_SELECT_OPTIONS = 25
MAX_V2_COMPONENTS = 40
MAX_V2_TEXT = 4000  # characters across all text displays of a components-v2 message
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


def _err(path: str, message: str) -> ApiError:
    return invalid_form({path: {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH", "message": message}]}})


def validate_message(
    payload: Mapping[str, Any], *, file_count: int = 0, creating: bool = True, existing_flags: int = 0
) -> None:
    """Raise ApiError like Discord for an invalid create/edit message payload. An edit passes the message's flags
    (``existing_flags``): a message sent with IS_COMPONENTS_V2 keeps it, so its edits follow the v2 rules too."""
    nonce = payload.get("nonce")
    if creating and isinstance(nonce, str) and len(nonce) > MAX_NONCE:
        raise _err("nonce", f"Must be {MAX_NONCE} or fewer in length.")
    content = payload.get("content")
    if content is not None and len(str(content)) > MAX_CONTENT:
        raise _err("content", f"Must be {MAX_CONTENT} or fewer in length.")
    embeds = payload.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        raise _err("embeds", f"Must be {MAX_EMBEDS} or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        total += _validate_embed(i, embed)
    if total > MAX_EMBED_TOTAL:
        raise _err("embeds", f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}")
    components = payload.get("components") or []
    flags = int(payload.get("flags") or 0) | (existing_flags & FLAG_COMPONENTS_V2)
    validate_components(components, v2=bool(flags & FLAG_COMPONENTS_V2))
    if flags & FLAG_COMPONENTS_V2 and (content or embeds):
        raise _err("content", "content and embeds cannot be used with the IS_COMPONENTS_V2 flag")
    has_attachments = file_count > 0 or bool(payload.get("attachments"))
    if creating and not (content or embeds or components or has_attachments or payload.get("sticker_ids")):
        raise ApiError(400, CANNOT_SEND_EMPTY_MESSAGE, "Cannot send an empty message")


def _validate_embed(index: int, embed: Mapping[str, Any]) -> int:
    size = 0
    for key, limit in EMBED_LIMITS.items():
        value = str(embed.get(key) or "")
        if len(value) > limit:
            raise _err(f"embeds.{index}.{key}", f"Must be {limit} or fewer in length.")
        size += len(value)
    fields = embed.get("fields") or []
    if len(fields) > MAX_FIELDS:
        raise _err(f"embeds.{index}.fields", f"Must be {MAX_FIELDS} or fewer in length.")
    for j, fld in enumerate(fields):
        name, value = str(fld.get("name") or ""), str(fld.get("value") or "")
        if not name or not value:
            raise _err(f"embeds.{index}.fields.{j}", "Field name and value are required.")
        if len(name) > 256 or len(value) > 1024:
            raise _err(f"embeds.{index}.fields.{j}", "Field name <= 256 and value <= 1024 chars.")
        size += len(name) + len(value)
    for key, sub in (("footer", "text"), ("author", "name")):
        part = embed.get(key)
        if isinstance(part, dict):
            size += len(str(part.get(sub) or ""))
    return size


def validate_components(components: Sequence[Mapping[str, Any]], *, v2: bool = False) -> None:
    if not v2:
        if len(components) > MAX_ROWS:
            raise _err("components", f"Must be {MAX_ROWS} or fewer in length.")
        for i, row in enumerate(components):
            if row.get("type") != comps.ACTION_ROW:
                raise _err(f"components.{i}", "Top-level components must be action rows without IS_COMPONENTS_V2")
            children = row.get("components") or []
            if not children or len(children) > MAX_ROW_WIDTH:
                raise _err(f"components.{i}.components", "An action row holds 1 to 5 components.")
            if any(c.get("type") in comps.SELECT_TYPES for c in children) and len(children) > 1:
                raise _err(f"components.{i}.components", "A select menu must be alone in its action row.")
    else:
        if sum(1 for _ in comps.walk(components)) > MAX_V2_COMPONENTS:
            raise _err("components", f"Must be {MAX_V2_COMPONENTS} or fewer components in total.")
        if sum(len(text) for text in comps.texts(components)) > MAX_V2_TEXT:
            raise _err("components", f"The text displays hold more than {MAX_V2_TEXT} characters in all.")
    seen: set[str] = set()
    for component in comps.walk(components):
        custom_id = component.get("custom_id")
        if custom_id is not None:
            if not 1 <= len(str(custom_id)) <= MAX_CUSTOM_ID:
                raise _err("components.custom_id", f"custom_id must be 1..{MAX_CUSTOM_ID} chars: {custom_id!r}")
            if custom_id in seen:
                raise _err("components.custom_id", f"Component custom id cannot be duplicated: {custom_id!r}")
            seen.add(str(custom_id))
        ctype = component.get("type")
        if ctype == comps.BUTTON:
            if len(str(component.get("label") or "")) > MAX_BUTTON_LABEL:
                raise _err("components.label", f"Button label must be {MAX_BUTTON_LABEL} or fewer in length.")
            link = component.get("style") == comps.LINK_STYLE
            if link != ("url" in component) or (not link and custom_id is None and component.get("style") != 6):
                raise _err("components", "A link button needs a url and no custom_id; others need a custom_id.")
        if ctype == comps.STRING_SELECT:
            options = component.get("options") or []
            if not 1 <= len(options) <= MAX_SELECT_OPTIONS:
                raise _err("components.options", f"A select menu has 1..{MAX_SELECT_OPTIONS} options.")
            values = [str(o.get("value")) for o in options]
            if len(set(values)) != len(values):
                raise _err("components.options", "Select option values must be unique.")


def validate_modal(data: Mapping[str, Any]) -> None:
    title = str(data.get("title") or "")
    if not 1 <= len(title) <= 45:
        raise _err("data.title", "Modal title must be 1..45 chars.")
    custom_id = str(data.get("custom_id") or "")
    if not 1 <= len(custom_id) <= MAX_CUSTOM_ID:
        raise _err("data.custom_id", "Modal custom_id must be 1..100 chars.")
    top = data.get("components") or []
    if not 1 <= len(top) <= 5:
        raise _err("data.components", "A modal holds 1..5 top-level components.")
    if not comps.modal_inputs(data) and not any(c.get("type") == comps.TEXT_DISPLAY for c in comps.walk(top)):
        raise _err("data.components", "A modal needs at least one input.")


def validate_command(command: Mapping[str, Any]) -> None:
    name = str(command.get("name") or "")
    ctype = int(command.get("type", 1))
    if ctype == 1:
        if not COMMAND_NAME.match(name) or name != name.lower():
            raise _err("name", f"Invalid chat input command name {name!r}")
        description = str(command.get("description") or "")
        if not 1 <= len(description) <= 100:
            raise _err("description", f"Command {name!r} description must be 1..100 chars.")
    _validate_options(name, command.get("options") or [])


def _validate_options(owner: str, options: Sequence[Mapping[str, Any]]) -> None:
    if len(options) > 25:
        raise _err("options", f"{owner!r} has more than 25 options.")
    seen_optional = False
    for option in options:
        name = str(option.get("name") or "")
        if not COMMAND_NAME.match(name) or name != name.lower():
            raise _err("options.name", f"Invalid option name {name!r} in {owner!r}")
        if option.get("type") in (1, 2):
            _validate_options(f"{owner} {name}", option.get("options") or [])
            continue
        if option.get("required"):
            if seen_optional:
                raise _err("options", f"Required options must be placed before non-required options in {owner!r}")
        else:
            seen_optional = True
        if len(option.get("choices") or []) > 25:
            raise _err("options.choices", f"Option {name!r} in {owner!r} has more than 25 choices.")

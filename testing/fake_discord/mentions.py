"""Who a new message notifies, as Discord decides it from the content and ``allowed_mentions``.

Without ``allowed_mentions`` Discord parses every kind (users, roles, @everyone/@here). With it, a kind pings only
if it is listed in ``parse`` or, for users and roles, if its id is listed. (Permission to mention @everyone and
unmentionable roles is not modelled: a test that sees a ping here would see it on Discord wherever the bot may.)
"""

from __future__ import annotations

import re
from typing import Any

USER = re.compile(r"<@!?(\d{1,20})>")
ROLE = re.compile(r"<@&(\d{1,20})>")
EVERYONE = re.compile(r"@(everyone|here)")


def pings(content: str, allowed: dict[str, Any] | None) -> list[str]:
    """The notifications a message would cause: ``"everyone"``, ``"here"``, ``"user:<id>"``, ``"role:<id>"``."""
    parse = {"users", "roles", "everyone"} if allowed is None else set(allowed.get("parse") or [])
    users = {str(u) for u in (allowed or {}).get("users") or []}
    roles = {str(r) for r in (allowed or {}).get("roles") or []}
    out: list[str] = []
    if "everyone" in parse:
        out.extend(dict.fromkeys(m.group(1) for m in EVERYONE.finditer(content)))
    for found in dict.fromkeys(USER.findall(content)):
        if "users" in parse or found in users:
            out.append(f"user:{found}")
    for found in dict.fromkeys(ROLE.findall(content)):
        if "roles" in parse or found in roles:
            out.append(f"role:{found}")
    return out

"""Channel lines that no version implies: a moderator's audit line, a deadline's news, a player's vacation.

They are written to the outbox (``notices``) in the transaction of the change they tell, as plain data, and worded
when they are posted, in the game's language: a crash between the change and the post loses none of them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from app.labels import house_mark, house_name
from i18n import t, tn

NoticeType = Literal["audit", "deadline-passed", "absent-player", "vacation", "game-broken", "talk-refused"]


@dataclass(frozen=True)
class AuditLine:
    """A moderator did something (``action``: the command's name, worded by ``mod.did.<action>``)."""

    moderator: int
    action: str
    params: dict[str, Any] = field(default_factory=dict)
    houses: dict[str, Any] = field(default_factory=dict)  # parameters that name houses (one, or a list), worded too
    agreed: bool = False  # the house's player agreed to it (a seated moderator's handover)
    type: NoticeType = "audit"


@dataclass(frozen=True)
class DeadlinePassed:
    """A deadline answered for these houses (defaults, or the autopilot agent)."""

    game_id: int
    houses: list[str]
    autopilot: str
    type: NoticeType = "deadline-passed"


@dataclass(frozen=True)
class AbsentPlayer:
    """A house's player has missed this many deadlines in a row."""

    game_id: int
    house: str
    misses: int
    type: NoticeType = "absent-player"


@dataclass(frozen=True)
class VacationTaken:
    house: str
    until: float
    type: NoticeType = "vacation"


@dataclass(frozen=True)
class GameBroken:
    """The game's stored state no longer loads: it is quarantined until a moderator imports a repaired one. Only the
    kind of failure is told (``error``): the reason may quote the state, and stays in the database and the log."""

    error: str
    type: NoticeType = "game-broken"


@dataclass(frozen=True)
class TalkRefused:
    """Discord refused the bot a private talk (``reason``: the ``error.<reason>`` code naming the permission or limit at
    fault): the moderators read it in the channel; the houses are not named."""

    reason: str
    type: NoticeType = "talk-refused"
    following: bool = False  # refused while the talks followed a change of seats or the game's end, not at opening


ChannelNotice = AuditLine | DeadlinePassed | AbsentPlayer | VacationTaken | GameBroken | TalkRefused
_TYPES: dict[str, type[ChannelNotice]] = {
    "audit": AuditLine,
    "deadline-passed": DeadlinePassed,
    "absent-player": AbsentPlayer,
    "vacation": VacationTaken,
    "game-broken": GameBroken,
    "talk-refused": TalkRefused,
}


def to_payload(notice: ChannelNotice) -> dict[str, Any]:
    return asdict(notice)


def from_payload(payload: dict[str, Any]) -> ChannelNotice:
    return _TYPES[str(payload["type"])](**payload)


def _houses(value: Any, lang: str) -> str:
    if isinstance(value, list):
        return ", ".join(t(f"house.{h}", lang) for h in value) or "—"
    return t(f"house.{value}", lang)


def notice_text(notice: ChannelNotice, lang: str) -> str:
    """The line the channel reads, in the game's language."""
    if isinstance(notice, AuditLine):
        params = {**notice.params, **{k: _houses(v, lang) for k, v in notice.houses.items()}}
        action = t(f"mod.did.{notice.action}", lang, **params)
        key = "mod.audit.agreed" if notice.agreed else "mod.audit"
        return t(key, lang, moderator=f"<@{notice.moderator}>", action=action)
    if isinstance(notice, DeadlinePassed):
        houses = ", ".join(house_mark(h, lang) for h in notice.houses)
        return t(f"deadline.passed.{notice.autopilot}", lang, houses=houses)
    if isinstance(notice, AbsentPlayer):
        return tn("deadline.absent", notice.misses, lang, house=house_name(notice.house, lang))
    if isinstance(notice, TalkRefused):
        key = "talk.refused-following-notice" if notice.following else "talk.refused-notice"
        return t(key, lang, reason=t(f"error.{notice.reason}", lang))
    if isinstance(notice, GameBroken):
        return t("game.broken", lang, error=notice.error[:60])
    return t("vacation.notice", lang, house=t(f"house.{notice.house}", lang), until=f"<t:{int(notice.until)}:f>")

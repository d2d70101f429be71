"""Plain data objects of the fake Discord world: users, guilds, channels, messages."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import components as comps

# Channel types.
GUILD_TEXT = 0
DM = 1
GUILD_CATEGORY = 4
ANNOUNCEMENT_THREAD = 10
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = frozenset({ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD})

# Message flags.
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15
SETTABLE_FLAGS = FLAG_SUPPRESS_EMBEDS | FLAG_EPHEMERAL | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2


@dataclass(eq=False)
class FakeUser:
    """A Discord account: a scripted player or the bot itself."""

    id: int
    name: str
    global_name: str | None = None
    bot: bool = False
    locale: str = "en-US"
    dms_closed: bool = False

    @property
    def user(self) -> FakeUser:
        return self

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def __repr__(self) -> str:
        return f"<FakeUser {self.name} id={self.id}>"


@dataclass(eq=False)
class FakeRole:
    id: int
    guild_id: int
    name: str
    permissions: int = 0
    position: int = 0
    color: int = 0
    hoist: bool = False
    mentionable: bool = False
    managed: bool = False

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def __repr__(self) -> str:
        return f"<FakeRole {self.name} id={self.id}>"


@dataclass(eq=False)
class FakeMember:
    """A user's membership of one guild. Usable wherever a user is expected."""

    guild: FakeGuild
    user: FakeUser
    role_ids: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = ""

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def locale(self) -> str:
        return self.user.locale

    @property
    def mention(self) -> str:
        return self.user.mention

    def __repr__(self) -> str:
        return f"<FakeMember {self.user.name} guild={self.guild.name}>"


@dataclass
class PermissionOverwrite:
    id: int
    type: int  # 0 role, 1 member
    allow: int = 0
    deny: int = 0


@dataclass(eq=False)
class FakeChannel:
    """A guild text channel, thread, category or a DM channel."""

    id: int
    type: int
    name: str | None
    guild_id: int | None = None
    parent_id: int | None = None
    position: int = 0
    topic: str | None = None
    overwrites: list[PermissionOverwrite] = field(default_factory=list)
    recipient_id: int | None = None  # DM channels
    owner_id: int | None = None  # threads
    thread_members: set[int] = field(default_factory=set)
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    rate_limit_per_user: int = 0
    deleted: bool = False
    last_message_id: int | None = None
    message_count: int = 0

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def __repr__(self) -> str:
        return f"<FakeChannel {self.name or 'DM'} id={self.id} type={self.type}>"


@dataclass(eq=False)
class FakeGuild:
    id: int
    name: str
    owner_id: int
    locale: str = "en-US"
    roles: dict[int, FakeRole] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    joined_at: str = ""

    @property
    def everyone_role(self) -> FakeRole:
        return self.roles[self.id]

    def member(self, user: FakeUser | FakeMember | int) -> FakeMember | None:
        user_id = user if isinstance(user, int) else user.id
        return self.members.get(user_id)

    def role(self, name: str) -> FakeRole | None:
        return next((r for r in self.roles.values() if r.name == name), None)

    def __repr__(self) -> str:
        return f"<FakeGuild {self.name} id={self.id}>"


UserLike = FakeUser | FakeMember


@dataclass(eq=False)
class StoredAttachment:
    id: int
    filename: str
    content_type: str
    data: bytes
    url: str
    description: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)

    def __repr__(self) -> str:
        return f"<StoredAttachment {self.filename} {self.size} bytes>"


@dataclass(eq=False)
class StoredMessage:
    """One message in the transcript, with everything needed to assert on it.

    Visibility: ``channel_id`` (guild channel, thread or DM channel); ephemeral
    messages also carry ``ephemeral_for`` (the only user who sees them).
    """

    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[StoredAttachment] = field(default_factory=list)
    flags: int = 0
    ephemeral_for: int | None = None
    interaction_id: int | None = None
    webhook_id: int | None = None
    message_type: int = 0
    created_at: str = ""
    edited_at: str | None = None
    pinned: bool = False
    deleted: bool = False
    tts: bool = False
    reference: dict[str, Any] | None = None
    reactions: list[str] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)  # previous versions, oldest first
    pings: list[str] = field(default_factory=list)  # whom it notified when posted (see mentions.py)
    nonce: str | None = None  # the sender's nonce, echoed in the create response as Discord does
    sent_at: float = 0.0  # time.time() at creation: the window in which an enforced nonce finds it again

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while this is a deferred "Bot is thinking..." placeholder."""
        return bool(self.flags & FLAG_LOADING)

    def text(self) -> str:
        """Content plus all embed and text-display text, newline separated (handy for asserts)."""
        parts: list[str] = [self.content] if self.content else []
        for embed in self.embeds:
            for key in ("title", "description"):
                if embed.get(key):
                    parts.append(str(embed[key]))
            for fld in embed.get("fields", []):
                parts.extend([str(fld.get("name", "")), str(fld.get("value", ""))])
            for key in ("author", "footer"):
                sub = embed.get(key)
                if isinstance(sub, dict):
                    parts.append(str(sub.get("name") or sub.get("text") or ""))
        parts.extend(comps.texts(self.components))
        return "\n".join(p for p in parts if p)

    def custom_ids(self) -> list[str]:
        return comps.custom_ids(self.components)

    def component(self, custom_id: str) -> dict[str, Any] | None:
        found = comps.find(self.components, custom_id)
        return dict(found) if found is not None else None

    def buttons(self) -> list[dict[str, Any]]:
        return [dict(c) for c in comps.walk(self.components) if c.get("type") == comps.BUTTON]

    def attachment(self, filename: str) -> StoredAttachment | None:
        return next((a for a in self.attachments if a.filename == filename), None)

    def snapshot(self) -> dict[str, Any]:
        return {
            "content": self.content,
            "embeds": self.embeds,
            "components": self.components,
            "attachments": [a.filename for a in self.attachments],
            "flags": self.flags,
            "edited_at": self.edited_at,
        }

    def __repr__(self) -> str:
        vis = f" ephemeral_for={self.ephemeral_for}" if self.ephemeral_for else ""
        gone = " deleted" if self.deleted else ""
        return f"<StoredMessage id={self.id} channel={self.channel_id}{vis}{gone} {self.text()[:60]!r}>"

"""Plain data the fake Discord keeps: users, guilds, channels and every message the bot sent.

These are the objects tests hold and assert on. They know how to render themselves as the JSON
Discord would send, so the server and the tests share one source of truth.
"""

from __future__ import annotations

import datetime as dt
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1420070400000

# Permission bits (https://discord.com/developers/docs/topics/permissions).
VIEW_CHANNEL = 1 << 10
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_MESSAGES = 1 << 13
MANAGE_THREADS = 1 << 34
ALL_PERMISSIONS = (1 << 51) - 1
CREATE_PUBLIC_THREADS = 1 << 35
READ_MESSAGE_HISTORY = 1 << 16
SEND_MESSAGES = 1 << 11
ATTACH_FILES = 1 << 15
SEND_MESSAGES_IN_THREADS = 1 << 38
DEFAULT_PERMISSIONS = (
    (1 << 0)  # create invite
    | (1 << 6)  # add reactions
    | (1 << 10)  # view channel
    | (1 << 11)  # send messages
    | (1 << 14)  # embed links
    | (1 << 15)  # attach files
    | (1 << 16)  # read message history
    | (1 << 18)  # use external emojis
    | (1 << 31)  # use application commands
    | (1 << 35)  # create public threads
    | (1 << 38)  # send messages in threads
)

# Channel types.
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (10, PUBLIC_THREAD, PRIVATE_THREAD)

# Message flags.
EPHEMERAL = 1 << 6
LOADING = 1 << 7


def iso(when: dt.datetime | None = None) -> str:
    """Discord's ISO8601 timestamps, always timezone-aware."""
    return (when or dt.datetime.now(dt.UTC)).isoformat()


def snowflake_time(snowflake: int) -> dt.datetime:
    """When a snowflake was minted: used for message timestamps."""
    return dt.datetime.fromtimestamp(((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000, tz=dt.UTC)


class Snowflakes:
    """Real-looking, strictly increasing snowflake ids (timestamp in the high bits)."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        if candidate <= self._last:
            candidate = self._last + 1
        self._last = candidate
        return candidate

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """The next id whose guild would live on this shard: (id >> 22) % shard_count == shard_id."""
        stamp = max(int(time.time() * 1000) - DISCORD_EPOCH_MS, (self._last >> 22) + 1)
        while stamp % shard_count != shard_id:
            stamp += 1
        self._last = stamp << 22
        return self._last


@dataclass(eq=False)
class FakeUser:
    """A Discord user (human or bot)."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    locale: str = "en-US"

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def to_payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.username,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
        }


@dataclass(eq=False)
class FakeRole:
    """A guild role; the @everyone role shares the guild's id."""

    id: int
    guild_id: int
    name: str
    permissions: int = 0
    position: int = 0

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def to_payload(self) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class FakeChannel:
    """A guild text channel, a thread (type 11/12) or a DM channel (type 1)."""

    id: int
    name: str
    type: int = GUILD_TEXT
    guild_id: int | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    recipient: FakeUser | None = None
    position: int = 0
    created_at: str = field(default_factory=iso)
    # A text channel's permission overwrites, as Discord sends them ({"id", "type": 0 role / 1
    # member, "allow", "deny"}); a thread's members (user ids: who sees a private thread) and
    # whether it is archived (then not among GUILD_CREATE's threads, as Discord leaves it out).
    overwrites: list[JSON] = field(default_factory=list)
    members: set[int] = field(default_factory=set)
    archived: bool = False

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def to_payload(self, permissions: int | None = None) -> JSON:
        """The channel object; `permissions` is added for interaction payloads and resolved data."""
        if self.is_dm:
            assert self.recipient is not None
            data: JSON = {
                "id": str(self.id),
                "type": DM,
                "last_message_id": None,
                "recipients": [self.recipient.to_payload()],
                "flags": 0,
            }
        elif self.is_thread:
            data = {
                "id": str(self.id),
                "type": self.type,
                "guild_id": str(self.guild_id),
                "parent_id": str(self.parent_id),
                "owner_id": str(self.owner_id),
                "name": self.name,
                "last_message_id": None,
                "message_count": 0,
                "member_count": 1,
                "total_message_sent": 0,
                "rate_limit_per_user": 0,
                "flags": 0,
                "applied_tags": [],
                "thread_metadata": {
                    "archived": self.archived,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": self.created_at,
                    "locked": False,
                    "create_timestamp": self.created_at,
                },
            }
        else:
            data = {
                "id": str(self.id),
                "type": self.type,
                "guild_id": str(self.guild_id),
                "name": self.name,
                "position": self.position,
                "permission_overwrites": list(self.overwrites),
                "parent_id": None,
                "topic": None,
                "nsfw": False,
                "last_message_id": None,
                "rate_limit_per_user": 0,
                "default_auto_archive_duration": 1440,
                "flags": 0,
            }
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass(eq=False)
class FakeMember:
    """A user's membership in one guild."""

    user: FakeUser
    guild_id: int
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=iso)

    def to_payload(self, *, with_user: bool = True, permissions: int | None = None) -> JSON:
        data: JSON = {
            "roles": [str(r) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.to_payload()
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass(eq=False)
class FakeGuild:
    """A guild with its channels, threads, roles and members."""

    id: int
    name: str
    owner_id: int
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    roles: dict[int, FakeRole] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)

    @property
    def text_channels(self) -> list[FakeChannel]:
        return [c for c in self.channels.values() if c.type == GUILD_TEXT]

    @property
    def threads(self) -> list[FakeChannel]:
        return [c for c in self.channels.values() if c.is_thread]

    def channel(self, name: str) -> FakeChannel:
        """The channel or thread called `name`; raises KeyError with the names there are."""
        for c in self.channels.values():
            if c.name == name:
                return c
        raise KeyError(
            f"no channel {name!r} in guild {self.name!r}; have {[c.name for c in self.channels.values()]}"
        )

    def role(self, name: str) -> FakeRole:
        for r in self.roles.values():
            if r.name == name:
                return r
        raise KeyError(f"no role {name!r} in guild {self.name!r}")

    def permissions_of(self, user_id: int) -> int:
        """Guild-level permissions (no channel overwrites in the fake)."""
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        member = self.members.get(user_id)
        perms = self.roles[self.id].permissions
        if member is not None:
            for role_id in member.roles:
                role = self.roles.get(role_id)
                if role is not None:
                    perms |= role.permissions
        if perms & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return perms

    def to_payload(self) -> JSON:
        """The GUILD_CREATE payload."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.to_payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "max_members": 500000,
            "joined_at": iso(),
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "voice_states": [],
            "members": [m.to_payload() for m in self.members.values()],
            "channels": [c.to_payload() for c in self.channels.values() if not c.is_thread],
            "threads": [c.to_payload() for c in self.channels.values() if c.is_thread and not c.archived],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


@dataclass(eq=False)
class FakeAttachment:
    """An uploaded file, with the exact bytes the bot sent."""

    id: int
    filename: str
    data: bytes
    content_type: str | None
    url: str
    description: str | None = None

    def to_payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
            "flags": 0,
        }
        if self.description is not None:
            data["description"] = self.description
        return data


@dataclass(eq=False)
class FakeMessage:
    """A message as the fake stores it; mutable, so edits show up on the same object.

    `kind` says how it was made: "channel" (POST /channels/x/messages), "dm", "interaction_response",
    "followup", or "user" (a message a test user typed).
    """

    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    kind: str
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    flags: int = 0
    attachments: list[FakeAttachment] = field(default_factory=list)
    interaction_id: int | None = None
    interaction_user: FakeUser | None = None
    interaction_type: int | None = None
    webhook_id: int | None = None
    message_reference: JSON | None = None
    type: int = 0
    edited_at: str | None = None
    deleted: bool = False
    history: list[JSON] = field(default_factory=list)
    allowed_mentions: JSON | None = None  # as sent; None: Discord's default, every mention notifies
    nonce: str | None = None  # as posted (a channel message); a post with the same one may return this

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while a deferred ("thinking") response has not been filled in yet."""
        return bool(self.flags & LOADING)

    def iter_components(self) -> Iterator[JSON]:
        """Every component, depth-first, including the ones inside action rows and containers."""
        stack = list(reversed(self.components))
        while stack:
            comp = stack.pop()
            yield comp
            children = list(comp.get("components", []))
            if "accessory" in comp:
                children.append(comp["accessory"])
            stack.extend(reversed(children))

    @property
    def notified(self) -> list[int]:
        """The users this message notifies, as Discord decides: each user it mentions (`<@id>`),
        unless `allowed_mentions` leaves them out (a list of users names the only ones; without one,
        users are notified only if "users" is among those parsed)."""
        mentioned = [int(m) for m in dict.fromkeys(re.findall(r"<@!?(\d+)>", self.content))]
        allowed = self.allowed_mentions
        if allowed is None or "users" in (allowed.get("parse") or []):
            return mentioned
        listed = {int(u) for u in allowed.get("users") or []}
        return [u for u in mentioned if u in listed]

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.iter_components() if "custom_id" in c]

    @property
    def tappable_ids(self) -> list[str]:
        """The custom_ids a user can use: those of components not disabled."""
        return [c["custom_id"] for c in self.iter_components() if "custom_id" in c and not c.get("disabled")]

    def component(self, custom_id: str) -> JSON:
        """The component with this custom_id; raises KeyError listing what is there."""
        for comp in self.iter_components():
            if comp.get("custom_id") == custom_id:
                return comp
        raise KeyError(f"message {self.id} has no component {custom_id!r}; custom_ids: {self.custom_ids}")

    def attachment(self, filename: str | None = None) -> FakeAttachment:
        """The (only, or named) attachment."""
        if filename is None:
            if len(self.attachments) != 1:
                raise AssertionError(
                    f"expected exactly one attachment on message {self.id}, got {self.attachments}"
                )
            return self.attachments[0]
        for a in self.attachments:
            if a.filename == filename:
                return a
        raise KeyError(f"no attachment {filename!r}; have {[a.filename for a in self.attachments]}")

    def snapshot(self) -> JSON:
        """The visible state, kept in `history` before each edit."""
        return {
            "content": self.content,
            "embeds": self.embeds,
            "components": self.components,
            "flags": self.flags,
            "attachments": [a.filename for a in self.attachments],
        }

    def to_payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.to_payload(),
            "content": self.content,
            "timestamp": iso(snowflake_time(self.id)),
            "edited_timestamp": self.edited_at,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.to_payload() for a in self.attachments],
            "embeds": self.embeds,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
            "components": self.components,
        }
        if self.nonce is not None:
            data["nonce"] = self.nonce
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.message_reference is not None:
            data["message_reference"] = self.message_reference
        if self.interaction_id is not None and self.interaction_user is not None:
            data["interaction_metadata"] = {
                "id": str(self.interaction_id),
                "type": self.interaction_type or 2,
                "user": self.interaction_user.to_payload(),
                "authorizing_integration_owners": {},
            }
        return data


@dataclass
class RequestLog:
    """One HTTP request the bot made to the fake."""

    method: str
    path: str
    query: dict[str, str]
    status: int = 0
    body: Any = None

    def __str__(self) -> str:
        return f"{self.method} {self.path} -> {self.status}"


@dataclass(eq=False)
class InteractionResult:
    """What the bot did in answer to one interaction the fake sent.

    `messages` are the messages created while waiting (the response, follow-ups, channel posts, DMs),
    `edited` the pre-existing messages edited in that time (for example by a button's UPDATE_MESSAGE).
    """

    interaction_id: int
    response_type: int | None
    response_data: JSON | None
    messages: list[FakeMessage]
    edited: list[FakeMessage]
    requests: list[RequestLog]

    @property
    def deferred(self) -> bool:
        return self.response_type in (5, 6)

    @property
    def message(self) -> FakeMessage:
        """The one message this produced (fails when there were none or several)."""
        live = [m for m in self.messages if not m.deleted]
        if len(live) != 1:
            raise AssertionError(
                f"expected exactly one message, got {len(live)}: {[m.content for m in live]}"
            )
        return live[0]

    @property
    def content(self) -> str:
        return self.message.content

    @property
    def ephemeral(self) -> bool:
        return self.message.ephemeral

    @property
    def choices(self) -> list[JSON]:
        if self.response_type != 8 or self.response_data is None:
            raise AssertionError(
                f"interaction was answered with type {self.response_type}, not autocomplete (8)"
            )
        return list(self.response_data.get("choices", []))

    @property
    def modal(self) -> JSON:
        if self.response_type != 9 or self.response_data is None:
            raise AssertionError(f"interaction was answered with type {self.response_type}, not a modal (9)")
        return self.response_data

"""A small fake Discord: gateway websocket + REST routes, enough for a real discord.py client.

Tests start it on 127.0.0.1, point discord.py at it (see `FakeDiscord.patch`), then act as Discord
users: `slash`, `autocomplete`, `click`, `select`, `say`. Each of those sends the gateway event Discord
would send and waits, event-driven, until the bot has answered and finished what the interaction set
going (see `FakeDiscord.bot_context`); it returns an `InteractionResult` with the messages the bot
produced. Every message is recorded as a `FakeMessage`.

Behaviour copied from Discord because bots trip on it: callbacks after the 3 s deadline and a second
callback for one interaction are refused; a deferred ("thinking") response is a loading message that
the first follow-up or an edit of @original fills in; at most 25 autocomplete choices; empty messages,
content over 2000 characters and custom_ids over 100 characters are rejected with 400; a message
posted again with the nonce of one the same author posted in the same channel a moment before (with
`enforce_nonce`, which discord.py always sends) returns that message instead of making another.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
import mimetypes
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from aiohttp import WSMsgType, web

from .records import (
    ALL_PERMISSIONS,
    ATTACH_FILES,
    CREATE_PUBLIC_THREADS,
    DEFAULT_PERMISSIONS,
    DM,
    EPHEMERAL,
    GUILD_TEXT,
    JSON,
    LOADING,
    MANAGE_MESSAGES,
    MANAGE_THREADS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    InteractionResult,
    RequestLog,
    Snowflakes,
    iso,
)

_BOUNDARY = re.compile(r'boundary="?([^";]+)"?')
_DISPOSITION = re.compile(rb'(?i)content-disposition:[^\r\n]*?\bname="([^"]*)"(?:;\s*filename="([^"]*)")?')


def _multipart_parts(body: bytes, boundary: str) -> list[tuple[str, str | None, bytes]]:
    """(field name, file name, bytes) of each part of a multipart/form-data body (RFC 7578)."""
    delimiter = b"--" + boundary.encode()
    chunks = body.split(delimiter)
    if len(chunks) < 3 or not chunks[-1].startswith(b"--"):
        raise _HTTPError(400, 50035, "malformed multipart body")
    parts = []
    for chunk in chunks[1:-1]:
        head, sep, data = chunk.partition(b"\r\n\r\n")
        disposition = _DISPOSITION.search(head)
        if not sep or disposition is None or not data.endswith(b"\r\n"):
            raise _HTTPError(400, 50035, "malformed multipart part")
        filename = disposition.group(2).decode() if disposition.group(2) is not None else None
        parts.append((disposition.group(1).decode(), filename, data[:-2]))
    return parts


log = logging.getLogger(__name__)

API_PREFIX = "/api/v10"
GATEWAY_PATH = "/gateway-ws/"
INTERACTION_DEADLINE = 3.0
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

# Interaction types and callback types (https://discord.com/developers/docs/interactions/receiving-and-responding).
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5
DEFERRED_TYPES = (5, 6)

OptionValue = Any
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

# The names discord.py 2.x gives the tasks that run an interaction's handler (app_commands/tree.py,
# ui/view.py, ui/modal.py): a driver call waits for them whatever else the bot still does.
HANDLER_TASKS = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch-",
    "discord-ui-modal-dispatch-",
    "discord-ui-dynamic-item-",
)

# Which fake a task works for: set in the context a bot is started in (`FakeDiscord.bot_context`),
# so every task the bot creates from then on, and every task those create, inherits it.
_BOT_SIDE: contextvars.ContextVar[FakeDiscord | None] = contextvars.ContextVar("fake_bot", default=None)


class MonkeyPatch(Protocol):
    """The part of pytest's monkeypatch we use (keeps pytest out of the fake's imports)."""

    def setattr(self, target: Any, name: str, value: Any) -> None: ...


class FakeDiscordError(AssertionError):
    """Raised to a test when the bot did not do what Discord expects (timeouts, bad replies)."""


class _HTTPError(Exception):
    """Turned into a Discord-style JSON error response."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def _json(data: Any, status: int = 200) -> web.Response:
    """A JSON reply with Content-Type exactly `application/json` (discord.py compares the header verbatim)."""
    return web.Response(
        status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json"}
    )


def _no_content() -> web.Response:
    return web.Response(status=204)


@dataclass(eq=False)
class _Interaction:
    """The fake's bookkeeping for one interaction it dispatched."""

    id: int
    token: str
    type: int
    user: FakeUser
    channel: FakeChannel
    label: str
    sent_at: float
    component_message: FakeMessage | None = None
    callback_type: int | None = None
    callback_data: JSON | None = None
    original_message_id: int | None = None
    message_ids: list[int] = field(default_factory=list)
    answered: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass(eq=False)
class _Connection:
    """One gateway websocket."""

    ws: web.WebSocketResponse
    query: dict[str, str]
    session_id: str | None = None
    seq: int = 0
    identify: JSON | None = None
    shard: tuple[int, int] | None = None  # (shard id, shard count) sent in IDENTIFY

    def holds(self, guild_id: int | None) -> bool:
        """Whether this connection's shard receives the guild's events (Discord's rule; DMs: shard 0)."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        return (0 if guild_id is None else (guild_id >> 22) % count) == shard_id

    async def send(self, payload: JSON) -> None:
        await self.ws.send_str(json.dumps(payload))

    async def dispatch(self, event: str, data: JSON) -> None:
        self.seq += 1
        await self.send({"op": 0, "t": event, "s": self.seq, "d": data})


class FakeDiscord:
    """The fake server plus the state a test sees: guilds, users, messages, synced commands."""

    def __init__(
        self,
        *,
        bot_name: str = "TestBot",
        settle: float = 0.1,
        timeout: float = 5.0,
        interaction_deadline: float = INTERACTION_DEADLINE,
    ) -> None:
        self.ids = Snowflakes()
        self.settle = settle
        self.timeout = timeout
        self.interaction_deadline = interaction_deadline
        self.application_id = self.ids.next()
        self.bot_user = FakeUser(self.application_id, bot_name, None, bot=True)
        self.owner = FakeUser(self.ids.next(), "owner", "Owner")
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user, self.owner.id: self.owner}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        # Synced application commands: key None holds the global ones.
        self.commands: dict[int | None, list[JSON]] = {}
        self.requests: list[RequestLog] = []
        self.unhandled: list[RequestLog] = []
        self.server_errors: list[str] = []
        self.rejections: list[str] = []
        self.tokens_seen: set[str] = set()
        self.gateway_queries: list[dict[str, str]] = []
        self.resumes = 0
        self.recommended_shards = 1  # what GET /gateway/bot recommends to a bot that lets Discord choose
        # Follow-ups refused as Discord does once an interaction's 15-minute token has run out.
        self.followups_expired = False
        # Follow-ups carrying a file refused (413, 40005), as Discord refuses an upload it will not take
        # (over the size limit): the follow-up fails for a reason other than an expired token.
        self.followup_uploads_refused = False
        self.dms_closed: set[int] = set()  # users who accept no direct messages (Discord answers 50007)
        # A post with `enforce_nonce` and the nonce of one the same author made in the same channel
        # less than `nonce_window` seconds before (by `nonce_clock`) returns that one: Discord keeps
        # them "a few minutes" (its documentation gives no figure); a test moves the clock past it.
        self.nonce_window = 300.0
        self.nonce_clock: Callable[[], float] = time.monotonic
        self._nonces: dict[tuple[int, int, str], tuple[float, FakeMessage]] = {}
        self._command_ids: dict[str, int] = {}
        self._interactions: dict[int, _Interaction] = {}
        self._by_token: dict[str, _Interaction] = {}
        self._connections: list[_Connection] = []
        self._sessions: dict[str, _Connection] = {}
        # (message, "create" | "edit" | "delete") in order: the window a driver call reports on.
        self._changes: list[tuple[FakeMessage, str]] = []
        self._inflight = 0
        # The bot's unfinished tasks (those created in `bot_context`), once a bot runs in this loop,
        # each with its number in order of creation.
        self._bot_tasks: dict[asyncio.Task[Any], int] = {}
        self._tasks_made = 0
        self._bot_in_loop = False
        self._task_factory: Any = None  # ours, while installed; the loop's previous one is restored
        self._previous_factory: Any = None
        self.bot_errors: list[tuple[str, BaseException]] = []
        self._activity = asyncio.Event()
        self._identified = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0

    # ------------------------------------------------------------------ lifecycle

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}{GATEWAY_PATH}"

    async def start(self) -> FakeDiscord:
        """Listen on a free port of 127.0.0.1."""
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        app.router.add_get(GATEWAY_PATH, self._gateway)
        for method, path, handler in self._routes():
            app.router.add_route(method, API_PREFIX + path, handler)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._get_attachment)
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert isinstance(server, asyncio.Server)  # aiohttp types it as an AbstractServer, without sockets
        self.port = server.sockets[0].getsockname()[1]
        self._track_tasks(asyncio.get_running_loop())
        return self

    async def stop(self) -> None:
        """Close the websockets and the server."""
        for conn in list(self._connections):
            with contextlib.suppress(Exception):
                await conn.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        loop = asyncio.get_running_loop()
        if self._task_factory is not None and loop.get_task_factory() is self._task_factory:
            loop.set_task_factory(self._previous_factory)
        self._task_factory = None

    def bot_context(self) -> contextvars.Context:
        """The context to run a bot in (its `login` and `connect`: `start_client` does) when it
        shares the test's event loop: the fake then knows the bot's tasks, so a driver call ends as
        soon as the tasks the interaction set going are done, rather than after a quiet spell.

        Nothing of the bot changes: the tasks are asyncio's own, created as the bot creates them;
        the context only carries a variable the bot never reads, which its tasks inherit."""
        self._bot_in_loop = True
        context = contextvars.copy_context()
        context.run(_BOT_SIDE.set, self)
        return context

    def _track_tasks(self, loop: asyncio.AbstractEventLoop) -> None:
        """Install a task factory (asyncio's public hook) that notes each task a bot creates in
        `bot_context` in `_bot_tasks` until it is done; any earlier factory still makes the task."""
        previous = loop.get_task_factory()

        def factory(
            loop: asyncio.AbstractEventLoop, coro: Any, *, context: contextvars.Context | None = None
        ) -> asyncio.Future[Any]:
            if previous is None:
                task: asyncio.Future[Any] = asyncio.Task(coro, loop=loop, context=context)
            elif context is None:
                task = previous(loop, coro)
            else:  # asyncio passes `context` since 3.11; typeshed's factory type does not say so
                task = previous(loop, coro, context=context)  # type: ignore[call-arg]
            owner = _BOT_SIDE.get() if context is None else context.get(_BOT_SIDE)
            if owner is self and isinstance(task, asyncio.Task):
                self._bot_tasks[task] = self._tasks_made
                self._tasks_made += 1
                task.add_done_callback(self._bot_task_done)
            return task

        self._previous_factory = previous
        self._task_factory = factory
        loop.set_task_factory(factory)

    def _bot_task_done(self, task: asyncio.Task[Any]) -> None:
        self._bot_tasks.pop(task, None)
        self._activity.set()

    def _bot_work(self, since: int) -> tuple[bool, bool]:
        """(whether the bot's tasks created from task number `since` on are all done, whether the
        handlers among them are: the tasks discord.py's gateway reader starts to run an app
        command, an autocomplete, a view's item or a modal, by the names it gives them)."""
        all_done = handlers_done = True
        for task, made in self._bot_tasks.items():
            if made >= since:
                all_done = False
                if task.get_name().startswith(HANDLER_TASKS):
                    handlers_done = False
                    break
        return all_done, handlers_done

    def patch(self, monkeypatch: MonkeyPatch) -> None:
        """Point discord.py's REST base (also used for webhooks and callbacks) and gateway at the fake."""
        import discord.gateway
        import discord.http
        import yarl

        monkeypatch.setattr(discord.http.Route, "BASE", self.api_base)
        monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(self.gateway_url))

    @property
    def connected(self) -> bool:
        return self._active() is not None

    async def wait_until_identified(self, timeout: float | None = None) -> None:  # noqa: ASYNC109 (a driver API wants a per-call timeout)
        """Wait until a bot has sent IDENTIFY (or RESUME) on an open websocket."""
        try:
            await asyncio.wait_for(self._identified.wait(), timeout or self.timeout)
        except TimeoutError:
            raise FakeDiscordError("no bot identified on the fake gateway in time") from None

    # ------------------------------------------------------------------ world building

    def add_user(
        self,
        username: str,
        *,
        global_name: str | None = None,
        bot: bool = False,
        guilds: Iterable[FakeGuild] | None = None,
        roles: Iterable[FakeRole] = (),
    ) -> FakeUser:
        """A new user; joins `guilds` (default: every guild so far) with `roles`."""
        user = FakeUser(self.ids.next(), username, global_name or username.capitalize(), bot=bot)
        self.users[user.id] = user
        role_list = list(roles)
        for guild in self.guilds.values() if guilds is None else guilds:
            self.add_member(guild, user, roles=[r for r in role_list if r.guild_id == guild.id])
        return user

    def add_member(self, guild: FakeGuild, user: FakeUser, *, roles: Iterable[FakeRole] = ()) -> FakeMember:
        member = FakeMember(user, guild.id, roles=[r.id for r in roles])
        guild.members[user.id] = member
        return member

    def add_guild(
        self,
        name: str = "Test Guild",
        *,
        channels: Iterable[str] = ("general",),
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        """A guild owned by `self.owner`, with @everyone, a bot role, the bot as member and text channels.

        Add guilds before the bot connects (GUILD_CREATE is sent on IDENTIFY). `shard` = (id, count)
        picks an id that lives on that shard of a bot with that many shards.
        """
        guild_id = self.ids.next() if shard is None else self.ids.next_on_shard(*shard)
        guild = FakeGuild(guild_id, name, self.owner.id)
        guild.roles[guild.id] = FakeRole(guild.id, guild.id, "@everyone", DEFAULT_PERMISSIONS)
        bot_role = FakeRole(
            self.ids.next(), guild.id, self.bot_user.username, MANAGE_MESSAGES | MANAGE_THREADS, 1
        )
        guild.roles[bot_role.id] = bot_role
        self.guilds[guild.id] = guild
        self.add_member(guild, self.owner)
        self.add_member(guild, self.bot_user, roles=[bot_role])
        for position, channel_name in enumerate(channels):
            self.add_channel(guild, channel_name, position=position)
        return guild

    def add_role(self, guild: FakeGuild, name: str, permissions: int = 0) -> FakeRole:
        role = FakeRole(self.ids.next(), guild.id, name, permissions, len(guild.roles))
        guild.roles[role.id] = role
        return role

    def add_channel(self, guild: FakeGuild, name: str, *, position: int = 0) -> FakeChannel:
        channel = FakeChannel(self.ids.next(), name, GUILD_TEXT, guild.id, position=position)
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        return channel

    def add_thread(
        self,
        parent: FakeChannel,
        name: str,
        *,
        owner: FakeUser | None = None,
        thread_type: int = PUBLIC_THREAD,
        thread_id: int | None = None,
    ) -> FakeChannel:
        """A thread under `parent` (present in GUILD_CREATE if added before connecting)."""
        assert parent.guild_id is not None
        owner_id = (owner or self.bot_user).id
        tid = thread_id or self.ids.next()
        thread = FakeChannel(tid, name, thread_type, parent.guild_id, parent.id, owner_id, members={owner_id})
        self.guilds[parent.guild_id].channels[thread.id] = thread
        self.channels[thread.id] = thread
        return thread

    def close_channel(self, channel: FakeChannel, *allowed: FakeUser) -> None:
        """Make `channel` one that only `allowed` (and those who manage the server) may view:
        View Channel denied to @everyone, allowed to each of them, as overwrites Discord sends."""
        assert channel.guild_id is not None
        channel.overwrites = [
            {"id": str(channel.guild_id), "type": 0, "allow": "0", "deny": str(VIEW_CHANNEL)},
            *({"id": str(u.id), "type": 1, "allow": str(VIEW_CHANNEL), "deny": "0"} for u in allowed),
        ]

    def deny_bot(self, channel: FakeChannel, permissions: int) -> None:
        """Deny the bot `permissions` in `channel` (a member overwrite, as an admin sets one in the
        channel's settings); `allow_bot` takes it back. A post there then needs what is left."""
        channel.overwrites = [o for o in channel.overwrites if o["id"] != str(self.bot_user.id)]
        channel.overwrites.append(
            {"id": str(self.bot_user.id), "type": 1, "allow": "0", "deny": str(permissions)}
        )

    def allow_bot(self, channel: FakeChannel) -> None:
        channel.overwrites = [o for o in channel.overwrites if o["id"] != str(self.bot_user.id)]

    def channel_permissions(self, channel: FakeChannel, user_id: int) -> int:
        """A member's permissions in a channel: the guild's, then the channel's overwrites in
        Discord's order (@everyone, the member's roles together, the member); a thread's are its
        parent's. Administrators and the owner get everything."""
        guild = self.guilds.get(channel.guild_id or 0)
        if guild is None:
            return ALL_PERMISSIONS
        perms = guild.permissions_of(user_id)
        if perms == ALL_PERMISSIONS:
            return perms
        source = self.channels.get(channel.parent_id or 0, channel) if channel.is_thread else channel
        member = guild.members.get(user_id)
        roles = {str(r) for r in (member.roles if member is not None else ())}
        by_id = {o["id"]: o for o in source.overwrites}
        everyone = by_id.get(str(guild.id))
        if everyone is not None:
            perms = (perms & ~int(everyone["deny"])) | int(everyone["allow"])
        allow = deny = 0
        for o in source.overwrites:
            if o["type"] == 0 and o["id"] in roles:
                allow, deny = allow | int(o["allow"]), deny | int(o["deny"])
        perms = (perms & ~deny) | allow
        own = by_id.get(str(user_id))
        if own is not None and own["type"] == 1:
            perms = (perms & ~int(own["deny"])) | int(own["allow"])
        return perms

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The DM channel between the bot and `user`, created on first use."""
        for channel in self.channels.values():
            if channel.is_dm and channel.recipient is user:
                return channel
        channel = FakeChannel(self.ids.next(), f"dm-{user.username}", DM, recipient=user)
        self.channels[channel.id] = channel
        return channel

    # ------------------------------------------------------------------ queries for tests

    def messages_in(self, channel: FakeChannel | int, *, include_deleted: bool = False) -> list[FakeMessage]:
        """Messages in a channel, oldest first (ephemeral ones included: check `.ephemeral`)."""
        cid = channel if isinstance(channel, int) else channel.id
        return [
            m for m in self.messages.values() if m.channel_id == cid and (include_deleted or not m.deleted)
        ]

    def dms_to(self, user: FakeUser) -> list[FakeMessage]:
        return self.messages_in(self.dm_channel(user))

    def synced_commands(self, guild: FakeGuild | None = None) -> list[JSON]:
        return list(self.commands.get(guild.id if guild else None, []))

    # ------------------------------------------------------------------ driver API

    async def slash(
        self,
        user: FakeUser,
        channel: FakeChannel,
        *path: str | Mapping[str, OptionValue],
        timeout: float | None = None,  # noqa: ASYNC109 (a driver API wants a per-call timeout)
        messages: int = 0,
    ) -> InteractionResult:
        """Run a chat-input command: `slash(user, ch, "blockwars", "move", {"action": "e2-e3"})`.

        Waits for the response, for a follow-up after a deferral, for at least `messages` messages,
        then until the tasks the bot started for it are done (or, if some go on in the background,
        until it is quiet for `settle` seconds: `_settle`).
        """
        names, options = _split_path(path)
        data = self._command_data(channel, names, options, focused=None)
        payload = self._interaction_payload(APPLICATION_COMMAND, user, channel, data)
        return await self._run(
            payload, user, channel, "/" + " ".join(names), timeout=timeout, messages=messages
        )

    async def autocomplete(
        self,
        user: FakeUser,
        channel: FakeChannel,
        *path: str | Mapping[str, OptionValue],
        focused: str,
        timeout: float | None = None,  # noqa: ASYNC109 (a driver API wants a per-call timeout)
    ) -> list[JSON]:
        """Ask for autocomplete choices; returns the `{"name", "value"}` dicts the bot sent."""
        names, options = _split_path(path)
        data = self._command_data(channel, names, options, focused=focused)
        payload = self._interaction_payload(AUTOCOMPLETE, user, channel, data)
        label = "autocomplete /" + " ".join(names) + f" [{focused}]"
        result = await self._run(payload, user, channel, label, timeout=timeout, messages=0)
        return result.choices

    async def click(
        self,
        user: FakeUser,
        message: FakeMessage,
        custom_id: str,
        *,
        timeout: float | None = None,  # noqa: ASYNC109 (a driver API wants a per-call timeout)
        messages: int = 0,
    ) -> InteractionResult:
        """Click the button `custom_id` on `message` (as currently stored, after any edits)."""
        comp = message.component(custom_id)
        if comp.get("type") != 2:
            raise FakeDiscordError(f"component {custom_id!r} is type {comp.get('type')}, not a button")
        if comp.get("disabled"):
            raise FakeDiscordError(f"button {custom_id!r} is disabled; Discord would not let a user click it")
        data = {"custom_id": custom_id, "component_type": 2}
        if "id" in comp:
            data["id"] = comp["id"]
        return await self._component(user, message, data, f"click {custom_id}", timeout, messages)

    async def select(
        self,
        user: FakeUser,
        message: FakeMessage,
        custom_id: str,
        values: list[str],
        *,
        timeout: float | None = None,  # noqa: ASYNC109 (a driver API wants a per-call timeout)
        messages: int = 0,
    ) -> InteractionResult:
        """Pick `values` in the string select `custom_id` on `message`."""
        comp = message.component(custom_id)
        if comp.get("type") != 3:
            raise FakeDiscordError(f"component {custom_id!r} is type {comp.get('type')}, not a string select")
        allowed = [o["value"] for o in comp.get("options", [])]
        unknown = [v for v in values if v not in allowed]
        if unknown:
            raise FakeDiscordError(f"select {custom_id!r} has no options {unknown}; options: {allowed}")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise FakeDiscordError(f"select {custom_id!r} takes {lo}..{hi} values, got {len(values)}")
        data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        if "id" in comp:
            data["id"] = comp["id"]
        return await self._component(user, message, data, f"select {custom_id}", timeout, messages)

    async def submit_modal(
        self,
        user: FakeUser,
        opened: InteractionResult,
        values: Mapping[str, str | list[str]],
        *,
        timeout: float | None = None,  # noqa: ASYNC109 (a driver API wants a per-call timeout)
        messages: int = 0,
    ) -> InteractionResult:
        """Submit the modal the bot opened in `opened` (a result whose response type is 9).

        `values` maps each input's custom_id to its text (or to the chosen values, for selects).
        """
        modal = opened.modal
        source = self._interactions[opened.interaction_id]

        def answer(comp: JSON) -> JSON | None:
            ctype = comp.get("type")
            if ctype == 1:
                inner = [a for c in comp.get("components", []) if (a := answer(c)) is not None]
                return {"type": 1, "components": inner}
            if ctype == 18:
                inner_answer = answer(comp["component"])
                return None if inner_answer is None else {"type": 18, "component": inner_answer}
            cid = comp.get("custom_id")
            if cid is None:
                return None
            value = values.get(cid, comp.get("value", ""))
            if ctype == 4:
                if comp.get("required", True) and not value:
                    raise FakeDiscordError(f"modal input {cid!r} is required")
                return {"type": 4, "custom_id": cid, "value": value}
            chosen = value if isinstance(value, list) else [value] if value else []
            return {"type": ctype, "custom_id": cid, "values": chosen}

        known = {
            c.get("custom_id")
            for c in FakeMessage(
                0, 0, None, user, "probe", components=modal.get("components", [])
            ).iter_components()
        }
        known |= {c["component"].get("custom_id") for c in modal.get("components", []) if c.get("type") == 18}
        unknown = [k for k in values if k not in known]
        if unknown:
            raise FakeDiscordError(f"modal {modal.get('custom_id')!r} has no inputs {unknown}")
        components = [a for c in modal.get("components", []) if (a := answer(c)) is not None]
        data = {"custom_id": modal["custom_id"], "components": components}
        message = source.component_message
        payload = self._interaction_payload(MODAL_SUBMIT, user, source.channel, data, message=message)
        label = f"submit modal {modal['custom_id']}"
        return await self._run(
            payload, user, source.channel, label, timeout=timeout, messages=messages, message=message
        )

    async def say(self, user: FakeUser, channel: FakeChannel, content: str) -> FakeMessage:
        """A user posts a message: stored and dispatched as MESSAGE_CREATE."""
        message = FakeMessage(
            self.ids.next(), channel.id, channel.guild_id, user, "user", content=content, type=0
        )
        self.messages[message.id] = message
        conn = self._require_connection(channel.guild_id)
        data = message.to_payload()
        if channel.guild_id is not None:
            data["guild_id"] = str(channel.guild_id)
            data["member"] = self.guilds[channel.guild_id].members[user.id].to_payload(with_user=False)
        await conn.dispatch("MESSAGE_CREATE", data)
        return message

    async def force_reconnect(self, timeout: float | None = None) -> None:  # noqa: ASYNC109
        """Send op 7 RECONNECT, as Discord does now and then; wait until the bot has RESUMEd."""
        conn = self._require_connection()
        before = self.resumes
        await conn.send({"op": 7, "d": None, "s": None, "t": None})
        deadline = asyncio.get_running_loop().time() + (timeout or self.timeout)
        if not await self._wait_until(lambda: self.resumes > before, deadline):
            raise FakeDiscordError(
                f"the bot did not RESUME after op 7 (gateway queries: {self.gateway_queries})"
            )

    async def wait_for_messages(
        self,
        predicate: Callable[[FakeMessage], bool],
        count: int = 1,
        timeout: float | None = None,  # noqa: ASYNC109 (a driver API wants a per-call timeout)
    ) -> list[FakeMessage]:
        """Wait until `count` stored messages satisfy `predicate` (for work the bot does on its own)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (timeout or self.timeout)
        while True:
            found = [m for m in self.messages.values() if predicate(m) and not m.deleted]
            if len(found) >= count:
                return found
            self._activity.clear()
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise FakeDiscordError(f"only {len(found)} of {count} matching messages after waiting")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._activity.wait(), remaining)

    def report_bot_error(self, error: BaseException, context: str = "") -> None:
        """Called from the bot side (a `tree.error` handler, a log handler): the current driver call fails."""
        self.bot_errors.append((context, error))
        self._activity.set()

    # ------------------------------------------------------------------ interaction plumbing

    async def _component(
        self,
        user: FakeUser,
        message: FakeMessage,
        data: JSON,
        label: str,
        timeout: float | None,  # noqa: ASYNC109 (a driver API wants a per-call timeout)
        messages: int,
    ) -> InteractionResult:
        channel = self.channels[message.channel_id]
        payload = self._interaction_payload(MESSAGE_COMPONENT, user, channel, data, message=message)
        return await self._run(
            payload, user, channel, label, timeout=timeout, messages=messages, message=message
        )

    def _interaction_payload(
        self,
        itype: int,
        user: FakeUser,
        channel: FakeChannel,
        data: JSON,
        *,
        message: FakeMessage | None = None,
    ) -> JSON:
        """An INTERACTION_CREATE payload as Discord sends it (and as discord.py 2.7 parses it)."""
        iid = self.ids.next()
        payload: JSON = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "token": f"itok.{iid}.{secrets.token_urlsafe(12)}",
            "version": 1,
            "channel_id": str(channel.id),
            "locale": user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        if channel.guild_id is not None:
            guild = self.guilds[channel.guild_id]
            member = guild.members.get(user.id)
            if member is None:
                raise FakeDiscordError(f"{user.username} is not a member of guild {guild.name!r}")
            perms = guild.permissions_of(user.id)
            payload["guild_id"] = str(guild.id)
            payload["guild_locale"] = "en-US"
            payload["guild"] = {"id": str(guild.id), "locale": "en-US", "features": []}
            payload["member"] = member.to_payload(permissions=perms)
            payload["channel"] = channel.to_payload(permissions=perms)
            payload["app_permissions"] = str(guild.permissions_of(self.bot_user.id))
            payload["authorizing_integration_owners"] = {"0": str(guild.id)}
            payload["context"] = 0
        else:
            payload["user"] = user.to_payload()
            payload["channel"] = channel.to_payload(permissions=DEFAULT_PERMISSIONS)
            payload["app_permissions"] = str(DEFAULT_PERMISSIONS)
            payload["authorizing_integration_owners"] = {"0": "0"}
            payload["context"] = 1
        if message is not None:
            payload["message"] = message.to_payload()
        return payload

    def _find_command(self, guild_id: int | None, name: str) -> tuple[JSON | None, int | None]:
        """The synced command called `name` (guild commands first) and the guild it belongs to."""
        if guild_id is not None:
            for cmd in self.commands.get(guild_id, []):
                if cmd["name"] == name and cmd.get("type", 1) == 1:
                    return cmd, guild_id
        for cmd in self.commands.get(None, []):
            if cmd["name"] == name and cmd.get("type", 1) == 1:
                return cmd, None
        return None, None

    def _command_data(
        self, channel: FakeChannel, names: list[str], options: Mapping[str, OptionValue], focused: str | None
    ) -> JSON:
        """`data` of an application command interaction: nested sub-command options plus resolved objects.

        When the bot has synced its commands, option types and required options come from that schema
        (as on Discord); otherwise types are inferred from the Python values.
        """
        if not names:
            raise ValueError("slash() needs at least the command name")
        schema, cmd_guild = self._find_command(channel.guild_id, names[0])
        resolved: dict[str, dict[str, JSON]] = {}
        leaf_schema: list[JSON] | None = None
        nesting: list[tuple[int, str]] = []
        if schema is not None:
            level = schema.get("options", [])
            for sub in names[1:]:
                match = next((o for o in level if o["name"] == sub and o["type"] in (1, 2)), None)
                if match is None:
                    raise FakeDiscordError(f"/{' '.join(names)}: no subcommand {sub!r} in the synced command")
                nesting.append((match["type"], sub))
                level = match.get("options", [])
            if any(o["type"] in (1, 2) for o in level):
                raise FakeDiscordError(f"/{' '.join(names)} is a group; name a subcommand")
            leaf_schema = level
        else:
            kinds = [2, 1] if len(names) == 3 else [1]
            nesting = list(zip(kinds, names[1:], strict=False))

        leaf: list[JSON] = []
        declared = {o["name"]: o for o in leaf_schema} if leaf_schema is not None else {}
        if leaf_schema is not None:
            unknown = [k for k in options if k not in declared]
            if unknown:
                raise FakeDiscordError(
                    f"/{' '.join(names)} has no options {unknown}; it has {list(declared)}"
                )
            missing = [o["name"] for o in leaf_schema if o.get("required") and o["name"] not in options]
            if missing and focused is None:
                raise FakeDiscordError(f"/{' '.join(names)}: required options missing: {missing}")
        for name, value in options.items():
            opt_type = declared[name]["type"] if name in declared else None
            leaf.append(self._option(channel, name, value, opt_type, name == focused, resolved))
        if focused is not None and focused not in options:
            raise FakeDiscordError(f"focused option {focused!r} must be among the options given")

        current = leaf
        for kind, sub in reversed(nesting):
            current = [{"type": kind, "name": sub, "options": current}]
        data: JSON = {
            "id": str(schema["id"]) if schema else str(self._stable_command_id(names[0])),
            "name": names[0],
            "type": 1,
            "options": current,
        }
        if cmd_guild is not None:
            data["guild_id"] = str(cmd_guild)
        if resolved:
            data["resolved"] = resolved
        return data

    def _stable_command_id(self, name: str) -> int:
        """An id for a command the bot never synced, the same each time it is used."""
        return self._command_ids.setdefault(name, self.ids.next())

    def _option(
        self,
        channel: FakeChannel,
        name: str,
        value: OptionValue,
        opt_type: int | None,
        focused: bool,
        resolved: dict[str, dict[str, JSON]],
    ) -> JSON:
        """One leaf option; users, channels and roles also go into `resolved` like Discord does."""
        guild = self.guilds.get(channel.guild_id) if channel.guild_id is not None else None
        raw: str | int | float  # the option's value as Discord sends it
        if focused:
            # Autocomplete sends what the user has typed so far, as typed.
            return {"type": opt_type or 3, "name": name, "value": value, "focused": True}
        if isinstance(value, FakeUser):
            resolved.setdefault("users", {})[str(value.id)] = value.to_payload()
            if guild is not None and value.id in guild.members:
                member = guild.members[value.id]
                perms = guild.permissions_of(value.id)
                resolved.setdefault("members", {})[str(value.id)] = member.to_payload(
                    with_user=False, permissions=perms
                )
            inferred, raw = 6, str(value.id)
        elif isinstance(value, FakeChannel):
            resolved.setdefault("channels", {})[str(value.id)] = value.to_payload(
                permissions=DEFAULT_PERMISSIONS
            )
            inferred, raw = 7, str(value.id)
        elif isinstance(value, FakeRole):
            resolved.setdefault("roles", {})[str(value.id)] = value.to_payload()
            inferred, raw = 8, str(value.id)
        elif isinstance(value, bool):
            inferred, raw = 5, value
        elif isinstance(value, int):
            inferred, raw = 4, value
        elif isinstance(value, float):
            inferred, raw = 10, value
        elif isinstance(value, str):
            inferred, raw = 3, value
        else:
            raise TypeError(f"option {name!r}: cannot send a {type(value).__name__}")
        if opt_type is not None and opt_type != inferred:
            compatible = (opt_type == 10 and inferred == 4) or (opt_type == 9 and inferred in (6, 8))
            if not compatible:
                raise FakeDiscordError(
                    f"option {name!r} is type {opt_type} in the synced command, but the test passed {value!r}"
                )
        return {"type": opt_type or inferred, "name": name, "value": raw}

    def _active(self, guild_id: int | None = None) -> _Connection | None:
        """The open session that receives this guild's events (the newest, as after a reconnect)."""
        for conn in reversed(self._connections):
            if conn.session_id is not None and not conn.ws.closed and conn.holds(guild_id):
                return conn
        return None

    def _require_connection(self, guild_id: int | None = None) -> _Connection:
        conn = self._active(guild_id)
        if conn is None:
            held = [c.shard for c in self._connections if c.session_id is not None and not c.ws.closed]
            raise FakeDiscordError(
                f"no bot connection holds the shard of guild {guild_id} (sessions' shards: {held}; "
                "did the client start and IDENTIFY?)"
            )
        return conn

    def shard_connections(self) -> list[tuple[int, int] | None]:
        """The shards of the open sessions, for tests of several processes."""
        return [c.shard for c in self._connections if c.session_id is not None and not c.ws.closed]

    async def _run(
        self,
        payload: JSON,
        user: FakeUser,
        channel: FakeChannel,
        label: str,
        *,
        timeout: float | None,  # noqa: ASYNC109 (a driver API wants a per-call timeout)
        messages: int,
        message: FakeMessage | None = None,
    ) -> InteractionResult:
        """Dispatch INTERACTION_CREATE and wait until the bot has answered and gone quiet."""
        conn = self._require_connection(channel.guild_id)
        loop = asyncio.get_running_loop()
        inter = _Interaction(
            id=int(payload["id"]),
            token=payload["token"],
            type=payload["type"],
            user=user,
            channel=channel,
            label=label,
            sent_at=loop.time(),
            component_message=message,
        )
        self._interactions[inter.id] = inter
        self._by_token[inter.token] = inter
        start_changes, start_requests = len(self._changes), len(self.requests)
        start_errors = len(self.bot_errors)
        deadline = loop.time() + (timeout or self.timeout)

        def fail(why: str) -> FakeDiscordError:
            lines = [f"{label} (interaction {inter.id}): {why}", "bot requests meanwhile:"]
            lines += [f"  {r}" for r in self.requests[start_requests:]] or ["  (none)"]
            if self.unhandled:
                lines.append(f"unhandled routes so far: {[str(r) for r in self.unhandled]}")
            if self.server_errors:
                lines.append(f"fake server errors: {self.server_errors}")
            if self.rejections:
                lines.append(f"requests the fake rejected: {self.rejections}")
            return FakeDiscordError("\n".join(lines))

        def check_errors() -> None:
            if len(self.bot_errors) > start_errors:
                context, error = self.bot_errors[start_errors]
                raise fail(f"the bot raised {error!r} ({context})") from error

        async def until(condition: Callable[[], bool]) -> bool:
            ok = await self._wait_until(lambda: condition() or len(self.bot_errors) > start_errors, deadline)
            check_errors()
            return ok

        first_task = self._tasks_made  # the bot's tasks from this number on were started after the event
        await conn.dispatch("INTERACTION_CREATE", payload)
        if not await until(inter.answered.is_set):
            raise fail("the bot never answered the interaction callback")

        def made(n_after: int) -> list[FakeMessage]:
            return [m for m, what in self._changes[n_after:] if what == "create"]

        if inter.callback_type in DEFERRED_TYPES:
            # A deferral promises more: wait for the bot's next message (follow-up, edit, post).
            after_defer = len(self._changes)
            if not await until(lambda: len(self._changes) > after_defer):
                raise fail(f"the bot deferred (type {inter.callback_type}) but sent nothing afterwards")
        if not await until(lambda: len(made(start_changes)) >= messages):
            raise fail(f"expected at least {messages} messages, got {len(made(start_changes))}")
        if not await self._settle(deadline, first_task):
            raise fail("the bot's handler did not finish (or the bot did not go quiet) before the timeout")
        check_errors()

        created = made(start_changes)
        edited: list[FakeMessage] = []
        for m, what in self._changes[start_changes:]:
            if what == "edit" and m not in created and m not in edited:
                edited.append(m)
        return InteractionResult(
            interaction_id=inter.id,
            response_type=inter.callback_type,
            response_data=inter.callback_data,
            messages=created,
            edited=edited,
            requests=self.requests[start_requests:],
        )

    async def _wait_until(self, condition: Callable[[], bool], deadline: float) -> bool:
        """Wake on each bot request until `condition()` holds; False at the deadline."""
        loop = asyncio.get_running_loop()
        while not condition():
            self._activity.clear()
            remaining = deadline - loop.time()
            if remaining <= 0:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._activity.wait(), remaining)
        return True

    async def _settle(self, deadline: float, first_task: int) -> bool:
        """Return once no request is in flight and every task the bot created since the
        interaction was sent (numbered from `first_task`) is done: its handler, the background
        jobs that one started, and theirs. While some still run (an AI's turn, work waiting on the
        test, a store's heartbeat), once the handler is done and no request started for
        `self.settle` seconds. A bot in another process or loop has no tasks known here: the
        quiet spell alone then says when."""
        loop = asyncio.get_running_loop()
        while True:
            self._activity.clear()
            all_done, handlers_done = self._bot_work(first_task)
            if self._inflight == 0 and self._bot_in_loop and all_done:
                return True
            remaining = deadline - loop.time()
            if remaining <= 0:
                return False
            try:
                await asyncio.wait_for(self._activity.wait(), min(self.settle, remaining))
            except TimeoutError:
                if self._inflight == 0 and handlers_done:
                    return True

    # ------------------------------------------------------------------ gateway

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        """The gateway. discord.py asks for `compress=zlib-stream` (or zstd) in the query, but only
        decompresses *binary* frames, so plain text frames work and we ignore the parameter."""
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        conn = _Connection(ws, dict(request.query))
        self.gateway_queries.append(conn.query)
        self._connections.append(conn)
        await conn.send({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                await self._gateway_op(conn, frame.get("op"), frame.get("d"))
        except Exception as exc:
            self.server_errors.append(f"gateway: {exc!r}")
            log.exception("fake gateway failed")
        finally:
            if conn in self._connections:
                self._connections.remove(conn)
            if self._active() is None:
                self._identified.clear()
        return ws

    async def _gateway_op(self, conn: _Connection, op: int | None, data: Any) -> None:
        if op == 1:  # heartbeat
            await conn.send({"op": 11, "d": None, "s": None, "t": None})
        elif op == 2:  # identify
            conn.identify = data
            if data.get("shard") is not None:
                shard_id, count = (int(x) for x in data["shard"])
                conn.shard = (shard_id, count)
            self.tokens_seen.add(data.get("token", ""))
            conn.session_id = secrets.token_hex(16)
            self._sessions[conn.session_id] = conn
            await conn.dispatch("READY", self._ready_payload(conn))
            for guild in self.guilds.values():
                if conn.holds(guild.id):  # each shard is told of its own guilds only
                    await conn.dispatch("GUILD_CREATE", guild.to_payload())
            self._identified.set()
        elif op == 6:  # resume
            old = self._sessions.get(data.get("session_id", ""))
            if old is None:
                await conn.send({"op": 9, "d": False, "s": None, "t": None})
                return
            conn.session_id, conn.seq = old.session_id, max(old.seq, int(data.get("seq") or 0))
            conn.shard = old.shard
            assert conn.session_id is not None
            self._sessions[conn.session_id] = conn
            await conn.dispatch("RESUMED", {})
            self.resumes += 1
            self._identified.set()
            self._activity.set()
        elif op == 8:  # request guild members
            requested = self.guilds.get(int(data["guild_id"]))
            if requested is not None:
                await conn.dispatch(
                    "GUILD_MEMBERS_CHUNK",
                    {
                        "guild_id": str(requested.id),
                        "members": [m.to_payload() for m in requested.members.values()],
                        "chunk_index": 0,
                        "chunk_count": 1,
                        "not_found": [],
                        "nonce": data.get("nonce"),
                    },
                )
        # op 3 (presence) and anything else: accepted silently.

    def _ready_payload(self, conn: _Connection) -> JSON:
        ready: JSON = {
            "v": 10,
            "user": self.bot_user.to_payload() | {"verified": True, "mfa_enabled": False},
            "guilds": [
                {"id": str(g.id), "unavailable": True} for g in self.guilds.values() if conn.holds(g.id)
            ],
            "session_id": conn.session_id,
            "session_type": "normal",
            "resume_gateway_url": f"ws://127.0.0.1:{self.port}{GATEWAY_PATH}",
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "_trace": ["fake-discord"],
        }
        if conn.shard is not None:
            ready["shard"] = list(conn.shard)
        return ready

    # ------------------------------------------------------------------ HTTP plumbing

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Log every request, count it as bot activity, turn errors into Discord-style JSON."""
        if request.path == GATEWAY_PATH:
            return await handler(request)
        entry = RequestLog(request.method, request.path, dict(request.query))
        self.requests.append(entry)
        self._inflight += 1
        self._activity.set()
        try:
            try:
                response = await handler(request)
            except _HTTPError as err:
                self.rejections.append(f"{request.method} {request.path}: {err.message}")
                response = _json({"message": err.message, "code": err.code}, err.status)
            except Exception as exc:
                # 400, not 500: discord.py retries 5xx with multi-second sleeps.
                self.server_errors.append(f"{request.method} {request.path}: {exc!r}")
                log.exception("fake Discord route failed")
                response = _json({"message": f"fake discord error: {exc!r}", "code": 0}, 400)
            entry.status = response.status
            return response
        finally:
            self._inflight -= 1
            self._activity.set()

    def _routes(self) -> list[tuple[str, str, Handler]]:
        return [
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway_bot),
            ("GET", "/users/@me", self._get_me),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/applications/@me", self._get_application),
            ("POST", "/users/@me/channels", self._create_dm),
            ("GET", "/users/{user_id}", self._get_user),
            ("GET", "/applications/{app_id}/commands", self._get_commands),
            ("PUT", "/applications/{app_id}/commands", self._put_commands),
            ("POST", "/applications/{app_id}/commands", self._post_command),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self._get_commands),
            ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self._put_commands),
            ("POST", "/applications/{app_id}/guilds/{guild_id}/commands", self._post_command),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self._callback),
            ("POST", "/webhooks/{app_id}/{token}", self._followup),
            ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_get),
            ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_edit),
            ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_delete),
            ("GET", "/channels/{channel_id}", self._get_channel),
            ("GET", "/channels/{channel_id}/messages", self._get_history),
            ("GET", "/channels/{channel_id}/thread-members/{user_id}", self._get_thread_member),
            ("POST", "/channels/{channel_id}/messages", self._post_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._edit_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message),
            ("POST", "/channels/{channel_id}/typing", self._ok_no_content),
            (
                "PUT",
                "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
                self._ok_no_content,
            ),
            ("POST", "/channels/{channel_id}/threads", self._create_thread),
            ("POST", "/channels/{channel_id}/messages/{message_id}/threads", self._create_thread),
            ("GET", "/guilds/{guild_id}", self._get_guild),
            ("GET", "/guilds/{guild_id}/channels", self._get_guild_channels),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member),
        ]

    async def _unknown(self, request: web.Request) -> web.StreamResponse:
        entry = RequestLog(request.method, request.path, dict(request.query), 404)
        self.unhandled.append(entry)
        log.warning("fake Discord has no route for %s %s", request.method, request.path)
        return _json(
            {"message": f"fake discord: no route for {request.method} {request.path}", "code": 0}, 404
        )

    async def _ok_no_content(self, request: web.Request) -> web.StreamResponse:
        return _no_content()

    async def _read_body(self, request: web.Request) -> tuple[JSON, dict[int, tuple[str, bytes]]]:
        """JSON body, or multipart with `payload_json` and `files[n]` parts."""
        files: dict[int, tuple[str, bytes]] = {}
        # The raw header, not `request.content_type`: aiohttp parses that with the email package,
        # which was the fake's largest cost in the load bench (a board upload per move).
        ctype = request.headers.get("Content-Type", "")
        if ctype.startswith("multipart/"):
            boundary = _BOUNDARY.search(ctype)
            if boundary is None:
                raise _HTTPError(400, 50035, "multipart body without a boundary")
            payload: JSON = {}
            for name, filename, data in _multipart_parts(await request.read(), boundary.group(1)):
                if name == "payload_json":
                    payload = json.loads(data)
                elif m := re.fullmatch(r"files\[(\d+)\]", name):
                    files[int(m.group(1))] = (filename or f"file{m.group(1)}", data)
                else:
                    raise _HTTPError(400, 50035, f"unexpected multipart field {name!r}")
            return payload, files
        if request.can_read_body:
            body = await request.read()
            if body:
                return json.loads(body), files
        return {}, files

    # ------------------------------------------------------------------ messages

    def _check_message(self, fields: JSON, files: Mapping[int, Any], existing: FakeMessage | None) -> None:
        """The validation Discord does that bots commonly trip over."""
        content = fields.get("content") or ""
        if len(content) > 2000:
            raise _HTTPError(400, 50035, "content: must be 2000 or fewer in length")
        embeds = fields.get("embeds") or []
        if len(embeds) > 10:
            raise _HTTPError(400, 50035, "embeds: must be 10 or fewer in length")
        components = fields.get("components") or []
        if len(components) > 5 and not (fields.get("flags", 0) & (1 << 15)):
            raise _HTTPError(400, 50035, "components: must be 5 or fewer in length")
        probe = FakeMessage(0, 0, None, self.bot_user, "probe", components=components)
        for comp in probe.iter_components():
            cid = comp.get("custom_id")
            if cid is not None and not 1 <= len(cid) <= 100:
                raise _HTTPError(400, 50035, f"custom_id {cid!r}: must be 1..100 characters")
            if comp.get("type") == 1 and len(comp.get("components", [])) > 5:
                raise _HTTPError(400, 50035, "action row: must have 5 or fewer components")
            if comp.get("type") == 3 and not 1 <= len(comp.get("options", [])) <= 25:
                raise _HTTPError(400, 50035, "select options: must be 1..25")
        if existing is None and not (content or embeds or components or files or fields.get("poll")):
            raise _HTTPError(400, 50006, "Cannot send an empty message")

    def _attachments(
        self,
        channel_id: int,
        fields: JSON,
        files: Mapping[int, tuple[str, bytes]],
        existing: list[FakeAttachment],
    ) -> list[FakeAttachment]:
        """New uploads plus kept attachments. `attachments` entries with a small id refer to `files[id]`."""

        def upload(index: int, meta: JSON) -> FakeAttachment:
            part_name, data = files[index]
            filename = meta.get("filename") or part_name
            aid = self.ids.next()
            return FakeAttachment(
                aid,
                filename,
                data,
                mimetypes.guess_type(filename)[0],
                f"http://127.0.0.1:{self.port}/attachments/{channel_id}/{aid}/{filename}",
                meta.get("description"),
            )

        if "attachments" not in fields:
            return [*existing, *(upload(i, {}) for i in sorted(files))]
        result: list[FakeAttachment] = []
        used: set[int] = set()
        by_id = {a.id: a for a in existing}
        for meta in fields["attachments"] or []:
            aid = int(meta["id"])
            if aid in by_id:
                result.append(by_id[aid])
            elif aid in files:
                result.append(upload(aid, meta))
                used.add(aid)
            else:
                raise _HTTPError(400, 50035, f"attachments: unknown attachment id {aid}")
        result += [upload(i, {}) for i in sorted(files) if i not in used]
        return result

    def _apply(self, message: FakeMessage, fields: JSON, files: Mapping[int, tuple[str, bytes]]) -> None:
        """Apply message fields (create or edit) to a stored message."""
        if "content" in fields:
            message.content = fields["content"] or ""
        if "embeds" in fields:
            message.embeds = list(fields["embeds"] or [])
        elif "embed" in fields:
            message.embeds = [fields["embed"]] if fields["embed"] else []
        if "components" in fields:
            message.components = _number_components(list(fields["components"] or []))
        if "attachments" in fields or files:
            message.attachments = self._attachments(message.channel_id, fields, files, message.attachments)
        if "message_reference" in fields:
            message.message_reference = fields["message_reference"]
        if "allowed_mentions" in fields:
            message.allowed_mentions = fields["allowed_mentions"]

    def _create(
        self,
        channel: FakeChannel,
        fields: JSON,
        files: Mapping[int, tuple[str, bytes]],
        *,
        kind: str,
        inter: _Interaction | None = None,
        flags: int = 0,
    ) -> FakeMessage:
        message = FakeMessage(
            self.ids.next(),
            channel.id,
            channel.guild_id,
            self.bot_user,
            kind,
            flags=flags,
            type=20 if inter is not None and inter.type == APPLICATION_COMMAND else (19 if inter else 0),
        )
        if inter is not None:
            message.interaction_id = inter.id
            message.interaction_user = inter.user
            message.interaction_type = inter.type
            message.webhook_id = self.application_id
            inter.message_ids.append(message.id)
        self._apply(message, fields, files)
        self.messages[message.id] = message
        self._changes.append((message, "create"))
        return message

    def _edit(self, message: FakeMessage, fields: JSON, files: Mapping[int, tuple[str, bytes]]) -> None:
        if message.deleted:
            raise _HTTPError(404, 10008, "Unknown Message")
        self._check_message(fields, files, message)
        message.history.append(message.snapshot())
        self._apply(message, fields, files)
        if message.loading:
            message.flags &= ~LOADING
        message.edited_at = iso()
        self._changes.append((message, "edit"))

    def _delete(self, message: FakeMessage) -> None:
        message.deleted = True
        self._changes.append((message, "delete"))

    def _channel(self, request: web.Request) -> FakeChannel:
        channel = self.channels.get(int(request.match_info["channel_id"]))
        if channel is None:
            raise _HTTPError(404, 10003, "Unknown Channel")
        return channel

    def _message(self, request: web.Request, channel: FakeChannel) -> FakeMessage:
        message = self.messages.get(int(request.match_info["message_id"]))
        if message is None or message.channel_id != channel.id or message.deleted:
            raise _HTTPError(404, 10008, "Unknown Message")
        return message

    # ------------------------------------------------------------------ REST: misc

    async def _get_gateway(self, request: web.Request) -> web.StreamResponse:
        return _json({"url": self.gateway_url})

    async def _get_gateway_bot(self, request: web.Request) -> web.StreamResponse:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return _json(
            {"url": self.gateway_url, "shards": self.recommended_shards, "session_start_limit": limit}
        )

    async def _get_me(self, request: web.Request) -> web.StreamResponse:
        self.tokens_seen.add(request.headers.get("Authorization", "").removeprefix("Bot "))
        return _json(self.bot_user.to_payload() | {"verified": True, "mfa_enabled": False})

    async def _get_user(self, request: web.Request) -> web.StreamResponse:
        user = self.users.get(int(request.match_info["user_id"]))
        if user is None:
            raise _HTTPError(404, 10013, "Unknown User")
        return _json(user.to_payload())

    async def _get_application(self, request: web.Request) -> web.StreamResponse:
        return _json(
            {
                "id": str(self.application_id),
                "name": self.bot_user.username,
                "icon": None,
                "description": "fake application",
                "summary": "",
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "owner": self.owner.to_payload(),
                "team": None,
                "flags": 0,
                "bot": self.bot_user.to_payload(),
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "tags": [],
            }
        )

    async def _create_dm(self, request: web.Request) -> web.StreamResponse:
        body, _ = await self._read_body(request)
        user = self.users.get(int(body["recipient_id"]))
        if user is None:
            raise _HTTPError(404, 10013, "Unknown User")
        return _json(self.dm_channel(user).to_payload())

    async def _get_guild(self, request: web.Request) -> web.StreamResponse:
        guild = self.guilds.get(int(request.match_info["guild_id"]))
        if guild is None:
            raise _HTTPError(404, 10004, "Unknown Guild")
        data = guild.to_payload()
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            data.pop(key, None)
        return _json(data)

    async def _get_guild_channels(self, request: web.Request) -> web.StreamResponse:
        guild = self.guilds.get(int(request.match_info["guild_id"]))
        if guild is None:
            raise _HTTPError(404, 10004, "Unknown Guild")
        return _json([c.to_payload() for c in guild.channels.values() if not c.is_thread])

    async def _get_member(self, request: web.Request) -> web.StreamResponse:
        guild = self.guilds.get(int(request.match_info["guild_id"]))
        member = guild.members.get(int(request.match_info["user_id"])) if guild else None
        if member is None:
            raise _HTTPError(404, 10007, "Unknown Member")
        return _json(member.to_payload())

    async def _get_attachment(self, request: web.Request) -> web.StreamResponse:
        aid = int(request.match_info["attachment_id"])
        for message in self.messages.values():
            for att in message.attachments:
                if att.id == aid:
                    return web.Response(
                        body=att.data, content_type=att.content_type or "application/octet-stream"
                    )
        return web.Response(status=404)

    # ------------------------------------------------------------------ REST: application commands

    def _command_scope(self, request: web.Request) -> int | None:
        if int(request.match_info["app_id"]) != self.application_id:
            raise _HTTPError(404, 10002, "Unknown Application")
        gid = request.match_info.get("guild_id")
        if gid is not None and int(gid) not in self.guilds:
            raise _HTTPError(403, 50001, "Missing Access")
        return int(gid) if gid is not None else None

    def _store_command(self, scope: int | None, cmd: JSON, old: list[JSON]) -> JSON:
        previous = next(
            (c for c in old if c["name"] == cmd["name"] and c.get("type", 1) == cmd.get("type", 1)), None
        )
        stored = dict(cmd)
        stored.setdefault("type", 1)
        stored.setdefault("description", "")
        stored["id"] = previous["id"] if previous else str(self.ids.next())
        stored["application_id"] = str(self.application_id)
        stored["version"] = str(self.ids.next())
        stored.setdefault("default_member_permissions", None)
        stored.setdefault("nsfw", False)
        if scope is not None:
            stored["guild_id"] = str(scope)
        return stored

    async def _get_commands(self, request: web.Request) -> web.StreamResponse:
        return _json(self.commands.get(self._command_scope(request), []))

    async def _put_commands(self, request: web.Request) -> web.StreamResponse:
        scope = self._command_scope(request)
        body, _ = await self._read_body(request)
        if not isinstance(body, list):
            raise _HTTPError(400, 50035, "expected a list of commands")
        old = self.commands.get(scope, [])
        self.commands[scope] = [self._store_command(scope, cmd, old) for cmd in body]
        return _json(self.commands[scope])

    async def _post_command(self, request: web.Request) -> web.StreamResponse:
        scope = self._command_scope(request)
        body, _ = await self._read_body(request)
        old = self.commands.get(scope, [])
        stored = self._store_command(scope, body, old)
        self.commands[scope] = [c for c in old if c["id"] != stored["id"]] + [stored]
        return _json(stored, 201)

    # ------------------------------------------------------------------ REST: interactions

    def _interaction_for(self, request: web.Request) -> _Interaction:
        inter = self._by_token.get(request.match_info["token"])
        if inter is None:
            raise _HTTPError(404, 10015, "Unknown Webhook")
        if "app_id" in request.match_info and int(request.match_info["app_id"]) != self.application_id:
            raise _HTTPError(404, 10015, "Unknown Webhook")
        return inter

    async def _callback(self, request: web.Request) -> web.StreamResponse:
        """POST /interactions/{id}/{token}/callback: the initial response, answered like `with_response=1`."""
        inter = self._interactions.get(int(request.match_info["interaction_id"]))
        if inter is None or inter.token != request.match_info["token"]:
            raise _HTTPError(404, 10062, "Unknown interaction")
        if inter.callback_type is not None:
            raise _HTTPError(400, 40060, "Interaction has already been acknowledged.")
        late = asyncio.get_running_loop().time() - inter.sent_at
        if late > self.interaction_deadline:
            raise _HTTPError(404, 10062, f"Unknown interaction (answered after {late:.2f}s, limit 3s)")
        body, files = await self._read_body(request)
        ctype = body.get("type")
        data: JSON = body.get("data") or {}
        message: FakeMessage | None = None
        if ctype == 4:
            self._check_message(data, files, None)
            flags = data.get("flags", 0) & (EPHEMERAL | (1 << 2) | (1 << 12) | (1 << 15))
            message = self._create(
                inter.channel, data, files, kind="interaction_response", inter=inter, flags=flags
            )
            inter.original_message_id = message.id
        elif ctype == 5:
            flags = (data.get("flags", 0) & EPHEMERAL) | LOADING
            message = self._create(
                inter.channel, {}, {}, kind="interaction_response", inter=inter, flags=flags
            )
            inter.original_message_id = message.id
        elif ctype in (6, 7):
            if inter.component_message is None:
                raise _HTTPError(
                    400, 40004, f"callback type {ctype} is only valid for component interactions"
                )
            message = inter.component_message
            inter.original_message_id = message.id
            if ctype == 7:
                self._edit(message, data, files)
        elif ctype == 8:
            if inter.type != AUTOCOMPLETE:
                raise _HTTPError(400, 50035, "autocomplete result for a non-autocomplete interaction")
            choices = data.get("choices", [])
            if len(choices) > 25:
                raise _HTTPError(400, 50035, f"choices: must be 25 or fewer in length (got {len(choices)})")
        elif ctype == 9:
            if inter.type in (AUTOCOMPLETE, MODAL_SUBMIT):
                raise _HTTPError(400, 50035, "cannot answer autocomplete or a modal submit with a modal")
        elif ctype != 1:
            raise _HTTPError(400, 50035, f"unsupported interaction callback type {ctype}")
        inter.callback_type = ctype
        inter.callback_data = data
        inter.answered.set()
        interaction_info: JSON = {
            "id": str(inter.id),
            "type": inter.type,
            "response_message_id": str(message.id) if message is not None else None,
            "response_message_loading": ctype == 5,
            "response_message_ephemeral": bool(message and message.ephemeral),
        }
        resource: JSON = {"type": ctype}
        if message is not None:
            resource["message"] = message.to_payload()
        return _json({"interaction": interaction_info, "resource": resource})

    def _original(self, inter: _Interaction) -> FakeMessage:
        if inter.original_message_id is None:
            raise _HTTPError(404, 10008, "Unknown Message")
        return self.messages[inter.original_message_id]

    def _webhook_message(self, request: web.Request, inter: _Interaction) -> FakeMessage:
        mid = request.match_info["message_id"]
        message = self._original(inter) if mid == "@original" else self.messages.get(int(mid))
        if message is None or message.deleted:
            raise _HTTPError(404, 10008, "Unknown Message")
        allowed = message.id in inter.message_ids or message.id == inter.original_message_id
        if not allowed:
            raise _HTTPError(404, 10008, "Unknown Message (not sent through this interaction's webhook)")
        return message

    async def _followup(self, request: web.Request) -> web.StreamResponse:
        """POST /webhooks/{app}/{token}: a follow-up. The first one after a "thinking" defer fills it in."""
        inter = self._interaction_for(request)
        if inter.callback_type is None:
            raise _HTTPError(404, 10015, "Unknown Webhook (interaction not acknowledged yet)")
        if self.followups_expired:
            raise _HTTPError(404, 10015, "Unknown Webhook (the interaction token has expired)")
        body, files = await self._read_body(request)
        if files and self.followup_uploads_refused:
            raise _HTTPError(413, 40005, "Request entity too large")
        original = self.messages.get(inter.original_message_id or 0)
        if original is not None and original.loading and inter.callback_type == 5:
            self._edit(original, body, files)
            message = original
        else:
            self._check_message(body, files, None)
            flags = body.get("flags", 0) & (EPHEMERAL | (1 << 2) | (1 << 12) | (1 << 15))
            message = self._create(inter.channel, body, files, kind="followup", inter=inter, flags=flags)
        if request.query.get("wait") in ("1", "true", "True"):
            return _json(message.to_payload())
        return _no_content()

    async def _webhook_get(self, request: web.Request) -> web.StreamResponse:
        inter = self._interaction_for(request)
        return _json(self._webhook_message(request, inter).to_payload())

    async def _webhook_edit(self, request: web.Request) -> web.StreamResponse:
        inter = self._interaction_for(request)
        message = self._webhook_message(request, inter)
        body, files = await self._read_body(request)
        self._edit(message, body, files)
        return _json(message.to_payload())

    async def _webhook_delete(self, request: web.Request) -> web.StreamResponse:
        inter = self._interaction_for(request)
        self._delete(self._webhook_message(request, inter))
        return _no_content()

    # ------------------------------------------------------------------ REST: channels

    async def _get_channel(self, request: web.Request) -> web.StreamResponse:
        return _json(self._channel(request).to_payload())

    async def _get_thread_member(self, request: web.Request) -> web.StreamResponse:
        """A thread member object, or 404 (Unknown Member) for a user not in the thread."""
        thread = self._channel(request)
        user_id = int(request.match_info["user_id"])
        if not thread.is_thread or user_id not in thread.members:
            raise _HTTPError(404, 10007, "Unknown Member")
        return _json({"id": str(thread.id), "user_id": str(user_id), "join_timestamp": iso(), "flags": 0})

    async def _get_history(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        limit = int(request.query.get("limit", 50))
        guild = self.guilds.get(channel.guild_id or 0)
        if guild is not None and not guild.permissions_of(self.bot_user.id) & READ_MESSAGE_HISTORY:
            return _json([])  # as Discord answers a bot without the permission: no messages
        visible = [m for m in self.messages_in(channel) if not m.ephemeral]
        return _json([m.to_payload() for m in reversed(visible)][:limit])

    async def _post_message(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        body, files = await self._read_body(request)
        self._check_message(body, files, None)
        if channel.is_dm and channel.recipient is not None and channel.recipient.id in self.dms_closed:
            raise _HTTPError(403, 50007, "Cannot send messages to this user")
        if not channel.is_dm:  # as Discord: Send Messages (in Threads), and Attach Files for a file
            need = (SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES) | (
                ATTACH_FILES if files else 0
            )
            if self.channel_permissions(channel, self.bot_user.id) & need != need:
                raise _HTTPError(403, 50013, "Missing Permissions")
        flags = body.get("flags", 0) & ((1 << 2) | (1 << 12) | (1 << 15))
        nonce = body.get("nonce")
        if nonce is not None and len(str(nonce)) > 25:
            raise _HTTPError(400, 50035, "nonce: Must be 25 or fewer in length.")
        key = (channel.id, self.bot_user.id, str(nonce))
        if nonce is not None and body.get("enforce_nonce") and (earlier := self._nonces.get(key)):
            made_at, first = earlier
            if self.nonce_clock() - made_at < self.nonce_window and not first.deleted:
                return _json(first.to_payload())  # the first one again: nothing new is created
        message = self._create(channel, body, files, kind="dm" if channel.is_dm else "channel", flags=flags)
        if nonce is not None:
            message.nonce = str(nonce)
            self._nonces[key] = (self.nonce_clock(), message)
        return _json(message.to_payload())

    async def _get_message(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        return _json(self._message(request, channel).to_payload())

    async def _edit_message(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        message = self._message(request, channel)
        if message.author is not self.bot_user:
            raise _HTTPError(403, 50005, "Cannot edit a message authored by another user")
        body, files = await self._read_body(request)
        self._edit(message, body, files)
        return _json(message.to_payload())

    async def _delete_message(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        self._delete(self._message(request, channel))
        return _no_content()

    async def _create_thread(self, request: web.Request) -> web.StreamResponse:
        """Create a public thread (from a message or not) and tell the bot with THREAD_CREATE."""
        parent = self._channel(request)
        body, _ = await self._read_body(request)
        if parent.is_dm or parent.is_thread:
            raise _HTTPError(400, 50024, "Cannot execute action on this channel type")
        guild = self.guilds.get(parent.guild_id or 0)
        if guild is not None and not guild.permissions_of(self.bot_user.id) & CREATE_PUBLIC_THREADS:
            raise _HTTPError(403, 50013, "Missing Permissions")  # as Discord refuses a bot without it
        # A thread started from a message shares the message's id.
        tid = self._message(request, parent).id if "message_id" in request.match_info else None
        thread_type = PRIVATE_THREAD if body.get("type") == PRIVATE_THREAD else PUBLIC_THREAD
        thread = self.add_thread(
            parent, body.get("name", "thread"), owner=self.bot_user, thread_type=thread_type, thread_id=tid
        )
        payload = thread.to_payload() | {"newly_created": True}
        conn = self._active(parent.guild_id)
        if conn is not None:
            await conn.dispatch("THREAD_CREATE", payload)
        return _json(thread.to_payload(), 201)


def _split_path(
    path: tuple[str | Mapping[str, OptionValue], ...],
) -> tuple[list[str], Mapping[str, OptionValue]]:
    """("blockwars", "move", {...}) -> (["blockwars", "move"], {...})."""
    names: list[str] = []
    options: Mapping[str, OptionValue] = {}
    for i, part in enumerate(path):
        if isinstance(part, str):
            names.append(part)
        elif i == len(path) - 1:
            options = part
        else:
            raise TypeError("the options mapping must come last")
    if not 1 <= len(names) <= 3:
        raise ValueError(f"a command path has 1 to 3 names, got {names}")
    return names, options


def _number_components(components: list[JSON]) -> list[JSON]:
    """Give every component a numeric `id` like Discord does when the bot did not set one."""
    used: set[int] = set()
    stack = list(components)
    while stack:
        comp = stack.pop()
        if isinstance(comp.get("id"), int):
            used.add(comp["id"])
        stack.extend(comp.get("components", []))
    counter = 0

    def walk(items: list[JSON]) -> list[JSON]:
        nonlocal counter
        out = []
        for comp in items:
            comp = dict(comp)
            if not isinstance(comp.get("id"), int):
                counter += 1
                while counter in used:
                    counter += 1
                comp["id"] = counter
            if "components" in comp:
                comp["components"] = walk(comp["components"])
            out.append(comp)
        return out

    return walk(components)

"""Pytest fixtures and helpers to run a real discord.py client against `FakeDiscord`.

Use from a conftest or a test module::

    from tests.fakediscord.fixtures import fake_discord, start_bot  # noqa: F401 (pytest fixtures)

`fake_discord` starts the fake, patches discord.py's REST base and gateway URL, and forwards every
ERROR that discord.py logs (exceptions in commands, views, autocomplete, event handlers) to the fake,
so the driver call in progress fails at once with the bot's traceback instead of timing out.
`start_bot` starts clients (and closes them at teardown); the fixture fails if the fake itself broke.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator

import discord
import pytest
import pytest_asyncio

from .server import FakeDiscord, FakeDiscordError

TEST_TOKEN = "fake.bot.token"


START = 1_700_000_000.0


class HandClock:
    """A clock the test moves by hand (`clock.now = ...`), so deadlines pass without sleeping."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


class ForwardErrors(logging.Handler):
    """Hands a logger's ERROR records to the fake, which raises them in the waiting test: discord.py's
    own, or ours (an unexpected exception the cog apologised for). `enabled = False` lets a test
    that provokes an error on purpose see it logged without failing."""

    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__(logging.ERROR)
        self.fake = fake
        self.enabled = True

    def emit(self, record: logging.LogRecord) -> None:
        if self.enabled:
            error = record.exc_info[1] if record.exc_info and record.exc_info[1] else None
            self.fake.report_bot_error(
                error or RuntimeError(record.getMessage()), context=record.getMessage()
            )


@contextlib.contextmanager
def forward_discord_errors(fake: FakeDiscord) -> Iterator[None]:
    """While active, ERROR records on the `discord` logger fail the current driver call."""
    handler = ForwardErrors(fake)
    logger = logging.getLogger("discord")
    logger.addHandler(handler)
    try:
        yield
    finally:
        logger.removeHandler(handler)


class RunningClient:
    """A client connected to the fake; `stop()` closes it and waits for its connect task."""

    def __init__(self, client: discord.Client, task: asyncio.Task[None]) -> None:
        self.client = client
        self.task = task

    async def stop(self) -> None:
        if not self.client.is_closed():
            await self.client.close()
        try:
            await asyncio.wait_for(self.task, 5)
        except (discord.ConnectionClosed, asyncio.CancelledError):
            pass
        except TimeoutError:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task


async def start_client(
    fake: FakeDiscord,
    client: discord.Client,
    *,
    token: str = TEST_TOKEN,
    timeout: float = 5.0,  # noqa: ASYNC109 (a driver API wants a per-call timeout)
) -> RunningClient:
    """login (runs setup_hook), connect in a task, and wait for READY; raises if it fails or stalls.

    Build clients with `guild_ready_timeout=0.05` or so (READY waits that long after the last
    GUILD_CREATE) and, for `commands.Bot`/intents with members, `chunk_guilds_at_startup=False`.
    """
    if fake.port == 0:
        raise FakeDiscordError("start the fake (and patch discord.py) before starting a client")
    # The client's own tasks run in the fake's `bot_context`, so a driver call knows when they are done.
    await asyncio.create_task(client.login(token), context=fake.bot_context())
    task = asyncio.create_task(
        client.connect(reconnect=False),
        name=f"fake-discord-connect-{id(client)}",
        context=fake.bot_context(),
    )
    ready = asyncio.create_task(client.wait_until_ready())
    done, _ = await asyncio.wait({task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    if ready in done:
        return RunningClient(client, task)
    ready.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await ready
    running = RunningClient(client, task)
    if task in done:
        exc = task.exception()
        await running.stop()
        raise FakeDiscordError(f"client stopped before READY: {exc!r}") from exc
    await running.stop()
    raise FakeDiscordError(
        f"client not READY within {timeout}s (requests: {[str(r) for r in fake.requests]})"
    )


@pytest_asyncio.fixture
async def fake_discord(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    """A started FakeDiscord with discord.py pointed at it; fails the test if the fake itself broke."""
    fake = FakeDiscord()
    await fake.start()
    fake.patch(monkeypatch)
    try:
        with forward_discord_errors(fake):
            yield fake
    finally:
        await fake.stop()
    if fake.server_errors:
        pytest.fail(
            f"the fake Discord hit errors (a bug in the fake or an odd request): {fake.server_errors}"
        )


@pytest_asyncio.fixture
async def start_bot(
    fake_discord: FakeDiscord,
) -> AsyncIterator[Callable[[discord.Client], Awaitable[RunningClient]]]:
    """`await start_bot(client)` connects a client to `fake_discord`; all are closed at teardown."""
    running: list[RunningClient] = []

    async def _start(client: discord.Client) -> RunningClient:
        handle = await start_client(fake_discord, client)
        running.append(handle)
        return handle

    yield _start
    for handle in reversed(running):
        await handle.stop()

"""One bot for a whole test module, on the fake Discord, with two players: for the stories of a
module that each play in a channel of their own, so the bot starts once, not once a test.

A module marks its tests `ON_THE_BOT` and makes a module-scoped fixture of `one_bot`:

    @pytest_asyncio.fixture(scope="module", loop_scope="module")
    async def table(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Table]:
        async with one_bot(tmp_path_factory.mktemp("taps"), "Taps") as world:
            yield world
"""

from __future__ import annotations

import contextlib
import logging
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.botkit import BotKit
from tests.fakediscord import FakeDiscord, FakeMessage
from tests.fakediscord.fixtures import ForwardErrors, HandClock, start_client

ON_THE_BOT = pytest.mark.asyncio(loop_scope="module")  # one bot start-up for the module


class Table:
    """The fake Discord, one bot and two players (alice and bob) in a server of their own."""

    def __init__(self, fake: FakeDiscord, guild: str) -> None:
        self.fake = fake
        self.guild = fake.add_guild(guild, channels=("lobby",))
        self.alice = fake.add_user("alice")
        self.bob = fake.add_user("bob")
        self.channels = 0
        self.bot: Any = None

    def channel(self) -> Any:
        """A fresh channel: one game each."""
        self.channels += 1
        return self.fake.add_channel(self.guild, f"game-{self.channels}")

    async def idle(self) -> None:
        await self.bot.get_cog("Core").idle()

    async def accepted(self, game: str, side: str) -> tuple[Any, FakeMessage]:
        """Alice challenges Bob to `game` playing `side` in a fresh channel; Bob accepts by the
        button. The channel and the first board."""
        channel = self.channel()
        challenge = await self.fake.slash(
            self.alice, channel, game, "challenge", {"opponent": self.bob, "side": side}
        )
        (accept,) = [c for c in challenge.message.custom_ids if c.startswith("bw:accept:")]
        answer = await self.fake.click(self.bob, challenge.message, accept)
        await self.idle()
        return channel, answer.message


@contextlib.asynccontextmanager
async def one_bot(folder: Path, guild: str) -> AsyncIterator[Table]:
    """The bot built as production builds it (`BotKit`), started against a fake Discord patched in
    for the module; every error the bot logs fails the test that caused it, and the fake's own
    errors fail the module's last."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        fake = FakeDiscord()
        await fake.start()
        fake.patch(monkeypatch)
        kit = BotKit(folder)
        world = Table(fake, guild)
        handler = ForwardErrors(fake)
        logger = logging.getLogger("bot")
        logger.addHandler(handler)
        running = None
        try:
            world.bot = await kit.build(clock=HandClock(), rng=random.Random(1))
            running = await start_client(fake, world.bot)
            yield world
            await world.idle()
        finally:
            logger.removeHandler(handler)
            await kit.close()
            if running is not None:
                await running.stop()
            await fake.stop()
    assert not fake.server_errors, fake.server_errors

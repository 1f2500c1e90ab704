"""The Discord layer for real: the bot built by `bot.create_bot`, connected to a fake Discord.

Every story drives slash commands, buttons and selects exactly as Discord would deliver them and
checks what the bot sent back: text, components and a PNG that decodes. The database is a real
SQLite file, the renderer and the engine are the real ones, and the clock is ours.
"""

from __future__ import annotations

import importlib.util
import io
import logging
import random
import re
from pathlib import Path

import pytest
from PIL import Image

from bot import BlockWarsBot, create_bot, intents
from cogs.blockwars import APOLOGY, BlockWars
from data import Status
from engine.blockwars import Side, State
from engine.blockwars.position import build
from settings import Settings, load_settings
from tests.fakediscord import MANAGE_CHANNELS, FakeDiscord, FakeMessage, InteractionResult

TOKEN = "fake.bot.token"
START = 1_700_000_000.0


class Clock:
    """A clock the test moves by hand, so deadlines pass without sleeping."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


class ForwardBotErrors(logging.Handler):
    """Our own error log (unexpected exceptions the cog apologised for) fails the test at once."""

    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__(logging.ERROR)
        self.fake = fake
        self.enabled = True

    def emit(self, record: logging.LogRecord) -> None:
        if self.enabled:
            error = record.exc_info[1] if record.exc_info and record.exc_info[1] else None
            self.fake.report_bot_error(error or RuntimeError(record.getMessage()), record.getMessage())


class World:
    """The fake guild, its players and a helper to (re)start the bot on the same database."""

    def __init__(self, fake: FakeDiscord, start_bot, tmp_path: Path) -> None:
        self.fake = fake
        self.start_bot = start_bot
        self.guild = fake.add_guild("Western Front", channels=("general", "trenches"))
        self.general = self.guild.channel("general")
        self.trenches = self.guild.channel("trenches")
        self.thread = fake.add_thread(self.general, "match-2")
        self.alice = fake.add_user("alice")
        self.bob = fake.add_user("bob")
        self.eve = fake.add_user("eve")
        mods = fake.add_role(self.guild, "mods", MANAGE_CHANNELS)
        self.mod = fake.add_user("mod", roles=[mods])
        self.other_bot = fake.add_user("otherbot", bot=True)
        self.clock = Clock()
        self.settings = Settings(token=None, database_path=tmp_path / "bw.db", sync_commands=True)
        self.bot: BlockWarsBot | None = None

    async def start(self) -> BlockWarsBot:
        bot = create_bot(
            self.settings,
            clock=self.clock,
            rng=random.Random(1),
            guild_ready_timeout=0.05,
            chunk_guilds_at_startup=False,
        )
        await self.start_bot(bot)
        self.bot = bot
        return bot

    async def restart(self) -> BlockWarsBot:
        assert self.bot is not None
        await self.cog.idle()
        await self.bot.close()
        return await self.start()

    @property
    def cog(self) -> BlockWars:
        assert self.bot is not None
        cog = self.bot.get_cog("BlockWars")
        # load_extension imports the module afresh, so compare by name, not class identity
        assert cog is not None and type(cog).__name__ == BlockWars.__name__
        return cog  # type: ignore[return-value]

    async def match(self, channel=None):
        assert self.bot is not None and self.bot.database is not None
        return await self.bot.database.get_channel_match((channel or self.general).id)

    async def slash(self, user, name: str, options: dict | None = None, channel=None, **kw) -> InteractionResult:
        return await self.fake.slash(user, channel or self.general, "blockwars", name, options or {}, **kw)


@pytest.fixture
async def world(fake_discord: FakeDiscord, start_bot, tmp_path: Path):  # noqa: F811
    handler = ForwardBotErrors(fake_discord)
    logger = logging.getLogger("blockwars")
    logger.addHandler(handler)
    w = World(fake_discord, start_bot, tmp_path)
    w.errors = handler  # type: ignore[attr-defined]
    try:
        await w.start()
        yield w
        await w.cog.idle()
    finally:
        logger.removeHandler(handler)
        if w.bot is not None and w.bot.database is not None:
            await w.bot.close()


def png_of(message: FakeMessage) -> Image.Image:
    data = message.attachment("board.png").data
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG" and image.size[0] > 100
    return image


def assert_board_post(message: FakeMessage, next_player) -> None:
    """A board post: the image, who is to move (mentioned), and the deadline as a Discord timestamp."""
    assert not message.ephemeral
    png_of(message)
    assert f"<@{next_player.id}>" in message.content
    assert re.search(r"<t:\d+:R>", message.content), message.content


async def challenge_accepted(w: World, channel=None) -> FakeMessage:
    """Alice (Germans) challenges Bob, who accepts with the button; returns the first board."""
    channel = channel or w.general
    result = await w.slash(w.alice, "challenge", {"opponent": w.bob, "side": "germans"}, channel=channel)
    assert not result.ephemeral
    assert f"<@{w.bob.id}>" in result.content
    match = await w.match(channel)
    assert match.status is Status.CHALLENGED
    assert result.message.custom_ids == [f"bw:accept:{match.id}", f"bw:decline:{match.id}"]
    accepted = await w.fake.click(w.bob, result.message, f"bw:accept:{match.id}")
    assert accepted.deferred
    board = accepted.message
    assert_board_post(board, w.alice)
    assert "deploy" in board.content
    return board


async def deployed(w: World, channel=None) -> FakeMessage:
    """Both sides deploy the standard layout: the Germans by button, the Canadians by command."""
    channel = channel or w.general
    board = await challenge_accepted(w, channel)
    match = await w.match(channel)
    std = f"bw:dec:{match.id}:{match.version}:setup std"
    assert std in board.custom_ids
    after = await w.fake.click(w.alice, board, std)
    assert_board_post(after.message, w.bob)
    result = await w.slash(w.bob, "setup", {"layout": "std"}, channel=channel)
    assert_board_post(result.message, w.alice)
    assert "Germans" in result.content and "2 actions left" in result.content
    return result.message


# ---------------------------------------------------------------------- the core story


async def test_challenge_accept_setup_and_move(world: World):
    w = world
    board = await deployed(w)
    match = await w.match()
    assert board.custom_ids == [f"bw:act:{match.id}:{match.version}", f"bw:dec:{match.id}:{match.version}:end"]
    moved = await w.slash(w.alice, "move", {"action": "e6-e5"})
    assert moved.deferred
    message = moved.message
    assert message.content.startswith("Germans: e6-e5")
    assert "1 action left" in message.content
    assert_board_post(message, w.alice)
    assert (await w.match()).version == match.version + 1

"""How a test builds the bot: the way `python bot.py --sync` does, from an environment.

`bot.main` reads its settings with `load_settings` (its parsing, defaults and floors: worker
processes, SWEEP_SECONDS, ...), applies the command line (`--sync`), opens the database with
`open_database` and builds the bot with `create_bot(settings, database=...)`. A test's bot goes
through those same steps from an environment mapping, so it runs a configuration users run. Only
what a test alone needs is given by hand: the hand clock, the seeded rng and the fake Discord's short
wait for guilds. tests/test_botkit.py holds the rule: no other test calls `Settings(`,
`create_bot(` or `WargamesBot(` itself.

    bot = await botkit.build({"AI_BUDGET_SECONDS": "0.02"}, clock=HandClock(), rng=random.Random(1))
    await start_bot(bot)  # tests/fakediscord: connect it to the fake Discord
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from dataclasses import replace
from pathlib import Path

import pytest_asyncio

from bot import WargamesBot, create_bot, open_database, parse_args
from data import Database, is_postgres_url
from settings import Settings, load_settings
from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import TEST_TOKEN

# What every test bot's environment holds unless the test says otherwise: a token, as a real start
# has (the fake Discord takes any), and boards drawn in threads, as on a one-core machine. Not
# production's multi-core default (one painter process): every bot start would spawn a painter and
# warm it (Pillow, every game's renderer), which doubled the CPU time of the bot's tests (80-90 s ->
# 183 s; docs/architecture.md, "How tests start the bot"). The painter process is tested where it is
# the point: tests/test_bot.py sets RENDER_PROCESSES=1, and the bots tests/test_reliability.py and
# tests/test_multiprocess.py start through `bot.main` keep the machine's default. AI_PROCESSES keeps
# production's default (a worker process on a multi-core machine): it starts only with the AI's first
# move, in the few tests that play the AI, and costs about 14 CPU seconds in all.
TEST_ENV = {"DISCORD_TOKEN": TEST_TOKEN, "RENDER_PROCESSES": "0"}
# `python bot.py --sync`: the tests sync the command tree at start-up, so the fake Discord checks
# every slash command's options against the schema the bot pushed.
SYNC = ("--sync",)
# READY waits this long after the last GUILD_CREATE; discord.py's 2 s would slow every start.
GUILD_READY_TIMEOUT = 0.05


def store_env(store: str) -> dict[str, str]:
    """The environment naming the `store` fixture's database: DATABASE_URL for PostgreSQL, else
    DATABASE_PATH."""
    return {"DATABASE_URL": store} if is_postgres_url(store) else {"DATABASE_PATH": store}


class BotKit:
    """Builds one test's bots and, after the test, closes them and the databases it opened for them
    (as `bot.serve` closes its database once the bot has stopped)."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self._bots: list[WargamesBot] = []
        self._opened: dict[WargamesBot, Database] = {}  # the databases the kit opened, by bot

    def environment(self, env: Mapping[str, str] | None = None) -> dict[str, str]:
        """TEST_ENV, then the test's own values. DATA_DIR is the test's tmp_path unless the test sets
        it, so the SQLite file and the health note are kept there unless the test names others
        (DATABASE_PATH, DATABASE_URL). Nothing comes from the process's environment or a `.env`."""
        return {"DATA_DIR": str(self.tmp_path), **TEST_ENV, **(env or {})}

    def settings(self, env: Mapping[str, str] | None = None, argv: Iterable[str] = SYNC) -> Settings:
        """What `bot.main` would run with, given this environment and command line."""
        args = parse_args(list(argv))
        return replace(load_settings(self.environment(env), dotenv=False), sync_commands=args.sync)

    async def build(
        self,
        env: Mapping[str, str] | None = None,
        *,
        clock: Callable[[], float],
        rng: random.Random,
        database: Database | None = None,
        argv: Iterable[str] = SYNC,
    ) -> WargamesBot:
        """The bot `python bot.py` would build from `env` (not yet connected: `start_bot` does that).

        Its database is opened as `bot.serve` opens it, on `clock`, unless the test passes its own
        `database` (one it shares with a service of its own); that one stays the test's to close."""
        settings = self.settings(env, argv)
        opened = None
        if database is None:
            opened = await open_database(settings, clock=clock)
            if opened is None:
                raise RuntimeError(f"the test bot's database could not be opened: {settings!r}")
            database = opened
        bot = create_bot(
            settings,
            database=database,
            clock=clock,
            rng=rng,
            guild_ready_timeout=GUILD_READY_TIMEOUT,
        )
        self._bots.append(bot)
        if opened is not None:
            self._opened[bot] = opened
        return bot

    async def stop(self, bot: WargamesBot) -> None:
        """Stop `bot` as a process stops: the bot closes, then the database opened for it (a restart
        then builds a new bot, which opens it again)."""
        await bot.close()
        database = self._opened.pop(bot, None)
        if database is not None:
            await database.close()

    async def close(self) -> None:
        """Stop every bot the kit built, the newest first, each before its database."""
        for bot in reversed(self._bots):
            await self.stop(bot)
        self._bots.clear()


@pytest_asyncio.fixture
async def botkit(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotKit]:
    """Builds the test's bots as `python bot.py --sync` does (see `BotKit`); they are closed after
    the test, before the fake Discord they talk to stops."""
    kit = BotKit(tmp_path)
    try:
        yield kit
    finally:
        await kit.close()

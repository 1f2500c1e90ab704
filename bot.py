"""Entry point: `make run` lands here. With DISCORD_TOKEN set it runs the Discord bot, else the console.

The bot hosts every game in `engine.registry`: one slash-command group each.

The bot is built by `create_bot` so the tests can run the very same object against a fake Discord.
"""

from __future__ import annotations

import argparse
import gc
import logging
import random
import sys
import time
from collections.abc import Callable
from dataclasses import replace

import aiohttp
import discord
from discord.ext import commands

from cogs._release import ReleasingTree
from data import Database
from play import MatchService
from render.workers import Painter
from settings import Settings, load_settings

log = logging.getLogger("bot")

EXTENSIONS = ("cogs.core",)


def intents() -> discord.Intents:
    """Default intents without the privileged ones: slash commands need no message content or members."""
    wanted = discord.Intents.default()
    wanted.members = False
    wanted.presences = False
    wanted.message_content = False
    return wanted


class WargamesBot(commands.Bot):
    """The bot: owns the database and the match service; the cogs are thin adapters over the service."""

    def __init__(
        self,
        settings: Settings,
        *,
        database: Database | None = None,
        clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
        **options: object,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            tree_cls=ReleasingTree,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            **options,  # type: ignore[arg-type]
        )
        self.settings = settings
        self._given_database = database
        self.database: Database | None = database
        self.clock = clock
        self.rng = rng
        self._service: MatchService | None = None
        self.painter = Painter(settings.render_processes)

    @property
    def service(self) -> MatchService:
        if self._service is None:
            raise RuntimeError("the bot has not been set up yet (setup_hook runs at login)")
        return self._service

    async def login(self, token: str) -> None:
        """Cap the HTTP connections before discord.py opens its session (it would open one per
        request in flight; see `Settings.http_connections`)."""
        if self.settings.http_connections and self.http.connector is discord.utils.MISSING:
            self.http.connector = aiohttp.TCPConnector(limit=self.settings.http_connections)
        await super().login(token)

    async def setup_hook(self) -> None:
        """Open the database, load the cogs, and sync the command tree only when asked to."""
        if self.database is None:
            self.settings.database_path.parent.mkdir(parents=True, exist_ok=True)
            self.database = await Database.open(self.settings.database_path, clock=self.clock)
        self._service = MatchService(self.database, clock=self.clock, rng=self.rng)
        await self.painter.start()
        for name in EXTENSIONS:
            await self.load_extension(name)
        if self.settings.sync_commands:
            await self.sync_tree()
        # What is loaded by now lives as long as the process (modules, engine tables, the cogs):
        # keep it out of the cyclic collector's full passes, which stalled the event loop for
        # ~200 ms at a time under load (bench/load.py times GC pauses).
        gc.collect()
        gc.freeze()

    async def sync_tree(self) -> list[discord.app_commands.AppCommand]:
        """Push the commands to Discord: to the development guild if set (instant), else globally."""
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("Synced %d commands to guild %s", len(synced), guild_id)
        else:
            synced = await self.tree.sync()
            log.info("Synced %d global commands (they may take a while to appear)", len(synced))
        return synced

    async def close(self) -> None:
        try:
            await super().close()
        finally:
            self.painter.close()
            # Only close a database we opened; a test's database belongs to the test.
            if self.database is not None and self._given_database is None:
                await self.database.close()
                self.database = None


def create_bot(
    settings: Settings,
    *,
    database: Database | None = None,
    clock: Callable[[], float] = time.time,
    rng: random.Random | None = None,
    **options: object,
) -> WargamesBot:
    """Build the bot without connecting; tests pass a fake-friendly `guild_ready_timeout` in options."""
    return WargamesBot(settings, database=database, clock=clock, rng=rng, **options)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="WWI wargames for Discord (or the local console without a token)."
    )
    parser.add_argument(
        "--sync",
        action="store_true",
        help="push the slash commands to Discord (DEV_GUILD_ID if set, else globally) and keep running",
    )
    return parser.parse_known_args(argv)[0]


def main(argv: list[str] | None = None) -> int:
    """Run the bot; without a DISCORD_TOKEN, start the local console instead."""
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    settings = load_settings()
    if settings.token is None:
        from console import main as console_main  # lazily: the bot's tests must not depend on it

        if args.sync:
            print("--sync needs DISCORD_TOKEN; starting the local console instead.", file=sys.stderr)
        return console_main([a for a in argv if a != "--sync"])
    token = settings.token
    settings = replace(settings, sync_commands=args.sync)
    level = logging.getLevelNamesMapping().get(settings.log_level, logging.INFO)
    discord.utils.setup_logging(level=level)
    logging.getLogger("bot").setLevel(level)
    bot = create_bot(settings)
    try:
        bot.run(token, log_handler=None)
    except discord.LoginFailure:
        log.error("Discord refused the token: check DISCORD_TOKEN (it is not printed here).")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Entry point: `make run` lands here. With DISCORD_TOKEN set it runs the Discord bot, else the console.

The bot hosts every game in `engine.registry`: one slash-command group each.

The bot is built by `create_bot` so the tests can run the very same object against a fake Discord.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import logging
import math
import os
import random
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path

import aiohttp
import discord
from discord.ext import commands

from cogs._format import DISCORD
from cogs._release import ReleasingTree
from data import Database, DataError
from engine import program
from play import MatchService
from play.thinking import Thinker
from render.workers import Painter
from settings import Settings, load_settings

log = logging.getLogger("bot")

EXTENSIONS = ("cogs.core", "cogs.tournament")


def intents() -> discord.Intents:
    """Default intents without the privileged ones: slash commands need no message content or members."""
    wanted = discord.Intents.default()
    wanted.members = False
    wanted.presences = False
    wanted.message_content = False
    return wanted


def match_service(
    settings: Settings,
    database: Database,
    *,
    clock: Callable[[], float] = time.time,
    rng: random.Random | None = None,
    thinker: Thinker | None = None,
) -> MatchService:
    """The match service a bot process runs on its store: its boards owed through the outbox, its
    sweep limited to its own shards' guilds. One function, so the tests that race two processes on
    one database (tests/test_pg_races.py) build exactly what a process builds."""
    guilds = settings.serves if settings.shard_ids is not None else None
    return MatchService(
        database, clock=clock, rng=rng, outbox=True, thinker=thinker, guilds=guilds, markup=DISCORD
    )


class WargamesBot(commands.AutoShardedBot):
    """The bot: owns the database and the match service; the cogs are thin adapters over the service.

    Sharded: Discord refuses an unsharded connection once a bot is in 2,500 servers. One process runs
    every shard unless SHARD_IDS names some (N processes then split them, on one PostgreSQL
    database); a guild's games are served by the process holding its shard."""

    def __init__(
        self,
        settings: Settings,
        *,
        database: Database,
        clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
        **options: object,
    ) -> None:
        # The bot joins no voice channel: discord.py's warnings that voice's libraries are missing
        # would open every start's log with what reads as a fault.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        if settings.shard_count is not None:
            options.setdefault("shard_count", settings.shard_count)
        if settings.shard_ids is not None:
            options.setdefault("shard_ids", list(settings.shard_ids))
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            tree_cls=ReleasingTree,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            **options,  # type: ignore[arg-type]
        )
        self.settings = settings
        self.database = database  # opened and closed by whoever started the bot (`serve`)
        self.clock = clock
        self.rng = rng
        self._service: MatchService | None = None
        self.painter = Painter(settings.render_processes)
        self.thinker = Thinker(settings.ai_processes)
        self.stopping = False  # set by `shutdown`: new interactions are refused

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
        """Load the cogs, and sync the command tree only when asked to."""
        self._service = match_service(
            self.settings, self.database, clock=self.clock, rng=self.rng, thinker=self.thinker
        )
        await self.painter.start()  # the AI's workers start with its first decision (play/thinking.py)
        for name in EXTENSIONS:
            await self.load_extension(name)
        if self.settings.sync_commands:
            await self.sync_tree()
        # What is loaded by now lives as long as the process (modules, engine tables, the cogs):
        # keep it out of the cyclic collector's full passes, which stalled the event loop for
        # ~200 ms at a time under load (bench/load.py times GC pauses).
        self._health = asyncio.create_task(self._health_loop(), name="health")
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

    def write_health(self) -> None:
        """Note, for `bot.py --health`, whether the bot is connected (atomically: a reader never sees
        half a file)."""
        path = self.settings.health_path
        note = {
            "ready": self.is_ready() and not self.is_closed() and not self.stopping,
            "latency_ms": round(self.latency * 1000) if math.isfinite(self.latency) else None,
            "at": time.time(),
            "pid": os.getpid(),
        }
        tmp = path.with_name(path.name + ".tmp")
        try:
            tmp.write_text(json.dumps(note), encoding="utf-8")
            tmp.replace(path)
        except OSError:
            log.warning("Could not write the health note %s", path, exc_info=True)

    async def on_ready(self) -> None:
        self.write_health()

    async def on_resumed(self) -> None:
        self.write_health()

    async def on_disconnect(self) -> None:
        self.write_health()

    async def _health_loop(self) -> None:
        while not self.is_closed():
            self.write_health()
            await asyncio.sleep(HEALTH_EVERY)

    async def shutdown(self, grace: float) -> None:
        """A clean stop: refuse new interactions, give background work (boards being posted, the
        AI's moves) `grace` seconds to finish, then close. A board still owed is posted after the
        next start (the outbox)."""
        self.stopping = True
        core = self.get_cog("Core")
        idle = getattr(core, "idle", None)
        if idle is not None:
            try:
                await asyncio.wait_for(idle(), grace)
            except TimeoutError:
                log.warning("Stopping with work still in flight; what is owed is sent after the restart.")
        await self.close()

    async def close(self) -> None:
        health = getattr(self, "_health", None)
        if health is not None:
            health.cancel()
        try:
            await super().close()
            self.write_health()  # says "not connected" at once, not after HEALTH_STALE
        finally:
            self.painter.close()
            self.thinker.close()


def create_bot(
    settings: Settings,
    *,
    database: Database,
    clock: Callable[[], float] = time.time,
    rng: random.Random | None = None,
    **options: object,
) -> WargamesBot:
    """Build the bot without connecting; tests pass a fake-friendly `guild_ready_timeout` in options."""
    return WargamesBot(settings, database=database, clock=clock, rng=rng, **options)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="WWI and WWII wargames for Discord (or the local console without a token).",
        # The console's own options (`make run ARGS=--demo`) pass through this parser unseen.
        epilog="Without DISCORD_TOKEN the local console starts, and takes its own options "
        "(--demo, --game, --level, --db, --script...): python -m console --help lists them.",
    )
    parser.add_argument(
        "--sync",
        action="store_true",
        help="push the slash commands to Discord (DEV_GUILD_ID if set, else globally) and keep running",
    )
    parser.add_argument(
        "--move-to",
        metavar="POSTGRESQL_URL",
        help="copy the SQLite database (DATA_DIR / DATABASE_PATH) into this empty PostgreSQL database, "
        "check the copy by replaying every match, and exit (docs/deploy.md)",
    )
    parser.add_argument(
        "--backup",
        metavar="FILE",
        help="copy the SQLite database (DATA_DIR / DATABASE_PATH) into the new FILE, safely while the "
        "bot runs, and exit (docs/deploy.md, Backups)",
    )
    parser.add_argument(
        "--health",
        action="store_true",
        help="exit 0 if the running bot is connected to Discord, 1 if not (Docker's HEALTHCHECK)",
    )
    return parser.parse_known_args(argv)[0]


HEALTH_EVERY = 20.0  # seconds between the running bot's health notes
HEALTH_STALE = 90.0  # a note older than this means the bot is stuck or gone


def health(path: Path, now: float) -> tuple[bool, str]:
    """Whether the bot that writes `path` is up and connected, and why not."""
    try:
        note = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False, f"no health note at {path}: the bot is not running (or has not started yet)"
    age = now - float(note.get("at", 0))
    if age > HEALTH_STALE:
        return False, f"the bot's last health note is {age:.0f} s old: it is stuck or stopped"
    if not note.get("ready"):
        return False, "the bot is running but not connected to Discord"
    return True, f"connected (gateway latency {note.get('latency_ms', '?')} ms)"


Hook = Callable[[WargamesBot], Awaitable[None]]
GRACE_SECONDS = 10.0  # how long a stop waits for the work in flight (boards, the AI's moves)


def main(argv: list[str] | None = None, *, on_start: Hook | None = None) -> int:
    """Run the bot; without a DISCORD_TOKEN, start the local console instead.

    `on_start` runs once the bot is built, inside its event loop: the load and crash benchmarks
    attach their instruments there, so what they measure is exactly what `python bot.py` runs."""
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    settings = load_settings()
    if args.move_to:
        from play.movehouse import move_house  # lazily: the bot itself does not need it

        return asyncio.run(move_house(settings.database_path, args.move_to))
    if args.backup:
        return backup(settings, Path(args.backup))
    if args.health:
        ok, why = health(settings.health_path, time.time())
        print(why, file=sys.stdout if ok else sys.stderr)
        return 0 if ok else 1
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
    return asyncio.run(serve(settings, token, on_start=on_start))


def backup(settings: Settings, target: Path) -> int:
    """`python bot.py --backup FILE`: the SQLite database copied while the bot may run, in one line
    (PostgreSQL has its own tools, which a copy here could not beat)."""
    if settings.database_url:
        print(
            "The games are in PostgreSQL (DATABASE_URL): back it up with pg_dump (docs/deploy.md, Backups).",
            file=sys.stderr,
        )
        return 1
    from data.backup import backup_sqlite  # lazily: the bot itself does not need it

    try:
        copy = backup_sqlite(settings.database_path, target)
    except DataError as exc:
        print(f"Nothing was backed up: {exc}", file=sys.stderr)
        return 1
    games = f"{copy.matches} game{'' if copy.matches == 1 else 's'}"
    print(f"Backed up {settings.database_path} to {target}: {games}, schema version {copy.schema_version}.")
    return 0


async def open_database(settings: Settings, *, clock: Callable[[], float] = time.time) -> Database | None:
    """The store the settings name, migrated; None after one line on what to fix (a server that
    cannot be reached, a wrong password, a database newer than this code: never a traceback).
    `clock` is for the tests (tests/botkit.py), whose bot runs on a clock they move by hand."""
    where = (
        "PostgreSQL (DATABASE_URL)" if settings.database_url else f"the SQLite file {settings.database_path}"
    )
    try:
        database = await Database.open(settings.database, clock=clock)
    except DataError as exc:
        log.error("Cannot open the database: %s", exc)
        return None
    except OSError as exc:  # an SQLite file in a folder that cannot be written
        log.error("Cannot open %s: %s", where, exc)
        return None
    log.info("Games are kept in %s (schema version %d).", where, await database.schema_version())
    return database


async def serve(settings: Settings, token: str, *, on_start: Hook | None = None) -> int:
    """Run the bot until Discord refuses it, cannot be reached, or SIGTERM / SIGINT asks it to stop
    (Docker's `docker stop`, Ctrl-C): then it stops taking interactions, lets the work in flight
    finish (at most GRACE_SECONDS), closes the database and exits 0. The database is opened (and
    migrated) before Discord is contacted: a bad DATABASE_URL ends it at once, in one line."""
    # the program it runs, learnt before anyone can change its files: each record of its AI names it
    ran = await asyncio.to_thread(program.running)
    log.info("This bot runs %s of its source.", ran.text())
    database = await open_database(settings)
    if database is None:
        return 1
    try:
        return await _serve(settings, token, database, on_start)
    finally:
        await database.close()


async def _serve(settings: Settings, token: str, database: Database, on_start: Hook | None) -> int:
    bot = create_bot(settings, database=database)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    try:
        if on_start is not None:
            await on_start(bot)
        runner = asyncio.create_task(bot.start(token), name="bot")
        stopping = asyncio.create_task(stop.wait(), name="stop-signal")
        await asyncio.wait({runner, stopping}, return_when=asyncio.FIRST_COMPLETED)
        code = 0
        if runner.done():
            code = _why_it_ended(runner)
        else:
            log.info("Stopping: no new interactions; finishing what is in flight.")
        await bot.shutdown(GRACE_SECONDS)
        runner.cancel()
        stopping.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await runner
        if code == 0:
            log.info("Stopped cleanly.")
        return code
    finally:
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(signum)


def _why_it_ended(runner: asyncio.Task[None]) -> int:
    """The exit code, with one line on why the bot stopped by itself (never a traceback for a cause
    the operator can fix: a wrong token, no network)."""
    error = None if runner.cancelled() else runner.exception()
    if error is None:
        return 0
    if isinstance(error, discord.LoginFailure):
        log.error("Discord refused the token: check DISCORD_TOKEN (it is not printed here).")
    elif isinstance(error, aiohttp.ClientConnectionError | discord.GatewayNotFound | OSError | TimeoutError):
        log.error("Discord cannot be reached (%s). Check the network connection, then start again.", error)
    else:
        log.error("The bot stopped", exc_info=error)
    return 1


if __name__ == "__main__":
    raise SystemExit(main())

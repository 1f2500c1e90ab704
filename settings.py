"""Settings from the environment (or a `.env` file), read once at start-up.

Kept apart from bot.py so tests build `Settings` directly, without touching the environment.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from engine.ai_check import budget_valid
from engine.tape import MAX_SECONDS

DEFAULT_DATA_DIR = "data"
DATABASE_NAME = "wargames.db"
# Where the one-game bot kept its database: still used if it is there and the new name is not, so an
# upgrade keeps every game and rating.
LEGACY_NAMES = ("blockwars.db",)


def default_database_path(env: Mapping[str, str]) -> Path:
    """`DATA_DIR`/wargames.db, or an existing database of the one-game bot in the same place.

    An unset or empty DATA_DIR means `DATA_DIR_DEFAULT` if set (the Docker image sets it to /data,
    its volume: an env file's empty `DATA_DIR=` replaces the image's DATA_DIR, and must not move
    the games off the volume), else data/ beside the code."""
    folder = Path(env.get("DATA_DIR") or env.get("DATA_DIR_DEFAULT") or DEFAULT_DATA_DIR)
    path = folder / DATABASE_NAME
    if not path.exists():
        for legacy in (folder / name for name in LEGACY_NAMES):
            if legacy.exists():
                return legacy
    return path


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the bot needs to run; `token` is never logged (its repr is hidden)."""

    token: str | None = field(default=None, repr=False)
    database_path: Path = Path(DEFAULT_DATA_DIR) / DATABASE_NAME
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    sweep_seconds: float = 60.0
    ai_budget_seconds: float | None = None
    sync_commands: bool = False
    # Worker processes drawing boards (0: threads). `load_settings` picks 1 on a multi-core machine.
    render_processes: int = 0
    # Worker processes the AI thinks in (0: a thread of the bot). `load_settings` picks 1 on a
    # multi-core machine: a search is seconds of Python, and in the bot's process it held the
    # interpreter lock every interaction needs (play/thinking.py).
    ai_processes: int = 0
    # Boards being drawn and uploaded at once; the rest wait their turn, so the event loop stays
    # free to acknowledge new moves at once however many games are in flight. Four keep a drawing
    # process busy; more uploads at once made the loop's turns, and so its stalls, longer.
    posting_slots: int = 4
    # HTTP connections to Discord at once (0: no cap, discord.py's default). Uncapped, a busy bot
    # held one socket per request in flight, ~200 under load, all walked by the GC's full passes.
    http_connections: int = 32
    # A PostgreSQL database instead of the SQLite file (several processes share it); it may hold a
    # password, so it is never shown.
    database_url: str | None = field(default=None, repr=False)
    # How many shards the bot has (None: Discord's recommendation) and which of them this process
    # runs (None: all). N processes with disjoint SHARD_IDS run one bot (docs/deploy.md).
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None

    @property
    def database(self) -> str | Path:
        """What `Database.open` opens: the PostgreSQL URL if there is one, else the SQLite file."""
        return self.database_url or self.database_path

    @property
    def health_path(self) -> Path:
        """Where the running bot says, every few seconds, whether it is connected (`bot.py --health`
        reads it: Docker's HEALTHCHECK). Each shard process has its own."""
        stem = self.database_path.stem
        if self.shard_ids is not None:
            stem += ".shards-" + "-".join(str(i) for i in self.shard_ids)
        return self.database_path.with_name(stem + ".health.json")

    def serves(self, guild_id: int) -> bool:
        """Whether this process holds the shard of `guild_id` (Discord's rule: (id >> 22) % count)."""
        if self.shard_ids is None or self.shard_count is None:
            return True
        return (guild_id >> 22) % self.shard_count in self.shard_ids


def _int_or_none(text: str | None, name: str, what: str = "a number (a Discord id)") -> int | None:
    if text is None or not text.strip():
        return None
    try:
        return int(text.strip())
    except ValueError:
        raise SystemExit(f"{name} must be {what}, not {text!r}") from None


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


def _log_level(text: str | None) -> str:
    """LOG_LEVEL, checked: a typo used to be read as INFO without a word, so the admin who asked for
    DEBUG to find a fault got none of it."""
    level = (text or "").strip().upper() or "INFO"
    if level not in LOG_LEVELS:
        raise SystemExit(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {text!r}")
    return level


def _float(text: str | None, name: str, default: float | None) -> float | None:
    if text is None or not text.strip():
        return default
    try:
        return float(text.strip())
    except ValueError:
        raise SystemExit(f"{name} must be a number of seconds, not {text!r}") from None


def _ai_budget(text: str | None) -> float | None:
    """The AI's think time a decision, if the admin sets one: the record of every decision holds
    it, and a checker replays only a budget above nothing and at most a minute (docs/fairness.md,
    "Checking the AI"), so a bot given another would play games nobody could check."""
    budget = _float(text, "AI_BUDGET_SECONDS", None)
    if not budget_valid(budget):
        raise SystemExit(
            f"AI_BUDGET_SECONDS must be more than 0 and at most {MAX_SECONDS:g} seconds, not {budget:g}. "
            "Leave it empty for each AI level's own think time."
        )
    return budget


def _count(text: str | None, name: str, default: int) -> int:
    if text is None or not text.strip():
        return default
    try:
        value = int(text.strip())
    except ValueError:
        raise SystemExit(f"{name} must be a whole number, not {text!r}") from None
    if value < 0:
        raise SystemExit(f"{name} cannot be negative (got {value})")
    return value


def _shards(env: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT and SHARD_IDS ("0,1" or "2-3"), checked against each other."""
    count = _int_or_none(env.get("SHARD_COUNT"), "SHARD_COUNT", "a whole number of shards")
    text = (env.get("SHARD_IDS") or "").strip()
    if count is not None and count < 1:
        raise SystemExit(f"SHARD_COUNT must be at least 1 (got {count})")
    if not text:
        return count, None
    if count is None:
        raise SystemExit("SHARD_IDS needs SHARD_COUNT: how many shards the whole bot has (docs/deploy.md)")
    ids: list[int] = []
    try:
        for part in text.split(","):
            low, _, high = part.strip().partition("-")
            ids.extend(range(int(low), int(high or low) + 1))
    except ValueError:
        raise SystemExit(f"SHARD_IDS must be shard numbers like 0,1 or 0-3, not {text!r}") from None
    wrong = [i for i in ids if not 0 <= i < count]
    if wrong or not ids:
        raise SystemExit(
            f"SHARD_IDS must be numbers from 0 to {count - 1} (SHARD_COUNT is {count}), not {text!r}"
        )
    return count, tuple(sorted(set(ids)))


def _database_url(
    env: Mapping[str, str], shard_count: int | None, shard_ids: tuple[int, ...] | None
) -> str | None:
    url = (env.get("DATABASE_URL") or "").strip() or None
    if url is not None and not url.startswith(("postgresql://", "postgres://")):
        raise SystemExit(
            "DATABASE_URL must be a postgresql://user:password@host:port/database URL "
            "(leave it empty for the SQLite file in DATA_DIR)"
        )
    if url is None and shard_ids is not None and shard_count is not None and len(shard_ids) < shard_count:
        raise SystemExit(
            "SHARD_IDS runs only some of the shards, so other processes run the rest and must share "
            "the games: set DATABASE_URL to a PostgreSQL database (docs/deploy.md)"
        )
    return url


def load_settings(env: Mapping[str, str] | None = None, *, dotenv: bool = True) -> Settings:
    """Read the settings; a `.env` in the working directory (else beside this file, where `make run`
    looks) fills in what the environment lacks: the environment always wins."""
    if env is None:
        if dotenv:
            from dotenv import load_dotenv

            for candidate in (Path.cwd() / ".env", Path(__file__).resolve().with_name(".env")):
                if candidate.is_file():
                    load_dotenv(candidate, override=False)
                    break
        env = os.environ
    token = (env.get("DISCORD_TOKEN") or "").strip() or None
    sweep = _float(env.get("SWEEP_SECONDS"), "SWEEP_SECONDS", 60.0)
    shard_count, shard_ids = _shards(env)
    return Settings(
        token=token,
        database_path=Path(env["DATABASE_PATH"]) if env.get("DATABASE_PATH") else default_database_path(env),
        dev_guild_id=_int_or_none(env.get("DEV_GUILD_ID"), "DEV_GUILD_ID"),
        log_level=_log_level(env.get("LOG_LEVEL")),
        sweep_seconds=max(5.0, 60.0 if sweep is None else sweep),
        ai_budget_seconds=_ai_budget(env.get("AI_BUDGET_SECONDS")),
        render_processes=_count(
            env.get("RENDER_PROCESSES"), "RENDER_PROCESSES", 1 if (os.cpu_count() or 1) > 1 else 0
        ),
        ai_processes=_count(env.get("AI_PROCESSES"), "AI_PROCESSES", 1 if (os.cpu_count() or 1) > 1 else 0),
        posting_slots=max(1, _count(env.get("POSTING_SLOTS"), "POSTING_SLOTS", 4)),
        http_connections=_count(env.get("HTTP_CONNECTIONS"), "HTTP_CONNECTIONS", 32),
        database_url=_database_url(env, shard_count, shard_ids),
        shard_count=shard_count,
        shard_ids=shard_ids,
    )

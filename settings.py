"""Settings from the environment (or a `.env` file), read once at start-up.

Kept apart from bot.py so tests build `Settings` directly, without touching the environment.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_DATA_DIR = "data"
DATABASE_NAME = "wargames.db"
# Where the one-game bot kept its database: still used if it is there and the new name is not, so an
# upgrade keeps every game and rating.
LEGACY_NAMES = ("blockwars.db",)


def default_database_path(env: Mapping[str, str]) -> Path:
    """`DATA_DIR`/wargames.db (DATA_DIR defaults to data/; the Docker image sets /data, its volume),
    or an existing database of the one-game bot in the same place."""
    folder = Path(env.get("DATA_DIR") or DEFAULT_DATA_DIR)
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

    @property
    def health_path(self) -> Path:
        """Where the running bot says, every few seconds, whether it is connected (`bot.py --health`
        reads it: Docker's HEALTHCHECK)."""
        return self.database_path.with_name(self.database_path.stem + ".health.json")


def _int_or_none(text: str | None, name: str) -> int | None:
    if text is None or not text.strip():
        return None
    try:
        return int(text.strip())
    except ValueError:
        raise SystemExit(f"{name} must be a number (a Discord id), not {text!r}") from None


def _float(text: str | None, name: str, default: float | None) -> float | None:
    if text is None or not text.strip():
        return default
    try:
        return float(text.strip())
    except ValueError:
        raise SystemExit(f"{name} must be a number of seconds, not {text!r}") from None


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
    return Settings(
        token=token,
        database_path=Path(env["DATABASE_PATH"]) if env.get("DATABASE_PATH") else default_database_path(env),
        dev_guild_id=_int_or_none(env.get("DEV_GUILD_ID"), "DEV_GUILD_ID"),
        log_level=(env.get("LOG_LEVEL") or "INFO").strip().upper(),
        sweep_seconds=max(5.0, sweep or 60.0),
        ai_budget_seconds=_float(env.get("AI_BUDGET_SECONDS"), "AI_BUDGET_SECONDS", None),
        render_processes=_count(
            env.get("RENDER_PROCESSES"), "RENDER_PROCESSES", 1 if (os.cpu_count() or 1) > 1 else 0
        ),
        ai_processes=_count(env.get("AI_PROCESSES"), "AI_PROCESSES", 1 if (os.cpu_count() or 1) > 1 else 0),
        posting_slots=max(1, _count(env.get("POSTING_SLOTS"), "POSTING_SLOTS", 4)),
        http_connections=_count(env.get("HTTP_CONNECTIONS"), "HTTP_CONNECTIONS", 32),
    )

"""The core cog's shared ground: its words for errors, the limits of a message, the services every
room uses and the runner for background work (AI turns, boards, DMs), whose failures are logged."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs import limits
from data import Match, StoreUnavailable
from engine.errors import IllegalAction, InvalidNotation
from play import BadRequest, MatchService, ServiceError
from play.service import game_of

if TYPE_CHECKING:
    from render.workers import Painter
    from settings import Settings


log = logging.getLogger("bot.core")

APOLOGY = "Sorry, something went wrong; the game is unchanged."
TRY_AGAIN = (
    "The bot cannot reach its database just now (it may be restarting). Try again in a moment: "
    "if your move did get through, the game will say so."
)
NO_PICTURE = "(The board picture could not be drawn this time; the `board` command draws it again.)"
DMS_CLOSED = (
    "<@{user}>, I could not send you a direct message with what you were dealt (are your DMs "
    "closed?): the **My hand** button shows your hand."
)
REVIEW_BOARD_WIDTH = 480  # a look back's boards: three small ones, readable on a phone
MESSAGE_LIMIT = limits.MESSAGE
OWED_AFTER = 120.0  # seconds after which a board still owed is taken as lost and posted by the sweep


def _alternatives(legal: list[str], total: int) -> str:
    """A few of the legal actions, and how many more there are in all (not only among the
    examples the refusal carried: those are the first few)."""
    if not legal:
        return ""
    shown = ", ".join(f"`{a}`" for a in legal[:8])
    more = f" and {total - 8} more" if total > 8 else ""
    return f"\nYou could play: {shown}{more}."


def friendly(error: BaseException) -> str | None:
    """The text for a refusal a player may see, or None if this is a bug."""
    if isinstance(error, ServiceError):
        return error.message + _alternatives(error.legal, error.legal_total)
    if isinstance(error, StoreUnavailable):
        log.warning("The database did not answer: %s", error)
        return TRY_AGAIN
    if isinstance(error, IllegalAction):
        legal = list(getattr(error, "legal", []) or [])
        return str(error) + _alternatives(legal, len(legal))
    if isinstance(error, InvalidNotation):
        return f"{error} The `rules` command explains the notation."
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or "You cannot use this command here."
    return None


async def reply(interaction: discord.Interaction, text: str, *, ephemeral: bool = True) -> object:
    """Answer whether or not the interaction was already answered or deferred; what was sent (for
    its message id)."""
    if interaction.response.is_done():
        return await interaction.followup.send(text, ephemeral=ephemeral, wait=True)
    return await interaction.response.send_message(text, ephemeral=ephemeral)


def _check_game(match: Match, game: str | None) -> None:
    """A game's commands act on a match of that game: another game's command in this channel is
    refused with a pointer to the right commands."""
    if game is not None and match.game != game:
        rules = game_of(match)
        raise BadRequest(f"This channel's game is {rules.title}: use the `/{rules.name}` commands.")


class Room:
    """What every room of the core cog shares: the bot's services, handed in, and background work."""

    bot: commands.Bot
    service: MatchService
    painter: Painter
    settings: Settings
    _tasks: set[asyncio.Task[Any]]
    _ai_locks: dict[int, asyncio.Lock]
    _ai_busy: Counter[int]  # channels where an AI turn is scheduled or running
    _posting: asyncio.Semaphore  # boards drawn and uploaded a few at a time (docs/reliability.md)

    def spawn(self, coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        """Background work whose failures are logged, never lost."""
        task = asyncio.create_task(coro, name=name)
        self._tasks.add(task)

        def done(t: asyncio.Task[Any]) -> None:
            self._tasks.discard(t)
            if t.cancelled() or t.exception() is None:
                return
            if isinstance(t.exception(), StoreUnavailable):  # what is owed is posted by a later sweep
                log.warning("Background task %s: the database did not answer: %s", name, t.exception())
            else:
                log.error("Background task %s failed", name, exc_info=t.exception())

        task.add_done_callback(done)
        return task

    async def idle(self) -> None:
        """Wait for background work (AI turns, DMs) to finish: for tests and shutdown."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

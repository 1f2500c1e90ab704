"""The error room: every command's and click's error ends here."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

if TYPE_CHECKING:
    pass

from cogs.room import (
    APOLOGY,
    Room,
    friendly,
    log,
    reply,
)


class Errors(Room):
    """The one place errors end: refusals become friendly ephemeral text, bugs are logged."""

    async def on_tree_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        await self.report(interaction, original)

    async def report(self, interaction: discord.Interaction, error: BaseException) -> None:
        """The one place errors end: refusals become friendly text, bugs are logged and apologised for."""
        text = friendly(error)
        if text is None:
            data: dict[str, Any] = dict(interaction.data or {})
            where = interaction.command.qualified_name if interaction.command else data.get("custom_id", "?")
            log.error("Unexpected error in %s (channel %s)", where, interaction.channel_id, exc_info=error)
            text = APOLOGY
        try:
            await reply(interaction, text)
        except discord.HTTPException:
            log.warning("Could not tell the user about an error", exc_info=True)

    async def guarded(self, interaction: discord.Interaction, work: Awaitable[None]) -> None:
        """The wrapper for component callbacks, so they share the command error handling."""
        try:
            await work
        except Exception as error:
            await self.report(interaction, error)

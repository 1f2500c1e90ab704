"""`/tournament past`, the `tournament:` number of `standings`, `crosstable` and `export`,
and its autocomplete, for the tournament cog (cogs/tournament.py calls these with itself).

Who sees what is Discord's to say (cogs/sight.py): the list, a number's answers and the choices
offered hold only tournaments of channels the member can view now; a channel the bot cannot fetch
counts as unseen (play/tournament_history.py). A tournament of another channel than the one asked
in is answered to the asker alone: posted where they ask, its standings would reach readers who
may not see its channel.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import discord
from discord import app_commands

from cogs._format import DISCORD
from data.tournaments import Tournament
from play.tournament import TournamentService
from play.tournament_history import choice_label, choices, past_text

if TYPE_CHECKING:
    from cogs.core import Core

COMMAND = "/tournament"


class Tournaments(Protocol):
    """What these commands use of the tournament cog (cogs/tournament.py's `Tournaments`)."""

    @property
    def service(self) -> TournamentService: ...
    @property
    def core(self) -> Core: ...
    def room(self, interaction: discord.Interaction) -> int: ...


async def chosen(cog: Tournaments, interaction: discord.Interaction, number: int | None) -> Tournament | None:
    """The tournament a `tournament:` number names, if the member may read it here (None: no number,
    the channel's latest is meant); a refusal in the same words for any other."""
    if number is None:
        return None
    sees = cog.core.sight.of(interaction)
    return await cog.service.numbered(number, interaction.guild_id or 0, sees)


def elsewhere(cog: Tournaments, interaction: discord.Interaction, found: Tournament) -> bool:
    """Whether `found` lives in another channel than the one asked in (or the parent of its thread):
    then the answer goes to the asker alone."""
    return found.channel_id != cog.room(interaction)


async def past(cog: Tournaments, interaction: discord.Interaction) -> None:
    """The server's tournaments the member can see, newest first, to them alone."""
    await interaction.response.defer(ephemeral=True, thinking=True)  # each channel's sight may be asked
    shown, more = await cog.service.past(interaction.guild_id or 0, cog.core.sight.of(interaction))
    await interaction.followup.send(
        past_text(shown, more, DISCORD, COMMAND),
        ephemeral=True,
        allowed_mentions=discord.AllowedMentions.none(),
    )


async def complete(
    cog: Tournaments, interaction: discord.Interaction, typed: str
) -> list[app_commands.Choice[int]]:
    """The `tournament:` choices: the server's tournaments the member can see, by number or name."""
    held = await cog.service.held(interaction.guild_id or 0, cog.core.sight.of(interaction))
    return [app_commands.Choice(name=choice_label(h), value=h.tournament.id) for h in choices(held, typed)]


__all__ = ["chosen", "complete", "elsewhere", "past"]

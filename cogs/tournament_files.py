"""`/tournament crosstable` and `export`: a tournament's crosstable as pictures, and its
results as CSV files, for the tournament cog (cogs/tournament.py calls these with itself).

The crosstable is posted where it is asked, like the standings (the results are public: each round's
are posted in the channel); the export goes to the asker alone, as files to keep. The pictures are
drawn in a thread (render/crosstable.py), the files written by play/tournament_export.py.
"""

from __future__ import annotations

import asyncio
import io
from typing import Protocol

import discord

from cogs._format import DISCORD
from cogs._release import unlink_when_done
from data.tournaments import Tournament
from engine import registry
from play.tournament import TournamentService
from play.tournament_crosstable import Crosstable
from play.tournament_crosstable_text import (
    channel_crosstable,
    crosstable_key,
    crosstable_said,
    crosstable_title,
    export_said,
)
from play.tournament_export import export_files
from render.crosstable import Row, crosstable_pngs, drawn_players


class Tournaments(Protocol):
    """What these commands use of the tournament cog (cogs/tournament.py's `Tournaments`)."""

    @property
    def service(self) -> TournamentService: ...
    def room(self, interaction: discord.Interaction) -> int: ...
    async def name_of(self, guild_id: int, user_id: int) -> str: ...


async def _names(cog: Tournaments, cross: Crosstable) -> dict[int, str]:
    """Each player's display name in the tournament's server (asked of Discord at once, not in turn)."""
    guild = cross.table.tournament.guild_id
    users = [p.line.user_id for p in cross.players]
    found = await asyncio.gather(*(cog.name_of(guild, user) for user in users))
    return dict(zip(users, found, strict=True))


def rows(cross: Crosstable, names: dict[int, str]) -> list[Row]:
    """The picture's rows: a player's number, name, cells a round, points and tie-breaks."""
    return [
        Row(
            p.number,
            names.get(p.line.user_id, str(p.line.user_id)),
            tuple((c.text, c.mark.value) for c in p.cells),
            p.line.points,
            *cross.table.shown(p.line),
            p.line.withdrawn,
        )
        for p in cross.players
    ]


def _file(data: bytes, name: str) -> discord.File:
    file = discord.File(io.BytesIO(data), filename=name)
    unlink_when_done(file)
    return file


async def crosstable(
    cog: Tournaments, interaction: discord.Interaction, found: Tournament | None = None
) -> None:
    """The crosstable as pictures (several for a large field), in the channel where it was asked;
    another channel's tournament (`found`, named by its number), to the asker alone."""
    cross = await channel_crosstable(cog.service, cog.room(interaction), "crosstable", found)
    private = cross.table.tournament.channel_id != cog.room(interaction)
    await interaction.response.defer(thinking=True, ephemeral=private)
    drawn = rows(cross, await _names(cog, cross))
    title, key = crosstable_title(cross), crosstable_key(cross)
    pngs = await asyncio.to_thread(crosstable_pngs, title, key, cross.rounds, drawn, cross.table.heads)
    shown = drawn_players(title, key, cross.rounds, drawn, cross.table.heads)
    files = [
        _file(png, f"crosstable-{n}.png" if len(pngs) > 1 else "crosstable.png")
        for n, png in enumerate(pngs, 1)
    ]
    await interaction.followup.send(
        crosstable_said(cross, DISCORD, shown),
        files=files,
        allowed_mentions=discord.AllowedMentions.none(),
        ephemeral=private,
    )


async def export(cog: Tournaments, interaction: discord.Interaction, found: Tournament | None = None) -> None:
    """Every game and the standings as two CSV files, to the asker alone (of the channel's latest
    tournament, or of `found`)."""
    cross = await channel_crosstable(cog.service, cog.room(interaction), "export", found)
    await interaction.response.defer(ephemeral=True, thinking=True)
    game = registry.game(cross.table.tournament.game)
    (games, games_data), (standings, standings_data) = export_files(cross, game, await _names(cog, cross))
    await interaction.followup.send(
        export_said(cross, DISCORD, games, standings),
        files=[_file(games_data, games), _file(standings_data, standings)],
        ephemeral=True,
    )


__all__ = ["crosstable", "export", "rows"]

"""`/tournament crosstable` and `export` in the console: the pictures and the CSV files are
written beside the boards, and their paths said, as the standings picture's is."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from console import names
from data.tournaments import Tournament
from engine import registry
from play.markup import Markup
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


class Screen(Protocol):
    """What these commands use of the console (console/app.py's `Console`)."""

    @property
    def markup(self) -> Markup: ...
    def say(self, text: str = "") -> None: ...
    def _write(self, name: str, data: bytes) -> Path: ...


def _names(cross: Crosstable) -> dict[int, str]:
    return {p.line.user_id: names.user_name(p.line.user_id) for p in cross.players}


async def crosstable(
    service: TournamentService, console: Screen, channel_id: int, found: Tournament | None = None
) -> None:
    """The crosstable's pictures, `tournament-<id>-crosstable-round-<n>[-<page>].png` (of the
    channel's latest tournament, or of `found`)."""
    cross = await channel_crosstable(service, channel_id, "crosstable", found)
    named = _names(cross)
    rows = [
        Row(
            p.number,
            named[p.line.user_id],
            tuple((c.text, c.mark.value) for c in p.cells),
            p.line.points,
            *cross.table.shown(p.line),
            p.line.withdrawn,
        )
        for p in cross.players
    ]
    title, key = crosstable_title(cross), crosstable_key(cross)
    pngs = crosstable_pngs(title, key, cross.rounds, rows, cross.table.heads)
    console.say(
        crosstable_said(
            cross, console.markup, drawn_players(title, key, cross.rounds, rows, cross.table.heads)
        )
    )
    stem = f"tournament-{cross.table.tournament.id}-crosstable-round-{cross.rounds}"
    for n, png in enumerate(pngs, 1):
        path = console._write(f"{stem}-{n}.png" if len(pngs) > 1 else f"{stem}.png", png)
        console.say(f"crosstable: {path}")


async def export(
    service: TournamentService, console: Screen, channel_id: int, found: Tournament | None = None
) -> None:
    """The two CSV files, written beside the boards; the answer names their paths."""
    cross = await channel_crosstable(service, channel_id, "export", found)
    game = registry.game(cross.table.tournament.game)
    written = [console._write(name, data) for name, data in export_files(cross, game, _names(cross))]
    console.say(export_said(cross, console.markup, str(written[0]), str(written[1])))


__all__ = ["crosstable", "export"]

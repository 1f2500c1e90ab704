"""The games the bot hosts: one entry each, and nothing else outside the game's own packages.

An entry names the engine package (which exports `GAME`) and the render package (which exports
`RENDERER`) as module paths; they are imported on first use, so the engine never imports the
renderer and a game that is not played costs nothing. The order here is the order of the command
groups and of the console's help.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache

from engine.protocol import Game


@dataclass(frozen=True, slots=True)
class Entry:
    name: str  # the game's `name`: the command group and what `matches.game` stores
    engine: str  # module exporting GAME
    render: str  # module exporting RENDERER


ENTRIES: tuple[Entry, ...] = (
    Entry("blockwars", "engine.blockwars", "render.blockwars"),
    Entry("fixbayonets", "engine.fixbayonets", "render.fixbayonets"),
    Entry("battlefronts", "engine.battlefronts", "render.battlefronts"),
    Entry("combinedarms", "engine.combinedarms", "render.combinedarms"),
    Entry("combinedarms_wwii", "engine.combinedarms.ww2", "render.combinedarms.ww2"),
    Entry("companycommander", "engine.companycommander", "render.companycommander"),
)  # fmt: skip


class UnknownGame(LookupError):
    """A match names a game this bot does not host (any more)."""

    def __init__(self, name: str) -> None:
        super().__init__(f"The game '{name}' is not hosted here. Games: {', '.join(names())}.")
        self.name = name


def names() -> tuple[str, ...]:
    return tuple(e.name for e in ENTRIES)


def entry(name: str) -> Entry:
    for e in ENTRIES:
        if e.name == name:
            return e
    raise UnknownGame(name)


@cache
def game(name: str) -> Game:
    """The game called `name` (raises `UnknownGame`)."""
    found: Game = importlib.import_module(entry(name).engine).GAME
    if found.name != name:
        raise RuntimeError(f"{entry(name).engine}.GAME is named {found.name!r}, not {name!r}")
    return found


def games() -> list[Game]:
    """Every hosted game, in registry order."""
    return [game(e.name) for e in ENTRIES]


def default() -> Game:
    """The first game: what the console plays when nobody names one."""
    return game(ENTRIES[0].name)


__all__ = ["ENTRIES", "Entry", "UnknownGame", "default", "entry", "game", "games", "names"]

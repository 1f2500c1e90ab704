"""`help` that fits a phone and one Discord message: in a game's channel, that game's commands
sorted by what a player wants to do; elsewhere, the games hosted and how to start one. Every
command and option of every game (about 60 lines) is the console's `/help all`, and Discord's own
list when a player types the group's name."""

from __future__ import annotations

from engine import registry
from engine.protocol import Game
from play.commands import Command, Platform, game_commands
from play.markup import Markup

LOOK = ("board", "hand", "legal", "history", "rules")  # a look at the game, changing nothing
STOP = ("resign", "draw")  # ending it early
HELP_LIMIT = 2000  # Discord's message limit: a help answer is one message


def _codes(commands: list[Command]) -> str:
    return ", ".join(f"`{c.name}`" for c in commands)


def game_help(game: Game, platform: Platform, markup: Markup, more: str) -> str:
    """One game's commands, briefly: how to play, to look, to stop, and the rest by name; `more`
    (the adapter's own words) says where the whole list is."""
    table = [c for c in game_commands(game) if c.on(platform) and c.listed and c.name != "help"]
    verbs = [c for c in table if c.verb is not None]
    look = [c for c in table if c.name in LOOK]
    stop = [c for c in table if c.name in STOP]
    rest = [c for c in table if c not in verbs and c not in look and c not in stop and c.name != "play"]
    lines = [
        f"{markup.strong(game.title)}: each command starts `/{game.name}`.",
        f"To play: {_codes(verbs)}; or `play` any action (`a; b` plays both).",
        f"To look: {_codes(look)} (`rules` has the rules in short, topic by topic).",
        "To end it early: "
        + ", ".join(f"`{c.name} {c.usage.split('|')[0]}`".replace(" `", "`") for c in stop)
        + ".",
        f"And: {_codes(rest)}.",
        more,
    ]
    return "\n".join(lines)


def overview(markup: Markup, more: str) -> str:
    """The games hosted, a line each, how to start one and where a game's commands are."""
    lines = ["The games I host:"]
    lines += [
        f"{markup.strong('/' + g.name)}: {g.description.removeprefix('Play ')}." for g in registry.games()
    ]
    first = registry.default().name
    lines += [
        f"Start one with its `challenge` command (`/{first} challenge`), naming your opponent, or me to "
        "play the AI at once; a channel (or a thread) holds one game at a time.",
        more,
    ]
    return "\n".join(lines)


__all__ = ["HELP_LIMIT", "game_help", "overview"]

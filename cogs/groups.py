"""Discord's command groups, generated from the platform's command table (`play.commands`).

Each game's `/<game>` group, the `/wargames` group (its subgroup `admin` included) and the
`/tournament` group get one slash command per entry of the table. A callback here only turns
Discord's typed arguments into a call on the handlers (`Handlers`, which the core cog provides; a
group served by another cog, `ROOMS`, calls that cog's method of the command's name): discord.py reads a
command's parameters from its callback's signature, so each callback gets a `__signature__` built
from the entry's options. Discord's limits on a tree are checked by tests/test_commands.py on the
groups built here.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, cast

import discord
from discord import app_commands

from cogs import limits
from engine.protocol import Game, Verb
from play.commands import (
    SUBGROUPS,
    TOURNAMENT_HELP,
    WARGAMES_HELP,
    Command,
    Option,
    all_wargames_commands,
    game_commands,
    tournament_commands,
)

Callback = Callable[..., Awaitable[None]]
Completer = Callable[[discord.Interaction, str], Awaitable[list[app_commands.Choice[str]]]]
# An integer option's choices (a tournament's number) are numbers
NumberCompleter = Callable[[discord.Interaction, Any], Awaitable[list[app_commands.Choice[int]]]]
MAX_SUBCOMMANDS = limits.SUBCOMMANDS
# The top-level groups another cog serves, by that cog's name: `/tournament join` calls
# `Tournaments.join`, found when the command runs (the cog is loaded after the core builds the group).
ROOMS = {"tournament": "Tournaments"}


class Handlers(Protocol):
    """What a generated command calls: the core cog's command bodies."""

    async def challenge(
        self,
        interaction: discord.Interaction,
        game: Game,
        *,
        opponent: discord.User,
        side: str = "random",
        options: dict[str, Any],
        hours_per_turn: int = 72,
        level: str | None = None,
    ) -> None: ...
    async def accept_challenge(self, interaction: discord.Interaction) -> None: ...
    async def decline_challenge(self, interaction: discord.Interaction) -> None: ...
    async def play(self, interaction: discord.Interaction, game: str, text: str) -> None: ...
    async def board(self, interaction: discord.Interaction, game: str, focus: str | None) -> None: ...
    async def show_hand(
        self, interaction: discord.Interaction, match_id: int | None, *, game_name: str | None = None
    ) -> None: ...
    async def history(self, interaction: discord.Interaction, game: str, count: int) -> None: ...
    async def replay(self, interaction: discord.Interaction, game: str) -> None: ...
    async def rules(self, interaction: discord.Interaction, game: str, topic: str) -> None: ...
    async def stats(
        self, interaction: discord.Interaction, game: str, member: discord.User | None
    ) -> None: ...
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None: ...
    async def review(self, interaction: discord.Interaction, game: str) -> None: ...
    async def cancel(self, interaction: discord.Interaction) -> None: ...
    async def autocomplete_actions(
        self,
        interaction: discord.Interaction,
        game: str,
        current: str,
        kinds: tuple[str, ...],
        verb: Verb | None,
    ) -> list[app_commands.Choice[str]]: ...
    async def autocomplete_focus(
        self, interaction: discord.Interaction, game: str, current: str
    ) -> list[app_commands.Choice[str]]: ...
    async def games(self, interaction: discord.Interaction) -> None: ...
    async def notify(self, interaction: discord.Interaction, enabled: bool) -> None: ...
    async def mygames(self, interaction: discord.Interaction) -> None: ...
    async def away(self, interaction: discord.Interaction, days: int) -> None: ...
    async def back(self, interaction: discord.Interaction) -> None: ...
    async def undo(self, interaction: discord.Interaction) -> None: ...
    async def verify(self, interaction: discord.Interaction, game: int | None = None) -> None: ...
    async def seal(self, interaction: discord.Interaction) -> None: ...
    async def export(self, interaction: discord.Interaction, game: int | None = None) -> None: ...
    async def sync(self, interaction: discord.Interaction) -> None: ...


def _annotation(option: Option) -> Any:
    base: Any
    if option.kind == "bool":
        base = bool
    elif option.kind == "user":
        base = discord.User
    elif option.kind == "role":
        base = discord.Role
    elif option.kind == "int":
        low = option.minimum if option.minimum is not None else -(2**31)
        high = option.maximum if option.maximum is not None else 2**31
        base = app_commands.Range[int, low, high]
    else:
        base = str
    return base | None if option.default is None else base


def _param(option: Option) -> inspect.Parameter:
    default = inspect.Parameter.empty if option.required else option.default
    return inspect.Parameter(
        option.name, inspect.Parameter.KEYWORD_ONLY, annotation=_annotation(option), default=default
    )


def _add(
    group: app_commands.Group,
    command: Command,
    callback: Callback,
    complete: dict[str, Completer] | dict[str, NumberCompleter] | None = None,
) -> None:
    """Add `command` to `group`, calling `callback` with its typed options as keywords."""
    first = inspect.Parameter(
        "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
    )
    callback.__signature__ = inspect.Signature([first, *map(_param, command.options)])  # type: ignore[attr-defined]
    callback.__name__ = callback.__qualname__ = f"{group.name}_{command.name}"
    # A game's own words (its options' descriptions, its rules topics) are cut to what Discord takes.
    describe = {o.name: o.description[: limits.TEXT] for o in command.options}
    choices = {
        o.name: [
            app_commands.Choice(name=label[: limits.TEXT], value=value)
            for label, value in o.choices[: limits.CHOICES]
        ]
        for o in command.options
        if o.choices
    }
    if describe:
        callback = app_commands.describe(**describe)(callback)
    if choices:
        callback = app_commands.choices(**choices)(callback)
    if complete:
        callback = app_commands.autocomplete(**complete)(callback)
    built: app_commands.Command[Any, ..., None] = app_commands.Command(
        name=command.name, description=command.help, callback=cast(Any, callback)
    )
    group.add_command(built)


def _game_callback(core: Handlers, game: Game, command: Command) -> Callback:
    """What `/<game> <command>` does: one call on the handlers."""
    name = game.name
    verb = command.verb
    if verb is not None:

        async def play_verb(interaction: discord.Interaction, **kw: Any) -> None:
            await core.play(interaction, name, verb.notation(kw.get(verb.arg) if verb.arg else None))

        return play_verb
    calls: dict[str, Callable[..., Awaitable[None]]] = {
        "accept": lambda i: core.accept_challenge(i),
        "decline": lambda i: core.decline_challenge(i),
        "play": lambda i, action: core.play(i, name, action),
        "resign": lambda i: core.play(i, name, "resign"),
        "draw": lambda i, choice: core.play(i, name, f"{choice} draw"),
        "board": lambda i, **kw: core.board(i, name, next(iter(kw.values()), None)),
        "hand": lambda i: core.show_hand(i, None, game_name=name),
        "history": lambda i, count=20: core.history(i, name, count),
        "replay": lambda i: core.replay(i, name),
        "rules": lambda i, topic: core.rules(i, name, topic),
        "stats": lambda i, member=None: core.stats(i, name, member),
        "leaderboard": lambda i: core.leaderboard(i, name),
        "review": lambda i: core.review(i, name),
        "cancel": lambda i: core.cancel(i),
    }
    if command.name == "challenge":
        specs = [spec.name for spec in game.options]

        async def challenge(interaction: discord.Interaction, **kw: Any) -> None:
            options = {spec: kw.pop(spec) for spec in specs}
            await core.challenge(interaction, game, options=options, **kw)

        return challenge
    call = calls[command.name]

    async def callback(interaction: discord.Interaction, **kw: Any) -> None:
        await call(interaction, **kw)

    return callback


def build_group(core: Handlers, game: Game) -> app_commands.Group:
    """The `/<game>` group: every command of the table that Discord offers, the game's verbs included."""
    group = app_commands.Group(name=game.name, description=game.description[: limits.TEXT], guild_only=True)
    name = game.name

    def completer(kinds: tuple[str, ...], verb: Verb | None) -> Completer:
        async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            return await core.autocomplete_actions(interaction, name, current, kinds, verb)

        return complete

    async def complete_focus(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await core.autocomplete_focus(interaction, name, current)

    commands = [c for c in game_commands(game) if c.on("discord")]
    if len(commands) > MAX_SUBCOMMANDS:
        raise ValueError(f"/{name} would have {len(commands)} commands; Discord allows {MAX_SUBCOMMANDS}")
    for command in commands:
        complete: dict[str, Completer] = {}
        for option in command.options:
            if option.complete == "actions":
                verb = command.verb
                complete[option.name] = completer(verb.plays if verb else (), verb)
            elif option.complete == "focus":
                complete[option.name] = complete_focus
        _add(group, command, _game_callback(core, game, command), complete)
    return group


def build_wargames(core: Handlers) -> app_commands.Group:
    """The `/wargames` group: what is one for every game (the list, a setting, time away, admin)."""
    group = app_commands.Group(name="wargames", description=WARGAMES_HELP, guild_only=True)
    subgroups = {
        sub: app_commands.Group(name=sub, description=text, parent=group) for sub, text in SUBGROUPS.items()
    }
    for command in all_wargames_commands("discord"):
        sub = command.subgroup
        _add(subgroups[sub] if sub else group, command, _forward(core, command.name))
    return group


def build_tournament() -> app_commands.Group:
    """The `/tournament` group, a top-level command of its own (docs/architecture.md says why): each
    command calls the tournament cog's method of its name, a tournament's number autocompleted by it."""
    room = ROOMS["tournament"]
    group = app_commands.Group(name="tournament", description=TOURNAMENT_HELP, guild_only=True)
    for command in tournament_commands("discord"):
        complete = {
            o.name: _room_completer(room, "complete_tournaments")
            for o in command.options
            if o.complete == "tournaments"
        }
        _add(group, command, _to_room(room, command.name), complete)
    return group


def _room_completer(cog_name: str, name: str) -> NumberCompleter:
    """An option's autocomplete served by another cog: its method `name` (a tournament's number is
    offered from the server's tournaments the member can see, by the tournament cog)."""

    async def complete(interaction: discord.Interaction, current: Any) -> list[app_commands.Choice[int]]:
        cog = interaction.client.get_cog(cog_name)  # type: ignore[attr-defined]
        if cog is None:
            return []
        found: list[app_commands.Choice[int]] = await getattr(cog, name)(interaction, str(current or ""))
        return found

    return complete


def _forward(core: Handlers, name: str) -> Callback:
    """A `/wargames` command's callback: the handler of the same name, with the typed options."""

    async def callback(interaction: discord.Interaction, **kw: Any) -> None:
        await getattr(core, name)(interaction, **kw)

    return callback


def _to_room(cog_name: str, name: str) -> Callback:
    """A group's command served by another cog: its method `name`, with the typed options."""

    async def callback(interaction: discord.Interaction, **kw: Any) -> None:
        cog = interaction.client.get_cog(cog_name)  # type: ignore[attr-defined]
        if cog is None:
            raise RuntimeError(f"the {cog_name} cog is not loaded")
        await getattr(cog, name)(interaction, **kw)

    return callback


__all__ = ["MAX_SUBCOMMANDS", "ROOMS", "Handlers", "build_group", "build_tournament", "build_wargames"]

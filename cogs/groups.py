"""Each game's slash-command group, built from the game's own specification.

Every game's group has the same platform commands (challenge, accept, decline,
play, board, hand where hands exist, history, replay, rules, resign, draw, stats, leaderboard,
review, cancel; `notify` is one command of `/wargames`, a setting for every game) plus one command
per `Verb` the game declares. The challenge takes one parameter
per `OptionSpec`. Everything a command does is the core cog's (`cogs.core.Core`): a callback here
only turns Discord's typed arguments into a call. discord.py reads a command's parameters from its
callback's signature, so callbacks get a `__signature__` built from the game's spec.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands

from engine.protocol import Game, OptionSpec, Verb
from play.ratings import level_choice

if TYPE_CHECKING:
    from cogs.core import Core

Callback = Callable[..., Awaitable[None]]
Completer = Callable[[discord.Interaction, str], Awaitable[list[app_commands.Choice[str]]]]
MAX_SUBCOMMANDS = 25  # Discord's limit per group


def _signature(params: list[inspect.Parameter]) -> inspect.Signature:
    first = inspect.Parameter(
        "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
    )
    return inspect.Signature([first, *params])


def _param(name: str, annotation: Any, default: Any = inspect.Parameter.empty) -> inspect.Parameter:
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default)


def _command(
    group: app_commands.Group,
    name: str,
    description: str,
    callback: Callback,
    params: list[inspect.Parameter] | None = None,
    *,
    describe: dict[str, str] | None = None,
    choices: dict[str, list[app_commands.Choice[str]]] | None = None,
    complete: dict[str, Completer] | None = None,
) -> None:
    """Add `/group name` whose parameters are `params` (typed), described and completed as given."""
    callback.__signature__ = _signature(params or [])  # type: ignore[attr-defined]
    callback.__name__ = callback.__qualname__ = f"{group.name}_{name}"
    if describe:
        callback = app_commands.describe(**describe)(callback)
    if choices:
        callback = app_commands.choices(**choices)(callback)
    if complete:
        callback = app_commands.autocomplete(**complete)(callback)  # type: ignore[arg-type]
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name=name, description=description[:100], callback=cast(Any, callback)
    )
    group.add_command(command)


def _option_param(spec: OptionSpec) -> tuple[inspect.Parameter, list[app_commands.Choice[str]] | None]:
    if isinstance(spec.default, bool):
        return _param(spec.name, bool, spec.default), None
    if isinstance(spec.default, int):
        low = spec.minimum if spec.minimum is not None else -(2**31)
        high = spec.maximum if spec.maximum is not None else 2**31
        return _param(spec.name, app_commands.Range[int, low, high], spec.default), None
    options = [app_commands.Choice(name=c, value=c) for c in spec.choices] or None
    return _param(spec.name, str, spec.default), options


def build_group(core: Core, game: Game) -> app_commands.Group:
    """The `/<game.name>` group: the platform's commands plus the game's verbs."""
    group = app_commands.Group(name=game.name, description=game.description[:100], guild_only=True)
    name = game.name

    # -- challenges
    option_params = [_option_param(spec) for spec in game.options]
    side_names = ["random", *(s.name for s in game.sides)]

    async def challenge(interaction: discord.Interaction, **kw: Any) -> None:
        options = {spec.name: kw.pop(spec.name) for spec in game.options}
        await core.challenge(interaction, game, options=options, **kw)

    describe = {
        "opponent": "Who you want to play (pick me, the bot, to play the AI)",
        "side": "The side you want to play (random if not given)",
        "hours_per_turn": "Hours each player has for a turn before losing on time (default 72)",
        "level": "Only when challenging me: how strong the AI plays",
        **{spec.name: spec.description for spec in game.options},
    }
    choices = {
        "side": [app_commands.Choice(name=n, value=n) for n in side_names],
        "level": [app_commands.Choice(name=level_choice(game, n), value=n) for n in game.ai.names],
        **{spec.name: opts for spec, (_, opts) in zip(game.options, option_params, strict=True) if opts},
    }
    _command(
        group,
        "challenge",
        f"Challenge someone (or me, for an AI game) to {game.title}",
        challenge,
        [
            _param("opponent", discord.User),
            _param("side", str, "random"),
            *(p for p, _ in option_params),
            _param("hours_per_turn", app_commands.Range[int, 1, 336], 72),
            _param("level", str | None, None),
        ],
        describe=describe,
        choices=choices,
    )

    async def accept(interaction: discord.Interaction) -> None:
        await core.accept_challenge(interaction)

    async def decline(interaction: discord.Interaction) -> None:
        await core.decline_challenge(interaction)

    _command(group, "accept", "Accept the challenge in this channel", accept)
    _command(group, "decline", "Decline the challenge in this channel (or withdraw yours)", decline)

    # -- playing
    def completer(kinds: tuple[str, ...], verb: Verb | None) -> Completer:
        async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            return await core.autocomplete_actions(interaction, name, current, kinds, verb)

        return complete

    async def play(interaction: discord.Interaction, action: str) -> None:
        await core.play(interaction, name, action)

    _command(
        group,
        "play",
        "Play any action (several may be separated by ;); the list shows what is legal now",
        play,
        [_param("action", str)],
        describe={"action": f"The action, e.g. {game.notation_help}"[:100]},
        complete={"action": completer((), None)},
    )
    for verb in game.verbs:
        _add_verb(core, group, game, verb, completer(verb.plays, verb))

    async def resign(interaction: discord.Interaction) -> None:
        await core.play(interaction, name, "resign")

    async def draw(interaction: discord.Interaction, choice: str) -> None:
        await core.play(interaction, name, f"{choice} draw")

    _command(group, "resign", "Resign the game in this channel", resign)
    _command(
        group,
        "draw",
        "Offer a draw, or accept or decline your opponent's offer",
        draw,
        [_param("choice", str)],
        describe={"choice": "offer, accept or decline"},
        choices={"choice": [app_commands.Choice(name=n, value=n) for n in ("offer", "accept", "decline")]},
    )

    # -- looking
    if game.focus is not None:
        focus = game.focus

        async def board(interaction: discord.Interaction, **kw: Any) -> None:
            await core.board(interaction, name, kw.get(focus.name))

        async def complete_focus(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return await core.autocomplete_focus(interaction, name, current)

        _command(
            group,
            "board",
            "Show the current board" + (f", optionally with one {focus.name}" if focus else ""),
            board,
            [_param(focus.name, str | None, None)],
            describe={focus.name: focus.description},
            complete={focus.name: complete_focus},
        )
    else:

        async def plain_board(interaction: discord.Interaction) -> None:
            await core.board(interaction, name, None)

        _command(group, "board", "Show the current board", plain_board)
    if game.private_info:

        async def hand(interaction: discord.Interaction) -> None:
            await core.show_hand(interaction, None, game_name=name)

        _command(group, "hand", "Your hand, shown only to you", hand)

    async def history(interaction: discord.Interaction, count: int = 20) -> None:
        await core.history(interaction, name, count)

    _command(
        group,
        "history",
        "The last actions of this channel's game, turn by turn",
        history,
        [_param("count", app_commands.Range[int, 1, 60], 20)],
        describe={"count": "How many of the latest actions to list (default 20)"},
    )

    async def replay(interaction: discord.Interaction) -> None:
        await core.replay(interaction, name)

    _command(group, "replay", "The whole game in this channel as an animation", replay)
    topics = list(game.rules)

    async def rules(interaction: discord.Interaction, topic: str = topics[0]) -> None:
        await core.rules(interaction, name, topic)

    _command(
        group,
        "rules",
        "The rules in short, by topic",
        rules,
        [_param("topic", str, topics[0])],
        describe={"topic": "Which part of the rules"},
        choices={"topic": [app_commands.Choice(name=t, value=t) for t in topics[:25]]},
    )

    # -- standings and settings (the core cog's, per game)
    async def stats(interaction: discord.Interaction, member: discord.User | None = None) -> None:
        await core.stats(interaction, name, member)

    _command(
        group,
        "stats",
        f"A player's {game.title} record on this server",
        stats,
        [_param("member", discord.User | None, None)],
        describe={"member": "Whose record (yours if not given)"},
    )

    async def leaderboard(interaction: discord.Interaction) -> None:
        await core.leaderboard(interaction, name)

    _command(group, "leaderboard", f"The best-rated {game.title} players on this server", leaderboard)

    async def review(interaction: discord.Interaction) -> None:
        await core.review(interaction, name)

    _command(
        group,
        "review",
        "After a game: your three costliest choices by the AI's judgement, shown only to you",
        review,
    )

    async def cancel(interaction: discord.Interaction) -> None:
        await core.cancel(interaction)

    _command(group, "cancel", "Cancel this channel's game without a result (Manage Channels)", cancel)
    if len(group.commands) > MAX_SUBCOMMANDS:
        raise ValueError(
            f"/{name} would have {len(group.commands)} commands; Discord allows {MAX_SUBCOMMANDS}"
        )
    return group


def _add_verb(core: Core, group: app_commands.Group, game: Game, verb: Verb, complete: Completer) -> None:
    name = game.name
    if verb.arg is None:

        async def fixed(interaction: discord.Interaction) -> None:
            await core.play(interaction, name, verb.notation(None))

        _command(group, verb.name, verb.description, fixed)
        return
    arg = verb.arg
    default = inspect.Parameter.empty if verb.default is None else verb.default

    async def with_arg(interaction: discord.Interaction, **kw: Any) -> None:
        await core.play(interaction, name, verb.notation(kw.get(arg)))

    _command(
        group,
        verb.name,
        verb.description,
        with_arg,
        [_param(arg, str, default)],
        describe={arg: verb.arg_description},
        complete={arg: complete},
    )


__all__ = ["MAX_SUBCOMMANDS", "build_group"]

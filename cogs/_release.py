"""Letting reference counting free each interaction's objects, instead of the cyclic collector.

Why: discord.py builds reference cycles on every interaction. An `Interaction` and its
`InteractionResponse` point at each other, a `View` and its items point at each other, and a sent
`discord.File` leaves its buffer holding a bound method of itself. Each cycle keeps alive
everything hanging off it (the member, the clicked message with its components, the PNG bytes)
until a full garbage collection finds it. With 200 busy games that was 15-20 thousand objects per
full pass, and the pass stopped the event loop for 30-60 ms (docs/reliability.md). Once the cycles
are cut, the objects die the moment the handling ends, and full passes only walk what is really
alive.

The cut happens when the task that handles the interaction has ended, so nothing in discord.py or
in the cog can still be using the response.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

import discord
from discord import app_commands

Part = discord.ui.View | discord.File


def unlink(*parts: Part) -> None:
    """Cut the cycles of views and files that have been sent (or never will be)."""
    for part in parts:
        if isinstance(part, discord.ui.View):
            part.clear_items()  # the items forget the view, the view forgets the items
        else:
            with contextlib.suppress(AttributeError):
                del part.fp.close  # discord.File swapped `close` on the buffer itself; undo the swap


def _forget_response(interaction: discord.Interaction) -> None:
    # `response` is a cached slot of discord.py's Interaction and the response points back at the
    # interaction: dropping the slot breaks the cycle. discord.py is pinned, and a test in
    # tests/test_bot.py checks that a handled interaction is freed without the collector.
    with contextlib.suppress(AttributeError):
        delattr(interaction, "_cs_response")


def _when_task_ends(cut: Callable[[], None]) -> None:
    """Run `cut` once the current task has ended; outside a task there is nothing to wait for."""
    task = asyncio.current_task()
    if task is not None:
        task.add_done_callback(lambda _task: cut())


def release_when_done(interaction: discord.Interaction, *parts: Part) -> None:
    """When the task handling `interaction` ends, cut its cycles and those of `parts`."""

    def cut() -> None:
        _forget_response(interaction)
        unlink(*parts)

    _when_task_ends(cut)


def unlink_when_done(*parts: Part) -> None:
    """When the current task ends, cut the cycles of views and files it made to send."""
    _when_task_ends(lambda: unlink(*parts))


RESTARTING = "I am restarting; nothing was played. Try again in a minute."


async def refused_while_stopping(interaction: discord.Interaction) -> bool:
    """While the bot stops (SIGTERM), new interactions are answered, briefly, and not run."""
    if not getattr(interaction.client, "stopping", False):
        return False
    if interaction.type is discord.InteractionType.autocomplete:
        return True
    with contextlib.suppress(discord.HTTPException):
        await interaction.response.send_message(RESTARTING, ephemeral=True)
    return True


class ReleasingTree(app_commands.CommandTree):
    """The command tree: every slash command and autocomplete request has its cycles cut at the end,
    and none runs while the bot is stopping."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        release_when_done(interaction)
        return not await refused_while_stopping(interaction)

"""Discord's limits, in one place: what the adapter cuts, chunks and checks against.

play/ and the command table know none of these; tests/test_commands.py counts the ones on commands
on the built tree.
"""

from __future__ import annotations

import discord

MESSAGE = 2000  # characters in one message
TEXT = 100  # characters: a command or option description, a choice, a select label, a custom id
CHOICES = 25  # choices of an option, autocomplete answers, options of a select
SUBCOMMANDS = 25  # commands in one group
BUTTONS_PER_ROW = 5  # buttons in one row of a message
PLACEHOLDER = 150  # characters of a select's placeholder
ROWS = 5  # rows of components in one message (selects take a row each)
STYLES = {  # the button styles a game may name (`engine.protocol.Choice.style`)
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}

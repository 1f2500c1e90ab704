"""Discord's limits, in one place: what the adapter cuts, chunks and checks against.

play/ and the command table know none of these; tests/test_commands.py counts the ones on commands
on the built tree.
"""

from __future__ import annotations

import hashlib

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
NONCE = 25  # characters of a message's nonce


def nonce(*parts: object) -> str:
    """A message's nonce made of what it is for (`nonce("t", 7, "r", 2)` is "t7r2"), the same after a
    restart: a post sent again with it after a crash (its id not yet stored) is, within Discord's
    few minutes, the first one returned, not a second post (discord.py sends `enforce_nonce`;
    docs/reliability.md, "Posted once")."""
    made = "".join(str(p) for p in parts)
    if len(made) > NONCE:  # ids that long: a digest of them, as fixed (Discord refuses a longer one)
        return "h" + hashlib.blake2b(made.encode(), digest_size=12).hexdigest()
    return made


def board_nonce(match_id: int, version: int) -> str:
    """The nonce of the channel's board for a match's stored version: the deadline sweep's notice (a
    loss on time, an organiser's no-show), an AI's board, and `deliver_owed`'s post of it after a
    crash share it, so within Discord's window the board owed is the one already posted."""
    return nonce("m", match_id, "v", version)


def forfeit_nonce(tournament_id: int, round_no: int, user_id: int) -> str:
    """The nonce of a round-robin's forfeit-win DM to `user_id`: their own. Discord documents a
    nonce as unique per author, not per channel: a round with two forfeit wins sent both DMs with
    one nonce ("t7r3w"), and Discord may answer the second with the first, never sending it."""
    return nonce("t", tournament_id, "r", round_no, "w", user_id)


def start_nonce(match_id: int) -> str:
    """The nonce of a game's first message in its channel (a challenge's first board, a tournament's
    game in its thread): one per game, whatever version it shows, so posted again after a crash it
    is the first one returned, never a move's board of the same version."""
    return nonce("m", match_id, "s")

"""The messages room: channels found, direct messages, the notices a channel and a player get."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import discord

from cogs import limits
from cogs._format import DISCORD
from cogs._tap import tapped
from cogs.errors import Errors
from cogs.room import (
    DMS_CLOSED,
    MESSAGE_LIMIT,
    log,
)
from data import Match, Seal, StoreUnavailable
from engine.protocol import State
from play import Played
from play.fairness import seal_text
from play.present import (
    private_text,
    turn_dm_text,
)
from play.service import game_of


class Messages(Errors):
    """Channels and direct messages: finding a channel, a DM, what each player is told privately."""

    if TYPE_CHECKING:

        def board_components(self, match: Match, state: State) -> discord.ui.View | None: ...

    async def tell_players(self, played: Played, stretch: Played, *, actor_told: bool = True) -> None:
        """Privately, to each player but the mover (who had their answer, unless `actor_told` is
        False): what the game dealt them in `played` (a drawn card: by DM, since they have no
        interaction of theirs to answer in private), and, to those who asked for turn DMs and are
        now owed an action, the turn ping with what the opponent did since they last acted."""
        match = played.match
        rules = game_of(match)
        for side, user in sorted(match.sides.items()):
            if user == match.ai_player_id or (actor_told and user == played.actor_id):
                continue
            # at a hand-off, what they were dealt in the whole turn (its steps were private till now)
            secret = stretch.private.get(side) if played.hands_off else played.private.get(side)
            ping = not played.over and user in played.waiting and user != played.actor_id
            if ping and await self.service.wants_turn_dms(user):
                if await self.service.ended(match) is not None:
                    continue  # the game ended since (a resignation): no "your move" for it
                # the owed line names the buttons under the channel's board, which the ping links to
                board = self.board_components(match, stretch.state)
                ping_text = turn_dm_text(
                    match,
                    stretch,
                    user,
                    DISCORD,
                    secret,
                    MESSAGE_LIMIT,
                    owed_words=partial(tapped, match, view=board),
                )
                await self.dm(user, ping_text)
            elif (
                secret
                and not await self.dm(user, private_text(match, secret, DISCORD))
                and rules.private_info
            ):
                channel = await self.channel(match.channel_id)
                if channel is not None:
                    await channel.send(DMS_CLOSED.format(user=user))

    async def seal_for(self, match: Match) -> tuple[str, Seal | None]:
        """For the message that says `match` ended (its channel is free): the line, with the newline
        before it, sealing the channel's next game (docs/fairness.md, "Sealed in advance"); nothing
        while the game goes on, nor after a tournament's game (`seals_after`). A store that cannot be
        reached costs the line, never the message."""
        try:
            if not await self.service.seals_after(match):
                return "", None
            seal = await self.service.next_seal(match.channel_id)
        except StoreUnavailable as exc:
            log.warning("Could not seal channel %s's next game: %s", match.channel_id, exc)
            return "", None
        return "\n" + seal_text(seal), seal

    async def sealed(self, seal: Seal | None, sent: object) -> None:
        """The message `sent` (a message, or an interaction's answer) showed `seal`: the channel's
        next challenge may take it, and its id lets a player check when it was shown."""
        if seal is None:
            return
        if isinstance(sent, discord.InteractionCallbackResponse):
            message_id = sent.message_id
        else:
            message_id = sent.id if isinstance(sent, discord.Message | discord.WebhookMessage) else None
        try:
            await self.service.seal_shown(seal, message_id)
        except StoreUnavailable as exc:  # not shown as far as the store knows: the next game draws afresh
            log.warning("Could not record channel %s's seal as shown: %s", seal.channel_id, exc)

    async def channel(self, channel_id: int) -> discord.abc.Messageable | None:
        found = self.bot.get_channel(channel_id)
        if found is None:
            try:
                found = await self.bot.fetch_channel(channel_id)
            except (discord.NotFound, discord.Forbidden):
                log.warning("Channel %s is gone or hidden; skipping its notice", channel_id)
                return None
        return found if isinstance(found, discord.abc.Messageable) else None

    async def dm(self, user_id: int, text: str, *, nonce: str | None = None) -> bool:
        """A direct message; False if it could not be sent (the user closed their DMs). A `nonce`
        (`limits.nonce`) makes one sent again after a crash the first one, within Discord's window."""
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            if nonce is None:
                await user.send(text[: limits.MESSAGE])
            else:
                await user.send(text[: limits.MESSAGE], nonce=nonce)
        except discord.HTTPException:
            log.info("Could not DM user %s (DMs closed?)", user_id)
            return False
        return True

    async def tell_channel(self, channel_id: int, text: str) -> None:
        """A notice for a game's channel; a channel deleted or hidden meanwhile is skipped."""
        channel = await self.channel(channel_id)
        if channel is None:
            return
        try:
            await channel.send(text, allowed_mentions=discord.AllowedMentions(users=True))
        except (discord.NotFound, discord.Forbidden) as exc:
            log.warning("Could not post a notice in channel %s: %s", channel_id, exc)

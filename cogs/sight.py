"""Which channels a member can view: the adapter's half of "What is private" (play/privacy.py).

Discord alone knows who sees what. A text channel is seen by a member with View Channel there (its
overwrites applied); a thread by those who see its parent, and a private thread only by its members
and those who may manage threads of its parent. A channel or thread the bot cannot find (deleted,
or closed to the bot too) is seen by nobody: the listings leave its games out for everyone but
their players, rather than guess.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Collection

import discord

log = logging.getLogger("bot.sight")

THREADS_KEPT = 4096  # threads fetched (archived ones are not in the cache): a thread's kind never changes
LOOKS_AT_ONCE = 8  # questions to Discord at once for one listing (archived threads, private ones' members)
GONE = object()  # a channel Discord said does not exist: it never comes back

Place = discord.abc.GuildChannel | discord.Thread


class Sight:
    """Answers "which of these channels can this member view now?" for the service's listings."""

    def __init__(self) -> None:
        self._fetched: OrderedDict[int, Place | object] = OrderedDict()

    def of(self, interaction: discord.Interaction) -> Viewer:
        """What the member behind `interaction` sees, for `MatchService.stats` and the like."""
        member = interaction.user if isinstance(interaction.user, discord.Member) else None
        return Viewer(self, interaction.guild, member)

    async def sees(self, guild: discord.Guild, member: discord.Member, channel_id: int) -> bool:
        """Whether `member` can view channel or thread `channel_id` of `guild` now."""
        place = guild.get_channel_or_thread(channel_id) or await self._fetch(guild, channel_id)
        if place is None:
            return False
        if not isinstance(place, discord.Thread):
            return place.permissions_for(member).view_channel
        parent = place.parent
        if parent is None:
            return False
        allowed = parent.permissions_for(member)
        if not allowed.view_channel:
            return False
        if place.type is not discord.ChannelType.private_thread or allowed.manage_threads:
            return True
        try:
            await place.fetch_member(member.id)
        except discord.NotFound:
            return False
        except discord.HTTPException as exc:  # unsure: not seen
            log.info("Thread %s: could not tell whether %s is in it (%s)", place.id, member.id, exc)
            return False
        return True

    async def _fetch(self, guild: discord.Guild, channel_id: int) -> Place | None:
        """A channel not in the cache (an archived thread, mostly), asked of Discord once: a thread's
        parent and kind never change, so it is kept; a channel's overwrites do, so it is not."""
        kept = self._fetched.get(channel_id)
        if kept is GONE:
            return None
        if isinstance(kept, discord.Thread):
            self._fetched.move_to_end(channel_id)
            return kept
        try:
            found = await guild.fetch_channel(channel_id)
        except discord.NotFound:
            self._keep(channel_id, GONE)
            return None
        except discord.HTTPException as exc:  # closed to the bot, or Discord unwell: not seen
            log.info("Channel %s: could not be looked at (%s)", channel_id, exc)
            return None
        if found.guild.id != guild.id:
            return None
        if isinstance(found, discord.Thread):
            self._keep(channel_id, found)
        return found

    def _keep(self, channel_id: int, value: Place | object) -> None:
        self._fetched[channel_id] = value
        while len(self._fetched) > THREADS_KEPT:
            self._fetched.popitem(last=False)


class Viewer:
    """One member's sight in one guild (`play.privacy.Sees`): called with channel ids, it answers
    those they see now."""

    def __init__(self, sight: Sight, guild: discord.Guild | None, member: discord.Member | None) -> None:
        self.sight, self.guild, self.member = sight, guild, member

    async def __call__(self, channels: Collection[int]) -> Collection[int]:
        if self.guild is None or self.member is None:  # no server to look in: nothing is seen
            return frozenset()
        guild, member = self.guild, self.member
        ask = asyncio.Semaphore(LOOKS_AT_ONCE)

        async def sees(channel_id: int) -> bool:
            async with ask:
                return await self.sight.sees(guild, member, channel_id)

        ordered = sorted(channels)
        answers = await asyncio.gather(*(sees(c) for c in ordered))
        return {c for c, seen in zip(ordered, answers, strict=True) if seen}


__all__ = ["Sight", "Viewer"]

"""The deadline sweep loop: reminders, forfeits and expired challenges told to their channels."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from cogs import _format as fmt
from cogs._tap import tapped
from cogs.limits import board_nonce
from data import StoreUnavailable
from play import Notice
from play.notices import notice_status, notice_text, notice_words
from play.present import fitted, turn_ping

if TYPE_CHECKING:
    pass

from cogs.background import Background
from cogs.room import (
    MESSAGE_LIMIT,
    OWED_AFTER,
    log,
)


class SweepLoop(Background):
    """The deadline sweep every few seconds: what fell due, announced in its channel."""

    async def _before_sweep(self) -> None:
        await self.bot.wait_until_ready()
        # a game's first board cut off by a crash comes before anything played in it since
        await self.deliver_owed(older_than=0.0, starts_only=True)
        await self.resume_ai_games()  # then: an AI turn cut short posts its whole stretch itself
        await self.deliver_owed(older_than=0.0)  # nothing is in flight yet: all that is owed is lost

    async def _sweep_tick(self) -> None:
        try:
            await self.run_sweep()
            await self.deliver_owed(older_than=OWED_AFTER)
        except StoreUnavailable as exc:
            log.warning("The deadline sweep could not reach the database (%s); it will run again", exc)
        except Exception:
            log.exception("The deadline sweep failed; it will run again")

    # ------------------------------------------------------------------ sweep

    async def run_sweep(self, now: float | None = None) -> list[Notice]:
        """Apply what is due (reminders, forfeits, expired challenges) and tell the channels."""
        notices = await self.service.sweep(now)
        await self.tell(notices)
        return notices

    async def tell(self, notices: list[Notice]) -> None:
        """Post each notice in its channel (the deadline sweep's, or a tournament's closing round's);
        a channel gone or hidden costs only its own notice."""
        for notice in notices:
            try:
                await self.announce(notice)
            except (discord.NotFound, discord.Forbidden) as exc:  # the channel was deleted or hidden
                log.warning("Could not post a %s notice for match %s: %s", notice.kind, notice.match.id, exc)
            except Exception:
                log.exception("Could not post a %s notice for match %s", notice.kind, notice.match.id)

    async def announce(self, notice: Notice) -> None:
        channel_id = notice.match.channel_id
        channel = await self.channel(channel_id)
        if notice.played is not None:
            played = notice.played
            if channel is not None:
                file = await self.render(played.match, played.state, played.events)
                # an offer standing: its answer is owed now too
                note, view = await self.answerable(played, played.match, played.state)
                words = notice_words(notice, fmt.DISCORD)
                # the status names the buttons under this board, as a move's board does (cogs/_tap.py)
                status = tapped(
                    played.match, notice_status(notice, fmt.DISCORD, why_told=words.tells_why), view
                )
                if note:
                    status += "\n" + note  # with the status: never cut
                seal_line, seal = await self.seal_for(played.match)  # a loss on time seals the next game
                # the turn passed: the first line, all a notification shows, names whose and which game
                ping = turn_ping(played.match, played.state, fmt.DISCORD)
                ping = f"{ping}\n" if ping else ""
                # only the game's players are pinged: an organiser's no-show names them, unpinged
                players = discord.AllowedMentions(users=[discord.Object(u) for u in played.match.players])
                sent = await channel.send(
                    ping + fitted(words.text, status + seal_line, MESSAGE_LIMIT - len(ping)),
                    file=file,
                    view=view or discord.utils.MISSING,
                    allowed_mentions=players,
                    nonce=board_nonce(played.match.id, played.match.version),  # as `deliver_owed`'s
                )
                await self.sealed(seal, sent)
            await self.service.board_delivered(played.match.id, played.match.version)
            self.after_action(played, actor_told=False)  # nobody answered: the late player hears it too
            return
        if notice.kind == "reminder" and await self.service.ended(notice.match) is not None:
            return  # the game ended after the sweep found the reminder due (a resignation)
        if channel is not None:
            seal_line, seal = await self.seal_for(notice.match)  # an expired challenge frees the channel
            await self.sealed(seal, await channel.send(notice_text(notice, fmt.DISCORD) + seal_line))
        user = notice.user_id
        if notice.kind == "reminder" and user is not None and await self.service.wants_turn_dms(user):
            said = notice_text(notice, fmt.DISCORD)
            await self.dm(user, f"Reminder: {said} (in {fmt.DISCORD.channel(channel_id)})")

"""Clocks and time away: who owes what by when, and a player away stopping their games' clocks."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from data import (
    Match,
    Status,
)
from engine.protocol import State
from play.errors import (
    BadRequest,
)
from play.live import LiveMatches
from play.results import (
    AWAY_DAYS_A_YEAR,
    AWAY_GRACE,
    AWAY_WINDOW,
    DAY,
    TimeAway,
    _clock_start,
    quick_seconds,
    reminder_lead,
    waiting_ids,
)
from play.words import days_text


class Clocks(LiveMatches):
    """Deadlines and time away: a turn's clock, and a player's days away stopping it."""

    async def _new_clock(self, match: Match, state: State, now: float) -> dict[str, Any]:
        """A new clock: a whole turn, or a short one for a quick decision. A whole turn owed by a
        player who is away starts when they are back (`_clock_start`)."""
        quick = state.quick_decision()
        span = quick_seconds(match.turn_seconds) if quick else match.turn_seconds
        start = now
        if not quick:
            aways = await self._away_ends(match.guild_id, waiting_ids(match, state), now)
            start = _clock_start(match, state, now, aways)
        return {"deadline": start + span, "reminder_at": start + span - reminder_lead(span)}

    async def _away_ends(self, guild_id: int, users: Iterable[int], now: float) -> dict[int, float]:
        """When each of `users` who is away from this server now comes back."""
        ends: dict[int, float] = {}
        for user in set(users):
            for away in await self.db.time_away(guild_id, user, now):
                if away.start_at <= now:
                    ends[user] = max(ends.get(user, now), away.end_at)
        return ends

    async def away_taken(self, guild_id: int, user_id: int) -> int:
        """The days of time away a player took in this server in the last 365 days, to now: each
        time away counts its days begun (a day and a bit is two), but an hour's grace is free, so a
        mistake undone at once costs nothing and no stall is cheaper for being cut in pieces."""
        now = self.clock()
        since = now - AWAY_WINDOW
        return sum(
            math.ceil(max(0.0, min(a.end_at, now) - max(a.start_at, since) - AWAY_GRACE) / DAY)
            for a in await self.db.time_away(guild_id, user_id, since)
        )

    async def away_until(self, guild_id: int, user_id: int) -> float | None:
        """When a player away from this server comes back; None if they are not away."""
        now = self.clock()
        return (await self._away_ends(guild_id, (user_id,), now)).get(user_id)

    async def away(self, guild_id: int, user_id: int, days: int) -> TimeAway:
        """Stop the clocks of a player's games in this server for `days` days (RULES.md): a turn
        they owe is due that much later, one that comes to them meanwhile starts when they are
        back; reminders and losses on time wait with it. Asked while away, it sets a new return."""
        if not 1 <= days <= AWAY_DAYS_A_YEAR:
            raise BadRequest(f"Time away is 1 to {AWAY_DAYS_A_YEAR} days.")
        taken = await self.away_taken(guild_id, user_id)
        left = max(0, AWAY_DAYS_A_YEAR - taken)
        if days > left:
            can = f"you can be away for {days_text(left)} at most now" if left else "you have none left now"
            raise BadRequest(
                f"Time away is at most {AWAY_DAYS_A_YEAR} days in any 365. You took {days_text(taken)} of "
                f"them, so {can}; a day taken comes back 365 days later."
            )
        now = self.clock()
        until = now + days * DAY
        games, owing = await self._reclock(guild_id, user_id, now, until)
        return TimeAway(until, left - days, games, owing)

    async def back(self, guild_id: int, user_id: int) -> TimeAway:
        """End a player's time away early: the clocks it stopped run again from now."""
        now = self.clock()
        if await self.away_until(guild_id, user_id) is None:
            raise BadRequest("You are not away. `/wargames away` stops your clocks while you are.")
        games, owing = await self._reclock(guild_id, user_id, now, None)
        left = max(0, AWAY_DAYS_A_YEAR - await self.away_taken(guild_id, user_id))
        return TimeAway(None, left, games, owing)

    async def _reclock(
        self, guild_id: int, user_id: int, now: float, until: float | None
    ) -> tuple[list[Match], frozenset[int]]:
        """Record a player's new time away (`until`) or its end (None), and move the clock of each
        of their active games in this server by as much as its start moves. A deadline already
        passed is left to the sweep: it fell due before the time away began. Returns those games
        and the ids of those waiting on the player (both players of a set-up made at once)."""
        found = await self.db.list_matches(guild_id=guild_id, player_id=user_id, statuses=[Status.ACTIVE])
        async with contextlib.AsyncExitStack() as held:
            for match in sorted(found, key=lambda m: m.id):  # in one order: two callers cannot deadlock
                await held.enter_async_context(self._lock(match.id))
            before = await self._away_ends(guild_id, {p for m in found for p in m.players}, now)
            await self.db.set_time_away(guild_id, user_id, now=now, until=until)
            after = {u: end for u, end in before.items() if u != user_id}
            if until is not None:
                after[user_id] = until
            games, owing = [], set()
            for stored in found:
                match = await self._reread(stored)
                live = self._live.get(match.channel_id)
                if match.status is not Status.ACTIVE or live is None or live[1] is None:
                    continue
                state = live[1]
                games.append(match)
                if user_id in waiting_ids(match, state):
                    owing.add(match.id)
                if match.deadline is None or match.deadline <= now or match.reminder_at is None:
                    continue
                shift = _clock_start(match, state, now, after) - _clock_start(match, state, now, before)
                if not shift:
                    continue
                deadline, reminder_at = match.deadline + shift, match.reminder_at + shift
                moved = replace(match, deadline=deadline, reminder_at=reminder_at, reminded=False)
                if await self.db.shift_clock(match.id, match.version, deadline, reminder_at):
                    self._remember(moved, state)
                    games[-1] = moved
                else:
                    self.forget(match.channel_id)  # written elsewhere: read it afresh next time
        return games, frozenset(owing)

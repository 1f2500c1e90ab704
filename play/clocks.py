"""Clocks and time away: who owes what by when, and a player away stopping their turns' clocks."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import replace
from typing import Any

from data import (
    AwayChanged,
    AwaySeen,
    GameClock,
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
    PrivateTurn,
    TimeAway,
    _clock_start,
    clock_left,
    game_clock_left,
    game_of,
    quick_seconds,
    reminder_lead,
    waiting_ids,
)
from play.words import days_text

# A move whose new clock met another process's write of a waiting player's time away tries again
# this many times, waiting this long times the try between (0.3 s in all: that `away` moves the
# player's clocks in a few statements a game).
AWAY_TRIES = 6
AWAY_WAIT = 0.02
# A time away whose player's games changed between listing them and holding their lock lists them
# again this many times at most (each time, another process started one of their games meanwhile).
RELIST_TRIES = 3
# A game's clock moved for a time away is read again and moved again this many times at most when
# another process wrote it between the read and the write (`Clocks._shift_clock`).
SHIFT_TRIES = 3

log = logging.getLogger("wargames.clocks")


class Clocks(LiveMatches):
    """Deadlines and time away: a turn's clock, and a player's days away stopping it."""

    async def _new_clock(self, match: Match, state: State, now: float) -> dict[str, Any]:
        """A new clock: a whole turn, or a short one for a quick decision. A whole turn owed by a
        player who is away starts when they are back (`_clock_start`). In a game with a game clock
        the clock of the player owing it starts to run now, away or not (a tournament round does
        not wait: RULES.md), the clock that ran until now stops, and the turn is due at its own
        deadline or when that clock runs out, whichever comes first."""
        quick = state.quick_decision()
        span: float = quick_seconds(match.turn_seconds) if quick else match.turn_seconds
        start = now
        if not quick:
            aways = await self._away_ends(match.guild_id, waiting_ids(match, state), now)
            start = _clock_start(match, state, now, aways)
        deadline = start + span
        changes: dict[str, Any] = {}
        if match.game_clock is not None:
            clock = game_clock_runs(match, state, now)
            if clock.running:
                deadline = min(deadline, now + min(clock_left(clock, u) for u in clock.running))
            changes["game_clock"] = clock
        lead = reminder_lead(min(span, deadline - now))
        changes.update(deadline=deadline, reminder_at=deadline - lead)
        return changes

    async def _away_seen(self, match: Match, state: State, now: float) -> AwaySeen | None:
        """The time away `_new_clock` read for the players a whole turn now waits on (None: it read
        none), for the store to check as it stores the move (`Database.commit_action`)."""
        users = sorted(set(waiting_ids(match, state)))
        if state.quick_decision() or not users:
            return None
        aways = [a for user in users for a in await self.db.time_away(match.guild_id, user, now)]
        last = max((a.end_at for a in aways), default=None)
        return AwaySeen(match.guild_id, tuple(users), len(aways), last)

    async def _commit_clocked(
        self, match: Match, state: State, now: float, changes: dict[str, Any], clocked: bool, **stored: Any
    ) -> Match:
        """`Database.commit_action` of a command whose `changes` hold a new clock (`clocked`, from
        `_new_clock`), held to the time away it was computed from (`_store_clocked`)."""
        if not (clocked and self.db.shared):
            return await self.db.commit_action(match.id, now=now, **stored, **changes)
        return await self._store_clocked(
            match,
            state,
            now,
            changes,
            lambda seen: self.db.commit_action(match.id, now=now, away_seen=seen, **stored, **changes),
        )

    async def _store_clocked(
        self,
        match: Match,
        state: State,
        now: float,
        clock: dict[str, Any],
        store: Callable[[AwaySeen | None], Awaitable[Match]],
    ) -> Match:
        """`store` a move or a game's start whose `clock` (from `_new_clock`, updated here) starts
        a turn, with the time away it was computed from. Where another process is changing a
        waiting player's time away, or changed it since it was read (`AwayChanged`, nothing
        written; only where processes share the store), the clock is computed again from it as it
        now is. That process's `away` holds the player's lock for a few statements: a few tries,
        then `AwayChanged` is raised."""
        seen = None
        if self.db.shared:
            seen, fresh = await self._seen_then_clock(match, state, now)
            clock.update(fresh)
        for attempt in range(1, AWAY_TRIES + 1):
            try:
                return await store(seen)
            except AwayChanged:
                if attempt == AWAY_TRIES:
                    raise
                await asyncio.sleep(AWAY_WAIT * attempt)
                seen, fresh = await self._seen_then_clock(match, state, now)
                clock.update(fresh)
        raise AssertionError("unreachable")

    async def _seen_then_clock(
        self, match: Match, state: State, now: float
    ) -> tuple[AwaySeen | None, dict[str, Any]]:
        """The time away the store will hold a move to, then the clock computed from it, in that
        order. The other way round, an `away` another process finished between the two reads was in
        the check and not in the clock: the store let the move through, and the turn ran while the
        player was away (the away, done before the turn was theirs, moved nothing). Read in this
        order, such an away is in the clock and not in the check, and the store refuses it."""
        seen = await self._away_seen(match, state, now)
        return seen, await self._new_clock(match, state, now)

    async def _away_ends(self, guild_id: int, users: Iterable[int], now: float) -> dict[int, float]:
        """When each of `users` who is away from this server now comes back."""
        ends: dict[int, float] = {}
        for user in set(users):
            for away in await self.db.time_away(guild_id, user, now):
                if away.start_at <= now:
                    ends[user] = max(ends.get(user, now), away.end_at)
        return ends

    async def away_taken(self, guild_id: int, user_id: int, now: float | None = None) -> int:
        """The days of time away a player took in this server in the last 365 days, to now: each
        time away counts its days begun (a day and a bit is two), but an hour's grace is free, so a
        mistake undone at once costs nothing and no stall is cheaper for being cut in pieces."""
        now = self.clock() if now is None else now
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
        back; reminders and losses on time wait with it. A game clock (a tournament game's) does
        not stop: the round does not wait, so the answer says what is left on it. Asked while
        away, it sets a new return."""
        if not 1 <= days <= AWAY_DAYS_A_YEAR:
            raise BadRequest(f"Time away is 1 to {AWAY_DAYS_A_YEAR} days.")
        return await self._reclock(guild_id, user_id, days)

    async def back(self, guild_id: int, user_id: int) -> TimeAway:
        """End a player's time away early: the clocks it stopped run again from now."""
        if await self.away_until(guild_id, user_id) is None:
            raise BadRequest("You are not away. `/wargames away` stops your clocks while you are.")
        return await self._reclock(guild_id, user_id, None)

    async def _reclock(self, guild_id: int, user_id: int, days: int | None) -> TimeAway:
        """Record a player's new time away (`days` from now) or its end (None), and move the clock
        of each of their active games in this server by as much as its start moves; a game clock
        does not move, and the turn is due when it runs out if that comes sooner. A deadline
        already passed is left to the sweep: it fell due before the time away began. Returns the
        time away with those games and the ids of those waiting on the player (both players of a
        set-up made at once).

        The moment, the days taken, the check against the year's allowance and the days left it
        answers are all read with the lock held: read before it, an away that held the lock
        meanwhile and was ended by this one (a day taken, past its free hour) was not counted, and
        this one's answer said a day more than the player had, and let them take it."""
        async with self._away_lock(guild_id, user_id), contextlib.AsyncExitStack() as held:
            found = await self._holding_games(held, guild_id, user_id)
            now = self.clock()
            taken = await self.away_taken(guild_id, user_id, now)
            left = max(0, AWAY_DAYS_A_YEAR - taken)
            if days is not None and days > left:
                can = (
                    f"you can be away for {days_text(left)} at most now" if left else "you have none left now"
                )
                raise BadRequest(
                    f"Time away is at most {AWAY_DAYS_A_YEAR} days in any 365. You took "
                    f"{days_text(taken)} of them, so {can}; a day taken comes back 365 days later."
                )
            until = None if days is None else now + days * DAY
            before = await self._away_ends(guild_id, {p for m in found for p in m.players}, now)
            await self.db.set_time_away(guild_id, user_id, now=now, until=until)
            after = {u: end for u, end in before.items() if u != user_id}
            if until is not None:
                after[user_id] = until
            games, owing = [], set()
            for stored in found:
                shifted = await self._shift_clock(stored, user_id, now, before, after)
                if shifted is None:
                    continue
                match, state = shifted
                games.append(match)
                if user_id in waiting_ids(match, state):
                    owing.add(match.id)
            if days is None:  # back: the time away just ended counts its days begun
                left = max(0, AWAY_DAYS_A_YEAR - await self.away_taken(guild_id, user_id, now))
                return TimeAway(None, left, games, frozenset(owing))
        clocks = {m.id: t for m in games if (t := game_clock_left(m, user_id, now)) is not None}
        return TimeAway(until, left - days, games, frozenset(owing), clocks)

    async def _shift_clock(
        self, stored: Match, user_id: int, now: float, before: dict[int, float], after: dict[int, float]
    ) -> tuple[Match, State] | None:
        """Move one game's clock for `user_id`'s time away (`before` -> `after`: when each of its
        players is back), its lock held: the game and its state as they are then (None: not active).
        Read from the store, not memory: a copy here may be older than the row (a read overtaken by
        a write). Where another process stored a move meanwhile that kept the clock (such a move
        checks no time away), the shift is refused by the version: the game is read again and its
        clock moved as it now is (before, the shift was given up, and the turn ran while its player
        was away)."""
        for _ in range(SHIFT_TRIES):
            self.forget(stored.channel_id)
            match = await self._reread(stored)
            live = self._live.get(match.channel_id)
            if match.status is not Status.ACTIVE or live is None or live[1] is None:
                return None
            state = live[1]
            moved = await self._shifted(match, state, now, before, after)
            if moved is None:
                return match, state
            clock = moved.game_clock if moved.game_clock != match.game_clock else None
            assert moved.deadline is not None and moved.reminder_at is not None
            if await self.db.shift_clock(match.id, match.version, moved.deadline, moved.reminder_at, clock):
                self._remember(moved, state)
                return moved, state
        self.forget(stored.channel_id)  # written elsewhere each time: read it afresh next time
        log.warning("Time away of %s: game %s kept moving on; its clock was not moved", user_id, stored.id)
        return match, state

    async def _shifted(
        self, match: Match, state: State, now: float, before: dict[int, float], after: dict[int, float]
    ) -> Match | None:
        """`match` with its clock moved by as much as its start moves from `before` to `after` (when
        each player away is back); None if it does not move. A deadline already passed is left to
        the sweep: it fell due before the time away began. A game clock does not stop: the turn is
        due when it runs out, if that comes sooner."""
        if match.deadline is None or match.deadline <= now or match.reminder_at is None:
            return None
        shift = _clock_start(match, state, now, after) - _clock_start(match, state, now, before)
        if not shift:
            return None
        deadline, reminder_at = match.deadline + shift, match.reminder_at + shift
        was = match.game_clock
        if was is None or not was.running or was.since is None:
            return replace(match, deadline=deadline, reminder_at=reminder_at, reminded=False)
        game_clock = _unwaited(was, now, shift)
        end = _clock_end(game_clock)
        if shift < 0 and match.deadline >= _clock_end(was):
            # the clock had set it, so the turn's own deadline was not kept: back, the turn has what
            # it had left when the absence began, not a whole new turn
            used = await self._turn_used(match, state, was.since, now)
            deadline = _clock_start(match, state, now, after) + match.turn_seconds - used
        if end < deadline:
            deadline = end
        reminder_at = deadline - (match.deadline - match.reminder_at)
        if deadline == match.deadline and game_clock == match.game_clock:
            return None
        return replace(
            match, deadline=deadline, reminder_at=reminder_at, reminded=False, game_clock=game_clock
        )

    async def give_time(self, match_id: int, seconds: float) -> Match | None:
        """Give each player of an active game with a game clock `seconds` more on it (its tournament
        round was extended: RULES.md "Extending a round"), the same for both. The turn's deadline
        moves only where that clock set it, and never past the turn's own time: its start (when
        its players were back, if away), its whole time, and the time they were away since, read
        from the stored time away as a return reads it (`_shifted`). A deadline already passed is
        left to the sweep: that loss on time was due before the extension. None: not given (over,
        no game clock, due already, or moved on by another process each try)."""
        for _ in range(SHIFT_TRIES):
            async with self._lock(match_id):
                match = await self.db.get_match(match_id)
                now = self.clock()
                was = match.game_clock
                if match.status is not Status.ACTIVE or was is None or match.deadline is None:
                    return None
                if match.deadline <= now or match.reminder_at is None:
                    return None
                clock = replace(was, left={u: clock_left(was, u) + seconds for u in match.players})
                deadline = match.deadline
                if was.running and was.since is not None and deadline >= _clock_end(was):
                    own = max(deadline, await self._own_deadline(match, was.since, now))
                    deadline = min(own, _clock_end(clock))
                reminder_at = deadline - (match.deadline - match.reminder_at)
                if await self.db.give_game_time(match.id, match.version, deadline, reminder_at, clock):
                    self.forget(match.channel_id)  # read afresh: the stored row is the truth
                    return replace(match, deadline=deadline, reminder_at=reminder_at, game_clock=clock)
        log.warning("Extending game %s: it kept moving on; its clock was not given time", match_id)
        return None

    def _away_lock(self, guild_id: int, user_id: int) -> asyncio.Lock:
        """One player's time away in one server, within this process: held by `_reclock` from the
        list of their games to the last clock moved, and by a game's start whose first turn waits
        on them from reading their time away to storing the game (`_holding_aways`). Else, in one
        process as between two, the start read the time away before it was written and stored the
        game after the list was read: its first turn ran while they were away, or waited for an
        absence already ended (on SQLite nothing else holds the two apart; the match's lock does
        not, as a challenge is not among the games listed)."""
        return self._away_locks[(guild_id, user_id)]

    @contextlib.asynccontextmanager
    async def _holding_aways(self, guild_id: int, user_ids: Iterable[int]) -> AsyncIterator[None]:
        """The `_away_lock` of each of `user_ids`, taken in one order (no two starts deadlock)."""
        async with contextlib.AsyncExitStack() as held:
            for user in sorted(set(user_ids)):
                await held.enter_async_context(self._away_lock(guild_id, user))
            yield

    async def _holding_games(
        self, held: contextlib.AsyncExitStack, guild_id: int, user_id: int
    ) -> list[Match]:
        """A player's active games in a server, each locked here (`_lock`, in id order: no two
        callers deadlock), and then their time away held against other processes, and their
        opponents' shared (`Database.holding_away`: an opponent's `away` moves the same clocks, and
        one landing between this one's read of a clock and its shift was written over by it). Where
        processes share the store the games are listed again once
        that is held: a game another process started between the two lists, its first clock read
        from the time away as it was, is found too; its lock is taken by listing again from the
        top (at the last try, after the others')."""
        for attempt in range(1, RELIST_TRIES + 1):
            found = await self.db.list_matches(guild_id=guild_id, player_id=user_id, statuses=[Status.ACTIVE])
            async with contextlib.AsyncExitStack() as trying:
                for match in sorted(found, key=lambda m: m.id):
                    await trying.enter_async_context(self._lock(match.id))
                opponents = {p for m in found for p in m.players} - {user_id}
                await trying.enter_async_context(self.db.holding_away(guild_id, user_id, opponents))
                if self.db.shared:
                    again = await self.db.list_matches(
                        guild_id=guild_id, player_id=user_id, statuses=[Status.ACTIVE]
                    )
                    began = {m.id for m in again} - {m.id for m in found}
                    if began and attempt < RELIST_TRIES:
                        continue  # released, and listed again from the top
                    for match in sorted((m for m in again if m.id in began), key=lambda m: m.id):
                        await trying.enter_async_context(self._lock(match.id))
                    found = again
                held.push_async_exit(trying.pop_all())
                return found
        raise AssertionError("unreachable")

    async def channel_view(self, match: Match, state: State | None = None) -> PrivateTurn | None:
        raise NotImplementedError  # Reading's (play/reading.py)

    async def _own_deadline(self, match: Match, began: float, now: float) -> float:
        """When the turn that began at `began` (its game clock's start) is due by its own time, not
        its game clock's: when its players are back (now, if none is away), plus its whole time less
        what of it has run while none of them was away. A quick decision's own time is its short
        deadline from when it began, which time away does not move; but one reached by a private
        step (a turn left at a formality) is still that turn, whose clock began with it."""
        assert match.snapshot is not None
        state = game_of(match).from_json(match.snapshot)
        if state.quick_decision() and await self.channel_view(match, state) is None:
            return began + quick_seconds(match.turn_seconds)
        aways = await self._away_ends(match.guild_id, waiting_ids(match, state), now)
        used = await self._turn_used(match, state, began, now)
        return _clock_start(match, state, now, aways) + match.turn_seconds - used

    async def _turn_used(self, match: Match, state: State, began: float, now: float) -> float:
        """How much of a turn's own time has run by `now` since it began (`began`: when the game
        clock of the player owing it started to run): the time when none of the players it waits
        on was away. What a turn has left is its whole time less this, whatever the absences."""
        spans: list[tuple[float, float]] = []
        for user in set(waiting_ids(match, state)):
            for away in await self.db.time_away(match.guild_id, user, began):
                start, end = max(away.start_at, began), min(away.end_at, now)
                if end > start:
                    spans.append((start, end))
        away_for, upto = 0.0, began
        for start, end in sorted(spans):  # their union: two players away at once count once
            start = max(start, upto)
            if end > start:
                away_for, upto = away_for + end - start, end
        return max(0.0, now - began - away_for)


def game_clock_stopped(match: Match, now: float) -> GameClock:
    """The game clock with the clocks that ran until now stopped: each of those players is
    charged the time since it began to run."""
    clock = match.game_clock
    assert clock is not None
    return _charged(clock, now)


def game_clock_runs(match: Match, state: State, now: float) -> GameClock:
    """The game clock once `state` is reached: the clocks that ran stopped, and those of the
    players it waits on running from now, away or not (time away does not stop it). A quick
    decision runs the clock of the player who owes it, as a turn does: its short deadline bounded
    each wait, but not their number, and a player who let every one run out (a game may ask one at
    each card played) spent days of the round on nobody's clock (docs/fairness.md, the eighth
    review). A game that is over runs none."""
    clock = game_clock_stopped(match, now)
    if state.is_over():
        return clock
    running = tuple(waiting_ids(match, state))
    return replace(clock, running=running, since=now) if running else clock


def game_clock_moved(match: Match, state: State, now: float) -> GameClock | None:
    """The game clock after a command that made no new turn clock, if whose clocks run
    changed (one of two players setting up at once has finished: theirs stops); else None."""
    clock = match.game_clock
    if clock is None:
        return None
    waiting = () if state.is_over() else tuple(waiting_ids(match, state))
    if set(waiting) == set(clock.running):
        return None
    return game_clock_runs(match, state, now)


def _charged(clock: GameClock, now: float) -> GameClock:
    """`clock` with the clocks that ran stopped at `now`, their players charged the time they ran."""
    if not clock.running or clock.since is None:
        return replace(clock, running=(), since=None)
    used = max(0.0, now - clock.since)
    left = dict(clock.left)
    for user in clock.running:
        left[user] = max(0.0, clock_left(clock, user) - used)
    return GameClock(clock.total, left)


def _clock_end(clock: GameClock) -> float:
    """When the first of the running game clocks runs out."""
    assert clock.since is not None
    return clock.since + min(clock_left(clock, u) for u in clock.running)


def _unwaited(clock: GameClock, now: float, shift: float) -> GameClock:
    """A running game clock when time away moves the turn's start by `shift`: unchanged, since
    time away does not stop it. Only a clock left waiting for a return by the rule before
    (it stopped while away) is brought back towards now when the return comes sooner."""
    assert clock.since is not None
    if clock.since > now and shift < 0:
        return replace(clock, since=max(now, clock.since + shift))
    return clock

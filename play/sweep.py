"""The deadline sweep: what falls due (reminders, forfeits, expired challenges) becomes notices."""

from __future__ import annotations

from data import (
    Match,
    StaleVersion,
    Status,
)
from data.ai_decisions import new_id
from engine.meta import ABANDON, TIMEOUT
from engine.protocol import Action, Event
from play.ai_turns import AiTurns
from play.errors import (
    BadRequest,
    StalePrompt,
)
from play.results import (
    Notice,
    clock_limits,
    game_of,
    own_rows,
    waiting_ids,
)


class Sweep(AiTurns):
    """The deadline sweep: reminders, forfeits on time, expired challenges."""

    async def sweep(self, now: float | None = None) -> list[Notice]:
        """Apply whatever is due: expired challenges, reminders, forfeits (also after downtime), in
        the guilds this process serves. Each is a versioned write: of two sweeps that found the same
        thing due, one acts and the other is refused."""
        now = self.clock() if now is None else now
        notices: list[Notice] = []
        for match in await self.db.expired_challenges(now):
            if not self.serves(match.guild_id):
                continue
            try:
                done = self._remember(
                    await self.db.update_match(
                        match.id, expected_version=match.version, status=Status.EXPIRED
                    )
                )
            except StaleVersion:
                self.forget(match.channel_id)
                continue
            notices.append(Notice("expired", done, match.challenger_id))
        for match in await self.db.due_deadlines(now):
            if not self.serves(match.guild_id):
                continue
            notice = await self._forfeit(match, now)
            if notice is not None:
                notices.append(notice)
        for match in await self.db.due_reminders(now):
            if not self.serves(match.guild_id):
                continue
            if match.turn_player_id is None:
                continue
            # the reminder as read, not one a time away moved meanwhile (owed again, later)
            if not await self.db.mark_reminded(
                match.id, match.version, reminder_at=match.reminder_at, deadline=match.deadline
            ):
                continue
            owed = [match.turn_player_id]
            if match.snapshot is not None:
                owed = waiting_ids(match, game_of(match).from_json(match.snapshot)) or owed
            for user in owed:
                notices.append(Notice("reminder", match, user, due=match.deadline or now))
        return notices

    async def overdue(self, match: Match, now: float) -> Notice | None:
        """Apply a deadline of `match` that passed by `now`, as the sweep does (None: not due, or
        the game moved on): for a tournament closing a round, whose deadlines come first."""
        return await self._forfeit(match, now)

    async def no_show(self, match_id: int, absent_id: int, by: int) -> Notice:
        """An organiser (`by`) ends a tournament game now as a loss on time for `absent_id`, who
        owes an action and has made none in it (RULES.md "Tournaments": a no-show): the same
        `TIMEOUT` the deadline would have applied, rated alike. Refused, saying why, once they
        have moved (that is a game, not a no-show), when it is not their turn, or it is over."""
        markup = self.markup
        async with self._lock(match_id):
            match = await self.db.get_match(match_id)
            self.forget(match.channel_id)
            side = match.side_of(absent_id)
            if match.status is not Status.ACTIVE or match.snapshot is None or side is None:
                raise BadRequest(f"{markup.mention(absent_id)}'s game is not going on: nothing to end.")
            if own_rows(await self.db.actions(match.id), absent_id):
                raise BadRequest(
                    f"{markup.mention(absent_id)} has moved in this game, so it is a game, not a no-show: "
                    "it goes on to its end or to their clock, which decides it on time if they stop."
                )
            state = game_of(match).from_json(match.snapshot)
            if side not in state.to_act():
                other = next(u for u in match.players if u != absent_id)
                raise BadRequest(
                    f"It is {markup.mention(other)}'s move in this game, so {markup.mention(absent_id)} "
                    "has not yet had a turn to miss: it goes on."
                )
            steps: list[tuple[str, list[Event]]] = [(str(TIMEOUT), list(state.apply(TIMEOUT, side)))]
            secret = await self.kept_secret(match, (absent_id,))
            try:
                played = await self._commit(match, state, steps, absent_id, None)
            except StalePrompt:
                raise BadRequest("The game moved on just now: look at it again.") from None
        return Notice("no-show", played.match, absent_id, played, late=(absent_id,), by=by, secret=secret)

    async def _forfeit(self, match: Match, now: float) -> Notice | None:
        """A deadline passed: a quick decision gets its default answer, a turn is lost on time, and
        a game where both sides owed something and neither came ends without a winner."""
        async with self._lock(match.id):
            self.forget(match.channel_id)
            match = await self.db.get_match(match.id)  # a move may have landed since the query
            if match.status is not Status.ACTIVE or match.snapshot is None:
                return None
            if match.deadline is None or match.deadline > now:
                return None
            rules = game_of(match)
            state = rules.from_json(match.snapshot)
            owed = sorted(state.to_act())
            if not owed:
                return None
            quick_before = state.quick_decision()
            # a turn still private (its last step left only a formality, or its player let the clock
            # run out in the middle of it): the channel sees it now, as it would at a hand-off
            private = await self.channel_view(match, state)
            if private is not None and not private.standing:
                private = None  # every step taken back: nothing of the turn to tell, as before it
            steps: list[tuple[str, list[Event]]] = []
            late = match.sides[owed[0]]
            # A game clock that set the deadline of a quick decision ran out: a loss on time, not
            # the decision's automatic answer (RULES.md, "The game clock"). So too for a private
            # turn whose last step left only a formality (a private step moves no clock).
            clock_out = clock_limits(match, late) is not None
            if quick_before and not clock_out:
                for side in owed:
                    default = state.default_action(side)
                    action: Action = default if default is not None else TIMEOUT
                    steps.append((str(action), list(state.apply(action, side))))
                    late = match.sides[side]
                    if state.is_over():
                        break
            else:
                action = TIMEOUT if len(owed) == 1 else ABANDON
                steps.append((str(action), list(state.apply(action, owed[0]))))
            # an automatic answer is stored under a bot's id (negative, as the AI's): in the late
            # player's name, as their side's step, but not their own act (`own_rows`)
            bot = new_id() if quick_before and not clock_out else None
            late_ids = tuple(match.sides[s] for s in owed)
            secret = await self.kept_secret(match, late_ids) if state.is_over() else ()
            try:
                played = await self._commit(match, state, steps, late, bot, quick_before=quick_before)
            except StalePrompt:
                return None
        users = late_ids
        if private is not None:
            # As its player's own hand-off would have: the notice and its board tell the whole turn,
            # not only the default or the loss that ended it; its steps stand (RULES.md, "Your turn
            # is yours").
            played = await self.stretch(played, since=private.seen)  # replayed from the turn's start
        whole_turn = private is not None
        if not state.is_over():
            return Notice("default", played.match, late, played, late=users, whole_turn=whole_turn)
        abandoned = len(owed) > 1 and not quick_before
        return Notice(
            "forfeit",
            played.match,
            late,
            played,
            late=users,
            abandoned=abandoned,
            clock_out=clock_out,
            whole_turn=whole_turn,
            by_default=quick_before and steps[-1][0] != str(TIMEOUT),
            secret=secret,
        )

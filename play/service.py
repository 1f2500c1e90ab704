"""The match service: the one code path for a move, shared by the Discord cog, the console and tests.

It knows nothing of Discord. It loads a match, checks who may act, applies the action with the
engine, and stores the new snapshot and the log row in one transaction. Concurrency is handled
twice: an in-process lock per match serialises this process, and the version check in SQL makes
sure that even without the lock only one of two racing moves lands.

Each channel's open game is also kept in memory, written through on every change this service
makes, so autocomplete, prompts and moves do not re-read and re-parse the match from SQLite (the
database stays the truth: a write from elsewhere makes the next move fail its version check, which
drops the copy, and the player is told to look again). In memory a game is its `Match` row without
the snapshot, plus the `State`: one copy of the position, not two, since every object the cache
holds is walked by each full pass of Python's garbage collector (docs/reliability.md).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from data import (
    ChannelBusy,
    Database,
    DuplicateInteraction,
    Match,
    NewAction,
    PlayerStats,
    Result,
    StaleVersion,
    Status,
)
from engine.blockwars import (
    IllegalAction,
    InvalidNotation,
    Options,
    Side,
    State,
    new_game,
    parse,
    summary,
)
from engine.blockwars.events import Event, GameOver
from play.errors import (
    AlreadyApplied,
    BadRequest,
    IllegalMove,
    MatchOver,
    NoMatch,
    NotAPlayer,
    NotYourTurn,
    StalePrompt,
)

DAY = 24 * 3600
DEFAULT_TURN_SECONDS = 3 * DAY
MIN_TURN_SECONDS = 60
MAX_TURN_SECONDS = 14 * DAY
CHALLENGE_TTL = DAY
GAME = "blockwars"
LIVE_GAMES_KEPT = 1024  # open games kept in memory; beyond that the least recently used is re-read


def history_line(who: str, notation: str, events: list[Event]) -> str:
    """'Canadians: e4-e5, e5 attacks e6: 9 of clubs vs 7 of diamonds, won, ...' (the events say it all;
    the notation alone stands in when they are silent, as for `end`)."""
    return f"{who}: {summary(events) or notation}"


def reminder_lead(turn_seconds: int) -> float:
    """How long before the deadline to remind: a quarter of the turn, at most 12 hours."""
    return min(turn_seconds / 4, 12 * 3600)


@dataclass(slots=True)
class Played:
    """What one command did: the new match row, the state, the events, and the line for the channel."""

    match: Match
    state: State
    events: list[Event]
    notation: str
    actor_id: int
    line: str

    @property
    def over(self) -> bool:
        return self.state.is_over()

    @property
    def next_player_id(self) -> int | None:
        return self.match.turn_player_id


@dataclass(slots=True)
class Notice:
    """Something the sweep did that players should hear about."""

    kind: str  # reminder, forfeit, expired
    match: Match
    user_id: int | None
    text: str
    played: Played | None = None


def _handed_out(match: Match, state: State) -> tuple[Match, State]:
    """What a caller gets of a game kept in memory: the whole row, snapshot included, and a state
    of its own to change."""
    return replace(match, snapshot=state.to_json()), state.clone()


class MatchService:
    """Challenges, moves, decisions, deadlines and stats for every channel."""

    def __init__(
        self,
        db: Database,
        *,
        clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
        challenge_ttl: float = CHALLENGE_TTL,
    ) -> None:
        self.db = db
        self.clock = clock
        self.rng = rng or random.Random()
        self.challenge_ttl = challenge_ttl
        self._locks: dict[int, asyncio.Lock] = {}
        # channel id -> its open match and state (None while a challenge): see the module docstring
        self._live: OrderedDict[int, tuple[Match, State | None]] = OrderedDict()

    def _lock(self, match_id: int) -> asyncio.Lock:
        lock = self._locks.get(match_id)
        if lock is None:
            lock = self._locks[match_id] = asyncio.Lock()
        return lock

    def _remember(self, match: Match, state: State | None = None) -> Match:
        """Record what was just stored (write-through); a game that ended leaves the memory."""
        if match.status.is_open:
            if state is None and match.snapshot is not None:
                state = State.from_json(match.snapshot)
            self._live[match.channel_id] = (replace(match, snapshot=None), state)
            self._live.move_to_end(match.channel_id)
            while len(self._live) > LIVE_GAMES_KEPT:
                self._live.popitem(last=False)
        else:
            self._live.pop(match.channel_id, None)
        return match

    def forget(self, channel_id: int) -> None:
        """Drop the in-memory copy of a channel's game, so the next read goes to the database."""
        self._live.pop(channel_id, None)

    async def _live_game(self, channel_id: int) -> tuple[Match, State | None] | None:
        """The channel's open match and its state: from memory, or read once from the database."""
        found = self._live.get(channel_id)
        if found is not None:
            self._live.move_to_end(channel_id)
            return found
        match = await self.db.get_channel_match(channel_id)
        if match is None:
            return None
        self._remember(match)
        return self._live.get(channel_id)

    # ------------------------------------------------------------------ challenges

    async def challenge(
        self,
        *,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        opponent_id: int,
        side: str = "random",
        options: Options | None = None,
        turn_seconds: int | None = None,
        opponent_is_bot: bool = False,
        ai_level: str | None = None,
    ) -> Match:
        """Open a challenge; against the AI (`ai_level` set) it starts at once."""
        if challenger_id == opponent_id:
            raise BadRequest(
                "You cannot challenge yourself. Pick another player, or challenge me for an AI game."
            )
        if opponent_is_bot and ai_level is None:
            raise BadRequest("Bots cannot play. Challenge a person, or challenge me to play the AI.")
        side = side.strip().lower()
        if side not in ("random", Side.GERMANS.value, Side.CANADIANS.value):
            raise BadRequest("Side must be germans, canadians or random.")
        turn = DEFAULT_TURN_SECONDS if turn_seconds is None else int(turn_seconds)
        if not MIN_TURN_SECONDS <= turn <= MAX_TURN_SECONDS:
            raise BadRequest("Time per turn must be between 1 minute and 14 days.")
        now = self.clock()
        try:
            match = await self.db.create_challenge(
                guild_id=guild_id,
                channel_id=channel_id,
                challenger_id=challenger_id,
                opponent_id=opponent_id,
                seed=self.rng.getrandbits(62),
                turn_seconds=turn,
                challenge_expires_at=now + self.challenge_ttl,
                game=GAME,
                options=(options or Options()).to_json(),
                challenger_side=side,
                ai_player_id=opponent_id if ai_level else None,
                ai_level=ai_level,
                now=now,
            )
        except ChannelBusy:
            self.forget(channel_id)  # a game we did not know of: read it next time
            raise BadRequest(
                "This channel already has a game. Open a thread for a new one: "
                "each thread can hold its own game."
            ) from None
        self._remember(match)
        if ai_level is not None:
            match = await self._start(match, now)
        return match

    async def accept(self, channel_id: int, user_id: int, match_id: int | None = None) -> Match:
        match = await self._open_match(channel_id, match_id)
        if match.status is not Status.CHALLENGED:
            raise BadRequest("This game has already started.")
        if user_id != match.opponent_id:
            who = "You made this challenge; wait for" if user_id == match.challenger_id else "Only"
            raise NotAPlayer(f"{who} <@{match.opponent_id}> can accept it.")
        async with self._lock(match.id):
            return await self._start(await self._reread(match), self.clock())

    async def _start(self, match: Match, now: float) -> Match:
        wanted = match.challenger_side
        if wanted == "random":
            wanted = random.Random(match.seed).choice([Side.GERMANS.value, Side.CANADIANS.value])
        other = Side(wanted).other.value
        sides = {wanted: match.challenger_id, other: match.opponent_id}
        state = new_game(Options.from_json(match.options), match.seed)
        first = sides[Side.GERMANS.value]  # the Germans deploy first (RULES.md R1)
        try:
            started = await self.db.update_match(
                match.id,
                expected_version=match.version,
                now=now,
                status=Status.ACTIVE,
                sides=sides,
                snapshot=state.to_json(),
                turn_player_id=first,
                deadline=now + match.turn_seconds,
                reminder_at=now + match.turn_seconds - reminder_lead(match.turn_seconds),
                challenge_expires_at=None,
            )
        except StaleVersion:
            self.forget(match.channel_id)
            raise StalePrompt("This challenge was already answered.") from None
        return self._remember(started, state)

    async def decline(self, channel_id: int, user_id: int, match_id: int | None = None) -> Match:
        """The challenged player says no, or the challenger withdraws; either frees the channel."""
        match = await self._open_match(channel_id, match_id)
        if match.status is not Status.CHALLENGED:
            raise BadRequest("The game has started: use resign or offer a draw instead.")
        if user_id not in match.players:
            raise NotAPlayer("Only the two players can decline or withdraw this challenge.")
        status = Status.DECLINED if user_id == match.opponent_id else Status.CANCELLED
        try:
            return self._remember(
                await self.db.update_match(match.id, expected_version=match.version, status=status)
            )
        except StaleVersion:
            self.forget(match.channel_id)
            raise StalePrompt("This challenge was already answered.") from None

    async def cancel(self, channel_id: int, user_id: int, *, is_admin: bool) -> Match:
        """An admin (Manage Channels) ends the channel's game without a result."""
        match = await self._open_match(channel_id)
        if not is_admin:
            raise NotAPlayer("Only members who can manage this channel may cancel a game.")
        async with self._lock(match.id):
            self.forget(channel_id)
            match = await self.db.get_match(match.id)
            return self._remember(
                await self.db.update_match(
                    match.id,
                    expected_version=match.version,
                    status=Status.CANCELLED,
                    turn_player_id=None,
                    deadline=None,
                    reminder_at=None,
                )
            )

    # ------------------------------------------------------------------ playing

    async def current(self, channel_id: int) -> tuple[Match, State]:
        """The channel's game and its state; NoMatch if it has none (or it is still a challenge)."""
        match = await self._open_match(channel_id)
        found = self._live.get(channel_id)
        if match.status is Status.CHALLENGED or found is None or found[1] is None:
            raise NoMatch("The challenge has not been accepted yet.")
        return _handed_out(match, found[1])

    async def latest(self, channel_id: int) -> tuple[Match, State]:
        """Like `current`, but also finds the channel's most recent finished game (for boards and replays)."""
        live = await self._live_game(channel_id)
        if live is not None:
            if live[1] is None:
                raise NoMatch("The challenge has not been accepted yet.")
            return _handed_out(live[0], live[1])
        found = await self.db.list_matches(channel_id=channel_id, limit=1)
        if not found or found[0].snapshot is None:
            raise NoMatch("There is no game in this channel. Start one with /blockwars challenge.")
        return found[0], State.from_json(found[0].snapshot)

    async def legal(self, channel_id: int, user_id: int) -> list[str]:
        """What `user_id` may play now (empty when it is not their move): for autocomplete and buttons."""
        try:
            match, state = await self.current(channel_id)
        except NoMatch:
            return []
        side = match.side_of(user_id)
        if side is None or state.current_player() is not Side(side):
            return []
        return [str(a) for a in state.legal_actions()]

    async def act(
        self,
        channel_id: int,
        user_id: int,
        notation: str,
        *,
        interaction_id: int | None = None,
        expected_version: int | None = None,
        match_id: int | None = None,
        before_commit: Callable[[], Any] | None = None,
    ) -> Played:
        """Apply one action for `user_id`: a move, a decision, set-up, resign or a draw action.

        `expected_version` comes from a button's custom_id: if the game moved on since the button
        was posted, the click is refused rather than applied to a different position.
        """
        try:
            action = parse(notation)
        except InvalidNotation as exc:
            raise IllegalMove(str(exc)) from None
        match = await self._open_match(channel_id, match_id)
        async with self._lock(match.id):
            match = await self._reread(match)
            live = self._live.get(channel_id)
            if not match.status.is_open:
                raise MatchOver("This game is over.")
            if match.status is Status.CHALLENGED or live is None or live[1] is None:
                raise NoMatch("The challenge has not been accepted yet.")
            side_name = match.side_of(user_id)
            if side_name is None:
                raise NotAPlayer("You are not playing in this game; only its two players can act.")
            if expected_version is not None and expected_version != match.version:
                raise StalePrompt("This prompt is out of date: the game has moved on. Use the newest board.")
            side = Side(side_name)
            state = live[1].clone()
            if not action.anytime and state.current_player() is not side:
                raise NotYourTurn(self._waiting_for(match, state))
            try:
                events = state.apply(action, side)
            except IllegalAction as exc:
                raise IllegalMove(str(exc), exc.legal) from None
            return await self._commit(
                match, state, events, str(action), user_id, interaction_id, before_commit
            )

    async def _commit(
        self,
        match: Match,
        state: State,
        events: list[Event],
        notation: str,
        actor_id: int,
        interaction_id: int | None,
        before_commit: Callable[[], Any] | None = None,
    ) -> Played:
        now = self.clock()
        changes: dict[str, Any] = {"snapshot": state.to_json()}
        result: Result | None = None
        if state.is_over():
            outcome = state.outcome()
            assert outcome is not None
            winner = outcome.winner
            result = Result(winner_id=match.sides[winner] if winner else None, reason=outcome.detail)
        else:
            player = state.current_player()
            assert player is not None
            next_id = match.sides[player.value]
            changes["turn_player_id"] = next_id
            if next_id != match.turn_player_id:  # a new player's clock starts
                changes["deadline"] = now + match.turn_seconds
                changes["reminder_at"] = now + match.turn_seconds - reminder_lead(match.turn_seconds)
        try:
            updated = await self.db.commit_action(
                match.id,
                expected_version=match.version,
                actions=[NewAction(notation, actor_id)],
                interaction_id=interaction_id,
                result=result,
                now=now,
                before_commit=before_commit,
                **changes,
            )
        except BaseException as exc:
            # Whatever went wrong (already applied, another writer first, cancelled, crashed), the
            # copy in memory may be out of date: the next read goes to the database.
            self.forget(match.channel_id)
            if isinstance(exc, DuplicateInteraction):
                raise AlreadyApplied("That was already played.") from None
            if isinstance(exc, StaleVersion):
                raise StalePrompt(
                    "The game moved on while you were acting; nothing was changed. Look at the new board."
                ) from None
            raise
        self._remember(updated, state.clone())
        side = match.side_of(actor_id)
        who = Side(side).title if side else "?"
        return Played(updated, state, events, notation, actor_id, history_line(who, notation, events))

    def _waiting_for(self, match: Match, state: State) -> str:
        side = state.current_player()
        assert side is not None
        who = f"<@{match.sides[side.value]}>"
        if state.pending is not None:
            return f"Not yet: {who} must decide first. {state.pending.prompt()}"
        return f"It is not your turn: {who} ({side.title}) is to play."

    async def _reread(self, match: Match) -> Match:
        """The freshest copy of `match` once its lock is held (memory first, else the database)."""
        live = self._live.get(match.channel_id)
        if live is not None and live[0].id == match.id:
            return live[0]
        fresh = await self.db.get_match(match.id)
        self._remember(fresh)
        return fresh

    async def _open_match(self, channel_id: int, match_id: int | None = None) -> Match:
        live = await self._live_game(channel_id)
        match = live[0] if live else None
        if match is None or (match_id is not None and match.id != match_id):
            if match_id is not None:
                raise StalePrompt("This prompt belongs to a game that is over.")
            raise NoMatch("There is no game in this channel. Start one with /blockwars challenge.")
        return match

    # ------------------------------------------------------------------ AI

    async def ai_turns(self, channel_id: int, *, budget_s: float | None = None) -> list[Played]:
        """Let the AI play every action it owes now (its turn and its own pending decisions)."""
        from engine.blockwars import ai  # imported lazily: the search is only needed for AI games

        played: list[Played] = []
        for _ in range(64):
            try:
                match, state = await self.current(channel_id)
            except NoMatch:
                break
            if match.ai_player_id is None or match.turn_player_id != match.ai_player_id:
                break
            side = Side(match.side_of(match.ai_player_id) or "")
            view = state.view(side)
            seed = match.seed ^ (match.version * 7919)
            level = match.ai_level or "normal"
            action = await asyncio.to_thread(ai.choose, view, level, seed, budget_s)
            try:
                played.append(
                    await self.act(
                        channel_id, match.ai_player_id, str(action), expected_version=match.version
                    )
                )
            except StalePrompt:
                continue
        return played

    # ------------------------------------------------------------------ reading

    async def log(self, match: Match) -> list[tuple[Side, str, int | None]]:
        """The action log as (side, notation, player id)."""
        rows = await self.db.actions(match.id)
        out = []
        for row in rows:
            side = match.side_of(row.player_id) if row.player_id is not None else None
            out.append((Side(side) if side else Side.GERMANS, row.notation, row.player_id))
        return out

    async def replayed(self, match: Match) -> tuple[State, list[list[Event]], list[tuple[Side, str]]]:
        """Seed + log, replayed: the final state, the events of every action, and the log."""
        state = new_game(Options.from_json(match.options), match.seed)
        per_action: list[list[Event]] = []
        log = [(side, notation) for side, notation, _ in await self.log(match)]
        for side, notation in log:
            per_action.append(state.apply(parse(notation), side))
        return state, per_action, log

    async def last_events(self, match: Match) -> list[Event]:
        """What the latest action did, for re-drawing the board with its highlights."""
        _, per_action, _ = await self.replayed(match)
        return per_action[-1] if per_action else []

    async def history(self, channel_id: int, limit: int = 20) -> list[str]:
        match, _ = await self.latest(channel_id)
        _, per_action, log = await self.replayed(match)
        lines = []
        for (side, notation), events in zip(log, per_action, strict=True):
            lines.append(history_line(side.title, notation, events))
        return lines[-limit:]

    async def stats(self, guild_id: int, user_id: int) -> PlayerStats:
        return await self.db.player_stats(guild_id, user_id)

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[PlayerStats]:
        return await self.db.leaderboard(guild_id, limit)

    # ------------------------------------------------------------------ clocks

    async def sweep(self, now: float | None = None) -> list[Notice]:
        """Apply whatever is due: expired challenges, reminders, forfeits (also after downtime)."""
        now = self.clock() if now is None else now
        notices: list[Notice] = []
        for match in await self.db.expired_challenges(now):
            try:
                done = self._remember(
                    await self.db.update_match(
                        match.id, expected_version=match.version, status=Status.EXPIRED
                    )
                )
            except StaleVersion:
                self.forget(match.channel_id)
                continue
            notices.append(Notice("expired", done, match.challenger_id, "The challenge expired unanswered."))
        for match in await self.db.due_deadlines(now):
            notice = await self._forfeit(match, now)
            if notice is not None:
                notices.append(notice)
        for match in await self.db.due_reminders(now):
            if match.turn_player_id is None or not await self.db.mark_reminded(match.id, match.version):
                continue
            when = f"<t:{int(match.deadline or now)}:R>"
            notices.append(
                Notice(
                    "reminder",
                    match,
                    match.turn_player_id,
                    f"<@{match.turn_player_id}>, your move is due {when}.",
                )
            )
        return notices

    async def _forfeit(self, match: Match, now: float) -> Notice | None:
        async with self._lock(match.id):
            self.forget(match.channel_id)
            match = await self.db.get_match(match.id)  # a move may have landed since the query
            late = match.turn_player_id
            if match.status is not Status.ACTIVE or late is None or match.snapshot is None:
                return None
            if match.deadline is None or match.deadline > now:
                return None
            state = State.from_json(match.snapshot)
            side = Side(match.side_of(late) or "")
            events = state.apply(parse("timeout"), side)
            try:
                played = await self._commit(match, state, events, "timeout", late, None)
            except StalePrompt:
                return None
        assert any(isinstance(e, GameOver) for e in events)
        return Notice("forfeit", played.match, late, f"<@{late}> ran out of time and loses the game.", played)

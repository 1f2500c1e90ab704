"""The match service: the one code path for a move, shared by the Discord cog, the console and tests.

It knows nothing of Discord. It loads a match, checks who may act, applies the action with the
engine, and stores the new snapshot and the log row in one transaction. Concurrency is handled
twice: an in-process lock per match serialises this process, and the version check in SQL makes
sure that even without the lock only one of two racing moves lands.

Each channel's open game is also kept in memory, written through on every change this service
makes, so autocomplete, prompts and moves do not re-read and re-parse the match from SQLite (the
database stays the truth: a write from elsewhere makes the next move fail its version check, which
drops the copy, and the player is told to look again; a store several processes share also tells
when another process wrote a match, and that copy is dropped at once). In memory a game is its
`Match` row without the snapshot, plus the `State`: one copy of the position, not two, since every
object the cache holds is walked by each full pass of Python's garbage collector (docs/reliability.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from data import (
    OPEN_STATUSES,
    ActionRecord,
    AiRecord,
    ChannelBusy,
    Database,
    DuplicateInteraction,
    Match,
    MatchChange,
    MatchNotFound,
    NewAction,
    PlayerStats,
    Result,
    StaleVersion,
    Status,
)
from engine import chance, registry
from engine.errors import IllegalAction, InvalidNotation
from engine.fairness import random_side
from engine.meta import ABANDON, TIMEOUT
from engine.protocol import Action, Event, Game, State, drew_or_revealed
from engine.review import Review
from play import fairness, undo
from play.errors import (
    AlreadyApplied,
    BadRequest,
    IllegalMove,
    MatchOver,
    NoMatch,
    NotAPlayer,
    NotYourTurn,
    ServiceError,
    StalePrompt,
)
from play.fairness import engine_seed
from play.ratings import Standing, level_rating, standings
from play.thinking import Thinker

DAY = 24 * 3600
DEFAULT_TURN_SECONDS = 3 * DAY
MIN_TURN_SECONDS = 60
MAX_TURN_SECONDS = 14 * DAY
CHALLENGE_TTL = DAY
QUICK_SECONDS = 6 * 3600  # the longest deadline of a quick decision (a retreat square, a negation)
SEPARATOR = ";"  # several actions in one command: "e2-e3; e4-e5xe6"
NO_GAME = "There is no game in this channel. Start one with the `challenge` command of a game."
AWAY_DAYS_A_YEAR = 30  # time away a player may take in one server in any 365 days (RULES.md)
AWAY_WINDOW = 365 * DAY
AWAY_GRACE = 3600  # a time away cut this short costs no day of the allowance
REVIEW_SECONDS = 40.0  # a look back at a finished game thinks this long at most (answered in a minute)
REVIEWS_KEPT = 64
LIVE_GAMES_KEPT = 1024  # open games kept in memory; beyond that the least recently used is re-read


def summary(events: Sequence[Event], viewer: str | None = None) -> str:
    """The events of one action as `viewer` may know them, as one readable clause list: only what
    `seen_by` lets the viewer see, in the words it gives them. Clauses are parted by semicolons: an
    event's own words may hold commas (a battle's cascade, a list of units)."""
    return "; ".join(
        t for e in events if (kept := e.seen_by(viewer)) is not None and (t := kept.text(viewer))
    )


def unseen(events: Sequence[Event]) -> bool:
    """Whether a command did something and the channel may see none of it (a standing order)."""
    return bool(events) and all(e.seen_by(None) is None for e in events)


def is_current(match: Match, version: int) -> bool:
    """Whether a prompt (a board's buttons) of `version` is still the channel's newest: nothing
    happened since, or only commands the channel does not see."""
    return version in (match.version, match.quiet_from)


def history_line(who: str, notation: str, events: Sequence[Event], viewer: str | None = None) -> str:
    """'<Side>: <what the events say>' (the events say it all; the notation alone stands in when they
    are silent, as for ending a turn, but never when `viewer` may not see them all: the notation of
    a secret action, a hidden set-up or a standing order, would tell what the events keep quiet)."""
    said = summary(events, viewer)
    if said.lower().startswith(f"the {who.lower()} "):
        return said[0].upper() + said[1:]  # the words name the side already: it is not said twice
    if said:
        return f"{who}: {said}"
    if any(e.seen_by(viewer) is None for e in events):
        return f"{who}: (something only they may see)"
    return f"{who}: {notation}"


HINTS = 12  # examples offered with a refusal, best first


def ranked_hints(rules: Game, state: State, side: str, hints: Sequence[Action]) -> list[str]:
    """The examples offered with a refusal, those a player would most want first.

    A game's refusal names a few legal actions. When they are the first few of everything legal (a
    list sorted by square, say, all back-row shuffles), they tell nothing: the whole list is taken
    instead. Either way the game's own judgement of what looks promising (`order`, which its
    search uses: moves towards the enemy, attacks) ranks them, on a position dealt from what this
    side may know, so the order cannot leak a secret."""
    if not hints:
        return []
    legal = list(state.legal_actions(side))
    pool = legal if list(hints) == legal[: len(hints)] else list(hints)
    order = getattr(rules, "order", None)
    if order is None or len(pool) < 2:
        return [str(a) for a in pool[:HINTS]]
    seeded = random.Random(0)
    ranked = order(state.view(side).determinize(seeded), side, pool, seeded)
    return [str(a) for a in ranked][:HINTS]


def reminder_lead(turn_seconds: int) -> float:
    """How long before the deadline to remind: a quarter of the turn, at most 12 hours."""
    return min(turn_seconds / 4, 12 * 3600)


def quick_seconds(turn_seconds: int) -> int:
    """The deadline of a quick decision: a quarter of a turn, at most QUICK_SECONDS, at least a minute."""
    return max(MIN_TURN_SECONDS, min(turn_seconds // 4, QUICK_SECONDS))


def game_of(match: Match) -> Game:
    """The rules of the game a match is played in."""
    return registry.game(match.game)


def split_actions(text: str) -> list[str]:
    """The actions of one command, in order: "a; b; c" (empty pieces are ignored)."""
    return [piece.strip() for piece in str(text).split(SEPARATOR) if piece.strip()]


def waiting_ids(match: Match, state: State) -> list[int]:
    """The players who owe an action now, in side order (two at once in a simultaneous set-up)."""
    return [match.sides[side] for side in sorted(state.to_act()) if side in match.sides]


def _clock_start(match: Match, state: State, now: float, aways: Mapping[int, float]) -> float:
    """When the clock of the players `state` waits for starts to count: now, or when the last of them
    who is away is back. A quick decision never waits: its automatic answer lets the other player
    go on (RULES.md)."""
    if state.quick_decision():
        return now
    return max([now, *(aways[u] for u in waiting_ids(match, state) if aways.get(u, now) > now)])


def _days(n: int) -> str:
    return f"{n} day" if n == 1 else f"{n} days"


def _run_start(rows: Sequence[ActionRecord], others: set[int]) -> int:
    """Where the trailing run of log rows played by none of `others` begins."""
    first = len(rows)
    while first > 0 and rows[first - 1].player_id not in others:
        first -= 1
    return first


def private_lines(events: Sequence[Event], side: str) -> str:
    """What only `side` learnt from these events (a drawn hand): its words where they differ from
    what the channel is told."""
    out = []
    for e in events:
        mine = e.seen_by(side)
        if mine is None or not (text := mine.text(side)):
            continue
        public = e.seen_by(None)
        if public is None or public.text(None) != text:
            out.append(text)
    return ", ".join(out)


@dataclass(frozen=True, slots=True)
class Refused:
    """The step of a command that was refused: its number, notation, the refusal's words, the kind
    of refusal and the examples offered with it."""

    n: int
    notation: str
    why: str
    kind: type[ServiceError]
    hints: list[str] = field(default_factory=list)


def partly_made(refused: Refused, texts: Sequence[str], stood: tuple[int, str], still_yours: bool) -> str:
    """What the player alone is told of a command (`texts`, its actions) that stood in part: the steps
    before `refused` were played and stand because step `stood[0]` drew chance or showed something
    hidden (`stood[1]` says which), and `refused` was not made, nor anything after it. Words the
    bot puts after "Only you see this:"; the refusal's own are the engine's, computed on the
    position the player now sees."""
    first, did = stood
    of, made = len(texts), refused.n - 1
    span = f"action 1 of {of}" if made == 1 else f"actions 1 to {made} of {of}"
    cause = "it" if made == 1 else f"action {first}"
    rest = "" if refused.n == of else f", nor anything after it ({of - refused.n} more)"
    if of - refused.n == 1:
        rest = ", nor the one after it"
    text = (
        f"only part of your command was played: {span} stood, as {cause} {did}, which is never taken "
        f"back. Action {refused.n} (`{refused.notation}`) was not made{rest}: {refused.why}"
    )
    if refused.kind is MatchOver:
        return text.rstrip(".")
    if still_yours:
        shown = ", ".join(f"`{h}`" for h in refused.hints[:4])
        text += " It is still your turn: send your next action" + (f" (legal now: {shown})" if shown else "")
        return text
    later = f"{SEPARATOR} ".join(texts[refused.n - 1 :])
    return text + f" Send `{later}` when it is your turn again, if it still fits"


@dataclass(slots=True)
class Chain:
    """What a command did on a copy of the position (`MatchService.run_chain`): the position after
    the steps that stand, each with its events, the steps left out (already answered), the step
    refused if the command stands in part, and the first step that drew chance or showed a secret
    (its number, 0 for none, and which it did)."""

    state: State
    steps: list[tuple[str, list[Event]]]
    left_out: list[str]
    refused: Refused | None
    stood: tuple[int, str]


@dataclass(frozen=True, slots=True)
class Step:
    """One action as the history tells it: who played it (their side's title), its notation, its
    events (as the state returned them) and the player (None for an action nobody chose)."""

    who: str
    notation: str
    events: list[Event]
    player_id: int | None = None

    def line(self, viewer: str | None = None) -> str:
        return history_line(self.who, self.notation, self.events, viewer)


@dataclass(slots=True)
class Played:
    """What one command did, or a stretch of commands one side played before the other had to act
    (an AI's turn: `merged`, `MatchService.stretch`): the new match row, the state, the events of
    its actions (all of them, as the state returned them: render and history pass them through
    `seen_by` for each viewer), and the line(s) for the channel. `private` holds, per side, what
    only that side learnt; `steps` each action with its events (a recap, a story: play.present)."""

    match: Match
    state: State
    events: list[Event]
    notation: str
    actor_id: int
    line: str
    private: dict[str, str] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)
    not_made: Refused | None = None  # a command that stood in part: the step refused (RULES.md)

    @property
    def over(self) -> bool:
        return self.state.is_over()

    @property
    def game(self) -> Game:
        return game_of(self.match)

    @property
    def next_player_id(self) -> int | None:
        return self.match.turn_player_id

    @property
    def waiting(self) -> list[int]:
        """Who owes an action now."""
        return waiting_ids(self.match, self.state)

    @property
    def secret(self) -> bool:
        """Nothing of this command is for the channel (a standing order): it owes no board."""
        return unseen(self.events)

    @property
    def hands_off(self) -> bool:
        """Whether the game is now the other side's (or over): the end of a stretch, whose board
        and turn ping tell the players now waiting all that happened since they last acted."""
        return self.over or self.actor_id not in self.waiting


def merged(plays: Sequence[Played]) -> Played:
    """Commands played one after another (an AI's turn, a stretch found in the log) as one: the
    position after the last, every event and step in order, what each side learnt in all of them."""
    if len(plays) == 1:
        return plays[0]
    last = plays[-1]
    events = [e for p in plays for e in p.events]
    private = {side: text for side in {s for p in plays for s in p.private} if (text := _joined(plays, side))}
    return Played(
        last.match,
        last.state,
        events,
        f"{SEPARATOR} ".join(p.notation for p in plays),
        plays[0].actor_id,
        "\n".join(p.line for p in plays if p.line),
        private,
        [step for p in plays for step in p.steps],
    )


def _joined(plays: Sequence[Played], side: str) -> str:
    return ", ".join(text for p in plays if (text := p.private.get(side)))


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One action in the history: its number in the game, the turn it was played in, its line."""

    number: int
    turn: int
    line: str
    heading: str  # the turn in the game's words ("Turn 3", "Round 2", "Set-up")


@dataclass(frozen=True, slots=True)
class OpenGame:
    """One open game (or challenge) of a player, for their list of games (`/wargames mygames`):
    the match row and who owes an action now (for a challenge, the player asked to answer it)."""

    match: Match
    waiting: tuple[int, ...]

    @property
    def due(self) -> float | None:
        """When the clock runs out (for a challenge: when it expires)."""
        return self.match.deadline if self.match.status is Status.ACTIVE else self.match.challenge_expires_at


@dataclass(frozen=True, slots=True)
class TimeAway:
    """A player's time away in one server after `away` or `back`: until when (None: back), the
    allowance left (days) and their active games there, clocks moved, whose channels are told."""

    until: float | None
    left: int  # days
    games: list[Match]
    owing: frozenset[int] = frozenset()  # ids of those games that wait on the player now


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
        outbox: bool = False,
        thinker: Thinker | None = None,
        guilds: Callable[[int], bool] | None = None,
        seeded_inputs: bool | None = None,
    ) -> None:
        """`outbox`: every stored move owes its board to the channel until `board_delivered` (the
        bot posts boards after acknowledging the move; the console draws them at once).
        `thinker`: where the AI thinks (the bot's worker processes; default: a thread).
        `guilds`: which guilds this process serves (its shards' own, docs/architecture.md); its sweep
        and its owed boards are theirs alone. None: every guild."""
        self.db = db
        self.thinker = thinker or Thinker(0)
        self._guilds = guilds
        self.outbox = outbox
        self.clock = clock
        self.rng = rng or random.Random()
        # the secret of each game's dice (play/fairness.py): from the OS, or from `rng` in tests
        self.new_secret: Callable[[], bytes] = (
            (lambda: rng.randbytes(32)) if rng else (lambda: secrets.token_bytes(32))
        )
        # The players' inputs to the dice are the ids Discord gave their interactions; a seeded run
        # (tests, benches: `rng` given) must be the same game every time, so it draws them from
        # `rng` instead, unless told otherwise.
        self.seeded_inputs = rng is not None if seeded_inputs is None else seeded_inputs
        self.challenge_ttl = challenge_ttl
        self._locks: dict[int, asyncio.Lock] = {}
        # channel id -> its open match and state (None while a challenge): see the module docstring
        self._live: OrderedDict[int, tuple[Match, State | None]] = OrderedDict()
        # channel id -> (match id, version, steps, complete): the trailing run of steps this process
        # stored since another player last acted, so a hand-off's stretch needs no replay
        # (`stretch`); complete when this process saw where it began (else the log tells)
        self._runs: OrderedDict[int, tuple[int, int, list[Step], bool]] = OrderedDict()
        self._reviews: OrderedDict[tuple[int, str], Review] = OrderedDict()  # (match id, side): the latest
        db.watch(self._changed_elsewhere)

    def _changed_elsewhere(self, change: MatchChange | None) -> None:
        """Another process stored a match (a store several processes share tells): a copy older than
        that is dropped, so the next read goes to the database; None means anything may have."""
        if change is None:
            self._live.clear()
            return
        live = self._live.get(change.channel_id)
        if live is not None and (live[0].id != change.match_id or live[0].version < change.version):
            self.forget(change.channel_id)

    def serves(self, guild_id: int) -> bool:
        """Whether this process acts on its own for this guild (deadlines, owed boards, the AI)."""
        return self._guilds is None or self._guilds(guild_id)

    def _lock(self, match_id: int) -> asyncio.Lock:
        lock = self._locks.get(match_id)
        if lock is None:
            lock = self._locks[match_id] = asyncio.Lock()
        return lock

    def _remember(self, match: Match, state: State | None = None) -> Match:
        """Record what was just stored (write-through); a game that ended leaves the memory."""
        if match.status.is_open:
            if state is None and match.snapshot is not None:
                state = game_of(match).from_json(match.snapshot)
            self._live[match.channel_id] = (replace(match, snapshot=None), state)
            self._live.move_to_end(match.channel_id)
            while len(self._live) > LIVE_GAMES_KEPT:
                self._live.popitem(last=False)
        else:
            self._live.pop(match.channel_id, None)
        return match

    def forget(self, channel_id: int) -> None:
        """Drop the in-memory copy of a channel's game, so the next read goes to the database. (Its
        run of steps stays: it names the version it ends with, so a run that another process's
        write made old is never used; and a process may hear of its own write before it returns.)"""
        self._live.pop(channel_id, None)

    def _extend_run(self, before: Match, after: Match, done: list[Step], actor_id: int | None) -> None:
        """Keep the trailing run of steps up to `after`: this command's steps, after those before it
        when they were stored just before it and played by the same player (or by nobody). A run
        whose start this process did not see (it began before a restart) is incomplete."""
        run = self._runs.get(before.channel_id)
        steps: list[Step]
        if run is None or run[:2] != (before.id, before.version):
            steps, complete = [], False  # what came before is not known here
        elif any(step.player_id not in (actor_id, None) for step in run[2]):
            steps, complete = [], True  # another player's run ended: this command begins one
        else:
            steps, complete = run[2], run[3]
        self._keep_run(after, steps + done, complete)

    def _keep_run(self, match: Match, steps: list[Step], complete: bool) -> None:
        self._runs[match.channel_id] = (match.id, match.version, steps, complete)
        self._runs.move_to_end(match.channel_id)
        while len(self._runs) > LIVE_GAMES_KEPT:
            self._runs.popitem(last=False)

    def _run_up_to(self, match: Match) -> list[Step] | None:
        """The whole trailing run of steps that ends with `match`'s version, if this process has it."""
        run = self._runs.get(match.channel_id)
        return run[2] if run is not None and run[:2] == (match.id, match.version) and run[3] else None

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
        game: str,
        side: str = "random",
        options: Mapping[str, Any] | None = None,
        turn_seconds: int | None = None,
        opponent_is_bot: bool = False,
        ai_level: str | None = None,
        entropy: int | str | None = None,
    ) -> Match:
        """Open a challenge to a game of `game`; against the AI (`ai_level` set) it starts at once.
        `entropy` is the challenger's input to the dice (the interaction's id), mixed in after the
        commitment is fixed (play/fairness.py)."""
        try:
            rules = registry.game(game)
        except registry.UnknownGame as exc:
            raise BadRequest(str(exc)) from None
        if challenger_id == opponent_id:
            raise BadRequest(
                "You cannot challenge yourself. Pick another player, or challenge me for an AI game."
            )
        if opponent_is_bot and ai_level is None:
            raise BadRequest("Bots cannot play. Challenge a person, or challenge me to play the AI.")
        side = side.strip().lower()
        names = [s.name for s in rules.sides]
        if side not in ("random", *names):
            raise BadRequest(f"Side must be {names[0]}, {names[1]} or random.")
        if ai_level is not None and ai_level not in rules.ai.names:
            raise BadRequest(f"The AI levels of {rules.title} are {', '.join(rules.ai.names)}.")
        try:
            chosen = rules.normalise_options(options or {})
        except ValueError as exc:
            raise BadRequest(str(exc)) from None
        turn = DEFAULT_TURN_SECONDS if turn_seconds is None else int(turn_seconds)
        if not MIN_TURN_SECONDS <= turn <= MAX_TURN_SECONDS:
            raise BadRequest("Time per turn must be between 1 minute and 14 days.")
        now = self.clock()
        secret = self.new_secret()
        try:
            match = await self.db.create_challenge(
                guild_id=guild_id,
                channel_id=channel_id,
                challenger_id=challenger_id,
                opponent_id=opponent_id,
                seed=self.rng.getrandbits(62),
                turn_seconds=turn,
                challenge_expires_at=now + self.challenge_ttl,
                game=rules.name,
                options=chosen,
                challenger_side=side,
                ai_player_id=opponent_id if ai_level else None,
                ai_level=ai_level,
                now=now,
                chance_version=chance.VERSION,
                seed_secret=secret.hex(),
                seed_commitment=chance.commitment(secret),
                seed_inputs=json.dumps([f"challenge:{self._input(entropy)}"]),
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

    def _input(self, entropy: int | str | None) -> int | str:
        """A player's input to the dice as stored: their interaction's id (`-` where there is none,
        as in the console), or a number from `rng` in a seeded run."""
        if self.seeded_inputs:
            return self.rng.getrandbits(63)
        return "-" if entropy is None else entropy

    async def accept(
        self, channel_id: int, user_id: int, match_id: int | None = None, *, entropy: int | str | None = None
    ) -> Match:
        """The challenged player accepts; `entropy` (the click's id) is their input to the dice."""
        match = await self._open_match(channel_id, match_id)
        if match.status is not Status.CHALLENGED:
            raise BadRequest("This game has already started.")
        if user_id == match.challenger_id:
            raise NotAPlayer(f"You made this challenge: wait for <@{match.opponent_id}> to accept it.")
        if user_id != match.opponent_id:
            raise NotAPlayer(f"Only <@{match.opponent_id}> can accept this challenge.")
        async with self._lock(match.id):
            return await self._start(await self._reread(match), self.clock(), entropy)

    async def _start(self, match: Match, now: float, entropy: int | str | None = None) -> Match:
        rules = game_of(match)
        names = [s.name for s in rules.sides]
        if match.chance_version == 2 and match.ai_player_id is None:
            match = replace(match, seed_inputs=fairness.with_input(match, "accept", self._input(entropy)))
        seed = fairness.engine_seed(match)
        wanted = match.challenger_side
        if wanted == "random":
            if match.chance_version == 2:  # drawn from the committed seed, so it can be checked too
                wanted = random_side(seed, names)
            else:
                wanted = random.Random(match.seed).choice(names)
        other = names[1] if wanted == names[0] else names[0]
        sides = {wanted: match.challenger_id, other: match.opponent_id}
        state = rules.new_game(match.options, seed)
        waiting = waiting_ids(replace(match, sides=sides), state)
        clock = await self._new_clock(replace(match, sides=sides), state, now)
        try:
            started = await self.db.start_match(
                match.id,
                expected_version=match.version,
                seed_inputs=match.seed_inputs,
                now=now,
                status=Status.ACTIVE,
                sides=sides,
                snapshot=state.to_json(),
                turn_player_id=waiting[0] if waiting else None,
                challenge_expires_at=None,
                **clock,
            )
        except StaleVersion:
            self.forget(match.channel_id)
            raise StalePrompt("This challenge was already answered.") from None
        self._keep_run(started, [], complete=True)  # nothing played yet: every run starts here
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
            raise NoMatch(NO_GAME)
        return found[0], game_of(found[0]).from_json(found[0].snapshot)

    async def legal(self, channel_id: int, user_id: int) -> list[str]:
        """What `user_id` may play now (empty when they owe nothing): for autocomplete and buttons."""
        try:
            match, state = await self.current(channel_id)
        except NoMatch:
            return []
        side = match.side_of(user_id)
        if side is None or side not in state.to_act():
            return []
        return [str(a) for a in state.legal_actions(side)]

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
        """Apply one command for `user_id`: a move, a decision, a set-up, resign, a draw action, or
        several actions separated by ";", applied in order (RULES.md, "One command, several
        actions"): a refused step refuses the whole command, the game unchanged, unless an earlier
        step drew chance or brought a secret into the open (`drew_or_revealed`); then the steps
        before the refused one stand and the reply (`Played.not_made`, and the actor's private
        note) says which step was not made and why, worded on the position they now see.

        `expected_version` comes from a button's custom_id: if the game moved on since the button
        was posted, the click is refused rather than applied to a different position.
        """
        texts = split_actions(notation)
        if not texts:
            raise IllegalMove("Give an action (several may be separated by ;).")
        match = await self._open_match(channel_id, match_id)
        rules = game_of(match)
        live = self._live.get(channel_id)
        side = match.side_of(user_id)
        try:
            actions = self.parse_command(rules, live[1] if live is not None else None, side, texts)
        except IllegalMove:
            await self._refuse_if_not_their_turn(match, user_id)
            raise
        async with self._lock(match.id):
            match = await self._reread(match)
            live = self._live.get(channel_id)
            if not match.status.is_open:
                raise MatchOver("This game is over.")
            if match.status is Status.CHALLENGED or live is None or live[1] is None:
                raise NoMatch("The challenge has not been accepted yet.")
            side = match.side_of(user_id)
            if side is None:
                raise NotAPlayer("You are not playing in this game; only its two players can act.")
            if expected_version is not None and not is_current(match, expected_version):
                raise StalePrompt("This prompt is out of date: the game has moved on. Use the newest board.")
            before = live[1]
            quick_before = before.quick_decision()
            chain = self.run_chain(match, rules, before, side, actions)
            state, steps, refused = chain.state, chain.steps, chain.refused
            played = await self._commit(
                match, state, steps, user_id, interaction_id, before_commit, quick_before=quick_before
            )
            notes = []
            if chain.left_out:
                words = f"{SEPARATOR} ".join(chain.left_out)
                notes.append(f"`{words}` was left out: your command had already answered the question")
            if refused is not None:
                played.not_made = refused
                notes.append(
                    partly_made(refused, [str(a) for a in actions], chain.stood, side in state.to_act())
                )
            for note in notes:
                played.private[side] = f"{played.private[side]}; {note}" if side in played.private else note
            return played

    async def undo(
        self,
        channel_id: int,
        user_id: int,
        *,
        interaction_id: int | None = None,
        expected_version: int | None = None,
    ) -> tuple[Match, State, str]:
        """Take back `user_id`'s last step of this turn (play/undo.py has the rule): an `undo` entry
        appended to the log, the position before the step stored. Returns the match, the position
        and the step taken back; refusals say why, and change nothing."""
        match = await self._open_match(channel_id)
        async with self._lock(match.id):
            match = await self._reread(match)
            live = self._live.get(channel_id)
            if match.status is Status.CHALLENGED or live is None or live[1] is None:
                raise NoMatch("The challenge has not been accepted yet.")
            if expected_version is not None and not is_current(match, expected_version):
                raise StalePrompt("This button is out of date: the game has moved on. Use the newest board.")
            rows = undo.effective([r for r in await self.db.actions(match.id) if r.version <= match.version])
            back = undo.take_back(match, game_of(match), engine_seed(match), rows, live[1], user_id)
            waiting = waiting_ids(match, back.state)
            try:
                updated = await self.db.commit_action(
                    match.id,
                    expected_version=match.version,
                    actions=[NewAction(undo.UNDO, user_id)],
                    interaction_id=interaction_id,
                    now=self.clock(),
                    snapshot=back.state.to_json(),
                    turn_player_id=waiting[0] if waiting else None,
                )
            except BaseException as exc:
                self.forget(channel_id)
                if isinstance(exc, DuplicateInteraction):
                    raise AlreadyApplied("That was already taken back.") from None
                if isinstance(exc, StaleVersion):
                    raise StalePrompt("The game moved on meanwhile; nothing was taken back.") from None
                raise
            self._runs.pop(channel_id, None)  # the stretch a hand-off shows is read from the log now
            self._remember(updated, back.state.clone())
            return updated, back.state, back.notation

    @classmethod
    def run_chain(
        cls, match: Match, rules: Game, before: State, side: str, actions: Sequence[Action]
    ) -> Chain:
        """A command's actions played in order for `side` on a copy of `before` (RULES.md, "One
        command, several actions"). A refused step refuses the whole command (the error is
        raised, nothing changed) unless an earlier step drew chance or showed a secret
        (`drew_or_revealed`): then the steps before it stand, and the chain says which was not
        made. Pure: the fair-chance tests play twin positions through it (tests/test_fair_chance.py)."""
        state = before.clone()
        steps: list[tuple[str, list[Event]]] = []
        left_out: list[str] = []
        committed = False  # a step drew chance or revealed a secret: the steps made so far stand
        stood = (0, "")  # the first such step, and what it did
        refused: Refused | None = None
        for n, action in enumerate(actions, 1):
            if state.is_over():
                refused = Refused(n, str(action), "the game ended before this action.", MatchOver)
                break
            if not action.anytime and side not in state.to_act():
                if n > 1 and cls._answered_already(before, side, actions[: n - 1], action):
                    left_out.append(str(action))
                    continue
                if n == 1:
                    raise NotYourTurn(cls._waiting_for(match, rules, state))
                # the command's own first steps handed the game to the other side
                refused = Refused(n, str(action), cls._owed_first(match, rules, state, n), NotYourTurn)
                break
            drawn = state.chance_drawn()
            try:
                done = list(state.apply(action, side))
            except IllegalAction as exc:
                hints = ranked_hints(rules, state, side, exc.legal)
                refused = Refused(n, str(action), str(exc), IllegalMove, hints)
                break
            steps.append((str(action), done))
            if not committed and drew_or_revealed(drawn, state.chance_drawn(), done):
                committed = True
                stood = (n, "drew chance" if state.chance_drawn() != drawn else "showed something hidden")
        if refused is not None and not committed:
            # Nothing drew chance or showed a secret: the command is refused whole, the game
            # unchanged, in words computed from what the player could see (RULES.md).
            if refused.kind is NotYourTurn:
                raise NotYourTurn(cls._must_wait(match, rules, state, [str(a) for a in actions], refused.n))
            raise IllegalMove(cls._step(refused.n, len(actions), refused.why), refused.hints)
        return Chain(state, steps, left_out, refused, stood)

    @staticmethod
    def _answered_already(before: State, side: str, earlier: Sequence[Action], action: Action) -> bool:
        """Whether `action` was this side's answer to a quick question it owed when the command
        began, and the command's earlier, any-time steps (a standing order) answered it instead."""
        if not (before.quick_decision() and side in before.to_act()):
            return False
        if not earlier or not all(a.anytime for a in earlier):
            return False
        return str(action) in {str(a) for a in before.legal_actions(side)}

    async def _refuse_if_not_their_turn(self, match: Match, user_id: int) -> None:
        """Whoever is not owed an action hears that first: it is more useful than a notation error."""
        live = self._live.get(match.channel_id)
        side = match.side_of(user_id)
        if live is None or live[1] is None or side is None or match.status is not Status.ACTIVE:
            return
        state = live[1]
        if side not in state.to_act() and not state.is_over():
            raise NotYourTurn(self._waiting_for(match, game_of(match), state))

    @staticmethod
    def _step(n: int, of: int, why: str) -> str:
        """A refusal of one action of a command of several says which one; nothing was played."""
        if of == 1:
            return why
        return f"Action {n} of {of}: {why} Nothing was played."

    @classmethod
    def parse_command(
        cls, rules: Game, before: State | None, side: str | None, texts: list[str]
    ) -> list[Action]:
        """Each action of a command parsed once, before anything is played: with `Game.parse_in` in
        the position where it would be played, so that a refusal offers only examples accepted
        there. That position never lies beyond a step that would draw chance or show a secret, nor
        an illegal one: from there on (or when the game is not in memory, or for a non-player) a
        bad action gets the parser's plain words, which depend on nothing drawn (RULES.md). Pure:
        the fair-chance tests call it too."""
        actions: list[Action] = []
        state = before if side is not None else None  # the position of the next action, if known
        for n, text in enumerate(texts, 1):
            try:
                if state is None or side is None:
                    action = rules.parse(text)
                else:
                    action = rules.parse_in(text, state, side)
            except InvalidNotation as exc:
                raise IllegalMove(cls._step(n, len(texts), str(exc))) from None
            actions.append(action)
            if state is not None and side is not None and n < len(texts):
                state = state.clone() if state is before else state
                drawn = state.chance_drawn()
                try:
                    done = state.apply(action, side)
                except IllegalAction:
                    state = None  # the command is refused at this step anyway: plain words after it
                else:
                    if drew_or_revealed(drawn, state.chance_drawn(), done):
                        state = None
        return actions

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

    # ------------------------------------------------------------------ time away

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
            can = f"you can be away for {_days(left)} at most now" if left else "you have none left now"
            raise BadRequest(
                f"Time away is at most {AWAY_DAYS_A_YEAR} days in any 365. You took {_days(taken)} of "
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

    async def _commit(
        self,
        match: Match,
        state: State,
        steps: list[tuple[str, list[Event]]],
        actor_id: int | None,
        interaction_id: int | None,
        before_commit: Callable[[], Any] | None = None,
        *,
        quick_before: bool = False,
    ) -> Played:
        rules = game_of(match)
        now = self.clock()
        changes: dict[str, Any] = {"snapshot": state.to_json()}
        events = [e for _, done in steps for e in done]
        # A command the channel does not see keeps the channel's board current (its buttons too).
        if unseen(events):
            changes["quiet_from"] = match.version if match.quiet_from is None else match.quiet_from
        elif match.quiet_from is not None:
            changes["quiet_from"] = None
        result: Result | None = None
        outcome = state.outcome()
        if outcome is not None:
            winner = outcome.winner
            result = Result(
                winner_id=match.sides[winner] if winner else None,
                reason=outcome.detail,
                ai_rating=level_rating(rules, match.ai_level) if match.ai_level else None,
            )
        else:
            waiting = waiting_ids(match, state)
            next_id = waiting[0] if waiting else None
            changes["turn_player_id"] = next_id
            # A new player's clock starts, and so does one for a quick decision (and after it).
            if next_id != match.turn_player_id or state.quick_decision() != quick_before:
                changes.update(await self._new_clock(match, state, now))
        try:
            updated = await self.db.commit_action(
                match.id,
                expected_version=match.version,
                actions=[NewAction(text, actor_id) for text, _ in steps],
                interaction_id=interaction_id,
                result=result,
                now=now,
                before_commit=before_commit,
                owe_board=self.outbox,
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
        side = match.side_of(actor_id) if actor_id is not None else None
        who = rules.side(side).title if side else "?"
        done = [Step(who, text, happened, actor_id) for text, happened in steps]
        self._extend_run(match, updated, done, actor_id)
        return self._played(updated, state, done, actor_id)

    @classmethod
    def _must_wait(cls, match: Match, rules: Game, state: State, texts: list[str], n: int) -> str:
        """A command whose step `n` comes after the other side must answer (a retreat square, a
        negation): what to send now and what after, so nobody has to work it out."""
        owed = " and ".join(f"the {rules.side(s).title}" for s in sorted(state.to_act()))
        now, later = f"{SEPARATOR} ".join(texts[: n - 1]), f"{SEPARATOR} ".join(texts[n - 1 :])
        return (
            f"Action {n} of {len(texts)} (`{texts[n - 1]}`) cannot be played yet: after action {n - 1} "
            f"{owed} must act first. Nothing was played. Send `{now}` now, then `{later}` when it is "
            f"your turn again.\nWhat they are asked: {cls._owed(match, rules, state)}"
        )

    @classmethod
    def _owed_first(cls, match: Match, rules: Game, state: State, n: int) -> str:
        """Why step `n` of a command that stands in part cannot be made: the other side owes an
        answer first (a retreat square, a negation)."""
        owed = " and ".join(f"the {rules.side(s).title}" for s in sorted(state.to_act()))
        asked = cls._owed(match, rules, state)
        return f"after action {n - 1} {owed} must act first. What they are asked: {asked}"

    @classmethod
    def _waiting_for(cls, match: Match, rules: Game, state: State) -> str:
        """Whom the game waits for, in the game's own words (`Game.status`)."""
        return f"It is not your turn to act: {cls._owed(match, rules, state)}"

    @staticmethod
    def _owed(match: Match, rules: Game, state: State) -> str:
        public = state.view(None)
        return " ".join(
            rules.status(public, side).replace("{player}", f"<@{match.sides[side]}>")
            for side in sorted(state.to_act())
        )

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
            raise NoMatch(NO_GAME)
        return match

    # ------------------------------------------------------------------ AI

    async def ai_turns(self, channel_id: int, *, budget_s: float | None = None) -> list[Played]:
        """Let the AI play every action it owes now (its turn and the decisions it owes), in the
        channel's game as it was when it began. If that game ends while the AI thinks (its opponent
        resigned, an admin cancelled it), the AI stops there, quietly: what it stored before is
        returned, for the channel must still see it (`ended`)."""
        played: list[Played] = []
        pinned: int | None = None
        for _ in range(256):
            try:
                match, state = await self.current(channel_id)
            except NoMatch:
                break
            if pinned is not None and match.id != pinned:
                break  # its game ended and another began meanwhile: that one schedules its own AI
            pinned = match.id
            ai_id = match.ai_player_id
            side = match.side_of(ai_id) if ai_id is not None else None
            if ai_id is None or side is None or side not in state.to_act():
                break
            rules = game_of(match)
            view = state.view(side)  # the AI sees what its side may know, nothing more
            seed = match.seed ^ (match.version * 7919)
            level = match.ai_level or rules.ai.default
            notation = await self.thinker.choose(match.game, view, level, seed, budget_s)
            try:
                played.append(
                    await self.act(
                        channel_id, ai_id, notation, expected_version=match.version, match_id=match.id
                    )
                )
            except StalePrompt:
                continue  # the game moved on (or ended, or is another) while it thought: look again
            except (NoMatch, MatchOver):
                break  # the game ended while the AI thought
        return played

    async def ai_answers_draw(self, channel_id: int) -> Played | None:
        """The AI's answer to a draw offer made to it: it accepts when its judgement of the position
        (`Game.accepts_draw`, from its own view) says it is not ahead."""
        try:
            match, state = await self.current(channel_id)
        except NoMatch:
            return None
        ai_id = match.ai_player_id
        side = match.side_of(ai_id) if ai_id is not None else None
        if ai_id is None or side is None or state.is_over():
            return None
        accept = await self.thinker.accepts_draw(match.game, state.view(side), match.seed ^ match.version)
        try:
            return await self.act(
                channel_id,
                ai_id,
                "accept draw" if accept else "decline draw",
                expected_version=match.version,
                match_id=match.id,
            )
        except (StalePrompt, IllegalMove, NotYourTurn, NoMatch, MatchOver):
            return None  # the offer was withdrawn or answered meanwhile, or the game ended

    async def ended(self, match: Match) -> tuple[Match, State | None] | None:
        """If `match` ended after this row of it was read (resigned, cancelled, lost on time while a
        background job worked on it): its final row and position (None for a game cancelled before
        it began); None while it goes on. A job that outlives its game uses this to tell the
        channel what it did as something played before the end, not as the game's current board."""
        live = self._live.get(match.channel_id)
        if live is not None and live[0].id == match.id:
            return None  # kept in memory only while open
        try:
            fresh = await self.db.get_match(match.id)
        except MatchNotFound:
            return replace(match, status=Status.CANCELLED), None
        if fresh.status.is_open:
            return None
        state = game_of(fresh).from_json(fresh.snapshot) if fresh.snapshot is not None else None
        return fresh, state

    # ------------------------------------------------------------------ looking back

    async def review(
        self, channel_id: int, user_id: int, match_id: int | None = None, *, budget_s: float = REVIEW_SECONDS
    ) -> tuple[Match, Review]:
        """The look back at the channel's last game (or match `match_id`, from its final board) for
        `user_id`: where their choices cost most by the AI's judgement (`engine.review`). Only once the
        game is over (before, it would be advice), and only a player's own choices."""
        if match_id is not None:
            try:
                match = await self.db.get_match(match_id)
            except MatchNotFound:
                raise NoMatch("That game is no longer stored.") from None
        else:
            match, _ = await self.latest(channel_id)
        side = match.side_of(user_id)
        if side is None or user_id == match.ai_player_id:  # first: an outsider is told what holds always
            raise NotAPlayer("Only the two players can look back at a game, each at their own choices.")
        if match.status is not Status.FINISHED:
            if match.status.is_open:
                raise BadRequest(
                    "The look back comes when the game is over: during it, it would be advice. "
                    "Ask again after the last move."
                )
            raise NoMatch("That game was never played to an end, so there is nothing to look back at.")
        key = (match.id, side)
        found = self._reviews.get(key)
        if found is None:  # a finished game's look back never changes: asked twice, it is thought once
            log = [(s, notation) for s, notation, _ in await self.log(match)]
            found = await self.thinker.review(
                match.game, match.options, engine_seed(match), log, side, budget_s
            )
            self._reviews[key] = found
            while len(self._reviews) > REVIEWS_KEPT:
                self._reviews.popitem(last=False)
        self._reviews.move_to_end(key)
        return match, found

    # ------------------------------------------------------------------ reading

    async def log(self, match: Match) -> list[tuple[str, str, int | None]]:
        """The action log as (side, notation, player id)."""
        rows = undo.effective(await self.db.actions(match.id))
        first = game_of(match).sides[0].name
        out = []
        for row in rows:
            side = match.side_of(row.player_id) if row.player_id is not None else None
            out.append((side or first, row.notation, row.player_id))
        return out

    async def replayed(self, match: Match) -> tuple[State, list[list[Event]], list[tuple[str, str]]]:
        """Seed + log, replayed: the final state, the events of every action, and the log."""
        rules = game_of(match)
        state = rules.new_game(match.options, engine_seed(match))
        per_action: list[list[Event]] = []
        log = [(side, notation) for side, notation, _ in await self.log(match)]
        for side, notation in log:
            per_action.append(list(state.apply(rules.parse(notation), side)))
        return state, per_action, log

    async def last_events(self, match: Match) -> list[Event]:
        """What the latest stretch did (`latest_stretch`), for re-drawing the board with its
        highlights."""
        found = await self.latest_stretch(match)
        return found.events if found is not None else []

    async def latest_stretch(self, match: Match) -> Played | None:
        """The position of `match` and the stretch that led to it: every action since a player other
        than the latest one acted (an AI's whole turn, a turn of several commands). What a board
        owed since a crash shows; None before the first action."""
        if match.snapshot is None:
            return None
        state = game_of(match).from_json(match.snapshot)
        steps = self._run_up_to(match)
        if steps:
            return self._played(match, state, steps, steps[-1].player_id)
        rows = undo.effective([r for r in await self.db.actions(match.id) if r.version <= match.version])
        if not rows:
            return None
        actor = rows[-1].player_id
        first = _run_start(rows, {p for p in match.players if p != actor})
        steps = self._replayed_steps(match, rows, first, len(rows))
        return self._played(match, state, steps, actor)

    async def stretch(self, played: Played) -> Played:
        """`played` with the commands before it since any other player last acted: at a hand-off,
        the whole stretch the players now waiting have not seen acted out (a turn played as several
        commands, an AI turn resumed after a restart). The game is replayed only when there are
        such commands; most hand-offs are a single command."""
        match = played.match
        if not played.steps:
            return played
        run = self._run_up_to(match)
        if run is not None and len(run) >= len(played.steps):  # stored here: no replay
            earlier = run[: len(run) - len(played.steps)]
            if not earlier:
                return played
            return merged([self._played(match, played.state, earlier, played.actor_id), played])
        rows = undo.effective([r for r in await self.db.actions(match.id) if r.version <= match.version])
        start = len(rows) - len(played.steps)
        first = _run_start(rows[: max(start, 0)], {p for p in match.players if p != played.actor_id})
        if start <= 0 or first == start:
            return played
        try:
            steps = self._replayed_steps(match, rows, first, start)
        except ValueError:  # a log that does not replay (a position set by hand): the command alone
            return played
        return merged([self._played(match, played.state, steps, played.actor_id), played])

    @staticmethod
    def _replayed_steps(match: Match, rows: Sequence[ActionRecord], first: int, end: int) -> list[Step]:
        """The steps of log rows `first` to `end` (not included), replayed from the seed."""
        rules = game_of(match)
        state = rules.new_game(match.options, engine_seed(match))
        opening = rules.sides[0].name
        out = []
        for n, row in enumerate(rows[:end]):
            side = match.side_of(row.player_id) if row.player_id is not None else None
            events = list(state.apply(rules.parse(row.notation), side or opening))
            if n >= first:
                out.append(Step(rules.side(side).title if side else "?", row.notation, events, row.player_id))
        return out

    @staticmethod
    def _played(match: Match, state: State, steps: list[Step], actor_id: int | None) -> Played:
        """A `Played` of these steps (what a command, or a stretch of them, did)."""
        rules = game_of(match)
        events = [e for step in steps for e in step.events]
        return Played(
            match,
            state,
            events,
            f"{SEPARATOR} ".join(step.notation for step in steps),
            actor_id or 0,
            "\n".join(step.line() for step in steps),
            {s.name: p for s in rules.sides if (p := private_lines(events, s.name))},
            steps,
        )

    async def history(self, channel_id: int, limit: int = 20, viewer: str | None = None) -> list[str]:
        """The latest actions as lines, as `viewer` (None: the channel) may read them."""
        return [entry.line for entry in await self.history_entries(channel_id, limit, viewer)]

    async def history_entries(
        self, channel_id: int, limit: int = 20, viewer: str | None = None
    ) -> list[HistoryEntry]:
        """The latest actions, numbered from the game's first, with the turn each was played in."""
        match, _ = await self.latest(channel_id)
        rules = game_of(match)
        state = rules.new_game(match.options, engine_seed(match))
        entries = []
        for number, (side, notation, _) in enumerate(await self.log(match), 1):
            turn = state.turn_number()
            events = state.apply(rules.parse(notation), side)
            line = history_line(rules.side(side).title, notation, events, viewer)
            heading = "Set-up" if turn == 0 else f"{rules.turn_label} {turn}"
            entries.append(HistoryEntry(number, turn, line, heading))
        return entries[-limit:] if limit > 0 else entries

    async def open_games(self, guild_id: int, user_id: int) -> list[OpenGame]:
        """Every open game and challenge of `user_id` in a guild, any game: those waiting on them
        first, then the soonest due."""
        found = await self.db.list_matches(guild_id=guild_id, player_id=user_id, statuses=OPEN_STATUSES)
        games = []
        for match in found:
            if match.status is Status.CHALLENGED:
                waiting: tuple[int, ...] = (match.opponent_id,)
            else:
                live = self._live.get(match.channel_id)
                if live is not None and live[0].id == match.id and live[1] is not None:
                    state = live[1]
                elif match.snapshot is not None:
                    state = game_of(match).from_json(match.snapshot)
                else:
                    continue
                waiting = tuple(waiting_ids(match, state))
            games.append(OpenGame(match, waiting))
        games.sort(key=lambda g: (user_id not in g.waiting, g.due is None, g.due or 0.0, g.match.id))
        return games

    async def stats(self, guild_id: int, game: str, user_id: int) -> PlayerStats:
        return await self.db.player_stats(guild_id, game, user_id)

    async def leaderboard(
        self, guild_id: int, game: str, limit: int = 10, *, ai_user_id: int | None = None
    ) -> list[Standing]:
        """The best players of `game` here, and the AI (`ai_user_id`) at each level it played, at
        that level's rating (`play.ratings`)."""
        players = await self.db.leaderboard(guild_id, game, limit + 1)
        records = [(r.level, r.wins, r.losses, r.draws) for r in await self.db.ai_records(guild_id, game)]
        return standings(registry.game(game), players, ai_user_id, records, limit)

    async def ai_records(self, guild_id: int, game: str) -> list[AiRecord]:
        """The AI's record per level in `game` here."""
        return await self.db.ai_records(guild_id, game)

    # ------------------------------------------------------------------ the outbox

    async def board_delivered(self, match_id: int, version: int) -> None:
        """The channel has the board of this version (or a newer one): it is owed no more."""
        await self.db.board_delivered(match_id, version)

    async def owed_boards(self, older_than: float = 0.0) -> list[tuple[int, int, int]]:
        """(match id, newest owed version, channel id) of boards owed for `older_than` seconds."""
        return await self.db.owed_boards(self.clock() - older_than, guilds=self._guilds)

    # ------------------------------------------------------------------ clocks

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
            notices.append(Notice("expired", done, match.challenger_id, "The challenge expired unanswered."))
        for match in await self.db.due_deadlines(now):
            if not self.serves(match.guild_id):
                continue
            notice = await self._forfeit(match, now)
            if notice is not None:
                notices.append(notice)
        for match in await self.db.due_reminders(now):
            if not self.serves(match.guild_id):
                continue
            if match.turn_player_id is None or not await self.db.mark_reminded(match.id, match.version):
                continue
            when = f"<t:{int(match.deadline or now)}:R>"
            owed = [match.turn_player_id]
            if match.snapshot is not None:
                owed = waiting_ids(match, game_of(match).from_json(match.snapshot)) or owed
            for user in owed:
                notices.append(Notice("reminder", match, user, f"<@{user}>, your move is due {when}."))
        return notices

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
            steps: list[tuple[str, list[Event]]] = []
            late = match.sides[owed[0]]
            if quick_before:
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
            try:
                played = await self._commit(match, state, steps, late, None, quick_before=quick_before)
            except StalePrompt:
                return None
        if not state.is_over():
            who = " and ".join(f"<@{match.sides[s]}>" for s in owed)
            return Notice(
                "default", played.match, late, f"{who} did not answer in time: {played.line}", played
            )
        if len(owed) > 1 and not quick_before:
            text = "Neither player acted in time: the game ends without a winner."
        else:
            text = f"<@{late}> ran out of time and loses the game."
        return Notice("forfeit", played.match, late, text, played)

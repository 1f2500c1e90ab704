"""What the match service hands back and the small rules it shares: a move's steps and what
they did (`Played`), notices, open games, time away; deadlines, hints and the history line."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from data import (
    ActionRecord,
    GameClock,
    Match,
    Status,
)
from engine import registry
from engine.meta import ABANDON, DRAW_DECLINE, TIMEOUT, DrawDecline, DrawOffer, MetaAction
from engine.protocol import Action, Event, Game, State
from play.errors import (
    ServiceError,
)
from play.stamps import Stamp, denotes
from play.words import history_line, unseen

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
CHANNEL_VIEWS_KEPT = 256  # channels' views of private turns kept (`Reading.channel_view`)
LIVE_GAMES_KEPT = 1024  # open games kept in memory; beyond that the least recently used is re-read


def is_current(match: Match, version: Stamp) -> bool:
    """Whether a prompt (a board's buttons) of `version` (a number, or the stamp its custom_id
    carries: play/stamps.py) is still the channel's newest: nothing happened since, or only commands
    the channel does not see."""
    return any(denotes(match, version, v) for v in (match.version, match.quiet_from))


HINTS = 12  # examples offered with a refusal, best first
HINTS_PER_KIND = 2  # of each kind of action (each verb), before a third of any


def ranked_hints(rules: Game, state: State, side: str, hints: Sequence[Action]) -> tuple[list[str], int]:
    """The examples offered with a refusal, those a player would most want first, and how many
    there are in all to choose them from (the examples are at most `HINTS` of them).

    A game's refusal names a few legal actions. When they are the first few of everything legal (a
    list sorted by square, say, all back-row shuffles), they tell nothing: the whole list is taken
    instead. Either way the game's own judgement of what looks promising (`order`, which its
    search uses: moves towards the enemy, attacks) ranks them, on a position dealt from what this
    side may know, so the order cannot leak a secret. Then `spread` keeps one kind from filling
    the list: twelve marches hide the `fight` and `end` a stuck player is looking for."""
    if not hints:
        return [], 0
    legal = list(state.legal_actions(side))
    pool = legal if list(hints) == legal[: len(hints)] else list(hints)
    view = state.view(side)
    order = getattr(rules, "order", None)
    if order is not None and len(pool) > 1:
        seeded = random.Random(0)
        pool = order(view.determinize(seeded), side, pool, seeded)
    chosen = spread(pool, lambda a: rules.verb_of(view, a), lambda a: rules.group_of(view, a))
    return [str(a) for a in chosen], len(pool)


def unread_hints(rules: Game, state: State | None, side: str | None) -> tuple[list[str], int]:
    """What may be played now, offered with words the game cannot read whose examples only teach
    its notation (they may all be illegal here), as an illegal action's refusal offers it; nothing
    where the position is not known or `side` is not to act."""
    if state is None or side is None or side not in state.to_act():
        return [], 0
    return ranked_hints(rules, state, side, state.legal_actions(side))


def spread(
    ranked: Sequence[Action],
    kind_of: Callable[[Action], str],
    piece_of: Callable[[Action], object] = lambda a: None,
    count: int = HINTS,
) -> list[Action]:
    """`count` of `ranked` (best first) that show every kind of action: the best of each kind, then
    the second best of each (`HINTS_PER_KIND`), then the rest by rank. Every start of the list is a
    spread too, as Discord shows eight and a half-made command four. Within a kind, each piece
    (`piece_of`: the unit, card or front an action belongs to) offers its best before any offers a
    second, so nine moves of one tank do not hide the other units."""
    seen: dict[tuple[str, object], int] = {}
    keyed = []  # (how many of its kind and piece rank above it, its rank, its kind)
    for n, action in enumerate(ranked):
        key = (kind_of(action), piece_of(action))
        keyed.append((seen.get(key, 0), n, key[0]))
        seen[key] = seen.get(key, 0) + 1
    kinds: dict[str, list[int]] = {kind: [] for _, _, kind in keyed}  # the best action's kind first
    for _, n, kind in sorted(keyed):
        kinds[kind].append(n)
    firsts = [of_kind[r] for r in range(HINTS_PER_KIND) for of_kind in kinds.values() if r < len(of_kind)]
    taken = set(firsts)
    rest = [n for _, n, _ in sorted(keyed) if n not in taken]
    return [ranked[n] for n in (firsts + rest)[:count]]


def reminder_lead(turn_seconds: float) -> float:
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


def draw_waits(match: Match, state: State, side: str, actions: Sequence[Action]) -> bool:
    """Whether a draw offered or declined by `side` waits for the other player's hand-off: always
    while a person takes their turn and `side` is not to act, whether or not that turn has begun,
    so the answer tells nothing of it (RULES.md, "Your turn is yours"). The AI's turn is never
    private: an offer made while it thinks is weighed at once. A board shows a Decline button only
    where this lets it through (`declines_now`)."""
    if state.is_over() or side in state.to_act() or match.sides[side] == match.ai_player_id:
        return False  # the AI's own answer is the AI's business (play/ai_turns.py)
    if not any(isinstance(a, DrawOffer | DrawDecline) for a in actions):
        return False
    return any(match.sides[s] != match.ai_player_id for s in state.to_act())


def declines_now(match: Match, state: State, user_id: int) -> bool:
    """Whether `user_id`'s decline of a draw offer goes through at `state` (the position the channel
    saw), rather than waiting for their own turn: what a board's answers offer them."""
    side = match.side_of(user_id)
    return side is not None and not draw_waits(match, state, side, [DRAW_DECLINE])


def _clock_start(match: Match, state: State, now: float, aways: Mapping[int, float]) -> float:
    """When the clock of the players `state` waits for starts to count: now, or when the last of them
    who is away is back. A quick decision never waits: its automatic answer lets the other player
    go on (RULES.md)."""
    if state.quick_decision():
        return now
    return max([now, *(aways[u] for u in waiting_ids(match, state) if aways.get(u, now) > now)])


def clock_left(clock: GameClock, user_id: int) -> float:
    """What was left on a player's game clock when it last stopped (seconds)."""
    return clock.left.get(user_id, float(clock.total))


def game_clock_left(match: Match, user_id: int, now: float) -> float | None:
    """What is left on a player's game clock now (seconds), counting a running clock down from when
    it began to run; None for a match without a game clock."""
    clock = match.game_clock
    if clock is None:
        return None
    left = clock_left(clock, user_id)
    if user_id in clock.running and clock.since is not None:
        left -= max(0.0, now - clock.since)
    return max(0.0, left)


def clock_limits(match: Match, user_id: int) -> float | None:
    """What was left on the game clock of `user_id` when their turn began, if that, rather than the
    turn's own deadline, sets when it is due (their clock runs now and ends first: it holds less
    than a turn, or time away moved the turn's deadline past it); else None. Counted from the
    turn's start, it never goes stale in a message posted then."""
    clock = match.game_clock
    if clock is None or user_id not in clock.running:
        return None
    left = clock_left(clock, user_id)
    if clock.since is not None and match.deadline is not None and match.deadline < clock.since + left:
        return None  # the deadline comes first: a quick decision's short one, or another's clock
    if left < match.turn_seconds:
        return left
    ends_first = (
        clock.since is not None and match.deadline is not None and clock.since + left <= match.deadline
    )
    return left if ends_first else None


def own_rows(rows: Sequence[ActionRecord], user_id: int) -> list[ActionRecord]:
    """The rows of a game's log `user_id` sent themself (RULES.md "A no-show"): not those the bot
    wrote in their name, a loss on time, an abandoned game, or a quick decision's automatic answer
    (its commit carries a bot's id, negative, on its first row), none of which is their act."""
    bots = {r.version for r in rows if r.interaction_id is not None and r.interaction_id < 0}
    ended = (str(TIMEOUT), str(ABANDON))
    return [r for r in rows if r.player_id == user_id and r.version not in bots and r.notation not in ended]


def standing_order(rules: Game, row: ActionRecord) -> bool:
    """Whether a logged action is a standing order: sent at any time and seen by nobody but its
    sender (unlike resigning or a draw offer, the other actions for any time)."""
    action = rules.parse(row.notation)
    return action.anytime and not isinstance(action, MetaAction)


def _run_start(
    rows: Sequence[ActionRecord], others: set[int], passed: Callable[[ActionRecord], bool] | None = None
) -> int:
    """Where the trailing run of log rows played by none of `others` begins; rows `passed` says
    belong to no one's turn (standing orders) do not end it."""
    first = len(rows)
    while first > 0 and (
        rows[first - 1].player_id not in others or (passed is not None and passed(rows[first - 1]))
    ):
        first -= 1
    return first


@dataclass(frozen=True, slots=True)
class Refused:
    """The step of a command that was refused: its number, notation, the refusal's words, the kind
    of refusal and the examples offered with it."""

    n: int
    notation: str
    why: str
    kind: type[ServiceError]
    hints: list[str] = field(default_factory=list)
    total: int = 0  # how many `hints` were chosen from (they are a few of them)


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
    # A player's command that leaves the turn with them (`MatchService.act`): its answer is theirs
    # alone and the channel sees the turn only at the hand-off, so a step taken back is never shown
    # to anyone else (RULES.md, "One board per hand-off").
    mid_turn: bool = False

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


@dataclass(frozen=True, slots=True)
class PrivateTurn:
    """A turn whose steps are still its player's alone (`Played.mid_turn`): who plays it, and what
    the channel last saw (`seen`: its position and the stretch that led to it; `seen.match.version`
    is the version that board showed, the game's start for the opening position). `standing`:
    whether a step of it stands; False when all were taken back, so the position is the channel's,
    but the log's rows since (and the version counting them) are still the player's alone."""

    player_id: int
    seen: Played
    standing: bool = True


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
    # for each of those games with a game clock (a tournament's), by id: what is left on the player's
    clocks: Mapping[int, float] = field(default_factory=dict)


@dataclass(slots=True)
class Notice:
    """Something the sweep did that players should hear about, as data: each adapter words it
    (`play.notices.notice_text`) with its own markup."""

    kind: str  # reminder, default (a quick decision answered by default), forfeit, no-show, expired
    match: Match
    user_id: int | None
    played: Played | None = None
    late: tuple[int, ...] = ()  # the players who did not act in time (a default, a forfeit)
    due: float | None = None  # a reminder: when the move is due
    abandoned: bool = False  # a forfeit: both sides owed an action and neither came
    clock_out: bool = False  # a forfeit: the player's game clock ran out, not the turn's own deadline
    # a default or a forfeit: `played` is the late player's whole turn, kept private until this
    # default handed it over or this loss ended the game (its steps stand)
    whole_turn: bool = False
    # a forfeit: the game was ended by the late player's automatic answer (a default that finished
    # the game: a last round's limit, a win), not by a loss on time
    by_default: bool = False
    # a no-show: the organiser who ended the game for `user_id`, who had made no move in it
    by: int | None = None
    # a game ended by time or by an organiser while the other player's steps were hidden from the
    # channel (a simultaneous set-up's army): those steps, told whole now that the game is over
    secret: tuple[Step, ...] = ()


def _handed_out(match: Match, state: State) -> tuple[Match, State]:
    """What a caller gets of a game kept in memory: the whole row, snapshot included, and a state
    of its own to change."""
    return replace(match, snapshot=state.to_json()), state.clone()

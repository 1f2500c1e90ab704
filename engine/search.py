"""A game-generic AI: information-set Monte Carlo tree search over the protocol.

Every iteration deals the unknown (deck orders, the opponent's hand) afresh with
`View.determinize`, walks one shared tree of actions keyed by notation (an action is only
considered where it is legal in that deal), expands one action, plays on with a rollout policy for
a few actions and scores the result with the game's evaluation. This is single-observer ISMCTS
(Cowling, Powley and Whitehouse, 2012): the tree never sees more than the searching side may know,
and chance (cards, dice) is sampled through the deals, as the game's seeded chance is part of the
determinized state.

Hooks a game gives to make it strong (all optional but `evaluate`):
- `evaluate(state, side) -> float` in [-1, 1]: how good the position is for `side` (a won game is 1).
- `rollout(state, side, rng) -> Action`: the action a quick playout takes (default: a random one).
- `order(state, side, actions, rng) -> list`: the most promising actions first; with many legal
  actions only the first few are tried until a node has been visited often (progressive widening).

Deterministic for a given (view, seed, settings) as long as the time budget does not bind.
"""

from __future__ import annotations

import contextlib
import math
import random
import time
from collections.abc import Callable, Iterator, MutableMapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeVar

from engine import tape
from engine.errors import IllegalAction
from engine.protocol import Action, Side, State, View

Evaluate = Callable[[State, Side], float]
Rollout = Callable[[State, Side, random.Random], Action]
Order = Callable[[State, Side, Sequence[Action], random.Random], list[Action]]
M = TypeVar("M", bound=MutableMapping[Any, Any])

# The search's clock, read for its time cap only; tests put a fake one here to check that the cap
# stops a search without timing anything, and benchmarks a CPU clock. The AI reads it through `now`.
clock: Callable[[], float] = time.perf_counter


# What an AI keeps from one decision to the next (Combined Arms' plan of a whole turn, made at its
# first step and played step by step): a later choice depends on it, so a check that replays the
# decisions must see it as the bot's AI process had it. A game registers such a store here
# (`remembered`); engine/ai_check.py sets the stores aside, or starts without them.
memories: list[MutableMapping[Any, Any]] = []
# Whose decisions these are: a store's keys begin with it, so that what one game's decisions left in
# a store is never read by another's (an AI process serves many games, whose positions can meet).
# The bot sets it to the game's public commitment (`remembering`), and the check to the record's.
_SCOPE: ContextVar[str | None] = ContextVar("ai_memory_scope", default=None)


def remembered(store: M) -> M:
    """Register `store`, kept between decisions, in `memories`; returns it."""
    memories.append(store)
    return store


def scope() -> str | None:
    """The game whose decision is being made (None: none named), the first part of every key a
    store in `memories` keeps."""
    return _SCOPE.get()


@contextlib.contextmanager
def remembering(game: str | None) -> Iterator[None]:
    """Within the block (this thread or task only), the AI decides for `game`: what it keeps
    between decisions is kept under it (`scope`)."""
    token = _SCOPE.set(game)
    try:
        yield
    finally:
        _SCOPE.reset(token)


def now() -> float:
    """The clock every AI's time caps read: `clock`, or the tape of a decision being recorded or
    replayed (engine/tape.py), so that a decision can be checked by replaying it exactly."""
    return tape.read(clock)


@dataclass(frozen=True, slots=True)
class Settings:
    """How hard to think. `iterations` None means until `budget_s` runs out; 0 means no search at
    all (`BaseGame.choose` then plays the game's rollout policy: its rule of thumb)."""

    iterations: int | None = 2000
    budget_s: float = 1.5
    rollout_depth: int = 12  # actions played after the expansion before the evaluation
    # With `to_turn_end`, a playout goes on past `rollout_depth` (up to as many actions again) until
    # the turn number (`State.turn_number`) changes, so every leaf is judged at the same point of a
    # turn, not halfway through one side's moves (where whoever has just moved looks better off).
    to_turn_end: bool = False
    exploration: float = 0.7  # UCB's c, on rewards in [-1, 1]
    widening: float = 3.0  # children a node may have: widening * visits ** alpha
    alpha: float = 0.5
    # With `iterations` 0, `greedy` > 0 judges that many actions (the first by the game's `order`)
    # one turn ahead instead of playing the rule of thumb: each in `deals` deals of the unknown, the
    # rest of the turn played by the rollout policy, then evaluated (`BaseGame.appraise`).
    greedy: int = 0
    deals: int = 4
    # Early stopping: the search stops once the most visited action leads the second by more than
    # `settle` times the iterations still to come. 1.0 (the default) stops only when the leader
    # cannot be overtaken at all; a smaller share (opt-in, Fix Bayonets' correspondence) also stops
    # when overtaking would take the runner-up winning nearly every iteration left, so a large
    # budget is spent on the close decisions and an obvious one costs little.
    settle: float = 1.0


@dataclass(slots=True)
class SearchStats:
    """What one search did, for benchmarks and tests."""

    iterations: int = 0
    seconds: float = 0.0
    best_visits: int = 0


class _Node:
    __slots__ = ("avail", "children", "order", "reward", "visits", "who")

    def __init__(self, who: Side | None) -> None:
        self.who = who  # the side whose action led here (None at the root)
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.reward = 0.0  # summed from `who`'s point of view
        self.avail = 0  # iterations in which this node's action was legal (ISMCTS' availability)
        # The game's ranking of the actions here, computed once (the first deal that reaches the
        # node): ranking is the costly part of an expansion, and later deals mostly offer the same.
        self.order: list[str] | None = None


def _actor(state: State, preferred: Side) -> Side | None:
    sides = state.to_act()
    if not sides:
        return None
    return preferred if preferred in sides else min(sides)


def _terminal_value(state: State, side: Side) -> float:
    outcome = state.outcome()
    if outcome is None or outcome.winner is None:
        return 0.0
    return 1.0 if outcome.winner == side else -1.0


def _random_rollout(state: State, side: Side, rng: random.Random) -> Action:
    return rng.choice(state.legal_actions(side))


def _random_order(state: State, side: Side, actions: Sequence[Action], rng: random.Random) -> list[Action]:
    out = list(actions)
    rng.shuffle(out)
    return out


def choose(
    view: View,
    evaluate: Evaluate,
    *,
    seed: int = 0,
    settings: Settings = Settings(),
    rollout: Rollout | None = None,
    order: Order | None = None,
    stats: SearchStats | None = None,
) -> Action:
    """The action the search likes best for `view.viewer`, who must be owed an action."""
    me = view.viewer
    if me is None:
        raise ValueError("A spectator has nothing to choose.")
    rng = random.Random(f"ismcts:{seed}")
    start = now()
    deadline = start + settings.budget_s
    root_state = view.determinize(rng)
    if me not in root_state.to_act():
        raise ValueError(f"It is not {me}'s move.")
    root_legal = root_state.legal_actions(me)
    if not root_legal:
        raise ValueError(f"{me} has no legal action.")
    if len(root_legal) == 1:
        return root_legal[0]
    by_notation = {str(a): a for a in root_legal}
    play_out = rollout or _random_rollout
    rank = order or _random_order
    root = _Node(None)
    done = 0
    limit = settings.iterations
    while limit is None or done < limit:
        at = now()
        if done and at > deadline:
            break
        if (
            done
            and done % 32 == 0
            and _settled(root, by_notation, done, at - start, deadline - at, limit, settings.settle)
        ):
            break  # the most visited action cannot be overtaken in the time or iterations left
        state = root_state.clone() if done == 0 else view.determinize(rng)
        _iterate(root, state, me, evaluate, play_out, rank, rng, settings)
        done += 1
    best = max(
        (c for k, c in root.children.items() if k in by_notation),
        key=lambda c: (c.visits, c.reward / max(c.visits, 1)),
        default=None,
    )
    if stats is not None:
        stats.iterations = done
        stats.seconds = now() - start
        stats.best_visits = best.visits if best else 0
    if best is None:
        return root_legal[0]
    key = next(k for k, c in root.children.items() if c is best)
    return by_notation[key]


def _settled(
    root: _Node,
    legal: dict[str, Action],
    done: int,
    spent: float,
    left: float,
    limit: int | None,
    settle: float = 1.0,
) -> bool:
    """Whether the choice is made: the final pick is the most visited action, and the lead of the
    first over the second is more than `settle` times the iterations still to come. With an
    iteration budget those are counted, not guessed from the clock: the time cap is a safety net
    only, so a decision depends on the clock only where the cap itself stops it (docs/fairness.md,
    "Checking the AI"). Without one, they are what the time left allows at the pace so far."""
    visits = sorted((c.visits for k, c in root.children.items() if k in legal), reverse=True)
    if len(visits) < 2:
        return False
    if limit is not None:
        to_come: float = limit - done
    else:
        to_come = done * left / spent if spent > 0 else float("inf")
    return visits[0] - visits[1] > settle * to_come


def _iterate(
    root: _Node,
    state: State,
    me: Side,
    evaluate: Evaluate,
    play_out: Rollout,
    rank: Order,
    rng: random.Random,
    settings: Settings,
) -> None:
    path = [root]
    node = root
    expanded = False
    while not expanded:
        actor = _actor(state, me)
        if actor is None:
            break
        legal = state.legal_actions(actor)
        if not legal:
            break
        keyed = {str(a): a for a in legal}
        present = [(k, node.children[k]) for k in keyed if k in node.children]
        allowed = max(1, math.ceil(settings.widening * max(node.visits, 1) ** settings.alpha))
        if len(present) < min(allowed, len(keyed)):
            if node.order is None:
                node.order = [str(a) for a in rank(state, actor, legal, rng)]
            key = next((k for k in node.order if k in keyed and k not in node.children), None)
            if key is None:  # this deal offers actions the first did not: rank what is new
                fresh = [a for a in legal if str(a) not in node.children]
                key = str(rank(state, actor, fresh, rng)[0])
            action = keyed[key]
            child = _Node(actor)
            node.children[str(action)] = child
            child.avail = 1
            for _, c in present:
                c.avail += 1
            expanded = True
        else:
            best_key, best_score = "", -math.inf
            for k, c in present:
                c.avail += 1  # ISMCTS: explore by how often the action was available, not parent visits
                score = c.reward / c.visits + settings.exploration * math.sqrt(math.log(c.avail) / c.visits)
                if score > best_score:
                    best_key, best_score = k, score
            action = keyed[best_key]
            child = node.children[best_key]
        state.apply(action, actor)
        path.append(child)
        node = child
    if state.is_over():
        value = _terminal_value(state, me)
    else:
        _play_on(state, me, play_out, rng, settings.rollout_depth)
        if settings.to_turn_end:
            _play_on(state, me, play_out, rng, settings.rollout_depth, until_turn=state.turn_number())
        value = _terminal_value(state, me) if state.is_over() else max(-1.0, min(1.0, evaluate(state, me)))
    for n in path:
        n.visits += 1
        if n.who is not None:
            n.reward += value if n.who == me else -value


def _play_on(
    state: State, me: Side, play_out: Rollout, rng: random.Random, most: int, until_turn: int | None = None
) -> None:
    """Up to `most` actions by the playout policy; with `until_turn`, only while the turn number is
    still that one."""
    for _ in range(most):
        if until_turn is not None and state.turn_number() != until_turn:
            return
        actor = _actor(state, me)
        if actor is None:
            return
        state.apply(play_out(state, actor, rng), actor)


# ------------------------------------------------------------------------------ one move deep, both sides
#
# Before any level's own judgement: take a win that is there, and never hand the opponent one when
# another action prevents it (issue 32). Both are asked in a few deals of the unknown
# (`View.determinize`: the hidden cards dealt as the viewer's knowledge allows, the dice to come
# sampled), so a win that hinges on chance counts by its share of deals, and a threat is judged over
# what the opponent could hold, not over what the viewer guesses it holds.


@dataclass(frozen=True, slots=True)
class Guard:
    """How deep and wide the win check looks. `depth`: own actions in a row a winning line may take
    (the first step tries every legal action, later steps the first `width` by the game's order);
    `reply_depth`: the same for the opponent's line after our turn; `share`: the share of deals in
    which a line must win to count as a win (a threat counts from `risk`); `always`: actions a line
    tries beside the first `width`, for a game whose wins go through one its order ranks low;
    `forced`: a step a side must take before it acts, which a line takes without counting it."""

    deals: int = 6
    depth: int = 1
    reply_depth: int = 2
    width: int = 8
    share: float = 0.5
    # A pick that leaves the opponent a win in more than this share of deals gives way to the action
    # that leaves it fewest (0: any deal; a game lost one time in four by the dice is lost).
    risk: float = 0.0
    alternatives: int = 40  # actions weighed against a pick that leaves a win
    rest: int = 8  # our later actions in the same turn tried before a hand-over is judged
    # What a side plays where its choice cannot stop a line in progress (Battlefronts' support
    # phase, which only fills travel zones, between the move phase and the battle that decides a
    # win): a line goes on through it. None: a line ends where the other side has a choice.
    idle: Callable[[State, Side], Action | None] | None = None
    # Actions a line always tries at a step before its last, beside the first `width` by order: a
    # game whose wins go through an action its order ranks low (Fix Bayonets' FIGHT, which opens
    # the shot at a last officer while the moves rank first) names them here, so the check sees
    # those lines without widening it, and the search's own order stays as it is. None: only the
    # first `width`.
    always: Callable[[State, Side, Sequence[Action]], Sequence[Action]] | None = None
    # A step forced on a side before it may act, played by the game's rule of thumb without counting
    # against the line's depth (Fix Bayonets' discard down to the hand limit, which opens a turn
    # when the hand is full: the fight and the shot come after it). None where there is none.
    forced: Callable[[State, Side], Action | None] | None = None


def winner_of(state: State) -> Side | None:
    outcome = state.outcome()
    return None if outcome is None else outcome.winner


def _answer_others(
    state: State, side: Side, rollout: Rollout, rng: random.Random, idle: Guard | None = None
) -> None:
    """The quick answers the other side owes in the middle of `side`'s line (a retreat square, a
    negation), played as its deadline would play them, else by the game's rule of thumb; with a
    guard's `idle`, also the other side's choices that cannot stop the line."""
    for _ in range(16):
        owed = state.to_act()
        if state.is_over() or not owed or side in owed:
            return
        other = min(owed)
        answer: Action | None = None
        if state.quick_decision():
            answer = state.default_action(other) or rollout(state, other, rng)
        elif idle is not None and idle.idle is not None:
            answer = idle.idle(state, other)
        if answer is None:
            return
        state.apply(answer, other)


def win_line(
    state: State,
    side: Side,
    depth: int,
    width: int,
    order: Order,
    rollout: Rollout,
    rng: random.Random,
    guard: Guard | None = None,
) -> list[Action] | None:
    """A line of `side`'s own actions in a row, at most `depth` long, after which `side` has won; None
    if there is none. Every action is tried at the last step (a win is cheap to spot), the first
    `width` by `order` before it, and those the guard's `always` names. A step the guard's `forced`
    plays costs no depth."""
    if state.is_over():
        return [] if winner_of(state) == side else None
    if depth <= 0 or side not in state.to_act():
        return None
    step = guard.forced(state, side) if guard is not None and guard.forced is not None else None
    if step is not None:
        after = state.clone()
        after.apply(step, side)
        _answer_others(after, side, rollout, rng, guard)
        line = win_line(after, side, depth, width, order, rollout, rng, guard)
        return None if line is None else [step, *line]
    legal = list(state.legal_actions(side))
    later: list[tuple[Action, State]] = []
    for action in legal:
        after = state.clone()
        after.apply(action, side)
        _answer_others(after, side, rollout, rng, guard)
        if after.is_over():
            if winner_of(after) == side:
                return [action]
            continue
        if depth > 1 and side in after.to_act():
            later.append((action, after))
    if not later:
        return None
    candidates = [a for a, _ in later]
    keep = {str(a) for a in order(state, side, candidates, rng)[:width]}
    if guard is not None and guard.always is not None:
        named = {str(a) for a in guard.always(state, side, candidates)}
        keep |= named
        # The named actions first: they are named because a win goes through them, and whether a
        # line exists does not depend on the order it is found in.
        later.sort(key=lambda pair: str(pair[0]) not in named)
    for action, after in later:
        if str(action) in keep:
            line = win_line(after, side, depth - 1, width, order, rollout, rng, guard)
            if line is not None:
                return [action, *line]
    return None


def _opponent_of(state: State, me: Side) -> Side | None:
    owed = state.to_act()
    others = [s for s in owed if s != me]
    return min(others) if others and me not in owed else None


def _danger(
    state: State, me: Side, guard: Guard, order: Order, rollout: Rollout, rng: random.Random, rest: int
) -> float:
    """1 if the opponent wins in this deal before our next free choice (a line of its own, found as
    `win_line` finds ours), 0 if not; a lost game is 1. While the turn is still ours, our best
    continuation among the first `guard.rest` by order (`rest` more of our actions), and past those
    the rest of our turn as the rule of thumb plays it."""
    if state.is_over():
        winner = winner_of(state)
        return 0.0 if winner == me else 1.0 if winner is not None else 0.5
    if me in state.to_act():
        if rest <= 0:  # the rest of our turn as the rule of thumb plays it, then the opponent's line
            played = state.clone()
            for _ in range(30):
                if played.is_over() or me not in played.to_act():
                    break
                played.apply(rollout(played, me, rng), me)
            if me in played.to_act() and not played.is_over():
                return 0.0
            return _danger(played, me, guard, order, rollout, rng, 0)
        legal = list(state.legal_actions(me))
        tried = order(state, me, legal, rng)[: guard.rest]
        best = 1.0
        for action in tried:
            after = state.clone()
            after.apply(action, me)
            best = min(best, _danger(after, me, guard, order, rollout, rng, rest - 1))
            if best == 0.0:
                break
        return best
    if state.quick_decision():  # the opponent's quick answer in our turn: answered, our turn goes on
        answered = state.clone()
        _answer_others(answered, me, rollout, rng)
        if answered.to_act() != state.to_act() or answered.is_over():
            return _danger(answered, me, guard, order, rollout, rng, rest)
    opponent = _opponent_of(state, me)
    if opponent is None:
        return 0.0
    line = win_line(state, opponent, guard.reply_depth, guard.width, order, rollout, rng, guard)
    return 1.0 if line is not None else 0.0


def threat_share(
    deals: Sequence[State],
    me: Side,
    action: Action,
    guard: Guard,
    order: Order,
    rollout: Rollout,
    rng: random.Random,
) -> float:
    """The share of `deals` in which `action` (and our best way to finish the turn) leaves the
    opponent a win before our next free choice; deals where it is not legal count as lost."""
    total = 0.0
    for deal in deals:
        after = deal.clone()
        try:
            after.apply(action, me)
        except IllegalAction:  # not legal in this deal: the action hinges on the unknown
            total += 1.0
            continue
        total += _danger(after, me, guard, order, rollout, rng, rest=1 if guard.rest else 0)
    return total / max(1, len(deals))


def guarded(
    view: View,
    pick: Callable[[], Action],
    *,
    seed: int,
    guard: Guard,
    order: Order | None = None,
    rollout: Rollout | None = None,
) -> Action:
    """`pick()` (the level's own choice), unless a win is there to take or the pick leaves the
    opponent one that another action prevents."""
    me = view.viewer
    if me is None:
        raise ValueError("A spectator has nothing to choose.")
    rank = order or _random_order
    play_out = rollout or _random_rollout
    rng = random.Random(f"guard:{seed}")
    deals = [view.determinize(rng) for _ in range(max(1, guard.deals))]
    if me not in deals[0].to_act():
        return pick()
    legal = list(deals[0].legal_actions(me))
    if len(legal) <= 1:
        return pick()
    win = _winning_action(
        deals, me, legal, guard, rank, play_out, rng, more=lambda n: [view.determinize(rng) for _ in range(n)]
    )
    if win is not None:
        return win
    chosen = pick()
    danger = threat_share(deals, me, chosen, guard, rank, play_out, rng)
    if danger <= guard.risk:
        return chosen
    best, best_danger = chosen, danger
    candidates = rank(deals[0], me, legal, rng)[: guard.alternatives]
    for action in candidates:
        if str(action) == str(chosen):
            continue
        share = threat_share(deals, me, action, guard, rank, play_out, rng)
        if share < best_danger:
            best, best_danger = action, share
            if share == 0.0:
                break
    return best


def _winning_action(
    deals: Sequence[State],
    me: Side,
    legal: Sequence[Action],
    guard: Guard,
    order: Order,
    rollout: Rollout,
    rng: random.Random,
    more: Callable[[int], Sequence[State]] | None = None,
) -> Action | None:
    """The first action of a winning line in the most deals, if that is at least `guard.share`.
    Actions tied at the top (one that wins by the dice in every deal so far beside one that wins
    whatever the dice) are weighed again in `more` deals."""
    wins = _wins_by_action(deals, me, legal, guard, order, rollout, rng)
    if not wins:
        return None
    top = max(wins.values())
    if top / len(deals) < guard.share:
        return None
    tied = [a for a in legal if wins.get(str(a)) == top]
    if len(tied) > 1 and more is not None:
        extra = more(2 * len(deals))
        again = _wins_by_action(extra, me, tied, guard, order, rollout, rng)
        if again:
            best = max(again.values())
            tied = [a for a in tied if again.get(str(a)) == best]
    return tied[0]


def _wins_by_action(
    deals: Sequence[State],
    me: Side,
    legal: Sequence[Action],
    guard: Guard,
    order: Order,
    rollout: Rollout,
    rng: random.Random,
) -> dict[str, int]:
    """For each action, the deals in which it wins at once or begins a winning line of our own."""
    wins: dict[str, int] = {}
    for action in legal:
        count = 0
        for deal in deals:
            after = deal.clone()
            try:
                after.apply(action, me)
            except IllegalAction:  # not legal in this deal
                continue
            _answer_others(after, me, rollout, rng, guard)
            if after.is_over():
                count += winner_of(after) == me
            elif me in after.to_act() and guard.depth > 1:
                count += (
                    win_line(after, me, guard.depth - 1, guard.width, order, rollout, rng, guard) is not None
                )
        if count:
            wins[str(action)] = count
    return wins


__all__ = [
    "Evaluate",
    "Guard",
    "Order",
    "Rollout",
    "SearchStats",
    "Settings",
    "choose",
    "guarded",
    "memories",
    "now",
    "remembered",
    "remembering",
    "scope",
    "threat_share",
    "win_line",
    "winner_of",
]

"""The correspondence level: hard's plans judged after hard's own reply (issue 32).

    action = choose(state.view(side), seed=42)

`hard` plans its whole two-action turn with exact fight odds but judges the turn where it ends,
charging it at most a static count of the attacks it leaves (`ai.threat`). This level looks one
turn further, the way a player with time to think does: for each of hard's best few first actions
it takes the turn hard would finish with it, every end of that turn with its odds (`ai.turn_plan`),
and in each of them lets the opponent plan its own whole turn exactly as `hard` would, again over
every fight result. Hard's own first choice is played unless another candidate's turn is worth
clearly more (`Config.margin`) after that reply. So a quiet move that stops a breakthrough beats an
attack that wins a fight but lets the enemy through, and an attack that only looks good until the
enemy's tank answers it is seen for what it is.

The opponent's reply is judged as the position where we move next: our evaluation plus the attacks
we then have (`ai.threat` from our side), the mirror of hard's caution after its own turn.

Deterministic for a given (view, seed): a fixed amount of work, exact odds, every sample seeded.
The time cap (`budget_s`) only binds on a machine many times too slow; then the candidates judged
so far decide, hard's first choice first.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.blockwars import actions as A
from engine.blockwars import ai
from engine.blockwars.actions import Action
from engine.blockwars.ai import HARD, Leaves, Odds
from engine.blockwars.model import Side
from engine.blockwars.state import PLAY, SETUP, State, View

BUDGET_S = 20.0  # the cap a decision may think (issue 32); a typical decision takes about a second


@dataclass(frozen=True, slots=True)
class Config:
    """How far the level looks: hard's first `candidates` actions, each judged after hard's reply."""

    candidates: int = 4  # hard's best first actions (or last actions) judged after the reply
    tempo: float = 1.0  # weight of our own attacks once the reply is over (we move next)
    least: float = 1e-3  # turn ends likelier than this are judged; the rest keep their share
    # Hard's own first choice gives way only to a candidate worth this much more after the reply:
    # the reply model is one turn deep, so near-equal values say more about it than about the game.
    margin: float = 0.25


CONFIG = Config()


def choose(view: View, seed: int = 0, budget_s: float | None = None, config: Config = CONFIG) -> Action:
    """The action for `view`'s side: hard's candidate whose turn is worth most after hard's reply."""
    s = view.state
    side = view.side
    if side is None or s.current_player() is not side:
        raise ValueError(f"It is not the {side.title if side else 'spectator'}' move.")
    legal = s.legal_actions()
    if len(legal) == 1 or s.phase == SETUP or s.pending is not None or s.phase != PLAY:
        return ai.choose(view, HARD, seed, budget_s)
    deadline = ai.clock() + (BUDGET_S if budget_s is None else budget_s)
    rng = random.Random(f"blockwars-ai:correspondence:{seed}")
    counts = ai._rank_counts(s)
    plans = hard_plans(view, side, rng, counts, deadline, config.candidates)
    if len(plans) == 1:
        return plans[0][0]
    reply_seed = rng.getrandbits(32)
    best, best_v = plans[0][0], -1e18
    for i, (a, leaves) in enumerate(plans):
        if i >= 1 and ai.clock() > deadline:
            break
        v = after_reply(leaves, side, counts, reply_seed, deadline, config)
        if i == 0:
            v += config.margin
        if v > best_v:
            best, best_v = a, v
    return best


def hard_plans(
    view: View, side: Side, rng: random.Random, counts: list[int], deadline: float, most: int
) -> list[tuple[Action, Leaves]]:
    """Hard's `most` best actions in its own order, each with where its turn ends (state, odds).

    The same work `ai.choose` does at `hard`, keeping the planned turns instead of dropping them.
    """
    s = view.state
    w = ai.level_weights(HARD, side)
    cfg = ai.search_config(HARD, side)
    scored = ai._greedy_scores(view, side, s.legal_actions(), rng, counts, deadline, w)
    cands = [a for _, a in scored[: cfg.candidates]]
    seed = rng.getrandbits(32)
    if s.actions_left == 2:
        plans: list[tuple[float, int, Action, Leaves]] = []
        for i, a in enumerate(cands):
            if i >= 1 and ai.clock() > deadline:
                break
            v, leaves = ai.turn_plan(view, side, a, random.Random(seed), counts, cfg.lookahead, w, cfg.wary)
            plans.append((v, i, a, leaves))
        plans.sort(key=lambda t: (-t[0], t[1]))
        return [(a, leaves) for _, _, a, leaves in plans[:most]]
    # The turn's last action: hard's order (its caution counted where it has one), END among them.
    odds: Odds = {1: ai.fight_odds(counts, 1), 2: ai.fight_odds(counts, 2)}
    lasts: list[tuple[float, int, Action, Leaves]] = []
    if A.END not in cands:
        end = ai.leaf_value(s, side, w, cfg.wary, odds)
        lasts.append((end if cfg.wary else -1e9, -1, A.END, [(1.0, s.clone())]))
    for i, a in enumerate(cands):
        if a is A.END:
            outs: Leaves = [(1.0, s.clone())]
        else:
            outs = ai.outcomes(view, side, a, random.Random(seed), counts, w)
        v = sum(q * ai.leaf_value(t, side, w, cfg.wary, odds) for q, t in outs)
        lasts.append((v if cfg.wary else -float(i), i, a, outs))
    lasts.sort(key=lambda t: (-t[0], t[1]))
    return [(a, leaves) for _, _, a, leaves in lasts[:most]]


def after_reply(
    leaves: Leaves, side: Side, counts: list[int], seed: int, deadline: float, config: Config
) -> float:
    """The expected worth of a finished turn for `side` once the opponent has played hard's turn."""
    enemy = side.other
    w = ai.level_weights(HARD, side)
    total = 0.0
    for p, e in leaves:
        if p < config.least:
            total += p * ai.evaluate(e, side, w)
            continue
        e = handed_over(e, side, counts, w)
        if e.phase != PLAY or e.pending is not None or e.active is not enemy:
            total += p * _judge(e, side, w, config)
            continue
        ev = View(e, enemy)
        reply = hard_plans(ev, enemy, random.Random(seed), ai._rank_counts(e), deadline, 1)
        total += p * sum(q * _judge(f, side, w, config) for q, f in reply[0][1])
    return total


def handed_over(e: State, mover: Side, counts: list[int], w: ai.Weights) -> State:
    """`e` once `mover`, whose turn it still is, has ended it (a decision that opens is answered by
    rule of thumb); `e` itself where the turn is already over or waits on a decision."""
    if e.phase == PLAY and e.pending is None and e.active is mover:
        e = e.clone()
        e.apply(A.END)
        ai._settle(e, mover.other, counts, w)
    return e


def _judge(s: State, side: Side, w: ai.Weights, config: Config) -> float:
    """Our evaluation where we move next, with the attacks we then have (`ai.threat`)."""
    v = ai.evaluate(s, side, w)
    if config.tempo and s.phase == PLAY:
        counts = ai._rank_counts(s)
        odds: Odds = {1: ai.fight_odds(counts, 1), 2: ai.fight_odds(counts, 2)}
        v += config.tempo * ai.threat(s, side, odds, w)
    return v

"""Battlefronts' `correspondence` level: hard's search, every leaf judged one round later.

`hard` plays each playout to the end of its round and judges the position there, at the start of
the next round, by `ai.evaluate` (the next round's threats only guessed by its front-threat term).
Four times hard's playouts did not beat hard (docs/ai.md): the search's judgement, not its size,
limits it. This level judges each leaf only after the next round is played out as well (both sides'
moves, the call-ups, the battle and the check for a win, by the playout policy), so the opponent's
answer to a plan is part of what the search sees.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import cast

from engine import search
from engine.battlefronts import ai
from engine.battlefronts.state import State
from engine.battlefronts.view import View
from engine.protocol import Action
from engine.search import Settings

ROUND_ACTIONS = 60  # more actions than any playout round takes (a round is about 13, at most ~30)


@dataclass(frozen=True, slots=True)
class Lookahead:
    """`search`: the tree search (hard's); `rounds`: whole rounds played out by the playout policy
    after each playout's own round before the position is judged."""

    search: Settings
    rounds: int = 1


def judge_later(
    seed: int, rounds: int, evaluate: Callable[[State, str], float] = ai.evaluate
) -> Callable[[State, str], float]:
    """`evaluate` after `rounds` more rounds played by the playout policy, for both sides (a game
    won or lost on the way is worth 1 or -1). Seeded, so a search stays deterministic."""
    rng = random.Random(f"bf-later:{seed}")

    def judge(state: State, side: str) -> float:
        if state.result is not None or rounds <= 0:
            return evaluate(state, side)
        s = state.clone()
        target = s.round + rounds
        for _ in range(ROUND_ACTIONS * rounds):
            if s.result is not None or s.round >= target:
                break
            owed = s.to_act()
            if not owed:
                break
            actor = side if side in owed else min(owed)
            s.apply(ai.rollout(s, actor, rng), actor)
        return evaluate(s, side)

    return judge


def choose(
    view: View,
    seed: int,
    lookahead: Lookahead,
    order: search.Order,
    rollout: search.Rollout,
    budget_s: float | None = None,
    iterations: int | None = None,
) -> Action:
    """The search's choice for `view.viewer`, its leaves judged a round later."""
    settings = lookahead.search
    if budget_s is not None:
        settings = replace(settings, budget_s=budget_s)
    if iterations is not None:
        settings = replace(settings, iterations=iterations)
    judge = cast("search.Evaluate", judge_later(seed, lookahead.rounds))  # on Battlefronts states only
    return search.choose(
        view,
        judge,
        seed=seed,
        settings=settings,
        rollout=rollout,
        order=order,
    )


__all__ = ["Lookahead", "choose", "judge_later"]

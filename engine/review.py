"""A look back at a finished game: where one player's choices cost most, by the AI's judgement.

The game is replayed from its seed and log. At every choice the player made (shared actions such
as resigning aside, and only where there was a choice), the game's `appraise` hook judges, from the
player's own view at that moment (what they could know, never the opponent's hand), the actions
the AI finds likeliest plus the one the player chose, each as a value for that player in [-1, 1].
What the choice cost is the best value less the chosen one's. The costliest moments come back with
the position they were played in (the player's view as JSON, for a board), the action played and
the one the AI preferred.

A review has a time budget: the work per choice (candidates, deals of the unknown) shrinks with the
number of choices to look at, and if the time still runs out, the choices not reached are left
out and counted (`looked_at` < `choices`).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.meta import MetaAction
from engine.protocol import Action, Game, Side

MOMENTS = 3  # the moments a review shows
NOTICEABLE = 0.02  # a cost below this (on the [-1, 1] scale) is noise, not a mistake
WORK = 2400  # candidate-deal appraisals a review may spend over a whole game
MOST, LEAST = 10, 4  # candidates per choice, at most and at least
DEALS, FEWEST_DEALS = 4, 2
CONFIRM, CONFIRM_DEALS = 3, 16  # moments judged again per moment shown, and the deals they get


@dataclass(frozen=True, slots=True)
class Moment:
    """One choice of the player's: where (the log's `index`, the turn), what they played, what the
    AI preferred, and what it cost by the AI's judgement."""

    index: int  # the choice is the log's action number `index` (0-based): the position before it
    turn: int
    chosen: str
    preferred: str
    cost: float  # best value - chosen value, on the evaluation's [-1, 1] scale
    chosen_value: float
    best_value: float
    view: dict[str, Any]  # the player's view of the position (the game's `view_from_json` reads it)


@dataclass(frozen=True, slots=True)
class Review:
    side: Side
    moments: tuple[Moment, ...]  # costliest first
    choices: int  # choices the player had in the game (more than one legal action)
    looked_at: int  # of those, how many the time allowed to judge
    seconds: float


def review_game(
    game: Game,
    options: Mapping[str, Any],
    seed: int,
    log: Sequence[tuple[Side, str]],
    side: Side,
    *,
    budget_s: float = 40.0,
    moments: int = MOMENTS,
) -> Review:
    """The `moments` choices of `side` that cost most in the game of `game` replayed from `log`."""
    started = time.perf_counter()
    deadline = started + budget_s
    state = game.new_game(options, seed)
    spots: list[tuple[int, int, Action, dict[str, Any]]] = []  # index, turn, chosen, view json
    views = []
    for index, (who, notation) in enumerate(log):
        action = game.parse(notation)
        mine = who == side and not isinstance(action, MetaAction) and side in state.to_act()
        if mine and len(state.legal_actions(side)) > 1:
            view = state.view(side)
            spots.append((index, state.turn_number(), action, view.to_json()))
            views.append(view)
        state.apply(action, who)
    per = WORK / max(len(spots), 1)
    deals = DEALS if per >= MOST * DEALS else FEWEST_DEALS
    most = max(LEAST, min(MOST, int(per // deals)))
    found: list[tuple[float, int, Action]] = []  # cost, spot, the preferred action
    looked = 0
    for n, (index, _, chosen, _) in enumerate(spots):
        if time.perf_counter() > deadline:
            break
        judged = game.appraise(views[n], [chosen], seed * 7_919 + index, most=most, deals=deals)
        looked += 1
        cost, best = _cost(judged, chosen)
        if best is not None and cost >= NOTICEABLE:
            found.append((cost, n, best))
    # The first pass keeps the best of several noisy estimates, which flatters the alternative (the
    # winner's curse): the likeliest moments are judged again, the two actions alone, in fresh deals.
    found.sort(key=lambda f: (-f[0], f[1]))
    confirmed: list[Moment] = []
    for _, n, best in found[: moments * CONFIRM]:
        index, turn, chosen, view_json = spots[n]
        if time.perf_counter() > deadline and len(confirmed) >= moments:
            break
        judged = game.appraise(
            views[n], [chosen, best], seed * 7_919 + index + 1, most=0, deals=CONFIRM_DEALS
        )
        cost, again = _cost(judged, chosen)
        if again is not None and cost >= NOTICEABLE:
            values = dict((str(a), v) for a, v in judged)
            confirmed.append(
                Moment(
                    index,
                    turn,
                    str(chosen),
                    str(again),
                    cost,
                    values[str(chosen)],
                    values[str(again)],
                    view_json,
                )
            )
    confirmed.sort(key=lambda m: (-m.cost, m.index))
    return Review(side, tuple(confirmed[:moments]), len(spots), looked, time.perf_counter() - started)


def _cost(judged: list[tuple[Action, float]], chosen: Action) -> tuple[float, Action | None]:
    """What `chosen` cost against the best judged action, and that action (None: it was the best)."""
    if len(judged) < 2:
        return 0.0, None
    best, best_value = judged[0]
    chosen_value = next((v for a, v in judged if str(a) == str(chosen)), None)
    if chosen_value is None or str(best) == str(chosen):
        return 0.0, None
    return best_value - chosen_value, best


__all__ = ["MOMENTS", "Moment", "Review", "review_game"]

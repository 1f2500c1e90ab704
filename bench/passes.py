"""Battlefronts R9: how many hand-offs a round takes under our turns and under the text's reading.

    python bench/passes.py [--games 40] [--seed 1] [--level random]

Our R9: on your turn you make as many moves (or call-ups) as you like, then `end` (the opponent acts,
you may act again) or `pass` (you are done with the phase). The text's plainer reading: one action a
turn, and a `pass` is only that turn's, so a side that passed acts again after the opponent acts;
the phase ends when both pass one after the other.

Games are played by the engine under our rule (seeded random play, or the AI with `--level`). For
each move and support phase the script records how many actions each side took, then counts the
hand-offs (a change of the side owing an action: each is a wait for the other player, over days)
that the very same actions need under each rule: ours as played, the text's as alternate single
actions, a side with nothing left passing, until two passes in a row. Attrition and battle
reductions are the same under both rules and are left out. The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.battlefronts import GAME
from engine.battlefronts import actions as A
from engine.battlefronts.state import MOVE, SUPPORT, State
from engine.protocol import Action

MAX_ACTIONS = 3000
ITERATIONS = 100  # the AI's search per action: a budget in iterations, not seconds, so runs repeat


def text_handoffs(first: int, second: int) -> int:
    """Hand-offs in a phase where the first side takes `first` actions and the other `second`, one
    action a turn, a side with none left passing, until two passes in a row: each turn after the
    first is a hand-off."""
    left = [first, second]
    turns = passes_in_a_row = 0
    side = 0
    while passes_in_a_row < 2:
        turns += 1
        if left[side]:
            left[side] -= 1
            passes_in_a_row = 0
        else:
            passes_in_a_row += 1
        side = 1 - side
    return turns - 1


def play(seed: int, level: str) -> list[dict[str, int]]:
    """One game; per move or support phase: the actions of each side (in the order they first
    acted) and the hand-offs our rule took inside the phase."""
    state = GAME.new_game({}, seed)
    assert isinstance(state, State)
    rng = random.Random(seed)
    phases: list[dict[str, int]] = []
    key: tuple[int, str] | None = None
    order: list[str] = []
    counts: dict[str, int] = {}
    ours = 0
    last_side: str | None = None
    for n in range(MAX_ACTIONS):
        if state.is_over():
            break
        side = min(state.to_act())
        here = (state.round, state.phase) if state.phase in (MOVE, SUPPORT) else None
        if here != key:
            if key is not None:
                phases.append(
                    {
                        "first": counts.get(order[0], 0) if order else 0,
                        "second": counts.get(order[1], 0) if len(order) > 1 else 0,
                        "ours": ours,
                    }
                )
            key, order, counts, ours, last_side = here, [], {}, 0, None
        action: Action
        if level == "random":
            action = rng.choice(state.legal_actions(side))
        else:
            action = GAME.choose(state.view(side), level, seed * 100_003 + n, iterations=ITERATIONS)
        if here is not None:
            if side not in order:
                order.append(side)
            if last_side is not None and side != last_side:
                ours += 1
            last_side = side
            if not isinstance(action, A.Pass | A.End):
                counts[side] = counts.get(side, 0) + 1
        state.apply(action, side)
    return phases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", default="random", help="random, or an AI level of the game")
    args = parser.parse_args()
    phases = [p for seed in range(args.seed, args.seed + args.games) for p in play(seed, args.level)]
    phases = [p for p in phases if p["first"] + p["second"] > 0]
    ours = [p["ours"] for p in phases]
    text = [text_handoffs(p["first"], p["second"]) for p in phases]
    actions = [p["first"] + p["second"] for p in phases]
    result = {
        "bench": "passes",
        "level": args.level,
        "games": args.games,
        "phases": len(phases),
        "actions_per_phase_mean": round(statistics.mean(actions), 2),
        "ours_handoffs_per_phase_mean": round(statistics.mean(ours), 2),
        "text_handoffs_per_phase_mean": round(statistics.mean(text), 2),
        "ours_handoffs_per_phase_max": max(ours),
        "text_handoffs_per_phase_max": max(text),
        "text_over_ours": round(statistics.mean(text) / max(statistics.mean(ours), 1e-9), 2),
    }
    print(f"{len(phases)} move and support phases in {args.games} games ({args.level} play)")
    print(json.dumps(result))


if __name__ == "__main__":
    main()

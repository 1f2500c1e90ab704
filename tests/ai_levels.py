"""Checks every game whose levels run on the generic search shares (tests/<game>/test_ai.py call them).

A level's choice must be the same for the same view and seed, and its thinking must be bounded by
its iteration budget, not by the clock: the search's clock is frozen, so a time cap never binds and
only the iterations can stop it (a level that runs past its budget would never return).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import search
from engine.base import BaseGame
from engine.protocol import State


def positions(game: BaseGame, seeds: tuple[int, ...], plies: tuple[int, ...]) -> list[State]:
    """Positions along seeded random games where the side to act has a real choice."""
    found = []
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_game({}, seed)
        for n in range(max(plies) + 1):
            if state.is_over():
                break
            side = min(state.to_act())
            legal = state.legal_actions(side)
            if n in plies and len(legal) > 1:
                found.append(state.clone())
            state.apply(rng.choice(legal), side)
    assert found, "no position with a choice"
    return found


def check_level(game: BaseGame, level: str, states: list[State], monkeypatch: pytest.MonkeyPatch) -> None:
    """`level` picks the same legal action twice for each state and seed, within its iterations."""
    monkeypatch.setattr(search, "clock", lambda: 0.0)
    iterations: list[int] = []
    real = search.choose

    def counted(*args: Any, **kwargs: Any) -> Any:
        stats = search.SearchStats()
        kwargs["stats"] = stats
        action = real(*args, **kwargs)
        iterations.append(stats.iterations)
        return action

    monkeypatch.setattr(search, "choose", counted)
    for i, state in enumerate(states):
        side = min(state.to_act())
        picks = [game.choose(state.view(side), level, seed=100 + i) for _ in range(2)]
        assert str(picks[0]) == str(picks[1]), (level, i, [str(p) for p in picks])
        assert picks[0] in state.legal_actions(side)
    settings = game.search_levels[level]
    if settings.iterations:
        assert iterations and max(iterations) <= settings.iterations, (level, iterations)
    else:  # no tree search: the rule of thumb, or `greedy` actions judged one turn ahead
        assert iterations == [], (level, iterations)

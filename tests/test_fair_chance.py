"""Chance is never shown before it is drawn (issue 30), for every registered game.

The engine side: each state marks the chance it has drawn (`State.chance_drawn`) and events say
when they bring a secret into the open (`Event.reveals`); `drew_or_revealed` tells the platform
which step of a command committed its player.
"""

from __future__ import annotations

import random

import pytest

from engine import registry
from engine.protocol import drew_or_revealed
from tests.test_conformance import playout

GAMES = registry.names()


@pytest.mark.parametrize("name", GAMES)
def test_the_chance_mark_only_grows_and_survives_storage(name: str) -> None:
    """Along seeded random playouts the mark never goes back, a clone and a stored copy keep it,
    and it moves in a game of chance (every game but the Combined Arms ones draws after set-up)."""
    game = registry.game(name)
    moved = 0
    for seed in (1, 2):
        last = game.new_game({}, seed).chance_drawn()
        for state, _log in playout(name, seed, deep_every=1000, steps=250):
            mark = state.chance_drawn()
            assert mark >= last, f"{name}: the chance mark went back from {last} to {mark}"
            moved += mark != last
            last = mark
            assert state.clone().chance_drawn() == mark
            assert game.from_json(state.to_json()).chance_drawn() == mark
    if not name.startswith("combinedarms"):
        assert moved > 5, f"{name}: random play drew chance only {moved} times"


@pytest.mark.parametrize("name", GAMES)
def test_a_step_drew_or_revealed_exactly_when_the_mark_moved_or_an_event_reveals(name: str) -> None:
    """`drew_or_revealed` over real steps: a step that drew chance is told apart from one that did
    not, and a step whose mark did not move is committing only through a revealing event."""
    game = registry.game(name)
    rng = random.Random(3)
    state = game.new_game({}, 3)
    kinds = {True: 0, False: 0}
    for _ in range(200):
        if state.is_over():
            break
        side = rng.choice(sorted(state.to_act()))
        before = state.chance_drawn()
        events = state.apply(rng.choice(state.legal_actions(side)), side)
        said = drew_or_revealed(before, state.chance_drawn(), events)
        kinds[said] += 1
        if state.chance_drawn() == before:
            assert said == any(getattr(e, "reveals", False) for e in events)
        else:
            assert said
    assert kinds[False] > 0, f"{name}: some step must draw nothing"

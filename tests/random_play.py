"""Seeded random play, for the tests that read what a game says along the way (its event lines) or
need a position some way into a game."""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine.protocol import Event, Game, State


def random_steps(game: Game, seed: int, steps: int = 400) -> Iterator[tuple[State, str, list[Event]]]:
    """A seeded random game of `game` (default options), step by step: the first side owed an action
    plays a random legal one, `steps` at most; each step yields the state after it, the side and its
    events."""
    state = game.new_game({}, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over():
            break
        side = min(state.to_act())
        events = state.apply(rng.choice(state.legal_actions(side)), side)
        yield state, side, list(events)


def random_events(game: Game, seeds: tuple[int, ...], steps: int = 400) -> Iterator[tuple[str, Event]]:
    """Each event of a few seeded random games of `game`, with the side whose action it came from."""
    for seed in seeds:
        for _, side, events in random_steps(game, seed, steps):
            for event in events:
                yield side, event

"""Seeded random play for the tests that read what a game says along the way (its event lines)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine.protocol import Event, Game


def random_events(game: Game, seeds: tuple[int, ...], steps: int = 400) -> Iterator[tuple[str, Event]]:
    """Each event of a few seeded random games of `game` (default options), with the side whose
    action it came from: the first side owed an action plays a random legal one, `steps` at most."""
    for seed in seeds:
        state = game.new_game({}, seed)
        rng = random.Random(seed)
        for _ in range(steps):
            if state.is_over():
                break
            side = min(state.to_act())
            for event in state.apply(rng.choice(state.legal_actions(side)), side):
                yield side, event

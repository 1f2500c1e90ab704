"""Every game tells its events in the present tense, as a report of what just happened (docs/
architecture.md, "Words"): Block Wars told its own in the past, Fix Bayonets' and Company
Commander's decks "ran out" while their discard piles "are shuffled"."""

from __future__ import annotations

import random
import re

import pytest

from engine import registry

# The simple past of the verbs the games' events use; a participle ("lost", "kept secret", "have
# chosen") is not an event told in the past.
PAST = re.compile(
    r"\b(ran|was|were|moved|deployed|attacked|fired|won|took|brought|declined|offered|sent|fought|"
    r"rolled|missed|drew|played|chose|called|passed|ended|retreated)\b"
)


@pytest.mark.parametrize("name", registry.names())
def test_every_event_of_a_random_game_is_told_in_the_present(name: str) -> None:
    game = registry.game(name)
    told: list[str] = []
    for seed in (1, 2):
        rng, state = random.Random(seed), game.new_game({}, seed)
        for _ in range(400):
            if state.is_over():
                break
            side = rng.choice(sorted(state.to_act()))
            for event in state.apply(rng.choice(state.legal_actions(side)), side):
                told += [event.text(viewer) for viewer in (*(s.name for s in game.sides), None)]
    past = sorted({t for t in told if PAST.search(t)})
    assert len(told) > 50 and not past, past[:5]

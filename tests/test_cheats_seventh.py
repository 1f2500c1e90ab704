"""The seventh review from the store and the engine (docs/fairness.md, "the seventh review")."""

from __future__ import annotations

import random

import pytest

from engine import registry
from tests.test_fair_chance import twin_moments


@pytest.mark.parametrize("name", ["battlefronts", "companycommander"])
def test_what_a_board_shows_greyed_depends_only_on_public_facts(name: str) -> None:
    """Battlefronts' End turn and Company Commander's Done deploying are shown disabled until they
    are legal. The channel's menu, greyed buttons included, is the same in twins that differ only in
    what the player to act may not see and in chance to come, so a greyed button tells nothing."""
    game = registry.game(name)
    greyed = compared = 0
    for rng, state, side in twin_moments(name, 31, steps=80, every=2):
        twin = game.chance_twin(state, side, random.Random(rng.random()))
        menu = game.menu(state.view(None))
        assert menu == game.menu(twin.view(None))
        compared += 1
        greyed += any(c.disabled for c in menu.buttons)
    assert compared > 20 and greyed > 0, (compared, greyed)

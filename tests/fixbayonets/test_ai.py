"""The AI: the generic search with this game's evaluation, from its own view only."""

from __future__ import annotations

import random

import pytest

from engine.fixbayonets import GAME, ai
from engine.fixbayonets.state import FIGHTING
from tests.ai_levels import check_level, positions

from .helpers import A, G, pos


def choose(state, side: str, seed: int = 1) -> str:
    return str(GAME.choose(state.view(side), "normal", seed=seed, budget_s=60, iterations=300))


def test_it_kills_the_last_officer_when_it_can() -> None:
    s = pos({"d4": "GR", "d6": "AO", "a1": "ARRR", "b1": "ARR"}, g=["pistol", "bayonet"], phase=FIGHTING)
    assert choose(s, G) == "pistol Rd4xd6"


def test_it_cancels_an_attack_on_its_last_officer() -> None:
    s = pos({"d4": "GR", "d5": "AO", "a1": "ARR"}, g=["bayonet"], a=["trees", "march"], phase=FIGHTING)
    s.apply("bayonet Rd4xd5", G)
    assert choose(s, A) == "negate trees"


def test_it_gives_up_a_rifleman_rather_than_an_officer() -> None:
    s = pos({"d4": "GR", "d5": "AOR", "h1": "AO"}, g=["bayonet"], phase=FIGHTING)
    s.apply("bayonet Rd4xd5", G)
    assert choose(s, A) == "lose R"


def test_the_evaluation_counts_officers_above_all() -> None:
    base = pos({"d4": "GRRR", "d6": "AOO", "a1": "ARRR"})
    fewer_men = pos({"d4": "GR", "d6": "AOO", "a1": "ARRR"})
    fewer_officers = pos({"d4": "GRRR", "d6": "AO", "a1": "ARRR"})
    assert ai.evaluate(fewer_officers, G) > ai.evaluate(base, G) > ai.evaluate(fewer_men, G)
    assert ai.evaluate(fewer_officers, A) < ai.evaluate(base, A)
    assert all(-1 <= ai.evaluate(x, side) <= 1 for x in (base, fewer_men, fewer_officers) for side in (G, A))


def test_playouts_and_ordering_only_offer_legal_actions() -> None:
    rng = random.Random(3)
    s = GAME.new_game({}, 3)
    for _ in range(300):
        if s.is_over():
            break
        side = min(s.to_act())
        legal = s.legal_actions(side)
        assert sorted(map(str, ai.order(s, side, legal, rng))) == sorted(map(str, legal))
        action = ai.rollout(s, side, rng)
        assert action in legal
        s.apply(action, side)


def test_over_the_limit_it_throws_away_the_cards_it_can_never_play_first() -> None:
    """Fox Holes are American: the Germans can never play them (R22), so they go before any card
    the Germans can use, at every level that thinks."""
    from engine.fixbayonets.state import DISCARD, MOVING

    for level in ("easy", "normal"):
        for seed in range(4):
            s = pos(
                {"a3": "GRR", "e3": "GRR", "d8": "GOO", "a1": "ARR", "d1": "AOO"},
                g=["foxholes", "foxholes", "rifle4", "march", "trees", "charge", "run"],
                phase=DISCARD,
            )
            for _ in range(2):  # seven cards: both Fox Holes go
                action = GAME.choose(s.view(G), level, seed=seed, iterations=150)
                assert str(action) == "discard foxholes", (level, seed)
                s.apply(action, G)
            assert s.phase == MOVING


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_a_level_is_deterministic_for_a_seed_and_keeps_to_its_iterations(
    level: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    check_level(GAME, level, positions(GAME, (3, 4), (12, 30)), monkeypatch)

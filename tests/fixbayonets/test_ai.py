"""The AI: the generic search with this game's evaluation, from its own view only."""

from __future__ import annotations

import random

import pytest

from engine import search
from engine.base import CORRESPONDENCE
from engine.fixbayonets import GAME, ai
from engine.fixbayonets.game import SEARCH_LEVELS
from engine.fixbayonets.state import FIGHTING
from play.ratings import level_choice, level_label, level_rating
from tests.ai_levels import check_level, positions
from tests.ai_puzzles import kit

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


@pytest.mark.parametrize("level", ["easy", "normal", "hard", CORRESPONDENCE])
def test_a_level_is_deterministic_for_a_seed_and_keeps_to_its_iterations(
    level: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    check_level(GAME, level, positions(GAME, (3, 4), (12, 30)), monkeypatch)


def test_settling_early_is_opt_in_and_stops_a_clear_choice_sooner(monkeypatch: pytest.MonkeyPatch) -> None:
    """`Settings.settle` below 1 (correspondence here) stops once the leader's lead exceeds that
    share of the iterations left; by default the search stops only when it cannot be overtaken, so
    no other level's play changes. The clock is frozen: only the iterations count."""
    assert search.Settings().settle == 1.0
    assert SEARCH_LEVELS[CORRESPONDENCE].settle < 1.0
    monkeypatch.setattr(search, "clock", lambda: 0.0)
    s = pos({"d4": "GR", "d5": "AOR", "h1": "AO"}, g=["bayonet"], phase=FIGHTING)
    s.apply("bayonet Rd4xd5", G)  # the Americans choose who falls: the rifleman, plainly
    view, budget = s.view(A), 1000
    picked, spent = [], []
    for settle in (1.0, SEARCH_LEVELS[CORRESPONDENCE].settle):
        stats = search.SearchStats()
        settings = search.Settings(iterations=budget, settle=settle)
        action = search.choose(
            view,
            GAME.evaluate,
            seed=5,
            settings=settings,
            rollout=GAME.rollout,
            order=GAME.order,
            stats=stats,
        )
        picked.append(str(action))
        spent.append(stats.iterations)
    assert picked == ["lose R", "lose R"]
    full, early = spent
    assert early < full <= budget
    # the lead can pass `settle` times what is left only after about settle / (1 + settle) of it
    assert early >= budget * SEARCH_LEVELS[CORRESPONDENCE].settle / (1 + SEARCH_LEVELS[CORRESPONDENCE].settle)


def test_correspondence_is_rated_above_hard_and_says_its_think_time() -> None:
    """Its rating comes from its measured match against hard (docs/ai.md); the challenge shows it
    like the other levels', with the think time, whole."""
    hard, corr = level_rating(GAME, "hard"), level_rating(GAME, CORRESPONDENCE)
    assert hard is not None and corr is not None and corr > hard
    assert level_label(GAME, CORRESPONDENCE).startswith("correspondence, about ")
    text = level_choice(GAME, CORRESPONDENCE)
    assert not text.endswith("…") and "s a decision" in text, text


def test_correspondence_solves_every_puzzle() -> None:
    missed = [p for p in kit.load("fixbayonets") if not kit.solved(p, CORRESPONDENCE, 2)]
    assert not missed, kit.describe(missed)

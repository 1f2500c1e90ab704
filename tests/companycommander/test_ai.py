"""The AI: its judgement of a position, its rule of thumb, the levels' own play (hard's exact
odds above all), levels deterministic for a seed and the search within its iterations."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine import search
from engine.base import CORRESPONDENCE
from engine.companycommander import GAME, State, ai
from engine.companycommander.state import DEPLOY
from tests.ai_levels import check_level, positions

from .helpers import A, G, build, unit


def test_the_evaluation_counts_units_put_out_strength_and_fronts() -> None:
    level = build({"A1": "rifles C", "G1": "rifles C"})
    ahead = build({"A1": "rifles C", "G1": "rifles C"}, lost={G: 3})
    assert ai.evaluate(ahead, A) > ai.evaluate(level, A) > ai.evaluate(ahead, G)
    stronger = build({"A1": "rifles C", "A2": "sherman C", "G1": "rifles C"})
    assert ai.evaluate(stronger, A) > ai.evaluate(level, A)
    spread = build({"A1": "rifles L", "A2": "rifles C", "A3": "rifles R", "G1": "rifles C", "G2": "rifles L"})
    narrow = build({"A1": "rifles C", "A2": "rifles C", "A3": "rifles C", "G1": "rifles C", "G2": "rifles L"})
    assert ai.evaluate(spread, A) > ai.evaluate(narrow, A)
    pinned = build({"A1": "rifles C pinned", "G1": "rifles C"})
    assert ai.evaluate(pinned, A) < ai.evaluate(level, A)
    won = build({"A1": "hmg C", "G1": "scouts C", "G2": "rifles L"}, lost={G: 9})
    won.result = None
    assert -1.0 < ai.evaluate(won, G) < 0.0


def test_the_rule_of_thumb_covers_an_empty_front_and_fires() -> None:
    s = build(
        {"A1": "rifles L", "A2": "rifles C", "A3": "mortar -", "G1": "rifles R", "G2": "rifles C"},
        phase=DEPLOY,
    )
    picks = {str(ai.rollout(s, A, random.Random(k))) for k in range(20)}
    assert "deploy A3 R" in picks and not any(p.startswith("move") for p in picks)
    t = build({"A1": "hmg C", "A2": "rifles L", "G1": "rifles C"})
    assert str(ai.rollout(t, A, random.Random(3))) == "fire A1"


def test_the_search_orders_strong_actions_first() -> None:
    s = build({"A1": "hmg C", "A2": "rifles R", "G1": "rifles C"}, hands={A: ["artillery"]})
    ordered = [str(a) for a in ai.order(s, A, s.legal_actions(A), random.Random(1))]
    assert ordered.index("play artillery C") < ordered.index("end")
    assert ordered.index("fire A1") < ordered.index("end")


def _busy() -> State:
    return build(
        {"A1": "scouts C", "A2": "hmg C", "A3": "rifles L", "A4": "sherman R"}
        | {"G1": "rifles C", "G2": "mg42 L", "G3": "rifles R pinned"},
        hands={A: ["sniper", "medic", "ambush"], G: ["rally"]},
    )


@pytest.mark.parametrize("level", ["easy", "normal", "hard", "search"])
def test_a_level_plays_the_same_for_the_same_seed(level: str) -> None:
    s = _busy()
    iterations = 60 if level == "search" else None
    for seed in range(6):
        first = GAME.choose(s.view(A), level, seed=seed, budget_s=60, iterations=iterations)
        again = GAME.choose(s.view(A), level, seed=seed, budget_s=60, iterations=iterations)
        assert str(first) == str(again) and first in s.legal_actions(A)


def test_the_levels_play_their_own_policy_and_never_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """easy, normal and hard answer from the view dealt for the seed, without a single playout."""

    def no_search(*args: object, **kwargs: object) -> None:
        raise AssertionError("this level must not search")

    monkeypatch.setattr(search, "choose", no_search)
    s = _busy()
    for level, play in (("easy", ai.easy), ("normal", ai.rollout), ("hard", ai.careful)):
        for seed in range(4):
            dealt = s.view(A).determinize(random.Random(seed))
            expected = play(dealt, A, random.Random(f"thumb:{seed}"))
            assert str(GAME.choose(s.view(A), level, seed=seed)) == str(expected)


def test_the_search_level_stops_at_its_iterations() -> None:
    """The `search` level is bounded by iterations, not seconds: it never runs more than its budget
    (the few it may save stop when the best action can no longer be overtaken)."""
    settings = GAME.search_levels["search"]
    assert settings.iterations is not None and settings.iterations > 0
    small = replace(settings, iterations=48, budget_s=600.0)
    stats = search.SearchStats()
    s = _busy()
    action = search.choose(
        s.view(A), GAME.evaluate, seed=5, settings=small, rollout=GAME.rollout, order=GAME.order, stats=stats
    )
    assert action in s.legal_actions(A)
    assert 0 < stats.iterations <= 48


def test_the_search_level_is_deterministic_and_bounded_by_iterations_on_a_frozen_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The platform's check (tests/ai_levels.py): with the search's clock frozen, only its 200
    iterations can stop it, and it picks the same action twice for the same view and seed."""
    check_level(GAME, "search", positions(GAME, (3,), (25,)), monkeypatch)


def test_the_levels_are_described_and_normal_is_the_default() -> None:
    assert GAME.ai.names[:4] == ("random", "easy", "normal", "hard") and GAME.ai.default == "normal"
    assert set(GAME.ai.descriptions) == set(GAME.ai.names)
    rated = ("random", "easy", "normal", "hard", CORRESPONDENCE)
    assert set(GAME.ai.ratings) == set(rated) and GAME.ai.ratings["random"] == 0
    ladder = [GAME.ai.ratings[level] for level in rated]
    assert ladder == sorted(ladder)


# ---------------------------------------------------------------------------------- hard's odds


def test_a_barrage_is_worth_its_exact_odds() -> None:
    """One roll against a lone, unpinned Rifle squad: 3 throws in 36 give a Casualty, 12 a Pin."""
    s = build({"A1": "hmg C", "G1": "rifles C"})
    assert ai.roll_worth(s, A, 1) == pytest.approx((3 * ai.CASUALTY + 12 * ai.PIN) / 36)
    weak = build({"A1": "hmg C", "G1": "scouts C"})  # a Casualty destroys a Strength-1 unit
    assert ai.roll_worth(weak, A, 1) > ai.roll_worth(s, A, 1)
    assert ai.roll_worth(s, A, 0) < 0  # nobody at the Left Flank to hit


def test_hard_assaults_at_good_odds_only() -> None:
    bad = build({"A1": "rifles C", "G1": "panzer C"})  # 3 against 4: more repulses than hits
    assert ai.assault_worth(bad, unit(bad, "A1")) < ai.ASSAULT_FROM
    assert str(GAME.choose(bad.view(A), "hard", seed=1)) == "end"
    good = build({"A1": "rifles C", "G1": "rifles C pinned"})  # +2 against a Pinned unit
    assert ai.assault_worth(good, unit(good, "A1")) > 0
    assert str(GAME.choose(good.view(A), "hard", seed=1)) == "assault A1"


def test_hard_keeps_a_tank_to_assault_a_pinned_weak_unit() -> None:
    """A Sherman's fire at Pinned Scouts Pins nothing more; its assault (4 against 1, +2) all but
    destroys them: hard assaults, where the rule of thumb fires."""
    s = build({"A1": "sherman C", "G1": "scouts C pinned"})
    assert str(GAME.choose(s.view(A), "hard", seed=2)) == "assault A1"
    assert str(ai.rollout(s, A, random.Random(4))) == "fire A1"


def test_hard_marks_a_front_only_where_two_rolls_will_use_it() -> None:
    one = build({"A1": "scouts C", "A2": "hmg C", "G1": "rifles C"})
    assert not str(GAME.choose(one.view(A), "hard", seed=3)).startswith("recon")
    two = build({"A1": "scouts C", "A2": "hmg C", "A3": "mortar C", "G1": "rifles C"})
    assert str(GAME.choose(two.view(A), "hard", seed=3)) == "recon A1 mark"


def test_hard_lays_an_ambush_before_it_ends_its_turn() -> None:
    s = build({"A1": "rifles L", "A2": "rifles C", "G1": "panzer C", "G2": "rifles C"}, hands={A: ["ambush"]})
    s.forces[A]["A1"].acted = s.forces[A]["A2"].acted = True
    assert str(GAME.choose(s.view(A), "hard", seed=1)) == "play ambush C"


def test_hard_deploys_a_weak_unit_among_friends() -> None:
    s = build(
        {"A1": "rifles L", "A2": "rifles C", "A3": "rifles C", "A4": "rifles R", "A5": "scouts -"}
        | {"G1": "rifles L", "G2": "rifles C", "G3": "rifles R"},
        phase=DEPLOY,
    )
    assert {str(GAME.choose(s.view(A), "hard", seed=k)) for k in range(8)} == {"deploy A5 C"}


def test_an_ai_game_plays_to_the_end() -> None:
    s = GAME.new_game({}, 4)
    steps = 0
    while not s.is_over() and steps < 600:
        side = s.active
        s.apply(GAME.choose(s.view(side), "easy", seed=steps), side)
        steps += 1
    assert s.is_over()

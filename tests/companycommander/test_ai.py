"""The AI: its judgement of a position, its rule of thumb, and levels deterministic for a seed."""

from __future__ import annotations

import random

import pytest

from engine.companycommander import GAME, ai
from engine.companycommander.state import DEPLOY

from .helpers import A, G, build


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


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_a_level_plays_the_same_for_the_same_seed(level: str) -> None:
    s = build(
        {"A1": "scouts C", "A2": "hmg C", "A3": "rifles L", "G1": "rifles C", "G2": "mg42 L"},
        hands={A: ["sniper", "medic"], G: ["rally"]},
    )
    first = GAME.choose(s.view(A), level, seed=11, budget_s=60, iterations=None if level == "easy" else 80)
    again = GAME.choose(s.view(A), level, seed=11, budget_s=60, iterations=None if level == "easy" else 80)
    assert str(first) == str(again) and first in s.legal_actions(A)


def test_levels_differ_in_work_not_in_time() -> None:
    levels = GAME.search_levels
    assert levels["easy"].iterations == 0  # the rule of thumb
    assert 0 < levels["normal"].iterations < levels["hard"].iterations  # type: ignore[operator]
    assert set(GAME.ai.names) >= {"random", "easy", "normal", "hard"} and GAME.ai.default == "normal"


def test_an_ai_game_plays_to_the_end() -> None:
    s = GAME.new_game({}, 4)
    steps = 0
    while not s.is_over() and steps < 600:
        side = s.active
        s.apply(GAME.choose(s.view(side), "easy", seed=steps), side)
        steps += 1
    assert s.is_over()

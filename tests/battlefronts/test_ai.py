"""Battlefronts' AI levels: each deterministic for a seed, each within its iteration budget."""

from __future__ import annotations

from typing import Any

import pytest

from engine import search
from engine.battlefronts.state import ATTRITION, MOVE
from engine.search import Settings
from tests.ai_levels import check_level, positions

from .helpers import GAME


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_a_level_is_deterministic_for_a_seed_and_keeps_to_its_iterations(
    level: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    check_level(GAME, level, positions(GAME, (3, 4), (8, 20)), monkeypatch)


def _leaf_phases(to_turn_end: bool) -> list[bool]:
    """For each leaf a small search judges: whether it is at the start of a round (no battalion
    moved yet this round, nothing but attrition or the move phase begun)."""
    at_start: list[bool] = []

    def evaluate(state: Any, side: str) -> float:
        fresh = state.phase in (ATTRITION, MOVE) and not any(b.moved for b in state.battalions)
        at_start.append(fresh)
        return GAME.evaluate(state, side)

    settings = Settings(iterations=60, budget_s=60.0, rollout_depth=30, to_turn_end=to_turn_end)
    for i, state in enumerate(positions(GAME, (3, 4), (8, 20))):
        side = min(state.to_act())
        search.choose(
            state.view(side), evaluate, seed=i, settings=settings, rollout=GAME.rollout, order=GAME.order
        )
    return at_start


def test_playouts_to_the_turn_end_judge_every_leaf_at_the_start_of_a_round() -> None:
    """Hard's playouts run on to the round's end, so no leaf is judged halfway through one side's
    moves or call-ups; fixed-length playouts (normal's) stop anywhere in a round."""
    ended = _leaf_phases(True)
    fixed = _leaf_phases(False)
    assert len(ended) > 100 and len(fixed) > 100
    assert sum(ended) >= 0.95 * len(ended), (sum(ended), len(ended))
    assert sum(fixed) <= 0.5 * len(fixed), (sum(fixed), len(fixed))


def test_the_level_descriptions_say_what_the_searches_do() -> None:
    """The challenge's level choices name each search's playouts, and only hard's run to the round's end."""
    for level in ("normal", "hard"):
        settings = GAME.search_levels[level]
        said = GAME.ai.descriptions[level]
        assert f"{settings.iterations} playouts" in said, (level, said)
        assert ("round's end" in said) == settings.to_turn_end, (level, said)
    assert GAME.search_levels["hard"].to_turn_end and not GAME.search_levels["normal"].to_turn_end

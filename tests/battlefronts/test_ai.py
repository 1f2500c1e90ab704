"""Battlefronts' AI levels: each deterministic for a seed, each within its iteration budget."""

from __future__ import annotations

import pytest

from tests.ai_levels import check_level, positions

from .helpers import GAME


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_a_level_is_deterministic_for_a_seed_and_keeps_to_its_iterations(
    level: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    check_level(GAME, level, positions(GAME, (3, 4), (8, 20)), monkeypatch)

"""Issue 32: every puzzle's claims hold in the engine, `hard` solves every puzzle and `normal` at
least 80 % of them, in every game, asked as the bot asks (`Game.choose`, the level's own budget).

The whole set runs in `bench/puzzles.py`; here each level plays every puzzle in two worlds (deals of
the unknown) except where its turns are long (Battlefronts' `hard`: a subset, `HARD_SUBSET`).
"""

from __future__ import annotations

import pytest

from tests.ai_puzzles import kit

ALL = [p for game in kit.GAMES for p in kit.load(game)]
SLOW_HARD = {"battlefronts"}  # about a second a decision: a few puzzles here, all in the bench
HARD_SUBSET = 3
WORLDS = 2


def test_every_game_has_ten_puzzles_and_the_suite_all_three_kinds() -> None:
    """(Fix Bayonets has mostly *win now* positions: docs/ai.md says why.)"""
    for game in kit.GAMES:
        puzzles = kit.load(game)
        assert len(puzzles) >= 10, (game, len(puzzles))
        assert {p.kind for p in puzzles} <= set(kit.KINDS)
    assert {p.kind for p in ALL} == set(kit.KINDS)
    assert len({p.name for p in ALL}) == len(ALL)


@pytest.mark.parametrize("puzzle", ALL, ids=lambda p: p.name)
def test_the_engine_confirms_the_answer(puzzle: kit.Puzzle) -> None:
    assert kit.verify(puzzle) == []


@pytest.mark.parametrize("game", kit.GAMES)
def test_hard_solves_every_puzzle(game: str) -> None:
    puzzles = kit.load(game)
    if game in SLOW_HARD:
        puzzles = [p for p in puzzles if p.build is not None] + [p for p in puzzles if p.build is None][
            :HARD_SUBSET
        ]
    missed = [p for p in puzzles if not kit.solved(p, "hard", WORLDS)]
    assert not missed, kit.describe(missed)


@pytest.mark.parametrize("game", kit.GAMES)
def test_normal_solves_four_in_five(game: str) -> None:
    puzzles = kit.load(game)
    missed = [p for p in puzzles if not kit.solved(p, "normal", WORLDS)]
    assert len(missed) <= 0.2 * len(puzzles), kit.describe(missed)

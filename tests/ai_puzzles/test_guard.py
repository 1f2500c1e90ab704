"""The win check every level makes first (engine/search.py `guarded`, issue 32), on its own: it
takes a win that is there, it refuses a pick that hands the opponent one, it keeps a pick that
does neither, and `random` makes no check."""

from __future__ import annotations

import random

from engine import search
from engine.companycommander import GAME as CC
from engine.protocol import State
from tests.ai_puzzles import examples


def _guarded(side: str, state: State, pick: str, level: str = "normal") -> str:
    return str(CC.guarded(state.view(side), level, 7, lambda: CC.parse(pick)))


def test_a_win_that_is_there_is_taken_whatever_the_level_would_pick() -> None:
    s = examples.cc_three_fronts()
    assert _guarded("americans", s, "tactics") in {"move A2 R", "move A3 R", "move A4 R"}


def test_a_pick_that_hands_the_opponent_a_win_gives_way_to_one_that_does_not() -> None:
    s = examples.cc_two_fronts("americans")
    chosen = _guarded("americans", s, "tactics")
    assert chosen.startswith("move A") and chosen[-1] in "LR", chosen


def test_a_pick_that_loses_only_by_the_dice_gives_way_too() -> None:
    """At nine losses, a Strength-1 assault is repulsed one time in four: the tenth loss."""
    s = examples.cc_nine_losses()
    assert _guarded("americans", s, "assault A1", "hard") != "assault A1"


def test_a_safe_pick_is_kept_and_random_makes_no_check() -> None:
    s = examples.cc_last_flank("americans")
    assert _guarded("americans", s, "move A2 R") == "move A2 R"
    assert CC.guard_of("random") is None
    assert _guarded("americans", s, "move A1 C", "random") == "move A1 C"


def test_a_win_line_is_a_line_of_the_sides_own_actions() -> None:
    s = examples.cc_three_fronts()
    line = search.win_line(s, "americans", 1, 4, CC.order, CC.rollout, random.Random(0))
    assert line is not None and len(line) == 1 and str(line[0]).endswith(" R")
    assert search.win_line(s, "germans", 2, 4, CC.order, CC.rollout, random.Random(0)) is None

"""The move phase: king steps over empty squares, once per unit, and how the phase ends (R5, R6, R8)."""

from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from tests.combinedarms.helpers import BRITISH, GERMANS, E, at, build, code_at, legal, play


def test_a_unit_moves_up_to_its_move_in_king_steps_diagonals_counting_one():
    s = build("wwi", {"d4": "I", "h8": "h", "a1": "H"})
    moves = {m for m in legal(s, BRITISH) if m.startswith("d4-")}
    # Infantry (Move 2): every square within two king steps, diagonals counting one (R5).
    expected = {f"d4-{f}{r}" for f in "bcdef" for r in range(2, 7)} - {"d4-d4"}
    assert moves == expected
    play(s, BRITISH, "d4-f6")
    assert code_at(s, "f6") == "I" and code_at(s, "d4") is None


def test_units_cannot_move_through_other_units_friend_or_foe():
    # A Move-1 wall around an Infantry unit on a1: its only way out is blocked.
    s = build("wwi", {"a1": "I", "a2": "I", "b2": "i", "b1": "I", "h8": "h", "h1": "H"})
    assert not {m for m in legal(s, BRITISH) if m.startswith("a1-")}
    with pytest.raises(IllegalAction, match="No path of empty squares"):
        play(s, BRITISH, "a1-a3")


def test_a_path_may_go_round_units_within_the_move():
    # Trench Raiders (Move 3) reach e4 from e1 around a wall on rank 2... only through d2 / f2 gaps.
    s = build("wwi", {"e1": "R", "c2": "I", "d2": "I", "e2": "I", "f2": "I", "g2": "I", "a8": "h", "a1": "H"})
    assert "e1-e4" not in legal(s, BRITISH)  # every way to rank 2 is shut, and rank 2 must be crossed
    s = build("wwi", {"e1": "R", "d2": "I", "e2": "I", "f2": "I", "a8": "h", "a1": "H"})
    assert "e1-e4" not in legal(s, BRITISH)  # c2/g2 open, but e4 is then 4 steps away
    assert "e1-c3" in legal(s, BRITISH)


def test_a_diagonal_step_may_pass_between_two_occupied_squares():
    # d4 and e5 hold units; the diagonal step d5 -> e4 slips between them (R6).
    s = build("wwi", {"d5": "S", "d4": "i", "e5": "I", "h8": "h", "a1": "H"})
    assert "d5-e4" in legal(s, BRITISH)
    play(s, BRITISH, "d5-e4")
    assert code_at(s, "e4") == "S"


def test_each_unit_moves_once_and_the_hq_never_moves():
    s = build("wwi", {"c3": "T", "d1": "H", "h8": "h"})
    play(s, BRITISH, "c3-c4")
    with pytest.raises(IllegalAction, match="already moved"):
        play(s, BRITISH, "c4-c5")
    assert not any(m.startswith("d1-") for m in legal(s, BRITISH))
    with pytest.raises(IllegalAction, match="cannot move"):
        play(s, BRITISH, "d1-d2")


def test_moving_the_enemy_or_an_empty_square_is_refused_with_a_reason():
    s = build("wwi", {"c3": "T", "d1": "H", "h8": "h", "c6": "i"})
    with pytest.raises(IllegalAction, match="not yours") as info:
        play(s, BRITISH, "c6-c5")
    assert info.value.legal
    with pytest.raises(IllegalAction, match="no unit on e4"):
        play(s, BRITISH, "e4-e5")
    with pytest.raises(IllegalAction) as info:
        play(s, BRITISH, "c3-c7")
    assert str(info.value) == "Your Tank moves at most 2 squares; c7 is 4 squares away."
    with pytest.raises(IllegalAction, match="not on this board"):
        play(s, BRITISH, "c3-z9")


def test_acting_out_of_turn_is_told_whose_turn_it_is_in_good_english():
    s = build("wwi", {"c3": "T", "d1": "H", "h8": "h", "c6": "i"})
    with pytest.raises(IllegalAction) as info:
        play(s, GERMANS, "c6-c5")
    assert str(info.value) == "It is the British turn, not yours."  # never "the British' turn"
    s = build("wwii", {"c3": "T", "d1": "H", "h8": "h", "c6": "i"})
    with pytest.raises(IllegalAction) as info:
        play(s, GERMANS, "c6-c5")
    assert str(info.value) == "It is the Americans' turn, not yours."


def test_done_ends_the_move_phase_and_an_attack_ends_it_too():
    s = build("wwi", {"c3": "T", "c5": "i", "d1": "H", "h8": "h"})
    events = play(s, BRITISH, "done")
    assert any(isinstance(e, E.MovesDone) for e in events)
    with pytest.raises(IllegalAction, match="move phase is over") as info:
        play(s, BRITISH, "c3-c4")
    # The example is an attack this side can make (not a made-up `c4xd6`).
    assert str(info.value) == (
        "The move phase is over: attack an enemy unit in range (e.g. `c3xc5`) or `end` your turn."
    )
    with pytest.raises(IllegalAction, match="already over"):
        play(s, BRITISH, "done")
    play(s, BRITISH, "c3xc5")
    with pytest.raises(IllegalAction) as info:
        play(s, BRITISH, "c3-c4")
    assert str(info.value) == "The move phase is over: no unit of yours can attack now; `end` your turn."
    with pytest.raises(IllegalAction) as info:
        play(s, BRITISH, "army balanced")
    assert str(info.value) == "Set-up is over: no unit of yours can attack now; `end` your turn."
    s = build("wwi", {"c3": "T", "c5": "i", "d1": "H", "h8": "h"})
    with pytest.raises(IllegalAction) as info:
        play(s, BRITISH, "deploy line")
    assert str(info.value).startswith("Set-up is over: move a unit (e.g. `c3-")
    assert str(info.value).endswith("`done` to go on to the attacks, or `end` your turn.")
    # An attack sent during the move phase closes it first (R8).
    s = build("wwi", {"c3": "T", "c5": "i", "d1": "H", "h8": "h"})
    events = play(s, BRITISH, "c3xc5")
    assert isinstance(events[0], E.MovesDone) and isinstance(events[1], E.Hit)
    assert s.step == "attack"
    assert not any("-" in a for a in legal(s, BRITISH))


def test_end_in_the_move_phase_skips_the_attacks_and_passes_the_turn():
    s = build("wwi", {"c3": "T", "c5": "i", "d1": "H", "h8": "h"})
    play(s, BRITISH, "end")
    assert s.active == 1 and s.step == "move" and s.to_act() == {GERMANS}


def test_legal_moves_stay_right_as_units_move_around_each_other():
    """The per-unit move cache must notice squares opened or closed by other moves."""
    s = build("wwi", {"a1": "I", "a2": "I", "b1": "I", "b2": "I", "h8": "h", "h1": "H"})
    assert not any(m.startswith("a1-") for m in legal(s, BRITISH))
    play(s, BRITISH, "b2-c4")
    assert "a1-b2" in legal(s, BRITISH) and "a1-c3" in legal(s, BRITISH)
    play(s, BRITISH, "a2-b3")
    assert "a1-a3" in legal(s, BRITISH)
    play(s, BRITISH, "b1-a2")
    assert "a1-b1" in legal(s, BRITISH)
    assert at(s, "a2") != -1

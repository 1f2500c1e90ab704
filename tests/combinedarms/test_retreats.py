"""Retreats: which squares, who chooses, the quick decision, the Double Whammy (R10-R14, W5)."""

from __future__ import annotations

import pytest

from engine.combinedarms import actions as A
from engine.errors import IllegalAction
from tests.combinedarms.helpers import AMERICANS, BRITISH, GERMANS, E, at, build, code_at, legal, play


def push(s, side: str, *attacks: str) -> list[E.Event]:
    return play(s, side, "done", *attacks)


def test_the_defender_chooses_among_back_and_lateral_squares_as_a_quick_decision():
    # Artillery from afar (no contact): German Infantry on d5 may go d6, e6, c6 (back) or e5, c5 (sideways).
    s = build("wwi", {"d1": "A", "d2": "A", "a1": "F", "b2": "S", "d5": "i", "h1": "H", "h8": "h"})
    s.u_dmg[at(s, "d5")] = 2
    events = push(s, BRITISH, "d1xd5")
    owed = next(e for e in events if isinstance(e, E.RetreatOwed))
    assert owed.options == ("d6", "e6", "c6", "e5", "c5")
    assert s.to_act() == {GERMANS} and s.quick_decision()
    assert legal(s, GERMANS) == {"retreat d6", "retreat e6", "retreat c6", "retreat e5", "retreat c5"}
    assert legal(s, BRITISH) == set()
    # The automatic choice, played when the deadline passes: straight back (R12).
    assert str(s.default_action(GERMANS)) == "retreat d6"
    assert s.default_action(BRITISH) is None
    # The attacker cannot go on until the defender answers, and is told why.
    with pytest.raises(IllegalAction, match="must first choose where their Infantry on d5 retreats"):
        play(s, BRITISH, "d2xd5")
    # Anything else from the defender is refused, naming the unit, its squares and the notation.
    with pytest.raises(IllegalAction) as refused:
        play(s, GERMANS, "end")
    assert str(refused.value) == (
        "First choose where your Infantry on d5 retreats: d6, e6, c6, e5 or c5 (`retreat d6`)."
    )
    play(s, GERMANS, "retreat c5")
    assert code_at(s, "c5") == "i" and s.to_act() == {BRITISH} and not s.quick_decision()
    assert s.step == "attack"


def test_the_automatic_order_leans_towards_the_centre_from_the_right_half_too():
    """R12: "towards the centre" is towards the d and e files from either half, so a unit on the
    f file falls back towards e first, not g (a unit on d leans to e, above)."""
    s = build("wwi", {"f1": "A", "a1": "H", "h8": "h", "f5": "i"})
    s.u_dmg[at(s, "f5")] = 2
    owed = next(e for e in push(s, BRITISH, "f1xf5") if isinstance(e, E.RetreatOwed))
    assert owed.options == ("f6", "e6", "g6", "e5", "g5")
    assert str(s.default_action(GERMANS)) == "retreat f6"
    # Straight back shut: the automatic square is the back diagonal towards the centre.
    s = build("wwi", {"f1": "A", "a1": "H", "h8": "h", "f5": "i", "f6": "i"})
    s.u_dmg[at(s, "f5")] = 2
    push(s, BRITISH, "f1xf5")
    assert str(s.default_action(GERMANS)) == "retreat e6"


def test_a_wrong_retreat_square_is_refused():
    s = build("wwi", {"d1": "A", "d5": "i", "h1": "H", "h8": "h"})
    s.u_dmg[at(s, "d5")] = 2
    push(s, BRITISH, "d1xd5")
    with pytest.raises(IllegalAction, match="d4 is not a square"):
        play(s, GERMANS, "retreat d4")  # forwards is never a retreat


def test_lateral_squares_in_contact_with_an_enemy_are_not_allowed_back_squares_are():
    # British Infantry on e4 attacks d5 from the front-right: c5 touches nothing, e5 touches e4.
    s = build("wwi", {"e4": "I", "d5": "i", "e7": "I", "h1": "H", "h8": "h"})
    s.u_dmg[at(s, "d5")] = 2
    events = push(s, BRITISH, "e4xd5")
    owed = next(e for e in events if isinstance(e, E.RetreatOwed))
    # e6 (back, diagonal) touches e7 and is still allowed: contact only bars sideways moves (R11).
    assert owed.options == ("d6", "e6", "c6", "c5")


def test_a_single_square_is_taken_at_once_and_none_destroys():
    # Only d6 is open (c6, e6 taken by friends, laterals in contact with the attackers).
    s = build("wwi", {"c4": "F", "e4": "F", "d5": "i", "c6": "i", "e6": "i", "h1": "H", "h8": "h"})
    events = push(s, BRITISH, "c4xd5", "e4xd5")
    moved = next(e for e in events if isinstance(e, E.Retreated))
    assert (moved.src, moved.dst, moved.how) == ("d5", "d6", "only square") and s.pending is None
    assert moved.text() == "the German Infantry retreats from d5 to d6 (the only square)"
    # Every square shut: destroyed.
    s = build("wwi", {"c4": "F", "e4": "F", "d5": "i", "c6": "i", "d6": "i", "e6": "i", "h1": "H", "h8": "h"})
    events = push(s, BRITISH, "c4xd5", "e4xd5")
    gone = next(e for e in events if isinstance(e, E.Destroyed))
    assert (gone.src, gone.why) == ("d5", "no retreat") and at(s, "d5") == -1
    assert gone.text() == (
        "the German Infantry on d5 is destroyed (no square to retreat to: each square behind it is "
        "taken, and each beside it taken or next to an enemy)"
    )


def test_a_unit_on_its_own_back_row_with_no_side_square_retreats_off_the_board():
    s = build("wwi", {"c7": "F", "e7": "F", "d8": "i", "c8": "i", "e8": "i", "a1": "H", "h5": "h"})
    events = push(s, BRITISH, "c7xd8", "e7xd8")
    gone = next(e for e in events if isinstance(e, E.Destroyed))
    assert gone.why == "off the board"
    assert gone.text() == (
        "the German Infantry on d8 is destroyed (no square to retreat to: the board ends behind it, "
        "and each square beside it is taken or next to an enemy)"
    )


def test_the_wwi_headquarters_cannot_move_so_a_forced_retreat_destroys_it():
    """R14 by the text: a retreating unit unable to move is destroyed, and the HQ has Move 0,
    even with free squares behind it (as WWII's bases, W5)."""
    s = build("wwi", {"d6": "F", "e6": "F", "d7": "h", "a1": "H"})
    events = push(s, BRITISH, "d6xd7", "e6xd7")  # 4 damage, defence 4
    (gone,) = [e for e in events if isinstance(e, E.Destroyed)]
    assert gone.why == "cannot move" and "cannot move cannot retreat" in gone.text()
    assert code_at(s, "d7") is None and not any(isinstance(e, E.RetreatOwed) for e in events)
    outcome = s.outcome()
    assert outcome is not None and outcome.winner == BRITISH and "Headquarters" in outcome.detail


def test_move_1_units_retreat_one_square():
    # A Move-1 Artillery piece falls back exactly one square, like any unit that can move.
    s = build("wwi", {"d3": "F", "d4": "a", "a1": "H", "h8": "h"})
    push(s, BRITISH, "d3xd4")
    assert s.pending is not None and all(s.g.distance(s.g.index["d4"], o) == 1 for o in s.pending[1])


def test_double_whammy_a_second_forced_retreat_in_the_same_turn_destroys():
    s = build("wwi", {"c4": "F", "e4": "F", "b4": "A", "f4": "A", "d5": "i", "a1": "H", "h8": "h"})
    push(s, BRITISH, "c4xd5", "e4xd5")
    play(s, GERMANS, "retreat d6")
    uid = at(s, "d6")
    # Damage counts from 0 after the first retreat (R13): one hit does not finish it...
    events = play(s, BRITISH, "b4xd6")
    assert s.u_dmg[uid] == 1 and not any(isinstance(e, E.Destroyed) for e in events)
    # ...and the line says what it counts from: 4 damage this turn, 1 since it fell back.
    (hit,) = [e for e in events if isinstance(e, E.Hit)]
    assert hit.text() == (
        "the British Artillery on b4 hits the German Infantry on d6: 1 damage (1 of 3 since it fell back)"
    )
    play(s, BRITISH, "f4xd6")
    assert s.u_dmg[uid] == 2
    # ...reaching its defence again does.
    s2 = build("wwi", {"c4": "F", "e4": "F", "b5": "F", "d5": "i", "a1": "H", "h8": "h"})
    push(s2, BRITISH, "c4xd5", "e4xd5")
    play(s2, GERMANS, "retreat c6")
    s2.u_dmg[at(s2, "c6")] = 1
    events = play(s2, BRITISH, "b5xc6")
    gone = next(e for e in events if isinstance(e, E.Destroyed))
    assert gone.why == "double whammy" and at(s2, "c6") == -1
    assert gone.text() == "the German Infantry on c6 is destroyed (forced back a second time this turn)"


def test_the_double_whammy_is_forgotten_when_the_turn_ends():
    s = build("wwi", {"c4": "F", "e4": "F", "d5": "i", "a1": "H", "h8": "h"})
    push(s, BRITISH, "c4xd5", "e4xd5")
    play(s, GERMANS, "retreat d6")
    uid = at(s, "d6")
    assert uid in s.retreated
    play(s, BRITISH, "end")
    assert uid not in s.retreated and s.u_dmg[uid] == 0


def test_standing_order_takes_the_automatic_square_without_asking():
    s = build("wwi", {"d1": "A", "d2": "A", "d5": "i", "h1": "H", "h8": "h"})
    events = s.apply(A.AutoRetreat(True), GERMANS)  # either side, any time
    assert isinstance(events[0], E.StandingOrder) and s.auto == [False, True]
    assert events[0].text() == "the Germans will take the automatic retreat square from now on"
    s.u_dmg[at(s, "d5")] = 2
    events = push(s, BRITISH, "d1xd5")
    moved = next(e for e in events if isinstance(e, E.Retreated))
    assert (moved.dst, moved.how) == ("d6", "automatic") and s.pending is None
    with pytest.raises(IllegalAction, match="already on"):
        s.apply(A.AutoRetreat(True), GERMANS)
    (off,) = s.apply(A.AutoRetreat(False), GERMANS)
    assert isinstance(off, E.StandingOrder) and s.auto == [False, False]
    assert off.text() == "the Germans will choose their retreat squares again"


def test_turning_the_standing_order_on_answers_a_pending_retreat():
    s = build("wwi", {"d1": "A", "d5": "i", "h1": "H", "h8": "h"})
    s.u_dmg[at(s, "d5")] = 2
    push(s, BRITISH, "d1xd5")
    assert s.pending is not None
    events = s.apply(A.AutoRetreat(True), GERMANS)
    assert any(isinstance(e, E.Retreated) and e.dst == "d6" for e in events)
    assert s.pending is None and s.to_act() == {BRITISH}


def test_wwii_bases_are_destroyed_when_forced_to_retreat():
    s = build(
        "wwii",
        {"d4": "A", "e4": "A", "c4": "A", "b4": "A", "f4": "A", "g4": "A", "d6": "f", "a1": "H", "h8": "h"},
    )
    events = push(s, AMERICANS, "d4xd6", "e4xd6", "c4xd6", "b4xd6", "f4xd6")
    assert not any(isinstance(e, E.Destroyed) for e in events)
    events = play(s, AMERICANS, "g4xd6")  # the 6th damage: a Fortification cannot retreat (W5)
    gone = next(e for e in events if isinstance(e, E.Destroyed))
    assert (gone.src, gone.why) == ("d6", "base")

"""The worked example of the original text: James (Reds) against David (Blues) at one front.

James: a three-card battalion showing a 5 (then a 9, then a 2), and the Queen's battalion, which
the text calls "two cards" but gives strength 4, so it has four cards (R1): Queen, 9, and two more.
David: a four-card battalion showing a 3 (then an 8), a lone 10 and a lone 2.
"""

from __future__ import annotations

from engine.battlefronts.events import Battle, Reduced
from engine.battlefronts.state import BATTLE, MOVE

from .helpers import BLUE, RED, begin, build, of_type, tops

JAMES = ["R1:5H 9D 2C", "R2:QS 9C 3D 4H"]
DAVID = ["B1:3C 8D 4S 6H", "B2:TD", "B3:2S"]


def example():
    return build({"F3": {RED: JAMES, BLUE: DAVID}}, round=3, phase=BATTLE)


def test_the_queens_battalion_has_four_cards_and_strength_four() -> None:
    s = example()
    assert tops(s, "R2") == ("QS", 4, 4)
    assert s.total(RED, 4) == 9 and s.total(BLUE, 4) == 15


def test_battle_damage_is_the_total_over_five_rounded_up() -> None:
    events = begin(example())
    (battle,) = of_type(events, Battle)
    assert (battle.red, battle.blue) == (9, 15)
    assert battle.on_blue == 2  # 9 / 5 rounded up
    assert battle.on_red == 3  # 15 / 5


def test_the_reductions_follow_the_text_one_by_one() -> None:
    events = begin(example())
    battle = [e for e in of_type(events, Reduced) if e.cause == "battle"]
    james = [(e.unit, e.discarded, e.was, e.revealed) for e in battle if e.side == RED]
    david = [(e.unit, e.discarded, e.was, e.revealed) for e in battle if e.side == BLUE]
    assert james == [
        ("R1", "5H", 5, "9D"),  # the 5 goes (not the Queen: strength, not rank, R2), a 9 turns up
        ("R1", "9D", 9, "2C"),  # the newly turned 9 is now the strongest (R3)
        ("R2", "QS", 4, "9C"),  # the Queen counts 4 against the 2
    ]
    assert david == [("B2", "TD", 10, None), ("B1", "3C", 3, "8D")]


def test_final_strengths_are_eleven_and_ten() -> None:
    s = example()
    events = begin(s)
    after_battle = {e.unit: e.strength for e in of_type(events, Reduced) if e.cause == "battle"}
    assert after_battle["R1"] + after_battle["R2"] == 11  # 2 + 9
    assert after_battle["B1"] + 2 == 10  # 8 + the untouched 2
    assert "B2" not in {b.label for b in s.battalions}  # worn down


def test_next_rounds_attrition_takes_jamess_nine_and_davids_eight() -> None:
    s = example()
    events = begin(s)  # the battle, the check, and the next round's attrition
    attrition = [(e.side, e.unit, e.discarded) for e in of_type(events, Reduced) if e.cause == "attrition"]
    assert sorted(attrition) == [(BLUE, "B1", "8D"), (RED, "R2", "9C")]
    assert s.round == 4 and s.phase == MOVE
    assert tops(s, "R2") == ("3D", 2, 3) and tops(s, "B1") == ("4S", 2, 4)

"""Answering Block Wars' decisions: every prompt names the exact words that answer it, a bare square
answers a decision about a square, and a refused answer says why and what is legal (issue 13)."""

from __future__ import annotations

import re

import pytest

from engine.blockwars import GAME, IllegalAction, InvalidNotation, Options, parse
from engine.blockwars.events import Reinforced
from engine.blockwars.state import State
from tests.rules_helpers import C, G, empty_reserve, legal, pos

CROSSES = Options(crosses=True)


def answers_in(text: str) -> list[str]:
    """The words in backticks, with <square> examples left out."""
    return [w for w in re.findall(r"`([^`]+)`", text) if "<" not in w]


def barrage_pending(side=G, gas_used=False) -> State:
    """A King drawn by `side`, attacking: its barrage decision waits."""
    if side is G:
        s = pos({"e5": "G", "e4": "C", "a8": "G", "h1": "C"}, active=G, g=["KC"], c=["2D"])
        s.gas_used = gas_used
        s.apply("e5xe4")
    else:
        s = pos({"e4": "C", "e5": "G", "a8": "G", "h1": "C"}, active=C, c=["KC"], g=["2D"])
        s.apply("e4xe5")
    assert s.pending is not None and s.pending.kind == "barrage"
    return s


def ace_pending(*, guns=False) -> State:
    s = pos({"e5": "G", "e4": "C", "a8": "G", "h1": "C"}, active=G, g=["AD"], c=["2C"])
    if guns:
        empty_reserve(s, G)
    s.apply("e5xe4")
    assert s.pending is not None and s.pending.kind == "ace"
    return s


def strafe_pending() -> State:
    pieces = {"e5": "G", "e4": "C", "a8": "G", "c2": "C", "f1": "CT"}
    s = pos(pieces, active=G, g=["JD", "9C"], c=["2C", "3S"])
    s.apply("e5xe4")  # the German Jack: the Canadians may dogfight
    s.apply("decline")
    assert s.pending is not None and s.pending.kind == "strafe"
    return s


def every_decision() -> list[State]:
    cross = pos({"e5": "G", "e4": "C", "a8": "G", "h1": "C"}, active=G, g=["2D"], c=["9C"], options=CROSSES)
    cross.apply("e5xe4")
    dogfight = pos({"e5": "G", "e4": "C", "a8": "G", "h1": "C"}, active=G, g=["JD"], c=["2C"])
    dogfight.apply("e5xe4")
    fly = pos({"e5": "G", "e4": "C", "a8": "G", "h1": "C"}, active=G, g=["JD"], c=["2C"])
    fly.aircraft[G]["B"] = "damaged"
    fly.apply("e5xe4")
    states = [barrage_pending(), barrage_pending(C), ace_pending(), ace_pending(guns=True), strafe_pending()]
    states += [cross, dogfight, fly]
    kinds = {s.pending.kind for s in states if s.pending}
    assert kinds == {"barrage", "ace", "fly", "dogfight", "strafe", "cross"}
    return states


def test_every_prompt_names_words_that_answer_it():
    """The words in backticks parse, and every one that is a whole answer is legal now."""
    for s in every_decision():
        assert s.pending is not None
        side = s.pending.side.value
        status = GAME.status(s.view(side), side)
        words = answers_in(status)
        assert words, status
        for w in words:
            assert str(parse(w)) in legal(s), (s.pending.kind, w, status)
        # Every kind of legal answer appears in the prompt (as itself or as its pattern).
        kinds = {a.split()[0] if " " in a else a[:2] for a in legal(s)}
        for k in kinds:
            assert k in status, (k, status)


def test_the_ace_prompt_says_how_to_answer_it():
    s = ace_pending()
    assert s.pending is not None
    question = s.pending.question(s.legal_actions())
    assert "`R@<square>`" in question and "`R@b8`" in question
    assert "M@" not in question  # no gun can return while infantry is in reserve
    s = ace_pending(guns=True)
    assert s.pending is not None and "`M@<square>`" in s.pending.question(s.legal_actions())


def test_gas_is_offered_only_while_it_lasts():
    assert "`gas e4`" in GAME.status(barrage_pending().view("germans"), "germans")
    assert "gas" not in GAME.status(barrage_pending(gas_used=True).view("germans"), "germans")
    assert "gas" not in GAME.status(barrage_pending(C).view("canadians"), "canadians")


def test_a_bare_square_answers_a_decision_about_a_square():
    s = ace_pending()
    (r,) = [e for e in s.apply(parse("d8"), "germans") if isinstance(e, Reinforced)]
    assert r.squares == ("d8",) and r.by_ace
    s = barrage_pending()
    s.apply(parse("c3"), "germans")
    assert not s.gas_used  # gas must be declared: a square alone is the ordinary barrage
    s = strafe_pending()
    s.apply(parse("c2"), "germans")
    assert s.pending is None


def test_a_bare_square_that_cannot_answer_says_exactly_what_to_type():
    s = ace_pending()
    with pytest.raises(IllegalAction, match=r"back row \(rank 8\).*`R@<square>`") as exc:
        s.apply(parse("d7"), "germans")
    assert "R@b8" in [str(a) for a in exc.value.legal]
    s = ace_pending(guns=True)  # infantry and guns may both return: which one?
    with pytest.raises(IllegalAction, match=r"Say which unit comes to d8: `R@d8` or `M@d8`"):
        s.apply(parse("d8"), "germans")
    s = strafe_pending()
    with pytest.raises(IllegalAction, match="the tank cannot be strafed"):
        s.apply(parse("f1"), "germans")
    dogfight = every_decision()[6]
    assert dogfight.pending is not None and dogfight.pending.kind == "dogfight"
    with pytest.raises(IllegalAction, match=r"not answered with a square.*`dogfight A`"):
        dogfight.apply(parse("e4"), "canadians")


def test_a_bare_square_on_a_turn_asks_for_the_whole_action():
    s = pos({"e2": "C", "a8": "G"}, active=C)
    with pytest.raises(IllegalAction, match=re.escape("say what the unit on e2 does, e.g. `e2-")) as exc:
        s.apply(parse("e2"), "canadians")
    assert "e2-e3" in [str(a) for a in exc.value.legal]
    with pytest.raises(IllegalAction, match="a move names two squares"):
        s.apply(parse("e5"), "canadians")


def test_gas_after_the_gas_is_spent_says_so_and_what_is_legal():
    s = barrage_pending(gas_used=True)
    with pytest.raises(IllegalAction) as exc:
        s.apply(parse("gas e4"), "germans")
    text = str(exc.value)
    assert "used up" in text and "`barrage e4`" in text and "pending" not in text
    s = barrage_pending(C)
    with pytest.raises(IllegalAction, match="Only the Germans have poison gas"):
        s.apply(parse("gas e4"), "canadians")


def test_a_wrong_kind_of_answer_names_the_decision_and_its_words():
    s = ace_pending()
    with pytest.raises(IllegalAction, match=r"First finish the Ace's reinforcement: .*`R@b8`"):
        s.apply(parse("a8-a7"), "germans")
    with pytest.raises(IllegalAction, match="cannot be declined"):
        s.apply(parse("decline"), "germans")
    s = pos({"a8": "G", "h1": "C"}, active=G)
    with pytest.raises(IllegalAction, match="no decision waiting"):
        s.apply(parse("barrage e4"), "germans")


@pytest.mark.parametrize(
    ("text", "hint"),
    [("gas", "`gas e4`"), ("barrage", "`barrage e4`"), ("strafe", "`strafe e4`"), ("fly", "`fly A`")],
)
def test_an_answer_missing_its_square_or_aircraft_says_what_to_add(text, hint):
    with pytest.raises(InvalidNotation, match=re.escape(hint)):
        parse(text)

"""The examples a refusal offers (`play.results.ranked_hints`): a spread of the kinds of action legal
now, best first, and chosen from nothing the asking side may not know. Pure: no database, no bot."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import registry
from engine.protocol import State
from play.results import HINTS, ranked_hints, spread
from tests.test_fair_chance import answer, match_of

FB = registry.game("fixbayonets")


def fix_bayonets_turn(seed: int) -> tuple[State, str]:
    """A Fix Bayonets position in a side's move phase, after both sides have had a turn, so the
    other side holds cards of its own."""
    rng = random.Random(seed)
    state = FB.new_game({}, seed)
    for side in sorted(state.to_act()):
        state.apply(FB.parse("setup std"), side)
    for _ in range(400):
        side = min(state.to_act())
        legal = [str(a) for a in state.legal_actions(side)]
        other = state.to_json()["hands"][FB.sides[1].name if side == FB.sides[0].name else FB.sides[0].name]
        if state.to_json()["round"] >= 2 and "fight" in legal and len(legal) > HINTS and other:
            return state, side
        state.apply(FB.parse(rng.choice([a for a in legal if a not in ("fight", "end")] or legal)), side)
    raise AssertionError("no move phase came")


def test_spread_shows_each_kind_before_a_third_of_any() -> None:
    ranked: list[Any] = [f"m{n}" for n in range(20)] + ["a1", "a2", "a3", "end"]
    chosen = spread(ranked, lambda a: str(a)[0] if a != "end" else "end", count=6)
    assert chosen == ["m0", "a1", "end", "m1", "a2", "m2"]  # the best kind first; every start a spread


def test_a_refused_pass_offers_fight_and_end_not_twelve_marches() -> None:
    """The newcomer's playtest: after `pass` with nothing to answer, twelve `march fwd …` hid the
    `fight` and `end` the player needed."""
    state, side = fix_bayonets_turn(3)
    refused = answer(FB, match_of(FB), state, side, "pass")
    assert refused[0] == "refused"
    offered = list(refused[3])
    assert len(offered) == HINTS and "fight" in offered and "end" in offered
    view = state.view(side)
    kinds = [FB.verb_of(view, FB.parse(a)) for a in offered]
    assert set(kinds[:4]) == set(kinds), "the first four, as a half-made command shows, hold every kind"


@pytest.mark.parametrize("seed", [3, 4])
def test_the_spread_does_not_change_with_the_other_sides_hand(seed: int) -> None:
    """Twins alike in all the asking side may see, the other side's hand and the deck dealt
    afresh: the same examples in the same order."""
    state, side = fix_bayonets_turn(seed)
    hints, total = ranked_hints(FB, state, side, state.legal_actions(side))
    other = next(s.name for s in FB.sides if s.name != side)
    differed = 0
    for n in range(4):
        twin = FB.chance_twin(state, side, random.Random(n))
        differed += twin.to_json()["hands"][other] != state.to_json()["hands"][other]
        assert ranked_hints(FB, twin, side, twin.legal_actions(side)) == (hints, total)
    assert differed, "some twin must hold another hand"


def test_a_word_no_game_reads_also_offers_what_may_be_played_now() -> None:
    """'status' answered with Fix Bayonets' notation examples alone (`march Rd1-d3`, …), of which
    none could be played while a card waited for its answer: what may be played now follows."""
    state, side = fix_bayonets_turn(3)
    refused = answer(FB, match_of(FB), state, side, "status")
    assert refused[0] == "refused" and "is not an action" in refused[2]
    assert "fight" in refused[3] and set(refused[3]) <= {str(a) for a in state.legal_actions(side)}
    later = answer(FB, match_of(FB), state, side, "fight; status")  # a later step: its words alone
    assert later[0] == "refused" and later[3] == ()

"""The `correspondence` level (issue 32): hard's candidates played out to the end of the game in
common deals, deterministic for a seed, rated and described like the other levels, and solving
every puzzle of the game."""

from __future__ import annotations

import random
from dataclasses import replace

from engine.base import CORRESPONDENCE
from engine.companycommander import GAME, State, ai, improve
from engine.companycommander.state import DEPLOY
from play.ratings import level_choice, level_label, level_rating

from .helpers import A, G, build

QUICK = replace(improve.CORRESPONDENCE_ROLLOUTS, deals=8, batch=4)


def _busy() -> State:
    return build(
        {"A1": "scouts C", "A2": "hmg C", "A3": "rifles L", "A4": "sherman R"}
        | {"G1": "rifles C", "G2": "mg42 L", "G3": "rifles R pinned"},
        hands={A: ["sniper", "medic", "ambush"], G: ["rally"]},
    )


def test_the_candidates_are_hards_pick_the_end_of_the_turn_and_the_best_others_once_each() -> None:
    s = build(
        {
            "A1": "rifles C",
            "A2": "rifles C",
            "A3": "rifles C",
            "A4": "hmg L",
            "G1": "rifles C",
            "G2": "rifles L",
        }
    )
    pick = ai.careful(s, A, random.Random(1))
    got = improve.candidates(s, A, pick, 6)
    assert got[0] == pick and "end" in {str(a) for a in got}
    # three Rifles of one Strength at one front assault alike: one of them stands for all
    assert sum(1 for a in got if str(a) in ("assault A1", "assault A2", "assault A3")) == 1
    assert len({str(a) for a in got}) == len(got) and set(got) <= set(s.legal_actions(A))


def test_a_playout_ends_the_game_and_scores_it_for_the_side() -> None:
    s = _busy()
    value = improve.playout(s.clone(), A, 3, 0)  # to the end of the game
    assert value in (0.0, 0.5, 1.0)
    cut = improve.playout(s.clone(), A, 3, s.turns + 3)  # judged by its position after our next turn
    assert 0.0 < cut < 1.0
    short = improve.playout(s.clone(), A, 3, 0, horizon=2)  # or when the actions run out
    assert 0.0 < short < 1.0


def test_a_playout_stops_when_the_turn_it_waits_for_begins() -> None:
    """Judged after our next turn: the opponent's turn and ours played, no more."""
    s = _busy()
    start = s.turns
    improve.playout(s, A, 3, start + 3)
    assert s.result is not None or s.turns == start + 3


def test_the_same_action_meets_the_same_dice_whatever_came_before() -> None:
    """Common random numbers that pair: an action's draws of chance are keyed by the action and
    its turn, not by how many draws came before it."""
    a = _busy()
    b = a.clone()
    b.n += 17  # another history of draws this turn
    made_a: dict[str, int] = {}
    made_b: dict[str, int] = {}
    fire = next(x for x in a.legal_actions(A) if str(x).startswith("fire"))
    improve._keyed(a, A, fire, made_a)
    improve._keyed(b, A, fire, made_b)
    assert a.to_json() == b.to_json()  # the same throw, the same markers
    assert improve.dice_key(a.turns, A, "fire A2", 0) == improve.dice_key(a.turns, A, "fire A2", 0)
    assert improve.dice_key(a.turns, A, "fire A2", 0) != improve.dice_key(a.turns, A, "fire A2", 1)


def test_the_level_is_deterministic_for_a_seed_and_answers_legally() -> None:
    s = _busy()
    for seed in range(3):
        first = improve.improve(s.view(A), seed, QUICK)
        assert first == improve.improve(s.view(A), seed, QUICK) and first in s.legal_actions(A)


def test_a_lone_legal_action_is_played_without_a_playout() -> None:
    s = build({"A1": "rifles -", "G1": "rifles C"}, phase=DEPLOY)
    legal = s.legal_actions(A)
    if len(legal) == 1:
        assert improve.improve(s.view(A), 1, QUICK) == legal[0]


def test_the_rollouts_prefer_the_assault_that_wins_the_race_to_ten() -> None:
    """At nine enemy losses a Sherman against a Pinned Strength-1 unit wins almost surely; ending
    the turn instead leaves the game to the dice."""
    s = build({"A1": "sherman C", "A2": "rifles L", "G1": "scouts C pinned", "G2": "rifles L"}, lost={G: 9})
    s.result = None
    assert str(improve.improve(s.view(A), 5, QUICK)) == "assault A1"


def test_correspondence_is_rated_above_hard_and_shows_its_think_time() -> None:
    hard, corr = level_rating(GAME, "hard"), level_rating(GAME, CORRESPONDENCE)
    assert hard is not None and corr is not None and corr > hard
    assert level_label(GAME, CORRESPONDENCE).startswith("correspondence, about ")
    choice = level_choice(GAME, CORRESPONDENCE)
    assert "s a decision" in choice and not choice.endswith("…"), choice

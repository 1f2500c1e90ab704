"""How a game ends: the Headquarters, resignation, agreement, the turn limit (R24, R26)."""

from __future__ import annotations

import pytest

from engine.combinedarms import actions as A
from engine.combinedarms.game import WWI_GAME
from engine.errors import IllegalAction
from engine.meta import DRAW_ACCEPT, DRAW_OFFER, RESIGN
from engine.protocol import EndReason
from tests.combinedarms.helpers import AMERICANS, BRITISH, GERMANS, E, build, legal, play


def test_destroying_the_headquarters_wins_at_once_even_mid_phase():
    # The German HQ on d8 with both side squares taken: a forced retreat destroys it.
    s = build("wwi", {"c7": "F", "e7": "F", "d7": "A", "d8": "h", "c8": "i", "e8": "i", "a1": "H"})
    events = play(s, BRITISH, "done", "c7xd8", "e7xd8")
    assert s.is_over() and s.to_act() == frozenset()
    outcome = s.outcome()
    assert outcome is not None and outcome.winner == BRITISH and outcome.reason is EndReason.OBJECTIVE
    assert "Headquarters" in outcome.detail
    assert isinstance(events[-1], E.GameOver) and events[-1].text(None).startswith("the British win")
    assert legal(s, BRITISH) == set()
    with pytest.raises(IllegalAction, match="game is over"):
        play(s, BRITISH, "d7xc8")


def test_the_wwii_headquarters_falls_to_six_damage_in_one_turn():
    s = build("wwii", {"c7": "E", "e7": "E", "d7": "E", "d8": "h", "a1": "H"})
    play(s, AMERICANS, "done", "c7xd8", "e7xd8")
    assert not s.is_over()
    play(s, AMERICANS, "d7xd8")  # Engineers do 2 to a base: 6 of 6
    outcome = s.outcome()
    assert outcome is not None and outcome.winner == AMERICANS


def test_resignation_and_a_draw_by_agreement():
    s = build("wwi", {"d4": "I", "a1": "H", "h8": "h"})
    s.apply(RESIGN, GERMANS)
    assert s.outcome().winner == BRITISH and s.outcome().reason is EndReason.RESIGNATION  # type: ignore[union-attr]
    s = build("wwi", {"d4": "I", "a1": "H", "h8": "h"})
    s.apply(DRAW_OFFER, GERMANS)
    s.apply(DRAW_ACCEPT, BRITISH)
    assert s.outcome().winner is None and s.outcome().reason is EndReason.AGREEMENT  # type: ignore[union-attr]


def test_playing_on_lets_a_standing_draw_offer_lapse():
    s = build("wwi", {"d4": "I", "a1": "H", "h8": "h"})
    s.apply(DRAW_OFFER, GERMANS)
    events = play(s, BRITISH, "d4-d5")  # the British play on instead of answering (R26)
    assert s.draw_offer is None
    assert events[-1].text() == "the draw offered by the Germans lapses"
    with pytest.raises(IllegalAction, match="no draw offer"):
        s.apply(DRAW_ACCEPT, BRITISH)
    # Answering a retreat question is not playing on.
    s = build("wwi", {"d1": "A", "d5": "i", "a1": "H", "h8": "h"})
    s.apply(DRAW_OFFER, BRITISH)
    s.u_dmg[s.board[s.g.index["d5"]]] = 2
    play(s, BRITISH, "done", "d1xd5")
    answer = play(s, GERMANS, "retreat c5")
    assert s.draw_offer == 0 and not [e for e in answer if "lapses" in e.text()]
    # The side that offered keeps its offer standing while it plays.
    s = build("wwi", {"d4": "I", "a1": "H", "h8": "h"})
    s.apply(DRAW_OFFER, BRITISH)
    play(s, BRITISH, "d4-d5")
    assert s.draw_offer == 0


def test_the_game_is_drawn_when_both_sides_have_played_their_turns():
    s = build("wwi", {"d4": "I", "a1": "H", "h8": "h"}, options={"turns": 10}, turn=10)
    play(s, BRITISH, "end")
    assert not s.is_over() and s.active == 1
    events = play(s, GERMANS, "end")
    outcome = s.outcome()
    assert outcome is not None and outcome.winner is None and outcome.reason is EndReason.TURN_LIMIT
    assert "10 turns" in outcome.detail and isinstance(events[-1], E.GameOver)


def test_the_turn_limit_option_is_checked():
    assert WWI_GAME.normalise_options({})["turns"] == 20
    with pytest.raises(ValueError, match="between 0 and 100"):
        WWI_GAME.normalise_options({"turns": 101})


def test_a_turn_limit_of_0_is_no_limit():
    """R24's limit is ours, not the text's: the challenger may switch it off."""
    s = build("wwi", {"d4": "I", "a1": "H", "h8": "h"}, options={"turns": 0}, turn=150)
    play(s, BRITISH, "end")
    play(s, GERMANS, "end")
    assert not s.is_over() and s.active == 0


def test_a_random_game_always_ends_well_within_the_platform_cap():
    import random

    for seed in range(4):
        rng = random.Random(seed)
        s = WWI_GAME.new_game({}, seed)
        n = 0
        while not s.is_over():
            side = min(s.to_act())
            s.apply(rng.choice(s.legal_actions(side)), side)
            n += 1
        assert n < 850 and s.outcome() is not None


def test_standing_orders_are_refused_once_the_game_is_over():
    s = build("wwi", {"d4": "I", "a1": "H", "h8": "h"})
    s.apply(RESIGN, BRITISH)
    with pytest.raises(IllegalAction, match="game is over"):
        s.apply(A.AutoRetreat(True), GERMANS)

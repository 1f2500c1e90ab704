"""Block Wars' words as a player reads them (issue 13): what happened, in the present tense as in
every game, never an order ("The Germans offer a draw", not "Germans: offer a draw"). The history
puts the acting side before words that do not name it ("Germans: e6-e5"), so no line names the
side twice; the words name the other side where it is concerned and say who won a dogfight that
the defender answered."""

from __future__ import annotations

import random
import re

import pytest

from engine.blockwars import IllegalAction, Options, Side, new_game
from engine.blockwars.events import (
    AirBattle,
    BarrageFired,
    Combat,
    Declined,
    Deployed,
    DrawDeclined,
    DrawOffered,
    Event,
    Fizzled,
    Reinforced,
)
from engine.blockwars.state import State
from play.words import history_line
from tests.rules_helpers import C, G, pos


def line(side: Side, events: list[Event]) -> str:
    """The history line as the platform writes it: '<Side>: <the events' words>', or the words
    alone when they name the side already."""
    return history_line(side.title, "", events)


def played(seed: int) -> list[tuple[Side, str, list[Event]]]:
    """A seeded random game with both options: (who acted, notation, events) per action."""
    s = new_game(Options(crosses=True, fighter_aces=True), seed)
    rng = random.Random(seed)
    out: list[tuple[Side, str, list[Event]]] = []
    while not s.is_over() and len(out) < 400:
        side = s.current_player()
        assert side is not None
        action = rng.choice(s.legal_actions())
        out.append((side, str(action), s.apply(action, side.value)))
    return out


def test_ending_a_turn_by_choice_says_so_and_running_out_of_actions_says_nothing() -> None:
    """ "Canadians: end" in the history and the channel, the notation for words: the other games
    say "The Germans end their turn"."""
    s = pos({"a8": "G", "h1": "C", "g1": "C", "a5": "G"}, active=G)
    assert history_line("Germans", "end", s.apply("end")) == "The Germans end their turn"
    s.apply("h1-h2")
    second = s.apply("g1-g2")  # the Canadians' second action ends their turn
    assert any(type(e).__name__ == "TurnEnded" for e in second) and s.active is G
    assert history_line("Canadians", "g1-g2", second) == "Canadians: g1-g2"


def test_draw_offers_read_well_after_the_side() -> None:
    s = pos({"a8": "G", "h1": "C"}, active=G)
    assert line(G, s.apply("offer draw", "germans")) == "The Germans offer a draw"
    assert line(C, s.apply("decline draw", "canadians")) == "The Canadians decline the draw"


def test_a_dogfight_lost_by_the_side_that_answered_says_the_other_side_won() -> None:
    s = pos({"e5": "G", "e4": "C", "a8": "G", "h1": "C"}, active=G, g=["JD", "9C"], c=["2C", "3S"])
    s.apply("e5xe4")
    words = line(C, s.apply("dogfight A", "canadians"))
    assert words.startswith(
        "Canadians: German aircraft A and Canadian aircraft A fight a dogfight: 9 of clubs"
    )
    assert "the German aircraft wins" in words and "Canadian aircraft A is damaged" in words
    assert not re.search(r"\blost\b", words)  # not the strafer's view of a contest it won


def test_an_aircraft_sent_by_choice_is_the_senders_line_and_one_sent_at_once_names_its_side() -> None:
    s = pos({"e5": "G", "e4": "C", "a8": "G", "h1": "C"}, active=G, g=["JD"], c=["2C"])
    s.aircraft[G]["B"] = "damaged"
    s.apply("e5xe4")
    assert line(G, s.apply("fly A", "germans")) == "The Germans send aircraft A to strafe"
    s = pos({"e4": "C", "e5": "G", "a8": "G", "h1": "C"}, active=C, c=["2C"], g=["JD"])
    events = s.apply("e4xe5")  # the Germans' Jack, drawn in the Canadians' attack
    took_off = "German aircraft A takes off to strafe (the Germans' Jack)"  # why, in the Canadians' attack
    assert [e.text() for e in events if isinstance(e, AirBattle)] == [took_off]


def test_a_card_with_no_effect_says_whose() -> None:
    s = pos({"e4": "C", "e5": "G", "a8": "G", "h1": "C"}, active=C, c=["2C"], g=["JD"])
    for plane in "AB":
        s.aircraft[G][plane] = "destroyed"
    (fizzled,) = [e for e in s.apply("e4xe5") if isinstance(e, Fizzled)]
    assert fizzled.text() == "the Germans' Jack has no effect: no aircraft left"


def test_a_gun_that_loses_misses_and_a_modified_face_card_is_named() -> None:
    s = pos({"d6": "GM", "d4": "C", "a8": "G", "h1": "C"}, active=G, g=["3C"], c=["9D"])
    (combat,) = [e for e in s.apply("d6xd4") if isinstance(e, Combat)]
    assert combat.text() == "d6 fires at d4: 3 of clubs vs 9 of diamonds, misses"
    aces = Options(fighter_aces=True)
    s = pos({"e5": "G", "e4": "C", "a8": "G", "h1": "C"}, options=aces, g=["JD", "JC"], c=["2D", "3H"])
    s.apply("e5xe4")
    s.apply("fly A", "germans")  # aircraft A is the ace: +1
    s.apply("decline", "canadians")
    (combat,) = [e for e in s.apply("strafe h1", "germans") if isinstance(e, Combat)]
    assert "Jack of clubs (as a Queen)" in combat.text()


def test_an_ace_in_the_aces_hands_counts_as_one_above_an_ace_in_words() -> None:
    """The fighter ace's Ace counts 15: the line says what that means, not a bare number."""
    aces = Options(fighter_aces=True)
    s = pos({"e5": "G", "e4": "C", "a8": "G", "h1": "C"}, options=aces, g=["JD", "AC"], c=["2D", "3H"])
    s.apply("e5xe4")
    s.apply("fly A", "germans")
    s.apply("decline", "canadians")
    (combat,) = [e for e in s.apply("strafe h1", "germans") if isinstance(e, Combat)]
    assert combat.attacker_value == 15
    assert "Ace of clubs (as one above an Ace) vs 3 of hearts" in combat.text()
    assert "15" not in combat.text()


def test_refusals_count_their_files_in_words() -> None:
    s = new_game(Options(), 1)
    s.apply("setup std")
    with pytest.raises(IllegalAction) as exc:
        s.apply("setup bcfg/cdef/de")
    assert "1 different files" not in str(exc.value)
    assert "The Canadians have one machine gun: give one file for it" in str(exc.value)


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("setup hgfa/ccba/d", "need four different files for the second row; c is named twice."),
        ("setup dcba/hgfe/fd", "have one machine gun: give one file for it; 2 files given: d and f."),
        ("setup aaab/cdef/d", "need four different files for the back row; a is named more than once."),
    ],
)
def test_a_refused_layout_says_what_is_wrong_not_the_files_reordered(typed: str, said: str) -> None:
    """'setup hgfa/ccba/d' was refused with "got 'abcc'": the player's files sorted, as if they had
    typed them so. The refusal now says what is wrong, listing files from a to h as ours."""
    s = new_game(Options(), 1)
    s.apply("setup std")
    with pytest.raises(IllegalAction) as exc:
        s.apply(typed)
    assert f"The Canadians {said} Example: `setup bcfg/cdef/d`" in str(exc.value), str(exc.value)
    assert "got" not in str(exc.value)


@pytest.mark.parametrize("seed", range(6))
def test_no_history_line_names_the_acting_side_twice(seed: int) -> None:
    for side, notation, events in played(seed):
        words = line(side, events)
        for twice in (
            f"{side.title}: {side.title}",
            f"{side.title}: {side.adjective} ",
            f"{side.title}: the {side.title}",
        ):
            assert not words.startswith(twice), (notation, words)
        assert not re.search(r"\b1 (cards|actions|infantry units|files)\b", words), words


ORDER = re.compile(r"^(deploy|offer|decline|send|keep|accept|resign|fly|strafe|dogfight|attack|move|fire)\b")
PAST = re.compile(
    r"\b(took|rolled|arrived|brought|had|lapsed|won|lost|missed|attacked|fired|strafed|fought|ran|needed|"
    r"was|were|deployed|declined|offered|kept|sent|destroyed by)\b"
)


@pytest.mark.parametrize("seed", range(4))
def test_every_event_says_what_happened_in_the_present_tense(seed: int) -> None:
    """The board's "Last:" box read "Germans / Decline the dogfight.", an order under a heading:
    every event's words are a report of what happened, and a choice names the side that made it.
    Told in the present, as the other games tell theirs ("the Germans win the fight", not "won")."""
    s = new_game(Options(crosses=True, fighter_aces=True), seed)
    choices = (Deployed, Declined, DrawOffered, DrawDeclined, BarrageFired, Reinforced)
    events = s.apply("offer draw", "germans") + s.apply("decline draw", "canadians")
    rng = random.Random(seed)
    for _ in range(400):
        if s.is_over():
            break
        side = s.current_player()
        assert side is not None
        events += s.apply(rng.choice(s.legal_actions()), side.value)
    kinds = {type(e).__name__ for e in events}
    assert {"Deployed", "Moved", "Combat", "Removed", "DrawOffered", "DrawDeclined"} <= kinds, kinds
    for e in events:
        t = e.text()
        assert not ORDER.match(t) and not PAST.search(t), t
        if isinstance(e, choices) or (isinstance(e, AirBattle) and e.chosen):
            assert t.startswith(f"the {e.side.title} "), t


def test_every_event_of_random_games_has_words_or_is_silent_on_purpose() -> None:
    silent = {"DecisionNeeded", "TurnEnded"}
    for _, _, events in played(11):
        for e in events:
            if type(e).__name__ not in silent:
                assert e.text().strip(), e


def test_the_annihilation_result_says_who_has_no_units_left() -> None:
    s = pos({"e5": "G", "e4": "C"}, active=G, g=["9C"], c=["2D"])
    s.reserves[C].clear()
    s.casualties[C].extend(u for u in State(Options(), 0).reserves[C] if u not in s.pos)
    s.apply("e5xe4")
    outcome = s.outcome()
    assert outcome is not None and outcome.detail == "the Canadians have no units left"


def test_acting_during_the_other_sides_decision_names_the_decision() -> None:
    s = pos({"e5": "G", "e4": "C", "a8": "G", "h1": "C"}, active=G, g=["JD"], c=["2C"])
    s.apply("e5xe4")  # the Canadians must answer the dogfight
    with pytest.raises(IllegalAction) as exc:
        s.apply("a8-a7", "germans")
    assert str(exc.value) == "It is not your decision: the Canadians must first answer the dogfight."


def test_the_help_says_whom_a_barrage_and_a_strafe_hit() -> None:
    """The help says what the engine does: a barrage hits friend and foe and damages the tank, a strafe
    never targets the tank, and only a side with nothing left on the board or in reserve loses."""
    from engine.blockwars.help import TOPICS

    specials = TOPICS["specials"]
    assert "friend or foe" in specials and "the tank is damaged instead" in specials
    assert "strafe an enemy unit (never the tank)" in specials
    assert "no unit left, on the board or in reserve, loses" in TOPICS["winning"]


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("a1-a9", "There is no square a9: the board runs from a1 to h8."),
        ("e4-e5xi5", "There is no square i5: the board runs from a1 to h8."),
        ("b10xb9", "There is no square b10: the board runs from a1 to h8."),
    ],
)
def test_a_square_off_the_board_is_named(typed: str, said: str) -> None:
    """'a1-a9' was 'not an action I understand' and a list of every kind of action: the player
    typed a move, and the square that is not on the board is what to fix."""
    from engine.blockwars.actions import parse
    from engine.errors import InvalidNotation

    with pytest.raises(InvalidNotation) as exc:
        parse(typed)
    assert str(exc.value) == said


def test_a_mistyped_layout_is_answered_with_the_layouts() -> None:
    """'setup xyz' was answered with moves and attacks ('Try: e2-e3 (move), …'), none of them a
    layout."""
    from engine.blockwars.actions import parse
    from engine.errors import InvalidNotation

    with pytest.raises(InvalidNotation) as exc:
        parse("setup xyz")
    assert str(exc.value).startswith("'setup xyz' is not a layout: send `setup std`, or your back-row")
    assert "e2-e3" not in str(exc.value)
    assert exc.value.examples == ("setup std", "setup bcfg/cdef/cf")

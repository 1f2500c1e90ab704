"""What players read: event lines, refusals and notation errors, worded as a player expects."""

from __future__ import annotations

import pytest

from engine.errors import IllegalAction, InvalidNotation
from engine.fixbayonets import GAME
from engine.fixbayonets.events import Killed, Moved, Passed, Played
from engine.fixbayonets.state import FIGHTING
from tests.random_play import random_events

from .helpers import A as AM
from .helpers import G, of, play, pos, refused


def test_an_attack_names_the_attacker_s_side_with_a_capital() -> None:
    s = pos({"d1": "AR", "d4": "GR"}, a=["rifle3"], active=AM, phase=FIGHTING)
    (played,) = of(play(s, "rifle3 Rd1xd4"), Played)
    line = played.text(None)
    assert "the American rifleman on d1 attacks d4" in line
    assert "american" not in line
    g = pos({"d1": "AR", "d4": "GR"}, g=["rifle3"], phase=FIGHTING)
    assert "the German rifleman on d4" in of(play(g, "rifle3 Rd4xd1"), Played)[0].text(G)


@pytest.mark.parametrize("text", ["march Rd1xd3", "trees Rd1xd3", "run Od1xd5"])
def test_a_card_of_the_wrong_type_reads_an_attack_card(text: str) -> None:
    with pytest.raises(InvalidNotation) as exc:
        GAME.parse(text)
    assert "a attack" not in str(exc.value)
    assert "is not an attack card" in str(exc.value)


def test_a_terrain_card_played_as_an_attack_says_when_it_is_played() -> None:
    """rules10: the refusal read "it only cancels the opponent's card: negate trees", two clauses
    after two colons; it says now that the card answers the opponent's."""
    with pytest.raises(InvalidNotation) as exc:
        GAME.parse("trees Rd1xd3")
    assert str(exc.value) == (
        "Trees is not an attack card: it cancels a card your opponent plays, as your answer to it "
        "(`negate trees`)."
    )


def test_a_move_reads_as_a_card_played_then_the_man_moving() -> None:
    s = pos({"d8": "GR", "a1": "AR"}, g=["march"], a=["trees"])
    (played,) = of(play(s, "march Rd8-d6"), Played)
    assert played.text(AM) == "the Germans play March to move the rifleman on d8 to d6"
    (moved,) = of(play(s, "pass"), Moved)
    assert moved.text(AM) == "the German rifleman moves d8 → d6"


def test_a_group_move_reads_by_square_not_man_by_man() -> None:
    s = pos({"h1": "ARR", "c1": "AHR", "a8": "GR"}, a=["charge"], g=["trees"], active=AM)
    (played,) = of(play(s, "charge fwd HRc1,RRh1"), Played)
    assert played.text(G) == (
        "the Americans play Charge to move a specialist and 3 riflemen 5 squares forward together"
    )
    (moved,) = of(play(s, "pass"), Moved)
    assert moved.text(G) == (
        "the American men move forward: a specialist and a rifleman c1 → c6, 2 riflemen h1 → h6"
    )


@pytest.mark.parametrize("when", ["orders first", "orders while asked"])
def test_standing_orders_that_let_a_card_stand_say_so(when: str) -> None:
    s = pos({"d8": "GR", "a1": "AR"}, g=["march"], a=["trees"])
    if when == "orders first":
        s.apply("orders never", AM)
        events = play(s, "march Rd8-d6")
    else:
        play(s, "march Rd8-d6")
        events = s.apply("orders never", AM)
    (passed,) = of(events, Passed)
    assert passed.side == AM and passed.text(None) == "the Americans let it stand"
    assert [type(e).__name__ for e in events][-2:] == ["Passed", "Moved"]


def test_a_blocked_move_names_the_enemy_square_in_the_way() -> None:
    s = pos({"h1": "AR", "h3": "GR", "g3": "GU"}, a=["run", "zigzag"], active=AM)
    assert refused(s, "run Rh1-h5") == (
        "Run cannot take the rifleman from h1 to h5: the enemy on h3 is in the way "
        "(men never move into or through enemy soldiers)."
    )
    zigzag = refused(s, "zigzag Rh1-g3")
    assert zigzag.startswith("Zigzag cannot take the rifleman from h1 to g3: the enemy holds g3")
    s2 = pos({"h1": "AR", "f3": "GU", "e4": "GR"}, a=["counter"], active=AM)
    assert "the enemy holds e4" in refused(s2, "counter Rh1-e4")
    s3 = pos({"h1": "AR", "f3": "GU"}, a=["counter"], active=AM)
    assert "the enemy on f3 is in the way" in refused(s3, "counter Rh1-e4")
    group = pos({"h1": "ARR", "h3": "GR"}, a=["run"], active=AM)
    assert "the enemy on h3 is in the way" in refused(group, "run fwd RRh1")


@pytest.mark.parametrize(
    ("typed", "hint"), [("march d1-d3", "march Rd1-d3"), ("rifle3 d3xd6", "rifle3 Rd3xd6")]
)
def test_a_move_or_attack_without_the_man_s_kind_says_how_to_write_it(typed: str, hint: str) -> None:
    with pytest.raises(InvalidNotation) as exc:
        GAME.parse(typed)
    assert "kind" in str(exc.value) and hint in str(exc.value)


def test_the_second_set_up_is_not_called_hidden_as_it_is_revealed() -> None:
    s = GAME.new_game({}, 3)
    first = s.apply("setup std", AM)
    assert first[0].text(G) == "the Americans set up their men (hidden until both sides have)"
    second = [e.seen_by(AM) for e in s.apply("setup wings", G)]
    assert second[0] is not None and second[0].text(AM) == "the Germans set up their men"
    assert second[1] is not None and second[1].text(AM).startswith("both set-ups are revealed")


def test_a_refusal_suggests_every_answer_including_the_cancelling_card() -> None:
    """Typing `lose O` while asked to cancel a card: the hint lists `negate trees` too, not only `pass`."""
    s = pos({"d3": "GR", "d6": "AR"}, g=["rifle3"], a=["trees"], phase=FIGHTING)
    play(s, "rifle3 Rd3xd6")
    with pytest.raises(IllegalAction) as exc:
        s.apply("lose R", AM)
    assert set(map(str, exc.value.legal)) == {"pass", "negate trees"}
    with pytest.raises(IllegalAction) as exc:
        s.apply("negate foxholes", AM)
    assert set(map(str, exc.value.legal)) == {"pass", "negate trees"}


def test_the_ending_topic_gives_the_draw_and_resign_commands_that_exist() -> None:
    """`/fixbayonets offer draw` is no command: the topic names `/fixbayonets draw offer`."""
    from engine.fixbayonets.help import TOPICS

    ending = TOPICS["ending"]
    assert "`/fixbayonets draw offer`" in ending and "`/fixbayonets resign`" in ending
    assert "`offer draw`" not in ending


def test_the_first_cancel_or_pass_question_of_a_game_names_the_standing_orders() -> None:
    """A newcomer typed `pass` after every German card, never learning that standing orders answer
    for them: the first question a side is asked says so, once; later ones are short again. It is
    asked whatever the hand holds (R13), so the words reveal nothing of it."""
    s = pos({"d8": "GR", "e8": "GR", "a1": "AR"}, g=["march", "march"], a=["trees"])
    play(s, "march Rd8-d6")
    first = GAME.status(s.view(None), AM)
    assert first.startswith("{player} (Americans): the Germans play March. Cancel it with a terrain card")
    assert "let every card stand (`orders never`)" in first and "ask again (`orders ask`)" in first
    play(s, "pass", "march Re8-e6")
    second = GAME.status(s.view(None), AM)
    assert "orders" not in second and second.endswith("or let it stand (`pass`).")
    assert GAME.from_json(s.to_json()).asked == s.asked == {G: 0, AM: 2}  # kept with the game


def test_a_game_stored_before_the_count_of_questions_does_not_explain_the_orders_again() -> None:
    s = pos({"d8": "GR", "a1": "AR"}, g=["march"], a=["trees"])
    play(s, "march Rd8-d6")
    data = s.to_json()
    del data["asked"]
    old = GAME.from_json(data)
    assert "orders" not in GAME.status(old.view(None), AM)


def test_an_empty_hand_is_said_to_be_empty() -> None:
    """Before the first draw `hand` said 'Your hand (0 cards): no cards.'"""
    s = pos({"d8": "GR", "a1": "AR"}, g=[], a=["trees"])
    text = GAME.private_text(s.view(G)) or ""
    assert text.startswith("Your hand is empty.")
    assert "0 cards" not in text


def test_a_card_held_twice_is_counted_in_words() -> None:
    """A hand said 'March, 2× Trees and Rifle (3)': a symbol where a person says the number."""
    from engine.fixbayonets.cards import BY_CODE, cards_words

    s = pos({"d8": "GR", "a1": "AR"}, g=["trees", "march", "rifle3", "trees", "rifle3", "rifle3"], a=[])
    text = GAME.private_text(s.view(G)) or ""
    assert text.startswith("Your hand (6 cards): three Rifle (3) cards, March and two Trees cards."), text
    assert "×" not in text
    assert cards_words([BY_CODE["trees"]]) == "Trees"
    assert cards_words([BY_CODE["crawl"]] * 12) == "12 Crawl cards"


def test_a_hand_over_the_limit_says_which_command_discards() -> None:
    """The status said 'discard 1 to keep five' without the command, as Company Commander's gives."""
    from engine.fixbayonets.state import DISCARD

    s = pos({"d8": "GR", "a1": "AR"}, g=["march", "trees", "rifle3", "rifle3", "crawl", "run"], phase=DISCARD)
    assert (
        GAME.status(s.view(None), G)
        == "{player} (Germans): you hold 6 cards, 1 over five: choose one to discard (`discard …`)."
    )


def test_a_turn_limit_of_one_round_is_one_round() -> None:
    """The draw at a limit of 1 said 'turn limit of 1 rounds reached'."""
    s = GAME.new_game({"turn_limit": 1}, 3)
    for text in ("setup std", "setup std"):
        (side,) = s.to_act() if len(s.to_act()) == 1 else sorted(s.to_act())[:1]
        s.apply(GAME.parse(text), side)
    while not s.is_over():
        (side,) = s.to_act()
        s.apply(GAME.parse("end"), side)
    outcome = s.outcome()
    assert outcome is not None and outcome.detail == "turn limit of 1 round reached"


@pytest.mark.parametrize(
    ("card", "target", "said"),
    [
        ("bayonet", "d6", "Bayonet reaches exactly 1 square in a straight line: d6 is out of its reach."),
        ("rifle3", "d5", "Rifle (3) reaches exactly 3 squares in a straight line: d5 is out of its reach."),
        ("grenade", "d6", "Grenade reaches a knight's jump: d6 is out of its reach."),
    ],
)
def test_an_attack_out_of_reach_counts_its_squares(card: str, target: str, said: str) -> None:
    """It said 'Bayonet reaches exactly 1 squares' and 'Grenade reaches a knight's jump squares'."""
    s = pos({"d1": "AR", "d5": "GR", "d6": "GR"}, a=[card], active=AM, phase=FIGHTING)
    assert refused(s, f"{card} Rd1x{target}") == said


def test_a_bare_lose_asks_which_man_falls() -> None:
    """`lose` alone answered "'' is not a kind of man"."""
    with pytest.raises(InvalidNotation) as exc:
        GAME.parse("lose")
    assert str(exc.value).startswith("Name the man who falls: `lose O` (officer), ")


@pytest.mark.parametrize(
    ("typed", "start"), [("negate", "Name the terrain card"), ("discard", "Name the card")]
)
def test_a_bare_negate_or_discard_asks_for_the_card(typed: str, start: str) -> None:
    """`negate` alone answered "'' is not a card. The cards: …" with all twenty cards."""
    with pytest.raises(InvalidNotation) as exc:
        GAME.parse(typed)
    assert str(exc.value).startswith(start) and "''" not in str(exc.value)


def test_every_event_line_names_its_side() -> None:
    """A reader on a phone must tell whose men did what ("the German rifleman moves d5 → f3"): over
    a few seeded random games, every event of a side names that side, to either side and the channel."""
    from engine.fixbayonets.model import ADJECTIVE, TITLE

    kinds: set[str] = set()
    for _, e in random_events(GAME, (1, 2, 3)):
        whose = getattr(e, "side", None)
        if whose is None:
            continue
        kinds.add(type(e).__name__)
        for viewer in (None, G, AM):
            seen = e.seen_by(viewer)
            text = seen.text(viewer) if seen is not None else ""
            if text:
                assert TITLE[whose] in text or ADJECTIVE[whose] in text, text
    assert {"Moved", "Played", "Killed", "PhaseEnded"} <= kinds  # the games got that far


@pytest.mark.parametrize(
    ("kinds", "whole", "said"),
    [
        ("R", False, "the German rifleman on d5 is killed"),
        ("RR", False, "2 German riflemen on d5 are killed"),
        ("ORR", False, "3 German men on d5 are killed: an officer and 2 riflemen"),
        ("ORR", True, "the whole German stack on d5 is killed: an officer and 2 riflemen"),
    ],
)
def test_men_killed_on_a_square_read_as_a_person_says_it(kinds: str, whole: bool, said: str) -> None:
    """'2 riflemen (German) on d5 are killed' named the side in brackets, after the men."""
    assert Killed("germans", "d5", kinds, whole).text() == said


def test_a_discard_says_why_without_a_second_pair_of_brackets() -> None:
    """ "The Germans discard Rifle (3) (five cards at most)": two brackets in a row, the second read
    as part of the card's name."""
    from engine.fixbayonets.events import Discarded

    assert (
        Discarded("germans", "rifle3").text()
        == "the Germans discard Rifle (3): a hand holds five cards at most"
    )

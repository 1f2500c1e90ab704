"""Battlefronts on the platform: notation, verbs, words, menus, options and the AI."""

from __future__ import annotations

import json
import random

import pytest

from engine import registry
from engine.battlefronts import actions as A
from engine.battlefronts.ai import evaluate
from engine.battlefronts.events import Moved, Reduced
from engine.battlefronts.state import MOVE, SUPPORT, new_game
from engine.errors import IllegalAction, InvalidNotation
from engine.meta import TIMEOUT
from engine.protocol import EndReason, Weight

from .helpers import BLUE, GAME, RED, begin, build, command, history, of_type

# ----------------------------------------------------------------------------------- notation


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("call T2 5", "call T2 5"),
        ("CALL t2 5", "call T2 5"),
        ("call up 5 cards into T2", "call T2 5"),
        ("call 5 T2", "call T2 5"),
        ("call T4 x20", "call T4 20"),
        ("move R3 F2", "move R3 F2"),
        ("r3-f2", "move R3 F2"),
        ("R3 to F2", "move R3 F2"),
        ("move b12 t4", "move B12 T4"),
        ("jump R3 F5", "jump R3 F5"),
        ("R3*F5", "jump R3 F5"),
        ("reduce b7", "reduce B7"),
        ("end", "end"),
        ("End turn", "end"),
        ("PASS", "pass"),
    ],
)
def test_notation_reads_loosely_and_writes_one_way(typed: str, canonical: str) -> None:
    action = GAME.parse(typed)
    assert str(action) == canonical
    assert GAME.parse(canonical) == action and ";" not in canonical


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("call F2 5", "travel zone"),
        ("call T2 0", "at least 1 card"),
        ("jump R3 T2", "lands on a front"),
        ("move R3 F9", "not a place"),
        ("move X3 F2", "not a Battlefronts action"),
        ("", "Give an action"),
    ],
)
def test_bad_notation_says_what_is_wrong(text: str, why: str) -> None:
    with pytest.raises(InvalidNotation, match=why):
        GAME.parse(text)


def test_every_legal_action_round_trips_through_its_verb() -> None:
    """A whole game can be played with the declared verbs: each action is one verb's argument."""
    verbs = {v.name: v for v in GAME.verbs}
    rng = random.Random(4)
    s = new_game(4)
    kinds = set()
    while not s.is_over():
        side = min(s.to_act())
        view = s.view(side)
        legal = s.legal_actions(side)
        for action in legal:
            verb = verbs[GAME.verb_of(view, action)]
            kinds.add(verb.name)
            assert GAME.parse(verb.notation(verb.argument(str(action)))) == action
        s.apply(rng.choice(legal), side)
    assert kinds >= {"call", "move", "pass", "end"}


# ----------------------------------------------------------------------------------- options


def test_the_round_limit_is_an_option() -> None:
    assert GAME.normalise_options({}) == {"rounds": 30}
    assert GAME.new_game({"rounds": 12}, 1).limit == 12
    with pytest.raises(ValueError, match="between 0 and 99"):
        GAME.normalise_options({"rounds": 100})
    assert GAME.new_game({"rounds": 0}, 1).limit == 0  # no limit (R16)


def test_registered_under_its_name() -> None:
    assert registry.game("battlefronts") is GAME
    assert registry.entry("battlefronts").render == "render.battlefronts"


# ----------------------------------------------------------------------------------- words


def test_status_says_what_to_do_with_examples() -> None:
    s = new_game(1)
    status = GAME.status(s.view(RED), RED)
    assert status.startswith("{player} (Reds), round 1, support phase")
    assert "`call T1 3`" in status and "52 cards" in status and status.endswith(".")
    command(s, RED, "call T1 3; call T2 3; call T3 3; call T4 3")
    assert "called up into every travel zone; `pass`" in GAME.status(s.view(RED), RED)
    command(s, RED, "pass")
    status = GAME.status(s.view(BLUE), BLUE)
    assert "then `pass` to end the phase (the Reds have finished it)." in status


def test_status_for_a_tie_names_the_choices() -> None:
    s = build({"F2": {RED: ["5H 2H 3H 4H", "5D"], BLUE: ["6C"]}}, round=4, phase="attrition")
    begin(s)
    status = GAME.status(s.view(RED), RED)
    assert "tie at strength 5" in status and "`reduce R1` (5♥, 4 cards) or `reduce R2` (5♦, 1 card)" in status


def test_actions_in_words() -> None:
    s = build({"T2": {RED: ["?5H 6H"]}, "F1": {RED: ["KS 4D 9C"]}}, round=3, phase=MOVE)
    view = s.view(RED)
    assert (
        GAME.describe(view, A.move("R1", 4))
        == "Move R1 (2 cards face down) from T2 to F3 (its top is turned up)"
    )
    assert GAME.describe(view, A.jump("R2", 6)) == (
        "Jump R2 (K♠, strength 3, 3 cards) from F1 to F4, discarding the K♠"
    )
    assert GAME.describe(view, A.call(3, 1)) == "Call up 1 card into T2"
    assert GAME.group_of(view, A.move("R1", 4)) == "R1"
    assert GAME.group_label(view, "R2") == "R2 (K♠, strength 3, 3 cards) at F1"
    assert GAME.group_label(view, "T3") == "Call up into travel zone T3"
    assert GAME.verb_of(view, A.jump("R2", 6)) == "jump"


def test_the_menu_offers_pass_end_and_the_take_action_flow() -> None:
    s = build({"T2": {RED: ["?5H"], BLUE: ["?6C"]}, "T3": {RED: ["?7H"]}}, round=3, phase=MOVE)
    menu = GAME.menu(s.view(None))
    # End turn, which the status names, shows before the turn's first action, disabled
    buttons = [(c.notation, c.disabled) for c in menu.buttons]
    assert menu.take_action and buttons == [("end", True), ("pass", False)]
    command(s, RED, "move R1 F2")
    menu = GAME.menu(s.view(None))
    assert [(c.notation, c.disabled) for c in menu.buttons] == [("end", False), ("pass", False)]


def test_the_menu_for_a_tie_is_its_choices() -> None:
    s = build({"F2": {RED: ["5H 2H 3H 4H", "5D"], BLUE: ["6C"]}}, round=4, phase="attrition")
    begin(s)
    menu = GAME.menu(s.view(None))
    assert not menu.take_action and [c.notation for c in menu.buttons] == ["reduce R1", "reduce R2"]


def test_a_tie_between_many_battalions_is_a_select() -> None:
    reds = ["5H 2H", "5D", "5S 2S", "5C", "KH 2D 3D 4D 6D", "KS 3S 4S 6S 7S"]
    s = build({"F2": {RED: reds, BLUE: ["6C"]}}, round=4, phase="attrition")
    begin(s)
    menu = GAME.menu(s.view(None))
    assert not menu.buttons and len(menu.picks) == 1 and len(menu.picks[0].choices) == 6


def test_rules_topics_are_short_and_start_with_the_overview() -> None:
    topics = list(GAME.rules)
    assert topics[0] == "overview" and {"round", "battle", "winning", "notation", "rulings"} <= set(topics)
    assert all(len(t) <= 1900 for t in GAME.rules.values())


# ----------------------------------------------------------------------------------- odds and ends


def test_battalion_names_are_never_reused() -> None:
    """R19."""
    s = build({"F2": {RED: ["5H"], BLUE: ["9C 2C"]}}, round=4, phase="attrition")
    begin(s)
    assert s.find("R1") is None
    command(s, BLUE, "pass")  # the move phase (the Reds have nothing to move)
    command(s, BLUE, "pass")  # the support phase
    command(s, RED, "call T1 2")
    assert s.find("R2") is not None and s.find("R1") is None


def test_an_empty_deck_fights_on() -> None:
    """R27."""
    s = build(
        {"F2": {RED: ["5H 6H"], BLUE: ["9C 2C"]}, "F4": {RED: ["7H"]}, "T3": {RED: ["?8H"]},
         "T1": {BLUE: ["?3C"]}, "T2": {BLUE: ["?4C"]}},
        round=4, phase=MOVE, deck_sizes={RED: 0, BLUE: 0},
    )  # fmt: skip
    command(s, BLUE, "pass")
    command(s, RED, "pass")  # no call-ups for anyone; the battle at F2 wipes out R1
    assert s.find("R1") is None and not s.is_over() and s.round == 5  # the Blues can still win


def test_a_game_stored_between_commands_plays_on_as_if_never_stored() -> None:
    """The platform stores the state as JSON after every command and reads it back for the next: a
    battalion that moved, a travel zone called into, a side that passed, the turn's actions, the
    names used and a tie still owed must all survive. Breaks caught: each of those left out of the
    stored JSON (the round trip alone compared equal, since both sides lost the same field)."""
    places = {
        "F2": {RED: ["5H 2H 3H 4H", "5D"], BLUE: ["9C 9D 9S"]},
        "T2": {RED: ["?6H 7H"]},
        "T4": {BLUE: ["?7C"]},
    }
    plain, kept = build(places, round=3, phase=MOVE), build(places, round=3, phase=MOVE)
    steps = [
        (RED, "move R3 F3"), (RED, "end"), (BLUE, "move B2 F5"), (BLUE, "pass"), (RED, "pass"),
        (RED, "call T1 2"), (RED, "end"), (BLUE, "call T1 3"), (BLUE, "pass"), (RED, "call T2 1"),
        (RED, "pass"), (RED, "reduce R2"),
    ]  # fmt: skip
    for side, text in steps:
        command(plain, side, text)
        command(kept, side, text)
        kept = GAME.from_json(json.loads(json.dumps(kept.to_json())))
        assert kept.to_json() == plain.to_json(), text
        for who in (RED, BLUE):
            assert [str(a) for a in kept.legal_actions(who)] == [str(a) for a in plain.legal_actions(who)], (
                text
            )
    assert plain.round == 4 and plain.find("R2") is None  # the tie was owed, and answered


def test_a_timeout_loses() -> None:
    s = new_game(3)
    s.apply(TIMEOUT, RED)
    outcome = s.outcome()
    assert outcome is not None and outcome.winner == BLUE and outcome.reason is EndReason.TIMEOUT


def test_acting_after_the_end_is_refused() -> None:
    s = new_game(3)
    command(s, RED, "resign")
    with pytest.raises(IllegalAction, match="over"):
        command(s, BLUE, "call T1 2")


# ----------------------------------------------------------------------------------- the AI


def test_evaluation_prefers_holding_fronts_and_is_bounded() -> None:
    ahead = build({"F1": {RED: ["5H"]}, "F3": {RED: ["6H"]}, "F5": {BLUE: ["7C"]}}, round=4, phase=SUPPORT)
    assert 0 < evaluate(ahead, RED) <= 1 and evaluate(ahead, BLUE) == pytest.approx(-evaluate(ahead, RED))
    even = build({"F1": {RED: ["5H"]}, "F5": {BLUE: ["5C"]}}, round=4, phase=SUPPORT)
    assert evaluate(even, RED) == pytest.approx(0.0)


def test_the_ai_takes_the_third_front() -> None:
    """Holding F1 and F2 with a battalion next to the empty F3, and the Blues too far away to stop it:
    the search moves it there, which wins at the end of the round."""
    places = {"F1": {RED: ["9H 2H"]}, "F2": {RED: ["8H 3H"]}, "T2": {RED: ["?7H 4H"]}, "T4": {BLUE: ["?5C"]}}
    s = build(places, round=5, phase=MOVE)
    action = GAME.choose(s.view(RED), "normal", seed=1, iterations=300)
    assert str(action) == "move R3 F3"


def test_the_ai_answers_a_tie_and_random_plays_legally() -> None:
    s = build({"F2": {RED: ["5H 2H 3H 4H", "5D"], BLUE: ["6C"]}}, round=4, phase="attrition")
    begin(s)
    assert str(GAME.choose(s.view(RED), "easy", seed=2)) in {"reduce R1", "reduce R2"}
    assert GAME.choose(s.view(RED), "random", seed=2) in s.legal_actions(RED)


def test_a_whole_short_game_in_six_commands() -> None:
    """From the first call-up to the end, each command one player's whole turn."""
    s = GAME.new_game({}, 8)
    command(s, RED, "call T1 3; call T2 3; call T3 3; call T4 3; pass")  # round 1, support
    command(s, BLUE, "call T4 5; pass")  # round 1 ends; round 2, the Blues move first
    assert (s.round, s.phase, s.to_act()) == (2, MOVE, frozenset({BLUE}))
    command(s, BLUE, "move B1 F5; pass")
    command(s, RED, "move R1 F1; move R2 F2; move R3 F3; move R4 F4; pass")  # support: Blues first
    command(s, BLUE, "pass")
    events = command(s, RED, "pass")  # no contested front: no battle; the check finds four Red fronts
    outcome = s.outcome()
    assert outcome is not None and outcome.winner == RED and outcome.reason is EndReason.OBJECTIVE
    assert "F1, F2, F3 and F4" in outcome.detail and "the Reds win" in history(events)


# ----------------------------------------------------------------------------------- QA: words a player reads


def test_status_after_the_opponent_passed_is_one_sentence() -> None:
    """Not 'call up ... (...), the Reds have finished this phase, so ...' (a comma splice)."""
    s = new_game(1)
    command(s, RED, "call T1 3; pass")
    status = GAME.status(s.view(BLUE), BLUE)
    assert "), the Reds" not in status
    assert status.endswith("then `pass` to end the phase (the Reds have finished it).")


def test_status_mentions_the_jump_only_when_a_battalion_can_jump() -> None:
    s = build({"T2": {RED: ["?5H 6H"]}, "F1": {RED: ["9S 4D"]}}, round=3, phase=MOVE)
    assert "jump" not in GAME.status(s.view(RED), RED)
    s = build({"T2": {RED: ["?5H 6H"]}, "F1": {RED: ["KS 4D"]}}, round=3, phase=MOVE)
    # a whole jump quoted (Discord reads the words and offers it through Take action, not `jump`)
    assert "or jump R2, led by a face card, to any front (`jump R2 F2`)" in GAME.status(s.view(RED), RED)
    s = build({"F1": {RED: ["KS 4D", "QH 2C 3C"]}}, round=3, phase=MOVE)
    said = "or jump R1 or R2, each led by a face card, to any front (`jump R1 F2`)"
    assert said in GAME.status(s.view(RED), RED)


def test_status_with_one_card_left_in_the_deck() -> None:
    s = build({"F1": {RED: ["9S"]}}, round=3, phase=SUPPORT, deck_sizes={RED: 1, BLUE: 5})
    status = GAME.status(s.view(RED), RED)
    assert "your 1 card" not in status
    assert "from your deck's last card into T1, T2, T3 and T4 (`call T1 1`" in status


def test_the_end_of_round_line_lists_fronts_without_ambiguous_commas() -> None:
    """The platform joins an action's events with commas: 'the Reds hold F1, F3, the Blues hold
    F5' read as if F3 were a side's name."""
    s = build({"F1": {RED: ["5H"]}, "F3": {RED: ["6H"]}, "F5": {BLUE: ["7C"]}}, round=5, phase="battle")
    line = history(begin(s))
    assert "end of round 5: the Reds hold F1 and F3 alone and the Blues hold F5 alone" in line
    s = build({"F1": {RED: ["5H"]}, "T3": {BLUE: ["7C"]}}, round=5, phase="battle")
    assert "end of round 5: the Reds hold F1 alone and the Blues hold no front alone" in history(begin(s))


def test_a_three_way_tie_names_its_choices_as_a_list() -> None:
    """R4: the status, the history and a refusal list three equal battalions as 'R1, R2 or R3',
    not 'R1 or R2 or R3'."""
    s = build({"F2": {RED: ["2H 3H 4H", "2D 5D", "JS 6S"], BLUE: ["6C"]}}, round=4, phase="attrition")
    events = begin(s)
    assert "R1, R2 or R3 (each strength 2)" in history(events)
    status = GAME.status(s.view(RED), RED)
    assert "`reduce R1` (2♥, 3 cards), `reduce R2` (2♦, 2 cards) or `reduce R3` (J♠, 2 cards)." in status
    with pytest.raises(IllegalAction, match=r"reduce R1, R2 or R3\."):
        command(s, RED, "pass")


def test_the_history_of_a_round_reads_move_by_move() -> None:
    """Every line a player reads of a round, word for word: moves turning a card up, a jump, an
    ended turn, passes, call-ups, the battle's totals and who takes what, each reduction, a wipe-out
    and a reduction lost. Breaks caught: each of those clauses cut short or given the wrong side."""
    s = build(
        {"T2": {RED: ["?5H 6H", "QS 2C 3C"]}, "F3": {BLUE: ["TC", "9C 2D"]}, "F1": {RED: ["KS 4D"]}},
        round=3,
        phase=MOVE,
    )
    assert history(command(s, RED, "move R1 F3; jump R3 F3; end")) == (
        "the Reds move R1 from T2 to F3, turning up the 5♥ (strength 5); "
        "the Reds discard R3's K♠ to jump from F1 to F3, turning up the 4♦ (strength 4); "
        "the Reds end their turn"
    )
    assert history(command(s, BLUE, "pass")) == "the Blues pass"
    assert history(command(s, RED, "move R2 F2; pass")) == "the Reds move R2 from T2 to F2; the Reds pass"
    assert history(command(s, RED, "call T1 3; pass")) == (
        "the Reds call up R4 (3 cards, face down) into T1; the Reds pass"
    )
    events = command(s, BLUE, "call T3 1; pass")
    assert history(events) == (
        "the Blues call up B3 (1 card, face down) into T3; the Blues pass; "
        "battle at F3: Reds 9 against Blues 19, so the Blues take 2 reductions and the Reds 4; "
        "battle at F3: R1 loses its 5♥ (strength 5), turning up the 6♥ (strength 6); "
        "battle at F3: R1 loses its 6♥ (strength 6) and is wiped out; "
        "battle at F3: R3 loses its 4♦ (strength 4) and is wiped out; "
        "1 reduction against the Reds at F3 is lost: nothing of theirs is left there; "
        "battle at F3: B1 loses its 10♣ (strength 10) and is wiped out; "
        "battle at F3: B2 loses its 9♣ (strength 9), turning up the 2♦ (strength 2); "
        "end of round 3: the Reds hold F2 alone and the Blues hold F3 alone; round 4 begins, the Blues first"
    )
    reduced = of_type(events, Reduced)
    assert [r.brief() for r in reduced[:2]] == ["R1 is reduced at F3 to strength 6", "R1 is wiped out at F3"]
    # a battalion arriving at a front is news; a step back into a travel zone is routine
    assert Moved(RED, "R1", "T2", "F2", None, 5).weight is Weight.DECISIVE
    assert Moved(RED, "R1", "F2", "T2", None, 5).weight is Weight.ROUTINE


def test_the_status_counts_what_can_still_move_and_says_when_all_has_moved() -> None:
    """Breaks caught: the count of every battalion, not of those yet to move; "have nothing to move"
    said of a side that has moved everything; the waiting side not told whom it waits for."""
    s = build({"T2": {RED: ["?5H 6H", "?7H"]}, "T4": {BLUE: ["?7C"]}}, round=3, phase=MOVE)
    command(s, RED, "move R1 F2")
    assert "(`move R2 F3`; 1 battalion can still move)" in GAME.status(s.view(RED), RED)
    assert GAME.status(s.view(BLUE), BLUE) == "{player} (Blues): wait for the Reds."
    command(s, RED, "move R2 F3")
    assert GAME.status(s.view(RED), RED) == (
        "{player} (Reds): you have moved every battalion; `pass` to finish the move phase."
    )

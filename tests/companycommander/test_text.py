"""Company Commander against its text, and what a first game tripped over (issue 31): the first
Deploy's three cards, the optional extra card, the turn limit off by default, one spelling of a card
play everywhere it is printed, refusals that give the true reason, the Company Commander's rally
bonus after he routs, and the words."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from engine.companycommander import State
from engine.companycommander.actions import EXTRA_NONE, Play, parse
from engine.companycommander.events import ExtraDeclined, Rallied, Removed, Shot, SquadDrawn
from engine.companycommander.help import TOPICS
from engine.companycommander.model import Options, tactics_card
from engine.companycommander.state import DEPLOY, FIRE, RECON, new_game
from engine.errors import IllegalAction, InvalidNotation
from tests.random_play import random_events

from .helpers import GAME, A, G, build, command, history, legal, of_type, rig, unit

PAGE = Path(__file__).resolve().parents[2] / "rules" / "companycommander.md"
_TICKED = re.compile(r"`([^`]+)`")


# ------------------------------------------------------------- 1: the first Deploy draws 3


def test_the_first_players_first_deploy_draws_three_as_the_text_says() -> None:
    for seed in range(8):
        s = new_game(Options(), seed)
        assert len(s.arriving(s.first)) == 3 and s.turns == 1
    s = new_game(Options(), 5)
    drawn = of_type(s.clone()._events or [], SquadDrawn)
    assert drawn == []  # (the events of the set-up are not kept)
    assert {u.label for u in s.arriving(s.first)} == {f"{s.first[0].upper()}{n}" for n in (1, 2, 3)}


# --------------------------------------------------------------- 2: the extra card is optional


def _with_commander(hand: int = 2) -> State:
    s = build(
        {"A1": "cc C", "A2": "rifles L", "A3": "rifles R", "G1": "rifles C"},
        phase=DEPLOY,
        extra=True,
        hands={A: ["medic"] * hand},
    )
    return s


def test_the_company_commanders_extra_card_may_be_declined() -> None:
    s = _with_commander()
    assert {"extra squad", "extra tactics", "extra none"} <= set(legal(s))
    assert "tactics" not in legal(s)  # a choice, said once, so that nobody forgets it by accident
    with pytest.raises(IllegalAction, match="`extra squad`, `extra tactics` or `extra none`"):
        command(s, "tactics")
    before_hand, before_deck = list(s.hands[A]), len(s.squad[A])
    events = command(s, "extra none")
    assert of_type(events, ExtraDeclined) == [ExtraDeclined(A)]
    assert history(events) == "the Americans go without their Company Commander's extra card"
    assert s.hands[A] == before_hand and len(s.squad[A]) == before_deck and not s.arriving(A)
    assert "extra squad" not in legal(s) and "tactics" in legal(s)
    with pytest.raises(IllegalAction, match="once a turn"):
        command(s, "extra squad")


@pytest.mark.parametrize(
    "text", ["extra none", "no extra", "Extra None", "decline extra", "skip the extra card"]
)
def test_declining_has_a_notation_and_a_few_spellings(text: str) -> None:
    assert parse(text) is EXTRA_NONE and str(parse(text)) == "extra none"


def test_the_prompts_and_the_buttons_offer_the_choice() -> None:
    s = _with_commander()
    view = s.view(None)
    assert "`extra none` to go without" in GAME.status(view, A)
    buttons = {b.label: b.notation for b in GAME.menu(view).buttons}
    assert buttons["No extra card"] == "extra none"
    assert buttons["Extra squad card"] == "extra squad" and buttons["Extra tactics card"] == "extra tactics"
    assert GAME.describe(view, EXTRA_NONE) == "Go without your Company Commander's extra card this turn"
    empty = _with_commander()
    empty.squad[A] = []  # no Squad card left: the Tactics card or none
    offered = [b.notation for b in GAME.menu(empty.view(None)).buttons if not b.disabled]
    assert offered == ["extra tactics", "extra none"]
    assert "(`extra tactics`, or `extra none` to go without)" in GAME.status(empty.view(None), A)
    assert "you *may* draw it" in PAGE.read_text() or "may decline" in PAGE.read_text()
    assert "extra none" in TOPICS["deploy"] and "extra none" in TOPICS["notation"]


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_the_ai_takes_a_free_card(level: str) -> None:
    s = _with_commander()
    picks = {str(GAME.choose(s.view(A), level, seed)) for seed in range(12)}
    if level != "easy":
        assert picks <= {"extra squad", "extra tactics"}
    s2 = _with_commander()
    command(s2, "extra none")  # and plays on after a decline
    assert str(GAME.choose(s2.view(A), level, 1)) in legal(s2)


# ------------------------------------------------------------- 3: the turn limit is off


def test_no_turn_limit_unless_the_challenge_sets_one() -> None:
    s = GAME.new_game({}, 3)
    assert s.options.turn_limit == 0
    late = build({"A1": "rifles C", "G1": "rifles C"}, active=G, first=A, round=60)
    rig(late)
    command(late, "end")
    assert not late.is_over() and late.round == 61


def test_a_limit_of_one_round_says_one_round() -> None:
    s = build({"A1": "rifles C", "G1": "rifles C"}, active=G, first=A, round=1, options=Options(1))
    rig(s)
    command(s, "end")
    o = s.outcome()
    assert o is not None and o.detail.startswith("turn limit of 1 round reached")


# ------------------------------------------------------------ 6: one spelling everywhere


def _printed_forms() -> set[str]:
    """Every action the game prints in backticks: the help topics, the rules page, the hand,
    the prompts and the examples of the notation."""
    texts = [*TOPICS.values(), PAGE.read_text(), GAME.notation_help]
    s = build(
        {"A1": "scouts C", "A2": "hmg C", "A3": "rifles L cas1", "A4": "rifles R pinned", "A5": "rifles -"}
        | {"G1": "rifles C", "G2": "mg42 L", "G3": "rifles R"},
        hands={A: ["sniper", "mortars", "artillery", "airstrike", "surprise", "ambush", "rally", "medic"]},
        phase=DEPLOY,
        extra=True,
    )
    texts.append(GAME.private_text(s.view(A)) or "")
    texts.append(GAME.status(s.view(None), A))
    r = build({"A1": "scouts C", "A2": "hmg C", "A3": "rifles L", "G1": "rifles C", "G2": "rifles L"})
    texts.append(GAME.status(r.view(None), A))
    forms: set[str] = set()
    for text in texts:
        for tick in _TICKED.findall(text):
            for part in tick.split(";"):
                part = part.strip()
                # placeholders ("move …"), the platform's commands, file names and rule numbers
                if "…" in part or part.startswith(("/", "tests/", "engine/", "rules/", "docs/", "bench/")):
                    continue
                if part in (
                    "history",
                    "house rules",
                    "rules notation",
                    "resign",
                    "card",
                    "play",
                ) or part.endswith(".md"):
                    continue
                # the board's and the history's lines quoted on the page, and the AI levels
                if not part or ":" in part or "→" in part or part == "Recon +1" or part in GAME.ai.names:
                    continue
                forms.add(part)
    return forms


def test_every_printed_form_parses_and_a_card_play_has_one_meaning_with_or_without_play() -> None:
    forms = _printed_forms()
    assert {"play mortars L", "play artillery C", "extra none", "recon A2 mark"} <= forms
    plays = 0
    for form in sorted(forms):
        action = GAME.parse(form)  # raises, naming the form, if one does not parse
        if form.lower().startswith("play "):
            plays += 1
            rest = form[5:]
            assert isinstance(action, Play), form
            # what `/companycommander play action:mortars L` sends, the card command, a doubled word
            for typed in (rest, f"card {rest}", f"play play {rest}", f"card play {rest}", f"PLAY {rest}"):
                assert GAME.parse(typed) == action, typed
    assert plays >= 10


def test_a_card_play_works_alone_and_in_a_chain_in_every_spelling() -> None:
    for spelling in ("play mortars L", "mortars L", "card mortars L", "play Mortar Barrage left flank"):
        s = build(
            {"A1": "hmg L", "A2": "rifles L", "G1": "rifles L", "G2": "rifles L"}, hands={A: ["mortars"]}
        )
        rig(s, (1, 1), (1, 1))
        events = command(s, spelling)
        assert [e.source_type for e in of_type(events, Shot)] == ["mortars", "mortars"], spelling
        assert s.hands[A] == [] and s.phase == FIRE
        chained = build(
            {"A1": "hmg L", "A2": "rifles L", "G1": "rifles L", "G2": "rifles L"}, hands={A: ["mortars"]}
        )
        rig(chained, (1, 1), (1, 1), (1, 1))
        events = command(chained, f"fire A1; {spelling}; end")
        assert len(of_type(events, Shot)) == 3 and chained.active == G, spelling


def test_the_refusals_own_examples_are_accepted() -> None:
    s = build({"A1": "hmg L", "A3": "rifles L cas1", "G1": "rifles C"}, hands={A: ["mortars", "medic"]})
    for text in ("play mortars", "mortars", "card mortars", "play medic", "medic"):
        with pytest.raises(InvalidNotation) as refused:
            GAME.parse_in(text, s, A)
        examples = _TICKED.findall(str(refused.value))
        assert examples, str(refused.value)
        for example in examples:
            s.clone().apply(GAME.parse(example), A)  # each example is legal here


def test_a_card_name_alone_names_no_other_action() -> None:
    for word in ("tactics", "end", "done", "fire A1", "assault A1", "deploy A1 L", "A1-C"):
        assert not isinstance(GAME.parse(word), Play), word
    assert tactics_card("air strike").code == "airstrike"
    assert str(GAME.parse("air strike C")) == "play airstrike C"
    with pytest.raises(InvalidNotation, match="Name the front for Mortar Barrage: `play mortars C`"):
        GAME.parse("mortars")


# -------------------------------------------------------------- 7: the true reason first


@pytest.mark.parametrize(
    ("units", "text", "why"),
    [
        # a Rifle squad deployed this turn (H8: it may act at once) has no long-range fire
        (
            {"A1": "rifles C fresh", "G1": "rifles C"},
            "fire A1",
            "A1, a Rifle squad, has no long-range fire: only artillery observers, mortars, tanks and "
            "machine guns fire in the Suppression phase.",
        ),
        (
            {"A1": "hmg C fresh", "G1": "rifles C"},
            "recon A1 look",
            "A1, a Heavy MG team, is not a Recon unit: only Scout teams go on Recon missions.",
        ),
        (
            {"A1": "rifles L fresh", "G1": "rifles C"},
            "assault A1",
            "The enemy has no unit on the Left Flank, the front across from A1.",
        ),
        (
            {"A1": "hmg C fresh", "G1": "rifles C"},
            "fire G1",
            "G1 is not yours: it is the German Rifle squad G1.",
        ),
        (
            {"A1": "rifles C fresh pinned", "G1": "rifles C"},
            "assault A1",
            "A1 is Pinned: a Pinned unit does nothing until it rallies.",
        ),
    ],
)
def test_refusals_give_the_true_reason_never_deployed_this_turn(
    units: dict[str, str], text: str, why: str
) -> None:
    s = build(units)
    with pytest.raises(IllegalAction) as refused:
        command(s, text)
    assert str(refused.value).startswith(why)
    assert "deployed this turn" not in str(refused.value) and "next turn" not in str(refused.value)


def test_a_unit_deployed_this_turn_is_refused_nothing_it_may_do() -> None:
    s = build({"A1": "rifles -", "A2": "hmg -", "A3": "scouts -", "G1": "rifles C"}, phase=DEPLOY)
    command(s, "deploy A1 C; deploy A2 C; deploy A3 C; tactics")
    assert s.phase == RECON
    rig(s, (4,), (4, 4), (4, 4))
    command(s, "recon A3 look; fire A2; assault A1")
    assert all(unit(s, label).acted for label in ("A1", "A2", "A3"))
    with pytest.raises(IllegalAction, match="A1 has already acted this turn"):
        command(s, "assault A1")


# ---------------------------------------------------------- 8: the rally bonus needs him there


def _commander_rout_first() -> State:
    s = build({"A1": "cc C pinned cas1", "A2": "rifles C pinned", "G1": "rifles C"}, hands={}, phase=FIRE)
    return s


def test_the_company_commanders_rally_bonus_ends_when_he_routs_in_the_same_rally_phase() -> None:
    s = _commander_rout_first()
    rig(s, (1,), (3,))  # he rolls 1 with a Casualty: he routs; then A2 rolls 3, which +1 would rally
    events = command(s, "end")
    first, second = of_type(events, Rallied)
    assert (first.unit, first.result) == ("A1", "routed") and of_type(events, Removed)[0].unit == "A1"
    assert (second.unit, second.mods, second.result) == ("A2", (), "pinned")
    assert "the Americans roll to rally A2 Rifle squad: it stays Pinned (1D6: 3)" in history(events)


def test_the_bonus_still_counts_while_he_stands() -> None:
    s = build({"A1": "cc C pinned", "A2": "rifles C pinned", "G1": "rifles C"}, phase=FIRE)
    rig(s, (2,), (3,))  # he stays Pinned (2, no Casualty to rout on); A2's 3 + 1 rallies
    first, second = of_type(command(s, "end"), Rallied)
    assert first.result == "pinned" and second.mods == (("Company Commander", 1),)
    assert second.result == "rallied"


# --------------------------------------------------------------------------- 10: the words


def test_a_scout_team_is_pinned_in_agreement() -> None:
    s = build({"A1": "hmg C", "G2": "scouts C"})
    rig(s, (4, 4))
    events = command(s, "fire A1")
    assert "the German Scout team G2 is Pinned" in history(events)
    assert "Scouts G2 is" not in history(events)


def test_hands_name_several_copies_in_the_plural() -> None:
    s = build(
        {"A1": "rifles C", "G1": "rifles C"}, hands={A: ["mortars", "mortars", "rally", "rally", "medic"]}
    )
    text = GAME.private_text(s.view(A)) or ""
    assert text.startswith("Your hand (5 cards): 2 Mortar Barrages, 2 Rallies and Medic.")
    assert "(`play mortars C`; L, C or R)" in text and "(`play medic A1`, naming your unit)" in text


def test_random_games_never_print_deployed_this_turn() -> None:
    rng = random.Random(31)
    for seed in range(6):
        s = GAME.new_game({}, seed)
        for _ in range(400):
            if s.is_over():
                break
            side = s.active
            probe = (
                rng.choice(["fire", "assault", "recon"]) + f" {rng.choice(list(s.forces[side]) or ['A1'])}"
            )
            if probe.startswith("recon"):
                probe += " look"
            try:
                s.clone().apply(GAME.parse(probe), side)
            except IllegalAction as exc:
                assert "it acts from your next turn" not in str(exc)
            s.apply(rng.choice(s.legal_actions(side)), side)


# ------------------------------------------------- audit: a roll with nobody left to hit


def test_a_support_roll_with_nobody_left_shows_no_dice() -> None:
    """H12: a Support card's later roll at a front emptied by its earlier ones rolls nothing, so
    its line names no dice ("0D6:  = 0" read like a broken roll) and says why."""
    s = build({"A1": "rifles C", "G1": "scouts C", "G2": "rifles L"}, hands={A: ["mortars"]})
    rig(s, (6, 6))
    events = command(s, "play mortars C")
    last = of_type(events, Shot)[-1]
    assert last.empty
    assert last.text(None) == "Mortar Barrage on the German Center: no roll, nobody is left there to hit"
    assert last.short() == "Mortar Barrage → C: no roll, nobody left"
    assert "D6" not in history(events).split("destroyed")[-1]


def test_the_notation_help_says_a_roll_stands_as_the_platform_plays_it() -> None:
    """RULES.md, "Chance is never shown before it is drawn": after a die, the actions before a
    refused one stand (tests/test_fair_chance_scenarios.py plays `assault A3; play rally C` so). The
    help said the command was then refused whole and nothing played, which was never so."""
    words = TOPICS["notation"]
    assert "nothing is played" not in words
    assert "before any die is rolled or card drawn refuses the whole command" in words
    assert "after one, what came before stands" in words


def test_every_event_line_names_a_side() -> None:
    """A reader on a phone must tell whose unit did what: over a few seeded random games, every
    event of a side names it (its title, "the Germans end their turn"), names one of its units (a
    label carries its side: "G21 Rifle Squad fires at ..."), or, for a roll against the enemy,
    names the side struck ("Mortar on the American left"): in a game of two that says whose it was."""
    from engine.companycommander.model import ADJECTIVES, SIDE_OF_LETTER, TITLES

    kinds: set[str] = set()
    for _, e in random_events(GAME, (1, 2, 3)):
        whose = getattr(e, "side", None)
        text = e.text(None)
        if whose is None or not text:
            continue
        kinds.add(type(e).__name__)
        other = next(x for x in TITLES if x != whose)
        named = {TITLES[whose], ADJECTIVES[whose]}
        if isinstance(e, Shot) or type(e).__name__ == "Assaulted":
            named |= {ADJECTIVES[other]}
        labels = {m[0] for m in re.findall(r"\b([AG])\d+\b", text)}
        assert any(n in text for n in named) or any(SIDE_OF_LETTER[x] == whose for x in labels), text
    assert {"Shot", "Assaulted", "Moved", "Rallied", "Removed", "TurnEnded"} <= kinds


def test_a_surprise_attack_with_no_assault_to_add_to_says_why_for_each_unit() -> None:
    """It said only "None of your units can assault now": not which, nor why, nor what then. It
    names each unit and its reason (Pinned, moved, acted, no enemy across), in the order the engine
    checks them, and says to keep the card; read from the player's own units and the public board
    alone, so the opponent's hand changes nothing in it."""
    units = {
        "A1": "rifles C pinned",
        "A2": "rifles C moved",
        "A3": "rifles C acted",
        "A4": "rifles L",
        "A5": "rifles R",
        "A6": "rifles C pinned",
        "G1": "rifles C",
    }
    said = []
    for theirs in (["sniper"], ["ambush", "rally"]):
        s = build(units, hands={A: ["surprise"], G: theirs})
        assert "play surprise" not in legal(s)
        with pytest.raises(IllegalAction) as refused:
            command(s, "play surprise")
        said.append(str(refused.value).split("\n")[0])
    assert said[0] == said[1]
    assert said[0].startswith(
        "A Surprise Attack needs a unit of yours that can assault, and none can now: A1 and A6 are "
        "Pinned, A2 moved this turn, A3 has already acted this turn and the enemy has no unit across "
        "from A4 or A5. Keep the card for a later turn: it stays in your hand."
    )

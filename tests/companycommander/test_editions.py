"""Editions of Company Commander's rules: a game begun before issue 31 (edition 1) keeps the rules it
began with, for ever; a new game gets edition 2. tests/fixtures/cc_edition1_games.json holds games
played with the code of cce5f85 (tests/fixtures/make_cc_edition1_games.py): today's code must replay
them to the same snapshots."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine.base import CORRESPONDENCE, EDITION
from engine.companycommander import GAME
from engine.companycommander.events import Assaulted, Rallied, Shot
from engine.companycommander.model import EDITION as NEWEST
from engine.companycommander.model import Options
from engine.companycommander.state import DEPLOY, FIRE, State, new_game
from engine.errors import IllegalAction
from play.present import limits_text, options_text, terms_text
from tests.companycommander.helpers import A, G, build, command, history, legal, of_type, rig
from tests.test_conformance import check_invariants, check_round_trips

FIXTURE = Path(__file__).parent.parent / "fixtures" / "cc_edition1_games.json"
GAMES: list[dict[str, Any]] = json.loads(FIXTURE.read_text())["games"]
OLD = Options(12, 1)  # the options of a match stored before editions, read back


def as_stored(state: State) -> dict[str, Any]:
    return json.loads(json.dumps(state.to_json()))  # JSON has no tuples


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"seed{g['seed']}")
def test_a_game_played_under_edition_1_replays_to_the_same_snapshots(game: dict[str, Any]) -> None:
    assert EDITION not in game["options"]  # stored as they were: no edition named
    state = GAME.new_game(game["options"], game["seed"])
    assert state.edition == 1
    snapshots = game["snapshots"]
    assert as_stored(state) == snapshots["0"]
    for i, (side, notation) in enumerate(game["log"], start=1):
        state.apply(GAME.parse(notation), side)
        if str(i) in snapshots:
            assert as_stored(state) == snapshots[str(i)], f"seed {game['seed']}: differs after action {i}"
    assert state.is_over() or len(game["log"]) == 600


def test_the_fixture_holds_games_that_edition_2_would_play_differently() -> None:
    """The fixture is worth its keep only if the rules differ on it: edition 2 refuses or changes them."""
    differ = 0
    for game in GAMES:
        state = GAME.new_game({**game["options"], EDITION: 2}, game["seed"])
        try:
            for side, notation in game["log"]:
                state.apply(GAME.parse(notation), side)
        except IllegalAction:
            differ += 1
            continue
        differ += as_stored(state) != game["snapshots"][str(len(game["log"]))]
    assert differ == len(GAMES)


def test_an_edition_1_snapshot_loads_as_edition_1_and_an_edition_2_one_keeps_its_edition() -> None:
    old = GAME.from_json(GAMES[0]["snapshots"]["100"])
    assert old.edition == 1 and "edition" not in old.to_json()["options"]
    new = GAME.new_game({}, 3)
    assert new.edition == NEWEST == 2 and new.to_json()["options"]["edition"] == 2
    assert GAME.from_json(as_stored(new)).edition == 2
    assert GAME.view_from_json(json.loads(json.dumps(new.view(A).to_json()))).state.edition == 2


def test_which_edition_the_options_describe() -> None:
    assert GAME.edition_of({}) == 2  # a new game given by hand
    assert GAME.edition_of({"turn_limit": 12}) == 1  # every option but no edition: stored before
    assert GAME.edition_of({"turn_limit": 12, "edition": 1}) == 1
    assert GAME.normalise_options({}) == {"turn_limit": 0, "edition": 2}  # what a challenge stores
    assert GAME.normalise_options({"turn_limit": 12, "edition": 1})["edition"] == 1  # a stored match
    assert GAME.new_game({"turn_limit": 5, "edition": 1}, 1).options == Options(5, 1)
    for bad in (0, 3, "two"):
        with pytest.raises(ValueError, match="editions 1 to 2"):
            GAME.new_game({"edition": bad}, 1)


def test_edition_1_deals_five_and_draws_two_in_the_first_deploy() -> None:
    for seed in range(4):
        old, new = new_game(OLD, seed), new_game(Options(), seed)
        second = G if old.first == A else A
        assert len(old.hands[old.first]) == 3 and len(old.hands[second]) == 5
        assert len(new.hands[second]) == 7
        assert len(old.arriving(old.first)) == 2 and len(new.arriving(new.first)) == 3


def test_edition_1_takes_the_extra_card_always_and_refuses_extra_none_with_a_reason() -> None:
    s = build({"A1": "cc C", "G1": "rifles C"}, phase=DEPLOY, options=OLD, squad={A: ["rifles", "hmg"]})
    s.extra = True  # his extra card still to take, as at the start of a Deploy phase
    assert "extra none" not in legal(s) and {"extra squad", "extra tactics"} <= set(legal(s))
    before = as_stored(s)
    with pytest.raises(IllegalAction, match=r"first edition of our rules.*always taken.*`extra squad`"):
        command(s, "extra none")
    assert as_stored(s) == before
    with pytest.raises(IllegalAction, match="Take your Company Commander's extra card first: `extra squad`"):
        command(s, "tactics")
    menu = GAME.menu(s.view(None))
    assert [(c.label, c.disabled) for c in menu.buttons] == [
        ("Extra squad card", False),
        ("Extra tactics card", False),
        ("Done deploying (draw 2 Tactics cards)", True),  # the step after, shown and disabled
    ]
    from engine.companycommander import words

    said = words.status(s.view(A), A)
    assert "extra none" not in said and "`extra squad` or `extra tactics`" in said


def test_the_extra_commands_words_promise_none_only_where_the_edition_allows_it() -> None:
    """The slash command is registered once for both editions; it said 'Squad, Tactics, or none',
    which an edition-1 game refuses. Its words now hold in both (edition 2 offers `extra none`)."""
    (verb,) = [v for v in GAME.verbs if v.name == "extra"]
    assert "or none if your game allows" in verb.description and len(verb.description) <= 100
    assert verb.arg_description is not None and "not in edition-1 games" in verb.arg_description
    s = build({"A1": "cc C", "G1": "rifles C"}, phase=DEPLOY, squad={A: ["rifles", "hmg"]})
    s.extra = True
    assert "extra none" in legal(s)  # edition 2, as every new game is


def test_edition_1_pins_do_not_stack_and_edition_2_makes_a_casualty() -> None:
    for options, effect in ((OLD, "already"), (Options(), "repinned")):
        s = build({"A1": "hmg C", "G1": "panzer C pinned"}, options=options)
        rig(s, (4, 4))
        (shot,) = of_type(command(s, "fire A1"), Shot)
        assert shot.effects == (("G1", "G:panzer", effect),)


def test_edition_1_ambush_lasts_the_turn_and_edition_2_spends_it() -> None:
    for options, spent in ((OLD, False), (Options(), True)):
        units = {"A1": "rifles C", "G1": "rifles C", "G2": "rifles C"}
        s = build(units, hands={A: ["ambush"]}, options=options)
        command(s, "play ambush C")
        rig(s)
        command(s, "end; deploy G3 L; deploy G4 L; deploy G5 L; tactics")
        rig(s, (5, 4), (5, 4))
        first, second = of_type(command(s, "assault G1; assault G2"), Assaulted)
        assert first.mods == (("Ambush", -3),)
        assert (second.mods == ()) is spent


def test_the_ambush_is_told_as_its_edition_plays_it() -> None:
    """The hand, the button's preview and the history say how long an Ambush holds in this game's
    edition: every enemy Assault until the Ambush side's next turn in edition 1, the next one in 2."""
    for options, words in ((OLD, "every enemy Assault"), (Options(), "the next enemy Assault")):
        units = {"A1": "rifles C", "G1": "rifles C"}
        s = build(units, hands={A: ["ambush"]}, options=options)
        other = "the next enemy Assault" if options is OLD else "every enemy Assault"
        hand = GAME.private_text(s.view(A))
        assert hand is not None and words in hand and other not in hand
        preview = GAME.describe(s.view(A), GAME.parse("play ambush C"))
        assert words in preview and other not in preview
        told = history(command(s, "play ambush C"), G)
        assert words in told and other not in told


def test_edition_1_draws_the_assault_target_among_all_and_edition_2_among_the_pinned() -> None:
    for options, expected in ((OLD, {"G1", "G2"}), (Options(), {"G2"})):
        picked = set()
        for index in range(2):
            s = build({"A1": "rifles C", "G1": "rifles C", "G2": "mg42 C pinned"}, options=options)
            rig(s, (4, 4), target=(index, 2))  # edition 2 draws among one
            (hit,) = of_type(command(s, "assault A1"), Assaulted)
            picked.add(hit.target)
        assert picked == expected


def test_edition_1_keeps_the_rally_bonus_after_the_commander_routs() -> None:
    for options, mods in ((OLD, (("Company Commander", 1),)), (Options(), ())):
        units = {"A1": "cc C pinned cas1", "A2": "rifles C pinned", "G1": "rifles C"}
        s = build(units, phase=FIRE, options=options)
        rig(s, (1,), (3,))
        first, second = of_type(command(s, "end"), Rallied)
        assert first.result == "routed" and second.mods == mods


def test_edition_1_games_keep_every_invariant_and_the_ai_plays_them_legally() -> None:
    """The conformance suite's checks over edition-1 playouts, and every AI level answering legally
    (a short budget) from edition-1 positions, never with `extra none`."""
    for seed in (1, 2):
        state = GAME.new_game({"turn_limit": 12}, seed)
        rng = random.Random(seed)
        for step in range(300):
            if state.is_over():
                break
            side = sorted(state.to_act())[0]
            if step % 25 == 0:
                for level in [n for n in GAME.ai.names if n != CORRESPONDENCE]:
                    action = GAME.choose(state.view(side), level, seed, budget_s=0.05, iterations=30)
                    assert str(action) in {str(a) for a in state.legal_actions(side)}, (level, action)
            state.apply(rng.choice(state.legal_actions(side)), side)
            check_invariants(GAME, state)
            assert isinstance(state, State) and state.edition == 1
        check_round_trips(GAME, state)
    s = new_game(OLD, 5)
    for u in s.arriving(s.active):
        command(s, f"deploy {u.label} C")
    if s.extra:
        assert str(GAME.choose(s.view(s.active), "normal", 1, budget_s=0.05)) != "extra none"


def test_the_edition_is_never_an_option_a_player_sees_or_types() -> None:
    stored = GAME.normalise_options({"turn_limit": 12})
    assert "edition" in stored and all(spec.name != "edition" for spec in GAME.options)
    for text in (terms_text(GAME, stored), options_text(GAME, stored), limits_text(GAME, stored)):
        assert "dition" not in text
    with pytest.raises(ValueError, match="no option 'editon'"):
        GAME.normalise_options({"editon": 1})
    # a tournament's options are typed as name=value: the edition is no name a player may write
    from play.errors import BadRequest
    from play.tournament import parse_options

    with pytest.raises(BadRequest, match="`edition=1` is not an option of Company Commander"):
        parse_options(GAME, "edition=1")
    assert parse_options(GAME, "turn_limit=9") == {"turn_limit": 9, "edition": 2}


async def test_a_new_challenge_stores_edition_2_and_an_old_match_plays_on_under_edition_1(
    tmp_path: Path,
) -> None:
    import shutil

    from tests.clock import Clock
    from tests.test_fairness import FIXTURE as OLD_DB
    from tests.test_fairness import open_service

    path = tmp_path / "old.db"
    shutil.copy(OLD_DB, path)
    svc = await open_service(path, Clock(), random.Random(1))
    try:
        matches = await svc.db.list_matches()
        live = next(m for m in matches if m.game == GAME.name and m.status.value == "active")
        assert EDITION not in live.options
        match, state = await svc.current(live.channel_id)
        assert isinstance(state, State) and state.edition == 1
        side = sorted(state.to_act())[0]
        await svc.act(live.channel_id, match.sides[side], str(state.legal_actions(side)[0]))
        match, state = await svc.current(live.channel_id)
        assert isinstance(state, State) and state.edition == 1 and EDITION not in match.options
        new = await svc.challenge(
            game=GAME.name, guild_id=10, channel_id=9000, challenger_id=1, opponent_id=2
        )
        assert new.options == {"turn_limit": 0, "edition": 2}
        await svc.accept(9000, 2)
        _, state = await svc.current(9000)
        assert isinstance(state, State) and state.edition == 2
    finally:
        await svc.db.close()


@pytest.mark.parametrize("options", [OLD, Options()], ids=["edition 1", "edition 2"])
def test_extra_none_with_no_extra_card_on_offer_says_so(options: Options) -> None:
    """Edition 1 answered `extra none` with "the extra card is always taken" even when no extra card
    was on offer (taken already, or another phase): the refusal says what is true then."""
    s = build({"A1": "cc C", "G1": "rifles C"}, phase=DEPLOY, options=options, squad={A: ["rifles", "hmg"]})
    s.extra = False  # taken already this turn
    before = as_stored(s)
    with pytest.raises(IllegalAction) as refused:
        command(s, "extra none")
    said = str(refused.value)
    assert said.startswith("There is no extra card to decline now: your Company Commander's extra card")
    assert "first edition" not in said and "always taken" not in said
    assert as_stored(s) == before
    s = build({"A1": "cc C", "G1": "rifles C"}, phase=FIRE, options=options)
    with pytest.raises(IllegalAction, match=r"^There is no extra card to decline now"):
        command(s, "extra none")

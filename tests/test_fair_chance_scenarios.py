"""Issue 30's examples, played as a user would, through the match service on a real SQLite file: each
command either draws its chance for good (the step stands, the log has it) or is refused without
showing it (the same words in twin positions that differ only in the cards or dice to come).

Positions are built with the games' position helpers and the real path of chance (stacked decks,
rigged seeds); each twin is a game of its own in its own channel.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from data import Database
from engine.blockwars import Options, Side
from engine.blockwars.position import build as blockwars_position
from engine.companycommander.model import VICTORY_LOSSES
from engine.companycommander.position import build as commander_position
from engine.companycommander.position import rig
from engine.companycommander.state import FIRE
from engine.fixbayonets.position import build as bayonets_position
from engine.protocol import State
from play import MatchService, NotYourTurn, Played, ServiceError
from tests.clock import Clock

# the refusal of c2-b3 after c3xb3 lost: the square still holds the enemy
STILL_THERE = "b3 is occupied by Canadian infantry; to attack it, `c2xb3`."

GUILD = 10
ALICE, BOB = 1, 2


@pytest.fixture
async def svc(tmp_path: Path):
    clock = Clock(1_700_000_000.0)
    db = await Database.open(tmp_path / "fair.sqlite", clock=clock)
    yield MatchService(db, clock=clock, rng=random.Random(5))
    await db.close()


async def seated(svc: MatchService, game: str, channel: int, position: State | None, alice: str) -> None:
    """A game of `game` in `channel`, Alice playing `alice`, put in `position` (None: as dealt)."""
    await svc.challenge(
        game=game, guild_id=GUILD, channel_id=channel, challenger_id=ALICE, opponent_id=BOB, side=alice
    )
    await svc.accept(channel, BOB)
    if position is None:
        return
    match, _ = await svc.current(channel)
    waiting = match.sides[min(position.to_act())]
    await svc.db.update_match(
        match.id, expected_version=match.version, snapshot=position.to_json(), turn_player_id=waiting
    )
    svc.forget(channel)


async def answer(svc: MatchService, channel: int, user: int, text: str) -> Played | ServiceError:
    try:
        return await svc.act(channel, user, text)
    except ServiceError as exc:
        return exc


async def logged(svc: MatchService, channel: int) -> list[str]:
    match, _ = await svc.current(channel)
    return [notation for _, notation, _ in await svc.log(match)]


def fair(answers: list[Played | ServiceError]) -> None:
    """The issue's test: the same refusal, word for word, or chance drawn and kept in every twin."""
    refused = [a for a in answers if isinstance(a, ServiceError)]
    if refused:
        assert len(refused) == len(answers), f"refused in one twin only: {answers}"
        assert len({(type(a), a.message, tuple(a.legal)) for a in refused}) == 1, [a.message for a in refused]


# ---------------------------------------------------------------------------------------- Block Wars


def blockwars_twins(pieces: dict[str, str], active: Side, tops: list[tuple[str, str]]) -> list[State]:
    """One position per (German top card, Canadian top card): alike but for the cards to come."""
    return [
        blockwars_position(
            pieces, active=active, decks={Side.GERMANS: [g, "2C", "4C"], Side.CANADIANS: [c, "3C", "5D"]}
        )
        for g, c in tops
    ]


async def test_blockwars_an_attack_then_a_move_into_its_square_keeps_the_cards_turned(
    svc: MatchService,
) -> None:
    """`c3xb3; c2-b3` was refused whole with "b3 is occupied" when the attack would lose: the
    player learnt the cards to come. Now the attack stands in both twins; where it lost, the move
    is not made and the player alone is told why, on the board they now see."""
    twins = blockwars_twins({"c3": "G", "c2": "G", "b3": "C", "h8": "C", "a8": "G"}, Side.GERMANS,
                            [("6D", "9H"), ("9H", "6D")])  # fmt: skip
    answers = []
    for channel, position in enumerate(twins, 100):
        await seated(svc, "blockwars", channel, position, "germans")
        answers.append(await answer(svc, channel, ALICE, "c3xb3; c2-b3"))
    fair(answers)
    lost, won = answers
    assert isinstance(lost, Played) and isinstance(won, Played)
    assert await logged(svc, 100) == ["c3xb3"] and await logged(svc, 101) == ["c3xb3", "c2-b3"]
    assert "6 of diamonds vs 9 of hearts, loses" in lost.line
    assert lost.not_made is not None and lost.not_made.why == STILL_THERE
    note = lost.private["germans"]
    assert note.startswith("only part of your command was played: action 1 of 2 stood, as it drew chance")
    assert f"Action 2 (`c2-b3`) was not made: {STILL_THERE} It is still your turn" in note
    assert won.not_made is None and "germans" not in won.private


async def test_blockwars_three_tank_shots_stop_where_the_first_one_turned_a_jack(svc: MatchService) -> None:
    """`Txf6; Txf6; Txf6` was refused whole when the first shot would turn a Jack. Every twin now
    fires the first shot for good: after a Jack the Germans must answer the dogfight first."""
    twins = blockwars_twins({"f3": "CT", "f6": "G", "a8": "G", "h1": "C"}, Side.CANADIANS,
                            [("5C", "JH"), ("6D", "9H"), ("9D", "2H")])  # fmt: skip
    answers = []
    for channel, position in enumerate(twins, 200):
        await seated(svc, "blockwars", channel, position, "canadians")
        answers.append(await answer(svc, channel, ALICE, "Txf6; Txf6; Txf6"))
    fair(answers)
    assert all(isinstance(a, Played) for a in answers)
    jack, _, missed = answers
    assert await logged(svc, 200) == ["Txf6"] and await logged(svc, 201) == ["Txf6"]
    assert await logged(svc, 202) == ["Txf6", "Txf6"]
    assert isinstance(jack, Played) and jack.not_made is not None
    assert jack.not_made.why.startswith("after action 1 the Germans must act first. What they are asked:")
    assert "enemy aircraft A is coming to strafe" in jack.not_made.why
    assert "Send `Txf6; Txf6` when it is your turn again" in jack.private["canadians"]
    assert isinstance(missed, Played) and missed.not_made is not None and missed.not_made.n == 3


async def test_blockwars_a_move_and_attack_then_a_move_stands_in_every_twin(svc: MatchService) -> None:
    """`c3-c4xc5; f2-g2` with the Crosses: a tie let the move through while a win was refused whole
    with the Germans' question ("your infantry on c5 lost its fight"), so the player learnt the
    attack would win. Now the attack stands in every twin; after a win or a loss the Cross must be
    answered first and the move is not made."""
    twins = [
        blockwars_position(
            {"c3": "C", "c5": "G", "f2": "C", "a8": "G", "h8": "G"},
            active=Side.CANADIANS,
            options=Options(crosses=True),
            decks={Side.GERMANS: [g, "2C", "4C"], Side.CANADIANS: [c, "3C", "5D"]},
        )
        for g, c in (("7C", "7H"), ("6D", "9H"), ("9D", "2H"))
    ]
    answers = []
    for channel, position in enumerate(twins, 300):
        await seated(svc, "blockwars", channel, position, "canadians")
        answers.append(await answer(svc, channel, ALICE, "c3-c4xc5; f2-g2"))
    fair(answers)
    tie, won, lost = answers
    assert await logged(svc, 300) == ["c3-c4xc5", "f2-g2"]
    assert await logged(svc, 301) == ["c3-c4xc5"] and await logged(svc, 302) == ["c3-c4xc5"]
    assert isinstance(tie, Played) and tie.not_made is None
    assert isinstance(won, Played) and won.not_made is not None
    assert "your infantry on c5 lost its fight" in won.not_made.why
    assert isinstance(lost, Played) and lost.not_made is not None
    assert lost.not_made.why.startswith("First finish the Cross")


async def test_blockwars_a_mistyped_later_step_is_refused_before_anything_is_drawn(svc: MatchService) -> None:
    """A bad second step is refused before the attack is made, in words that do not depend on the
    cards to come: the same in both twins, and nothing is played."""
    twins = blockwars_twins({"c3": "G", "c2": "G", "b3": "C", "h8": "C", "a8": "G"}, Side.GERMANS,
                            [("6D", "9H"), ("9H", "6D")])  # fmt: skip
    answers = []
    for channel, position in enumerate(twins, 400):
        await seated(svc, "blockwars", channel, position, "germans")
        answers.append(await answer(svc, channel, ALICE, "c3xb3; c2-b33"))
    fair(answers)
    assert isinstance(answers[0], ServiceError) and answers[0].message.startswith("Action 2 of 2:")
    assert "Nothing was played." in answers[0].message
    assert await logged(svc, 400) == [] and await logged(svc, 401) == []


# ---------------------------------------------------------------------------------- Company Commander


async def test_companycommander_an_assault_then_a_rally_keeps_the_roll(svc: MatchService) -> None:
    """`assault A3; play rally C` was refused with "None of your units in the Center is Pinned"
    when the assault would hit. The roll now stands in both twins: after a stall the rally is
    played, after a rout it is not made and the player is told why."""
    answers = []
    for channel, dice in ((500, (3, 3)), (501, (6, 6))):
        position = commander_position(
            {"A3": "rifles C", "A1": "rifles L", "G1": "rifles C", "G2": "rifles R"},
            hands={"americans": ["rally"]},
            phase=FIRE,
        )
        rig(position, dice)
        await seated(svc, "companycommander", channel, position, "americans")
        answers.append(await answer(svc, channel, ALICE, "assault A3; play rally C"))
    fair(answers)
    stalled, routed = answers
    assert await logged(svc, 500) == ["assault A3", "play rally C"]
    assert await logged(svc, 501) == ["assault A3"]
    assert isinstance(routed, Played) and routed.not_made is not None
    assert routed.not_made.why == "None of your units in the Center is Pinned."
    assert "6 + 6 = 12" in routed.line
    assert isinstance(stalled, Played) and stalled.not_made is None


# -------------------------------------------------------------------------------------- Fix Bayonets


async def test_fixbayonets_a_chain_under_an_always_cancel_order_stands_once_the_answer_shows(
    svc: MatchService,
) -> None:
    """`double Ra8-a5; double fwd RRa8` under the Americans' "always cancel" order told whether they
    held Rough Ground. Their automatic answer shows it, so the first card stands in every twin
    (they held it, or they held other cards)."""
    answers = []
    for channel, held in ((600, ["rough"]), (601, ["trees"]), (602, ["rifle3"])):
        position = bayonets_position(
            {"a8": "GRR", "h8": "GO", "h1": "AO", "a1": "AR"},
            hands={"germans": ["double", "double"], "americans": held},
            orders={"americans": {"negate": "always"}},
        )
        await seated(svc, "fixbayonets", channel, position, "germans")
        answers.append(await answer(svc, channel, ALICE, "double Ra8-a5; double fwd RRa8"))
    fair(answers)
    cancelled, stood, _ = answers
    assert await logged(svc, 600) == ["double Ra8-a5", "double fwd RRa8"]
    assert await logged(svc, 601) == ["double Ra8-a5"] and await logged(svc, 602) == ["double Ra8-a5"]
    assert isinstance(stood, Played) and stood.not_made is not None
    assert "as it showed something hidden" in stood.private["germans"]
    assert isinstance(cancelled, Played) and cancelled.not_made is None


LAYOUT = "setup OR/HR/SR/RR/RR/UR/HR/OR"


async def test_fixbayonets_a_second_setup_after_the_first_shows_no_hand_before_it_is_dealt(
    svc: MatchService,
) -> None:
    """`setup …; setup …` was refused with examples that showed the opening hand. Sent before the
    other side has set up, nothing is drawn: the same refusal in games of other seeds, and no
    hand in it. Sent after, the set-up shows both and deals the hands, so it stands."""
    early = []
    for channel in (700, 701):  # other seeds: other decks
        await seated(svc, "fixbayonets", channel, None, "germans")
        early.append(await answer(svc, channel, ALICE, f"{LAYOUT}; {LAYOUT}"))
    fair(early)
    assert isinstance(early[0], ServiceError) and "Nothing was played" in early[0].message
    late = []
    for channel in (700, 701):
        await svc.act(channel, BOB, "setup std")
        late.append(await answer(svc, channel, ALICE, f"{LAYOUT}; {LAYOUT}"))
    fair(late)
    for channel, got in zip((700, 701), late, strict=True):
        assert isinstance(got, Played) and got.not_made is not None
        log = await logged(svc, channel)
        assert len(log) == 2 and log[1] == LAYOUT
        assert "action 1 of 2 stood, as it drew chance" in got.private["germans"]  # the hands dealt


async def test_a_hand_off_without_chance_is_still_refused_whole(svc: MatchService) -> None:
    """Ending the turn and moving again draws nothing: refused whole, as before, with the two
    commands to send."""
    twins = blockwars_twins({"c3": "G", "h8": "C", "a8": "G"}, Side.GERMANS, [("6D", "9H"), ("9H", "6D")])
    answers = []
    for channel, position in enumerate(twins, 800):
        await seated(svc, "blockwars", channel, position, "germans")
        answers.append(await answer(svc, channel, ALICE, "end; c3-c4"))
    fair(answers)
    assert isinstance(answers[0], NotYourTurn) and "Nothing was played" in answers[0].message


async def test_companycommander_a_roll_that_ends_the_game_stands_and_the_rest_is_not_made(
    svc: MatchService,
) -> None:
    """ "The game ended before this action" is said only once the ending roll is stored: the rout
    that wins stands, and the player is told the rally was not made; the stall goes on to the rally."""
    answers = []
    for channel, dice in ((900, (3, 3)), (901, (6, 6))):
        position = commander_position(
            {"A3": "rifles C", "A1": "rifles L", "G1": "rifles C", "G2": "rifles R"},
            hands={"americans": ["rally"]},
            phase=FIRE,
            lost={"germans": VICTORY_LOSSES - 1},
        )
        rig(position, dice)
        await seated(svc, "companycommander", channel, position, "americans")
        answers.append(await answer(svc, channel, ALICE, "assault A3; play rally C"))
    fair(answers)
    stalled, won = answers
    assert isinstance(stalled, Played) and not stalled.over
    assert isinstance(won, Played) and won.over and won.state.outcome() is not None
    assert won.not_made is not None and won.not_made.why == "the game ended before this action."
    assert won.private["americans"].endswith("was not made: the game ended before this action")
    match = (await svc.db.list_matches(channel_id=901, limit=1))[0]
    assert [n for _, n, _ in await svc.log(match)] == ["assault A3"]

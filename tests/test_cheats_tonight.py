"""The third red team (2026-11-28): a cheating player and a dishonest operator against what landed
that night: the tournament's seal first and the join rule, the round's end corrected in its
messages, and a draw answered off turn with Accept alone (docs/fairness.md, "What a cheater tried:
the third review"). Each hole found has a test here that failed before its fix; each probe that
held has one too."""

from __future__ import annotations

import json

import pytest

from data import Database
from engine import fairness
from play import fairness as play_fairness
from play.errors import BadRequest
from play.tournament import TournamentService
from tests.clock import Clock
from tests.fakediscord.fixtures import fake_discord, start_bot  # noqa: F401 (pytest fixtures)
from tests.test_bot import World, battlefronts_accepted, world  # noqa: F401 (pytest fixtures)
from tests.test_cheats_sealed import finished_tournament_game
from tests.test_sealed import snowflake
from tests.test_sealed_tournament import one_round, services

ALICE, BOB, CAROL = 11, 12, 13


# ------------------------------------------------------------------ the seal first, and the join rule


async def test_a_sign_up_not_after_the_seal_message_counts_through_no_process(store_world) -> None:
    """A sign-up whose interaction id is not later than the seal's message (a slash command typed
    before the seal came, the same id, one from a second process on the same store) is refused, as
    is one while the seal is owed; nothing of it is stored. A second showing of the seal (a second
    process posting it too, or an operator posting it again once the joins are in) does not replace
    the first: the joins are held against the first, which is the one verify names."""
    db, clock = store_world
    _, t = services(db, clock)
    other = TournamentService(db, services(db, clock)[0], clock=clock)  # a second process
    made = await one_round(t)
    for service in (t, other):  # owed: no sign-up counts, whatever its id
        with pytest.raises(BadRequest, match="count only once its dice seal is shown"):
            await service.join(made, ALICE, entropy=snowflake(clock.now + 3600, 5))
    seal = snowflake(clock.now, 1)
    assert await t.seal_shown(made, seal)
    for service, entropy in ((t, seal - 1), (other, seal), (other, snowflake(clock.now - 1, 9))):
        with pytest.raises(BadRequest, match="came before the dice seal"):
            await service.join(made, ALICE, entropy=entropy)
    assert await t.store.tournament_entries(made.id) == []
    clock.now += 60
    again = snowflake(clock.now, 2)
    assert not await other.seal_shown(made, again)  # shown again later: the first showing counts
    assert (await t.by_id(made.id)).seal_message_id == seal
    between = snowflake(clock.now - 30, 3)  # after the first showing, before the second
    await other.join(made, ALICE, entropy=between)
    (entry,) = await t.store.tournament_entries(made.id)
    assert entry.join_input == str(between)


# ------------------------------------------------------------------ verify, against the operator


@pytest.mark.parametrize("kept", ["nothing", "time"])
async def test_a_tournament_game_whose_discord_joins_no_seal_message_preceded_fails(
    store_world, kept: str
) -> None:
    """The operator draws the tournament's secret once every sign-up is in (it then knows every
    game's dice) and leaves out the seal's message from the record, or the message and its time.
    The bot shows the seal before it counts any sign-up from Discord and records that message's id
    (nothing else), so a game whose joins are Discord's ids and whose seal no message showed broke
    that rule: verify said ✅ ("never recorded as shown", or "as the bot records it"), and must fail."""
    db, clock = store_world
    matches, t = services(db, clock)
    _, record = await finished_tournament_game(t, matches, clock, show=True)
    assert fairness.check(record).ok
    record["tournament"]["message_id"] = None
    if kept == "nothing":
        record["tournament"]["shown_at"] = None
    report = fairness.check(record)
    assert not report.ok, report.text()
    assert "no message that showed the tournament's commitment" in report.text()


async def test_a_console_tournament_game_still_verifies_without_message_ids(tmp_path) -> None:
    """The console has no message ids and its sign-ups no ids either (`join:-`): its record, with the
    seal's time and no message, still verifies, saying what the record alone cannot show."""
    clock = Clock()
    db = await Database.open(tmp_path / "w.db", clock=clock)
    try:
        matches, t = services(db, clock)
        made = await one_round(t)
        assert await t.seal_shown(made)
        for user in (ALICE, BOB):
            await t.join(made, user)
        await t.start(100, organiser=True)
        (board,) = await t.pending_starts(await t.open_in(100))
        match = await t.start_board(board, 1001)
        await matches.act(1001, match.sides["germans"], "resign")
        _, data = await play_fairness.export(matches, 5, 1001)
        report = fairness.check(json.loads(data))
        assert report.ok, report.text()
        assert "without a message id the record alone cannot order them" in report.text()
    finally:
        await db.close()

"""The second red team (2026-11-28): a cheating player and a dishonest operator against the sealed dice
(docs/fairness.md, "Sealed in advance", "Tournaments", "What a cheater tried"). Each hole found has a
test here that failed before its fix; each probe that held has one too."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from bot import WargamesBot
from data import Database, Match, Status
from data.tournaments import Board, Tournament
from engine import fairness, registry
from engine.meta import MetaAction
from play import MatchService
from play import fairness as play_fairness
from play.errors import BadRequest, ServiceError
from play.tournament import TournamentService
from tests.clock import Clock
from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import fake_discord, start_bot  # noqa: F401 (pytest fixtures)
from tests.test_bot import World, deployed, world  # noqa: F401 (pytest fixtures)
from tests.test_sealed import CHANNEL as HERE
from tests.test_sealed import GUILD as SEALED_GUILD
from tests.test_sealed import OTHER, _sealed_record, ai_game, open_service, shown_seal, snowflake
from tests.test_sealed_tournament import one_round, services
from tests.test_tournament_bot import bot, create_and_fill, setup_club, until  # noqa: F401 (pytest fixtures)

GUILD, CHANNEL, THREAD, OTHER_THREAD = 5, 100, 1001, 1002
ORGANISER, ALICE, BOB, CAROL, DAVE = 1, 11, 12, 13, 14


async def sealed_tournament(t: TournamentService, clock: Clock, players: tuple[int, ...]) -> Tournament:
    """A one-round Block Wars tournament, its seal shown, `players` joined after it, started."""
    made = await one_round(t)
    assert await t.seal_shown(made, snowflake(clock.now, 1))
    clock.now += 60
    for n, user in enumerate(players):
        await t.join(made, user, entropy=snowflake(clock.now, 10 + n))
    await t.start(CHANNEL, organiser=True)
    return made


async def test_a_board_started_after_its_tournament_was_cancelled_is_refused(store_world) -> None:
    """Cancelling reveals the tournament's secret, which gives every game's secret. The bot opens the
    round's threads one by one after the start; an organiser who cancels meanwhile left the boards not
    yet opened to be started afterwards, in a cancelled tournament, with their secret already told
    to the channel. Such a board must not start."""
    db, clock = store_world
    _, t = services(db, clock)
    made = await sealed_tournament(t, clock, (ALICE, BOB, CAROL, DAVE))
    first, second = await t.pending_starts(await t.open_in(CHANNEL))
    await t.start_board(first, THREAD)  # the first thread was opened before the cancel
    running = await t.open_in(CHANNEL)
    assert running.seal_secret is not None and play_fairness.tournament_reveal_text(running) == ""
    done = await t.cancel(CHANNEL, organiser=True)
    assert made.seal_secret is not None and made.seal_secret in play_fairness.tournament_reveal_text(done)
    assert done.seal_secret == made.seal_secret  # told with the notice of the cancel
    assert (await db.get_channel_match(THREAD)) is None  # the running game was stopped
    with pytest.raises(BadRequest, match="cancelled"):
        await t.start_board(second, OTHER_THREAD)  # the cog's loop goes on to the next board
    assert (await db.get_channel_match(OTHER_THREAD)) is None
    assert await t.pending_starts(done) == []


async def test_a_cancel_that_comes_while_a_board_is_being_started_stops_that_game(store_world) -> None:
    """The same race one step later: the cancel comes after the board was found still running and
    its thread recorded, before its game exists (the cancel finds nothing to stop there). The game,
    once made, must be stopped, not left running with its secret told."""
    db, clock = store_world
    matches, _ = services(db, clock)

    class CancelledMidway(TournamentService):
        async def _dice(self, tournament: Tournament, board: Board) -> tuple[bytes | None, list[str] | None]:
            await self.cancel(CHANNEL, organiser=True)
            return await super()._dice(tournament, board)

    t = CancelledMidway(db, matches, clock=clock)
    await sealed_tournament(t, clock, (ALICE, BOB))
    (board,) = await t.pending_starts(await t.open_in(CHANNEL))
    with pytest.raises(BadRequest, match="cancelled"):
        await t.start_board(board, THREAD)
    assert (await db.get_channel_match(THREAD)) is None
    (stopped,) = await db.list_matches(channel_id=THREAD)
    assert stopped.status is Status.CANCELLED


async def test_a_seal_shown_in_another_channel_does_not_verify_a_game_here(store: str) -> None:
    """The operator shows a seal in each of many channels, then, once a challenge against the AI has
    its id, picks whichever channel's seal deals the AI best for the game here, and says so in the
    record. Every other check holds (that message was shown, before the challenge), so the record
    must say which channel the game was in, and the seal must have been shown there."""
    clock = Clock()
    svc = await open_service(store, clock, seed=9)
    await shown_seal(svc, clock, OTHER)  # another channel's seal, shown before
    clock.now += 60
    mine = await shown_seal(svc, clock)
    clock.now += 600
    match = await ai_game(svc, clock)
    assert match.seed_commitment == mine.commitment and match.seal_channel_id == HERE
    _, data = await play_fairness.export(svc, SEALED_GUILD, HERE)
    record = json.loads(data)
    assert record["channel_id"] == HERE
    honest = fairness.check(record)
    assert honest.ok, honest.text()
    # what a reader must look for in the channel, whole enough to compare with the seal's line
    assert f"That the message shows `{mine.commitment[:32]}…`, and that no other commitment" in honest.text()
    assert f"✅ The seal was shown in this game's own channel ({HERE})." in honest.text()
    # the operator's record: the other channel's seal (its secret, its message) for this game
    other = await svc.db.list_matches(channel_id=OTHER)
    assert other == []  # that seal was never taken: the operator has it
    record["seal"]["channel_id"] = OTHER
    report = fairness.check(record)
    assert not report.ok
    assert f"shown in channel {OTHER}, not in this game's channel {HERE}" in report.text()


async def finished_tournament_game(
    t: TournamentService, matches: MatchService, clock: Clock, *, show: bool
) -> tuple[Tournament, dict]:
    """A one-round tournament of Alice and Bob (its seal shown or, after a crash, not), its game
    resigned, the round closed; the tournament and its game's record."""
    made = await one_round(t)
    if show:
        assert await t.seal_shown(made, snowflake(clock.now, 1))
    clock.now += 60
    for n, user in enumerate((ALICE, BOB)):
        if show:
            await t.join(made, user, entropy=snowflake(clock.now, 10 + n))
        else:  # the service refuses a sign-up before the seal: an operator's own write, or an older bot's
            await t.store.join_tournament(made.id, user, clock.now, str(snowflake(clock.now, 10 + n)))
    clock.now += 3600  # an hour of sign-ups after the last join
    await t.start(CHANNEL, organiser=True)
    (board,) = await t.pending_starts(await t.open_in(CHANNEL))
    match = await t.start_board(board, THREAD)
    await matches.act(THREAD, match.sides["germans"], "resign")
    await t.sweep()
    _, data = await play_fairness.export(matches, GUILD, THREAD)
    return await t.by_id(made.id), json.loads(data)


async def test_a_tournament_seal_never_shown_is_not_said_to_be_shown(store_world) -> None:
    """After a crash between making the tournament and posting its seal (or from an operator who
    never posts it and draws the secret once every join is in), the record has no time and no
    message for the seal. Verify said it "was shown before the players joined, as the bot records
    it": the bot recorded nothing. It must say the seal was never shown, and what that leaves."""
    db, clock = store_world
    matches, t = services(db, clock)
    _, record = await finished_tournament_game(t, matches, clock, show=False)
    assert record["tournament"]["shown_at"] is None and record["tournament"]["message_id"] is None
    text = fairness.check(record).text()
    assert "was shown before the players joined" not in text
    assert "was never recorded as shown" in text
    assert "not that the bot did not choose it after the players joined" in text


async def test_a_tournament_seal_posted_after_the_joins_fails_even_with_a_forged_time(store_world) -> None:
    """The operator waits for every join, then picks the tournament's secret (the pairing follows
    from the joins, so it knows every game's dice) and posts its seal, recording an early time for
    it. The message's own id is Discord's and later than the joins: that must fail, not pass as "the
    bot's record" because the record's time and the id disagree."""
    db, clock = store_world
    matches, t = services(db, clock)
    _, record = await finished_tournament_game(t, matches, clock, show=True)
    assert fairness.check(record).ok
    seal = record["tournament"]
    # posted after the joins, just before the start, its time left as recorded (an hour earlier)
    seal["message_id"] = snowflake(record["started_at"] - 60, 99)
    report = fairness.check(record)
    assert not report.ok, report.text()
    assert "no player's join mixed into this game came after it" in report.text()


async def test_a_waiting_players_command_tells_nothing_of_whether_a_private_step_was_taken(
    world: World,  # noqa: F811
) -> None:
    """Bob, waiting on Alice's turn, sends a command (any: it costs nothing) before and after she
    takes a step of it in private. Refused both times, but in other words: "it is not your turn"
    before, "she is still taking her turn" after, so a command told him whether she had begun, and
    the moment she did. The refusal must read the same whether or not she has taken a step."""
    w = world
    await deployed(w)
    before = await w.slash(w.bob, "play", {"action": "a3-a4"})
    assert before.ephemeral
    step = await w.slash(w.alice, "play", {"action": "a6-a5"})
    assert all(m.ephemeral for m in step.messages)
    after = await w.slash(w.bob, "play", {"action": "a3-a4"})
    assert after.ephemeral
    assert after.content == before.content, (before.content, after.content)


async def test_a_step_taken_back_leaves_no_trace_on_the_waiting_players_board(world: World) -> None:  # noqa: F811
    """Alice takes a step of her turn in private and takes it back. Nothing of it stands, but the
    log has two more rows, and the board anyone else asks for carried the game's newest version in
    its buttons' custom_ids (which Bob's client shows): he could tell that she had tried a step and
    taken it back. The board must be the one from before, buttons and all, and its buttons must
    still answer as they did."""
    w = world
    board = await deployed(w)
    before = {user.id: await w.slash(user, "board") for user in (w.bob, w.eve)}
    clicks = [c for c in board.custom_ids if c.startswith(("bw:act:", "bw:dec:", "bw:open:"))]
    answers = {c: (await w.fake.click(w.bob, board, c)).content for c in clicks}
    step = await w.slash(w.alice, "play", {"action": "a6-a5"})
    assert all(m.ephemeral for m in step.messages)
    undone = await w.fake.slash(w.alice, w.general, "wargames", "undo", {})
    assert "you took back `a6-a5`" in undone.content
    for user in (w.bob, w.eve):
        seen = await w.slash(user, "board")
        assert seen.content == before[user.id].content
        assert seen.message.custom_ids == before[user.id].message.custom_ids, (
            before[user.id].message.custom_ids,
            seen.message.custom_ids,
        )
        assert seen.message.attachments[0].data == before[user.id].message.attachments[0].data
    for c in clicks:
        assert (await w.fake.click(w.bob, board, c)).content == answers[c], c
    # and her turn goes on as usual: her step again, then the hand-off, posted to all
    await w.slash(w.alice, "play", {"action": "a6-a5"})
    await w.slash(w.alice, "end")
    after = await w.slash(w.eve, "board")
    assert after.message.custom_ids != before[w.eve.id].message.custom_ids


async def test_a_game_moved_by_another_process_while_its_tournament_is_cancelled_is_stopped(
    store_world,
) -> None:
    """On PostgreSQL two bot processes share the games: a move stored by the other one between the
    cancel's read of a game and its write made the write stale, and the stop gave up on it ("it
    may have ended meanwhile"). The game went on while the cancel's notice told the tournament's
    secret, and so its dice. The stop must read the game again and stop it."""
    db, clock = store_world
    _, t = services(db, clock)
    await sealed_tournament(t, clock, (ALICE, BOB))
    (board,) = await t.pending_starts(await t.open_in(CHANNEL))
    match = await t.start_board(board, THREAD)
    real = db.update_match
    raced: list[int] = []

    async def racing(match_id: int, *, expected_version: int, **changes: Any) -> Match:
        if changes.get("status") is Status.CANCELLED and not raced:
            raced.append(match_id)  # the other process's write, stored first (a deadline moved)
            await real(match_id, expected_version=expected_version, deadline=clock.now + 60)
        return await real(match_id, expected_version=expected_version, **changes)

    db.update_match = racing  # another process, as the store would meet it
    done = await t.cancel(CHANNEL, organiser=True)
    assert raced == [match.id] and done.seal_secret is not None
    assert (await db.get_channel_match(THREAD)) is None
    assert (await db.get_match(match.id)).status is Status.CANCELLED


async def test_a_seal_posted_but_not_recorded_is_never_used_unshown_and_verifies_at_its_next_showing(
    store: str,
) -> None:
    """A crash between posting a seal's message and recording it as shown: the channel saw the
    commitment, the store does not know it. The next challenge must not take it (it would claim a
    showing the record cannot name), nor lose it: it is shown again at the next end, and the game
    after that takes it, naming that later message, which is before its challenge. Held."""
    clock = Clock()
    svc = await open_service(store, clock, seed=9)
    posted = await svc.next_seal(HERE)  # its message went out; the crash came before `seal_shown`
    clock.now += 60
    unsealed = await ai_game(svc, clock)
    assert unsealed.seed_commitment != posted.commitment and unsealed.sealed_at is None
    clock.now += 60
    again = await svc.next_seal(HERE)  # the end of that game shows the same seal, and is recorded
    assert again.commitment == posted.commitment
    assert await svc.seal_shown(again, snowflake(clock.now, 3))
    assert not await svc.seal_shown(again, snowflake(clock.now + 5, 4))  # only the first showing counts
    clock.now += 600
    sealed = await ai_game(svc, clock)
    assert sealed.seed_commitment == posted.commitment
    assert sealed.seal_message_id == snowflake(clock.now - 660, 3)
    _, report = await play_fairness.verify(svc, SEALED_GUILD, HERE)
    assert report.ok, report.text()
    assert f"shown by message {snowflake(clock.now - 660, 3)}" in report.text()


async def test_a_tournament_games_label_names_its_board_for_a_reader_and_no_other_tournament(
    store_world,
) -> None:
    """Knowing every join, the operator could draw a game's dice under another label than its
    board's and pick the one it likes: the record names round and board so a reader can hold them
    against the standings, and a label of another tournament fails."""
    db, clock = store_world
    matches, t = services(db, clock)
    made, record = await finished_tournament_game(t, matches, clock, show=True)
    report = fairness.check(record)
    assert report.ok, report.text()
    assert f"✅ The game is round 1, board 1 of tournament {made.id}: that this pair played" in report.text()
    record["tournament"]["label"] = fairness.tournament_label(made.id + 1, 1, 1)
    report = fairness.check(record)
    assert not report.ok
    assert f"is not the label of a board of tournament {made.id}" in report.text()


@pytest.mark.parametrize("game", ["companycommander", "battlefronts"])
async def test_a_private_first_step_of_the_game_keeps_the_boards_version(tmp_path: Path, game: str) -> None:
    """In Company Commander and Battlefronts the game's very first action can be a private step.
    The board the channel saw then was said to be at version 0 (there is no row before the turn),
    not the game's start: the others' board changed its custom_ids the moment she began, and a
    click on the board they held was refused as out of date instead of as not their turn."""
    clock = Clock()
    db = await Database.open(tmp_path / "first.db", clock=clock)
    try:
        svc = MatchService(db, clock=clock, rng=random.Random(5))
        rules = registry.game(game)
        await svc.challenge(
            game=game,
            guild_id=GUILD,
            channel_id=CHANNEL,
            challenger_id=ALICE,
            opponent_id=BOB,
            side=rules.sides[0].name,
        )
        await svc.accept(CHANNEL, BOB)
        start, state = await svc.current(CHANNEL)
        (side,) = state.to_act()
        mover, waiting = start.sides[side], next(u for u in start.players if u != start.sides[side])
        first = next(
            str(a) for a in state.legal_actions(side) if not a.anytime and not isinstance(a, MetaAction)
        )
        # the waiting player sends the same action from the board he holds (it parses; not his turn)
        with pytest.raises(ServiceError) as before:
            await svc.act(CHANNEL, waiting, first, expected_version=start.version)
        played = await svc.act(CHANNEL, mover, first)
        assert played.mid_turn
        private = await svc.channel_view(played.match)
        assert private is not None and private.seen.match.version == start.version
        with pytest.raises(ServiceError) as after:
            await svc.act(CHANNEL, waiting, first, expected_version=start.version)
        assert (type(after.value), after.value.message) == (type(before.value), before.value.message)
    finally:
        await db.close()


def test_a_seal_posted_after_the_challenge_fails_even_with_the_records_times_moved() -> None:
    """Against the AI, the operator sees the challenge's id, then picks a secret, posts its seal and
    writes a record whose start is more than 15 minutes after the challenge's id (so that id is not
    read as Discord's) and whose shown time is before that start. Both ids are Discord's and say the
    seal came after the challenge: that must fail, not fall back to the bot's clock."""
    record = _sealed_record(shown=2000.0, asked=1000.0)  # the seal message 1000 s after the challenge
    assert not fairness.check(record).ok  # as it was already, with the record's own times
    record["started_at"] = 1_800_000_000 + 3000.0  # the start moved past the id's 15 minutes
    record["seal"]["shown_at"] = 1_800_000_000 + 2500.0  # and the showing before it
    report = fairness.check(record)
    assert not report.ok, report.text()
    assert "after the challenge's own id" in report.text()
    # a challenge that is not a Discord id (the console's, a seeded run's) keeps the bot's clock
    record["inputs"] = ["challenge:-"]
    assert "The bot's clock says" in fairness.check(record).text()


async def test_in_discord_a_cancel_while_the_threads_are_opened_begins_no_more_games(
    fake_discord: FakeDiscord,  # noqa: F811
    start_bot,  # noqa: F811
    bot: WargamesBot,  # noqa: F811
) -> None:
    """The start opens the round's threads one by one. An organiser's cancel (which tells the
    tournament's secret) comes after the first game began and while the second's thread is being
    opened: the bot must not begin that game, nor fail the start's answer."""
    fake = fake_discord
    _, club, players = await setup_club(fake, 4)
    await start_bot(bot)
    cog = bot.get_cog("Tournaments")
    assert cog is not None
    service: TournamentService = cog.service  # type: ignore[attr-defined]
    real = service.start_board
    calls: list[int] = []
    returned: list[int] = []  # the starts that have answered, refused or not

    async def cancelled_midway(board: Board, thread_id: int) -> Match:
        calls.append(thread_id)
        try:
            if len(calls) == 2:  # the organiser's cancel, just as the second thread was opened
                await service.cancel(club.id, organiser=True)
            return await real(board, thread_id)
        finally:
            returned.append(thread_id)

    service.start_board = cancelled_midway  # type: ignore[method-assign]
    await create_and_fill(fake, bot, club, players, "Club Swiss")
    await fake.slash(fake.owner, club, "tournament", "start", messages=1)
    await until(lambda: len(returned) == 2)  # the cancel and the second start both done, not begun
    await bot.get_cog("Core").idle()  # type: ignore[union-attr]
    first, second = calls
    assert (await bot.database.get_channel_match(first)) is None  # stopped by the cancel
    assert (await bot.database.get_channel_match(second)) is None  # never begun
    assert await bot.database.list_matches(channel_id=second) == []
    said = fake.messages_in(fake.channels[second])  # no board: only why its thread holds no game
    assert [(m.content, m.attachments) for m in said] == [("This tournament was cancelled.", [])]

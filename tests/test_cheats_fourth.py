"""The fourth red team (2026-11-29): a cheating player (a phone, a second account, a client that shows
raw message data, custom_ids, attachments and every ephemeral refusal) and a curious spectator
against what landed since the third: a not-your-turn refusal that quotes the other player's prompt,
draw answers on every board, events and boards that name the sides, the words after a challenge that
never began, and the tournament's messages (docs/fairness.md, "What a cheater tried: the fourth
review"). Each hole found has a test here that failed before its fix; each probe that held has one
too."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
from dataclasses import replace
from typing import Any, cast

import asyncpg
import pytest

from bot import WargamesBot
from cogs.outbox import Outbox
from data import Database, Match, Status
from data.db import away_key
from data.tournaments import Board
from engine import registry
from engine.meta import DRAW_ACCEPT, DRAW_DECLINE, DRAW_OFFER
from play import AwayBusy, MatchService, Played
from play import fairness as play_fairness
from play.errors import BadRequest, NoMatch, ServiceError, StalePrompt
from play.results import NO_GAME
from play.service import waiting_ids
from play.stamps import STALE, UNSTAMPED, denotes, stamp
from play.tournament import RoundDone, TournamentService
from tests.clock import Clock
from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import fake_discord, start_bot  # noqa: F401 (pytest fixtures)
from tests.fakediscord.records import PRIVATE_THREAD
from tests.ids import button_id
from tests.pgraces import World as PgWorld
from tests.pgraces import game as pg_game
from tests.pgraces import log_of, race
from tests.test_bot import World, challenge_accepted, world  # noqa: F401 (pytest fixtures)
from tests.test_tournament import CHANNEL, GUILD, PLAYERS, open_one, thread_ids
from tests.test_tournament import services as tournament_services
from tests.test_tournament_bot import GAME, bot, setup_club, signed_up, sweep, threads_of, until  # noqa: F401 (fixtures)

# ------------------------------------------------------------------ a tournament's start, held up


@pytest.mark.parametrize("store", ["postgresql"], indirect=True)
async def test_a_board_whose_players_time_away_is_held_elsewhere_starts_at_the_next_sweep(
    fake_discord: FakeDiscord,  # noqa: F811
    start_bot,  # noqa: F811
    bot: WargamesBot,  # noqa: F811
    store: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Another process holds a player's time-away lock for longer than a start's tries (0.3 s) as
    the organiser starts the tournament. The organiser was answered "the game did not start. Try
    again." (a start of the tournament again is refused: it runs), and the rest of the boards were
    left to the next sweep. Now the start goes through, nobody is told to do anything, the board's
    thread waits with its challenge, and the next sweep begins the game there once the lock is let
    go."""
    fake = fake_discord
    guild, club, players = await setup_club(fake, 2)
    await start_bot(bot)
    await signed_up(fake, club, players, "Held Cup")
    other = await asyncpg.connect(store)  # another process's `away`, stalled mid-way
    try:
        for user in players:
            await other.execute("SELECT pg_advisory_lock($1)", away_key(guild.id, user.id))
        caplog.set_level(logging.INFO, logger="bot")
        started = await fake.slash(fake.owner, club, "tournament", "start")
        await until(lambda: "waits for a time away being written" in caplog.text, 10.0)
        said = [m.content for m in fake.messages_in(club) if m.id >= started.message.id]
        assert "has begun: round 1 of 1" in said[0], said
        assert not any("Try again" in s or "out of date" in s for s in said), said  # nothing to do
        (thread,) = threads_of(fake, club)
        waiting = await bot.service.channel_match(thread.id)
        assert waiting is not None and waiting.status is Status.CHALLENGED  # its challenge, not begun
    finally:
        await other.close()  # and its locks with it
    await sweep(bot)
    match, _ = await bot.service.current(thread.id)
    assert set(match.players) == {p.id for p in players}
    assert any(m.attachments for m in fake.messages_in(thread)), "the game's first board was not posted"


@pytest.mark.parametrize("store", ["postgresql"], indirect=True)
async def test_a_move_held_up_by_a_time_away_written_elsewhere_says_so(store_world, store: str) -> None:
    """A move that hands the turn over while another process keeps the next player's time away
    locked (longer than the tries) stores nothing. It was told "The game moved on while you were
    acting ... Look at the new board": the game had not moved, and the board shows nothing new. It
    now says what happened and to send the move again, which then goes through."""
    db, clock = store_world
    service = MatchService(db, clock=clock, rng=random.Random(4))
    await service.challenge(game="blockwars", guild_id=5, channel_id=77, challenger_id=10, opponent_id=20)
    match = await service.accept(77, 20)
    mover = match.turn_player_id
    assert mover is not None
    other = await asyncpg.connect(store)
    try:
        await other.execute("SELECT pg_advisory_lock($1)", away_key(5, match.other_player(mover)))
        for _ in range(60):  # the mover's steps until one hands the turn over
            now, state = await service.current(77)
            side = match.side_of(mover)
            assert side is not None
            if side not in state.to_act():
                raise AssertionError("the turn was handed over despite the lock")
            legal = [str(a) for a in state.legal_actions(side) if not a.anytime]
            action = "end" if "end" in legal else legal[0]
            try:
                await service.act(77, mover, action)
            except AwayBusy as busy:
                assert busy.message == (
                    "A player's time away was changing just now, so your move was not stored. Send it again."
                )
                assert (await service.current(77))[0].version == now.version  # nothing stored
                break
        else:
            raise AssertionError("no move handed the turn over")
    finally:
        await other.close()
    await service.act(77, mover, action)  # sent again: it goes through
    assert (await service.current(77))[0].turn_player_id != mover


@pytest.mark.parametrize("store", ["postgresql"], indirect=True)
async def test_an_ai_move_held_up_by_a_time_away_is_sent_again_not_thought_again(
    store_world, store: str
) -> None:
    """The AI's turn hands over while another process keeps its opponent's time away locked past a
    write's tries (`AwayBusy`). It thought again each time (up to 256 decisions, 20 s of CPU each at
    the correspondence level); now it sends the same choice again a moment later, once the lock is
    let go, having thought once per action."""
    db, clock = store_world
    service = MatchService(db, clock=clock, rng=random.Random(5))
    match = await service.challenge(
        game="blockwars",
        guild_id=5,
        channel_id=78,
        challenger_id=10,
        opponent_id=99,
        opponent_is_bot=True,
        ai_level="easy",
    )
    assert match.status is not Status.CHALLENGED
    human = 10
    thought: list[str] = []
    busy: list[str] = []
    think, act = service.thinker.choose, service.act

    async def counted_think(*args: Any, **kwargs: Any) -> str:
        thought.append(choice := await think(*args, **kwargs))
        return choice

    async def seen_act(*args: Any, **kwargs: Any) -> Played:
        try:
            return await act(*args, **kwargs)
        except AwayBusy:
            busy.append(args[2])
            raise

    service.thinker.choose = counted_think  # type: ignore[method-assign]
    service.act = seen_act  # type: ignore[method-assign]
    other = await asyncpg.connect(store)
    try:
        for _ in range(40):  # the human's steps until the AI owes its own turn
            match, state = await service.current(78)
            if match.ai_player_id in waiting_ids(match, state):
                break
            side = match.side_of(human)
            assert side is not None
            legal = [str(a) for a in state.legal_actions(side) if not a.anytime]
            await service.act(78, human, "end" if "end" in legal else legal[0])
        await other.execute("SELECT pg_advisory_lock($1)", away_key(5, human))
        turn = asyncio.create_task(service.ai_turns(78))
        for _ in range(200):  # until its hand-over was held up
            if busy or turn.done():
                break
            await asyncio.sleep(0.02)
        assert busy, "the AI's hand-over was never held up by the lock"
        await other.execute("SELECT pg_advisory_unlock($1)", away_key(5, human))
        played = await turn
    finally:
        await other.close()
    match, state = await service.current(78)
    assert match.turn_player_id == human  # the AI's turn went through, once the lock was let go
    assert len(thought) == len(played)  # one decision per action it played
    assert busy[0] == thought[-1]  # the held-up action was its last choice, sent again


# ------------------------------------------------------------------ not your turn, asked at every moment

ALICE, BOB = 11, 12
DRAW_ANSWERS = (str(DRAW_ACCEPT), str(DRAW_DECLINE))


async def _answers(service: MatchService, channel: int, user: int, texts: list[str]) -> list[object]:
    """What `user` hears, privately, to each of `texts` and to "My hand", autocomplete, `history`
    and `mygames`: the refusals' words and the examples they offer (nothing of it may be stored)."""
    said: list[object] = []
    for text in texts:
        try:
            played = await service.act(channel, user, text)
        except ServiceError as exc:
            said.append((type(exc).__name__, exc.message, exc.legal))
        else:
            raise AssertionError(f"`{text}` was played for the waiting player: {played.steps}")
    said.append((await service.hand(channel, user))[1])
    said.append(await service.legal(channel, user))
    said.append(await service.history(channel, 0, asker=user))
    said.append([(g.match.id, g.waiting, g.due) for g in await service.open_games(5, user)])
    return said


@pytest.mark.parametrize("name", registry.names())
async def test_the_waiting_players_every_refusal_is_the_same_before_and_after_a_private_step(
    tmp_path, name: str
) -> None:
    """Bob waits while Alice plays a turn of several steps, which the channel sees only at her
    hand-off. Through seeded games of every game he types, again and again, what a cheater would:
    her own moves (copied from her board), mistyped ones, the draw answers with no offer standing, and
    asks for his hand. The not-your-turn refusal quotes her prompt now; every answer, its words and
    the examples it offers, must be the same before her first step and after each private step, or
    it tells him what she is doing (a card she played, a unit she moved, an action left)."""
    service = MatchService(await Database.open(tmp_path / "g.db", clock=Clock()), rng=random.Random(9))
    rng = random.Random(name)
    private_steps = 0
    try:
        for channel in (1,):
            await service.challenge(
                guild_id=5, channel_id=channel, challenger_id=ALICE, opponent_id=BOB, game=name
            )
            await service.accept(channel, BOB)
            # the waiting player's answers at the turn's start
            asked: dict[int, tuple[list[str], list[object]]] = {}
            for _ in range(60):
                try:
                    match, state = await service.current(channel)
                except NoMatch:
                    break  # over
                side = min(state.to_act())
                mover = match.sides[side]
                waiting = match.other_player(mover)
                opens = await service.held_back(match, waiting) is None  # the channel saw all
                if match.side_of(waiting) not in state.to_act():
                    legal = [str(a) for a in state.legal_actions(side) if not a.anytime]
                    texts = [*rng.sample(legal, min(2, len(legal))), "zzz 9", *DRAW_ANSWERS]
                    if opens:
                        asked[waiting] = (texts, await _answers(service, channel, waiting, texts))
                    elif waiting in asked:
                        texts_then, then = asked[waiting]
                        now = await _answers(service, channel, waiting, texts_then)
                        assert now == then, f"{name}: after a private step Bob hears\n{now}\nnot\n{then}"
                        private_steps += 1
                else:
                    asked.pop(waiting, None)
                choices = [a for a in state.legal_actions(side) if not a.anytime]
                await service.act(channel, mover, str(rng.choice(choices)))
        assert private_steps >= 2, f"{name}: only {private_steps} private steps probed"
    finally:
        await service.db.close()


# ------------------------------------------------------------------ a game elsewhere, by its number


async def test_a_stranger_cannot_have_the_record_of_a_game_in_another_channel(world: World) -> None:  # noqa: F811
    """Alice and Bob play in a thread (a private one: Eve cannot see it; the fake Discord has no
    channel permissions, so no thread is closed to her there). Game numbers count up across the
    server, and the end of an accept just after a withdrawal names one, so Eve, in #general, asks
    `/wargames export game:N` and `verify game:N` for each number in turn. She got the record: who
    played whom, every move, the AI's level in a game against it, the thread's id. Now a game of
    another channel is given only to its players, and Eve's refusal reads as for a number that is
    no game at all, so it does not tell her that one exists. In the thread, and to its players
    anywhere in the server, it is as before."""
    w = world
    secret = w.fake.add_thread(w.general, "secret", owner=w.alice, thread_type=PRIVATE_THREAD)
    await challenge_accepted(w, secret)
    await w.slash(w.bob, "resign", channel=secret)
    finished = await w.cog.service.last_match(secret.id)
    assert finished is not None and finished.status is Status.FINISHED
    said = []
    for number in (finished.id, finished.id + 100):  # hers, and a number that is no game
        for sub in ("export", "verify"):
            asked = await w.fake.slash(w.eve, w.general, "wargames", sub, {"game": number})
            assert asked.ephemeral and not asked.message.attachments, asked.content
            said.append(asked.content.replace(f"#{number}", "#N"))
    assert len(set(said)) == 1 and "no game #N in this channel or among your games" in said[0], said
    for user, channel in ((w.alice, w.general), (w.eve, secret)):  # a player anywhere, or in its thread
        got = await w.fake.slash(user, channel, "wargames", "export", {"game": finished.id})
        record = json.loads(got.message.attachment(f"blockwars-game-{finished.id}.json").data)
        assert {p["user_id"] for p in record["players"]} == {w.alice.id, w.bob.id}


# ------------------------------------------------------------------ a round's pairings, before posted


@pytest.mark.parametrize("store", ["sqlite"], indirect=True)  # nothing here differs by store
async def test_the_next_rounds_pairings_are_told_to_nobody_before_the_channel(store_world) -> None:
    """Round 1's games are over; the sweep pairs round 2 and stores it, then the bot posts the
    standings with the new pairings (a post that Discord may refuse for a while: the sweep then
    tries again). Meanwhile anyone, in the tournament or not, could ask `/tournament round`
    (it showed round 2's boards: who meets whom) or `standings` (it counted round 2's bye: who got
    it). Until the pairings are posted, `round` says they are coming (in this channel, or in the
    tournament's own when asked from another) and `standings` stops at the round announced; once
    posted, both show round 2."""
    db, clock = store_world
    t = tournament_services(db, clock)
    await open_one(t, PLAYERS[:5], rounds=2)
    started = await t.start(CHANNEL, organiser=True)
    await thread_ids(t, [0])
    for board in await t.store.tournament_boards(started.tournament.id):
        if board.thread_id is not None:
            await t.matches.act(board.thread_id, board.first_id, "resign")
    (done,) = await t.sweep()  # round 2 paired and stored; not yet posted
    assert isinstance(done, RoundDone) and done.boards
    with pytest.raises(BadRequest) as waiting:
        await t.round_of(CHANNEL)
    assert waiting.value.message == (
        "Round 1 is over and round 2 is paired: its pairings are posted in this channel first. "
        "Ask again once they are."
    )
    # asked in a game's thread, or about it by its number from another channel, "this channel"
    # would be the wrong one
    elsewhere = "Round 1 is over and round 2 is paired: its pairings are posted in the tournament's own "
    with pytest.raises(BadRequest) as in_a_thread:
        await t.round_of(CHANNEL, asked_in=CHANNEL + 7)
    with pytest.raises(BadRequest) as by_number:
        await t.round_of(CHANNEL + 1, await t.by_id(started.tournament.id))
    for refused in (in_a_thread, by_number):
        assert refused.value.message == elsewhere + "channel first. Ask again once they are."
    table = await t.standings_of(CHANNEL)
    assert table.round == 1 and sum(line.points for line in table.lines) == 2 + 1  # 2 games, a bye
    await t.announced(done.table)  # the post went out
    assert (await t.round_of(CHANNEL)).tournament.round == 2
    table = await t.standings_of(CHANNEL)
    assert table.round == 2 and sum(line.points for line in table.lines) == 2 + 1 + 1  # and round 2's bye


# ------------------------------------------------------------------ a challenge that never began, named


async def test_the_words_after_a_challenge_that_never_began_tell_a_stranger_nothing_of_it(tmp_path) -> None:
    """Alice challenged Bob in a thread and withdrew; a game against the AI in another thread was
    stopped by a moderator. Eve accepts (or plays) in each, and in a third channel. Where the words
    name the channel's last game (its number and which game), they name no player and no AI level;
    in another channel she hears only that it has no game, so no command tells her of a challenge
    elsewhere."""
    service = MatchService(await Database.open(tmp_path / "u.db", clock=Clock()), rng=random.Random(2))
    eve, ai = 13, 99
    try:
        await service.challenge(
            guild_id=5, channel_id=1, challenger_id=ALICE, opponent_id=BOB, game="blockwars"
        )
        await service.decline(1, ALICE)  # withdrawn
        await service.challenge(
            guild_id=5,
            channel_id=2,
            challenger_id=ALICE,
            opponent_id=ai,
            game="fixbayonets",
            opponent_is_bot=True,
            ai_level="hard",
        )
        await service.cancel(2, 7, is_admin=True)
        said = {}
        for channel in (1, 2, 3):
            with pytest.raises(NoMatch) as refused:
                await service.accept(channel, eve)
            with pytest.raises(NoMatch) as played:
                await service.act(channel, eve, "resign")
            assert refused.value.message == played.value.message
            said[channel] = refused.value.message
        assert said[1] == (
            "The last challenge in this channel, game #1 (Block Wars), was cancelled. "
            "Start a new one with the `challenge` command of a game."
        )
        assert said[2] == (
            "Game #2 in this channel (Fix Bayonets) was cancelled. "
            "Start a new one with the `challenge` command of a game."
        )
        assert said[3] == NO_GAME
        for text in said.values():
            assert not any(str(who) in text for who in (ALICE, BOB, ai)) and "hard" not in text
    finally:
        await service.db.close()


# ------------------------------------------------------------------ draw answers, by the wrong hand


@pytest.mark.parametrize("name", ["blockwars", "battlefronts"])
async def test_a_draw_offer_is_answered_by_its_answerer_alone(tmp_path, name: str) -> None:
    """Alice offers a draw on her turn (in Block Wars it lapses when Bob plays on; in Battlefronts it
    stands until answered). She, or Eve who watches, tries to accept or decline it, with the command
    and as a click at the board's version: each is refused and nothing is stored. Once Bob has
    played on in Block Wars, the offer is gone, and his accept is refused too; in Battlefronts it
    still stands, and his accept ends the game as a draw."""
    service = MatchService(await Database.open(tmp_path / "d.db", clock=Clock()), rng=random.Random(6))
    eve = 13
    try:
        await service.challenge(guild_id=5, channel_id=1, challenger_id=ALICE, opponent_id=BOB, game=name)
        await service.accept(1, BOB)
        rules = registry.game(name)
        for _ in range(40):  # the set-ups, until one player alone is on turn
            match, state = await service.current(1)
            if len(state.to_act()) == 1 and "setup" not in " ".join(
                map(str, state.legal_actions(min(state.to_act())))
            ):
                break
            for side in sorted(state.to_act()):
                await service.act(1, match.sides[side], str(state.legal_actions(side)[0]))
        side = min(state.to_act())
        offerer, answerer = match.sides[side], match.other_player(match.sides[side])
        offered = await service.act(1, offerer, str(DRAW_OFFER))
        version = offered.match.version
        for who in (offerer, eve):
            for answer in DRAW_ANSWERS:
                for expected in (None, version):
                    with pytest.raises(ServiceError):
                        await service.act(1, who, answer, expected_version=expected)
        assert (await service.current(1))[0].version == version  # nothing stored
        # the offerer hands over; the answerer plays on without answering
        mover = offerer
        for _ in range(60):
            match, state = await service.current(1)
            if answerer in [match.sides[s] for s in state.to_act()]:
                break
            own = match.side_of(mover)
            assert own is not None
            legal = [str(a) for a in state.legal_actions(own) if not a.anytime]
            await service.act(1, mover, "end" if "end" in legal else legal[0])
        own = match.side_of(answerer)
        assert own is not None
        step = next(str(a) for a in state.legal_actions(own) if not a.anytime)
        await service.act(1, answerer, step)
        if rules.name == "blockwars":
            with pytest.raises(ServiceError, match="no draw offer"):
                await service.act(1, answerer, str(DRAW_ACCEPT))
        else:
            ended = await service.act(1, answerer, str(DRAW_ACCEPT))
            assert ended.over and ended.match.winner_id is None
    finally:
        await service.db.close()


# ------------------------------------------------------------------ a tournament's challenge, by hand


async def challenge_left_waiting(
    db: Database, clock: Clock, thread: int, monkeypatch: pytest.MonkeyPatch
) -> tuple[TournamentService, Board, Match]:
    """A one-board tournament whose game's challenge was made in `thread` and never accepted: the
    bot died between the two. Its services, the board and the challenge waiting."""
    t = tournament_services(db, clock)
    await open_one(t, PLAYERS[:2], rounds=1)
    started = await t.start(CHANNEL, organiser=True)
    (board,) = started.boards

    async def crash(*args: object, **kwargs: object) -> None:
        raise ConnectionError("the bot died between the challenge and its accept")

    with monkeypatch.context() as patched:
        patched.setattr(t.matches, "accept", crash)
        with pytest.raises(ConnectionError):
            await t.start_board(board, thread)
    waiting = await db.get_channel_match(thread)
    assert waiting is not None and waiting.status is Status.CHALLENGED
    return t, board, waiting


@pytest.mark.parametrize("store", ["sqlite", "postgresql"], indirect=True)
async def test_a_tournaments_own_challenge_cannot_be_answered_by_hand(
    store_world, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot dies between a board's challenge and its accept (or the accept waits for the next
    sweep: `AwayBusy`), so the challenge between the board's players sits in its thread. Its second
    player's accept by hand would have begun the game with his command's id mixed into the dice
    after the tournament's inputs; a decline by either would have left the board unplayable. Both
    are refused, kindly and with nothing changed; the sweep's start then begins the game, its
    inputs the tournament's alone."""
    db, clock = store_world
    thread, hand = 4242, 987_654_321
    t, board, waiting = await challenge_left_waiting(db, clock, thread, monkeypatch)
    assert board.second_id is not None
    for answer in (
        t.matches.accept(thread, board.second_id, entropy=hand),
        t.matches.accept(thread, board.first_id, entropy=hand),
        t.matches.decline(thread, board.second_id),
        t.matches.decline(thread, board.first_id),
    ):
        with pytest.raises(BadRequest, match="the bot starts it itself, soon") as refused:
            await answer
        assert "Traceback" not in refused.value.message
    after = await db.get_channel_match(thread)
    assert after is not None and (after.status, after.version) == (Status.CHALLENGED, waiting.version)

    tournament = await t.open_in(CHANNEL)
    (owed,) = await t.pending_starts(tournament)  # what the sweep starts
    begun = await t.start_board(owed, thread)
    assert begun.id == waiting.id and begun.status is Status.ACTIVE
    inputs = play_fairness.inputs_of(begun)
    joins = {e.user_id: e.join_input for e in await t.store.tournament_entries(tournament.id)}
    assert inputs[:2] == [f"join:{joins[board.first_id]}", f"join:{joins[board.second_id]}"], inputs
    assert len(inputs) == 3 and inputs[2].startswith("accept:") and str(hand) not in inputs[2], inputs
    assert not await t.pending_starts(tournament)


# ------------------------------------------------------------------ the hand-off's buttons


async def test_the_hand_off_board_does_not_count_the_steps_taken_back(tmp_path) -> None:
    """Alice plays the same Block Wars turn in two channels, `a6-a5` then `b6-b5`; in the second she
    first tries `a6-a5`, takes it back and plays it again. The channel sees only the hand-off's
    board, the same moves in both, but its buttons carried the game's version (`bw:act:<game>:
    <version>`), which counts every write of the log: Bob's client read 2 more in the second, so he
    learnt that she tried a step and took it back (the second review closed this for the board
    shown during her turn, not after it). Now they carry a keyed stamp of it (play/stamps.py): the
    hand-off boards' ids are alike in both but for the game's number and that stamp, his click with
    it is taken, and a forged click with the plain version, which would probe the count, is refused
    as any stale button is (as one from before the stamps, whatever its number)."""
    service = MatchService(await Database.open(tmp_path / "v.db", clock=Clock()), rng=random.Random(8))
    shapes = []
    try:
        for channel, tries in ((1, False), (2, True)):
            await service.challenge(
                guild_id=5,
                channel_id=channel,
                challenger_id=ALICE,
                opponent_id=BOB,
                game="blockwars",
                side="germans",
            )
            await service.accept(channel, BOB)
            await service.act(channel, ALICE, "setup std")
            await service.act(channel, BOB, "setup std")
            if tries:
                await service.act(channel, ALICE, "a6-a5")
                await service.undo(channel, ALICE)
            await service.act(channel, ALICE, "a6-a5")
            handed = await service.act(channel, ALICE, "b6-b5")
            assert not handed.mid_turn and [s.notation for s in handed.steps] == ["b6-b5"]
            match = handed.match
            # what the channel's board carries, built as the bot builds it (no state of the cog read)
            view = Outbox.board_components(cast(Outbox, None), match, handed.state)
            assert view is not None
            ids = [str(getattr(item, "custom_id", "")) for item in view.children]
            assert button_id("act", match) in ids, ids
            stamps = {c.split(":")[3] for c in ids if c.startswith(("bw:act:", "bw:dec:", "bw:open:"))}
            assert stamps == {stamp(match)} and re.fullmatch("[0-9a-f]{12}", stamp(match)), ids
            shapes.append([c.replace(f":{match.id}:{stamp(match)}", ":<game>:<stamp>") for c in ids])
            bob = match.side_of(BOB)
            assert bob is not None
            move = str(next(a for a in handed.state.legal_actions(bob) if not a.anytime))
            # a plain number, right or wrong, reads as a board from before the stamps (one posted
            # before the update that brought them): the same words whatever its value, so no probe
            for plain in (match.version, match.version - 1):
                with pytest.raises(StalePrompt) as refused:
                    await service.act(channel, BOB, move, expected_version=str(plain))
                assert str(refused.value) == UNSTAMPED
            with pytest.raises(StalePrompt) as refused:  # a stamp of another version: out of date
                await service.act(channel, BOB, move, expected_version=stamp(match, match.version - 1))
            assert str(refused.value) == STALE
            assert (await service.current(channel))[0].version == match.version  # nothing stored
            played = await service.act(channel, BOB, move, expected_version=stamp(match))
            assert played.match.version > match.version
            # a stamp names one version of one game: no other version, nor another game's secret
            assert not denotes(played.match, stamp(match), played.match.version)
            other = replace(match, seed_secret="00" * 32)
            assert stamp(other) != stamp(match) and not denotes(other, stamp(match), match.version)
            old = replace(match, chance_version=1, seed_secret=None)  # a game from before version 2
            assert stamp(old) == str(match.version) and denotes(old, str(match.version), match.version)
        assert shapes[0] == shapes[1], shapes
    finally:
        await service.db.close()


async def test_an_accept_racing_the_step_that_lapses_the_offer_lands_only_before_it(pg_url: str) -> None:
    """Two bot processes on one PostgreSQL. Block Wars: P offers a draw and hands over; Q's accept
    (in process B, from the board that still shows the offer) races her own first step of the turn
    (in process A), which lets the offer lapse. Either the accept lands first (a draw, and the step
    is refused) or the step does (the accept is refused: no offer stands), never both; over seeded
    rounds, each in a channel of its own."""
    pg = PgWorld(pg_url)
    rng = random.Random("lapse")
    seen = set()
    try:
        a, b = await pg.start(2, seed=4)
        for _ in range(6):
            channel = pg.channel()
            await pg_game(a, channel)
            for _ in range(2):  # both set-ups
                match, state = await a.service.current(channel)
                await a.service.act(channel, match.sides[min(state.to_act())], "setup std")
            match, state = await a.service.current(channel)
            offerer = match.sides[min(state.to_act())]
            answerer = match.other_player(offerer)
            await a.service.act(channel, offerer, str(DRAW_OFFER))
            for _ in range(10):  # the offerer's turn, handed over
                match, state = await a.service.current(channel)
                if answerer in (match.sides[s] for s in state.to_act()):
                    break
                own = match.side_of(offerer)
                assert own is not None
                step = next(x for x in state.legal_actions(own) if not x.anytime)
                await a.service.act(channel, offerer, str(step))
            await b.service.current(channel)  # B reads the game with the offer standing
            own = match.side_of(answerer)
            assert own is not None
            step = next(x for x in state.legal_actions(own) if not x.anytime)
            done = await race(
                rng,
                a.service.act(channel, answerer, str(step), interaction_id=pg.interaction()),
                b.service.act(channel, answerer, str(DRAW_ACCEPT), interaction_id=pg.interaction()),
            )
            (won,) = [d for d in done if not isinstance(d, BaseException)]
            (refused,) = [d for d in done if isinstance(d, ServiceError)]
            last = (await log_of(pg, channel))[-1]
            if won.notation == str(DRAW_ACCEPT):
                assert won.over and won.match.winner_id is None and last == str(DRAW_ACCEPT)
                seen.add("accept first")
            else:
                # refused at the commit (B's copy was the older) or on reading: no offer stands
                assert "no draw offer" in refused.message or "moved on" in refused.message, refused.message
                assert last == str(step) and not won.over
                seen.add("step first")
        assert seen  # both orders come up in most runs here; the checks hold for either
    finally:
        await pg.close()


@pytest.mark.parametrize("store", ["sqlite"], indirect=True)  # nothing here differs by store
async def test_a_tournament_game_is_checked_from_its_tournaments_channel(store_world) -> None:
    """The tournament's end tells its channel to verify its games, each played in a thread of it
    whose pairing that channel was told: anyone there may check one by its number, as in its
    thread. From another channel, only its players may."""
    db, clock = store_world
    t = tournament_services(db, clock)
    await open_one(t, PLAYERS[:2], rounds=1)
    started = await t.start(CHANNEL, organiser=True)
    await thread_ids(t, [0])
    (board,) = await t.store.tournament_boards(started.tournament.id)
    assert board.thread_id is not None and board.match_id is not None
    await t.matches.act(board.thread_id, board.first_id, "resign")
    onlooker = 77
    for channel in (CHANNEL, board.thread_id):
        match, report = await play_fairness.verify(t.matches, GUILD, channel, board.match_id, onlooker)
        assert match.id == board.match_id and report.ok, report.text()
    with pytest.raises(NoMatch, match="no game #"):
        await play_fairness.export(t.matches, GUILD, CHANNEL + 1, board.match_id, onlooker)
    _, data = await play_fairness.export(t.matches, GUILD, CHANNEL + 1, board.match_id, board.first_id)
    assert json.loads(data)["match_id"] == board.match_id

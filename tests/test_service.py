"""The match service on both real stores (an SQLite file, a PostgreSQL database): the one path every
move takes."""

from __future__ import annotations

import asyncio
import random
import shutil
from pathlib import Path

import asyncpg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from data import Database, Status
from data.postgres import PostgresDatabase
from engine import protocol
from engine.blockwars import Options, Side, State, new_game, parse
from engine.blockwars.actions import Move
from play import (
    AlreadyApplied,
    BadRequest,
    IllegalMove,
    MatchService,
    NoMatch,
    NotAPlayer,
    NotYourTurn,
    ServiceError,
    StalePrompt,
)
from tests.clock import Clock

GUILD, CHANNEL = 10, 100
GAME = "blockwars"
ALICE, BOB, EVE = 1, 2, 3


OPENED: list[Database] = []


async def open_service(where: str | Path, clock: Clock, seed: int = 7) -> MatchService:
    db = await Database.open(where, clock=clock)
    OPENED.append(db)
    return MatchService(db, clock=clock, rng=random.Random(seed))


@pytest.fixture(autouse=True)
async def close_databases():
    """Every database a test opened is closed after it (a PostgreSQL pool holds connections)."""
    yield
    while OPENED:
        await OPENED.pop().close()


async def started(
    svc: MatchService, side: str = "germans", channel: int = CHANNEL, game: str = GAME, **options: object
) -> None:
    """Alice (Germans by default) challenges Bob to `game` with `options`, who accepts; both deploy
    the standard layout."""
    await svc.challenge(
        game=game,
        guild_id=GUILD,
        channel_id=channel,
        challenger_id=ALICE,
        opponent_id=BOB,
        side=side,
        options=options or None,
    )
    await svc.accept(channel, BOB)
    german = ALICE if side == "germans" else BOB
    await svc.act(channel, german, "setup std")
    await svc.act(channel, BOB if german == ALICE else ALICE, "setup std")


def player_for(match_sides: dict[str, int], state: protocol.State) -> int:
    assert isinstance(state, State)  # the service's games here are Block Wars
    side = state.current_player()
    assert side is not None
    return match_sides[side.value]


@pytest.fixture
def clock() -> Clock:
    return Clock(1_700_000_000.0)


async def test_challenge_accept_setup_and_first_move(store: str, clock: Clock) -> None:
    svc = await open_service(store, clock)
    match = await svc.challenge(
        game=GAME, guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=BOB
    )
    assert match.status is Status.CHALLENGED
    with pytest.raises(NotAPlayer):
        await svc.accept(CHANNEL, EVE)
    with pytest.raises(NoMatch):
        await svc.act(CHANNEL, ALICE, "setup std")
    match = await svc.accept(CHANNEL, BOB)
    assert match.status is Status.ACTIVE
    assert set(match.sides.values()) == {ALICE, BOB}
    german = match.sides["germans"]
    canadian = match.sides["canadians"]
    with pytest.raises(NotYourTurn):
        await svc.act(CHANNEL, canadian, "setup std")
    await svc.act(CHANNEL, german, "setup std")
    played = await svc.act(CHANNEL, canadian, "setup std")
    assert played.match.turn_player_id == german
    played = await svc.act(CHANNEL, german, "c7-b7")
    assert "Germans: c7-b7" in played.line
    assert played.match.turn_player_id == german  # one action left
    await svc.db.close()


async def test_refusals_are_clear_and_change_nothing(store: str, clock: Clock) -> None:
    svc = await open_service(store, clock)
    await started(svc)
    before = await svc.db.get_match((await svc.current(CHANNEL))[0].id)
    with pytest.raises(NotAPlayer, match="not playing"):
        await svc.act(CHANNEL, EVE, "c7-b7")
    with pytest.raises(NotYourTurn, match="not your turn"):
        await svc.act(CHANNEL, BOB, "b2-b3")
    # words no game reads: whose turn it is, or whose game, helps more than the parser's complaint
    with pytest.raises(NotYourTurn, match="not your turn"):
        await svc.act(CHANNEL, BOB, "fly me to the moon")
    with pytest.raises(NotAPlayer, match="not playing"):
        await svc.act(CHANNEL, EVE, "fly me to the moon")
    with pytest.raises(IllegalMove) as err:
        await svc.act(CHANNEL, ALICE, "c6xd4")
    assert err.value.message == "There is nothing to fire at on d4."
    with pytest.raises(IllegalMove, match="not an action"):
        await svc.act(CHANNEL, ALICE, "fly me to the moon")
    with pytest.raises(NoMatch):
        await svc.act(999, ALICE, "c7-b7")
    with pytest.raises(BadRequest):
        await svc.challenge(
            game=GAME, guild_id=GUILD, channel_id=CHANNEL, challenger_id=EVE, opponent_id=ALICE
        )
    with pytest.raises(BadRequest):
        await svc.challenge(game=GAME, guild_id=GUILD, channel_id=200, challenger_id=EVE, opponent_id=EVE)
    with pytest.raises(BadRequest):
        await svc.challenge(
            game=GAME, guild_id=GUILD, channel_id=200, challenger_id=EVE, opponent_id=9, opponent_is_bot=True
        )
    with pytest.raises(BadRequest, match="between 1 minute and 14 days"):
        await svc.challenge(
            game=GAME,
            guild_id=GUILD,
            channel_id=200,
            challenger_id=EVE,
            opponent_id=ALICE,
            turn_seconds=15 * 86400,
        )
    with pytest.raises(BadRequest, match="at least a minute"):
        await svc.challenge(
            game=GAME, guild_id=GUILD, channel_id=200, challenger_id=EVE, opponent_id=ALICE, game_seconds=59
        )
    assert await svc.channel_match(200) is None
    after = await svc.db.get_match(before.id)
    assert after == before
    await svc.db.close()


async def test_two_actions_at_once_exactly_one_lands(store: str, clock: Clock) -> None:
    svc = await open_service(store, clock)
    await started(svc)
    match, _ = await svc.current(CHANNEL)
    results = await asyncio.gather(
        svc.act(CHANNEL, ALICE, "c7-b7", expected_version=match.version, interaction_id=501),
        svc.act(CHANNEL, ALICE, "f7-g7", expected_version=match.version, interaction_id=502),
        return_exceptions=True,
    )
    ok = [r for r in results if not isinstance(r, BaseException)]
    stale = [r for r in results if isinstance(r, StalePrompt)]
    assert len(ok) == 1 and len(stale) == 1
    rows = await svc.db.actions(match.id)
    assert [r.notation for r in rows][-1] in ("c7-b7", "f7-g7")
    assert len(rows) == 3  # two set-ups and the one move
    await svc.db.close()


async def test_a_cancel_that_meets_a_resignation_leaves_the_result(tmp_path: Path, clock: Clock) -> None:
    """An admin cancels as a player resigns: whichever comes second under the game's lock finds the
    game over. A finished game keeps its result: the cancel is refused, and the record stands."""
    svc = await open_service(tmp_path / "c.db", clock)
    await started(svc)
    match, _ = await svc.current(CHANNEL)
    resigned, cancelled = await asyncio.gather(
        svc.act(CHANNEL, ALICE, "resign"), svc.cancel(CHANNEL, EVE, is_admin=True), return_exceptions=True
    )
    final = await svc.db.get_match(match.id)
    if final.status is Status.FINISHED:
        assert not isinstance(resigned, BaseException) and isinstance(cancelled, ServiceError)
        assert final.winner_id == BOB
    else:
        assert final.status is Status.CANCELLED and isinstance(resigned, ServiceError)
    await svc.db.close()


async def test_the_same_interaction_is_never_applied_twice(store: str, clock: Clock) -> None:
    svc = await open_service(store, clock)
    await started(svc)
    await svc.act(CHANNEL, ALICE, "c7-b7", interaction_id=77)
    with pytest.raises(AlreadyApplied):
        await svc.act(CHANNEL, ALICE, "f7-g7", interaction_id=77)
    match, state = await svc.current(CHANNEL)
    assert isinstance(state, State) and state.actions_left == 1
    assert len(await svc.db.actions(match.id)) == 3
    await svc.db.close()


async def test_a_crash_mid_move_keeps_the_previous_state(store: str, clock: Clock) -> None:
    svc = await open_service(store, clock)
    await started(svc)
    before, _ = await svc.current(CHANNEL)

    def crash() -> None:
        raise RuntimeError("power cut after the engine step")

    with pytest.raises(RuntimeError):
        await svc.act(CHANNEL, ALICE, "c7-b7", before_commit=crash)
    after, state = await svc.current(CHANNEL)
    assert after == before
    move = parse("c7-b7")
    assert isinstance(state, State) and isinstance(move, Move)
    assert state.board[move.dst] is None
    await svc.act(CHANNEL, ALICE, "c7-b7")  # and the game goes on
    await svc.db.close()


async def test_restart_mid_game_and_replay_matches_snapshot(store: str, clock: Clock) -> None:
    path = store
    svc = await open_service(path, clock)
    await started(svc)
    rng = random.Random(3)
    for _ in range(60):
        match, state = await svc.current(CHANNEL)
        legal = await svc.legal(CHANNEL, player_for(match.sides, state))
        await svc.act(CHANNEL, player_for(match.sides, state), rng.choice(legal))
    match_before, state_before = await svc.current(CHANNEL)
    await svc.db.close()

    svc2 = await open_service(path, clock)  # the bot restarted
    match, state = await svc2.current(CHANNEL)
    assert match == match_before
    assert state.to_json() == state_before.to_json()
    replayed, _, _ = await svc2.replayed(match)
    assert replayed.to_json() == match.snapshot
    legal = await svc2.legal(CHANNEL, player_for(match.sides, state))
    await svc2.act(CHANNEL, player_for(match.sides, state), legal[0])
    await svc2.db.close()


async def test_full_game_to_the_end_records_stats_and_history(store: str, clock: Clock) -> None:
    svc = await open_service(store, clock)
    await started(svc)
    rng = random.Random(11)
    for _ in range(3000):
        match, state = await svc.current(CHANNEL)
        legal = await svc.legal(CHANNEL, player_for(match.sides, state))
        moves = [a for a in legal if a != "end"] or legal
        played = await svc.act(CHANNEL, player_for(match.sides, state), rng.choice(moves))
        if played.over:
            break
    assert played.over
    final = played.match
    assert final.status is Status.FINISHED
    assert await svc.db.get_channel_match(CHANNEL) is None  # the channel is free again
    winner = final.winner_id
    stats = [await svc.stats(GUILD, GAME, p) for p in (ALICE, BOB)]
    if winner is None:
        assert all(s.draws == 1 for s in stats)
    else:
        loser = ALICE if winner == BOB else BOB
        assert (await svc.stats(GUILD, GAME, winner)).wins == 1
        assert (await svc.stats(GUILD, GAME, loser)).losses == 1
        board = await svc.leaderboard(GUILD, GAME)
        assert board[0].user_id == winner
    history = await svc.history(CHANNEL, limit=5)
    assert len(history) == 5 and history[-1].startswith(("Germans", "Canadians"))
    replayed, _, _ = await svc.replayed(final)
    assert replayed.to_json() == final.snapshot
    await svc.db.close()


async def test_resign_and_draw_by_agreement(store: str, clock: Clock) -> None:
    svc = await open_service(store, clock)
    await started(svc)
    # a draw is offered on your own turn: Bob's waits for Alice's hand-off, in the words he would get
    # after her first step, so it tells nothing of her turn (RULES.md, "Your turn is yours")
    with pytest.raises(
        NotYourTurn, match=r"is taking their turn\. A draw is offered or declined on your own turn"
    ):
        await svc.act(CHANNEL, BOB, "offer draw")
    await svc.act(CHANNEL, ALICE, "offer draw")
    with pytest.raises(IllegalMove):
        await svc.act(CHANNEL, ALICE, "accept draw")
    played = await svc.act(CHANNEL, BOB, "accept draw")  # an offer is accepted at any time
    assert played.over and played.match.winner_id is None
    assert (await svc.stats(GUILD, GAME, ALICE)).draws == 1

    await started(svc, channel=CHANNEL + 1)
    played = await svc.act(CHANNEL + 1, BOB, "resign")
    assert played.match.winner_id == ALICE
    assert "resigned" in (played.match.result_reason or "")
    await svc.db.close()


async def test_decline_withdraw_expire_and_cancel(store: str, clock: Clock) -> None:
    svc = await open_service(store, clock)
    await svc.challenge(game=GAME, guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=BOB)
    # nobody but the two answers it: a stranger neither declines nor withdraws it, nor may the
    # challenger accept their own
    with pytest.raises(NotAPlayer, match="Only the two players"):
        await svc.decline(CHANNEL, EVE)
    with pytest.raises(NotAPlayer, match="You made this challenge"):
        await svc.accept(CHANNEL, ALICE)
    assert (await svc.decline(CHANNEL, BOB)).status is Status.DECLINED
    await svc.challenge(game=GAME, guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=BOB)
    assert (await svc.decline(CHANNEL, ALICE)).status is Status.CANCELLED  # withdrawn
    await svc.challenge(game=GAME, guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=BOB)
    clock.now += 2 * 24 * 3600
    notices = await svc.sweep()
    assert [n.kind for n in notices] == ["expired"]
    await started(svc)
    with pytest.raises(BadRequest, match="already started"):  # a second click of Accept
        await svc.accept(CHANNEL, BOB)
    with pytest.raises(NotAPlayer):
        await svc.cancel(CHANNEL, ALICE, is_admin=False)
    with pytest.raises(NotAPlayer, match="Only members who can manage this channel"):
        await svc.cancel(CHANNEL, EVE, is_admin=False)
    with pytest.raises(NotAPlayer, match="you play in it"):  # an admin who plays: no escape from a loss
        await svc.cancel(CHANNEL, ALICE, is_admin=True)
    assert (await svc.cancel(CHANNEL, EVE, is_admin=True)).status is Status.CANCELLED
    await svc.db.close()


async def test_deadlines_remind_then_forfeit_even_after_downtime(store: str, clock: Clock) -> None:
    path = store
    svc = await open_service(path, clock)
    await svc.challenge(
        game=GAME,
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger_id=ALICE,
        opponent_id=BOB,
        side="germans",
        turn_seconds=3600,
    )
    await svc.accept(CHANNEL, BOB)
    await svc.act(CHANNEL, ALICE, "setup std")
    assert await svc.sweep() == []
    clock.now += 3600 - 10  # inside the reminder window (the last quarter)
    notices = await svc.sweep()
    assert [(n.kind, n.user_id) for n in notices] == [("reminder", BOB)]
    assert await svc.sweep() == []  # reminded once only
    await svc.db.close()

    clock.now += 5 * 3600  # the bot was down past the deadline
    svc = await open_service(path, clock)
    notices = await svc.sweep()
    assert [(n.kind, n.user_id) for n in notices] == [("forfeit", BOB)]
    match = (await svc.db.list_matches(channel_id=CHANNEL))[0]
    assert match.status is Status.FINISHED and match.winner_id == ALICE
    assert (await svc.db.actions(match.id))[-1].notation == "timeout"
    replayed, _, _ = await svc.replayed(match)
    assert replayed.to_json() == match.snapshot
    await svc.db.close()


async def test_a_move_resets_the_clock_for_the_next_player(store: str, clock: Clock) -> None:
    svc = await open_service(store, clock)
    await svc.challenge(
        game=GAME,
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger_id=ALICE,
        opponent_id=BOB,
        side="germans",
        turn_seconds=3600,
    )
    await svc.accept(CHANNEL, BOB)
    clock.now += 3000
    played = await svc.act(CHANNEL, ALICE, "setup std")
    assert played.match.deadline == pytest.approx(clock.now + 3600)
    assert played.match.turn_player_id == BOB
    await svc.db.close()


async def test_a_stale_prompt_is_refused(store: str, clock: Clock) -> None:
    svc = await open_service(store, clock)
    await started(svc)
    match, _ = await svc.current(CHANNEL)
    await svc.act(CHANNEL, ALICE, "c7-b7")
    with pytest.raises(StalePrompt, match="out of date"):
        await svc.act(CHANNEL, ALICE, "f7-g7", expected_version=match.version)
    await svc.db.close()


async def _start_in(where: Path) -> None:
    """A database at `where` holding the started game of `started`, closed."""
    svc = await open_service(where, Clock(1_700_000_000.0))
    await started(svc)
    await svc.db.close()
    OPENED.remove(svc.db)


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    user=st.sampled_from([ALICE, BOB, EVE, 0, -5, 2**62]),
    text=st.one_of(
        st.text(max_size=60),
        st.sampled_from(["e9-e10", "x", "T@z1", "setup aaaa/bbbb/c", "barrage", "'; DROP TABLE matches;--"]),
    ),
    channel=st.sampled_from([CHANNEL, 5, 0]),
)
def test_garbage_commands_give_clear_errors_and_change_nothing(
    tmp_path_factory: pytest.TempPathFactory, user: int, text: str, channel: int
) -> None:
    # Each example on a copy of one started game's file, made by the first: opening a fresh database
    # and starting the game was most of an example's CPU (60 examples)
    template = tmp_path_factory.getbasetemp() / "garbage-started" / "g.db"
    if not template.exists():
        template.parent.mkdir()
        asyncio.run(_start_in(template))
    where = tmp_path_factory.mktemp("fuzz") / "g.db"
    for suffix in ("", "-wal", "-shm"):  # whatever SQLite left beside the file
        if Path(f"{template}{suffix}").exists():
            shutil.copyfile(f"{template}{suffix}", f"{where}{suffix}")

    async def scenario() -> None:
        svc = await open_service(where, Clock(1_700_000_000.0))
        match, _ = await svc.current(CHANNEL)
        legal = await svc.legal(CHANNEL, ALICE)
        try:
            await svc.act(channel, user, text)
        except ServiceError as exc:
            assert exc.message and "Traceback" not in exc.message
            assert await svc.db.get_match(match.id) == match
        else:
            assert user == ALICE and channel == CHANNEL and str(parse(text)) in legal
        await svc.db.close()

    asyncio.run(scenario())


def test_snapshot_is_the_engine_state_json() -> None:
    """The service stores exactly what the engine serialises: nothing service-specific leaks in."""
    state = new_game(Options(crosses=True), 5)
    assert State.from_json(state.to_json()).to_json() == state.to_json()
    assert Side.GERMANS.value in state.to_json()["reserves"]


async def test_the_copy_in_memory_never_lets_a_stale_move_land(tmp_path: Path, clock: Clock) -> None:
    """Two services on one SQLite file (an admin tool beside the bot: the file tells nobody of a
    change): each keeps its games in memory, but a move based on an outdated copy is refused whole and
    the copy is re-read."""
    a = await open_service(tmp_path / "g.db", clock)
    b = await open_service(tmp_path / "g.db", clock)
    await started(a)
    match, state = await b.current(CHANNEL)  # b reads the game once and keeps it
    mover = player_for(match.sides, state)
    move = str(state.legal_actions()[0])
    played = await a.act(CHANNEL, mover, move)  # a moves; b's copy is now one version behind
    assert (await b.current(CHANNEL))[0].version == match.version  # b still shows its copy...
    with pytest.raises(StalePrompt):
        await b.act(CHANNEL, mover, str(played.state.legal_actions()[0]))
    assert (await a.db.get_match(match.id)) == played.match  # ...but could not change anything
    fresh, fresh_state = await b.current(CHANNEL)  # and it reads the game again after the refusal
    assert fresh == played.match and fresh_state.to_json() == played.state.to_json()
    follow = str(fresh_state.legal_actions()[0])
    again = await b.act(CHANNEL, player_for(fresh.sides, fresh_state), follow)
    assert again.match.version == played.match.version + 1


async def _shows(svc: MatchService, version: int) -> bool:
    """Whether the service's copy of the channel's game reaches `version` (bounded wait: the other
    process's change arrives as a notification)."""
    for _ in range(100):
        if (await svc.current(CHANNEL))[0].version == version:
            return True
        await asyncio.sleep(0.05)
    return False


async def test_a_move_by_another_process_reloads_the_copy_in_memory(pg_url: str, clock: Clock) -> None:
    """On PostgreSQL, two bot processes: when one stores a move, the other drops its copy of that game
    (the store tells it), so its autocomplete and its boards show the new position, not the old one;
    and when it stops hearing (its listening connection is cut), it forgets every copy until it
    listens again."""
    a = await open_service(pg_url, clock)
    b = await open_service(pg_url, clock)
    await started(a)
    match, state = await b.current(CHANNEL)
    mover = player_for(match.sides, state)
    played = await a.act(CHANNEL, mover, str(state.legal_actions()[0]))
    assert await _shows(b, played.match.version)
    fresh, fresh_state = await b.current(CHANNEL)
    assert fresh_state.to_json() == played.state.to_json()
    next_player = player_for(fresh.sides, fresh_state)
    assert await b.legal(CHANNEL, next_player) == [str(x) for x in played.state.legal_actions()]
    assert (await b.latest(CHANNEL))[0].version == played.match.version  # the board command's game
    # b's own move is kept (its copy is the row it wrote), and a hears of it
    again = await b.act(CHANNEL, next_player, str(fresh_state.legal_actions()[0]))
    assert await _shows(a, again.match.version)

    # cut b's listening connection: b forgets, listens anew, and a move made meanwhile is seen
    assert isinstance(b.db, PostgresDatabase)
    heard = b.db.listens
    conn = await asyncpg.connect(pg_url)
    try:
        cut = await conn.fetchval(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()"
        )
    finally:
        await conn.close()
    assert cut >= 1
    _, now_state = await a.current(CHANNEL)
    third = await a.act(CHANNEL, player_for(again.match.sides, now_state), str(now_state.legal_actions()[0]))
    for _ in range(100):
        if b.db.listens > heard:
            break
        await asyncio.sleep(0.05)
    assert b.db.listens > heard
    assert (await b.current(CHANNEL))[0].version == third.match.version


async def test_reads_after_a_move_do_not_share_state_with_the_caller(store: str, clock: Clock) -> None:
    """What `current` hands out is a copy: changing it (as the AI and previews do) changes no game."""
    svc = await open_service(store, clock)
    await started(svc)
    match, state = await svc.current(CHANNEL)
    before = state.to_json()
    assert isinstance(state, State)
    side = state.current_player()
    assert side is not None
    state.apply(state.legal_actions()[0], side)
    again_match, again = await svc.current(CHANNEL)
    assert again_match == match and again.to_json() == before
    await svc.db.close()


async def test_a_command_the_channel_does_not_see_keeps_its_board_current(store: str, clock: Clock) -> None:
    """A standing order given in private (Fix Bayonets) moves the version, yet the board the channel
    has stays the newest: its buttons still act. Anything public after it ends that."""
    svc = await open_service(store, clock)
    await started(svc, game="fixbayonets")
    board, state = await svc.current(CHANNEL)
    assert state.to_act() == {"germans"}
    secret = await svc.act(CHANNEL, BOB, "orders never")
    assert secret.secret and secret.match.version == board.version + 1
    assert secret.match.quiet_from == board.version
    # Alice acts from the channel's board (the version it was posted with): accepted
    legal = await svc.legal(CHANNEL, ALICE)
    played = await svc.act(CHANNEL, ALICE, legal[0], expected_version=board.version)
    assert not played.secret and played.match.quiet_from is None
    # while her turn is hers alone, that board is still the newest Bob has: his orders from it stand
    assert played.mid_turn
    again = await svc.act(CHANNEL, BOB, "orders ask", expected_version=board.version)
    assert again.secret
    # once she hands the turn over, that board is out of date for real
    handed = await svc.act(CHANNEL, ALICE, "end")
    assert not handed.mid_turn
    with pytest.raises(StalePrompt):
        await svc.act(CHANNEL, BOB, "orders ask", expected_version=board.version)
    await svc.db.close()


# ---------------------------------------------------------------------- games ending while the AI thinks

AI = 9


class Held:
    """Wraps a thinker's coroutine: its next call waits until the test releases it."""

    def __init__(self, real) -> None:
        self.real = real
        self.thinking = asyncio.Event()
        self.release = asyncio.Event()

    async def __call__(self, *args, **kwargs):
        self.thinking.set()
        await self.release.wait()
        return await self.real(*args, **kwargs)


async def challenge_the_ai(svc: MatchService) -> None:
    """Alice (Canadians) challenges the AI, at easy, to Block Wars in this channel."""
    await svc.challenge(
        game=GAME,
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger_id=ALICE,
        opponent_id=AI,
        side="canadians",
        opponent_is_bot=True,
        ai_level="easy",
    )


async def ai_game(svc: MatchService) -> None:
    """Alice (Canadians) against the AI in Block Wars, both set up: the AI's turn comes first."""
    await challenge_the_ai(svc)
    await svc.ai_turns(CHANNEL, budget_s=0.01)
    await svc.act(CHANNEL, ALICE, "setup std")


async def test_the_ais_answer_to_a_draw_is_dropped_quietly_when_the_game_ends_meanwhile(
    tmp_path: Path, clock: Clock, monkeypatch
) -> None:
    """Issue 22, bug 1: Alice offers the AI a draw and resigns while it weighs the offer: its answer
    comes to nothing, without an error (it raised NoMatch, which failed the background job)."""
    svc = await open_service(tmp_path / "g.db", clock)
    await ai_game(svc)
    await svc.act(CHANNEL, ALICE, "offer draw")
    held = Held(svc.thinker.accepts_draw)
    monkeypatch.setattr(svc.thinker, "accepts_draw", held)
    answer = asyncio.create_task(svc.ai_answers_draw(CHANNEL))
    await held.thinking.wait()
    await svc.act(CHANNEL, ALICE, "resign")
    held.release.set()
    assert await answer is None
    match, _ = await svc.latest(CHANNEL)
    assert match.status is Status.FINISHED and match.winner_id == AI


async def test_the_ai_keeps_to_the_game_it_began_thinking_in(
    tmp_path: Path, clock: Clock, monkeypatch
) -> None:
    """The AI thinks about its move; meanwhile Alice resigns and challenges it again in the same
    channel. The AI's thoughts were about the old game: its task stops, and plays nothing in the new
    one (whose own AI task does that), so no board mixes two games."""
    svc = await open_service(tmp_path / "g.db", clock)
    await ai_game(svc)
    old, _ = await svc.current(CHANNEL)
    held = Held(svc.thinker.choose)
    monkeypatch.setattr(svc.thinker, "choose", held)
    turns = asyncio.create_task(svc.ai_turns(CHANNEL, budget_s=0.01))
    await held.thinking.wait()
    await svc.act(CHANNEL, ALICE, "resign")
    await challenge_the_ai(svc)
    monkeypatch.setattr(svc.thinker, "choose", held.real)
    held.release.set()
    assert await turns == []
    new, _ = await svc.current(CHANNEL)
    assert new.id != old.id
    assert await svc.db.actions(new.id) == []  # the new game's AI has not moved: nobody asked it yet


async def test_a_refusal_offers_examples_of_the_position_it_was_given_in(
    tmp_path: Path, clock: Clock
) -> None:
    """Issue 22, bug 2: a command that does not parse is refused with the game's words for where it
    would have been played (`Game.parse_in`), so its example is accepted there: WWII Combined Arms
    offered a WWI army, which the game then refused; and in a command of several actions the example
    fits the position after the actions before the bad one."""
    svc = await open_service(tmp_path / "g.db", clock)
    await svc.challenge(
        game="combinedarms_wwii", guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=BOB
    )
    match = await svc.accept(CHANNEL, BOB)
    american, german = match.sides["americans"], match.sides["germans"]  # both choose an army at once
    with pytest.raises(IllegalMove) as refused:
        await svc.act(CHANNEL, german, "army balancd")
    (example,) = str(refused.value).split("`")[1::2]
    assert example.startswith("army ") and "S" not in example[5:].split()
    await svc.act(CHANNEL, german, example)  # the example offered is accepted
    with pytest.raises(IllegalMove) as later:  # the Americans choose theirs, then deploy first
        await svc.act(CHANNEL, american, "army fortress; deploy wedgie")
    words = str(later.value)
    assert words.startswith("Action 2 of 2:") and "Nothing was played" in words
    rows = [e for e in words.split("`")[1::2] if e.startswith("deploy ") and "/" in e]
    assert rows  # rows of the army the command's first action chose
    await svc.act(CHANNEL, american, f"army fortress; {rows[0]}")


# ---------------------------------------------------------------------- a turn still private


async def test_the_other_player_cannot_act_on_or_learn_of_a_private_turn(store: str, clock: Clock) -> None:
    """While Alice plays a turn of several steps in private, Bob's clicks on the channel's board and
    his typed commands are answered with whose turn it is, in words that tell nothing of her steps
    (the same words as before her first step: not how many actions she has left, nor whether she
    has begun), and change nothing; his history stops before her turn."""
    svc = await open_service(store, clock)
    await started(svc)
    board, state = await svc.current(CHANNEL)
    assert state.to_act() == {"germans"}
    with pytest.raises(NotYourTurn) as before:
        await svc.act(CHANNEL, BOB, "a3-a4")
    step = await svc.act(CHANNEL, ALICE, "e6-e5")
    assert step.mid_turn
    private = await svc.channel_view(step.match)
    assert private is not None and private.seen.match.version == board.version
    tries = [("end", board.version), ("a3-a4", board.version), ("a3-a4", None), ("zz", None)]
    for notation, version in tries:
        with pytest.raises(NotYourTurn) as refused:
            await svc.act(CHANNEL, BOB, notation, expected_version=version)
        said = str(refused.value)
        assert said == str(before.value), said  # as before her step: "2 actions left", the channel's
        assert "e5" not in said and "moved on" not in said
    now, _ = await svc.current(CHANNEL)
    assert now.version == step.match.version
    assert all("e5" not in line for line in await svc.history(CHANNEL, asker=BOB))
    assert any("e5" in line for line in await svc.history(CHANNEL, asker=ALICE))
    # resigning is never kept back
    done = await svc.act(CHANNEL, BOB, "resign")
    assert done.match.status is Status.FINISHED


async def test_a_standing_order_given_meanwhile_keeps_the_turn_private(store: str, clock: Clock) -> None:
    """Bob gives a standing order (Fix Bayonets) from the channel's board while Alice's turn is still
    hers alone: it is taken, and the channel still sees the game as it was before her turn; it used
    to end the privacy, so `board` and `history` showed her steps to everyone."""
    svc = await open_service(store, clock)
    await started(svc, game="fixbayonets")
    board, _ = await svc.current(CHANNEL)
    step = await svc.act(CHANNEL, ALICE, "advance Rb8-d6")
    assert step.mid_turn
    order = await svc.act(CHANNEL, BOB, "orders never", expected_version=board.version)
    assert order.secret
    private = await svc.channel_view(order.match)
    assert private is not None and private.player_id == ALICE
    assert private.seen.match.version == board.version
    assert all("d6" not in line for line in await svc.history(CHANNEL, asker=BOB))
    with pytest.raises(NotYourTurn, match="It is not your turn to act"):
        await svc.act(CHANNEL, BOB, "advance Rb1-d3", expected_version=board.version)


async def test_my_hand_tells_nothing_of_the_other_players_private_turn(store: str, clock: Clock) -> None:
    """ "My hand" while Alice's turn is still hers alone: Bob's answer is read from the position the
    channel saw. Hands face up (Fix Bayonets' Strategic Version), it used to show her live hand, so
    the card her first step played (a step she may still take back) was told before the hand-off;
    her own answer shows her live hand."""
    svc = await open_service(store, clock)
    await started(svc, game="fixbayonets", open_hands=True)
    _, before = await svc.hand(CHANNEL, BOB)
    _, hers_before = await svc.hand(CHANNEL, ALICE)
    step = await svc.act(CHANNEL, ALICE, "advance Rb8-d6")
    assert step.mid_turn
    _, during = await svc.hand(CHANNEL, BOB)
    _, hers = await svc.hand(CHANNEL, ALICE)
    assert before and during == before
    assert hers != hers_before  # her move card has left her hand, and she sees it
    _, nobody = await svc.hand(CHANNEL, 999)
    assert nobody is None
    await svc.act(CHANNEL, ALICE, "end")
    _, after = await svc.hand(CHANNEL, BOB)
    assert after != before  # handed over: Bob now sees the hand she kept


async def test_the_channels_view_of_a_private_turn_is_replayed_once(store: str, clock: Clock) -> None:
    """`board`, `history`, autocomplete and every click ask for the channel's view during a private
    turn: asked again at the same version it reads no log and replays nothing."""
    svc = await open_service(store, clock)
    await started(svc)
    await svc.act(CHANNEL, ALICE, "e6-e5")
    match, _ = await svc.current(CHANNEL)
    reads = 0
    real = svc.db.actions

    async def counted(match_id: int):  # the store's own answer, counted
        nonlocal reads
        reads += 1
        return await real(match_id)

    svc.db.actions = counted  # type: ignore[method-assign]
    first = await svc.channel_view(match)
    for _ in range(5):
        assert await svc.channel_view(match) is first
        await svc.history(CHANNEL, asker=BOB)
    assert first is not None and reads == 1 + 5  # one for the view; history reads the log it shows


@pytest.mark.parametrize("game", ["combinedarms", "fixbayonets"])
async def test_both_sides_set_up_at_once_each_in_secret(store: str, clock: Clock, game: str) -> None:
    """Games whose sides set up at the same time: the first to set up does not hold the second back
    (no "still taking their turn"), the second learns nothing of the first's choice before both are
    in, neither from the history nor from a refusal, and both are shown once the second is in."""
    svc = await open_service(store, clock)
    await svc.challenge(
        game=game, guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=BOB, side="random"
    )
    await svc.accept(CHANNEL, BOB)
    _, state = await svc.current(CHANNEL)
    assert len(state.to_act()) == 2
    first_choice = (await svc.legal(CHANNEL, ALICE))[-1]
    nonsense = f"{first_choice.split()[0]} nonsense"
    with pytest.raises(IllegalMove) as before:
        await svc.act(CHANNEL, BOB, nonsense)
    first = await svc.act(CHANNEL, ALICE, first_choice)
    assert not first.mid_turn and await svc.channel_view(first.match) is None
    secret = first_choice.split(" ", 1)[1]
    lines = await svc.history(CHANNEL, asker=BOB)
    assert lines and all(secret not in line for line in lines)
    with pytest.raises(IllegalMove) as refused:
        await svc.act(CHANNEL, BOB, nonsense)
    assert str(refused.value) == str(before.value)  # the same words whatever Alice chose
    second_choice = (await svc.legal(CHANNEL, BOB))[0]
    second = await svc.act(CHANNEL, BOB, second_choice, expected_version=first.match.version)
    assert not second.mid_turn and await svc.channel_view(second.match) is None
    both = " ".join(await svc.history(CHANNEL, asker=BOB))
    assert game == "combinedarms" or secret in both  # Fix Bayonets shows both set-ups once both are in


# ---------------------------------------------------------------------- writes that keep the version


@pytest.mark.parametrize("how", ["moved", "step"])
@pytest.mark.parametrize("write", ["reminded", "shifted"])
async def test_a_clock_write_landing_while_a_game_is_moved_is_kept(
    store: str, clock: Clock, write: str, how: str
) -> None:
    """A reminder's mark and a clock shift (time away) do not bump the version, so the players'
    buttons stay current. A write of the whole match row (moving the game to another channel) that
    had read the row before one of them landed wrote the old value back on PostgreSQL: a second
    reminder, or a shift lost for a player away. Another process's sweep does the write here, in
    the middle of the move; SQLite runs one write at a time, so there it lands before or after. A
    step of a turn (a move that starts no new clock) writes only what it changes: it keeps it too."""
    svc = await open_service(store, clock)
    await started(svc)
    match, _ = await svc.current(CHANNEL)
    assert match.deadline is not None and match.reminder_at is not None and not match.reminded
    later = match.deadline + 86_400
    args: tuple[float, ...] = ()
    if write == "reminded":
        sql = "UPDATE matches SET reminded = 1 WHERE id = $1 AND version = $2 AND reminded = 0"
    else:
        sql, args = "UPDATE matches SET deadline = $3 WHERE id = $1 AND version = $2", (later,)
    if store.startswith("postgres"):
        other = await asyncpg.connect(store)
        try:
            async with other.transaction():
                await other.execute("SELECT 1 FROM matches WHERE id = $1 FOR UPDATE", match.id)
                moving = asyncio.create_task(change(svc, match, how))
                await _someone_waits_for_a_lock(other)  # the move is under way, waiting for the row
                assert not moving.done()
                assert await other.execute(sql, match.id, match.version, *args) == "UPDATE 1"
            await moving
        finally:
            await other.close()
    else:
        if write == "reminded":
            assert await svc.db.mark_reminded(match.id, match.version)
        else:
            assert await svc.db.shift_clock(match.id, match.version, later, match.reminder_at)
        await change(svc, match, how)
    stored = await svc.db.get_match(match.id)
    assert stored.channel_id == (CHANNEL + 1 if how == "moved" else CHANNEL)
    assert stored.version == match.version + 1
    if write == "reminded":
        assert stored.reminded
    else:
        assert stored.deadline == later


async def _someone_waits_for_a_lock(conn: asyncpg.Connection) -> None:
    """Return once a session of the database waits for a lock (pg_locks is read live, even inside
    `conn`'s transaction); fail after 10 s."""
    for _ in range(1000):
        if await conn.fetchval("SELECT count(*) FROM pg_locks WHERE NOT granted"):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("no session waited for a lock within 10 s")


async def change(svc: MatchService, match, how: str) -> None:
    """A write of the match that bumps its version: moving it to another channel, or a step of the
    Germans' turn (their first of two actions: no new clock)."""
    if how == "moved":
        await svc.db.update_match(match.id, expected_version=match.version, channel_id=CHANNEL + 1)
    else:
        played = await svc.act(CHANNEL, ALICE, "e6-e5")
        assert played.mid_turn


async def test_of_two_resignations_at_once_one_lands_and_the_other_is_told_the_game_is_over(
    tmp_path: Path, clock: Clock
) -> None:
    """Both players resign at the same moment: one resignation ends the game, and the other, checked
    after it under the game's lock, is told the game is over (not that the challenge has not been
    accepted: the finished game has left memory, and the check after the lock must read the row)."""
    svc = await open_service(tmp_path / "r.db", clock)
    await started(svc)
    results = await asyncio.gather(
        svc.act(CHANNEL, ALICE, "resign"), svc.act(CHANNEL, BOB, "resign"), return_exceptions=True
    )
    ended = [r for r in results if not isinstance(r, BaseException)]
    told = [str(r) for r in results if isinstance(r, BaseException)]
    assert len(ended) == 1 and ended[0].over and told == ["This game is over."]
    await svc.db.close()


async def test_a_step_after_the_quick_answer_itself_is_refused_not_left_out(
    tmp_path: Path, clock: Clock
) -> None:
    """RULES.md leaves out a step that answers a quick question only when the command's earlier steps
    were any-time ones (new standing orders) that answered it already. A command that answers the
    question itself and then sends the answer again has its second step refused (it is the other
    side's turn by then), not left out with "your command had already answered the question"."""
    svc = await open_service(tmp_path / "q.db", clock)
    await svc.challenge(
        game="fixbayonets", guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=BOB
    )
    await svc.accept(CHANNEL, BOB)
    rng = random.Random(1)
    for _ in range(80):  # seeded play until a player owes a quick answer (a card's reply)
        match, state = await svc.current(CHANNEL)
        user = match.turn_player_id
        assert user is not None
        if state.quick_decision():
            break
        legal = await svc.legal(CHANNEL, user)
        await svc.act(CHANNEL, user, "setup std" if "setup std" in legal else rng.choice(legal))
    assert state.quick_decision() and user is not None
    answer = (await svc.legal(CHANNEL, user))[0]
    try:
        played = await svc.act(CHANNEL, user, f"{answer}; {answer}")
    except NotYourTurn:
        return  # refused whole, nothing played
    assert played.not_made is not None and played.not_made.n == 2
    assert "left out" not in " ".join(played.private.values())


async def test_the_look_back_waits_for_the_end_and_is_its_players_alone(tmp_path: Path, clock: Clock) -> None:
    """A look back during the game would be advice: refused until it ends. After, a game of another
    channel answers a non-player as a number of no game, so a forged click cannot probe it."""
    svc = await open_service(tmp_path / "l.db", clock)
    await started(svc)
    with pytest.raises(BadRequest, match="comes when the game is over"):
        await svc.review(CHANNEL, ALICE, budget_s=0.1)
    played = await svc.act(CHANNEL, BOB, "resign")
    with pytest.raises(NoMatch, match=f"no game #{played.match.id} among your games"):
        await svc.review(999, EVE, played.match.id, budget_s=0.1)
    await svc.db.close()


async def test_a_draw_played_where_the_reader_cannot_look_leaves_their_reading_of_the_record(
    tmp_path: Path, clock: Clock
) -> None:
    """RULES.md, "What is private": a game in a channel a member cannot view is left out of the records
    they read, a draw as a draw (not taken off the losses), its rating change too; its players still
    read it whole."""
    svc = await open_service(tmp_path / "p.db", clock)
    await started(svc)
    await svc.act(CHANNEL, ALICE, "offer draw")
    assert (await svc.act(CHANNEL, BOB, "accept draw")).over

    async def sees_nothing(channels: object) -> frozenset[int]:
        return frozenset()

    hers = await svc.stats(GUILD, GAME, ALICE, asker=ALICE, sees=sees_nothing)
    assert (hers.wins, hers.losses, hers.draws) == (0, 0, 1)
    his = await svc.stats(GUILD, GAME, BOB, asker=BOB, sees=sees_nothing)
    assert (his.wins, his.losses, his.draws) == (0, 0, 1)  # a draw for both
    read = await svc.stats(GUILD, GAME, ALICE, asker=EVE, sees=sees_nothing)
    assert (read.wins, read.losses, read.draws) == (0, 0, 0) and read.rating == hers.rating
    await svc.db.close()


async def test_an_ai_game_played_where_the_reader_cannot_look_leaves_only_its_own_level(
    tmp_path: Path, clock: Clock
) -> None:
    """The AI's record is kept per level: a game at one level played where the reader cannot look is
    left out of that level's record, and no other level's."""
    svc = await open_service(tmp_path / "a.db", clock)
    for channel, level in ((CHANNEL, "random"), (200, "easy")):
        await svc.challenge(
            game=GAME,
            guild_id=GUILD,
            channel_id=channel,
            challenger_id=ALICE,
            opponent_id=99,
            side="germans",
            ai_level=level,
        )
        assert (await svc.act(channel, ALICE, "resign")).over

    async def sees_200(channels: object) -> frozenset[int]:
        return frozenset({200})

    read = await svc.ai_records(GUILD, GAME, asker=EVE, sees=sees_200)
    assert [(r.level, r.wins, r.losses, r.draws) for r in read] == [("easy", 1, 0, 0)]
    await svc.db.close()

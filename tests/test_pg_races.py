"""Races between bot processes on one PostgreSQL database, with real concurrent connections.

Each `Process` is what `python bot.py` builds from DATABASE_URL: its settings read from the
environment (`load_settings`), its store opened by `bot.open_database` (an asyncpg pool of its own,
its own LISTEN connection) and its match service built by `bot.match_service`. Two of them (two
shards, or two processes handed the same shard by mistake) act at the same moment: both commands
are started together by `asyncio.gather`, so their transactions run side by side in PostgreSQL
under its default isolation (READ COMMITTED), each on its own connection. A seeded stagger (a few
turns of the event loop before one side starts) moves where the two meet, and each race is run
for many rounds, each in a channel of its own, to meet the interleavings that matter without any
sleep in the server or hook in the code.

What must hold, whatever the interleaving: of two accepts one starts the game and the other hears
the friendly refusal; a move is applied once; a game ends once, with one result and one rating
change; a seal is taken by one challenge; a tournament seats exactly the players it pairs; two
sweeps act on a due game once; and the loser of each race gets a `ServiceError` (the words a player
reads), never a store's error or a traceback.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import AsyncIterator, Awaitable
from dataclasses import dataclass
from typing import Any, TypeVar

import asyncpg
import pytest

from bot import match_service, open_database
from data import START_RATING, Database
from data.tournaments import Tournament
from play import MatchOver, MatchService, NoMatch, ServiceError, StalePrompt
from play.tournament import TournamentService
from settings import load_settings

T = TypeVar("T")
GUILD = 5 << 22  # shard 0 of 2
ROUNDS = 30
START = 1_800_000_000.0


@dataclass
class Process:
    """One bot process: its store (an asyncpg pool of its own) and its match service."""

    db: Database
    service: MatchService

    @property
    def tournaments(self) -> TournamentService:
        """What the tournament cog builds over the process's service."""
        return TournamentService.over(self.service)


class World:
    """Two (or more) processes on one database, on one clock the test moves."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.now = START
        self.processes: list[Process] = []

    def clock(self) -> float:
        return self.now

    async def start(self, count: int, seed: int) -> list[Process]:
        for k in range(count):
            settings = load_settings({"DATABASE_URL": self.url}, dotenv=False)
            db = await open_database(settings, clock=self.clock)
            assert db is not None, "the process could not open its store"
            rng = random.Random(seed * 100 + k)
            self.processes.append(Process(db, match_service(settings, db, clock=self.clock, rng=rng)))
        return self.processes

    async def close(self) -> None:
        for process in self.processes:
            await process.db.close()

    async def sql(self, query: str, *args: object) -> list[asyncpg.Record]:
        conn = await asyncpg.connect(self.url)
        try:
            return await conn.fetch(query, *args)
        finally:
            await conn.close()


@pytest.fixture
async def world(pg_url: str) -> AsyncIterator[World]:
    w = World(pg_url)
    try:
        yield w
    finally:
        await w.close()


async def staggered(delay: float | int, work: Awaitable[T]) -> T:
    """`work` begun late: after `delay` turns of the event loop (an int) or seconds (a float)."""
    if isinstance(delay, float):
        await asyncio.sleep(delay)
    for _ in range(delay if isinstance(delay, int) else 0):
        await asyncio.sleep(0)
    return await work


async def race(rng: random.Random, *works: Awaitable[Any], spread: float = 0.002) -> list[Any]:
    """Run `works` at the same moment, one of them (chosen by `rng`) a little late: by a few turns of
    the event loop in half the rounds (the two transactions meet statement by statement), by up to
    `spread` seconds in the others (one command's reads against the other's writes). Each result,
    or the refusal it raised; anything but a `ServiceError` fails the test, as what a player would
    have met as an error with no words of ours."""
    late = rng.randrange(len(works))
    delay: float | int = rng.randrange(0, 6) if rng.random() < 0.5 else rng.uniform(0, spread)
    done = await asyncio.gather(
        *(staggered(delay if i == late else 0, w) for i, w in enumerate(works)), return_exceptions=True
    )
    for outcome in done:
        if isinstance(outcome, BaseException) and not isinstance(outcome, ServiceError):
            raise outcome
    return list(done)


def wins(done: list[Any]) -> list[Any]:
    return [d for d in done if not isinstance(d, BaseException)]


def refusals(done: list[Any]) -> list[ServiceError]:
    return [d for d in done if isinstance(d, ServiceError)]


async def test_two_accepts_of_one_challenge_start_it_once(world: World) -> None:
    a, b = await world.start(2, seed=1)
    rng = random.Random(11)
    for n in range(ROUNDS):
        channel = 1000 + n
        await a.service.challenge(
            game="blockwars", guild_id=GUILD, channel_id=channel, challenger_id=10, opponent_id=20
        )
        done = await race(
            rng,
            a.service.accept(channel, 20, entropy=1),
            b.service.accept(channel, 20, entropy=2),
        )
        assert len(wins(done)) == 1, done
        (refused,) = refusals(done)
        assert refused.message in ("This challenge was already answered.", "This game has already started.")
        rows = await world.sql(
            "SELECT status, version, seed_inputs FROM matches WHERE channel_id = $1", channel
        )
        assert len(rows) == 1 and rows[0]["status"] == "active" and rows[0]["version"] == 1


async def game(world: World, process: Process, channel: int) -> tuple[int, int]:
    """A Block Wars game begun in `channel`: (the player on turn, the match's version)."""
    await process.service.challenge(
        game="blockwars", guild_id=GUILD, channel_id=channel, challenger_id=10, opponent_id=20
    )
    match = await process.service.accept(channel, 20)
    assert match.turn_player_id is not None
    return match.turn_player_id, match.version


async def log_of(world: World, channel: int) -> list[str]:
    rows = await world.sql(
        "SELECT a.notation FROM actions AS a JOIN matches AS m ON m.id = a.match_id "
        "WHERE m.channel_id = $1 ORDER BY a.seq",
        channel,
    )
    return [r["notation"] for r in rows]


async def test_a_double_click_in_two_processes_is_applied_once(world: World) -> None:
    """The player on turn sends two moves from the same board (its version on both buttons), one
    through each process: one is applied, the other refused, and the log holds one move."""
    a, b = await world.start(2, seed=2)
    rng = random.Random(12)
    for n in range(ROUNDS):
        channel = 2000 + n
        player, version = await game(world, a, channel)
        legal = await a.service.legal(channel, player)
        first, second = rng.sample(legal, 2)
        done = await race(
            rng,
            a.service.act(channel, player, first, interaction_id=n * 10 + 1, expected_version=version),
            b.service.act(channel, player, second, interaction_id=n * 10 + 2, expected_version=version),
        )
        (played,) = wins(done)
        (refused,) = refusals(done)
        assert "moved on" in refused.message, refused.message
        assert await log_of(world, channel) == [played.notation]
        rows = await world.sql("SELECT version FROM matches WHERE channel_id = $1", channel)
        assert rows[0]["version"] == version + 1


async def ratings_chain(world: World, user: int) -> tuple[list[tuple[float, float]], float, int]:
    """`user`'s rating changes, their rating now and their games counted: the changes must chain
    (each starts where another ended), or two results started from one rating (a lost update)."""
    changes = [
        (float(r["rating_before"]), float(r["rating_after"]))
        for r in await world.sql("SELECT * FROM rating_changes WHERE user_id = $1", user)
    ]
    stats = await world.sql("SELECT * FROM player_stats WHERE user_id = $1", user)
    played = sum(int(r["wins"]) + int(r["losses"]) + int(r["draws"]) for r in stats)
    rating = float(stats[0]["rating"]) if stats else START_RATING
    return changes, rating, played


def assert_chained(changes: list[tuple[float, float]], end: float) -> None:
    """Each change starts where another ended, the first at the start rating and the last at the
    rating now: two results begun from one rating (a lost update) leave one ending unused."""
    befores = Counter([before for before, _ in changes] + [end])
    afters = Counter([after for _, after in changes] + [START_RATING])
    assert befores == afters, f"the rating changes do not chain: {changes}, now {end}"


async def test_a_draw_accepted_while_the_other_resigns_ends_the_game_once(world: World) -> None:
    """One player accepts a draw in one process while the other resigns in the other: the game ends
    once, as a draw or as a resignation, with one rating change each, and the loser of the race is
    told the game moved on (or is over)."""
    a, b = await world.start(2, seed=3)
    rng = random.Random(13)
    for n in range(ROUNDS):
        channel = 3000 + n
        player, _ = await game(world, a, channel)
        other = 20 if player == 10 else 10
        await a.service.act(channel, player, "offer draw")
        done = await race(
            rng,
            a.service.act(channel, other, "accept draw", interaction_id=n * 10 + 1),
            b.service.act(channel, player, "resign", interaction_id=n * 10 + 2),
        )
        (played,) = wins(done)
        (refused,) = refusals(done)
        # at the commit, or (later) on reading the game: over, in the words of either moment
        assert isinstance(refused, StalePrompt | MatchOver | NoMatch), refused
        assert "moved on" in refused.message or "is over" in refused.message, refused.message
        rows = await world.sql("SELECT * FROM matches WHERE channel_id = $1", channel)
        assert rows[0]["status"] == "finished"
        assert rows[0]["winner_id"] == (None if played.notation == "accept draw" else other)
        log = await log_of(world, channel)
        assert log[-1] == played.notation and log.count("resign") + log.count("accept draw") == 1
        changes = await world.sql("SELECT user_id FROM rating_changes WHERE match_id = $1", rows[0]["id"])
        assert sorted(r["user_id"] for r in changes) == [10, 20]
    for user in (10, 20):
        changes, rating, played_games = await ratings_chain(world, user)
        assert played_games == ROUNDS
        assert_chained(changes, rating)


async def test_games_of_one_player_ending_at_once_in_two_processes_lose_no_rating(world: World) -> None:
    """One player's many games end at the same moment, half through each process: every result
    moves their rating from where the one before left it (the rows are locked, in one order)."""
    a, b = await world.start(2, seed=4)
    games = 24
    for n in range(games):
        channel = 4000 + n
        await a.service.challenge(
            game="blockwars", guild_id=GUILD, channel_id=channel, challenger_id=10, opponent_id=100 + n
        )
        await a.service.accept(channel, 100 + n)
    rng = random.Random(14)
    # each game's loser resigns: player 10 in two of three, the opponent in the others
    ends = [(a, b)[n % 2].service.act(4000 + n, 10 if n % 3 else 100 + n, "resign") for n in range(games)]
    done = await race(rng, *ends)
    assert len(wins(done)) == games
    changes, rating, played = await ratings_chain(world, 10)
    assert played == games and len(changes) == games
    assert_chained(changes, rating)


async def test_a_seal_is_taken_by_one_of_two_challenges(world: World) -> None:
    """Both processes draw and show the channel's seal at once (one seal, shown once), then two
    challenges come in the channel at once: one is stored and takes the seal, the other is told the
    channel is busy, and the seal is gone."""
    a, b = await world.start(2, seed=5)
    rng = random.Random(15)
    for n in range(ROUNDS):
        channel = 5000 + n
        drawn = await race(rng, a.service.next_seal(channel), b.service.next_seal(channel))
        assert drawn[0].commitment == drawn[1].commitment
        shown = await race(rng, a.service.seal_shown(drawn[0], 1), b.service.seal_shown(drawn[1], 2))
        assert sorted(shown) == [False, True]
        done = await race(
            rng,
            a.service.challenge(
                game="blockwars", guild_id=GUILD, channel_id=channel, challenger_id=10, opponent_id=20
            ),
            b.service.challenge(
                game="blockwars", guild_id=GUILD, channel_id=channel, challenger_id=30, opponent_id=40
            ),
        )
        (made,) = wins(done)
        (refused,) = refusals(done)
        assert refused.message.startswith("This channel already has a game."), refused.message
        assert made.seed_commitment == drawn[0].commitment and made.sealed_at is not None
        assert await world.sql("SELECT * FROM channel_seals WHERE channel_id = $1", channel) == []
        rows = await world.sql("SELECT seed_commitment FROM matches WHERE channel_id = $1", channel)
        assert [r["seed_commitment"] for r in rows] == [drawn[0].commitment]


async def test_a_move_racing_the_deadline_lands_or_loses_on_time_never_both(world: World) -> None:
    """The player on turn moves in one process at the moment the other's sweep finds the deadline
    passed: either the move lands (and the sweep leaves the game alone) or the game is lost on
    time (and the move is refused in words), never both, and the loss is rated once."""
    a, b = await world.start(2, seed=6)
    rng = random.Random(16)
    landed = timed_out = 0
    for n in range(ROUNDS):
        channel = 6000 + n
        player, version = await game(world, a, channel)
        match, _ = await a.service.current(channel)
        assert match.deadline is not None
        world.now = match.deadline + 1
        move = rng.choice(await a.service.legal(channel, player))
        done = await race(
            rng,
            a.service.act(channel, player, move, interaction_id=n, expected_version=version),
            b.service.sweep(),
        )
        rows = await world.sql("SELECT * FROM matches WHERE channel_id = $1", channel)
        log = await log_of(world, channel)
        forfeits = [x for x in done[1] if x.kind == "forfeit"] if isinstance(done[1], list) else []
        if isinstance(done[0], ServiceError):
            timed_out += 1
            assert "moved on" in done[0].message or "is over" in done[0].message, done[0].message
            assert log == ["timeout"] and rows[0]["status"] == "finished"
            assert rows[0]["winner_id"] == (20 if player == 10 else 10)
            assert [f.match.channel_id for f in forfeits] == [channel]
            changes = await world.sql("SELECT * FROM rating_changes WHERE match_id = $1", rows[0]["id"])
            assert len(changes) == 2
        else:
            landed += 1
            assert log == [move] and rows[0]["status"] == "active", log
            assert forfeits == []
            await a.service.cancel(channel, 99, is_admin=True)  # nothing left due for the next round
    assert landed + timed_out == ROUNDS


async def test_two_sweeps_act_on_each_due_game_once(world: World) -> None:
    """Two processes serving the same guild (a shard given to both by mistake) sweep at the same
    moment, three times over: every reminder is sent once, every game lost on time once (one
    `timeout`, one result, one rating change each), every unanswered challenge expired once."""
    a, b = await world.start(2, seed=7)
    rng = random.Random(17)
    games = [7000 + n for n in range(ROUNDS)]
    challenges = [7100 + n for n in range(10)]
    for channel in games:
        await game(world, a, channel)
    for channel in challenges:
        await b.service.challenge(
            game="blockwars", guild_id=GUILD, channel_id=channel, challenger_id=10, opponent_id=20
        )
    first, _ = await a.service.current(games[0])
    assert first.reminder_at is not None and first.deadline is not None
    notices = []
    for moment in (first.reminder_at + 1, first.deadline + 1, first.deadline + 2):
        world.now = moment
        done = await race(rng, a.service.sweep(), b.service.sweep())
        notices += [n for found in done for n in found]
    kinds = Counter((n.kind, n.match.channel_id) for n in notices)
    assert {(k, c) for (k, c), times in kinds.items() if times > 1} == set()
    assert {c for k, c in kinds if k == "reminder"} == set(games)
    assert {c for k, c in kinds if k == "forfeit"} == set(games)
    assert {c for k, c in kinds if k == "expired"} == set(challenges)
    for channel in games:
        assert await log_of(world, channel) == ["timeout"]
    changes = await world.sql("SELECT count(*) AS n FROM rating_changes")
    assert changes[0]["n"] == 2 * len(games)


async def test_an_admin_cancel_racing_a_move_is_one_or_the_other(world: World) -> None:
    """An admin cancels the channel's game in one process while its player moves in the other: the
    game is either cancelled (the move refused in words) or moved on and then cancelled, and the
    admin never meets an error that is not a sentence."""
    a, b = await world.start(2, seed=8)
    rng = random.Random(18)
    for n in range(ROUNDS):
        channel = 8000 + n
        player, version = await game(world, a, channel)
        move = rng.choice(await a.service.legal(channel, player))
        done = await race(
            rng,
            a.service.act(channel, player, move, interaction_id=n, expected_version=version),
            b.service.cancel(channel, 99, is_admin=True),
        )
        rows = await world.sql("SELECT * FROM matches WHERE channel_id = $1", channel)
        log = await log_of(world, channel)
        if isinstance(done[1], ServiceError):  # the move came between the cancel's read and write
            assert "moved on" in done[1].message, done[1].message
            assert log == [move] and rows[0]["status"] == "active"
            await a.service.cancel(channel, 99, is_admin=True)
        else:
            assert rows[0]["status"] == "cancelled"
            assert log == ([] if isinstance(done[0], ServiceError) else [move]), (done, log)


async def test_an_admin_cancel_racing_a_resignation_never_undoes_the_result(world: World) -> None:
    """An admin cancels the game in one process as a player resigns in the other: the game is either
    cancelled (the resignation refused in words) or finished by the resignation, its result and
    its ratings kept (the cancel refused in words); never a finished game turned into a cancelled
    one with its ratings moved."""
    a, b = await world.start(2, seed=14)
    rng = random.Random(24)
    for n in range(ROUNDS):
        channel = 8500 + n
        player, _ = await game(world, a, channel)
        await a.service.current(channel)  # the admin's process has the game in memory, as after a move
        done = await race(
            rng, a.service.cancel(channel, 99, is_admin=True), b.service.act(channel, player, "resign")
        )
        cancelled, resigned = done
        rows = await world.sql("SELECT * FROM matches WHERE channel_id = $1", channel)
        changes = await world.sql("SELECT * FROM rating_changes WHERE match_id = $1", rows[0]["id"])
        if isinstance(resigned, ServiceError):
            assert not isinstance(cancelled, BaseException)
            assert rows[0]["status"] == "cancelled" and changes == []
        else:
            assert isinstance(cancelled, ServiceError), "a finished game was cancelled"
            assert any(w in cancelled.message for w in ("ended", "is over", "moved on")), cancelled.message
            assert rows[0]["status"] == "finished" and len(changes) == 2


async def signup(process: Process, channel: int, players: list[int]) -> Tournament:
    t = process.tournaments
    made = await t.create(
        guild_id=GUILD, channel_id=channel, user_id=1, game="blockwars", rounds=2, days=2, organiser=True
    )
    for user in players:
        await t.join(made, user)
    return await t.by_id(made.id)


async def seated(world: World, tournament_id: int) -> tuple[list[int], list[int]]:
    """The players signed up, and those the first round pairs (a bye counts), each sorted."""
    players = await world.sql(
        "SELECT user_id FROM tournament_players WHERE tournament_id = $1 AND withdrawn = 0", tournament_id
    )
    boards = await world.sql(
        "SELECT first_id, second_id FROM tournament_games WHERE tournament_id = $1 AND round = 1",
        tournament_id,
    )
    paired = [u for r in boards for u in (r["first_id"], r["second_id"]) if u is not None]
    return sorted(r["user_id"] for r in players), sorted(paired)


async def test_one_player_joining_twice_at_once_is_signed_up_once(world: World) -> None:
    a, b = await world.start(2, seed=9)
    rng = random.Random(19)
    for n in range(ROUNDS // 2):
        made = await signup(a, 9000 + n, [11, 12])
        done = await race(
            rng, a.tournaments.join(made, 13, entropy=1), b.tournaments.join(made, 13, entropy=2)
        )
        assert len(wins(done)) == 1
        (refused,) = refusals(done)
        assert refused.message == "You are already signed up for this tournament."
        assert (await seated(world, made.id))[0] == [11, 12, 13]


async def test_a_join_racing_the_start_is_seated_and_paired_or_refused(world: World) -> None:
    """A player joins in one process as the organiser starts the tournament in the other: either the
    join lands first (and the start, on the list it read, is refused: start again) or the start
    does (and the join is told sign-ups are closed). Never a player signed up and left unpaired."""
    a, b = await world.start(2, seed=10)
    rng = random.Random(20)
    for n in range(ROUNDS // 2):
        channel = 9100 + n
        made = await signup(a, channel, [11, 12, 13])
        done = await race(
            rng,
            a.tournaments.start(channel, organiser=True),
            b.tournaments.join(made, 14, entropy=3),
            spread=0.02,
        )
        started, joined = done
        players, paired = await seated(world, made.id)
        if isinstance(started, ServiceError):
            assert started.message.startswith("Someone joined or left just now"), started.message
            assert players == [11, 12, 13, 14] and paired == []
            assert not isinstance(joined, BaseException)
        else:
            assert players == paired
            if isinstance(joined, ServiceError):
                assert joined.message == "This tournament has started: sign-ups are closed.", joined.message
                assert players == [11, 12, 13]
            else:
                assert players == [11, 12, 13, 14]


async def test_two_starts_at_once_start_the_tournament_once(world: World) -> None:
    """The organiser's start reaches two processes: one pairs the first round, the other is told it
    has started already (not that someone joined), and the round is paired once."""
    a, b = await world.start(2, seed=11)
    rng = random.Random(21)
    for n in range(ROUNDS // 2):
        channel = 9200 + n
        made = await signup(a, channel, [11, 12, 13, 14])
        done = await race(
            rng, a.tournaments.start(channel, organiser=True), b.tournaments.start(channel, organiser=True)
        )
        assert len(wins(done)) == 1
        (refused,) = refusals(done)
        assert refused.message == "This tournament has already started.", refused.message
        players, paired = await seated(world, made.id)
        assert players == paired == [11, 12, 13, 14]


async def test_a_resignation_as_the_round_runs_out_counts_as_the_game_ended(world: World) -> None:
    """A tournament round's time runs out while, in the other process, a player of its last game
    resigns: the game either ends by the resignation (and the board counts that result) or is
    stopped (and counts as a draw, the resignation refused in words). The board's result is always
    the one the match shows, and its ratings moved only if the match has a winner."""
    a, b = await world.start(2, seed=13)
    rng = random.Random(23)
    for n in range(ROUNDS // 3):
        channel, thread = 11_000 + n, 11_500 + n
        made = await signup(a, channel, [11, 12])
        started = await a.tournaments.start(channel, organiser=True)
        (board,) = started.boards
        match = await a.tournaments.start_board(board, thread)
        ends = started.tournament.round_ends_at
        assert ends is not None
        # the turn's own deadline after the round's end: only the round's end is due
        await world.sql(
            "UPDATE matches SET deadline = $2::float8, reminder_at = $2::float8 WHERE id = $1",
            match.id,
            ends + 99,
        )
        world.now = ends + 1
        resigner = rng.choice([11, 12])
        done = await race(rng, a.tournaments.sweep(), b.service.act(thread, resigner, "resign"), spread=0.01)
        swept, resigned = done
        assert not isinstance(swept, BaseException)
        rows = await world.sql("SELECT * FROM matches WHERE id = $1", match.id)
        (result,) = await world.sql(
            "SELECT result FROM tournament_games WHERE tournament_id = $1 AND round = 1", made.id
        )
        changes = await world.sql("SELECT * FROM rating_changes WHERE match_id = $1", match.id)
        if isinstance(resigned, ServiceError):
            assert rows[0]["status"] == "cancelled", (resigned, dict(rows[0]), n)
            assert result["result"] == 0.5 and changes == []
        else:
            assert rows[0]["status"] == "finished" and len(changes) == 2
            winner = 12 if resigner == 11 else 11
            assert result["result"] == (1.0 if winner == board.first_id else 0.0), (resigner, board)
        world.now = START


@pytest.mark.xfail(
    reason="a known race, not fixed (docs/architecture.md, 'Races between processes'): the move's clock "
    "is computed from the time away it read before its commit, and the away's reclock reads the game "
    "before that commit, so neither sees the other",
    strict=False,
)
async def test_time_away_taken_while_the_other_player_moves_stops_the_turn_it_receives(
    world: World,
) -> None:
    """A player goes away in one process while, in the other, their opponent's move hands them the
    turn: whichever lands first, the turn they now owe waits for their return (its clock starts
    when they are back), as it does when the two come one after the other."""
    a, b = await world.start(2, seed=12)
    rng = random.Random(22)
    for n in range(ROUNDS):
        channel = 10_000 + n
        guild = GUILD + n  # a server of its own each round: the days away a year are not used up
        await a.service.challenge(
            game="blockwars", guild_id=guild, channel_id=channel, challenger_id=10, opponent_id=20
        )
        match = await a.service.accept(channel, 20)
        mover = match.turn_player_id
        assert mover is not None
        waiting = 20 if mover == 10 else 10
        move = rng.choice(await b.service.legal(channel, mover))
        await b.service.current(channel)  # the mover's process has the game (and its clocks) in memory
        done = await race(
            rng,
            a.service.away(guild, waiting, 3),
            b.service.act(channel, mover, move, interaction_id=n, expected_version=match.version),
        )
        away, played = done
        assert not isinstance(away, BaseException) and not isinstance(played, BaseException), done
        rows = await world.sql("SELECT * FROM matches WHERE channel_id = $1", channel)
        assert rows[0]["turn_player_id"] == waiting
        assert rows[0]["deadline"] == away.until + match.turn_seconds, (n, rows[0]["deadline"] - world.now)

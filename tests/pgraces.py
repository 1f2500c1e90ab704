"""Races between bot processes on one PostgreSQL database: the kit of tests/test_pg_races.py and
bench/pgrace.py.

Each `Process` is what `python bot.py` builds from DATABASE_URL: its settings read from the
environment (`load_settings`), its store opened by `bot.open_database` (an asyncpg pool of its own,
and its own LISTEN connection) and its match service built by `bot.match_service`. Two of them (two
shards, or two processes handed the same shard by mistake) act at the same moment: `race` starts
both commands together with `asyncio.gather`, so their transactions run side by side in PostgreSQL
under its default isolation (READ COMMITTED), each on its own connection. A seeded stagger (a few
turns of the event loop, or a few milliseconds, before one side starts) moves where the two meet;
each race is run for many rounds, each in a channel of its own, to meet the interleavings that
matter without any sleep in the server or hook in the code.

Each scenario below is one round of one race: it sets the game up, races, checks what must hold
whatever the interleaving (`assert`), and says which way it went. The loser of every race must
get a `ServiceError`, the words a player reads: anything else is what a player would have met as
an error with no words of ours, and fails.
"""

from __future__ import annotations

import asyncio
import itertools
import random
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import asyncpg

from bot import match_service, open_database
from data import START_RATING, Database, Match
from data.tournaments import Tournament, TournamentStatus
from play import MatchOver, MatchService, NoMatch, ServiceError, StalePrompt
from play.tournament import TournamentService
from settings import load_settings

T = TypeVar("T")
GUILD = 5 << 22  # a guild of shard 0 of 2
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
    """Processes on one database, on one clock the caller moves; fresh channel and interaction ids."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.now = START
        self.processes: list[Process] = []
        self._channels = itertools.count(1000)
        self._interactions = itertools.count(1)

    def clock(self) -> float:
        return self.now

    def channel(self) -> int:
        return next(self._channels)

    def interaction(self) -> int:
        return next(self._interactions)

    async def start(self, count: int, seed: int) -> list[Process]:
        """`count` processes more, each as `python bot.py` opens its store and builds its service."""
        for k in range(count):
            settings = load_settings({"DATABASE_URL": self.url}, dotenv=False)
            db = await open_database(settings, clock=self.clock)
            assert db is not None, "the process could not open its store"
            rng = random.Random(seed * 100 + len(self.processes) + k)
            self.processes.append(Process(db, match_service(settings, db, clock=self.clock, rng=rng)))
        return self.processes[-count:]

    async def close(self) -> None:
        for process in self.processes:
            await process.db.close()

    async def sql(self, query: str, *args: object) -> list[asyncpg.Record]:
        """A look at the database from outside both processes (an admin's psql)."""
        conn = await asyncpg.connect(self.url)
        try:
            return await conn.fetch(query, *args)
        finally:
            await conn.close()


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
    or the refusal it raised; anything but a `ServiceError` is raised here."""
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


async def game(process: Process, channel: int, guild: int = GUILD) -> tuple[int, int]:
    """A Block Wars game between players 10 and 20 begun in `channel`: (who is on turn, version)."""
    await process.service.challenge(
        game="blockwars", guild_id=guild, channel_id=channel, challenger_id=10, opponent_id=20
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


async def ratings_chain(
    world: World, user: int, guild: int = GUILD
) -> tuple[list[tuple[float, float]], float, int]:
    """`user`'s rating changes in one server's Block Wars, their rating there now and their games
    counted."""
    changes = [
        (float(r["rating_before"]), float(r["rating_after"]))
        for r in await world.sql(
            "SELECT c.* FROM rating_changes AS c JOIN matches AS m ON m.id = c.match_id "
            "WHERE c.user_id = $1 AND m.guild_id = $2 AND m.game = 'blockwars'",
            user,
            guild,
        )
    ]
    stats = await world.sql(
        "SELECT * FROM player_stats WHERE user_id = $1 AND guild_id = $2 AND game = 'blockwars'", user, guild
    )
    played = sum(int(r["wins"]) + int(r["losses"]) + int(r["draws"]) for r in stats)
    rating = float(stats[0]["rating"]) if stats else START_RATING
    return changes, rating, played


def assert_chained(changes: list[tuple[float, float]], end: float) -> None:
    """Each change starts where another ended, the first at the start rating and the last at the
    rating now: two results begun from one rating (a lost update) leave one ending unused."""
    befores = Counter([before for before, _ in changes] + [end])
    afters = Counter([after for _, after in changes] + [START_RATING])
    assert befores == afters, f"the rating changes do not chain: {changes}, now {end}"


# --- the races: one round each ------------------------------------------------------------------


async def two_accepts(world: World, a: Process, b: Process, rng: random.Random) -> str:
    """The challenged player's accept reaches both processes: one starts the game, once."""
    channel = world.channel()
    await a.service.challenge(
        game="blockwars", guild_id=GUILD, channel_id=channel, challenger_id=10, opponent_id=20
    )
    done = await race(rng, a.service.accept(channel, 20, entropy=1), b.service.accept(channel, 20, entropy=2))
    assert len(wins(done)) == 1, done
    (refused,) = refusals(done)
    assert refused.message in ("This challenge was already answered.", "This game has already started.")
    rows = await world.sql("SELECT status, version FROM matches WHERE channel_id = $1", channel)
    assert len(rows) == 1 and rows[0]["status"] == "active" and rows[0]["version"] == 1
    await a.service.cancel(channel, 99, is_admin=True)  # nothing left due for a later sweep
    return "at the write" if "answered" in refused.message else "at the read"


async def accept_or_withdraw(world: World, a: Process, b: Process, rng: random.Random) -> str:
    """The challenged player accepts in one process as the challenger withdraws in the other: the
    game starts or the challenge is withdrawn, once, and the other hears which in words."""
    channel = world.channel()
    await a.service.challenge(
        game="blockwars", guild_id=GUILD, channel_id=channel, challenger_id=10, opponent_id=20
    )
    accepted, withdrawn = await race(rng, a.service.accept(channel, 20), b.service.decline(channel, 10))
    rows = await world.sql("SELECT status, version FROM matches WHERE channel_id = $1", channel)
    assert len(rows) == 1 and rows[0]["version"] == 1, [dict(r) for r in rows]
    if isinstance(withdrawn, ServiceError):
        assert not isinstance(accepted, BaseException) and rows[0]["status"] == "active"
        assert withdrawn.message in (
            "This challenge was already answered.",
            "The game has started: use resign or offer a draw instead.",
        ), withdrawn.message
        await a.service.cancel(channel, 99, is_admin=True)
        return "accepted"
    assert isinstance(accepted, ServiceError), "both the accept and the withdrawal landed"
    assert rows[0]["status"] == "cancelled"
    # at the write, or (later) on reading the channel: no open game there any more
    said = accepted.message
    assert said == "This challenge was already answered." or (
        said.startswith("The last challenge in this channel, game #") and ", was cancelled. " in said
    ), said
    return "withdrawn"


async def double_click(world: World, a: Process, b: Process, rng: random.Random) -> str:
    """The player on turn sends two moves from one board (its version on both buttons), one through
    each process: one is applied, the other refused in words, and the log holds one move."""
    channel = world.channel()
    player, version = await game(a, channel)
    first, second = rng.sample(await a.service.legal(channel, player), 2)
    done = await race(
        rng,
        a.service.act(channel, player, first, interaction_id=world.interaction(), expected_version=version),
        b.service.act(channel, player, second, interaction_id=world.interaction(), expected_version=version),
    )
    (played,) = wins(done)
    (refused,) = refusals(done)
    assert "moved on" in refused.message, refused.message
    assert await log_of(world, channel) == [played.notation]
    rows = await world.sql("SELECT version FROM matches WHERE channel_id = $1", channel)
    assert rows[0]["version"] == version + 1
    await a.service.cancel(channel, 99, is_admin=True)  # nothing left due for a later sweep
    return "first" if played is done[0] else "second"


async def draw_or_resign(world: World, a: Process, b: Process, rng: random.Random) -> str:
    """One player accepts a draw in one process while the other resigns in the other: the game ends
    once, as a draw or as a resignation, with one rating change each; the loser hears it is over."""
    channel = world.channel()
    player, _ = await game(a, channel)
    other = 20 if player == 10 else 10
    await a.service.act(channel, player, "offer draw")
    done = await race(
        rng,
        a.service.act(channel, other, "accept draw", interaction_id=world.interaction()),
        b.service.act(channel, player, "resign", interaction_id=world.interaction()),
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
    return played.notation


async def sealed_challenges(world: World, a: Process, b: Process, rng: random.Random) -> str:
    """Both processes draw and show the channel's seal at once (one seal, shown once), then two
    challenges come in the channel at once: one is stored and takes the seal, the other is told
    the channel is busy, and the seal is gone."""
    channel = world.channel()
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
    await a.service.cancel(channel, 99, is_admin=True)  # the channel's game: nothing left open
    return "first" if made is done[0] else "second"


async def move_or_timeout(world: World, a: Process, b: Process, rng: random.Random) -> str:
    """The player on turn moves in one process at the moment the other's sweep finds the deadline
    passed: the move lands (and the sweep leaves the game alone) or the game is lost on time (and
    the move is refused in words), never both; the loss is rated once."""
    channel = world.channel()
    player, version = await game(a, channel)
    match, _ = await a.service.current(channel)
    assert match.deadline is not None
    world.now = match.deadline + 1
    move = rng.choice(await a.service.legal(channel, player))
    moved, swept = await race(
        rng,
        a.service.act(channel, player, move, interaction_id=world.interaction(), expected_version=version),
        b.service.sweep(),
        spread=0.01,  # the sweep reads what is due first: a move this late may find the game lost
    )
    rows = await world.sql("SELECT * FROM matches WHERE channel_id = $1", channel)
    log = await log_of(world, channel)
    forfeits = [x for x in swept if x.kind == "forfeit" and x.match.channel_id == channel]
    if isinstance(moved, ServiceError):
        assert "moved on" in moved.message or "is over" in moved.message, moved.message
        assert log == ["timeout"] and rows[0]["status"] == "finished"
        assert rows[0]["winner_id"] == (20 if player == 10 else 10)
        assert len(forfeits) == 1
        changes = await world.sql("SELECT * FROM rating_changes WHERE match_id = $1", rows[0]["id"])
        assert len(changes) == 2
        return "lost on time"
    assert log == [move] and rows[0]["status"] == "active", log
    assert forfeits == []
    await a.service.cancel(channel, 99, is_admin=True)  # nothing left due for the next round
    return "moved in time"


async def cancel_or_move(world: World, a: Process, b: Process, rng: random.Random) -> str:
    """An admin cancels the channel's game in one process while its player moves in the other: it
    is cancelled (the move refused in words), or moved on and then cancelled, or the cancel is
    refused in words (the move came between its read and its write)."""
    channel = world.channel()
    player, version = await game(a, channel)
    move = rng.choice(await a.service.legal(channel, player))
    moved, cancelled = await race(
        rng,
        a.service.act(channel, player, move, interaction_id=world.interaction(), expected_version=version),
        b.service.cancel(channel, 99, is_admin=True),
    )
    rows = await world.sql("SELECT * FROM matches WHERE channel_id = $1", channel)
    log = await log_of(world, channel)
    if isinstance(cancelled, ServiceError):
        assert "moved on" in cancelled.message, cancelled.message
        assert log == [move] and rows[0]["status"] == "active"
        await a.service.cancel(channel, 99, is_admin=True)
        return "cancel refused"
    assert rows[0]["status"] == "cancelled"
    assert log == ([] if isinstance(moved, ServiceError) else [move]), (moved, log)
    return "move refused" if isinstance(moved, ServiceError) else "both"


async def cancel_or_resign(world: World, a: Process, b: Process, rng: random.Random) -> str:
    """An admin cancels the game in one process as a player resigns in the other: it is cancelled
    (the resignation refused in words) or finished by the resignation, its result and ratings kept
    (the cancel refused in words); never a finished game turned into a cancelled one."""
    channel = world.channel()
    player, _ = await game(a, channel)
    await a.service.current(channel)  # the admin's process has the game in memory, as after a move
    cancelled, resigned = await race(
        rng, a.service.cancel(channel, 99, is_admin=True), b.service.act(channel, player, "resign")
    )
    rows = await world.sql("SELECT * FROM matches WHERE channel_id = $1", channel)
    changes = await world.sql("SELECT * FROM rating_changes WHERE match_id = $1", rows[0]["id"])
    if isinstance(resigned, ServiceError):
        assert not isinstance(cancelled, BaseException)
        assert rows[0]["status"] == "cancelled" and changes == []
        return "cancelled"
    assert isinstance(cancelled, ServiceError), "a finished game was cancelled"
    assert any(w in cancelled.message for w in ("ended", "is over", "moved on")), cancelled.message
    assert rows[0]["status"] == "finished" and len(changes) == 2
    return "resigned"


async def two_aways(world: World, a: Process, b: Process, rng: random.Random) -> str:
    """A player's time away (a double click on two shards) reaches both processes at once: they are
    away once, and the days are taken from their year once, as when the two come one after the
    other (the second ends the first and starts its own)."""
    guild = GUILD + world.channel()  # a server of its own: a year's days away each round
    channel = world.channel()
    player, _ = await game(a, channel, guild)
    days = rng.choice([1, 3])
    done = await race(rng, a.service.away(guild, 10, days), b.service.away(guild, 10, days))
    assert len(wins(done)) == 2, done
    until = world.now + days * 86400
    assert await b.service.away_until(guild, 10) == until
    rows = await world.sql(
        "SELECT * FROM time_away WHERE guild_id = $1 AND user_id = 10 AND end_at > $2", guild, world.now
    )
    assert len(rows) == 1, [dict(r) for r in rows]
    world.now = until  # back: the days taken from their year
    assert await a.service.away_taken(guild, 10) == days
    await a.service.cancel(channel, 99, is_admin=True)  # nothing left due for a later sweep
    return "on turn" if player == 10 else "waiting"


async def a_turn_to_hand_over(world: World, a: Process) -> tuple[int, int, Match, int, int]:
    """A Block Wars game begun in `a`, in a server of its own (a year's days away each round): its
    server, channel and match, the player to move and the one waiting."""
    guild = GUILD + world.channel()
    channel = world.channel()
    await a.service.challenge(
        game="blockwars", guild_id=guild, channel_id=channel, challenger_id=10, opponent_id=20
    )
    match = await a.service.accept(channel, 20)
    mover = match.turn_player_id
    assert mover is not None
    return guild, channel, match, mover, 20 if mover == 10 else 10


async def away_or_move(world: World, a: Process, b: Process, rng: random.Random) -> str:
    """A player goes away (or comes back) in one process while, in the other, their opponent's move
    hands them the turn: whichever lands first, the turn they now owe starts its clock when they
    are back (now, for one who came back), as when the two come one after the other: never a turn
    running while they are away, nor one that waits for an absence twice."""
    guild, channel, match, mover, waiting = await a_turn_to_hand_over(world, a)
    coming_back = rng.random() < 0.5
    if coming_back:
        await a.service.away(guild, waiting, 2)
        await asyncio.sleep(0.01)  # its notice heard by the other process, as a person's pace allows
    move = rng.choice(await b.service.legal(channel, mover))
    await b.service.current(channel)  # the mover's process has the game (and its clocks) in memory
    gone = a.service.back(guild, waiting) if coming_back else a.service.away(guild, waiting, 3)
    away, played = await race(
        rng,
        gone,
        b.service.act(
            channel, mover, move, interaction_id=world.interaction(), expected_version=match.version
        ),
    )
    assert not isinstance(away, BaseException) and not isinstance(played, BaseException), (away, played)
    rows = await world.sql("SELECT * FROM matches WHERE channel_id = $1", channel)
    assert rows[0]["turn_player_id"] == waiting
    starts = world.now if away.until is None else away.until
    assert rows[0]["deadline"] == starts + match.turn_seconds, (coming_back, rows[0]["deadline"] - world.now)
    await a.service.cancel(channel, 99, is_admin=True)  # nothing left due for a later sweep
    return "back" if coming_back else "away"


async def accept_or_away(world: World, a: Process, b: Process, rng: random.Random) -> str:
    """The challenger goes away (or comes back) in one process as, in the other, their opponent
    accepts a game whose first turn is the challenger's: the game starts, and its first turn's
    clock starts when they are back (now, for one who came back), as when the two come one after
    the other: never a first turn running while they are away, nor one that waits for an absence
    twice. The away's answer names the game (and its channel is told) where it was written after
    the game began."""
    guild = GUILD + world.channel()  # a server of its own: a year's days away each round
    channel = world.channel()
    coming_back = rng.random() < 0.5
    if coming_back:
        await b.service.away(guild, 10, 2)
    await a.service.challenge(
        game="blockwars", guild_id=guild, channel_id=channel, challenger_id=10, opponent_id=20, side="germans"
    )
    await asyncio.sleep(0.01)  # the notices heard by the other process, as a person's pace allows
    gone = b.service.back(guild, 10) if coming_back else b.service.away(guild, 10, 3)
    away, accepted = await race(rng, gone, a.service.accept(channel, 20, entropy=world.interaction()))
    assert not isinstance(away, BaseException) and not isinstance(accepted, BaseException), (away, accepted)
    rows = await world.sql("SELECT * FROM matches WHERE channel_id = $1", channel)
    assert rows[0]["status"] == "active" and rows[0]["turn_player_id"] == 10, dict(rows[0])
    starts = world.now if away.until is None else away.until
    late = (rows[0]["deadline"] - (starts + accepted.turn_seconds)) / 86400
    assert late == 0, f"{'back' if coming_back else 'away'}: the first turn is due {late:+.2f} days off"
    named = rows[0]["id"] in {m.id for m in away.games}
    await a.service.cancel(channel, 99, is_admin=True)  # nothing left due for a later sweep
    return ("back" if coming_back else "away") + (", named" if named else ", after")


async def signup(process: Process, channel: int, players: list[int], most: int | None = None) -> Tournament:
    t = process.tournaments
    made = await t.create(
        guild_id=GUILD,
        channel_id=channel,
        user_id=1,
        game="blockwars",
        rounds=2,
        days=2,
        organiser=True,
        max_players=most,
    )
    await t.seal_shown(made, 1)  # its seal's message (id 1), as the adapters post it before any sign-up
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


async def cancel_tournament(process: Process, channel: int) -> None:
    """Nothing of the round left to a later sweep (a bench runs many rounds on one database)."""
    await process.tournaments.cancel(channel, organiser=True)


async def two_joins(world: World, a: Process, b: Process, rng: random.Random) -> str:
    """One player's join reaches both processes: signed up once, the other told so."""
    channel = world.channel()
    made = await signup(a, channel, [11, 12])
    done = await race(
        rng, a.tournaments.join(made, 13, entropy=101), b.tournaments.join(made, 13, entropy=102)
    )
    assert len(wins(done)) == 1
    (refused,) = refusals(done)
    assert refused.message == "You are already signed up for this tournament."
    assert (await seated(world, made.id))[0] == [11, 12, 13]
    await cancel_tournament(a, channel)
    return "first" if wins(done)[0] is done[0] else "second"


async def join_or_start(world: World, a: Process, b: Process, rng: random.Random) -> str:
    """A player joins in one process as the organiser starts the tournament in the other: the join
    lands first (and the start, on the list it read, is refused: start again) or the start does
    (and the join is told it came too late for round 1, and may join late), or the join comes after
    it, a late entry from round 2; never a player signed up before the start and left unpaired."""
    channel = world.channel()
    made = await signup(a, channel, [11, 12, 13])
    started, joined = await race(
        rng,
        a.tournaments.start(channel, organiser=True),
        b.tournaments.join(made, 14, entropy=103),
        spread=0.02,
    )
    players, paired = await seated(world, made.id)
    await cancel_tournament(a, channel)
    if isinstance(started, ServiceError):
        assert started.message.startswith("Someone joined or left just now"), started.message
        assert players == [11, 12, 13, 14] and paired == []
        assert not isinstance(joined, BaseException)
        return "start refused"
    if isinstance(joined, BaseException) or 14 in paired:
        assert players == paired
    else:  # the start read the status first: a late entry, from round 2 (RULES.md "Late entry")
        assert players == [11, 12, 13, 14] and paired == [11, 12, 13]
        entries = await a.tournaments.entries(made)
        assert [e.joined_round for e in entries if e.user_id == 14] == [1]
        return "joined late"
    if isinstance(joined, ServiceError):
        # told the start overtook it, and that joining late is still open (RULES.md "Late entry")
        assert "started just before your sign-up, so round 1 was paired without you" in joined.message
        assert "join again to play from round 2" in joined.message, joined.message
        assert players == [11, 12, 13]
        return "join refused"
    assert players == [11, 12, 13, 14]
    return "joined, then started"


async def two_starts(world: World, a: Process, b: Process, rng: random.Random) -> str:
    """The organiser's start reaches both processes: the first round is paired once, the other
    start told the tournament has already started (not that someone joined)."""
    channel = world.channel()
    made = await signup(a, channel, [11, 12, 13, 14])
    done = await race(
        rng, a.tournaments.start(channel, organiser=True), b.tournaments.start(channel, organiser=True)
    )
    assert len(wins(done)) == 1
    (refused,) = refusals(done)
    assert refused.message.startswith("This tournament has already started: round 1 of"), refused.message
    players, paired = await seated(world, made.id)
    assert players == paired == [11, 12, 13, 14]
    await cancel_tournament(a, channel)
    return "first" if wins(done)[0] is done[0] else "second"


async def resign_as_round_ends(world: World, a: Process, b: Process, rng: random.Random) -> str:
    """A tournament round's time runs out while, in the other process, a player of its game resigns:
    the game ends by the resignation (and the board counts that result) or is stopped (a draw, the
    resignation refused in words). The board's result is always the one the match shows, and its
    ratings moved only if the match has a winner."""
    channel, thread = world.channel(), world.channel()
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
    swept, resigned = await race(
        rng, a.tournaments.sweep(), b.service.act(thread, resigner, "resign"), spread=0.01
    )
    assert not isinstance(swept, BaseException)
    rows = await world.sql("SELECT * FROM matches WHERE id = $1", match.id)
    (result,) = await world.sql(
        "SELECT result FROM tournament_games WHERE tournament_id = $1 AND round = 1", made.id
    )
    changes = await world.sql("SELECT * FROM rating_changes WHERE match_id = $1", match.id)
    with_cancel = await a.tournaments.store.channel_tournament(channel)
    if with_cancel is not None:
        await cancel_tournament(a, channel)
    if isinstance(resigned, ServiceError):
        assert rows[0]["status"] == "cancelled", (resigned, dict(rows[0]))
        assert result["result"] == 0.5 and changes == []
        return "stopped"
    assert rows[0]["status"] == "finished" and len(changes) == 2
    winner = 12 if resigner == 11 else 11
    assert result["result"] == (1.0 if winner == board.first_id else 0.0), (resigner, board)
    return "resigned"


async def two_round_sweeps(world: World, a: Process, b: Process, rng: random.Random) -> str:
    """Both processes sweep a tournament whose round has run out (one game over, one still going)
    at the same moment: the game still going is stopped once and counts as a draw, the game over
    counts its result, and the next round is paired once."""
    channel = world.channel()
    made = await signup(a, channel, [11, 12, 13, 14])
    started = await a.tournaments.start(channel, organiser=True)
    games = [await a.tournaments.start_board(board, world.channel()) for board in started.boards]
    over, going = games
    await a.service.act(over.channel_id, over.challenger_id, "resign")
    ends = started.tournament.round_ends_at
    assert ends is not None
    # the turns' own deadlines after the round's end: only the round's end is due
    await world.sql("UPDATE matches SET deadline = $2::float8 WHERE id = $1", going.id, ends + 99)
    world.now = ends + 1
    swept = await race(rng, a.tournaments.sweep(), b.tournaments.sweep(), spread=0.01)
    now = await a.tournaments.by_id(made.id)
    assert now.round == 2, now
    boards = await world.sql(
        "SELECT round, board, result, match_id FROM tournament_games WHERE tournament_id = $1", made.id
    )
    assert sorted((r["round"], r["board"]) for r in boards) == [(1, 1), (1, 2), (2, 1), (2, 2)]
    first = {r["match_id"]: r["result"] for r in boards if r["round"] == 1}
    assert first[over.id] == 0.0 and first[going.id] == 0.5, first  # the first side resigned
    rows = await world.sql("SELECT status FROM matches WHERE id = $1", going.id)
    assert rows[0]["status"] == "cancelled"
    await cancel_tournament(a, channel)
    return "both told" if all(swept) else "one told"


async def late_join_or_pairing(world: World, a: Process, b: Process, rng: random.Random) -> str:
    """A latecomer joins in one process as the other's sweep closes round 1 of 2 and pairs round 2
    (RULES.md "Late entry"): the join lands first (the sweep, holding the players it read, is
    refused, and the next pairs round 2 with them) or the pairing does (the join is then told it is
    too late: round 2 of 2 is past half). Never a latecomer who joined in round 1 left out of
    round 2, nor one signed up in round 2."""
    channel = world.channel()
    made = await signup(a, channel, [11, 12, 13, 14])
    started = await a.tournaments.start(channel, organiser=True)
    for board in started.boards:
        match = await a.tournaments.start_board(board, world.channel())
        await a.service.act(match.channel_id, match.challenger_id, "resign")
    _, joined = await race(rng, a.tournaments.sweep(), b.tournaments.join(made, 15, entropy=104), spread=0.1)
    # (a sweep that closes a round and pairs the next takes longer than a join: the wider spread)
    await a.tournaments.sweep()  # what the loop does next: pairs round 2 if the first was refused
    entries = {e.user_id: e for e in await a.tournaments.entries(made)}
    boards = await world.sql(
        "SELECT first_id, second_id FROM tournament_games WHERE tournament_id = $1 AND round = 2", made.id
    )
    paired = {u for r in boards for u in (r["first_id"], r["second_id"]) if u is not None}
    await cancel_tournament(a, channel)
    if isinstance(joined, ServiceError):
        assert "too late to join" in joined.message, joined.message
        assert 15 not in entries and 15 not in paired
        return "refused after the pairing"
    assert entries[15].joined_round == 1 and 15 in paired, (entries[15], paired)
    return "joined before the pairing"


async def last_place(world: World, a: Process, b: Process, rng: random.Random, *, started: bool) -> str:
    """Two players join a Swiss tournament with one place left under its cap, one in each process,
    before its start or (`started`) as latecomers: one is in, the other told it is full; never a
    player more than the cap."""
    channel = world.channel()
    made = await signup(a, channel, [11, 12, 13, 14], most=5)
    if started:
        await a.tournaments.start(channel, organiser=True)
    done = await race(
        rng, a.tournaments.join(made, 15, entropy=105), b.tournaments.join(made, 16, entropy=106)
    )
    players = [e.user_id for e in await a.tournaments.entries(made)]
    await cancel_tournament(a, channel)
    assert len(players) == 5, f"the cap of 5 passed: {players}"
    (joined,) = wins(done)
    (refused,) = refusals(done)
    said = refused.message
    assert said.endswith("is full: it takes at most 5 players. Ask an organiser if a place comes free."), said
    return "first" if joined is done[0] else "second"


async def two_joins_for_the_last_place(world: World, a: Process, b: Process, rng: random.Random) -> str:
    """`last_place` before the start (the sign-up's write counts after its lock)."""
    return await last_place(world, a, b, rng, started=False)


async def two_latecomers_for_the_last_place(world: World, a: Process, b: Process, rng: random.Random) -> str:
    """`last_place` once it runs (before 2026-11-29 only the service's read counted: both got in)."""
    return await last_place(world, a, b, rng, started=True)


Both = Callable[[Awaitable[Any], Awaitable[Any]], Awaitable[Sequence[Any]]]


async def removal_against_join(world: World, a: Process, b: Process, both: Both) -> str:
    """An organiser takes player 13 off the sign-up list in one process as 13 presses Join in the
    other (`both` runs the two): the removal lands, and the join is refused in words (13 was signed
    up already, or has been taken off); 13 ends off the list, removed, never back in."""
    channel = world.channel()
    made = await signup(a, channel, [11, 12, 13])
    removed, joined = await both(
        a.tournaments.remove(channel, 13, organiser=True, by=1), b.tournaments.join(made, 13, entropy=107)
    )
    players = [e.user_id for e in await a.tournaments.entries(made)]
    held = await a.tournaments.store.removed_by(made.id, 13)
    await cancel_tournament(a, channel)
    assert not isinstance(removed, BaseException), removed
    assert players == [11, 12] and held == 1, f"removed, yet {players} are on the list (removed by {held})"
    assert isinstance(joined, ServiceError), "the removed player's join landed"
    if joined.message == "You are already signed up for this tournament.":
        return "join first"
    assert joined.message.startswith("An organiser took you off the list of"), joined.message
    return "removal first"


async def remove_or_join(world: World, a: Process, b: Process, rng: random.Random) -> str:
    """`removal_against_join`, the two at once from a seeded stagger."""
    return await removal_against_join(world, a, b, lambda r, j: race(rng, r, j, spread=0.02))


async def reinstates(world: World, a: Process, b: Process, rng: random.Random, *, started: bool) -> str:
    """An organiser's reinstate of player 14, taken off the list before the start, reaches both
    processes, before the start or (`started`) once it runs: the player is back once (as a
    latecomer once it runs), the channel told once (one reinstate lands, the other is refused in
    words that say they are back)."""
    channel = world.channel()
    made = await signup(a, channel, [11, 12, 13, 14])
    await a.tournaments.remove(channel, 14, organiser=True, by=1)
    if started:
        await a.tournaments.start(channel, organiser=True)
    done = await race(
        rng,
        a.tournaments.reinstate(channel, 14, organiser=True),
        b.tournaments.reinstate(channel, 14, organiser=True),
    )
    entries = [e for e in await a.tournaments.entries(made) if e.user_id == 14]
    await cancel_tournament(a, channel)
    assert [(e.joined_round, e.withdrawn) for e in entries] == [(int(started), False)], entries
    assert len(wins(done)) == 1, f"the channel was told twice that the player was put back: {done}"
    (refused,) = refusals(done)
    said = refused.message
    back = "still in this tournament: there is no removal to undo"
    back = back if started else f"on the sign-up list of **{made.name}** already, so nothing changed"
    assert said == f"<@14> is {back}.", said
    return "first" if wins(done)[0] is done[0] else "second"


async def two_reinstates(world: World, a: Process, b: Process, rng: random.Random) -> str:
    """`reinstates` before the start."""
    return await reinstates(world, a, b, rng, started=False)


async def two_late_reinstates(world: World, a: Process, b: Process, rng: random.Random) -> str:
    """`reinstates` once it runs (before 2026-11-29 both said they put the player back)."""
    return await reinstates(world, a, b, rng, started=True)


async def remove_or_start(world: World, a: Process, b: Process, rng: random.Random) -> str:
    """An organiser takes player 14 off the sign-up list in one process as the tournament is started
    in the other: the removal lands first (the start, on the list it read, is refused, or pairs
    the others), or the start does and the removal is refused in words that say it started with
    them in it and how to take them off now (or, read after the start, withdraws them); never told
    they were not signed up."""
    channel = world.channel()
    made = await signup(a, channel, [11, 12, 13, 14])
    started, removed = await race(
        rng,
        a.tournaments.start(channel, organiser=True),
        b.tournaments.remove(channel, 14, organiser=True, by=1),
        spread=0.02,
    )
    players, paired = await seated(world, made.id)
    await cancel_tournament(a, channel)
    if isinstance(removed, ServiceError):
        assert not isinstance(started, BaseException), (started, removed)
        assert players == paired == [11, 12, 13, 14]
        assert removed.message.endswith(
            "started just now, with <@14> in it: remove them again to withdraw them from it."
        ), removed.message
        return "removal refused"
    assert players == [11, 12, 13], (players, paired)
    if isinstance(started, ServiceError):
        assert started.message.startswith("Someone joined or left just now"), started.message
        assert paired == []
        return "start refused"
    if paired == [11, 12, 13, 14]:  # the removal read the tournament once it ran: a withdrawal
        assert removed.tournament.status is TournamentStatus.RUNNING, removed
        return "started, then withdrawn"
    assert paired == [11, 12, 13], (players, paired)
    return "removed, then started"


async def leave_or_start(world: World, a: Process, b: Process, rng: random.Random) -> str:
    """Player 14 leaves the sign-up list in one process as the tournament is started in the other:
    the leave lands first (the start, on the list it read, is refused, or pairs the others), or the
    start does and the leave is refused in words that say it started and how to withdraw; never
    told they were not signed up while they are paired."""
    channel = world.channel()
    made = await signup(a, channel, [11, 12, 13, 14])
    started, left = await race(
        rng, a.tournaments.start(channel, organiser=True), b.tournaments.leave(made, 14), spread=0.02
    )
    players, paired = await seated(world, made.id)
    await cancel_tournament(a, channel)
    if isinstance(left, ServiceError):
        assert not isinstance(started, BaseException), (started, left)
        assert players == paired == [11, 12, 13, 14]
        assert left.message.startswith("This tournament has started: withdrawing from it is"), left.message
        return "leave refused"
    assert players == [11, 12, 13]
    if isinstance(started, ServiceError):
        assert started.message.startswith("Someone joined or left just now"), started.message
        assert paired == []
        return "start refused"
    assert paired == [11, 12, 13]
    return "left, then started"


Scenario = Callable[[World, Process, Process, random.Random], Awaitable[str]]

# every race a round of which stands alone: what bench/pgrace.py soaks
SCENARIOS: dict[str, Scenario] = {
    "two_accepts": two_accepts,
    "accept_or_withdraw": accept_or_withdraw,
    "double_click": double_click,
    "draw_or_resign": draw_or_resign,
    "sealed_challenges": sealed_challenges,
    "move_or_timeout": move_or_timeout,
    "cancel_or_move": cancel_or_move,
    "cancel_or_resign": cancel_or_resign,
    "two_aways": two_aways,
    "away_or_move": away_or_move,
    "accept_or_away": accept_or_away,
    "two_joins": two_joins,
    "join_or_start": join_or_start,
    "two_starts": two_starts,
    "resign_as_round_ends": resign_as_round_ends,
    "two_round_sweeps": two_round_sweeps,
    "late_join_or_pairing": late_join_or_pairing,
    "two_joins_for_the_last_place": two_joins_for_the_last_place,
    "two_latecomers_for_the_last_place": two_latecomers_for_the_last_place,
    "remove_or_join": remove_or_join,
    "two_reinstates": two_reinstates,
    "two_late_reinstates": two_late_reinstates,
    "remove_or_start": remove_or_start,
    "leave_or_start": leave_or_start,
}

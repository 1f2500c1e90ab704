"""Databases written by earlier versions open with this code and play on: the one-game bot's
(commit cb66d09), and tournaments kept at migration 7 (commit 67acd80), below.

tests/fixtures/pre_platform.db was written by that version through its own match service
(tests/fixtures/make_pre_platform_db.py says how): a finished game with ratings, a game in progress
and a game against the AI. Everything in it must keep working after the upgrade.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from data import Database, Status, load_migrations
from data.ai_decisions import LEGACY, AiDecision, AiDecisionStore
from data.db import Transaction, count, rows
from engine import fairness, registry, search
from play import BadRequest, MatchService
from play.tournament import TournamentService
from render.standings import Row, standings_png
from tests.clock import Clock
from tests.test_ai_verify import AI, CHANNEL, META, record_of
from tests.test_ai_verify import ALICE as PLAYER
from tests.test_ai_verify import GUILD as AI_GUILD

FIXTURE = Path(__file__).parent / "fixtures" / "pre_platform.db"
GUILD = 10
ALICE, BOB, CAROL, BOT = 1, 2, 3, 99
T0 = 1_790_000_000.0


@pytest.fixture
async def service(tmp_path: Path):
    path = tmp_path / "upgraded.db"
    shutil.copy(FIXTURE, path)
    clock = lambda: T0 + 60  # noqa: E731
    db = await Database.open(path, clock=clock)
    yield MatchService(db, clock=clock, rng=random.Random(1))
    await db.close()


async def test_the_old_database_migrates_and_keeps_its_ratings_per_game(service: MatchService):
    assert await service.db.schema_version() >= 2
    alice = await service.stats(GUILD, "blockwars", ALICE)
    bob = await service.stats(GUILD, "blockwars", BOB)
    assert (alice.wins, alice.losses, round(alice.rating)) == (1, 0, 1216)
    assert (bob.wins, bob.losses, round(bob.rating)) == (0, 1, 1184)
    assert [s.user_id for s in await service.leaderboard(GUILD, "blockwars")] == [ALICE, BOB]


async def test_a_game_in_progress_continues(service: MatchService):
    match, state = await service.current(102)
    assert match.game == "blockwars" and match.status is Status.ACTIVE
    assert match.options == {"crosses": True, "fighter_aces": False}
    # Seed plus log still replays to the stored position.
    replayed, _, _ = await service.replayed(match)
    assert replayed.to_json() == state.to_json()
    side = sorted(state.to_act())[0]
    mover = match.sides[side]
    legal = await service.legal(102, mover)
    assert legal
    played = await service.act(102, mover, legal[0])
    assert played.match.version == match.version + 1


async def test_a_finished_game_still_shows_and_replays(service: MatchService):
    match, state = await service.latest(101)
    assert match.status is Status.FINISHED and state.is_over()
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == "germans" and "resigned" in outcome.detail
    lines = await service.history(101)
    assert lines[-1] == "The Canadians resigned: the Germans win"
    from render import board

    assert board("blockwars", state, [])[:8] == b"\x89PNG\r\n\x1a\n"


async def test_an_ai_game_continues_with_the_ai(service: MatchService):
    match, state = await service.current(103)
    assert match.ai_player_id == BOT and match.ai_level == "easy"
    assert match.side_of(BOB) in state.to_act()
    played = await service.act(103, BOB, "setup std")
    assert not played.over
    answered = await service.ai_turns(103)
    assert answered and all(p.match.game == "blockwars" for p in answered)
    assert registry.game("blockwars").title == "Block Wars"


# --- tournaments kept at migration 7, before each rating change was recorded ----------------------

V7 = Path(__file__).parent / "fixtures" / "tournament_v7.db"
V7_GUILD, OLD_CUP, RUNNING_CUP = 10, 100, 200
# Old Cup's standings as the bot of migration 7 drew them (make_tournament_v7_db.py prints them):
# (player, points, rating change), the change replayed from the ratings at the start.
OLD_CUP_LINES = [(4, 2.0, 32.0), (1, 1.0, 0.0), (2, 0.5, -16.0), (3, 0.5, -16.0)]


def _load_v7_into_postgresql(url: str, tmp_path: Path) -> None:
    """A PostgreSQL database at migration 7 holding the fixture's rows, as a bot of that version
    would have left it (the identities moved on past the ids copied)."""
    import asyncio

    import asyncpg

    from data.move import _HIGHEST, _IDENTITIES, _RESTART_IDENTITY, _quoted, _read
    from data.schema import load_migrations

    seven = tmp_path / "migrations_7"
    seven.mkdir()
    for number, path in load_migrations():
        if number <= 7:
            shutil.copy(path, seven / path.name)

    async def load() -> None:
        async with Database.open(url, migrations_dir=seven) as db:
            assert await db.schema_version() == 7
        conn = await asyncpg.connect(url)
        try:
            for table, (columns, found) in _read(V7).items():
                if found:
                    await conn.copy_records_to_table(table, records=found, columns=columns)
            for row in await conn.fetch(_IDENTITIES):
                table, column = row["table_name"], row["column_name"]
                # as data/move.py does after its copy: names from information_schema, quoted
                highest = await conn.fetchval(
                    _HIGHEST.replace("{column}", _quoted(column)).replace("{table}", _quoted(table))
                )
                if highest is not None:
                    await conn.execute(_RESTART_IDENTITY, table, column, highest)
        finally:
            await conn.close()

    asyncio.run(load())


@pytest.fixture(params=["sqlite", "postgresql"])
def v7_store(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where the tournaments of migration 7 wait to be opened by this code: a copy of the file, or
    the same rows in a PostgreSQL database at migration 7."""
    if request.param == "sqlite":
        path = tmp_path / "v7.db"
        shutil.copy(V7, path)
        conn = sqlite3.connect(path)
        try:
            assert conn.execute("PRAGMA user_version").fetchone() == (7,)
        finally:
            conn.close()
        return str(path)
    url: str = request.getfixturevalue("pg_empty_url")
    _load_v7_into_postgresql(url, tmp_path)
    return url


def _tournaments(db: Database) -> TournamentService:
    clock = lambda: T0 + 10 * 86_400  # noqa: E731 (after everything in the file)
    return TournamentService(db, MatchService(db, clock=clock, rng=random.Random(1)), clock=clock)


async def test_a_finished_tournament_of_migration_7_draws_the_standings_it_drew_before(v7_store: str):
    """Its games were rated before the changes were recorded: the standings estimate those as the
    bot did then (Elo replayed from the ratings at the start), so the final table reads the same."""
    async with Database.open(v7_store) as db:
        assert await db.schema_version() == len(load_migrations())
        t = _tournaments(db)
        table = await t.standings_of(OLD_CUP)
        assert table.final and table.tournament.name == "Old Cup"
        lines = [(line.user_id, line.points, line.change) for line in table.lines]
        assert lines == [(u, p, pytest.approx(c)) for u, p, c in OLD_CUP_LINES]
        # migration 0016: everyone of then signed up before the start, and nobody was removed since
        entries = await t.entries(table.tournament)
        assert {(e.joined_round, e.withdrawn_round, e.withdrawn_by) for e in entries} == {(0, None, None)}
        # player 1 lost a rated game outside the cup between its rounds: in their rating, not in the cup
        assert (await db.player_stats(V7_GUILD, "blockwars", 1)).rating != pytest.approx(1200.0)
        games = await t.store.game_ratings(table.tournament.id)
        # three games rated before the record, the game stopped at round 2's end never rated
        assert sorted((g.finished, g.changes == {}) for g in games) == [(False, True)] + [(True, True)] * 3
        rows = [
            Row(x.rank, f"Player {x.user_id}", x.points, x.buchholz, x.sonneborn, x.change)
            for x in table.lines
        ]
        png = standings_png("Old Cup: after round 2 of 2", "Final standings.", rows)
        assert png[:8] == b"\x89PNG\r\n\x1a\n"


async def test_a_tournament_running_across_the_upgrade_adds_its_new_games_as_recorded(v7_store: str):
    """Round 1 ended before the upgrade (estimated), round 2 ends after it (recorded)."""
    async with Database.open(v7_store) as db:
        t = _tournaments(db)
        running = await t.open_in(RUNNING_CUP)
        before = {line.user_id: line.change for line in (await t.table(running)).lines}
        assert before == {6: 16.0, 9: 16.0, 7: -16.0, 8: -16.0}  # round 1, as the file's bot drew it
        round2 = [b for b in await t.store.tournament_boards(running.id) if b.round == 2]
        # after the upgrade, a player of round 2 loses a rated game outside the cup first
        wanderer = round2[0].first_id
        await t.matches.challenge(
            game="blockwars", guild_id=V7_GUILD, channel_id=778, challenger_id=wanderer, opponent_id=5
        )
        await t.matches.accept(778, 5)
        await t.matches.act(778, wanderer, "resign")
        # its games began before games had a clock for the whole game (migration 0009): they keep
        # the rule they began under, each turn its own deadline only
        for board in round2:
            assert board.thread_id is not None
            begun, _ = await t.matches.current(board.thread_id)
            assert begun.status is Status.ACTIVE and begun.game_clock is None
        real: dict[int, float] = {}
        for board in round2:
            assert board.thread_id is not None and board.second_id is not None
            players = (board.first_id, board.second_id)
            was = [(await db.player_stats(V7_GUILD, "blockwars", u)).rating for u in players]
            await t.matches.act(board.thread_id, board.second_id, "resign")
            for user, rating in zip(players, was, strict=True):
                real[user] = (await db.player_stats(V7_GUILD, "blockwars", user)).rating - rating
        (done,) = [d for d in await t.sweep() if getattr(d, "table", None) is not None]
        table = done.table  # type: ignore[union-attr]
        assert table.final
        assert {line.user_id: line.change for line in table.lines} == {
            user: pytest.approx(before[user] + real[user]) for user in before
        }
        # a replay of round 2 from the ratings at the start (what the bot of migration 7 showed)
        # would have given the wanderer 16: they came to the game rated lower than that
        assert real[wanderer] > 16.5


async def test_tournaments_made_before_migration_17_are_swiss_without_a_cap(v7_store: str):
    """Migration 0017 gives every tournament a format, a cap and a tie-break order: those made
    before are Swiss with no cap and the usual order, and a round-robin can be made beside them."""
    async with Database.open(v7_store) as db:
        t = _tournaments(db)
        old = await t.store.channel_tournament(OLD_CUP, open_only=False)
        running = await t.open_in(RUNNING_CUP)
        assert old is not None and (old.format, old.max_players, old.tiebreaks) == ("swiss", None, None)
        assert (running.format, running.max_players, running.tiebreaks) == ("swiss", None, None)
        assert old.signup_closes_at is None and running.signup_closes_at is None
        table = await t.table(old)  # ranked as before: Buchholz, then Sonneborn-Berger
        assert [t.short for t in table.order] == ["Bh", "SB"]
        assert [x.tiebreaks for x in table.lines] == [(x.buchholz, x.sonneborn) for x in table.lines]
        made = await t.create(
            guild_id=V7_GUILD,
            channel_id=300,
            user_id=1,
            game="blockwars",
            rounds=None,
            days=2,
            organiser=True,
            format="round-robin",
            max_players=4,
            tiebreaks="direct",
            signup_days=3,
        )
        again = await t.by_id(made.id)
        assert (again.format, again.max_players, again.rounds, again.tiebreaks) == (
            "round-robin",
            4,
            1,
            "direct",
        )


async def test_nobody_is_removed_by_migration_18_and_a_removal_after_it_holds(v7_store: str):
    """Migration 0018 records an organiser's removal before the start on the rows keeping the inputs:
    none of the players of then is marked removed (their joins are not refused), and a tournament
    made after the upgrade keeps a removal until an organiser undoes it."""
    async with Database.open(v7_store) as db:
        t = _tournaments(db)

        def removals() -> Transaction[int]:
            found = yield rows("SELECT COUNT(*) AS n FROM tournament_inputs WHERE removed_by IS NOT NULL")
            return int(found[0]["n"])

        assert await db._transact(removals) == 0  # the column is there, and nobody is marked
        running = await t.open_in(RUNNING_CUP)
        for entry in await t.entries(running):
            assert await t.store.removed_by(running.id, entry.user_id) is None
        made = await t.create(
            guild_id=V7_GUILD, channel_id=300, user_id=1, game="blockwars", rounds=2, days=2, organiser=True
        )
        await t.seal_shown(made)
        for user in (1, 2):
            await t.join(made, user)
        await t.remove(300, 2, organiser=True, by=1)
        with pytest.raises(BadRequest, match="An organiser took you off the list of"):
            await t.join(made, 2)
        await t.reinstate(300, 2, organiser=True)
        assert {e.user_id for e in await t.entries(made)} == {1, 2}


async def test_no_tournament_is_a_knockout_after_migration_19_and_one_made_after_is(v7_store: str):
    """Migrations 0019 and 0020 bring the knockout (0020 lets `format` say it): every tournament of
    before reads as it was, and a knockout made after the upgrade reads as one."""
    async with Database.open(v7_store) as db:
        t = _tournaments(db)
        old = await t.store.channel_tournament(OLD_CUP, open_only=False)
        assert old is not None and old.format == "swiss"
        assert (await t.open_in(RUNNING_CUP)).format == "swiss"
        made = await t.create(
            guild_id=V7_GUILD, channel_id=300, user_id=1, game="blockwars", rounds=None, days=2,
            organiser=True, format="knockout",
        )  # fmt: skip
        assert (await t.by_id(made.id)).format == "knockout" and made.rounds == 1


# --- an AI game whose decisions were kept before migration 13 (one row per action number) ---------

# The statement the bot of migration 12 kept a decision with: under its action's number alone.
_WRITE_12 = """
INSERT INTO ai_decisions (match_id, n, kind, level, budget_s, clock) VALUES (?, ?, ?, ?, ?, ?)
ON CONFLICT (match_id, n) DO UPDATE SET kind = excluded.kind, level = excluded.level,
    budget_s = excluded.budget_s, clock = excluded.clock
"""


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_store(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A store with no migration applied yet: a new SQLite file, or an empty PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "store.db")
    url: str = request.getfixturevalue("pg_empty_url")
    return url


async def _plies(svc: MatchService, rng: random.Random, count: int) -> None:
    """Alice plays seeded random legal actions and the AI answers, `count` times (or to the end)."""
    for _ in range(count):
        match, state = await svc.latest(CHANNEL)
        if not match.status.is_open or state is None:
            return
        me = match.side_of(PLAYER)
        if me in state.to_act():
            legal = [a for a in state.legal_actions(me) if not str(a).startswith(META)]
            await svc.act(CHANNEL, PLAYER, str(rng.choice(legal)))
        await svc.ai_turns(CHANNEL)


async def test_an_ai_game_begun_before_migration_13_verifies_after_it(
    empty_store: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game against the AI begun by the bot of migration 12 (its decisions kept one per action
    number, its commands stored under no id) and finished after the upgrade: the record carries a
    decision for every action of the AI, those of before the upgrade and after, and verifies."""
    twelve = tmp_path / "migrations_12"
    twelve.mkdir()
    for number, path in load_migrations():
        if number <= 12:
            shutil.copy(path, twelve / path.name)

    async def write_12(self: AiDecisionStore, match_id: int, d: AiDecision) -> None:
        params = (match_id, d.n, d.kind, d.level, d.budget_s, d.clock)

        def write() -> Transaction[None]:
            yield count(_WRITE_12, params)

        await self.db._transact(write)

    rng = random.Random(13)
    async with Database.open(empty_store, clock=Clock(), migrations_dir=twelve) as db:
        assert await db.schema_version() == 12
        svc = MatchService(db, clock=Clock(), rng=random.Random(13))
        act = svc.act

        async def act_12(*args: Any, interaction_id: int | None = None, **kw: Any) -> Any:
            return await act(*args, **kw)

        monkeypatch.setattr(AiDecisionStore, "write", write_12)
        monkeypatch.setattr(svc, "act", act_12)
        match = await svc.challenge(
            game="blockwars",
            guild_id=AI_GUILD,
            channel_id=CHANNEL,
            challenger_id=PLAYER,
            opponent_id=AI,
            opponent_is_bot=True,
            ai_level="easy",
            entropy=13,
        )
        await svc.ai_turns(CHANNEL)
        await _plies(svc, rng, 5)
        monkeypatch.undo()
    for memory in search.memories:  # a restart: the AI's memories gone
        memory.clear()
    async with Database.open(empty_store, clock=Clock()) as db:
        assert await db.schema_version() == len(load_migrations())
        before = await AiDecisionStore(db).decisions(match.id)
        assert before and {d.interaction_id for d in before} == {LEGACY}
        svc = MatchService(db, clock=Clock(), rng=random.Random(14))
        await _plies(svc, rng, 5)
        match, _ = await svc.latest(CHANNEL)
        if match.status.is_open:
            await svc.act(CHANNEL, PLAYER, "resign")
        after = await AiDecisionStore(db).decisions(match.id)
        record = await record_of(svc, match.id)
    theirs = [a["n"] for a in record["actions"] if a["player_id"] == AI]
    assert [d["n"] for d in record["ai"]["decisions"]] == theirs
    old = {d.n for d in before}
    assert old & set(theirs) and set(theirs) - old  # decisions of both sides of the upgrade
    assert {d.n for d in after if d.interaction_id != LEGACY} >= set(theirs) - old
    report = fairness.check(record, ai=True)
    assert report.ok and report.ai_checked, report.text()


# --- migration 0020: a knockout stored as 'knockout' ---------------------------------------------

_T19 = (
    "INSERT INTO tournaments (guild_id, channel_id, game, name, rounds, round_seconds, status, "
    "created_by, created_at, updated_at, format, knockout) "
    "VALUES (10, {channel}, 'blockwars', '{name}', 2, 86400, '{status}', 1, 0, 0, '{format}', {knockout})"
)
# what a bot of migration 19 wrote: a Swiss, a round-robin, a knockout (format 'swiss', marked), and a
# fourth tournament deleted, so the highest id ever given (4) is above the highest kept
_V19_ROWS = [
    _T19.format(channel=1, name="Swiss Cup", status="finished", format="swiss", knockout=0),
    _T19.format(channel=2, name="Round Cup", status="running", format="round-robin", knockout=0),
    _T19.format(channel=3, name="Knockout Cup", status="signup", format="swiss", knockout=1),
    _T19.format(channel=4, name="Gone Cup", status="cancelled", format="swiss", knockout=0),
    "DELETE FROM tournaments WHERE id = 4",
    *(
        f"INSERT INTO tournament_players (tournament_id, user_id, rating, joined_at, join_input) "
        f"VALUES ({t}, {u}, 1200.0, 0, '{t}{u}')"
        for t in (1, 2, 3)
        for u in (ALICE, BOB)
    ),
    *(
        f"INSERT INTO tournament_inputs (tournament_id, user_id, join_input, given_at) "
        f"VALUES ({t}, {u}, '{t}{u}', 0)"
        for t in (1, 2, 3)
        for u in (ALICE, BOB, CAROL)
    ),
    *(
        f"INSERT INTO tournament_games (tournament_id, round, board, first_id, second_id, result) "
        f"VALUES ({t}, 1, 1, {ALICE}, {BOB}, 1.0)"
        for t in (1, 2)
    ),
    *(
        f"INSERT INTO tournament_rounds (tournament_id, round, message_id) VALUES ({t}, 1, {t}00)"
        for t in (1, 2)
    ),
]
# the tables that hold a tournament's id (none by a foreign key: nothing to cascade, but every row must stay)
_REFERRING = ("tournament_players", "tournament_inputs", "tournament_games", "tournament_rounds")


async def _raw(store: str, sql: str) -> list[tuple[Any, ...]]:
    """A statement behind the store's back (its own connection), so a failed start can be looked at."""
    if store.startswith("postgresql"):
        conn = await asyncpg.connect(store)
        try:
            return [tuple(r) for r in await conn.fetch(sql)]
        finally:
            await conn.close()
    lite = sqlite3.connect(store)
    try:
        return lite.execute(sql).fetchall()
    finally:
        lite.close()


async def _columns(store: str) -> list[str]:
    if store.startswith("postgresql"):
        found = await _raw(
            store,
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'tournaments' "
            "ORDER BY ordinal_position",
        )
        return [name for (name,) in found]
    return [row[1] for row in await _raw(store, "PRAGMA table_info(tournaments)")]


async def _kept(store: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the tables referring to a tournament, and each tournament's other columns."""
    shared = [c for c in await _columns(store) if c not in ("format", "knockout")]
    kept = {table: await _raw(store, f"SELECT * FROM {table} ORDER BY 1, 2, 3") for table in _REFERRING}
    kept["tournaments"] = await _raw(store, f"SELECT {', '.join(shared)} FROM tournaments ORDER BY id")
    return kept


def _sqlite_objects(path: str | Path) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name").fetchall()
    finally:
        conn.close()


async def test_migration_20_stores_a_knockout_as_one_whole_or_not_at_all(empty_store: str, tmp_path: Path):
    """A store at migration 19 with a Swiss, a round-robin and a knockout (stored as 'swiss' and
    marked), their players, inputs, games and round messages. A start whose migration 0020 fails
    at its end (after SQLite's rebuild) changes nothing; the real one gives the knockout format
    'knockout' in the table itself, drops the mark, keeps every other row and column, breaks no
    reference and leaves the schema a fresh database gets; a second start changes nothing."""
    nineteen, broken = tmp_path / "migrations_19", tmp_path / "migrations_20_broken"
    nineteen.mkdir()
    broken.mkdir()
    for number, path in load_migrations():
        if number <= 19:
            shutil.copy(path, nineteen / path.name)
            shutil.copy(path, broken / path.name)
        elif number == 20:
            failing = "-- [both]\nINSERT INTO no_such_table VALUES (1);\nPRAGMA user_version = 20;"
            text = path.read_text(encoding="utf-8").replace("-- [both]\nPRAGMA user_version = 20;", failing)
            assert "no_such_table" in text
            (broken / path.name).write_text(text, encoding="utf-8")

    def write_19() -> Transaction[None]:
        for statement in _V19_ROWS:
            yield count(statement)

    async with Database.open(empty_store, migrations_dir=nineteen) as db:
        assert await db.schema_version() == 19
        await db._transact(write_19)
    before = await _kept(empty_store)
    formats_19 = [("swiss", 0), ("round-robin", 0), ("swiss", 1)]
    assert await _raw(empty_store, "SELECT format, knockout FROM tournaments ORDER BY id") == formats_19

    # a start interrupted within 0020
    with pytest.raises((sqlite3.OperationalError, asyncpg.UndefinedTableError), match="no_such_table"):
        await Database.open(empty_store, migrations_dir=broken)
    assert await _raw(empty_store, "SELECT format, knockout FROM tournaments ORDER BY id") == formats_19
    assert await _kept(empty_store) == before
    if empty_store.startswith("postgresql"):
        assert await _raw(empty_store, "SELECT version FROM schema_version") == [(19,)]
    else:
        index_19 = [o for o in _sqlite_objects(empty_store) if o[1] == "tournaments_open_channel"]
        assert await _raw(empty_store, "PRAGMA user_version") == [(19,)]
        assert "tournaments_0020" not in {name for _, name, _, _ in _sqlite_objects(empty_store)}

    for _ in range(2):  # the upgrade, then a start with nothing to do
        async with Database.open(empty_store) as db:
            assert await db.schema_version() == len(load_migrations())
        assert await _raw(empty_store, "SELECT id, format FROM tournaments ORDER BY id") == [
            (1, "swiss"),
            (2, "round-robin"),
            (3, "knockout"),
        ]
        assert "knockout" not in await _columns(empty_store)
        assert await _kept(empty_store) == before
    if not empty_store.startswith("postgresql"):
        assert await _raw(empty_store, "PRAGMA foreign_key_check") == []
        fresh = tmp_path / "fresh.db"
        async with Database.open(fresh):
            pass
        # tables, the rebuilt one's CHECK, its partial index (0007's, word for word)
        assert _sqlite_objects(empty_store) == _sqlite_objects(fresh)
        assert [o for o in _sqlite_objects(empty_store) if o[1] == "tournaments_open_channel"] == index_19

    async with Database.open(empty_store) as db:
        t = _tournaments(db)
        assert (await t.by_id(3)).format == "knockout"
        assert (await t.by_id(2)).format == "round-robin"
        made = await t.create(
            guild_id=V7_GUILD, channel_id=5, user_id=1, game="blockwars", rounds=None, days=2,
            organiser=True, format="knockout",
        )  # fmt: skip
        assert made.id == 5  # after the highest id ever given, the deleted fourth's too
    assert await _raw(empty_store, "SELECT format FROM tournaments WHERE id = 5") == [("knockout",)]


async def test_a_fresh_store_refuses_a_format_it_does_not_know(store: str):
    """The CHECK of migration 0020 names the three formats, and only them."""
    insert = (
        "INSERT INTO tournaments (guild_id, channel_id, game, name, rounds, round_seconds, status, "
        "created_by, created_at, updated_at, format) VALUES (10, ?, 'blockwars', 'Cup', 2, 86400, "
        "'finished', 1, 0, 0, ?)"
    )

    def write(channel: int, format: str) -> Callable[[], Transaction[int]]:
        return lambda: (yield count(insert, (channel, format)))

    async with Database.open(store) as db:
        for n, known in enumerate(("swiss", "round-robin", "knockout")):
            assert await db._transact(write(n, known)) == 1
        refused = (sqlite3.IntegrityError, asyncpg.CheckViolationError)
        with pytest.raises(refused, match=r"(?i)check constraint"):
            await db._transact(write(9, "league"))
    assert await _raw(store, "SELECT format FROM tournaments ORDER BY id") == [
        ("swiss",),
        ("round-robin",),
        ("knockout",),
    ]

"""Several bot processes side by side on one PostgreSQL database, nothing done twice.

Two real bot processes (started as `python bot.py` starts, tests/reliability/botproc.py), each holding
one of the bot's two shards, behind the fake Discord, which routes each guild's events to the
process holding its shard as Discord does. Games in the guilds of both are played at once; a
deadline falls due while both sweep and is applied once; one process is SIGKILLed under load: no
move its players were answered for is lost, the other process's guilds play on meanwhile, and when it
is back its games continue and the boards it owed are posted.

The two sweeps racing for one deadline in a single process pair (no Discord) is the last test.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import asyncpg

from data import Database
from play import MatchService
from tests import pgserver
from tests.reliability.loadkit import (
    TOKEN,
    BotProcess,
    Driver,
    LoadFake,
    Stats,
    Table,
    answered_moves,
    audit,
    boards_delivered,
    bot_log_problems,
    build_world,
    outbox_drained,
    owed_now,
    resync,
    start_bot_process,
)

SHARDS = 2
TABLES = 6  # three in each shard's guild
SWEEP = 5.0  # the shortest sweep period the settings allow


def shard_of(table: Table) -> int:
    assert table.channel.guild_id is not None
    return (table.channel.guild_id >> 22) % SHARDS


async def play(fake: LoadFake, tables: list[Table], seconds: float, seed: int) -> Stats:
    stats = Stats()
    stop = asyncio.Event()
    until = asyncio.get_running_loop().time() + seconds
    drivers = [Driver(fake, t, stats, stop, seed=seed * 100 + i) for i, t in enumerate(tables)]
    await asyncio.gather(*(d.run(until) for d in drivers))
    return stats


async def sql(url: str, query: str, *args: object) -> list[asyncpg.Record]:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetch(query, *args)
    finally:
        await conn.close()


async def test_two_shard_processes_one_database(tmp_path: Path, pg_url: str) -> None:
    async with asyncio.timeout(240):  # a hang fails here, saying where, instead of stalling the suite
        await two_shard_processes(tmp_path, pg_url)


async def two_shard_processes(tmp_path: Path, pg_url: str) -> None:
    fake = LoadFake(timeout=8.0)
    fake.recommended_shards = SHARDS
    await fake.start()
    procs = {}
    try:
        _, tables = build_world(fake, TABLES, shards=SHARDS)
        mine = {k: [t for t in tables if shard_of(t) == k] for k in range(SHARDS)}
        assert all(len(v) == TABLES // SHARDS for v in mine.values())

        def start(k: int, tag: str) -> Coroutine[Any, Any, BotProcess]:
            env = {"DATABASE_URL": pg_url, "SHARD_COUNT": str(SHARDS), "SHARD_IDS": str(k)}
            return start_bot_process(
                fake, tmp_path / "bot.db", tmp_path, tag=tag, env=env, sweep_seconds=SWEEP, timeout=60
            )

        started = await asyncio.gather(
            *(start(k, f"shard{k}") for k in range(SHARDS)), return_exceptions=True
        )
        procs = {k: p for k, p in enumerate(started) if isinstance(p, BotProcess)}  # stopped in `finally`
        failed = [p for p in started if isinstance(p, BaseException)]
        if failed:
            raise failed[0]
        assert sorted(s for s in fake.shard_connections() if s) == [(0, SHARDS), (1, SHARDS)]

        # 1. a game whose deadline will fall due while both processes sweep (it is applied once)...
        late = mine[0][0]
        await Driver(fake, late, Stats(), asyncio.Event(), seed=0).start_game()
        assert late.match_id is not None
        match_id = late.match_id
        await sql(
            pg_url,
            "UPDATE matches SET deadline = $2::float8, reminder_at = $2::float8 - 1, reminded = 0 "
            "WHERE id = $1",
            match_id,
            time.time() + 0.5,
        )
        forfeit = asyncio.create_task(
            fake.wait_for_messages(
                lambda m: m.channel_id == late.channel.id and "ran out of time" in m.content,
                timeout=3 * SWEEP,
            )
        )
        # 2. ...while the games in the guilds of both processes are played, moves interleaved
        first = await play(fake, [t for t in tables if t is not late], 2.5, seed=1)
        assert first.errors == [], first.errors
        moved = {fake.channels[c].guild_id for c in first.answered_moves.values()}
        assert len(moved) == SHARDS  # both processes answered moves
        assert await forfeit

        # 3. the process of shard 1 is killed under load; shard 0's guild plays on meanwhile
        stats, stops = Stats(), {k: asyncio.Event() for k in range(SHARDS)}
        until = asyncio.get_running_loop().time() + 60
        tasks = {
            k: [
                asyncio.create_task(Driver(fake, t, stats, stops[k], seed=200 + i).run(until))
                for i, t in enumerate(mine[k])
                if t is not late
            ]
            for k in range(SHARDS)
        }
        await asyncio.sleep(1.5 * random.Random(3).uniform(0.7, 1.0))
        procs[1].kill()
        stops[1].set()  # (a cancellation alone can be lost in Python 3.11's wait_for)
        for task in tasks[1]:
            task.cancel()
        await asyncio.wait(tasks[1], timeout=15)
        answered_before = len(answered_moves(fake))
        await asyncio.sleep(1.0)
        stops[0].set()
        await asyncio.wait(tasks[0], timeout=15)
        answered = answered_moves(fake)
        assert len(answered) > answered_before  # shard 0 went on while shard 1 was down
        kill = audit(pg_url, answered)
        assert kill.missing_moves == [] and kill.replay_mismatches == [] and kill.stuck == [], kill
        owed = owed_now(pg_url)
        last_message = max(fake.messages, default=0)

        # 4. shard 1 is back: it posts what it owed, and every game goes on
        procs[1] = await start(1, "shard1-again")
        assert await outbox_drained(pg_url, within=15.0) == 0
        assert {o.channel_id for o in owed} <= boards_delivered(fake, owed, last_message)
        for table in tables:
            await resync(fake, table)
        after = await play(fake, [t for t in tables if t is not late], 1.5, seed=3)
        assert after.errors == [], after.errors
        assert {shard_of(t) for t in tables if t.channel.id in after.answered_moves.values()} == {0, 1}
        final = audit(pg_url, answered_moves(fake))
        assert final.ok, final

        # the deadline was applied once, whatever both processes swept since
        timeouts = await sql(
            pg_url, "SELECT count(*) AS n FROM actions WHERE match_id = $1 AND notation = 'timeout'", match_id
        )
        assert timeouts[0]["n"] == 1
        # (the sweep's notice; a board asked for later may repeat its words)
        notices = [
            m
            for m in fake.messages_in(late.channel)
            if "ran out of time" in m.content and m.kind == "channel"
        ]
        assert len(notices) == 1
    finally:
        await asyncio.gather(*(proc.stop() for proc in procs.values()))
        await fake.stop()
    logs = "".join(p.stderr() for p in procs.values())
    assert bot_log_problems(logs) == []
    assert TOKEN not in logs and pgserver.PASSWORD not in logs


async def test_two_sweeps_racing_for_one_deadline_apply_it_once(pg_url: str) -> None:
    """Two processes that both serve a guild (shards given twice by mistake) sweep the same deadline
    at the same moment: one forfeits the game, the other finds it moved on; a reminder likewise."""
    clock = [1_800_000_000.0]
    a_db, b_db = (
        await Database.open(pg_url, clock=lambda: clock[0]),
        await Database.open(pg_url, clock=lambda: clock[0]),
    )
    try:
        a = MatchService(a_db, clock=lambda: clock[0], rng=random.Random(1))
        b = MatchService(b_db, clock=lambda: clock[0], rng=random.Random(2))
        for channel in (1, 2):
            await a.challenge(
                game="blockwars", guild_id=5, channel_id=channel, challenger_id=10, opponent_id=20
            )
            await a.accept(channel, 20)
        m1, _ = await a.current(1)
        m2, _ = await a.current(2)
        assert m1.reminder_at is not None and m2.deadline is not None
        clock[0] = m1.reminder_at + 1  # both games owe a reminder; then their deadlines pass
        reminders = await asyncio.gather(a.sweep(), b.sweep())
        reminded = sorted(n.match.id for ns in reminders for n in ns if n.kind == "reminder")
        assert reminded == sorted([m1.id, m2.id])  # each once, by one sweep or the other
        clock[0] = m2.deadline + 1
        swept = await asyncio.gather(a.sweep(), b.sweep())
        forfeits = [n for ns in swept for n in ns if n.kind in ("forfeit", "default") and n.match.id == m2.id]
        assert len(forfeits) == 1
        rows = [r.notation for r in await a_db.actions(m2.id)]
        assert rows.count("timeout") + rows.count("abandon") == 1
    finally:
        await a_db.close()
        await b_db.close()

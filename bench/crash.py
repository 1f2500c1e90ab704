"""Crash benchmark (the long version of tests/test_reliability.py); the last line is one JSON object.

    .venv/bin/python bench/crash.py [--cycles 5] [--matches 40] [--seconds 10]
    .venv/bin/python bench/crash.py --database-url postgresql://user:pw@host/db   (an empty database)
    .venv/bin/python bench/crash.py --start-postgres   (a throwaway server from this machine's binaries)
    .venv/bin/python bench/crash.py --start-postgres --shards [--cycles 3] [--matches 40]
    .venv/bin/python bench/crash.py --start-postgres --pg-restart [--cycles 3] [--matches 40]

Each cycle starts the real bot in its own process on the same SQLite file, lets every game play for
about `--seconds`, SIGKILLs the bot at a random moment (moves in flight), then checks the file:
every move the fake Discord received a board for is in the action log, every snapshot equals its
seed + log replayed, every open game has a player to act, a legal action and a deadline. It then
restarts the bot, presses a button of each game's last board from before the crash (it must answer:
the Take-action picker, a new board, or "out of date" when the move had landed but its board had
not been posted), asks for the board again and plays on for a few seconds without a single error.

`--shards` (PostgreSQL): two shard processes (SHARD_COUNT=2), a guild each; each cycle SIGKILLs one
of them under load (in turn), keeps the other's players playing, restarts the killed one and checks:
no answered move lost, none applied twice (every game replays to its snapshot, interaction ids are
unique), every board owed at the kill posted, and the other shard's games never stopped (its moves
while the first was down, and its longest wait between two answered moves).

`--pg-restart` (a server this bench starts): one bot on PostgreSQL; each cycle restarts the server
(`pg_ctl restart -m fast`) under load. Every move caught by it must be answered in friendly words
(the "try again" of a database that cannot be reached, or the game's own "not your turn" / "out of
date" when a cut-off move had landed); the bot must reconnect by itself (the time from the restart to
the first move answered after it is reported) and lose and double nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import logging
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.reliability.loadkit import (
    Answer,
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
    crash_cycle,
    owed_boards,
    owed_now,
    resync,
    start_bot_process,
)

SHARDS = 2
TRY_AGAIN = "cannot reach its database just now"
# What a player caught by a restart may be told: try again, or (their cut-off move had landed) the
# game's own answers to a move made on an older board.
FRIENDLY = (TRY_AGAIN, "It is not your turn", "out of date", "moved on")


class TimedDriver(Driver):
    """A driver that notes when each of its moves was answered (loop time), for gaps in service."""

    def __init__(self, *args: Any, answered_at: list[float], **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.answered_at = answered_at

    def note(self, answer: Answer, *, move: bool) -> None:
        super().note(answer, move=move)
        if move and answer.is_board:
            self.answered_at.append(asyncio.get_running_loop().time())


def _shard_of(table: Table) -> int:
    assert table.channel.guild_id is not None
    return (table.channel.guild_id >> 22) % SHARDS


async def _drained(url: str, channels: set[int], within: float) -> int:
    """Wait until nothing is owed to `channels`; the rows left when the time is up."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while True:
        left = sum(1 for _, c in await asyncio.to_thread(owed_boards, url) if c in channels)
        if left == 0 or loop.time() >= deadline:
            return left
        await asyncio.sleep(0.2)


def _longest_gap(times: list[float], start: float, end: float) -> float:
    marks = [start, *sorted(t for t in times if start <= t <= end), end]
    return max(b - a for a, b in itertools.pairwise(marks))


async def run_shards(cycles: int, matches: int, seconds: float, workdir: Path, url: str) -> dict[str, Any]:
    """Two shard processes; each cycle one is SIGKILLed under load and started again."""
    fake = LoadFake(timeout=10.0)
    fake.recommended_shards = SHARDS
    await fake.start()
    procs: dict[int, BotProcess] = {}
    failures: list[str] = []
    rows: list[dict[str, Any]] = []
    logs = ""

    async def start(k: int, tag: str) -> BotProcess:
        env = {"DATABASE_URL": url, "SHARD_COUNT": str(SHARDS), "SHARD_IDS": str(k)}
        return await start_bot_process(fake, workdir / "bot.db", workdir, tag=tag, env=env)

    try:
        _, tables = build_world(fake, matches, shards=SHARDS)
        mine = {k: [t for t in tables if _shard_of(t) == k] for k in range(SHARDS)}
        for k in range(SHARDS):
            procs[k] = await start(k, f"shard{k}")
        for cycle in range(1, cycles + 1):
            victim, other = (cycle + 1) % SHARDS, cycle % SHARDS
            loop = asyncio.get_running_loop()
            stats, stops = Stats(), {k: asyncio.Event() for k in range(SHARDS)}
            times: dict[int, list[float]] = {k: [] for k in range(SHARDS)}
            until = loop.time() + 3600
            tasks = {
                k: [
                    asyncio.create_task(
                        TimedDriver(
                            fake, t, stats, stops[k], seed=cycle * 1000 + i, answered_at=times[k]
                        ).run(until)
                    )
                    for i, t in enumerate(mine[k])
                ]
                for k in range(SHARDS)
            }
            await asyncio.sleep(seconds * random.Random(cycle).uniform(0.7, 1.0))
            killed_at = loop.time()
            procs[victim].kill()
            logs += procs[victim].stderr()
            stops[victim].set()
            for task in tasks[victim]:
                task.cancel()
            await asyncio.wait(tasks[victim], timeout=15)
            answered = answered_moves(fake)
            kill = audit(url, answered)
            # the boards the victim owed (the other shard's outbox is busy with its own moves)
            theirs = {t.channel.id for t in mine[victim]}
            owed = [o for o in owed_now(url) if o.channel_id in theirs]
            last_message = max(fake.messages, default=0)
            # the victim comes back while the other shard's players go on playing
            procs[victim] = await start(victim, f"shard{victim}-{cycle}")
            back_at = loop.time()
            drained = await _drained(url, theirs, within=15.0)
            posted = boards_delivered(fake, owed, last_message)
            stops[other].set()
            await asyncio.wait(tasks[other], timeout=15)
            for table in mine[victim]:
                await resync(fake, table)
            after = Stats()
            until = loop.time() + min(3.0, seconds)
            await asyncio.gather(
                *(
                    Driver(fake, t, after, asyncio.Event(), seed=cycle * 7 + i).run(until)
                    for i, t in enumerate(tables)
                )
            )
            final = audit(url, answered_moves(fake))
            other_moves_down = sum(1 for t in times[other] if killed_at <= t <= back_at)
            row = {
                "cycle": cycle,
                "killed_shard": victim,
                "answered_moves": len(answered),
                "missing_after_kill": len(kill.missing_moves),
                "replay_mismatches": len(kill.replay_mismatches) + len(final.replay_mismatches),
                "boards_owed_at_kill": len(owed),
                "owed_not_posted": len({o.channel_id for o in owed} - posted) + drained,
                "down_s": round(back_at - killed_at, 1),
                "other_shard_moves_while_down": other_moves_down,
                "other_shard_longest_wait_s": round(_longest_gap(times[other], killed_at, back_at), 2),
                "moves_after_restart": len(after.answered_moves),
                "errors": len(stats.errors) + len(after.errors),
            }
            stuck = final.stuck + kill.stuck
            ok = (
                kill.ok
                and final.ok
                and not row["owed_not_posted"]
                and other_moves_down > 0
                and not after.errors
                and {_shard_of(t) for t in tables if t.channel.id in after.answered_moves.values()} == {0, 1}
            )
            print(f"cycle {cycle}: {row} {'ok' if ok else 'FAILED'}", flush=True)
            if not ok:
                failures.append(
                    f"cycle {cycle}: {row} stuck={stuck[:3]} errors={(stats.errors + after.errors)[:3]}"
                )
            rows.append(row)
    finally:
        for proc in procs.values():
            await proc.stop()
            logs += proc.stderr()
        await fake.stop()
    problems = bot_log_problems(logs)
    return {
        "bench": "crash-shards",
        "store": "postgresql",
        "cycles": cycles,
        "matches": matches,
        "seconds": seconds,
        "answered_moves": max((r["answered_moves"] for r in rows), default=0),
        "missing_moves": sum(r["missing_after_kill"] for r in rows),
        "replay_mismatches": sum(r["replay_mismatches"] for r in rows),
        "owed_boards_not_posted": sum(r["owed_not_posted"] for r in rows),
        "other_shard_moves_while_down": sum(r["other_shard_moves_while_down"] for r in rows),
        "other_shard_longest_wait_s": max((r["other_shard_longest_wait_s"] for r in rows), default=0.0),
        "log_problems": len(problems),
        "ok": not failures and not problems,
        "failures": failures[:3] + problems[:3],
        "cycles_detail": rows,
        "date": time.strftime("%Y-%m-%d"),
    }


async def run_pg_restart(
    cycles: int, matches: int, seconds: float, workdir: Path, server: Any
) -> dict[str, Any]:
    """One bot on PostgreSQL; each cycle the server is restarted (fast) under load."""
    url = server.url()
    fake = LoadFake(timeout=30.0)
    await fake.start()
    bot = None
    failures: list[str] = []
    rows: list[dict[str, Any]] = []
    try:
        _, tables = build_world(fake, matches)
        bot = await start_bot_process(fake, workdir / "bot.db", workdir, env={"DATABASE_URL": url})
        for cycle in range(1, cycles + 1):
            loop = asyncio.get_running_loop()
            stats = Stats()
            times: list[float] = []
            stop = asyncio.Event()
            until = loop.time() + seconds * 2
            tasks = [
                asyncio.create_task(
                    TimedDriver(fake, t, stats, stop, seed=cycle * 1000 + i, answered_at=times).run(until)
                )
                for i, t in enumerate(tables)
            ]
            await asyncio.sleep(seconds * random.Random(cycle).uniform(0.5, 0.8))
            restart_at = loop.time()
            await asyncio.to_thread(
                server.restart
            )  # every session cut off, the server back in about a second
            up_at = loop.time()
            await asyncio.gather(*tasks)
            answered = answered_moves(fake)
            checked = audit(url, answered)
            try_again = sum(1 for e in stats.errors if TRY_AGAIN in e)
            odd = [e for e in stats.errors if not any(words in e for words in FRIENDLY)]
            first_after = min((t for t in times if t > up_at), default=None)
            row = {
                "cycle": cycle,
                "answered_moves": len(answered),
                "server_down_s": round(up_at - restart_at, 2),
                "told_try_again": try_again,
                "other_friendly_refusals": len(stats.errors) - try_again - len(odd),
                "unfriendly": len(odd),
                "first_move_after_restart_s": None if first_after is None else round(first_after - up_at, 2),
                "moves_after_restart": sum(1 for t in times if t > up_at),
                "missing_moves": len(checked.missing_moves),
                "replay_mismatches": len(checked.replay_mismatches),
                "stuck": len(checked.stuck),
            }
            ok = checked.ok and not odd and first_after is not None
            print(f"cycle {cycle}: {row} {'ok' if ok else 'FAILED'}", flush=True)
            if not ok:
                failures.append(f"cycle {cycle}: {row} odd={odd[:3]} stuck={checked.stuck[:3]}")
            rows.append(row)
    finally:
        if bot is not None:
            await bot.stop()
        await fake.stop()
    log = bot.stderr() if bot is not None else ""
    problems = bot_log_problems(log)
    return {
        "bench": "crash-pg-restart",
        "store": "postgresql",
        "cycles": cycles,
        "matches": matches,
        "seconds": seconds,
        "answered_moves": max((r["answered_moves"] for r in rows), default=0),
        "told_try_again": sum(r["told_try_again"] for r in rows),
        "unfriendly_answers": sum(r["unfriendly"] for r in rows),
        "missing_moves": sum(r["missing_moves"] for r in rows),
        "replay_mismatches": sum(r["replay_mismatches"] for r in rows),
        "first_move_after_restart_max_s": max(
            (r["first_move_after_restart_s"] or 0.0 for r in rows), default=0.0
        ),
        "log_problems": len(problems),
        "ok": not failures and not problems,
        "failures": failures[:3] + problems[:3],
        "cycles_detail": rows,
        "date": time.strftime("%Y-%m-%d"),
    }


async def run(
    cycles: int, matches: int, seconds: float, workdir: Path, database_url: str | None = None
) -> dict[str, object]:
    fake = LoadFake(timeout=10.0)
    await fake.start()
    db = workdir / "crash.db"
    env = {"DATABASE_URL": database_url} if database_url else None
    failures: list[str] = []
    totals = {
        "answered": 0,
        "lost_in_flight": 0,
        "owed_at_kill": 0,
        "owed_undelivered": 0,
        "owed_found": 0,
        "owed_twice": 0,
        "buttons_clicked": 0,
        "buttons_opened": 0,
        "moves_after": 0,
    }
    try:
        _, tables = build_world(fake, matches)
        for cycle in range(1, cycles + 1):
            started = time.perf_counter()
            report = await crash_cycle(
                fake, tables, db, workdir, load_s=seconds, after_s=min(3.0, seconds), seed=cycle, env=env
            )
            kill = report.audit_after_kill
            in_flight = report.lost_in_flight
            print(
                f"cycle {cycle}: {report.answered} answered moves so far, {in_flight} "
                f"interaction{'' if in_flight == 1 else 's'} cut off by the kill, "
                f"{report.owed_at_kill} board{'' if report.owed_at_kill == 1 else 's'} owed "
                f"({len(report.owed_undelivered)} not posted after the restart; {report.owed_found} "
                f"posted before the kill, {len(report.owed_twice)} of them posted again); "
                f"after it: missing {len(kill.missing_moves)}, "
                f"replay mismatches {len(kill.replay_mismatches)}, stuck {len(kill.stuck)}; "
                f"old buttons {report.buttons_worked}/{report.buttons_clicked} answered "
                f"({report.buttons_opened} opened the flow); {report.moves_after} moves after restart; "
                f"{'ok' if report.ok else 'FAILED'} ({time.perf_counter() - started:.1f} s)",
                flush=True,
            )
            if not report.ok:
                failures.append(f"cycle {cycle}: {report}")
            totals["answered"] = report.answered
            totals["lost_in_flight"] += report.lost_in_flight
            totals["owed_at_kill"] += report.owed_at_kill
            totals["owed_undelivered"] += len(report.owed_undelivered)
            totals["owed_found"] += report.owed_found
            totals["owed_twice"] += len(report.owed_twice)
            totals["buttons_clicked"] += report.buttons_clicked
            totals["buttons_opened"] += report.buttons_opened
            totals["moves_after"] += report.moves_after
    finally:
        await fake.stop()
    final = audit(database_url or db)
    cut = [e for e in fake.server_errors if "Connection lost" in e or "ConnectionReset" in e]
    other = [e for e in fake.server_errors if e not in cut] + [str(u) for u in fake.unhandled]
    return {
        "bench": "crash",
        "store": "postgresql" if database_url else "sqlite",
        "cycles": cycles,
        "matches": matches,
        "seconds": seconds,
        "answered_moves": totals["answered"],
        "logged_actions": final.actions,
        "interactions_cut_by_kills": totals["lost_in_flight"],
        "uploads_cut_by_kills": len(cut),
        "boards_owed_at_kills": totals["owed_at_kill"],
        "owed_boards_not_posted": totals["owed_undelivered"],
        "owed_boards_posted_before_kill": totals["owed_found"],
        "owed_boards_posted_twice": totals["owed_twice"],
        "old_buttons_clicked": totals["buttons_clicked"],
        "old_buttons_opened_flow": totals["buttons_opened"],
        "moves_after_restarts": totals["moves_after"],
        "failed_cycles": len(failures),
        "fake_errors": len(other),
        "ok": not failures and not other and final.ok,
        "failures": [f[:500] for f in failures[:3]] + other[:3],
        "date": time.strftime("%Y-%m-%d"),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description="SIGKILL the bot mid-load, restart, check nothing was lost.")
    parser.add_argument("--cycles", type=int, default=5)
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--database-url", help="an empty PostgreSQL database instead of an SQLite file")
    parser.add_argument(
        "--start-postgres",
        action="store_true",
        help="a throwaway PostgreSQL server from this machine's binaries",
    )
    parser.add_argument(
        "--shards", action="store_true", help="two shard processes on PostgreSQL: kill one under load"
    )
    parser.add_argument(
        "--pg-restart",
        action="store_true",
        help="restart the PostgreSQL server this bench starts, under load",
    )
    args = parser.parse_args()
    if (args.shards or args.pg_restart) and not (args.start_postgres or (args.shards and args.database_url)):
        raise SystemExit(
            "--shards needs PostgreSQL (--start-postgres or --database-url); "
            "--pg-restart needs --start-postgres"
        )
    # An upload cut off by the kill makes the fake log a traceback; it is counted, not printed.
    logging.getLogger("tests.fakediscord.server").setLevel(logging.CRITICAL)
    server = None
    url = args.database_url
    if args.start_postgres:
        from tests import pgserver

        server = pgserver.start_for_bench()
        url = server.url()
    try:
        with tempfile.TemporaryDirectory(prefix="bw-crash-") as tmp:
            if args.shards:
                assert url is not None
                figures = asyncio.run(run_shards(args.cycles, args.matches, args.seconds, Path(tmp), url))
            elif args.pg_restart:
                figures = asyncio.run(
                    run_pg_restart(args.cycles, args.matches, args.seconds, Path(tmp), server)
                )
            else:
                figures = asyncio.run(run(args.cycles, args.matches, args.seconds, Path(tmp), url))
    finally:
        if server is not None:
            server.stop()
    print(json.dumps(figures))
    return 0 if figures["ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main())

"""Crash benchmark (the long version of tests/test_reliability.py); the last line is one JSON object.

    .venv/bin/python bench/crash.py [--cycles 5] [--matches 40] [--seconds 10]
    .venv/bin/python bench/crash.py --database-url postgresql://user:pw@host/db   (an empty database)
    .venv/bin/python bench/crash.py --start-postgres   (a throwaway server from this machine's binaries)

Each cycle starts the real bot in its own process on the same SQLite file, lets every game play for
about `--seconds`, SIGKILLs the bot at a random moment (moves in flight), then checks the file:
every move the fake Discord received a board for is in the action log, every snapshot equals its
seed + log replayed, every open game has a player to act, a legal action and a deadline. It then
restarts the bot, presses a button of each game's last board from before the crash (it must answer:
the Take-action picker, a new board, or "out of date" when the move had landed but its board had
not been posted), asks for the board again and plays on for a few seconds without a single error.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.reliability.loadkit import LoadFake, audit, build_world, crash_cycle


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
                f"({len(report.owed_undelivered)} not posted after the restart); "
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
    args = parser.parse_args()
    # An upload cut off by the kill makes the fake log a traceback; it is counted, not printed.
    logging.getLogger("tests.fakediscord.server").setLevel(logging.CRITICAL)
    server = None
    url = args.database_url
    if args.start_postgres:
        from tests import pgserver

        binaries = pgserver.find_binaries()
        if binaries is None:
            raise SystemExit(f"--start-postgres: {pgserver.SEARCHED} hold no PostgreSQL server")
        server = pgserver.PgServer(binaries, durable=True).start()  # fsync on, as in production
        url = server.url()
    try:
        with tempfile.TemporaryDirectory(prefix="bw-crash-") as tmp:
            figures = asyncio.run(run(args.cycles, args.matches, args.seconds, Path(tmp), url))
    finally:
        if server is not None:
            server.stop()
    print(json.dumps(figures))
    return 0 if figures["ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main())

"""Crashes and stops: the real bot in a process of its own, started by `bot.main` as `python bot.py`
starts it, SIGKILLed in the middle of play and restarted on the same database file (nothing the
players were told happened may be missing afterwards), or stopped with SIGTERM (a clean stop).

The long version (several cycles, more games) is `bench/crash.py`; the fuzzing of bad input is in
`tests/test_fuzz_bot.py`. Both drive the bot only through the fake Discord.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from tests.reliability.loadkit import (
    ROOT,
    TOKEN,
    Driver,
    LoadFake,
    Stats,
    audit,
    bot_log_problems,
    build_world,
    crash_cycle,
    start_bot_process,
)

MATCHES = 6


async def test_sigkill_in_the_middle_of_play_loses_nothing(tmp_path: Path) -> None:
    fake = LoadFake(timeout=8.0)
    await fake.start()
    try:
        _, tables = build_world(fake, MATCHES)
        db = tmp_path / "crash.db"
        report = await crash_cycle(
            fake,
            tables,
            db,
            tmp_path,
            load_s=4.0,
            after_s=2.0,
            seed=1,
            log_level="DEBUG",
            least_answered=MATCHES * 3,
        )
    finally:
        await fake.stop()

    # the kill really happened mid-play: moves had been answered, at least one was still in flight
    assert report.answered >= MATCHES * 3, report
    # every move the fake got a board for is in the log; every snapshot equals seed + log replayed;
    # every open game has a player to act, a legal action and a deadline
    kill = report.audit_after_kill
    assert kill.missing_moves == [] and kill.replay_mismatches == [] and kill.stuck == [], kill
    assert kill.open_matches >= MATCHES - 2  # a game may just have ended
    # buttons posted before the crash still answer after it (the picker, a board, or "out of date")
    # (a board whose decision is a select has no button to press; the selects are fuzzed elsewhere)
    assert report.buttons_clicked >= MATCHES // 2 and report.button_failures == [], report
    assert report.buttons_opened >= 1, report
    # each board the kill kept from its channel (its move stored, its post cut off) arrives after
    # the restart, before anyone moves again, and the outbox is empty
    assert report.owed_undelivered == [] and report.owed_left == 0, report
    # and one the kill let out before its record (a follow-up's: no nonce) is not posted again
    assert report.owed_twice == [], report
    # and the games go on
    assert report.moves_after >= MATCHES and report.errors_after == [], report.errors_after
    assert report.audit_after_restart.ok, report.audit_after_restart
    # no error or traceback in the bot's log (DEBUG level), and never the token
    assert report.log_problems == [] and not report.token_leaked
    # the board painters (worker processes on a multi-core machine) die with the bot, not after it
    assert report.orphans == [], report.orphans
    # the fake may see an upload cut off by the kill (connection lost); nothing else may go wrong
    cut = [e for e in fake.server_errors if "Connection lost" in e or "ConnectionReset" in e]
    assert len(cut) <= MATCHES and [e for e in fake.server_errors if e not in cut] == []
    assert fake.unhandled == [] and fake.bad_pngs == 0
    assert audit(db).matches == MATCHES


async def test_sigterm_stops_the_bot_cleanly(tmp_path: Path) -> None:
    """`docker stop` sends SIGTERM: the bot stops taking interactions, lets its work finish, closes the
    database (its write-ahead log is folded back, as only a clean close does) and exits 0."""
    fake = LoadFake(timeout=8.0)
    await fake.start()
    db = tmp_path / "stop.db"
    try:
        _, tables = build_world(fake, 2)
        bot = await start_bot_process(fake, db, tmp_path, tag="stop")
        stats = Stats()
        stop = asyncio.Event()
        drivers = [Driver(fake, table, stats, stop, seed=n) for n, table in enumerate(tables)]
        await asyncio.gather(*(d.run(asyncio.get_running_loop().time() + 3.0) for d in drivers))
        assert stats.answered_moves, stats.errors
        bot.signal(signal.SIGTERM)
        code = await asyncio.to_thread(bot.proc.wait, 20)
    finally:
        await fake.stop()
    log = bot.stderr()
    assert code == 0, log[-2000:]
    assert "Stopping: no new interactions" in log and "Stopped cleanly." in log
    assert bot_log_problems(log) == [] and TOKEN not in log
    assert closed_cleanly(db)
    assert audit(db).ok


def closed_cleanly(db: Path) -> bool:
    """SQLite folds the write-ahead log back into the file when the last connection closes."""
    wal = Path(f"{db}-wal")
    folded = not wal.exists() or wal.stat().st_size == 0  # looked at before anyone opens the file
    conn = sqlite3.connect(db)
    try:
        intact = conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    finally:
        conn.close()
    return folded and intact


def _run_bot(tmp_path: Path, code: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`bot.main()`, the entry point of `python bot.py`, in a process of its own with this environment."""
    full = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "RENDER_", "POSTING_"))}
    full |= {"PYTHONPATH": str(ROOT), "DATABASE_PATH": str(tmp_path / "main.db"), **env}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=full, capture_output=True, text=True, timeout=60
    )


def test_main_takes_every_setting_from_the_environment(tmp_path: Path) -> None:
    """The bot `python bot.py` builds has the settings of its environment, all of them."""
    code = (
        "import json, bot\n"
        "async def hook(b):\n"
        "    s = b.settings\n"
        "    print(json.dumps({'render': s.render_processes, 'painter': b.painter.processes,\n"
        "        'slots': s.posting_slots, 'http': s.http_connections, 'db': str(s.database_path),\n"
        "        'sweep': s.sweep_seconds, 'budget': s.ai_budget_seconds, 'sync': s.sync_commands}))\n"
        "    raise SystemExit(3)\n"
        "bot.main(['--sync'], on_start=hook)\n"
    )
    proc = _run_bot(
        tmp_path,
        code,
        DISCORD_TOKEN=TOKEN,
        RENDER_PROCESSES="2",
        POSTING_SLOTS="3",
        HTTP_CONNECTIONS="7",
        SWEEP_SECONDS="30",
        AI_BUDGET_SECONDS="0.5",
    )
    assert proc.returncode == 3, proc.stderr
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    assert seen == {
        "render": 2,
        "painter": 2,
        "slots": 3,
        "http": 7,
        "db": str(tmp_path / "main.db"),
        "sweep": 30.0,
        "budget": 0.5,
        "sync": True,
    }
    assert TOKEN not in proc.stdout + proc.stderr


def test_without_a_network_the_bot_says_so_in_one_line(tmp_path: Path) -> None:
    """A token but no way to Discord: one line saying so, no traceback, exit 1."""
    code = (
        "import sys\n"
        "from tests.reliability.botproc import patch_discord\n"
        "patch_discord('http://127.0.0.1:9/api/v10', 'ws://127.0.0.1:9/')\n"  # the discard port: refused
        "import bot\n"
        "sys.exit(bot.main([]))\n"
    )
    proc = _run_bot(tmp_path, code, DISCORD_TOKEN=TOKEN, RENDER_PROCESSES="0")
    assert proc.returncode == 1, proc.stderr
    assert "Discord cannot be reached" in proc.stderr and "Check the network" in proc.stderr
    assert "Traceback" not in proc.stderr and TOKEN not in proc.stderr
    assert len([ln for ln in proc.stderr.splitlines() if "ERROR" in ln]) == 1

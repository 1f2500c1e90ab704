"""Crashes: the real bot in a process of its own, SIGKILLed in the middle of play, restarted on the
same database file. Nothing the players were told happened may be missing afterwards.

The long version (several cycles, more games) is `bench/crash.py`; the fuzzing of bad input is in
`tests/test_fuzz_bot.py`. Both drive the bot only through the fake Discord.
"""

from __future__ import annotations

from pathlib import Path

from tests.reliability.loadkit import LoadFake, audit, build_world, crash_cycle

MATCHES = 6


async def test_sigkill_in_the_middle_of_play_loses_nothing(tmp_path: Path) -> None:
    fake = LoadFake(timeout=8.0)
    await fake.start()
    try:
        _, tables = build_world(fake, MATCHES)
        db = tmp_path / "crash.db"
        report = await crash_cycle(
            fake, tables, db, tmp_path, load_s=4.0, after_s=2.0, seed=1, log_level="DEBUG"
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

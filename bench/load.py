"""Load benchmark: the real bot, in its own process, hosting `--matches` games at once through the fake
Discord for `--seconds`; the last line printed is one JSON object of figures.

    .venv/bin/python bench/load.py [--matches 200] [--seconds 60] [--ramp 1] [--profile bot.prof]

Each channel has two players. After the warm-up (every game challenged and accepted), the tables'
first actions are spread over `--ramp` seconds (default 1; 0 = all at one instant), then both
players of every game act as soon as the bot has answered: set-up and decisions through the buttons and
selects on the latest board, ordinary turns by asking autocomplete what is legal and sending that
slash command. Every move is answered with a new board PNG.

Measured: moves per second (actions that got their board back within the window), latency from
INTERACTION_CREATE to the interaction's answer (Discord's 3-second rule: "thinking…" for a move)
and to the board (p50/p95/p99; in this closed loop the board's mean is games / moves per second,
Little's law, whatever the bot does), errors (any refusal of a legal action, any timeout,
any ERROR or traceback in the bot's log, any request the fake could not route), the bot process's
peak RSS and the longest stall of its event loop in the window. Afterwards the database is audited:
every answered move is logged, every snapshot equals its replay, no open game is stuck.

Targets on the project's 2-core machine: >= 100 moves/s, answer p99 < 500 ms, 0 errors, < 300 MB (bot and
its board-drawing processes), loop stall < 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import resource
import signal
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.reliability.loadkit import (
    TOKEN,
    Driver,
    LoadFake,
    Stats,
    audit,
    bot_log_problems,
    build_world,
    percentile,
    start_bot_process,
    start_control,
)

TARGETS = {
    "moves_per_s": 100.0,
    "answer_p99_ms": 500.0,
    "errors": 0,
    "peak_rss_mb": 300.0,
    "max_loop_stall_ms": 50.0,
}


async def run(
    matches: int, seconds: float, profile: Path | None, workdir: Path, ramp: float = 1.0
) -> dict[str, object]:
    fake = LoadFake(timeout=10.0)
    await fake.start()
    _, tables = build_world(fake, matches)
    db = workdir / "load.db"
    bot = await start_bot_process(fake, db, workdir, profile=profile)
    control = start_control(workdir)
    stats = Stats()
    stop = asyncio.Event()
    drivers = [Driver(fake, t, stats, stop, seed=i) for i, t in enumerate(tables)]
    try:
        warm = time.perf_counter()
        results = await asyncio.gather(*(d.start_game() for d in drivers), return_exceptions=True)
        for r in results:
            if isinstance(r, BaseException):
                stats.error(f"warm-up: {r!r}")
        warm_s = time.perf_counter() - warm
        before = bot.stats()
        bench_cpu0 = time.process_time()
        bot.signal(signal.SIGUSR1)  # the stall window starts now
        control.signal(signal.SIGUSR1)
        await asyncio.sleep(0.05)
        stats.counting = True
        loop = asyncio.get_running_loop()
        started = time.perf_counter()
        until = loop.time() + seconds
        # ramp-up: the tables' first actions are spread over `ramp` seconds, as real players never
        # all click in the same instant; from then on each acts as soon as it is answered
        await asyncio.gather(*(d.run(until, delay=ramp * i / matches) for i, d in enumerate(drivers)))
        elapsed = time.perf_counter() - started
        stats.counting = False
        bench_cpu = time.process_time() - bench_cpu0
        during = bot.stats()
        noise = control.stats()
    finally:
        final = await bot.stop()
        await control.stop()
        await fake.stop()
    log_text = bot.stderr()
    problems = bot_log_problems(log_text)
    checked = audit(db, stats.answered_moves)
    errors = len(stats.errors) + len(problems) + len(fake.unhandled) + len(fake.server_errors) + fake.bad_pngs
    lat = [x * 1000 for x in stats.move_latencies]
    acks = [x * 1000 for x in stats.move_acks]
    other = [x * 1000 for x in stats.other_latencies]
    bot_cpu = float(during.get("cpu_s", 0)) - float(before.get("cpu_s", 0))
    painter_cpu = float(during.get("workers_cpu_s", 0)) - float(before.get("workers_cpu_s", 0))
    moves = max(stats.window_moves, 1)
    return {
        "bench": "load",
        "render_processes": during.get("render_processes"),
        "matches": matches,
        "seconds": round(elapsed, 1),
        "ramp_s": ramp,
        "moves": stats.window_moves,
        "moves_per_s": round(stats.window_moves / elapsed, 1),
        # the interaction's response (Discord's 3-s rule): "thinking…", or a refusal, or a prompt
        "answer_p50_ms": round(percentile(acks, 50), 1),
        "answer_p95_ms": round(percentile(acks, 95), 1),
        "answer_p99_ms": round(percentile(acks, 99), 1),
        "answer_max_ms": round(max(acks, default=0.0), 1),
        # until the board is posted: tables / (boards per second) in this closed loop (Little's law)
        "board_p50_ms": round(percentile(lat, 50), 1),
        "board_p95_ms": round(percentile(lat, 95), 1),
        "board_p99_ms": round(percentile(lat, 99), 1),
        "board_max_ms": round(max(lat, default=0.0), 1),
        "autocomplete_p50_ms": round(percentile(other, 50), 1),
        "autocomplete_p99_ms": round(percentile(other, 99), 1),
        "errors": errors,
        "peak_rss_mb": round(
            float(final.get("peak_rss_mb", 0)) + float(final.get("workers_peak_rss_mb", 0)), 1
        ),
        "bot_process_peak_rss_mb": final.get("peak_rss_mb"),
        "painter_processes_peak_rss_mb": final.get("workers_peak_rss_mb"),
        "max_loop_stall_ms": during.get("window_max_loop_stall_ms"),
        "stalls_over_50ms": during.get("window_stalls_over_50ms"),
        "stalls_over_30ms_at_s_ms": during.get("window_stalls_over_30ms"),  # (s into the window, ms)
        "control_max_stall_ms": noise.get("window_max_loop_stall_ms"),
        "max_gc_pause_ms": during.get("window_max_gc_ms"),
        "bot_cpu_share": round(bot_cpu / elapsed, 2),
        "driver_cpu_share": round(bench_cpu / elapsed, 2),
        "painters_cpu_share": round(painter_cpu / elapsed, 2),
        # CPU per move, whatever else the machine is doing: 2 cores / the sum is the ceiling here
        "bot_cpu_ms_per_move": round(bot_cpu / moves * 1000, 2),
        "painters_cpu_ms_per_move": round(painter_cpu / moves * 1000, 2),
        "driver_cpu_ms_per_move": round(bench_cpu / moves * 1000, 2),
        "warmup_s": round(warm_s, 1),
        "games_finished": stats.games_finished,
        "pngs": fake.pngs,
        "audit_ok": checked.ok,
        "audited_actions": checked.actions,
        "token_in_log": TOKEN in log_text,
        "error_samples": (stats.errors + problems + [str(u) for u in fake.unhandled])[:5],
        "driver_peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "python": platform.python_version(),
        "date": time.strftime("%Y-%m-%d"),
        "audit": {
            "missing_moves": len(checked.missing_moves),
            "replay_mismatches": len(checked.replay_mismatches),
            "stuck": checked.stuck[:5],
        },
    }


def main() -> int:
    parser = argparse.ArgumentParser(description="Load benchmark of the bot through the fake Discord.")
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--profile", type=Path, default=None, help="cProfile the bot process into this file")
    parser.add_argument("--keep", action="store_true", help="keep the work directory (db, bot log)")
    parser.add_argument(
        "--ramp", type=float, default=1.0, help="spread the tables' first actions over this many seconds"
    )
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="bw-load-"))
    figures = asyncio.run(run(args.matches, args.seconds, args.profile, workdir, args.ramp))
    rows = [
        ("moves per second", figures["moves_per_s"], f">= {TARGETS['moves_per_s']:.0f}"),
        ("answer latency p50 (ms)", figures["answer_p50_ms"], ""),
        ("answer latency p95 (ms)", figures["answer_p95_ms"], ""),
        ("answer latency p99 (ms)", figures["answer_p99_ms"], f"< {TARGETS['answer_p99_ms']:.0f}"),
        ("board latency p50 (ms)", figures["board_p50_ms"], "games / moves per s"),
        ("board latency p99 (ms)", figures["board_p99_ms"], ""),
        ("autocomplete p99 (ms)", figures["autocomplete_p99_ms"], ""),
        ("errors", figures["errors"], "0"),
        ("peak RSS, bot + painters (MB)", figures["peak_rss_mb"], f"< {TARGETS['peak_rss_mb']:.0f}"),
        ("longest loop stall (ms)", figures["max_loop_stall_ms"], f"< {TARGETS['max_loop_stall_ms']:.0f}"),
        ("same, idle control process (ms)", figures["control_max_stall_ms"], "machine noise"),
        ("bot CPU share (cores)", figures["bot_cpu_share"], ""),
        ("painter processes CPU share", figures["painters_cpu_share"], ""),
        ("driver+fake CPU share", figures["driver_cpu_share"], ""),
        ("CPU ms per move: bot", figures["bot_cpu_ms_per_move"], ""),
        ("CPU ms per move: painters", figures["painters_cpu_ms_per_move"], ""),
        ("CPU ms per move: driver+fake", figures["driver_cpu_ms_per_move"], ""),
        ("audit: log, replay, not stuck", "ok" if figures["audit_ok"] else "FAILED", "ok"),
    ]
    print(f"{args.matches} matches, {figures['seconds']} s, {figures['moves']} moves")
    for name, value, target in rows:
        print(f"  {name:<32} {value!s:>10}   {target}")
    errors = figures["error_samples"]
    assert isinstance(errors, list)
    if errors:
        print("  first errors:", *errors, sep="\n    ")
    if args.keep:
        print(f"  work directory kept: {workdir}")
    else:
        for path in sorted(workdir.glob("*")):
            path.unlink()
        workdir.rmdir()
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

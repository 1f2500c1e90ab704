"""Load benchmark: the real bot, in its own process, hosting `--matches` games at once through the fake
Discord for `--seconds`; the last line printed is one JSON object of figures.

    .venv/bin/python bench/load.py [--matches 200] [--seconds 60] [--ramp 1] [--profile bot.prof]
    .venv/bin/python bench/load.py --ai-games 20 [--ai-game fixbayonets|all] [--ai-level hard]
    .venv/bin/python bench/load.py --database-url postgresql://user:pw@host/db [--seconds 30]
    .venv/bin/python bench/load.py --start-postgres [--seconds 30] [--pg-delay-ms 1]
    .venv/bin/python bench/load.py --mix [--seconds 30]

With a PostgreSQL server (`--database-url`, whose user may create databases, or `--start-postgres`:
a throwaway server from this machine's binaries, with fsync on as in production), the same load runs
three times in one go: on SQLite (one process), on PostgreSQL (one process), and on PostgreSQL with
two shard processes (SHARD_COUNT=2, a guild per shard); each run gets a database of its own, created
and dropped on that server. The last line then holds every run's figures.

With `--pg-delay-ms D` the PostgreSQL runs reach the server through bench/pgproxy.py (its own
process, on 127.0.0.1), which counts every round trip (figures: `pg_round_trips_per_move`) and
delays each by D ms, as a database across a network would (0: counted only). With
`--start-postgres` the server's own CPU per move is reported too (`postgres_cpu_ms_per_move`).

With `--mix` the games are spread over every registered game in turn (the registry's order), each
played by two people through the commands, buttons, selects and "My hand" a player uses; the
figures come per game (`per_game`) and overall. Without it every game is Block Wars.

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

With `--ai-games N`, N more channels each hold a game against the bot's own AI at `--ai-level`
(hard by default) in `--ai-game` (any registered game; Fix Bayonets by default, whose hard level
searches 400 playouts a decision, up to about 0.4 s of CPU, where Block Wars' hard plans a turn in
hundredths; `all` spreads them over every registered game in turn, with the AI's turn reported per
game in `ai_per_game`): a player
challenges the bot, plays any legal action autocomplete offers with `/<game> play`, and waits for
the AI's board. The AI thinks in its worker processes (`AI_PROCESSES`), so the figures that matter
are the human games' answer latency and the bot's loop stall beside it; the AI's turn (from the
player's board to the board giving the turn back, queueing included) is reported too.

Targets on the project's 2-core machine: >= 100 moves/s, answer p99 < 500 ms, 0 errors, < 300 MB (bot and
its board-drawing processes), loop stall < 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import resource
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yarl

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import registry
from tests.reliability.loadkit import (
    TOKEN,
    AiDriver,
    BotProcess,
    Driver,
    LoadFake,
    MixDriver,
    Stats,
    Store,
    audit,
    bot_log_problems,
    build_world,
    percentile,
    spawn,
    start_bot_process,
    start_control,
)

ALL_GAMES = "all"  # --ai-game all: the AI games spread over every registered game

TARGETS = {
    "moves_per_s": 100.0,
    "answer_p99_ms": 500.0,
    "errors": 0,
    "peak_rss_mb": 300.0,
    "max_loop_stall_ms": 50.0,
}


def postgres_cpu_s(data_dir: Path | None) -> float | None:
    """CPU seconds the PostgreSQL server at `data_dir` spent so far: the postmaster, its live
    children (the backends of the pools) and the children it reaped. None if it cannot be read."""
    if data_dir is None:
        return None
    try:
        postmaster = int((data_dir / "postmaster.pid").read_text().split()[0])
        ticks = os.sysconf("SC_CLK_TCK")
        total = 0.0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            pid, ppid = int(stat.parent.name), int(fields[1])
            if pid == postmaster:
                total += sum(int(f) for f in fields[11:15]) / ticks  # utime stime cutime cstime
            elif ppid == postmaster:
                total += (int(fields[11]) + int(fields[12])) / ticks
        return total
    except (OSError, ValueError, IndexError):
        return None


def _sum(figures: list[dict[str, Any]], key: str) -> float:
    return sum(float(f.get(key) or 0) for f in figures)


def _max(figures: list[dict[str, Any]], key: str) -> float:
    return max((float(f.get(key) or 0) for f in figures), default=0.0)


async def run(
    matches: int,
    seconds: float,
    profile: Path | None,
    workdir: Path,
    ramp: float = 1.0,
    database_url: str | None = None,
    shards: int = 1,
    ai_games: int = 0,
    ai_game: str = "fixbayonets",
    ai_level: str = "hard",
    proxy: BotProcess | None = None,
    mix: bool = False,
    pg_data: Path | None = None,
) -> dict[str, object]:
    """One load run: SQLite, or PostgreSQL at `database_url`, served by `shards` bot processes;
    `proxy` is the bench/pgproxy.py process in between, whose round trips are counted."""
    fake = LoadFake(timeout=10.0)
    await fake.start()
    _, tables = build_world(fake, matches + ai_games, shards=shards if shards > 1 else None)
    db = workdir / "load.db"
    store: Store = database_url or db
    env = {"DATABASE_URL": database_url} if database_url else {}
    bots = [
        await start_bot_process(
            fake,
            db,
            workdir,
            tag=f"bot{k}",
            profile=profile.with_suffix(f".{k}{profile.suffix}") if profile and shards > 1 else profile,
            env=env | ({"SHARD_COUNT": str(shards), "SHARD_IDS": str(k)} if shards > 1 else {}),
        )
        for k in range(shards)
    ]
    control = start_control(workdir)
    stats = Stats()
    stop = asyncio.Event()
    ai_turns: list[float] = []
    by_game: dict[str, Stats] = {}
    drivers: list[Driver]
    if mix:
        # every registered game in turn, table by table: the games come from the registry, so a new
        # game joins the mix by being registered
        games = list(registry.names())
        by_game = {name: Stats() for name in games}
        drivers = []
        for i, t in enumerate(tables[:matches]):
            name = games[i % len(games)]
            drivers.append(MixDriver(fake, t, stats, stop, seed=i, game=name, mine=by_game[name]))
    else:
        drivers = [Driver(fake, t, stats, stop, seed=i) for i, t in enumerate(tables[:matches])]
    # `all`: the AI games go round every registered game in turn, as `--mix` does for people
    ai_names = list(registry.names()) if ai_game == ALL_GAMES else [ai_game]
    ai_by_game: dict[str, list[float]] = {name: [] for name in ai_names}
    drivers += [
        AiDriver(
            fake,
            t,
            stats,
            stop,
            seed=matches + i,
            game=ai_names[i % len(ai_names)],
            level=ai_level,
            ai_turns=ai_turns,
            mine=ai_by_game[ai_names[i % len(ai_names)]],
        )
        for i, t in enumerate(tables[matches:])
    ]
    try:
        warm = time.perf_counter()
        results = await asyncio.gather(*(d.start_game() for d in drivers), return_exceptions=True)
        for r in results:
            if isinstance(r, BaseException):
                stats.error(f"warm-up: {r!r}")
        warm_s = time.perf_counter() - warm
        before = [bot.stats() for bot in bots]
        bench_cpu0 = time.process_time()
        for bot in bots:
            bot.signal(signal.SIGUSR1)  # the stall window starts now
        control.signal(signal.SIGUSR1)
        if proxy is not None:
            proxy.signal(signal.SIGUSR1)
        await asyncio.sleep(0.05)
        trips0 = proxy.stats().get("round_trips", 0) if proxy is not None else 0
        pg_cpu0 = postgres_cpu_s(pg_data)
        stats.counting = True
        loop = asyncio.get_running_loop()
        started = time.perf_counter()
        until = loop.time() + seconds
        # ramp-up: the tables' first actions are spread over `ramp` seconds, as real players never
        # all click in the same instant; from then on each acts as soon as it is answered
        await asyncio.gather(*(d.run(until, delay=ramp * i / len(drivers)) for i, d in enumerate(drivers)))
        elapsed = time.perf_counter() - started
        stats.counting = False
        bench_cpu = time.process_time() - bench_cpu0
        pg_cpu1 = postgres_cpu_s(pg_data)
        during = [bot.stats() for bot in bots]
        noise = control.stats()
        trips = 0
        if proxy is not None:
            proxy.signal(signal.SIGUSR1)
            await asyncio.sleep(0.2)
            trips = proxy.stats().get("round_trips", 0) - trips0
    finally:
        final = [await bot.stop() for bot in bots]
        await control.stop()
        await fake.stop()
    log_text = "".join(bot.stderr() for bot in bots)
    problems = bot_log_problems(log_text)
    checked = audit(store, stats.answered_moves)
    errors = len(stats.errors) + len(problems) + len(fake.unhandled) + len(fake.server_errors) + fake.bad_pngs
    lat = [x * 1000 for x in stats.move_latencies]
    acks = [x * 1000 for x in stats.move_acks]
    other = [x * 1000 for x in stats.other_latencies]
    bot_cpu = _sum(during, "cpu_s") - _sum(before, "cpu_s")
    painter_cpu = _sum(during, "workers_cpu_s") - _sum(before, "workers_cpu_s")
    moves = max(stats.window_moves, 1)
    # the painters' peaks as read at the window's end: at the bot's exit they may be gone already
    painters_rss = round(
        sum(
            max(float(f.get("workers_peak_rss_mb") or 0), float(d.get("workers_peak_rss_mb") or 0))
            for f, d in zip(final, during, strict=True)
        ),
        1,
    )
    per_game = {
        name: {
            "tables": sum(1 for d in drivers if isinstance(d, MixDriver) and d.game == name),
            "moves": mine.window_moves,
            "moves_per_s": round(mine.window_moves / elapsed, 1),
            "answer_p50_ms": round(percentile([x * 1000 for x in mine.move_acks], 50), 1),
            "answer_p99_ms": round(percentile([x * 1000 for x in mine.move_acks], 99), 1),
            "board_p50_ms": round(percentile([x * 1000 for x in mine.move_latencies], 50), 1),
            "autocomplete_p99_ms": round(percentile([x * 1000 for x in mine.other_latencies], 99), 1),
            "games_finished": mine.games_finished,
            "errors": sum(
                1
                for e in stats.errors
                if any(
                    e.startswith(d.t.channel.name + ":") for d in drivers if getattr(d, "game", "") == name
                )
            ),
        }
        for name, mine in by_game.items()
    }
    return {
        "bench": "load",
        "store": "postgresql" if database_url else "sqlite",
        "bot_processes": shards,
        "render_processes": during[0].get("render_processes"),
        "matches": matches,
        "mix": mix,
        "per_game": per_game or None,
        "ai_games": ai_games,
        "ai_game": ai_game if ai_games else None,
        "ai_level": ai_level if ai_games else None,
        "ai_turns": len(ai_turns),
        "ai_turn_p50_s": round(percentile(ai_turns, 50), 2),
        "ai_turn_p95_s": round(percentile(ai_turns, 95), 2),
        "ai_turn_max_s": round(max(ai_turns, default=0.0), 2),
        "ai_per_game": {
            name: {
                "tables": sum(1 for d in drivers if isinstance(d, AiDriver) and d.game == name),
                "ai_turns": len(turns),
                "ai_turn_p50_s": round(percentile(turns, 50), 2),
                "ai_turn_max_s": round(max(turns, default=0.0), 2),
            }
            for name, turns in ai_by_game.items()
        }
        if ai_games
        else None,
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
        "peak_rss_mb": round(_sum(final, "peak_rss_mb") + painters_rss, 1),
        "bot_process_peak_rss_mb": _max(final, "peak_rss_mb"),
        "painter_processes_peak_rss_mb": painters_rss,
        "max_loop_stall_ms": _max(during, "window_max_loop_stall_ms"),
        "stalls_over_50ms": int(_sum(during, "window_stalls_over_50ms")),
        "stalls_over_30ms_at_s_ms": during[0].get("window_stalls_over_30ms"),  # (s into the window, ms)
        "control_max_stall_ms": noise.get("window_max_loop_stall_ms"),
        "max_gc_pause_ms": _max(during, "window_max_gc_ms"),
        "bot_cpu_share": round(bot_cpu / elapsed, 2),
        "driver_cpu_share": round(bench_cpu / elapsed, 2),
        "painters_cpu_share": round(painter_cpu / elapsed, 2),
        # CPU per move, whatever else the machine is doing: 2 cores / the sum is the ceiling here
        "bot_cpu_ms_per_move": round(bot_cpu / moves * 1000, 2),
        # every round trip to PostgreSQL in the window (through bench/pgproxy.py), per move
        "pg_round_trips_per_move": round(trips / moves, 2) if proxy is not None else None,
        # the PostgreSQL server's CPU (every backend), when this bench started it
        "postgres_cpu_ms_per_move": (
            round((pg_cpu1 - pg_cpu0) / moves * 1000, 2)
            if pg_cpu0 is not None and pg_cpu1 is not None
            else None
        ),
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


ROWS = (
    ("moves per second", "moves_per_s", f">= {TARGETS['moves_per_s']:.0f}"),
    ("answer latency p50 (ms)", "answer_p50_ms", ""),
    ("answer latency p95 (ms)", "answer_p95_ms", ""),
    ("answer latency p99 (ms)", "answer_p99_ms", f"< {TARGETS['answer_p99_ms']:.0f}"),
    ("board latency p50 (ms)", "board_p50_ms", "games / moves per s"),
    ("board latency p99 (ms)", "board_p99_ms", ""),
    ("autocomplete p99 (ms)", "autocomplete_p99_ms", ""),
    ("errors", "errors", "0"),
    ("peak RSS, bots + painters (MB)", "peak_rss_mb", f"< {TARGETS['peak_rss_mb']:.0f}"),
    ("longest loop stall (ms)", "max_loop_stall_ms", f"< {TARGETS['max_loop_stall_ms']:.0f}"),
    ("same, idle control process (ms)", "control_max_stall_ms", "machine noise"),
    ("bot CPU share (cores)", "bot_cpu_share", ""),
    ("painter (and AI) processes CPU share", "painters_cpu_share", ""),
    ("driver+fake CPU share", "driver_cpu_share", ""),
    ("CPU ms per move: bot", "bot_cpu_ms_per_move", ""),
    ("CPU ms per move: painters", "painters_cpu_ms_per_move", ""),
    ("CPU ms per move: driver+fake", "driver_cpu_ms_per_move", ""),
    ("PostgreSQL round trips per move", "pg_round_trips_per_move", "via bench/pgproxy.py"),
    ("CPU ms per move: PostgreSQL", "postgres_cpu_ms_per_move", "--start-postgres"),
    ("audit: log, replay, not stuck", "audit_ok", "ok"),
    ("AI games beside them", "ai_games", ""),
    ("AI turns completed in the window", "ai_turns", ""),
    ("AI turn p50 / p95 (s)", "ai_turn_p50_s", ""),
)
# the runs of a comparison: (name, on PostgreSQL, bot processes)
STORES = (("sqlite", False, 1), ("postgresql", True, 1), ("postgresql_2_shards", True, 2))


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "ok" if value else "FAILED"
    return str(value)


async def _compare(args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    """The same load on SQLite, on PostgreSQL, and on PostgreSQL with two shard processes."""
    import asyncpg

    server = None
    url = args.database_url
    if args.start_postgres:
        from tests import pgserver

        server = await asyncio.to_thread(pgserver.start_for_bench)
        url = server.url()
    proxy = None
    if args.pg_delay_ms is not None:
        # every PostgreSQL run through bench/pgproxy.py on 127.0.0.1: round trips counted, each one
        # `--pg-delay-ms` later (a network), in a process of its own
        base = yarl.URL(url)
        upstream = str(server.root) if server is not None else f"{base.host}:{base.port or 5432}"
        proxy = spawn(
            [
                sys.executable,
                str(Path(__file__).with_name("pgproxy.py")),
                *("--to", upstream, "--port", "0", "--delay-ms", str(args.pg_delay_ms)),
                *("--stats", str(workdir / "proxy.stats.json")),
            ],
            workdir / "proxy.stats.json",
            workdir / "proxy.stderr.log",
        )
        for _ in range(100):
            if proxy.stats():
                break
            await asyncio.sleep(0.1)
    runs: dict[str, Any] = {}
    try:
        for n, (name, on_postgres, processes) in enumerate(STORES):
            target = None
            if on_postgres:
                database = f"wargames_bench_{os.getpid()}_{n}"
                admin = await asyncpg.connect(url)
                await admin.execute(f"CREATE DATABASE {database}")
                await admin.close()
                base = yarl.URL(url)
                target = str(base.with_path("/" + database).with_query(base.query))
                if proxy is not None:
                    target = str(
                        base.with_host("127.0.0.1")
                        .with_port(int(proxy.stats()["port"]))
                        .with_path("/" + database)
                        .with_query({"sslmode": "disable"})
                    )
            print(f"{name}: {args.matches} matches for {args.seconds:.0f} s...", flush=True)
            try:
                runs[name] = await run(
                    args.matches,
                    args.seconds,
                    args.profile.with_suffix(f".{name}{args.profile.suffix}") if args.profile else None,
                    workdir / name,
                    args.ramp,
                    target,
                    processes,
                    proxy=proxy if on_postgres else None,
                    mix=args.mix,
                    pg_data=server.data if server is not None and on_postgres else None,
                )
            finally:
                if on_postgres:
                    admin = await asyncpg.connect(url)
                    await admin.execute(
                        f"DROP DATABASE IF EXISTS wargames_bench_{os.getpid()}_{n} WITH (FORCE)"
                    )
                    await admin.close()
    finally:
        if proxy is not None:
            await proxy.stop()
        if server is not None:
            await asyncio.to_thread(server.stop)
    return runs


def main() -> int:
    parser = argparse.ArgumentParser(description="Load benchmark of the bot through the fake Discord.")
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--profile", type=Path, default=None, help="cProfile the bot process into this file")
    parser.add_argument("--keep", action="store_true", help="keep the work directory (db, bot log)")
    parser.add_argument(
        "--ramp", type=float, default=1.0, help="spread the tables' first actions over this many seconds"
    )
    parser.add_argument(
        "--database-url",
        help="a PostgreSQL server (its user may create databases): compare SQLite, PostgreSQL and "
        "PostgreSQL with two shard processes in one go",
    )
    parser.add_argument(
        "--start-postgres",
        action="store_true",
        help="the same comparison on a throwaway PostgreSQL server started from this machine's binaries",
    )
    parser.add_argument(
        "--pg-delay-ms",
        type=float,
        default=None,
        help="reach PostgreSQL through bench/pgproxy.py, which counts round trips and adds this many "
        "ms to each (a network; 0: counted only)",
    )
    parser.add_argument(
        "--mix",
        action="store_true",
        help="spread the games over every registered game (default: Block Wars only)",
    )
    parser.add_argument("--ai-games", type=int, default=0, help="AI games beside the others")
    parser.add_argument(
        "--ai-game",
        default="fixbayonets",
        help=f"the game of those (default fixbayonets; {ALL_GAMES}: every registered game in turn)",
    )
    parser.add_argument("--ai-level", default="hard", help="the AI's level in them (default hard)")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="bw-load-"))
    if args.database_url or args.start_postgres:
        for name, _, _ in STORES:
            (workdir / name).mkdir()
        runs = asyncio.run(_compare(args, workdir))
        print(f"{args.matches} matches, {args.seconds:.0f} s each")
        print(f"  {'':<32} " + " ".join(f"{name:>20}" for name in runs))
        for label, key, target in ROWS:
            print(
                f"  {label:<32} " + " ".join(f"{_shown(r[key]):>20}" for r in runs.values()) + f"   {target}"
            )
        for name, r in runs.items():
            if r["error_samples"]:
                print(f"  first errors ({name}):", *r["error_samples"], sep="\n    ")
        figures: dict[str, Any] = {"bench": "load-stores", "matches": args.matches, "seconds": args.seconds}
        for name, r in runs.items():
            for key in (
                "moves_per_s",
                "answer_p99_ms",
                "max_loop_stall_ms",
                "errors",
                "audit_ok",
                "pg_round_trips_per_move",
                "postgres_cpu_ms_per_move",
                "bot_cpu_ms_per_move",
            ):
                figures[f"{name}_{key}"] = r[key]
        figures["runs"] = runs
    else:
        figures = asyncio.run(
            run(
                args.matches,
                args.seconds,
                args.profile,
                workdir,
                args.ramp,
                ai_games=args.ai_games,
                ai_game=args.ai_game,
                ai_level=args.ai_level,
                mix=args.mix,
            )
        )
        print(f"{args.matches} matches, {figures['seconds']} s, {figures['moves']} moves")
        for label, key, target in ROWS:
            print(f"  {label:<32} {_shown(figures[key]):>10}   {target}")
        per_game = figures["per_game"]
        if isinstance(per_game, dict):
            print(
                f"  {'per game':<20} {'tables':>6} {'moves/s':>8} {'ans p50':>8} {'ans p99':>8} {'errors':>6}"
            )
            for name, f in per_game.items():
                print(
                    f"  {name:<20} {f['tables']:>6} {f['moves_per_s']:>8} {f['answer_p50_ms']:>8} "
                    f"{f['answer_p99_ms']:>8} {f['errors']:>6}"
                )
        errors = figures["error_samples"]
        assert isinstance(errors, list)
        if errors:
            print("  first errors:", *errors, sep="\n    ")
    if args.keep:
        print(f"  work directory kept: {workdir}")
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

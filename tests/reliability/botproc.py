"""Run the real bot in its own process against a fake Discord given by URL.

    DISCORD_TOKEN=... python -m tests.reliability.botproc --api URL --gateway URL --db PATH --stats PATH

Why a process of its own: the load bench must see the bot's real peak memory and event-loop stalls,
and the crash test must be able to SIGKILL it. The token comes from the environment (never argv, so it
cannot leak through `ps`), and the bot logs to stderr like `make run` does, so the parent can check
that the token never appears there.

While it runs, the process writes its figures to `--stats` as JSON (atomically, twice a second, and
once more on SIGTERM): the longest event-loop stall since start-up and since the last SIGUSR1 (the
bench sends one when its timed window starts), peak RSS, CPU seconds. A watchdog task sleeps 10 ms
in a loop; how late it wakes up is how long something held the loop. GC pauses are timed too.

The bot is started by `bot.main`, the entry point of `python bot.py`, with its settings read from the
environment exactly as there (the arguments here only become DATABASE_PATH, LOG_LEVEL, SWEEP_SECONDS
and `--sync`); this module adds its watchers through `main`'s `on_start` hook.

Diagnosis knobs (environment, for experiments only): BW_SLOW_CALLBACK_MS=30 makes asyncio log
every callback slower than that; BW_EXECUTOR_WORKERS=2 shrinks the default thread pool (fewer
render threads fighting for the GIL); BW_GC_FREEZE=1 calls gc.freeze() when the timed window starts;
BW_STALL_TRACE=PATH times every callback
of the loop and writes to PATH (JSON lines) what ran in each stall over 40 ms and each full garbage
collection (SIGUSR2 adds a census of the old generation and of the cycles a collection frees).
The bot's own settings come from the environment as with `make run` (RENDER_PROCESSES,
POSTING_SLOTS, HTTP_CONNECTIONS; not DATABASE_PATH or the token).
`--control` runs no bot at all: the machine's noise.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import resource
import signal
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TICK = 0.010


class GcWatch:
    """How long the cyclic garbage collector stopped the world: a suspect for long loop stalls."""

    def __init__(self) -> None:
        self.max_ms = 0.0
        self.window_max_ms = 0.0
        self.collections = 0
        self._started = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        took = (time.perf_counter() - self._started) * 1000
        self.collections += 1
        self.max_ms = max(self.max_ms, took)
        self.window_max_ms = max(self.window_max_ms, took)


GC = GcWatch()
RENDER_PROCESSES = 0  # what the bot's settings chose, reported with the figures


def _label(handle: asyncio.Handle) -> str:
    """Where a callback resumes: the innermost frame its task is suspended in, else its repr."""
    target = getattr(handle._callback, "__self__", None)  # type: ignore[attr-defined]  # private, not in typeshed
    if isinstance(target, asyncio.Task):
        coro: Any = target.get_coro()
        where = ""
        while coro is not None:
            frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
            if frame is not None:
                where = f"{frame.f_code.co_qualname}:{frame.f_lineno}"
            coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
        return f"task {target.get_name()} @ {where}"
    return repr(handle)[:160]


class StallTrace:
    """Diagnosis: times every loop callback so a stall can be explained (one long callback, many short
    ones, GC, or time outside any callback: the OS or I/O polling)."""

    def __init__(self, path: Path) -> None:
        import collections

        self.path = path
        self.runs: collections.deque[tuple[float, float, str]] = collections.deque(maxlen=20000)
        self.gcs: collections.deque[tuple[float, float]] = collections.deque(maxlen=2000)
        original = asyncio.events.Handle._run
        runs = self.runs

        # Handle._run's replacement: its parameter is named as that method's is, 'self' (mypy compares names).
        def timed(self: asyncio.Handle) -> None:
            start = time.perf_counter()
            original(self)
            took = time.perf_counter() - start
            # named only when slow (cheap otherwise): the place its task waits now
            runs.append((start, took, _label(self) if took > 0.002 else ""))

        asyncio.events.Handle._run = timed  # type: ignore[method-assign]  # patching asyncio's loop, on purpose
        gc.callbacks.append(self._gc)
        self._gc_started = 0.0

    def _gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            if info["generation"] == 2:
                self._sizes = [len(gc.get_objects(generation=g)) for g in range(3)]
            self._gc_started = time.perf_counter()
        else:
            took = time.perf_counter() - self._gc_started
            self.gcs.append((self._gc_started, took))
            if info["generation"] == 2:
                with self.path.open("a") as out:
                    out.write(
                        json.dumps(
                            {
                                "at": round(time.time(), 3),
                                "gc2_ms": round(took * 1000, 1),
                                "sizes": self._sizes,
                                "collected": info["collected"],
                            }
                        )
                        + "\n"
                    )

    def stall(self, began: float, late_ms: float, cpu_ms: float) -> None:
        now = time.perf_counter()
        inside = [r for r in self.runs if r[0] >= began and r[0] < now]
        busy = sum(r[1] for r in inside)
        gc_ms = sum(d for s, d in self.gcs if s >= began) * 1000
        top = sorted(inside, key=lambda r: -r[1])[:6]
        counts: dict[str, int] = {}
        for r in inside:
            key = r[2].split(" @ ")[-1]
            counts[key] = counts.get(key, 0) + 1
        record = {
            "at": round(time.time(), 3),
            "late_ms": round(late_ms, 1),
            "main_thread_cpu_ms": round(cpu_ms, 1),
            "span_ms": round((now - began) * 1000, 1),
            "callbacks": len(inside),
            "busy_ms": round(busy * 1000, 1),
            "gc_ms": round(gc_ms, 1),
            "top": [[round(r[1] * 1000, 1), r[2]] for r in top],
            "most_frequent": sorted(counts.items(), key=lambda kv: -kv[1])[:6],
        }
        with self.path.open("a") as out:
            out.write(json.dumps(record) + "\n")


TRACE: StallTrace | None = None


def _cycles(objects: list[Any]) -> list[list[Any]]:
    """The strongly connected components (size > 1) of the reference graph among `objects` (Tarjan,
    iterative): the cycles that made them garbage only the collector can free."""
    ids = {id(o): i for i, o in enumerate(objects)}
    edges = [[ids[id(r)] for r in gc.get_referents(o) if id(r) in ids] for o in objects]
    index = [-1] * len(objects)
    low = [0] * len(objects)
    on_stack = [False] * len(objects)
    stack: list[int] = []
    found: list[list[Any]] = []
    counter = 0
    for root in range(len(objects)):
        if index[root] != -1:
            continue
        work = [(root, 0)]
        while work:
            node, child = work.pop()
            if child == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack[node] = True
            if child < len(edges[node]):
                work.append((node, child + 1))
                nxt = edges[node][child]
                if index[nxt] == -1:
                    work.append((nxt, 0))
                elif on_stack[nxt]:
                    low[node] = min(low[node], index[nxt])
                continue
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack[top] = False
                    component.append(objects[top])
                    if top == node:
                        break
                if len(component) > 1:
                    found.append(component)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return found


def census(path: Path) -> None:
    """Diagnosis (SIGUSR2 with BW_STALL_TRACE): what the old generation holds and what a full
    collection finds to be cyclic garbage, by type; the loop's tasks by coroutine, and the views
    discord.py keeps with a timeout running (what found the 15-minute ephemeral views)."""
    import collections

    old = collections.Counter(type(o).__qualname__ for o in gc.get_objects(generation=2))
    views: collections.Counter[str] = collections.Counter()
    for t in asyncio.all_tasks():
        frame = getattr(t.get_coro(), "cr_frame", None)
        view = frame.f_locals.get("self") if frame is not None else None
        if view is not None and "timeout" in getattr(t.get_coro(), "__qualname__", ""):
            ids = [getattr(i, "custom_id", "?") for i in getattr(view, "children", [])][:3]
            views[f"{view!r} {ids} {type(view).__module__}"] += 1
    tasks = collections.Counter(
        f"{t.get_name().rstrip('0123456789-')} {getattr(t.get_coro(), '__qualname__', '?')}"
        for t in asyncio.all_tasks()
    )
    edges: collections.Counter[str] = collections.Counter()
    for o in gc.get_objects(generation=2):
        edges[type(o).__qualname__] += len(gc.get_referents(o))
    timings = []
    for _ in range(3):
        sizes = [len(gc.get_objects(generation=g)) for g in range(3)]
        started = time.perf_counter()
        gc.collect()
        timings.append((sizes, round((time.perf_counter() - started) * 1000, 1)))
    lists = [o for o in gc.get_objects(generation=2) if type(o) is list]
    owners: collections.Counter[str] = collections.Counter()
    for o in lists[:: max(1, len(lists) // 300)]:
        for r in gc.get_referrers(o):
            if r is not lists:
                owners[f"{type(r).__qualname__} len={min(len(o), 64)}"] += 1
    del lists
    gc.set_debug(gc.DEBUG_SAVEALL)
    gc.collect()
    garbage = collections.Counter(type(o).__qualname__ for o in gc.garbage)
    cycles = collections.Counter(
        " + ".join(sorted(collections.Counter(type(o).__qualname__ for o in c).keys()))[:300]
        for c in _cycles(gc.garbage)
    )
    gc.garbage.clear()
    gc.set_debug(0)
    with path.open("a") as out:
        out.write(
            json.dumps(
                {
                    "census": True,
                    "old_total": sum(old.values()),
                    "old": old.most_common(40),
                    "tasks": tasks.most_common(20),
                    "timed_views": views.most_common(10),
                    "edges_total": sum(edges.values()),
                    "edges": edges.most_common(25),
                    "list_owners": owners.most_common(20),
                    "full_collections": timings,
                    "garbage_total": sum(garbage.values()),
                    "garbage": garbage.most_common(40),
                    "cycles": cycles.most_common(30),
                }
            )
            + "\n"
        )


class LoopWatch:
    """Measures how late a 10 ms sleep wakes up: the longest time anything blocked the event loop."""

    def __init__(self) -> None:
        self.max_ms = 0.0
        self.window_max_ms = 0.0
        self.over_50 = 0
        self.ticks = 0
        self.window_started = time.time()
        self.stalls_over_30: list[tuple[float, float]] = []  # (seconds into the window, ms)

    def reset_window(self) -> None:
        if os.environ.get("BW_GC_FREEZE"):  # experiment: long-lived objects out of the collector's way
            gc.collect()
            gc.freeze()
        if TRACE is not None:
            with TRACE.path.open("a") as out:
                out.write(json.dumps({"window": "starts", "at": round(time.time(), 3)}) + "\n")
        GC.window_max_ms = 0.0
        self.window_max_ms = 0.0
        self.over_50 = 0
        self.ticks = 0
        self.window_started = time.time()
        self.stalls_over_30 = []

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:  # runs until the process ends; each turn is bounded by the sleep
            before = loop.time()
            began = time.perf_counter()
            cpu = time.thread_time()
            await asyncio.sleep(TICK)
            late = (loop.time() - before - TICK) * 1000
            if TRACE is not None and late > 40:
                TRACE.stall(began, late, (time.thread_time() - cpu) * 1000)
            self.ticks += 1
            self.max_ms = max(self.max_ms, late)
            self.window_max_ms = max(self.window_max_ms, late)
            if late > 50:
                self.over_50 += 1
            if late > 30 and len(self.stalls_over_30) < 200:
                self.stalls_over_30.append((round(time.time() - self.window_started, 2), round(late, 1)))


def figures(watch: LoopWatch, started: float) -> dict[str, Any]:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "pid": os.getpid(),
        "uptime_s": round(time.time() - started, 2),
        "max_loop_stall_ms": round(watch.max_ms, 1),
        "window_max_loop_stall_ms": round(watch.window_max_ms, 1),
        "window_stalls_over_50ms": watch.over_50,
        "window_stalls_over_30ms": watch.stalls_over_30,
        "window_ticks": watch.ticks,
        "window_max_gc_ms": round(GC.window_max_ms, 1),
        "gc_collections": GC.collections,
        "peak_rss_mb": round(own_peak_rss_kib() / 1024, 1),
        "workers_peak_rss_mb": round(workers_peak_rss_kib() / 1024, 1),
        "render_processes": RENDER_PROCESSES,
        "workers_cpu_s": round(workers_cpu_s(), 2),
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 2),
        "threads": threading_count(),
    }


def own_peak_rss_kib() -> int:
    """This process's peak RSS since it was exec'd (VmHWM). Not `ru_maxrss`: Linux carries the peak
    of the image an exec replaces into it, so a bot spawned by a driver that had grown to 300 MB
    reported 300 MB as its own (the PostgreSQL runs of bench/load.py come after the SQLite one)."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux


def workers_peak_rss_kib() -> int:
    """The summed peak RSS of the bot's live child processes (its board painters), from /proc."""
    import multiprocessing

    total = 0
    for child in multiprocessing.active_children():
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{child.pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    total += int(line.split()[1])
    return total


def workers_cpu_s() -> float:
    """CPU seconds (user + system) spent so far by the bot's live child processes, from /proc."""
    import multiprocessing

    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for child in multiprocessing.active_children():
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = Path(f"/proc/{child.pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
    return total


def threading_count() -> int:
    import threading

    return threading.active_count()


def write_stats(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data))
    tmp.replace(path)


def patch_discord(api: str, gateway: str) -> None:
    """The same seams the test fixture patches, set for this whole process."""
    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = api
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


async def control(stats_path: Path) -> int:
    """No bot at all: how late a 10 ms sleep wakes up on this machine anyway (scheduler noise)."""
    started = time.time()
    watch = LoopWatch()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    loop.add_signal_handler(signal.SIGUSR1, watch.reset_window)
    watcher = asyncio.create_task(watch.run())
    for _ in range(20 * 3600):  # at most 10 hours; stopped by SIGTERM long before
        write_stats(stats_path, figures(watch, started) | {"ready": True})
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.5)
        if stop.is_set():
            break
    watcher.cancel()
    write_stats(stats_path, figures(watch, started) | {"ready": False, "closed": True})
    return 0


def instrument(args: argparse.Namespace, started: float, watch: LoopWatch) -> Any:
    """The hook `bot.main` runs in its loop once the bot is built: the figures' watchers. Everything
    else (settings, signals, the clean stop) is `python bot.py`'s own."""

    async def hook(bot: Any) -> None:
        global RENDER_PROCESSES
        RENDER_PROCESSES = bot.settings.render_processes
        loop = asyncio.get_running_loop()
        workers = os.environ.get("BW_EXECUTOR_WORKERS")  # experiment: fewer threads fighting for the GIL
        if workers:
            from concurrent.futures import ThreadPoolExecutor

            loop.set_default_executor(ThreadPoolExecutor(int(workers), thread_name_prefix="executor"))
        slow_ms = os.environ.get("BW_SLOW_CALLBACK_MS")  # diagnosis: asyncio logs the slow callbacks
        if slow_ms:
            loop.set_debug(True)
            loop.slow_callback_duration = float(slow_ms) / 1000
        loop.add_signal_handler(signal.SIGUSR1, watch.reset_window)
        if TRACE is not None:
            loop.add_signal_handler(signal.SIGUSR2, census, TRACE.path)
        stats_path = Path(args.stats)

        async def report() -> None:
            while True:
                with contextlib.suppress(Exception):
                    write_stats(stats_path, figures(watch, started) | {"ready": bot.is_ready()})
                await asyncio.sleep(0.5)

        KEEP.extend(
            [asyncio.create_task(watch.run(), name="loop-watch"), asyncio.create_task(report(), name="stats")]
        )

    return hook


KEEP: list[asyncio.Task[Any]] = []  # the hook's tasks, alive as long as the bot's loop


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--control", action="store_true", help="no bot: only measure the loop's lateness")
    parser.add_argument("--api", required=True, help="REST base, e.g. http://127.0.0.1:PORT/api/v10")
    parser.add_argument("--gateway", required=True, help="gateway URL, e.g. ws://127.0.0.1:PORT/gateway-ws/")
    parser.add_argument("--db", required=True, help="the SQLite file (reused across restarts)")
    parser.add_argument("--stats", required=True, help="where to write the figures (JSON)")
    parser.add_argument("--log-level", default="INFO")
    parser.add_argument("--sync", action="store_true", help="sync the command tree at start-up")
    parser.add_argument("--sweep-seconds", type=float, default=60.0)
    parser.add_argument("--profile", default=None, help="write a cProfile of the bot here at exit")
    args = parser.parse_args(argv)
    if os.environ.get("BW_STALL_TRACE"):
        global TRACE
        TRACE = StallTrace(Path(os.environ["BW_STALL_TRACE"]))
    if args.control:
        return asyncio.run(control(Path(args.stats)))
    import bot

    # The bot reads its settings from the environment, as `make run` does.
    os.environ["DATABASE_PATH"] = str(Path(args.db))
    os.environ["LOG_LEVEL"] = args.log_level.upper()
    os.environ["SWEEP_SECONDS"] = str(args.sweep_seconds)
    if os.environ.get("BW_MAX_MESSAGES"):
        raise SystemExit("BW_MAX_MESSAGES is gone: the bot runs as `python bot.py` runs it")
    patch_discord(args.api, args.gateway)
    started = time.time()
    watch = LoopWatch()
    argv = ["--sync"] if args.sync else []
    try:
        if args.profile:
            import cProfile

            profiler = cProfile.Profile()
            try:
                return int(profiler.runcall(bot.main, argv, on_start=instrument(args, started, watch)))
            finally:
                profiler.dump_stats(args.profile)
        return bot.main(argv, on_start=instrument(args, started, watch))
    finally:
        write_stats(Path(args.stats), figures(watch, started) | {"ready": False, "closed": True})


if __name__ == "__main__":
    raise SystemExit(main())

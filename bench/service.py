"""Match service benchmark: `python bench/service.py`; the last line is one JSON object of figures.

A fresh SQLite file (WAL, in a temp directory) is filled with `--matches` active games, each
challenged, accepted, deployed and a few actions in, all through the service. Then `--moves`
moves are played across randomly chosen matches, the way a busy server sees them. Each timed move
is what a real move costs: `MatchService.act` (load the row and snapshot, check, apply with the
engine, commit the snapshot and the log row) plus `render_board` of the result. Picking the move
(a legal action from the service) happens outside the timer.

Targets on the project's machine: p50 at most 20 ms, p99 at most 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from data import Database
from data.sqlite import SqliteDatabase
from engine.blockwars import State
from engine.blockwars.events import Event
from play import MatchService
from render.blockwars import render_board

GUILD = 1
FIRST_CHANNEL = 1000
P50_TARGET_MS, P99_TARGET_MS = 20.0, 50.0


async def deployed(svc: MatchService, i: int) -> tuple[int, tuple[int, int]]:
    """The `i`-th bench game of Block Wars, challenged, accepted and both sides set up: its channel
    and its players (also for bench/sweep.py)."""
    channel = FIRST_CHANNEL + i
    a, b = 10_000 + 2 * i, 10_001 + 2 * i
    await svc.challenge(guild_id=GUILD, channel_id=channel, challenger_id=a, opponent_id=b, game="blockwars")
    match = await svc.accept(channel, b)
    await svc.act(channel, match.sides["germans"], "setup std")
    await svc.act(channel, match.sides["canadians"], "setup std")
    return channel, (a, b)


async def populate(svc: MatchService, n: int, rng: random.Random) -> dict[int, tuple[int, int]]:
    """`n` active matches, set up and a few actions in; returns channel -> (player a, player b)."""
    players: dict[int, tuple[int, int]] = {}
    for i in range(n):
        channel, (a, b) = await deployed(svc, i)
        for _ in range(rng.randint(2, 6)):
            await play_one(svc, channel, (a, b), rng)
        players[channel] = (a, b)
        if (i + 1) % 250 == 0:
            print(f"  {i + 1} matches stored", file=sys.stderr)
    return players


async def pick(svc: MatchService, channel: int, pair: tuple[int, int], rng: random.Random) -> tuple[int, str]:
    """Whose move it is and a legal action for them (moves preferred over `end`)."""
    for uid in pair:
        legal = await svc.legal(channel, uid)
        if legal:
            moves = [a for a in legal if a != "end"]
            return uid, rng.choice(moves or legal)
    raise LookupError(f"nobody can act in channel {channel}")


async def play_one(svc: MatchService, channel: int, pair: tuple[int, int], rng: random.Random) -> bool:
    uid, notation = await pick(svc, channel, pair, rng)
    played = await svc.act(channel, uid, notation)
    return not played.over


async def measure(
    svc: MatchService, players: dict[int, tuple[int, int]], moves: int, rng: random.Random
) -> tuple[list[float], list[float], float]:
    """Time `moves` moves on random matches: ms per move (act + render), ms in act alone, wall time."""
    live = list(players)
    times: list[float] = []
    acts: list[float] = []
    wall = 0.0
    while len(times) < moves and live:
        channel = rng.choice(live)
        uid, notation = await pick(svc, channel, players[channel], rng)
        t = time.perf_counter()
        played = await svc.act(channel, uid, notation)
        acted = time.perf_counter()
        # Block Wars's own state and events, as render_board takes them (the service hands out the
        # protocol's types): a few isinstance calls, nothing next to the drawing.
        events = [e for e in played.events if isinstance(e, Event)]
        assert isinstance(played.state, State) and len(events) == len(played.events)
        render_board(played.state, events)
        dt = time.perf_counter() - t
        wall += dt
        times.append(dt * 1000)
        acts.append((acted - t) * 1000)
        if played.over:
            live.remove(channel)
    return times, acts, wall


def pct(sorted_ms: list[float], p: float) -> float:
    return sorted_ms[min(len(sorted_ms) - 1, int(len(sorted_ms) * p))]


async def run(matches: int, moves: int, seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="bench-service-") as tmp:
        path = Path(tmp) / "bench.db"
        t = time.perf_counter()
        db = await SqliteDatabase.connect(path)
        # Filling is set-up, not the measurement: skip the per-commit fsync while it runs (a
        # private handle, bench only). The timed moves below use a freshly opened database with
        # the project's own settings (WAL, synchronous=FULL).
        await db._conn.execute("PRAGMA synchronous = OFF")
        players = await populate(MatchService(db, rng=random.Random(seed)), matches, rng)
        await db.close()
        fill_s = time.perf_counter() - t
        reopened = await Database.open(path)
        svc = MatchService(reopened, rng=random.Random(seed + 1))
        times, acts, wall = await measure(svc, players, moves, rng)
        size_mb = path.stat().st_size / 2**20
        await reopened.close()
    ordered = sorted(times)
    p50, p90, p99 = pct(ordered, 0.5), pct(ordered, 0.9), pct(ordered, 0.99)
    return {
        "bench": "service",
        "matches": matches,
        "moves": len(times),
        "p50_ms": round(p50, 2),
        "p90_ms": round(p90, 2),
        "p99_ms": round(p99, 2),
        "max_ms": round(ordered[-1], 2),
        "mean_ms": round(statistics.fmean(times), 2),
        "act_p50_ms": round(statistics.median(acts), 2),
        "render_p50_ms": round(statistics.median(t - a for t, a in zip(times, acts, strict=True)), 2),
        "moves_per_s": round(len(times) / wall, 1),
        "fill_s": round(fill_s, 1),
        "db_mib": round(size_mb, 1),
        "p50_ok": p50 <= P50_TARGET_MS,
        "p99_ok": p99 <= P99_TARGET_MS,
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--matches", type=int, default=1000)
    p.add_argument("--moves", type=int, default=1500)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    f = asyncio.run(run(args.matches, args.moves, args.seed))
    rows = [
        ("matches stored", f"{f['matches']} ({f['db_mib']} MiB, filled in {f['fill_s']} s)", ""),
        ("moves timed (act + render)", f["moves"], ""),
        ("p50 ms per move", f["p50_ms"], f"<= {P50_TARGET_MS:g}"),
        ("p90 ms per move", f["p90_ms"], ""),
        ("p99 ms per move", f["p99_ms"], f"<= {P99_TARGET_MS:g}"),
        ("max ms per move", f["max_ms"], ""),
        ("  of which service.act, p50 ms", f["act_p50_ms"], ""),
        ("  of which render_board, p50 ms", f["render_p50_ms"], ""),
        ("moves per second, one process", f["moves_per_s"], ""),
    ]
    print(f"{'figure':<32} {'measured':>34} {'target':>8}")
    for name, value, target in rows:
        print(f"{name:<32} {value!s:>34} {target:>8}")
    print(json.dumps(f))


if __name__ == "__main__":
    main()

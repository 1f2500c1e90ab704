"""The deadline sweep with many games due: `python bench/sweep.py`; the last line is one JSON object.

A fresh SQLite file (WAL, in a temp directory) gets `--games` Block Wars games, each set up and
`--turns` whole turns in (random legal moves, seeded); in every other one the player to move then
takes one step of their turn, still theirs alone (`Played.mid_turn`). Then the clock passes every
deadline and one sweep (`MatchService.sweep`, cold: a fresh service, as after a while without any
command) applies them all: each a loss on time, the private turns told whole. Each repetition
works on a fresh copy of the file. Timed: the sweep's CPU (`time.process_time`, the figure to
compare under load) and wall time, and within it the time spent in `channel_view` and in
`stretch` (the two reads of a game's log that a private turn's notice needs), with how many times
the log was read.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.service import deployed
from data import Database
from play import MatchService

START = 1_800_000_000.0


class HandClock:
    """The service's and the store's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


async def populate(path: Path, games: int, turns: int, seed: int) -> int:
    """Store the games; returns how many end mid private turn."""
    clock = HandClock()
    db = await Database.open(str(path), clock=clock)
    svc = MatchService(db, clock=clock, rng=random.Random(seed))
    rng = random.Random(seed)
    private = 0
    try:
        for i in range(games):
            channel, (a, _) = await deployed(svc, i)
            handed = 0
            while handed < turns:
                match, state = await svc.current(channel)
                if state.is_over():
                    break
                user = match.turn_player_id or a
                legal = [n for n in await svc.legal(channel, user) if n != "end"] or ["end"]
                played = await svc.act(channel, user, rng.choice(legal))
                handed += 0 if played.mid_turn else 1
            match, state = await svc.current(channel)
            if i % 2 and not state.is_over():
                user = match.turn_player_id or a
                legal = [n for n in await svc.legal(channel, user) if n != "end"]
                if legal and (await svc.act(channel, user, rng.choice(legal))).mid_turn:
                    private += 1
    finally:
        await db.close()
    return private


def timed(
    spent: dict[str, float], name: str, method: Callable[..., Awaitable[Any]]
) -> Callable[..., Awaitable[Any]]:
    """`method`, adding the CPU it takes to `spent[name]` (the bench's instrument, not the bot's)."""

    async def wrapper(*args: Any, **kw: Any) -> Any:
        began = time.process_time()
        try:
            return await method(*args, **kw)
        finally:
            spent[name] += time.process_time() - began

    return wrapper


async def one_sweep(template: Path, work: Path) -> dict[str, float]:
    """One cold sweep over a fresh copy of the stored games."""
    for suffix in ("", "-wal", "-shm"):
        if (template.parent / (template.name + suffix)).exists():
            shutil.copy(template.parent / (template.name + suffix), work.parent / (work.name + suffix))
    clock = HandClock()
    clock.now = START + 365 * 86400.0  # every deadline has passed
    db = await Database.open(str(work), clock=clock)
    svc = MatchService(db, clock=clock, rng=random.Random(1))
    spent = {"channel_view": 0.0, "stretch": 0.0, "actions": 0.0}
    reads = [0]
    actions = db.actions

    async def counted(match_id: int) -> Any:
        reads[0] += 1
        return await actions(match_id)

    db.actions = timed(spent, "actions", counted)  # type: ignore[method-assign,assignment]
    svc.channel_view = timed(spent, "channel_view", svc.channel_view)  # type: ignore[method-assign,assignment]
    svc.stretch = timed(spent, "stretch", svc.stretch)  # type: ignore[method-assign,assignment]
    try:
        cpu, wall = time.process_time(), time.perf_counter()
        notices = await svc.sweep()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    finally:
        await db.close()
    return {
        "cpu_s": cpu,
        "wall_s": wall,
        "notices": float(len(notices)),
        "whole_turns": float(sum(1 for n in notices if n.whole_turn)),
        "channel_view_s": spent["channel_view"],
        "stretch_s": spent["stretch"],
        "log_reads": float(reads[0]),
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description="The deadline sweep with many games due.")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--turns", type=int, default=20, help="whole turns played in each game first")
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        template, work = Path(tmp) / "games.db", Path(tmp) / "work.db"
        private = await populate(template, args.games, args.turns, args.seed)
        runs = [await one_sweep(template, work) for _ in range(args.reps)]
    med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    per_game_ms = 1000 * med["cpu_s"] / max(1.0, med["notices"])
    print(
        f"{args.games} games due ({private} mid private turn), {args.turns} turns in; "
        f"median of {args.reps} sweeps: {med['cpu_s']:.3f} s CPU ({per_game_ms:.2f} ms a game), "
        f"channel_view {med['channel_view_s']:.3f} s, stretch {med['stretch_s']:.3f} s, "
        f"{med['log_reads']:.0f} log reads",
        file=sys.stderr,
    )
    print(
        json.dumps(
            {
                "bench": "sweep",
                "games": args.games,
                "private_turns": private,
                "turns": args.turns,
                "reps": args.reps,
                "sweep_cpu_ms": round(1000 * med["cpu_s"], 1),
                "sweep_wall_ms": round(1000 * med["wall_s"], 1),
                "per_game_cpu_ms": round(per_game_ms, 3),
                "channel_view_cpu_ms": round(1000 * med["channel_view_s"], 1),
                "stretch_cpu_ms": round(1000 * med["stretch_s"], 1),
                "log_reads": int(med["log_reads"]),
                "notices": int(med["notices"]),
                "whole_turn_notices": int(med["whole_turns"]),
            }
        )
    )


if __name__ == "__main__":
    asyncio.run(main())

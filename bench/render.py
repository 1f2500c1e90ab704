"""Board render benchmark: `python bench/render.py`; the last line is one JSON object of figures.

median_ms: one board PNG (state + last events -> bytes), warm caches, over varied mid-game states.
floor_ms: encoding a blank canvas of the same size and mode with the same PNG settings.
replay_300_s / replay_mib: an animated GIF of a 300-action game.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image

from engine.blockwars import Options, new_game
from render.blockwars import render_board
from render.blockwars.board import SQUARE, Geo, encode
from render.blockwars.theme import palette
from render.replay import random_log, render_replay


def positions(n: int) -> list[tuple[object, list]]:
    """Mid-game states with their last events, from seeded random games."""
    out = []
    for seed in range(4):
        s = new_game(Options(crosses=True, fighter_aces=True), seed)
        rng = random.Random(seed)
        events: list = []
        while not s.is_over() and len(out) < n * (seed + 1) // 4:
            events = s.apply(rng.choice(s.legal_actions()))
            if s.turn > 6 and rng.random() < 0.3:
                out.append((s.clone(), events))
    return out


def timed(fn, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return times


def main() -> None:
    cases = positions(60)
    for state, events in cases:  # warm the caches (tiles, text) as a running bot would have
        render_board(state, events)
    g = Geo(SQUARE)
    blank = Image.new("P", (g.width, g.height), 0)
    blank.putpalette(palette().getpalette() or [])
    # Interleave the floor with the renders, so a busy machine slows both alike.
    sizes, times, floors = [], [], []
    for _ in range(3):
        for state, events in cases:
            floors.extend(timed(lambda: encode(blank), 1))
            t = time.perf_counter()
            png = render_board(state, events)
            times.append((time.perf_counter() - t) * 1000)
            sizes.append(len(png))
    median = statistics.median(times)
    floor = statistics.median(floors)
    log = random_log("blockwars", {}, 0, 300)
    assert len(log) == 300
    t = time.perf_counter()
    gif = render_replay("blockwars", {}, 0, log)
    replay_s = time.perf_counter() - t
    figures = {
        "bench": "render",
        "size_px": f"{g.width}x{g.height}",
        "median_ms": round(median, 2),
        "p90_ms": round(sorted(times)[int(len(times) * 0.9)], 2),
        "floor_ms": round(floor, 2),
        "floor_ratio": round(median / floor, 2),
        "png_kb": round(statistics.median(sizes) / 1024, 1),
        "png_max_kb": round(max(sizes) / 1024, 1),
        "replay_300_s": round(replay_s, 2),
        "replay_mib": round(len(gif) / 2**20, 2),
    }
    print(
        f"board PNG {figures['size_px']}: median {median:.2f} ms (floor {floor:.2f} ms, "
        f"x{median / floor:.2f}), {figures['png_kb']} KB; replay of 300 actions {replay_s:.2f} s, "
        f"{figures['replay_mib']} MiB"
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()

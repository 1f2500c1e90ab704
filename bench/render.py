"""Board render benchmark for any hosted game: `python bench/render.py [--game blockwars]`.

median_ms: one board PNG (view + the last action's events -> bytes) through the game's renderer,
warm caches, over varied positions from seeded random games. floor_ms: encoding a blank palette
canvas of the same size with the same PNG settings (what no renderer can beat). cpu_median_ms: the
same renders' CPU time (the thread's clock), which a machine busy with other work does not inflate.
replay_300_s / replay_mib: an animated GIF of a 300-action game (or of the whole game if it ends sooner).
min_text_css_px_at_400: the smallest text drawn on any of those boards, in CSS pixels when the
image is shown 400 CSS pixels wide (a phone): the font sizes the renderer really drew
(render.kit.measuring) x 400 / the image's width; 12 or more reads on a phone.
max_height_ratio_at_400: the tallest board's height over its width (the same at any size shown:
at 400 CSS px wide, 1.6 is 640 CSS px tall, about a phone's screen), over boards at the start,
middle and end of seeded random games, each drawing the whole stretch one side played before the
other had to act (as a hand-off posts it); `height_ratio` gives the worst of each stage.
`--game all` measures every hosted game and gives each one's figures under "games".
The last line is one JSON object of figures.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image

from engine import registry
from engine.protocol import Event, View
from render import renderer, seen
from render.kit import css_px_at, encode, measuring
from render.replay import random_log, render_replay


def positions(game: str, n: int) -> list[tuple[View, list[Event]]]:
    """Positions with their last events, as the channel sees them, from seeded random games."""
    rules = registry.game(game)
    out: list[tuple[View, list[Event]]] = []
    seed = 0
    while len(out) < n and seed < 50:
        s = rules.new_game({}, seed)
        rng = random.Random(seed)
        steps = 0
        while not s.is_over() and len(out) < n * (seed + 1) // 4 + 1:
            side = min(s.to_act())
            events = s.apply(rng.choice(s.legal_actions(side)), side)
            steps += 1
            if steps > 10 and rng.random() < 0.3:
                out.append((s.view(None), seen(events, None)))
        seed += 1
    return out[:n]


def stages(game: str, seeds: range = range(4)) -> dict[str, list[tuple[View, list[Event]]]]:
    """Boards at the start, middle and end of seeded random games (a third of the game each), each
    with the events of the stretch one side played before the other had to act."""
    rules = registry.game(game)
    out: dict[str, list[tuple[View, list[Event]]]] = {"start": [], "middle": [], "end": []}
    for seed in seeds:
        s = rules.new_game({}, seed)
        rng = random.Random(seed)
        boards: list[tuple[View, list[Event]]] = []
        stretch: list[Event] = []
        last = None
        while not s.is_over() and len(boards) < 3000:
            side = min(s.to_act())
            if last is not None and side != last:
                boards.append((s.view(None), seen(stretch, None)))  # a hand-off: its board
                stretch = []
            last = side
            stretch += s.apply(rng.choice(s.legal_actions(side)), side)
        boards.append((s.view(None), seen(stretch, None)))
        third = max(1, len(boards) // 3)
        for name, part in (
            ("start", boards[:third]),
            ("middle", boards[third:-third]),
            ("end", boards[-third:]),
        ):
            out[name] += part[:: max(1, len(part) // 12)]  # about a dozen of each
    return out


def height_ratios(game: str) -> dict[str, float]:
    """The tallest board of each stage, as height / width."""
    draw = renderer(game)
    worst: dict[str, float] = {}
    for name, boards in stages(game).items():
        for view, events in boards:
            w, h = Image.open(io.BytesIO(draw.board(view, events))).size
            worst[name] = max(worst.get(name, 0.0), h / w)
    return {name: round(r, 2) for name, r in worst.items()}


def phone_css_px(game: str, cases: list[tuple[View, list[Event]]]) -> float:
    """The smallest text of these boards in CSS px at 400 px wide, from the sizes really drawn."""
    draw = renderer(game)
    smallest = float("inf")
    for view, events in cases:
        with measuring() as sizes:
            png = draw.board(view, events)
        smallest = min(smallest, css_px_at(sizes, Image.open(io.BytesIO(png)).width))
    return smallest


def bench(game: str) -> dict[str, object]:
    """The figures of one game (printing a line of words about them)."""
    draw = renderer(game)
    cases = positions(game, 60)
    warm = [draw.board(view, events) for view, events in cases]  # the caches a running bot has
    sample = Image.open(io.BytesIO(warm[0]))
    size = sample.size
    blank = Image.new("P", size, 0)
    blank.putpalette(sample.getpalette() or [0, 0, 0] * 256)
    # Interleave the floor with the renders, so a busy machine slows both alike.
    sizes, times, floors, cpu = [], [], [], []
    for _ in range(3):
        for view, events in cases:
            t = time.perf_counter()
            encode(blank)
            floors.append((time.perf_counter() - t) * 1000)
            t, c = time.perf_counter(), time.thread_time()
            png = draw.board(view, events)
            times.append((time.perf_counter() - t) * 1000)
            cpu.append((time.thread_time() - c) * 1000)
            sizes.append(len(png))
    median = statistics.median(times)
    floor = statistics.median(floors)
    log = random_log(game, {}, 0, 300)
    t = time.perf_counter()
    gif = render_replay(game, {}, 0, log)
    replay_s = time.perf_counter() - t
    ratios = height_ratios(game)
    phone = phone_css_px(game, cases)  # last: it empties the caches the timings above rely on
    figures: dict[str, object] = {
        "bench": "render",
        "game": game,
        "size_px": f"{size[0]}x{size[1]}",
        "median_ms": round(median, 2),
        "cpu_median_ms": round(statistics.median(cpu), 2),
        "p90_ms": round(sorted(times)[int(len(times) * 0.9)], 2),
        "floor_ms": round(floor, 2),
        "floor_ratio": round(median / floor, 2),
        "png_kb": round(statistics.median(sizes) / 1024, 1),
        "png_max_kb": round(max(sizes) / 1024, 1),
        "replay_actions": len(log),
        "replay_300_s": round(replay_s, 2),
        "replay_mib": round(len(gif) / 2**20, 2),
        "min_text_css_px_at_400": round(phone, 1),
        "max_height_ratio_at_400": max(ratios.values()),
        "height_ratio": ratios,
    }
    print(
        f"{game} board PNG {figures['size_px']}: median {median:.2f} ms (floor {floor:.2f} ms, "
        f"x{median / floor:.2f}), {figures['png_kb']} KB; replay of {len(log)} actions {replay_s:.2f} s, "
        f"{figures['replay_mib']} MiB; smallest text {phone:.1f} CSS px at 400 px wide; tallest board "
        f"{max(ratios.values()):.2f} x its width"
    )
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--game", default="blockwars", choices=(*registry.names(), "all"), help="which game, or all"
    )
    args = parser.parse_args()
    if args.game == "all":
        games = {name: bench(name) for name in registry.names()}
        tallest = max(float(str(g["max_height_ratio_at_400"])) for g in games.values())
        print(json.dumps({"bench": "render", "max_height_ratio_at_400": tallest, "games": games}))
    else:
        print(json.dumps(bench(args.game)))


if __name__ == "__main__":
    main()

"""A whole game as an animation, for every game: one frame per action, as the channel saw it.

The log is replayed through the game's engine (seed plus log is the game), each position is drawn
by the game's renderer from the spectator's view, so a replay shows nothing a player kept secret.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from PIL import Image

from engine import registry
from render import renderer, seen
from render.kit import animate

FRAME_MS = 900
LAST_FRAME_MS = 4000

Log = list[tuple[str, str]]  # (side, notation)


def frames(game: str, options: Mapping[str, Any], seed: int, log: Log) -> list[Image.Image]:
    """Replay the log step by step (the engine is deterministic) and draw each resulting position."""
    rules = registry.game(game)
    draw = renderer(game)
    state = rules.new_game(options, seed)
    out = [draw.frame(state.view(None), [])]
    for side, notation in log:
        events = state.apply(rules.parse(notation), side)
        out.append(draw.frame(state.view(None), seen(events, None)))
    return same_size(out)


def same_size(pictures: list[Image.Image]) -> list[Image.Image]:
    """The frames on one canvas size, the largest: a board grows downwards when it has more to say
    (a long last action), and an animation's frames must all be one size. A smaller frame keeps
    its top-left corner and is extended with the colour of its bottom-left pixel (the page)."""
    width = max(p.width for p in pictures)
    height = max(p.height for p in pictures)
    out = []
    for p in pictures:
        if p.size != (width, height):
            page = p.getpixel((0, p.height - 1))
            grown = Image.new(p.mode, (width, height), page)
            if p.mode == "P":
                grown.putpalette(p.getpalette() or [])
            grown.paste(p, (0, 0))
            p = grown
        out.append(p)
    return out


def render_replay(game: str, options: Mapping[str, Any], seed: int, log: Log, fmt: str = "gif") -> bytes:
    """The game as an animated GIF (or APNG with fmt="png"), looping, the last frame held longer."""
    pics = frames(game, options, seed, log)
    return animate(pics, [FRAME_MS] * (len(pics) - 1) + [LAST_FRAME_MS], fmt)


def random_log(game: str, options: Mapping[str, Any], seed: int, n: int) -> Log:
    """Up to `n` seeded random actions as a (side, notation) log: for examples, benchmarks and tests."""
    rules = registry.game(game)
    state = rules.new_game(options, seed)
    rng = random.Random(seed)
    log: Log = []
    while len(log) < n and not state.is_over():
        side = min(state.to_act())
        action = rng.choice(state.legal_actions(side))
        state.apply(action, side)
        log.append((side, str(action)))
    return log

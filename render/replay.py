"""A whole game as an animation: one frame per action, with the same highlights as the board posts.

Frames are drawn at a smaller square size and straight into the shared palette, so there is no
per-frame colour quantisation; the GIF writer then stores only the rectangle that changed from
one frame to the next, which keeps a 300-action game within Discord's upload limit.
"""

from __future__ import annotations

import io

from PIL import Image

from engine.blockwars import Options, Side, new_game, parse
from render.board import draw
from render.theme import SPARE

REPLAY_SQUARE = 52  # a 300-action GIF stays a few MiB at this size
FRAME_MS = 900
LAST_FRAME_MS = 4000


def frames(
    options: Options, seed: int, log: list[tuple[Side, str]], s: int = REPLAY_SQUARE
) -> list[Image.Image]:
    """Replay the log step by step (the engine is deterministic) and draw each resulting position."""
    state = new_game(options, seed)
    out = [draw(state, (), s=s)]
    for side, notation in log:
        events = state.apply(parse(notation), side)
        out.append(draw(state, events, s=s))
    return out


def render_replay(options: Options, seed: int, log: list[tuple[Side, str]], fmt: str = "gif") -> bytes:
    """The game as an animated GIF (or APNG with fmt="png"), looping, the last frame held longer."""
    pics = frames(options, seed, log)
    durations = [FRAME_MS] * (len(pics) - 1) + [LAST_FRAME_MS]
    buf = io.BytesIO()
    if fmt == "gif":
        # optimize + a spare transparent index: unchanged pixels become one run, which LZW loves.
        pics[0].save(buf, "GIF", save_all=True, append_images=pics[1:], duration=durations, loop=0,
                     optimize=True, disposal=1, transparency=SPARE)
    elif fmt in ("png", "apng"):
        pics[0].save(buf, "PNG", save_all=True, append_images=pics[1:], duration=durations, loop=0,
                     compress_level=3, disposal=0, blend=0)
    else:
        raise ValueError(f"unknown replay format {fmt!r}: use 'gif' or 'png'")
    return buf.getvalue()


def random_log(options: Options, seed: int, n: int) -> list[tuple[Side, str]]:
    """Up to `n` seeded random actions as a (side, notation) log: for examples, benchmarks and tests."""
    import random

    state = new_game(options, seed)
    rng = random.Random(seed)
    log: list[tuple[Side, str]] = []
    while len(log) < n and not state.is_over():
        side = state.current_player()
        assert side is not None
        action = rng.choice(state.legal_actions())
        state.apply(action, side)
        log.append((side, str(action)))
    return log

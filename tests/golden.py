"""Golden images: fixed positions rendered and compared with stored PNGs, within a tolerance.

Regenerate after an intended change of look with `make golden`
(= `python -m tests.golden --regenerate`), look at the new tests/golden/*.png, and commit them.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from PIL import Image, ImageChops

from render.blockwars import render_board
from render.blockwars.examples import SCENARIOS

GOLDEN_DIR = Path(__file__).parent / "golden"
NAMES = ("opening", "wire_tie", "barrage", "tank_and_strafe", "won", "overlay")
# Tolerance: at most this share of pixels may differ by more than PIXEL_TOLERANCE (per channel),
# which absorbs font-hinting or resampling differences between Pillow/FreeType builds.
MAX_CHANGED = 0.005
PIXEL_TOLERANCE = 48


def render(name: str) -> bytes:
    state, events, overlay = SCENARIOS[name]()
    return render_board(state, events, overlay=overlay)


def changed_share(a: bytes, b: bytes) -> float:
    """The share of pixels that differ noticeably between two PNGs (1.0 if the sizes differ)."""
    ia = Image.open(io.BytesIO(a)).convert("RGB")
    ib = Image.open(io.BytesIO(b)).convert("RGB")
    if ia.size != ib.size:
        return 1.0
    diff = ImageChops.difference(ia, ib).convert("L").point(lambda v: 255 if v > PIXEL_TOLERANCE else 0)
    changed = diff.histogram()[255]
    return changed / (ia.width * ia.height)


def regenerate() -> None:
    GOLDEN_DIR.mkdir(exist_ok=True)
    for name in NAMES:
        (GOLDEN_DIR / f"{name}.png").write_bytes(render(name))
        print(f"wrote {GOLDEN_DIR / name}.png")


if __name__ == "__main__":
    if "--regenerate" in sys.argv:
        regenerate()
    else:
        for n in NAMES:
            share = changed_share(render(n), (GOLDEN_DIR / f"{n}.png").read_bytes())
            print(f"{n}: {share:.4%} of pixels changed")

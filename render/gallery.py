"""Every hosted game's board as the channel sees it, at full size and as a phone shows it (400 px
wide): `python -m render.gallery [dir]` (docs/images by default).

The position is a seeded random game's, at a hand-off past its middle: the board drawn with the
events of the whole stretch the side played before the other had to act, as the bot posts it. The
400 px copy is the picture scaled the way a phone scales it, for judging it as a player would.
"""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path

from PIL import Image

from engine import registry
from engine.protocol import Event, State
from render import renderer, seen

PHONE = 400  # CSS px: the width a phone shows an image in Discord
MOST = 400  # actions played at most


def hand_off(game: str, seed: int = 7) -> tuple[State, list[Event]]:
    """The position at a hand-off about 60 % into a seeded random game, with the stretch of events
    that led to it (one side's actions, as one board per hand-off draws them)."""
    rules = registry.game(game)
    state = rules.new_game({}, seed)
    rng = random.Random(seed)
    stops: list[tuple[State, list[Event]]] = []
    stretch: list[Event] = []
    last = None
    for _ in range(MOST):
        if state.is_over():
            break
        side = min(state.to_act())
        if side != last and stretch:
            stops.append((state.clone(), stretch))
            stretch = []
        last = side
        stretch = [*stretch, *state.apply(rng.choice(state.legal_actions(side)), side)]
    stops.append((state, stretch))
    return stops[min(len(stops) - 1, len(stops) * 3 // 5)]


def phone_copy(png: bytes) -> Image.Image:
    """The picture scaled to a phone's width, as Discord shows it there."""
    im = Image.open(io.BytesIO(png)).convert("RGB")
    return im.resize((PHONE, round(im.height * PHONE / im.width)), Image.Resampling.LANCZOS)


def main(out: Path = Path("docs/images")) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for game in registry.names():
        state, events = hand_off(game)
        png = renderer(game).board(state.view(None), seen(events, None))
        (out / f"{game}-board.png").write_bytes(png)
        phone_copy(png).quantize(256).save(out / f"{game}-board-400.png", optimize=True)
        print(f"wrote {out / game}-board.png and -board-400.png", file=sys.stderr)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/images"))

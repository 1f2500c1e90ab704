"""Colours and the fixed palette of the Combined Arms boards (both eras share them)."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.kit import Palette

KEY: dict[str, tuple[int, int, int]] = {
    "page": (246, 243, 234),
    "ink": (34, 32, 28),
    "muted": (112, 106, 96),
    "label": (92, 86, 76),
    "light": (236, 231, 211),
    "dark": (216, 209, 184),
    "panel": (255, 253, 247),
    "rule": (205, 198, 180),
    # the sides: fill, edge, ink
    "s0": (214, 186, 122),
    "s0_edge": (96, 70, 24),
    "s0_ink": (52, 36, 8),
    "s0_hi": (150, 112, 40),
    "s1": (160, 176, 194),
    "s1_edge": (38, 50, 70),
    "s1_ink": (18, 26, 40),
    "s1_hi": (64, 92, 132),
    # terrain
    "trench": (190, 160, 116),
    "trench_line": (120, 92, 56),
    "bunker": (158, 158, 154),
    "bunker_line": (84, 84, 82),
    "nml": (206, 196, 176),
    "crater": (150, 136, 112),
    "difficult": (178, 202, 146),
    "tree": (78, 116, 58),
    "city": (222, 196, 196),
    "city_line": (140, 72, 72),
    "deploy": (232, 222, 196),
    # marks
    "hit": (206, 32, 32),
    "retreat": (232, 128, 0),
    "move0": (120, 84, 20),
    "move1": (40, 72, 120),
    "last": (250, 200, 30),
    "elite": (236, 178, 20),
    "hq": (196, 150, 16),
    "dmg": (196, 24, 24),
    "white": (255, 255, 255),
    "reach": (60, 150, 70),
    "ghost": (180, 170, 150),
}

INDEX = {name: i for i, name in enumerate(KEY)}


def _samples() -> Image.Image:
    """Blends the sprites make when drawn anti-aliased: tokens over each square colour."""
    im = Image.new("RGB", (240, 40), KEY["page"])
    d = ImageDraw.Draw(im)
    for i, c in enumerate(("s0", "s1", "elite", "hit", "retreat")):
        d.ellipse([i * 40 + 4, 4, i * 40 + 36, 36], fill=KEY[c], outline=KEY["ink"], width=2)
    return im


PALETTE = Palette(KEY, _samples)


def side_key(side: int, part: str = "") -> str:
    return f"s{side}{'_' + part if part else ''}"


__all__ = ["INDEX", "KEY", "PALETTE", "side_key"]

"""One tolerance for how players type notation, shared by every game (`BaseGame.parse` applies it).

Players type `F2 - E1`, `R @ c1`, `e5 x e6`, `march fwd ORd1, RRe1` or end a list of rows with a
stray `/`. No game's notation gives meaning to spaces around its punctuation or to a separator at
the very end, so they are taken away before the game reads the text: each game then parses one
tidy form, and the tolerance is the same everywhere.
"""

from __future__ import annotations

import re

_AROUND = re.compile(r"\s*([-/@,>→])\s*")  # the punctuation of moves, set-ups, lists and reinforcements
_CAPTURE = re.compile(r"(?<=\d)\s*x\s*(?=[a-z]\d)", re.IGNORECASE)  # "e5 x e6": an attack between squares
_TRAILING = "/,"


def tidy(text: str) -> str:
    """`text` with runs of spaces made one, none around punctuation, and no separator at the end."""
    out = " ".join(str(text).split())
    out = _AROUND.sub(r"\1", out)
    out = _CAPTURE.sub("x", out)
    return out.rstrip(_TRAILING).rstrip()


__all__ = ["tidy"]

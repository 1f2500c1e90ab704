"""The fixed facts of Fix Bayonets: sides, the five kinds of men, the board and the set-up layouts.

Squares are indices of `engine.grid.CHESSBOARD` (a1 = 0 ... h8 = 63). The Americans hold rank 1
and the Germans rank 8 (R1); "forward" is up the board for the Americans, down for the Germans.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.errors import InvalidNotation
from engine.grid import CHESSBOARD

# The phases of a game (`State.phase`) and the most cards a hand keeps at the end of a turn.
SETUP, DISCARD, MOVING, FIGHTING, OVER = "setup", "discard", "move", "fight", "over"
HAND_LIMIT = 5
GRID = CHESSBOARD
NAMES = GRID.names
GERMANS, AMERICANS = "germans", "americans"
SIDES = (GERMANS, AMERICANS)
TITLE = {GERMANS: "Germans", AMERICANS: "Americans"}
ADJECTIVE = {GERMANS: "German", AMERICANS: "American"}
FORWARD = {GERMANS: -1, AMERICANS: 1}
BACK_RANK = {GERMANS: 7, AMERICANS: 0}
FIRST = GERMANS  # (R1) the attackers open the battle


def other(side: str) -> str:
    return AMERICANS if side == GERMANS else GERMANS


# Kinds of men, in the canonical order notation writes them (most valuable first).
KINDS = "OHSUR"
KIND_INDEX = {k: i for i, k in enumerate(KINDS)}
SINGULAR = {"O": "officer", "H": "specialist", "S": "sniper", "U": "runner", "R": "rifleman"}
PLURAL = {"O": "officers", "H": "specialists", "S": "snipers", "U": "runners", "R": "riflemen"}
LONG = {
    "O": "officer",
    "H": "heavy weapons specialist",
    "S": "sniper",
    "U": "runner",
    "R": "rifleman",
}
KIND_WORDS = {
    **{w: k for k, w in SINGULAR.items()},
    **{w: k for k, w in PLURAL.items()},
    "heavy": "H",
    "hws": "H",
    "gunner": "H",
}
FORCE = {"O": 2, "H": 2, "S": 1, "U": 1, "R": 10}
MOVES_PER_TURN = {"O": 1, "H": 1, "S": 1, "U": 2, "R": 1}  # the runner moves twice
LOSS_ORDER = "RUSHO"  # who falls first when casualties are chosen automatically (R16)
MEN_PER_SIDE = sum(FORCE.values())  # 16
# Unit ids: 0-15 German, 16-31 American; each side's ids in the order O O H H S U R*10.
UNIT_KINDS = "".join(k * FORCE[k] for k in KINDS)
ALL_UNITS = tuple(range(2 * MEN_PER_SIDE))


def unit_side(uid: int) -> str:
    return GERMANS if uid < MEN_PER_SIDE else AMERICANS


def unit_kind(uid: int) -> str:
    return UNIT_KINDS[uid % MEN_PER_SIDE]


def side_units(side: str) -> range:
    base = 0 if side == GERMANS else MEN_PER_SIDE
    return range(base, base + MEN_PER_SIDE)


def men_words(kinds: str) -> str:
    """'ORR' -> 'an officer and 2 riflemen' (kinds in any order)."""
    parts = []
    for k in KINDS:
        n = kinds.count(k)
        if n == 1:
            parts.append(f"{'an' if SINGULAR[k][0] in 'aeiou' else 'a'} {SINGULAR[k]}")
        elif n > 1:
            parts.append(f"{n} {PLURAL[k]}")
    return join_words(parts)


def join_words(parts: list[str]) -> str:
    if not parts:
        return "nothing"
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def canonical_kinds(kinds: str) -> str:
    return "".join(sorted(kinds.upper(), key=lambda k: KIND_INDEX[k]))


# ------------------------------------------------------------------------------- set-up layouts

Layout = tuple[str, ...]  # eight pairs of kind letters, files a..h of the back row

PRESETS: dict[str, Layout] = {
    # Officers in the centre, each beside a rifleman; the specialists a square in from the flanks.
    "std": ("RR", "HR", "SR", "OR", "OR", "UR", "HR", "RR"),
    # Officers out on the flanks, where fewer straight lines reach them.
    "wings": ("OR", "HR", "SR", "RR", "RR", "UR", "HR", "OR"),
    # Officers a file in from the edge, the heavy weapons in the centre.
    "guard": ("RR", "OR", "SR", "HR", "HR", "UR", "OR", "RR"),
    # Both officers on one square: safe from single shots, not from a grenade.
    "huddle": ("RR", "HR", "SR", "OO", "RR", "UR", "HR", "RR"),
}
PRESET_WORDS = {
    "std": "the standard layout: officers in the centre",
    "wings": "officers on the flanks",
    "guard": "officers a file in from the flanks, heavy weapons in the centre",
    "huddle": "both officers together in the centre",
}


def check_layout(layout: Layout) -> Layout:
    """A layout with each square's letters in canonical order; InvalidNotation when it is not 16
    men of the right kinds, two to each of the eight squares."""
    if len(layout) != 8:
        raise InvalidNotation(f"A set-up names 8 squares (files a to h), not {len(layout)}.")
    out = []
    for pair in layout:
        pair = pair.strip().upper()
        if len(pair) != 2 or any(k not in KIND_INDEX for k in pair):
            raise InvalidNotation(
                f"'{pair[:6]}' is not two men: use two of O (officer), H (heavy weapons), S (sniper), "
                "U (runner), R (rifleman) per square."
            )
        out.append(canonical_kinds(pair))
    letters = "".join(out)
    for k in KINDS:
        if letters.count(k) != FORCE[k]:
            have = letters.count(k)
            raise InvalidNotation(
                f"A set-up has {FORCE[k]} {PLURAL[k] if FORCE[k] != 1 else SINGULAR[k]}, "
                f"not {have}: 2 O, 2 H, 1 S, 1 U and 10 R."
            )
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Options:
    open_hands: bool = False  # the Strategic Version: hands face up
    turn_limit: int = 30  # rounds; the game is drawn when the Americans end the last one; 0: none (R20)

    def to_json(self) -> dict[str, Any]:
        return {"open_hands": self.open_hands, "turn_limit": self.turn_limit}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Options:
        return Options(bool(data.get("open_hands", False)), int(data.get("turn_limit", 30)))

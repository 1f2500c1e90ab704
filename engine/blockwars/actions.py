"""Actions as small immutable values with a short text notation that parses back.

Every action is interned: the generator and the parser hand out the same object for the same
action, so legality checks can compare by identity on the hot path. See rules/blockwars.md for the table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.action import GameAction
from engine.blockwars.model import Layout
from engine.blockwars.squares import FILES, SQUARE_NAMES, square
from engine.errors import InvalidNotation
from engine.meta import (
    ABANDON,
    DRAW_ACCEPT,
    DRAW_DECLINE,
    DRAW_OFFER,
    RESIGN,
    TIMEOUT,
    Abandon,
    DrawAccept,
    DrawDecline,
    DrawOffer,
    MetaAction,
    Resign,
    Timeout,
)

_SQ = r"([a-h][1-8])"


@dataclass(frozen=True, slots=True)
class Action(GameAction):
    """Base of the game's own actions; the shared ones (resign, draw, timeout) are `engine.meta`'s."""


@dataclass(frozen=True, slots=True)
class Move(Action):
    """An infantry step to a neighbouring empty square."""

    src: int
    dst: int

    def __str__(self) -> str:
        return f"{SQUARE_NAMES[self.src]}-{SQUARE_NAMES[self.dst]}"


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """An infantry attack (after an optional step to `via`) or a machine gun firing from `src`."""

    src: int
    target: int
    via: int | None = None

    def __str__(self) -> str:
        step = f"-{SQUARE_NAMES[self.via]}" if self.via is not None else ""
        return f"{SQUARE_NAMES[self.src]}{step}x{SQUARE_NAMES[self.target]}"


@dataclass(frozen=True, slots=True)
class TankMove(Action):
    forward: bool

    def __str__(self) -> str:
        return "T+" if self.forward else "T-"


@dataclass(frozen=True, slots=True)
class TankFire(Action):
    target: int

    def __str__(self) -> str:
        return f"Tx{SQUARE_NAMES[self.target]}"


@dataclass(frozen=True, slots=True)
class Reinforce(Action):
    """Bring a unit onto the back row: infantry on `at`, a machine gun back from the casualties on
    `at` (an Ace only, R13), or the tank with its lower-left corner on `at`.

    Used both as the two-action reinforcement and as the answer to an Ace.
    """

    at: int
    tank: bool = False
    gun: bool = False

    def __str__(self) -> str:
        return f"{'T' if self.tank else 'M' if self.gun else 'R'}@{SQUARE_NAMES[self.at]}"


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class Setup(Action):
    """Deploy a side; `layout` None means the standard deployment."""

    layout: Layout | None = None

    def __str__(self) -> str:
        return f"setup {self.layout}" if self.layout else "setup std"


@dataclass(frozen=True, slots=True)
class Barrage(Action):
    at: int
    gas: bool = False

    def __str__(self) -> str:
        return f"{'gas' if self.gas else 'barrage'} {SQUARE_NAMES[self.at]}"


@dataclass(frozen=True, slots=True)
class Fly(Action):
    aircraft: str

    def __str__(self) -> str:
        return f"fly {self.aircraft}"


@dataclass(frozen=True, slots=True)
class Dogfight(Action):
    aircraft: str

    def __str__(self) -> str:
        return f"dogfight {self.aircraft}"


@dataclass(frozen=True, slots=True)
class Strafe(Action):
    target: int

    def __str__(self) -> str:
        return f"strafe {SQUARE_NAMES[self.target]}"


@dataclass(frozen=True, slots=True)
class UseCross(Action):
    def __str__(self) -> str:
        return "cross"


@dataclass(frozen=True, slots=True)
class Decline(Action):
    """Say no to an optional choice: a dogfight, a strafe, spending the Cross."""

    def __str__(self) -> str:
        return "decline"


@dataclass(frozen=True, slots=True)
class BareSquare(Action):
    """A square alone ("a8"), as players answer "choose a square": the state turns it into the
    pending decision's answer on that square (`barrage a8`, `R@a8`, `strafe a8`) or says what to type."""

    at: int

    def __str__(self) -> str:
        return SQUARE_NAMES[self.at]


_INTERNED: dict[tuple[object, ...], Action] = {}


def intern(action: Action) -> Action:
    """Return the one shared instance equal to `action`."""
    key = (type(action), *(getattr(action, f) for f in action.__dataclass_fields__))
    found = _INTERNED.get(key)
    if found is None:
        _INTERNED[key] = found = action
    return found


def move(src: int, dst: int) -> Move:
    key = (Move, src, dst)
    found = _INTERNED.get(key)
    if found is None:
        _INTERNED[key] = found = Move(src, dst)
    return found  # type: ignore[return-value]


def attack(src: int, target: int, via: int | None = None) -> Attack:
    key = (Attack, src, target, via)
    found = _INTERNED.get(key)
    if found is None:
        _INTERNED[key] = found = Attack(src, target, via)
    return found  # type: ignore[return-value]


END = intern(EndTurn())
DECLINE = intern(Decline())
USE_CROSS = intern(UseCross())
TANK_FORWARD = intern(TankMove(True))
TANK_BACK = intern(TankMove(False))

_WORDS: dict[str, Action | MetaAction] = {
    "end": END,
    "decline": DECLINE,
    "no": DECLINE,
    "cross": USE_CROSS,
    "resign": RESIGN,
    "timeout": TIMEOUT,
    "abandon": ABANDON,
    "offer draw": DRAW_OFFER,
    "accept draw": DRAW_ACCEPT,
    "decline draw": DRAW_DECLINE,
    "t+": TANK_FORWARD,
    "t-": TANK_BACK,
}

_PATTERNS: list[tuple[re.Pattern[str], type[Action]]] = [
    (re.compile(rf"^{_SQ}$"), BareSquare),
    (re.compile(rf"^{_SQ}-{_SQ}$"), Move),
    (re.compile(rf"^{_SQ}(?:-{_SQ})?x{_SQ}$"), Attack),
    (re.compile(rf"^tx{_SQ}$"), TankFire),
    (re.compile(rf"^([rmt])@{_SQ}$"), Reinforce),
    (re.compile(r"^setup\s+(std|standard|[a-h]{4}/[a-h]{4}/[a-h]{1,2})$"), Setup),
    (re.compile(rf"^(barrage|gas)\s+{_SQ}$"), Barrage),
    (re.compile(r"^fly\s+([ab])$"), Fly),
    (re.compile(r"^dogfight\s+([ab])$"), Dogfight),
    (re.compile(rf"^strafe\s+{_SQ}$"), Strafe),
]

# Answers typed without the part they need, and other games' words: say exactly what to type.
_INCOMPLETE: dict[str, tuple[str, tuple[str, ...]]] = {  # words, and the notations they show
    "pass": (
        "Block Wars has no `pass`: send `end` to end your turn (any actions left are not used).",
        ("pass", "end"),
    ),
    "barrage": ("Give the barrage's centre square too, e.g. `barrage e4`.", ("barrage e4",)),
    "gas": ("Give the gas barrage's centre square too, e.g. `gas e4`.", ("gas e4",)),
    "strafe": ("Give the square of the enemy unit to strafe, e.g. `strafe e4`.", ("strafe e4",)),
    "fly": ("Give the aircraft that flies: `fly A` or `fly B`.", ("fly A", "fly B")),
    "dogfight": (
        "Give the aircraft that meets the strafer: `dogfight A` or `dogfight B`.",
        ("dogfight A", "dogfight B"),
    ),
    "r@": ("Give the back-row square the infantry arrives on, e.g. `R@c1`.", ("R@c1",)),
    "m@": ("Give the back-row square the machine gun returns to, e.g. `M@c1`.", ("M@c1",)),
    "t@": ("Give the tank's lower-left square on rank 1, e.g. `T@c1`.", ("T@c1",)),
    "setup": (
        "Give a layout: `setup std`, or the back-row / second-row / machine-gun files, e.g. "
        "`setup bcfg/cdef/cf`.",
        ("setup std", "setup bcfg/cdef/cf"),
    ),
}

_NO_DASH = re.compile(r"^([a-h][1-8])([a-h][1-8])$")
_OFF_BOARD = re.compile(r"(?<![a-wyz0-9])(?:[i-z]\d+|[a-h](?:9|0|\d\d+))(?!\d)")  # i4, a9, b10

EXAMPLES = (
    "e2-e3 (move), e4-e5xe6 (move and attack), e5xe6 (attack without moving), c6xd4 (machine gun), "
    "T+ / T- (tank forward / back), Txd5 (tank machine gun), R@c1 (reinforce), T@c1 (tank), end"
)


def _layout(text: str) -> Layout | None:
    if text in ("std", "standard"):
        return None
    back, second, guns = text.split("/")
    return Layout("".join(sorted(back)), "".join(sorted(second)), "".join(sorted(guns)))


def parse(text: str) -> Action | MetaAction:
    """Parse notation (case and extra spaces do not matter); raise InvalidNotation if it is not one."""
    norm = " ".join(str(text).strip().lower().split())
    if norm in _WORDS:
        return _WORDS[norm]
    for pattern, kind in _PATTERNS:
        m = pattern.match(norm)
        if not m:
            continue
        g = m.groups()
        if kind is BareSquare:
            return intern(BareSquare(square(g[0])))
        if kind is Move:
            return move(square(g[0]), square(g[1]))
        if kind is Attack:
            return attack(square(g[0]), square(g[2]), square(g[1]) if g[1] else None)
        if kind is TankFire:
            return intern(TankFire(square(g[0])))
        if kind is Reinforce:
            return intern(Reinforce(square(g[1]), tank=g[0] == "t", gun=g[0] == "m"))
        if kind is Setup:
            return intern(Setup(_layout(g[0])))
        if kind is Barrage:
            return intern(Barrage(square(g[1]), gas=g[0] == "gas"))
        if kind is Fly:
            return intern(Fly(g[0].upper()))
        if kind is Dogfight:
            return intern(Dogfight(g[0].upper()))
        if kind is Strafe:
            return intern(Strafe(square(g[0])))
    if norm in _INCOMPLETE:
        raise InvalidNotation(*_INCOMPLETE[norm])
    shown = str(text).strip()[:40]
    if norm.startswith("setup "):  # a layout mistyped: the layouts, not the moves, are what help
        raise InvalidNotation(
            f"'{shown}' is not a layout: send `setup std`, or your back-row, second-row and "
            "machine-gun files, e.g. `setup bcfg/cdef/cf`.",
            ("setup std", "setup bcfg/cdef/cf"),
        )
    off = _OFF_BOARD.search(norm)
    if off:
        raise InvalidNotation(f"There is no square {off.group(0)}: the board runs from a1 to h8.")
    if joined := _NO_DASH.match(norm):  # chess's long notation, "e2e4"
        src, dst = joined.groups()
        raise InvalidNotation(
            # unquoted, so no example to try in the position: one of the two may well be legal
            f"Put a dash between the squares of a move, {src}-{dst}, or an x before the square you "
            f"attack, {src}x{dst}."
        )
    raise InvalidNotation(f"'{shown}' is not an action I understand. Try: {EXAMPLES}.")


__all__ = [
    "EXAMPLES",
    "FILES",
    "Abandon",
    "Action",
    "Attack",
    "BareSquare",
    "Barrage",
    "Decline",
    "Dogfight",
    "DrawAccept",
    "DrawDecline",
    "DrawOffer",
    "EndTurn",
    "Fly",
    "MetaAction",
    "Move",
    "Reinforce",
    "Resign",
    "Setup",
    "Strafe",
    "TankFire",
    "TankMove",
    "Timeout",
    "UseCross",
    "parse",
]

"""The pieces of Battlefronts: the two sides, the nine places in a row, and a battalion's strength.

There is no board. The five fronts and the four travel zones between them are one row of nine
places, numbered 0..8 from the left: fronts on the even numbers (F1 = 0 ... F5 = 8) and travel
zones on the odd ones (T1 = 1 lies between F1 and F2). A place's neighbours are the numbers either
side of it, so every ordinary move is a step of one along the row.
"""

from __future__ import annotations

from engine.cards import ACE_LOW, FULL_PACK, Card
from engine.errors import InvalidNotation

RED, BLUE = "red", "blue"
SIDES = (RED, BLUE)
TITLES = {RED: "Reds", BLUE: "Blues"}
ADJECTIVES = {RED: "Red", BLUE: "Blue"}
LETTERS = {RED: "R", BLUE: "B"}
SIDE_OF_LETTER = {"R": RED, "B": BLUE}

PLACES = 9
FRONTS = (0, 2, 4, 6, 8)
ZONES = (1, 3, 5, 7)
PLACE_NAMES = tuple(f"F{i // 2 + 1}" if i % 2 == 0 else f"T{i // 2 + 1}" for i in range(PLACES))
_PLACE_OF = {n: i for i, n in enumerate(PLACE_NAMES)}
NEIGHBOURS = tuple(tuple(j for j in (i - 1, i + 1) if 0 <= j < PLACES) for i in range(PLACES))
WIN_FRONTS = 3  # uncontested fronts that win the game
BATTLE_DIVISOR = 5  # a side's total strength at a front, divided by this and rounded up, is its damage


def other(side: str) -> str:
    return BLUE if side == RED else RED


def is_front(place: int) -> bool:
    return place % 2 == 0


def place_of(name: str) -> int:
    """'F2' or 't3' to a place number; InvalidNotation if it names no front or zone."""
    found = _PLACE_OF.get(name.strip().upper())
    if found is None:
        raise InvalidNotation(f"'{name}' is not a place: fronts are F1 to F5, travel zones T1 to T4.")
    return found


# The value of each (interned) card on top of a battalion, 0 for a face card (it counts the stack):
# looked up rather than worked out, since the search reads strengths hundreds of thousands of times.
_VALUE: dict[Card, int] = {c: 0 if c.is_face else ACE_LOW(c) for c in FULL_PACK}


class Battalion:
    """A stack of one side's cards at one place: `cards[-1]` is the top, `up` says if it is face up.

    Every card below the top is face down and unknown to both players (R5); only the top, once
    turned, is public.
    """

    __slots__ = ("cards", "label", "moved", "num", "place", "side", "up")

    def __init__(
        self, side: str, num: int, place: int, cards: list[Card], up: bool, moved: bool = False
    ) -> None:
        self.side = side
        self.num = num
        self.label = f"{LETTERS[side]}{num}"
        self.place = place
        self.cards = cards
        self.up = up
        self.moved = moved

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def strength(self) -> int:
        """The fighting strength; 0 while the top is face down (only in a travel zone)."""
        if not self.up:
            return 0
        return _VALUE[self.cards[-1]] or len(self.cards)

    @property
    def face_led(self) -> bool:
        """Led by a face-up Jack, Queen or King: it may jump to any front."""
        return self.up and not _VALUE[self.cards[-1]]

    def copy(self) -> Battalion:
        new = Battalion.__new__(Battalion)
        new.side, new.num, new.label, new.place = self.side, self.num, self.label, self.place
        new.cards, new.up, new.moved = list(self.cards), self.up, self.moved
        return new

    def __repr__(self) -> str:
        top = self.cards[-1].code if self.up else "??"
        return f"Battalion({self.label} at {PLACE_NAMES[self.place]}: {top} of {len(self.cards)})"


def parse_label(text: str) -> tuple[str, int]:
    """'R3' to (side, number)."""
    t = text.strip().upper()
    side = SIDE_OF_LETTER.get(t[:1])
    if side is None or not t[1:].isdigit() or int(t[1:]) < 1:
        raise InvalidNotation(
            f"'{text}' is not a battalion: battalions are named like R3 (Red) or B5 (Blue)."
        )
    return side, int(t[1:])


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 card', '3 cards'."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def and_list(items: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def or_list(items: list[str]) -> str:
    """'a', 'a or b', 'a, b or c': the choices of a tie (R4)."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


__all__ = [
    "ADJECTIVES",
    "BATTLE_DIVISOR",
    "BLUE",
    "FRONTS",
    "LETTERS",
    "NEIGHBOURS",
    "PLACES",
    "PLACE_NAMES",
    "RED",
    "SIDES",
    "TITLES",
    "WIN_FRONTS",
    "ZONES",
    "Battalion",
    "and_list",
    "is_front",
    "or_list",
    "other",
    "parse_label",
    "place_of",
    "plural",
]

"""The 20 cards of the card list, three copies each: a custom 60-card deck for `engine.cards.Deck`.

Each card type is one interned object; a copy in the deck is the same object, so a hand is a
sorted list of these and a card's identity is its code. Ranges are distances along a straight
line (orthogonal or diagonal) (R7, R8); `knight` cards jump like a chess knight instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import InvalidNotation
from engine.fixbayonets.model import AMERICANS, GERMANS

ATTACK, MOVE, TERRAIN = "A", "M", "T"
COPIES = 3


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card type. `code` is its notation word; `lo`..`hi` its distances (0, 0 for a knight)."""

    index: int
    code: str
    name: str
    kind: str  # ATTACK, MOVE or TERRAIN
    lo: int = 0
    hi: int = 0
    knight: bool = False
    only: str | None = None  # the side that may play it, or None
    users: str = ""  # attack cards: the kinds of men that may use it
    area: bool = False  # kills a whole stack
    negates: str = ""  # terrain cards: the card kind they cancel

    def __repr__(self) -> str:
        return f"Card({self.code})"

    def __str__(self) -> str:
        return self.name

    @property
    def range_words(self) -> str:
        if self.knight:
            return "a knight's jump"
        if self.lo == self.hi:
            return f"exactly {self.lo}"
        return f"{self.lo} to {self.hi}"

    def usable_by(self, side: str) -> bool:
        return self.only is None or self.only == side


_PLAIN = "RSU"  # riflemen, snipers and runners use the ordinary weapons (R10)
CARD_TYPES: tuple[Card, ...] = (
    Card(0, "bayonet", "Bayonet", ATTACK, 1, 1, users=_PLAIN),
    Card(1, "pistol", "Pistol", ATTACK, 1, 2, users=_PLAIN + "O"),
    Card(2, "flamer", "Flame Thrower", ATTACK, 2, 3, only=GERMANS, users="H", area=True),
    Card(3, "grenade", "Grenade", ATTACK, knight=True, users=_PLAIN, area=True),
    Card(4, "rifle3", "Rifle (3)", ATTACK, 3, 3, users=_PLAIN),
    Card(5, "rifle4", "Rifle (4)", ATTACK, 4, 4, users=_PLAIN),
    Card(6, "mg", "Machine Gun", ATTACK, 4, 5, only=AMERICANS, users="H", area=True),
    Card(7, "sniper", "Sniper", ATTACK, 5, 6, users="S"),
    Card(8, "crawl", "Crawl", MOVE, 1, 1),
    Card(9, "march", "March", MOVE, 2, 2),
    Card(10, "double", "Double Time", MOVE, 3, 3),
    Card(11, "zigzag", "Zigzag", MOVE, knight=True),
    Card(12, "run", "Run", MOVE, 4, 4),
    Card(13, "charge", "Charge", MOVE, 5, 5),
    Card(14, "advance", "Advance", MOVE, 2, 2, only=GERMANS),
    Card(15, "counter", "Counter Attack", MOVE, 3, 3, only=AMERICANS),
    Card(16, "trees", "Trees", TERRAIN, negates=ATTACK),
    Card(17, "foxholes", "Fox Holes", TERRAIN, only=AMERICANS, negates=ATTACK),
    Card(18, "rough", "Rough Ground", TERRAIN, negates=MOVE),
    Card(19, "hold", "Hold Ground", TERRAIN, only=GERMANS, negates=MOVE),
)
BY_CODE = {c.code: c for c in CARD_TYPES}
# Other ways players may type a card: its name without spaces, and a few short forms.
ALIASES: dict[str, Card] = {
    **BY_CODE,
    **{c.name.lower().replace(" ", "").replace("(", "").replace(")", ""): c for c in CARD_TYPES},
    "flamethrower": BY_CODE["flamer"],
    "machinegun": BY_CODE["mg"],
    "doubletime": BY_CODE["double"],
    "counterattack": BY_CODE["counter"],
    "roughground": BY_CODE["rough"],
    "holdground": BY_CODE["hold"],
    "foxhole": BY_CODE["foxholes"],
    "tree": BY_CODE["trees"],
}
FULL_DECK: tuple[Card, ...] = tuple(c for c in CARD_TYPES for _ in range(COPIES))
EXAMPLE_CODES = ", ".join(c.code for c in CARD_TYPES)


def card(code: str) -> Card:
    """The card a notation word names (its code, or its name without spaces)."""
    key = code.strip().lower().replace(" ", "").replace("-", "").replace("(", "").replace(")", "")
    found = ALIASES.get(key)
    if found is None and key == "rifle":  # two Rifle cards: the number is the range
        raise InvalidNotation("Say which Rifle card: rifle3 reaches exactly 3 squares, rifle4 exactly 4.")
    if found is None:
        raise InvalidNotation(f"'{code.strip()[:20]}' is not a card. The cards: {EXAMPLE_CODES}.")
    return found


def lookup(code: str) -> Card:
    """For `Deck.from_json`: the card of a stored code."""
    return BY_CODE[code]


def sort_cards(cards: list[Card]) -> list[Card]:
    return sorted(cards, key=lambda c: c.index)


_TIMES = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine"}


def cards_words(cards: list[Card]) -> str:
    """'March, two Trees cards and Rifle (3)': a hand or a draw in words, in card-list order. A card
    held twice is counted in words with "cards" after its name, which reads as a plural whatever the
    name ("Trees", "Rifle (3)", "Fox Holes")."""
    counts: dict[Card, int] = {}
    for c in sort_cards(cards):
        counts[c] = counts.get(c, 0) + 1
    parts = [c.name if n == 1 else f"{_TIMES.get(n, str(n))} {c.name} cards" for c, n in counts.items()]
    if not parts:
        return "no cards"
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + " and " + parts[-1]

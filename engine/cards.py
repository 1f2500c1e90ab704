"""Cards: the standard 52-card pack with per-game values, and a seeded deck of any kind of card.

Playing cards are interned, so `is` and `==` agree. A card's `rank` runs 2..14 (Ace = 14); what a
card is *worth* is the game's business, through a value table: `ACE_HIGH` (Block Wars) or
`ACE_LOW` (Battlefronts, where the Ace is 1). Games with cards of their own (Fix Bayonets' 60
custom cards) use `Deck` with any card type that has a `code`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from engine import chance
from engine.errors import InvalidNotation
from engine.protocol import Choice, Menu, Pick

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RANK_NAMES = {11: "Jack", 12: "Queen", 13: "King", 14: "Ace"}
JACK, QUEEN, KING, ACE = 11, 12, 13, 14
FACES = frozenset({JACK, QUEEN, KING})


class Card:
    """One playing card; `rank` runs 2..14 with Ace = 14."""

    __slots__ = ("code", "rank", "suit")

    def __init__(self, rank: int, suit: str) -> None:
        self.rank = rank
        self.suit = suit
        self.code = RANKS[rank - 2] + suit

    def __repr__(self) -> str:
        return f"Card({self.code})"

    def __str__(self) -> str:
        return self.code

    @property
    def rank_name(self) -> str:
        return RANK_NAMES.get(self.rank, str(self.rank))

    @property
    def label(self) -> str:
        """Short face for pictures: '10♥', 'K♠'."""
        short = {10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}.get(self.rank, str(self.rank))
        return short + SUIT_SYMBOLS[self.suit]

    @property
    def long_name(self) -> str:
        return f"{self.rank_name} of {SUIT_NAMES[self.suit]}"

    @property
    def is_face(self) -> bool:
        """Jack, Queen or King (not the Ace)."""
        return self.rank in FACES

    @staticmethod
    def parse(code: str) -> Card:
        try:
            return _BY_CODE[code.strip().upper()]
        except KeyError:
            raise InvalidNotation(f"'{code}' is not a card (examples: 9C, TD, AS).") from None


FULL_PACK: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in range(2, 15))
_BY_CODE = {c.code: c for c in FULL_PACK}

# Value tables: what a card is worth in a game.
ValueTable = Callable[[Card], int]


def ACE_HIGH(card: Card) -> int:
    """2..10, Jack 11, Queen 12, King 13, Ace 14."""
    return card.rank


def ACE_LOW(card: Card) -> int:
    """Ace 1, 2..10, Jack 11, Queen 12, King 13."""
    return 1 if card.rank == ACE else card.rank


# ------------------------------------------------------------------------------------ any deck


class Coded(Protocol):
    """Anything a deck can hold: a card with a short code for JSON."""

    @property
    def code(self) -> str: ...


C = TypeVar("C", bound=Coded)


@dataclass(slots=True)
class Deck(Generic[C]):
    """A draw pile and a discard pile; the pile is drawn from its end (the "top").

    Shuffles draw from `engine.chance` with the game's seed and a counter the deck keeps, so a
    deck stored as JSON and read back shuffles exactly as it would have.
    """

    pile: list[C]
    discard: list[C] = field(default_factory=list)
    shuffles: int = 0

    @staticmethod
    def shuffled(cards: Iterable[C], seed: int, n: int = 0) -> Deck[C]:
        """A fresh deck of `cards` in the order of shuffle `n` (its counter continues from n + 1)."""
        return Deck(chance.shuffled(list(cards), seed, n), [], n + 1)

    def __len__(self) -> int:
        return len(self.pile)

    def draw(self, seed: int, *, reshuffle: bool = True) -> C | None:
        """The top card; an empty pile first takes the discard back, shuffled (None: both empty)."""
        if not self.pile:
            if not reshuffle or not self.discard:
                return None
            self.reshuffle(seed)
        return self.pile.pop()

    def reshuffle(self, seed: int) -> None:
        """Shuffle the discard under (before) what is left of the pile."""
        back = chance.shuffled(self.discard, seed, self.shuffles)
        self.shuffles += 1
        self.pile = back + self.pile
        self.discard = []

    def clone(self) -> Deck[C]:
        return Deck(list(self.pile), list(self.discard), self.shuffles)

    def to_json(self) -> dict[str, Any]:
        return {
            "pile": [c.code for c in self.pile],
            "discard": [c.code for c in self.discard],
            "shuffles": self.shuffles,
        }

    @staticmethod
    def from_json(data: Mapping[str, Any], lookup: Callable[[str], C]) -> Deck[C]:
        return Deck(
            [lookup(c) for c in data["pile"]], [lookup(c) for c in data["discard"]], int(data["shuffles"])
        )


def unseen(all_cards: Sequence[C], seen: Iterable[C]) -> list[C]:
    """`all_cards` without those in `seen` (by code, one for one), in `all_cards`' order: a canonical
    order that reveals nothing, for views that must hide how the unseen cards are ordered."""
    left: dict[str, int] = {}
    for c in seen:
        left[c.code] = left.get(c.code, 0) + 1
    out = []
    for c in all_cards:
        if left.get(c.code, 0):
            left[c.code] -= 1
        else:
            out.append(c)
    return out


__all__ = [
    "ACE",
    "ACE_HIGH",
    "ACE_LOW",
    "FACES",
    "FULL_PACK",
    "JACK",
    "KING",
    "QUEEN",
    "Card",
    "Coded",
    "Deck",
    "ValueTable",
    "unseen",
]


def discard_menu(hand: Sequence[Any], limit: int, noun: str, discard: Callable[[Any], str]) -> Menu:
    """A hand over `limit` as one select of the cards to discard, exactly as many picks as it is
    over, each card by its `name`, played as `discard(card)`: the platform plays the picks one by
    one, in the order listed, as one command (Fix Bayonets' and Company Commander's discards)."""
    extra = len(hand) - limit
    which = "one card" if extra == 1 else f"the {extra} cards"
    choices = tuple(Choice(c.name, discard(c)) for c in hand)
    return Menu(
        title=f"You hold {len(hand)} {noun}: choose {which} to discard; you keep the rest.",
        picks=(Pick(f"Choose {which} to discard", choices, least=extra, most=extra),),
    )

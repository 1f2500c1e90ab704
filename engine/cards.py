"""A standard 52-card pack, Ace high. Cards are interned, so `is` and `==` agree."""

from __future__ import annotations

from engine.errors import InvalidNotation

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RANK_NAMES = {11: "Jack", 12: "Queen", 13: "King", 14: "Ace"}
JACK, QUEEN, KING, ACE = 11, 12, 13, 14


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

    @staticmethod
    def parse(code: str) -> Card:
        try:
            return _BY_CODE[code.strip().upper()]
        except KeyError:
            raise InvalidNotation(f"'{code}' is not a card (examples: 9C, TD, AS).") from None


FULL_PACK: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in range(2, 15))
_BY_CODE = {c.code: c for c in FULL_PACK}

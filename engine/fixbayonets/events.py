"""What an action did, as values, worded per viewer: a hand's cards reach their owner only.

`seen_by(viewer)` is the event as `viewer` may know it: a draw keeps its cards for the owner (or
for everyone when hands are face up) and only its count for anyone else; a hidden set-up loses its
layout; standing orders are seen by their owner alone. Squares are names, cards are codes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from engine.fixbayonets.cards import BY_CODE, cards_words
from engine.fixbayonets.model import ADJECTIVE, PLURAL, SINGULAR, TITLE, men_words
from engine.meta import PlainEvent
from engine.protocol import Weight

Viewer = str | None


# The platform's plain event: public unless a class hides something (`seen_by`); the shared
# draw and end events (`engine.meta`) are of the same kind.
Event = PlainEvent


@dataclass(frozen=True, slots=True)
class SetUp(Event):
    side: str
    layout: tuple[str, ...] | None  # None: hidden from this viewer until both sides have set up
    last: bool = False  # the second set-up: both are revealed at once, in the next event

    def text(self, viewer: Viewer = None) -> str:
        if self.layout is None or viewer != self.side:
            if self.last:
                return f"the {TITLE[self.side]} set up their men"
            return f"the {TITLE[self.side]} set up their men (hidden until both sides have)"
        return f"the {TITLE[self.side]} set up {'/'.join(self.layout)} (files a to h)"

    def seen_by(self, viewer: Viewer) -> Event | None:
        return self if viewer == self.side else replace(self, layout=None)


@dataclass(frozen=True, slots=True)
class Revealed(Event):
    reveals: ClassVar[bool] = True  # both hidden set-ups come into the open
    germans: tuple[str, ...]
    americans: tuple[str, ...]

    def text(self, viewer: Viewer = None) -> str:
        return (
            f"both set-ups are revealed: Germans {'/'.join(self.germans)} on rank 8, "
            f"Americans {'/'.join(self.americans)} on rank 1"
        )


@dataclass(frozen=True, slots=True)
class Drew(Event):
    """Cards into a hand: the Orders phase's draw."""

    side: str
    cards: tuple[str, ...]  # empty when this viewer may not see them
    count: int
    open: bool = False  # hands face up (the Strategic Version)

    def text(self, viewer: Viewer = None) -> str:
        verb = "draw"
        if self.cards and (self.open or viewer == self.side):
            return f"the {TITLE[self.side]} {verb} {cards_words([BY_CODE[c] for c in self.cards])}"
        noun = "card" if self.count == 1 else "cards"
        return f"the {TITLE[self.side]} {verb} {self.count} {noun}"

    def seen_by(self, viewer: Viewer) -> Event | None:
        if self.open or viewer == self.side:
            return self
        return replace(self, cards=())


@dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    count: int

    def text(self, viewer: Viewer = None) -> str:
        return f"the deck runs out: the discard pile ({self.count} cards) is shuffled into a new deck"


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    side: str
    card: str

    def text(self, viewer: Viewer = None) -> str:
        return f"the {TITLE[self.side]} discard {BY_CODE[self.card].name}: a hand holds five cards at most"


@dataclass(frozen=True, slots=True)
class Played(Event):
    """A move or attack card on the table, before the opponent may cancel it.

    `moves` holds (kind, from, to) for each man a move card moves; an attack has one entry,
    (kind, attacker's square, target square).
    """

    weight: ClassVar[Weight] = Weight.DECISIVE

    side: str
    card: str
    attack: bool
    moves: tuple[tuple[str, str, str], ...]

    def text(self, viewer: Viewer = None) -> str:
        name = BY_CODE[self.card].name
        adj = ADJECTIVE[self.side]
        if self.attack:
            kind, src, dst = self.moves[0]
            return f"the {TITLE[self.side]} play {name}: the {adj} {SINGULAR[kind]} on {src} attacks {dst}"
        if len(self.moves) == 1:
            kind, src, dst = self.moves[0]
            return f"the {TITLE[self.side]} play {name} to move the {SINGULAR[kind]} on {src} to {dst}"
        men = men_words("".join(k for k, _, _ in self.moves))
        n = BY_CODE[self.card].lo
        far = f"{n} square{'' if n == 1 else 's'}"
        return f"the {TITLE[self.side]} play {name} to move {men} {far} forward together"


@dataclass(frozen=True, slots=True)
class Negated(Event):
    reveals: ClassVar[bool] = True  # an automatic answer shows a card the opponent held
    weight: ClassVar[Weight] = Weight.DECISIVE

    side: str  # who cancels
    card: str  # the terrain card
    played: str  # the card it cancels

    def text(self, viewer: Viewer = None) -> str:
        return f"the {TITLE[self.side]} cancel {BY_CODE[self.played].name} with {BY_CODE[self.card].name}"


@dataclass(frozen=True, slots=True)
class Passed(Event):
    # An automatic answer shows the opponent's orders, and that they did not cancel with a card.
    reveals: ClassVar[bool] = True
    side: str

    def text(self, viewer: Viewer = None) -> str:
        return f"the {TITLE[self.side]} let it stand"


@dataclass(frozen=True, slots=True)
class Moved(Event):
    side: str
    moves: tuple[tuple[str, str, str], ...]  # (kind, from, to)

    def text(self, viewer: Viewer = None) -> str:
        adj = ADJECTIVE[self.side]
        if len(self.moves) == 1:
            kind, src, dst = self.moves[0]
            return f"the {adj} {SINGULAR[kind]} moves {src} → {dst}"
        squares: dict[tuple[str, str], str] = {}
        for kind, src, dst in self.moves:
            squares[(src, dst)] = squares.get((src, dst), "") + kind
        each = ", ".join(f"{men_words(kinds)} {src} → {dst}" for (src, dst), kinds in squares.items())
        return f"the {adj} men move forward: {each}"


@dataclass(frozen=True, slots=True)
class Killed(Event):
    side: str  # whose men fall
    square: str
    kinds: str
    whole: bool  # a grenade, machine gun or flame thrower took the whole stack

    weight: ClassVar[Weight] = Weight.CHANGED

    @property
    def loss(self) -> tuple[str, str]:
        return TITLE[self.side], f"{men_words(self.kinds)} on {self.square}"

    def text(self, viewer: Viewer = None) -> str:
        adj = ADJECTIVE[self.side]
        if self.whole and len(self.kinds) > 1:
            return f"the whole {adj} stack on {self.square} is killed: {men_words(self.kinds)}"
        if len(self.kinds) == 1:
            return f"the {adj} {SINGULAR[self.kinds]} on {self.square} is killed"
        if len(set(self.kinds)) == 1:  # "2 German riflemen on d5 are killed"
            return f"{len(self.kinds)} {adj} {PLURAL[self.kinds[0]]} on {self.square} are killed"
        return f"{len(self.kinds)} {adj} men on {self.square} are killed: {men_words(self.kinds)}"


@dataclass(frozen=True, slots=True)
class PhaseEnded(Event):
    side: str
    phase: str  # "move": on to the fight phase; "turn": the turn is over

    def text(self, viewer: Viewer = None) -> str:
        if self.phase == "move":
            return f"the {TITLE[self.side]} turn to the fight phase"
        return f"the {TITLE[self.side]} end their turn"


@dataclass(frozen=True, slots=True)
class TurnBegan(Event):
    side: str
    round: int

    def text(self, viewer: Viewer = None) -> str:
        return f"round {self.round}: the {TITLE[self.side]}' turn"


@dataclass(frozen=True, slots=True)
class OrdersSet(Event):
    """Standing orders are private: only their owner hears of them (R15)."""

    side: str
    words: str

    def text(self, viewer: Viewer = None) -> str:
        return f"the {TITLE[self.side]}' standing orders: {self.words}"

    def seen_by(self, viewer: Viewer) -> Event | None:
        return self if viewer == self.side else None


def kinds_plural(kind: str, n: int) -> str:
    return f"{n} {SINGULAR[kind] if n == 1 else PLURAL[kind]}"


EVENT_TYPES: dict[str, type[Event]] = {
    cls.__name__: cls
    for cls in (
        SetUp,
        Revealed,
        Drew,
        Reshuffled,
        Discarded,
        Played,
        Negated,
        Passed,
        Moved,
        Killed,
        PhaseEnded,
        TurnBegan,
        OrdersSet,
    )
}

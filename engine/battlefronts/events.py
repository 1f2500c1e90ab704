"""What an action did, as values: the history line reads them, the board draws them.

Nothing a Battlefronts event holds is secret: a card appears in an event only once it is face up
(turned on a front, or discarded after being the face-up top), and face-down cards are unknown to
both players (R5). So every viewer sees every event whole, and `seen_by` returns the event itself.
Places and battalions are names ('F2', 'R3') and cards are codes ('9H'), so events read well in
JSON without the state at hand. The events of the round's machinery name the part of the round they
belong to (`heading`: "Battle", "Attrition"), so a pass that closes a phase and sets off a battle,
the end of the round and the next attrition reads grouped by phase.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.battlefronts.model import TITLES, WIN_FRONTS, and_list, or_list, plural
from engine.cards import Card
from engine.meta import PlainEvent
from engine.protocol import Weight

NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five"}


def _card(code: str) -> str:
    return Card.parse(code).label


# The platform's plain event: public unless a class hides something (`seen_by`); the shared
# draw and end events (`engine.meta`) are of the same kind.
Event = PlainEvent


@dataclass(frozen=True, slots=True)
class RoundBegan(Event):
    round: int
    first: str

    def text(self, viewer: str | None = None) -> str:
        return f"round {self.round} begins, the {TITLES[self.first]} first"


@dataclass(frozen=True, slots=True)
class CalledUp(Event):
    side: str
    unit: str
    zone: str
    size: int

    def text(self, viewer: str | None = None) -> str:
        cards = plural(self.size, "card")
        return f"the {TITLES[self.side]} call up {self.unit} ({cards}, face down) into {self.zone}"


@dataclass(frozen=True, slots=True)
class Moved(Event):
    side: str
    unit: str
    src: str
    dst: str
    revealed: str | None  # the top card turned face up on arriving at a front
    strength: int

    @property
    def weight(self) -> Weight:
        """A battalion arriving at a front threatens it; a step back to a travel zone is routine."""
        return Weight.DECISIVE if self.dst.startswith("F") else Weight.ROUTINE

    def text(self, viewer: str | None = None) -> str:
        out = f"the {TITLES[self.side]} move {self.unit} from {self.src} to {self.dst}"
        if self.revealed:
            out += f", turning up the {_card(self.revealed)} (strength {self.strength})"
        return out


@dataclass(frozen=True, slots=True)
class Jumped(Event):
    side: str
    unit: str
    src: str
    dst: str
    discarded: str  # the face card given up for the jump
    revealed: str  # the next card, now on top
    strength: int

    weight: ClassVar[Weight] = Weight.DECISIVE

    def text(self, viewer: str | None = None) -> str:
        return (
            f"the {TITLES[self.side]} discard {self.unit}'s {_card(self.discarded)} to jump from {self.src} "
            f"to {self.dst}, turning up the {_card(self.revealed)} (strength {self.strength})"
        )


@dataclass(frozen=True, slots=True)
class Reduced(Event):
    """One reduction: the top card discarded and the next turned up (`revealed` None: destroyed)."""

    side: str
    unit: str
    place: str
    cause: str  # attrition, battle
    discarded: str
    was: int  # the strength it had
    revealed: str | None
    strength: int  # the strength it has now (0 when destroyed)
    chosen: bool  # the owner chose it among equals

    @property
    def weight(self) -> Weight:
        return Weight.CHANGED if self.revealed is None else Weight.ROUTINE

    @property
    def loss(self) -> tuple[str, str] | None:
        return (TITLES[self.side], self.unit) if self.revealed is None else None

    @property
    def heading(self) -> str:
        return self.cause.capitalize()

    def text(self, viewer: str | None = None) -> str:
        lost = _card(self.discarded)
        if self.chosen:  # the owner's choice, named for them: not "Reds: battle at F2: R8 … (chosen, …)"
            who = f"the {TITLES[self.side]} choose {self.unit} for the {self.cause} reduction at {self.place}"
            head = f"{who}: it loses its {lost} (strength {self.was})"
        else:
            head = f"{self.cause} at {self.place}: {self.unit} loses its {lost} (strength {self.was})"
        if self.revealed is None:
            return f"{head} and is wiped out"
        return f"{head}, turning up the {_card(self.revealed)} (strength {self.strength})"

    def brief(self, viewer: str | None = None) -> str:
        if self.revealed is None:
            return f"{self.unit} is wiped out at {self.place}"
        return f"{self.unit} is reduced at {self.place} to strength {self.strength}"


@dataclass(frozen=True, slots=True)
class Battle(Event):
    """The battle at one contested front: each side's total and the reductions it inflicts."""

    place: str
    red: int
    blue: int
    on_red: int  # reductions the Reds must take (the Blues' total / 5, rounded up)
    on_blue: int

    weight: ClassVar[Weight] = Weight.DECISIVE

    @property
    def heading(self) -> str:
        return "Battle"

    def text(self, viewer: str | None = None) -> str:
        return (
            f"battle at {self.place}: Reds {self.red} against Blues {self.blue}, "
            f"so the Blues take {plural(self.on_blue, 'reduction')} and the Reds {self.on_red}"
        )


@dataclass(frozen=True, slots=True)
class Wasted(Event):
    """Battle reductions left over when a side has nothing more at that front (R12)."""

    side: str
    place: str
    count: int

    @property
    def heading(self) -> str:
        return "Battle"

    def text(self, viewer: str | None = None) -> str:
        return (
            f"{plural(self.count, 'reduction')} against the {TITLES[self.side]} at {self.place} "
            f"{'is' if self.count == 1 else 'are'} lost: nothing of theirs is left there"
        )


@dataclass(frozen=True, slots=True)
class MustChoose(Event):
    """A side must choose which of its equally strong battalions takes the next reduction."""

    side: str
    place: str
    cause: str
    units: tuple[str, ...]
    strength: int

    @property
    def heading(self) -> str:
        return self.cause.capitalize()

    def text(self, viewer: str | None = None) -> str:
        return (
            f"the {TITLES[self.side]} must choose which battalion at {self.place} takes the {self.cause} "
            f"reduction: {or_list(list(self.units))} (each strength {self.strength})"
        )


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    side: str

    def text(self, viewer: str | None = None) -> str:
        return f"the {TITLES[self.side]} end their turn"


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """A side is finished with a phase: by choice, or because nothing is left for it to do."""

    side: str
    phase: str
    why: str  # "" (chose to pass), or what it has run out of

    def text(self, viewer: str | None = None) -> str:
        if not self.why:
            return f"the {TITLES[self.side]} pass"
        return f"the {TITLES[self.side]} {self.why}"


@dataclass(frozen=True, slots=True)
class FrontsHeld(Event):
    """The check for a win found no winner: who holds what, for the history."""

    round: int
    red: tuple[str, ...]
    blue: tuple[str, ...]

    @property
    def score(self) -> str:
        """Where the round left the race to hold three fronts alone."""
        return (
            f"fronts held alone after round {self.round}: Reds {len(self.red)}, Blues {len(self.blue)} "
            f"({NUMBER_WORDS[WIN_FRONTS]} win)"
        )

    def text(self, viewer: str | None = None) -> str:
        def held(side: str, fronts: tuple[str, ...]) -> str:
            if not fronts:
                return f"the {TITLES[side]} hold no front alone"
            return f"the {TITLES[side]} hold {and_list(list(fronts))} alone"

        if not self.red and not self.blue:
            return f"end of round {self.round}: no front is held alone"
        # No comma between the sides: the platform joins an action's events with commas.
        return f"end of round {self.round}: {held('red', self.red)} and {held('blue', self.blue)}"


def summary(events: list[Event], viewer: str | None = None) -> str:
    """The events of one action as one line."""
    return "; ".join(t for e in events if (t := e.text(viewer)))


__all__ = [
    "Battle",
    "CalledUp",
    "Event",
    "FrontsHeld",
    "Jumped",
    "Moved",
    "MustChoose",
    "Passed",
    "Reduced",
    "RoundBegan",
    "TurnEnded",
    "Wasted",
    "summary",
]

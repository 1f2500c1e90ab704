"""What an action did, as values: the history line, the board's highlights and replays read them.

Squares are names ("e4") and units are described by their type name, so events read well without
the board at hand. Only a chosen army is secret (until both armies are in): `ArmyChosen.seen_by`
hides it from everyone but its side.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from engine.combinedarms.units import agree
from engine.meta import PlainEvent, ended_text
from engine.protocol import Weight

# Nothing secret unless a class says so: the platform's plain event, so the shared draw events
# (`engine.meta`) are events of this game too.
Event = PlainEvent


@dataclass(frozen=True, slots=True)
class ArmyChosen(Event):
    side: str
    title: str
    army: str | None  # in words; None where the viewer may not know it

    def text(self, viewer: str | None = None) -> str:
        if self.army is None or viewer != self.side:
            return f"the {self.title} have chosen their army (kept secret until both are in)"
        return f"the {self.title} have chosen their army: {self.army} (secret until both are in)"

    def seen_by(self, viewer: str | None) -> Event | None:
        return self if viewer == self.side else replace(self, army=None)


@dataclass(frozen=True, slots=True)
class ArmiesRevealed(Event):
    """The second army chosen: both come into the open, each told by an `ArmyShown` after this, so
    a turn's story gives each army a line of its own (one line of both was too long for a phone's
    summary, which then told nothing of them)."""

    reveals: ClassVar[bool] = True  # both secret armies come into the open
    title: str  # the side whose choice completed the pair (its history line begins with it)

    def text(self, viewer: str | None = None) -> str:
        return f"the {self.title} have chosen their army, and both armies are shown"


@dataclass(frozen=True, slots=True)
class ArmyShown(Event):
    """One side's army, as the reveal shows it."""

    title: str
    army: str  # in words: "8 Infantry, 1 Sniper, ..."

    def text(self, viewer: str | None = None) -> str:
        return f"the {self.title} field {self.army}"


@dataclass(frozen=True, slots=True)
class Deployed(Event):
    side: str
    title: str
    layout: str  # the rows as notation

    def text(self, viewer: str | None = None) -> str:
        return f"the {self.title} deploy ({self.layout})"


@dataclass(frozen=True, slots=True)
class TurnBegins(Event):
    side: str
    title: str
    turn: int  # that side's own turn number

    def text(self, viewer: str | None = None) -> str:
        return f"the {self.title} begin turn {self.turn}"


@dataclass(frozen=True, slots=True)
class Reinforced(Event):
    side: str
    unit: str
    dst: str
    title: str = ""  # "Germans": whose reinforcement it is

    def text(self, viewer: str | None = None) -> str:
        if not self.title:
            return f"a reinforcement ({self.unit}) arrives on {self.dst}"
        return f"the {self.title} bring in a reinforcement ({self.unit}) on {self.dst}"


@dataclass(frozen=True, slots=True)
class NoReinforcement(Event):
    side: str
    why: str  # "the back row is full", "every type it may be is at its limit on the board"
    title: str = ""  # "Germans": whose reinforcement it would have been

    def text(self, viewer: str | None = None) -> str:
        if not self.title:
            return f"no reinforcement this turn ({self.why})"
        why = self.why.replace("the back row", "their back row")
        return f"the {self.title} get no reinforcement this turn ({why})"


@dataclass(frozen=True, slots=True)
class Moved(Event):
    side: str
    unit: str
    src: str
    dst: str
    title: str = ""  # "Germans": whose move it is (a record written before it was kept has none)

    def text(self, viewer: str | None = None) -> str:
        if not self.title:
            return f"{self.unit} {self.src}-{self.dst}"
        return f"the {self.title} move {self.unit} {self.src}-{self.dst}"

    @property
    def step(self) -> str:
        """The move without its side, for a list of one side's moves: "Infantry e4-e5"."""
        return f"{self.unit} {self.src}-{self.dst}"


@dataclass(frozen=True, slots=True)
class MovesDone(Event):
    side: str
    title: str = ""

    def text(self, viewer: str | None = None) -> str:
        if not self.title:
            return "moves done"
        return f"the {self.title} are done moving"


@dataclass(frozen=True, slots=True)
class Hit(Event):
    """One attack: `damage` dealt, the target's damage this turn now `total` of its `defense`."""

    weight: ClassVar[Weight] = Weight.DECISIVE

    side: str
    unit: str
    src: str
    target: str
    dst: str
    damage: int
    total: int
    defense: int
    adjective: str = ""  # "German": the attacker's side (a record written before it was kept has none)
    foe: str = ""  # "British": the target's side
    again: bool = False  # the target already fell back this turn: its count began again there (R13)

    def text(self, viewer: str | None = None) -> str:
        # After a retreat the count starts again (R13): "this turn" would undercount what it took.
        since = "since it fell back" if self.again else "this turn"
        tally = (
            f"{self.damage} damage ({min(self.total, self.defense)} of {self.defense} {since})"  # not "1/3"
        )
        if not self.adjective:
            return f"{self.unit} {self.src}x{self.dst} ({self.target}): {tally}"
        return (
            f"the {self.adjective} {self.unit} on {self.src} {agree(self.unit, 'hits', 'hit')} the "
            f"{self.foe} {self.target} on {self.dst}: {tally}"
        )


@dataclass(frozen=True, slots=True)
class RetreatOwed(Event):
    side: str
    title: str
    unit: str
    src: str
    options: tuple[str, ...]

    def text(self, viewer: str | None = None) -> str:
        squares = ", ".join(self.options)
        retreats = agree(self.unit, "retreats", "retreat")
        return f"the {self.title} must choose where their {self.unit} on {self.src} {retreats} ({squares})"


@dataclass(frozen=True, slots=True)
class Retreated(Event):
    weight: ClassVar[Weight] = Weight.DECISIVE

    side: str
    unit: str
    src: str
    dst: str
    how: str  # "chosen", "only square", "automatic"
    adjective: str = ""  # "German": whose unit (a record written before it was kept has none)

    def text(self, viewer: str | None = None) -> str:
        extra = {"only square": " (the only square)", "automatic": " (automatic)"}.get(self.how, "")
        unit = f"the {self.adjective} {self.unit}" if self.adjective else self.unit
        return f"{unit} {agree(self.unit, 'retreats', 'retreat')} from {self.src} to {self.dst}{extra}"


@dataclass(frozen=True, slots=True)
class Destroyed(Event):
    side: str  # whose unit it was
    unit: str
    src: str
    why: str  # "double whammy", "no retreat", "off the board", "base"
    adjective: str = ""  # "German" (a record written before it was kept has none)

    weight: ClassVar[Weight] = Weight.CHANGED

    @property
    def loss(self) -> tuple[str, str]:
        return self.side.capitalize(), f"{self.unit} on {self.src}"  # side names are their titles

    def text(self, viewer: str | None = None) -> str:
        words = {
            "double whammy": "forced back a second time this turn",
            "no retreat": (
                "no square to retreat to: each square behind it is taken, and each beside it taken or "
                "next to an enemy"
            ),
            # On its own back row the board ends behind it: the squares beside it were all it had.
            "off the board": (
                "no square to retreat to: the board ends behind it, and each square beside it is taken "
                "or next to an enemy"
            ),
            "base": "a base cannot retreat",
            "cannot move": "a unit that cannot move cannot retreat",
        }.get(self.why, self.why)
        if not self.adjective:
            return f"{self.unit} on {self.src} destroyed ({words})"
        is_ = agree(self.unit, "is", "are")
        return f"the {self.adjective} {self.unit} on {self.src} {is_} destroyed ({words})"


@dataclass(frozen=True, slots=True)
class BecameElite(Event):
    weight: ClassVar[Weight] = Weight.DECISIVE

    side: str
    unit: str
    src: str
    adjective: str = ""  # "German" (a record written before it was kept has none)

    def text(self, viewer: str | None = None) -> str:
        has, becomes = agree(self.unit, "has", "have"), agree(self.unit, "becomes", "become")
        unit = f"the {self.adjective} {self.unit}" if self.adjective else self.unit
        return f"{unit} on {self.src} {has} helped destroy 5 units and {becomes} Elite"


@dataclass(frozen=True, slots=True)
class CitiesHeld(Event):
    """Every city is held: the enemy has a turn to break the hold, and the players are told when it
    would win (W6)."""

    weight: ClassVar[Weight] = Weight.DECISIVE

    side: str
    title: str
    cities: int
    too_late: bool = False  # made in the last turn the turn limit allows: no turn of theirs is left

    def text(self, viewer: str | None = None) -> str:
        if self.too_late:
            return (
                f"the {self.title} stand on all {self.cities} cities, but too late: the turn limit "
                "draws the game when this turn ends"
            )
        return (
            f"the {self.title} stand on all {self.cities} cities: they win if they still hold them all "
            "when their next turn begins"
        )


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    side: str
    title: str

    def text(self, viewer: str | None = None) -> str:
        return f"the {self.title} end their turn"


@dataclass(frozen=True, slots=True)
class StandingOrder(Event):
    side: str
    title: str
    auto: bool

    def text(self, viewer: str | None = None) -> str:
        if self.auto:
            return f"the {self.title} will take the automatic retreat square from now on"
        return f"the {self.title} will choose their retreat squares again"


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    winner: str | None
    title: str | None
    reason: str  # an EndReason value
    detail: str

    def text(self, viewer: str | None = None) -> str:
        return ended_text(self.title, self.reason, self.detail)


__all__ = [
    "ArmiesRevealed",
    "ArmyChosen",
    "ArmyShown",
    "BecameElite",
    "CitiesHeld",
    "Deployed",
    "Destroyed",
    "Event",
    "GameOver",
    "Hit",
    "Moved",
    "MovesDone",
    "NoReinforcement",
    "Reinforced",
    "RetreatOwed",
    "Retreated",
    "StandingOrder",
    "TurnBegins",
    "TurnEnded",
]

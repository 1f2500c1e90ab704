"""What an action did, as values: the renderer highlights them, the history prints them.

Squares are names ('e4') so events read well in JSON and logs without the board at hand. Every
event says what happens, in the present tense as every game of the collection tells its events
(docs/architecture.md, "Words"), as a report a player reads after the fact ("the Germans decline
the dogfight"), never as an order. A choice names the side that made it: the
history then starts with those words instead of "<Side>:" (play.words.history_line), and the board's
last-actions box reads as sentences. A move stays notation ("e6-e5", after "Germans:"), and an event
that may concern the other side (a loss, an aircraft, a fizzled card) always names its side.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import ClassVar

from engine.blockwars.model import DESTROYED, INFANTRY, MACHINE_GUN, TANK, Side, layout_name
from engine.meta import ended_text
from engine.protocol import Weight


@dataclass(frozen=True, slots=True)
class Event:
    """Base of Block Wars' events: nothing in them is secret, so every viewer sees the same."""

    def text(self, viewer: str | None = None) -> str:
        """One short clause for the history line; '' for events that need no words."""
        return ""

    def seen_by(self, viewer: str | None) -> Event:
        return self

    def to_json(self) -> dict[str, object]:
        return {"type": type(self).__name__, **asdict(self)}


@dataclass(frozen=True, slots=True)
class Deployed(Event):
    side: Side
    layout: str

    def text(self, viewer: str | None = None) -> str:
        return f"the {self.side.title} deploy {layout_name(self.side, self.layout)} ({self.layout})"


@dataclass(frozen=True, slots=True)
class Moved(Event):
    side: Side
    src: str
    dst: str

    def text(self, viewer: str | None = None) -> str:
        return f"{self.src}-{self.dst}"


@dataclass(frozen=True, slots=True)
class TankMoved(Event):
    side: Side
    src: tuple[str, ...]
    dst: tuple[str, ...]
    forward: bool

    def text(self, viewer: str | None = None) -> str:
        return f"the tank rolls {'forward' if self.forward else 'back'} to {'/'.join(self.dst)}"


@dataclass(frozen=True, slots=True)
class Combat(Event):
    """One card contest. `kind`: attack, fire, tank fire, strafe, dogfight.

    `attacker` and `defender` are squares for ground combat and aircraft names in the air.
    `need` is the margin the attacker must win by (2 through wire or against the tank), `why`
    names the reason, and `result` is from the attacker's point of view: win, loss or tie.
    """

    kind: str
    side: Side
    attacker: str
    defender: str
    attacker_card: str
    defender_card: str
    attacker_value: int
    defender_value: int
    need: int
    why: str
    result: str

    weight: ClassVar[Weight] = Weight.DECISIVE

    @property
    def winner(self) -> Side | None:
        """The side whose card won (None for a tie)."""
        return self.side if self.result == "win" else self.side.other if self.result == "loss" else None

    def cards(self) -> str:
        """'9 of clubs vs 8 of diamonds', with what a modified card counts as."""
        from engine.cards import Card

        a, d = Card.parse(self.attacker_card), Card.parse(self.defender_card)
        av = f" (as {_value(self.attacker_value)})" if self.attacker_value != a.rank else ""
        dv = f" (as {_value(self.defender_value)})" if self.defender_value != d.rank else ""
        return f"{a.long_name}{av} vs {d.long_name}{dv}"

    def text(self, viewer: str | None = None) -> str:
        if self.kind == "dogfight":  # answered by the defender: name both aircraft and the winner
            won = self.winner
            outcome = "a tie" if won is None else f"the {won.adjective} aircraft wins"
            return (
                f"{self.side.adjective} {self.attacker} and {self.side.other.adjective} {self.defender} "
                f"fight a dogfight: {self.cards()}, {outcome}"
            )
        verb = {"attack": "attacks", "fire": "fires at", "tank fire": "fires at", "strafe": "strafes"}[
            self.kind
        ]
        outcome = {"win": "wins", "loss": "loses", "tie": "a tie"}[self.result]
        if self.result == "loss" and self.kind in ("fire", "tank fire"):
            outcome = "misses"  # a gun that loses is unharmed
        if self.result == "tie" and self.need > 1 and self.attacker_value > self.defender_value:
            outcome = f"a tie: {self.why} needs a win by {self.need}"
        who = "the tank" if self.kind == "tank fire" else self.attacker  # not its corner square
        return f"{who} {verb} {self.defender}: {self.cards()}, {outcome}"


@dataclass(frozen=True, slots=True)
class Removed(Event):
    side: Side
    kind: str
    square: str
    cause: str

    weight: ClassVar[Weight] = Weight.CHANGED

    @property
    def loss(self) -> tuple[str, str]:
        return self.side.title, f"the {self.kind} on {self.square}"

    def text(self, viewer: str | None = None) -> str:
        return f"the {self.side.adjective} {self.kind} on {self.square} is destroyed"


@dataclass(frozen=True, slots=True)
class TankDamaged(Event):
    side: Side
    squares: tuple[str, ...]
    damage: int
    destroyed: bool

    @property
    def weight(self) -> Weight:
        return Weight.CHANGED if self.destroyed else Weight.DECISIVE

    @property
    def loss(self) -> tuple[str, str] | None:
        return (self.side.title, "the tank") if self.destroyed else None

    def text(self, viewer: str | None = None) -> str:
        return "the tank is destroyed" if self.destroyed else "the tank is damaged"


@dataclass(frozen=True, slots=True)
class CrossUsed(Event):
    weight: ClassVar[Weight] = Weight.DECISIVE

    side: Side
    square: str

    def text(self, viewer: str | None = None) -> str:
        cross = "Victoria Cross" if self.side is Side.CANADIANS else "Iron Cross"
        return f"the {self.side.adjective} soldier on {self.square} wins the {cross}"


@dataclass(frozen=True, slots=True)
class BarrageFired(Event):
    weight: ClassVar[Weight] = Weight.DECISIVE

    side: Side
    square: str
    gas: bool
    area: tuple[str, ...]

    def text(self, viewer: str | None = None) -> str:
        return (
            f"the {self.side.title} fire {'a gas' if self.gas else 'an artillery'} barrage on {self.square}"
        )


@dataclass(frozen=True, slots=True)
class BarrageHit(Event):
    side: Side
    square: str
    card: str
    hit: bool

    def text(self, viewer: str | None = None) -> str:
        from engine.cards import Card

        return f"the {Card.parse(self.card).label} {'hits' if self.hit else 'misses'} {self.square}"


@dataclass(frozen=True, slots=True)
class Reinforced(Event):
    side: Side
    kind: str
    squares: tuple[str, ...]
    by_ace: bool
    from_casualties: bool

    def text(self, viewer: str | None = None) -> str:
        unit = {INFANTRY: "an infantry unit", MACHINE_GUN: "a machine gun", TANK: "the tank"}[self.kind]
        where = "/".join(self.squares)
        back = " back from the casualties" if self.from_casualties else ""
        ace = " with their Ace" if self.by_ace else ""
        return f"the {self.side.title} bring {unit}{back} onto {where}{ace}"


@dataclass(frozen=True, slots=True)
class Fizzled(Event):
    side: Side
    what: str
    why: str

    def text(self, viewer: str | None = None) -> str:
        return f"the {self.side.title}' {self.what.removeprefix('the ')} has no effect: {self.why}"


@dataclass(frozen=True, slots=True)
class AirBattle(Event):
    """An aircraft takes off to strafe; `chosen` when its side picked it (then it is that side's line)."""

    side: Side
    aircraft: str
    chosen: bool = False

    weight: ClassVar[Weight] = Weight.DECISIVE

    def text(self, viewer: str | None = None) -> str:
        if self.chosen:
            return f"the {self.side.title} send aircraft {self.aircraft} to strafe"
        # the card that sent it: a newcomer saw a German aircraft take off in the Canadians' attack
        jack = f"the {self.side.title}' Jack"
        return f"{self.side.adjective} aircraft {self.aircraft} takes off to strafe ({jack})"


@dataclass(frozen=True, slots=True)
class AircraftHit(Event):
    side: Side
    aircraft: str
    status: str

    @property
    def weight(self) -> Weight:
        return Weight.CHANGED if self.status == DESTROYED else Weight.DECISIVE

    @property
    def loss(self) -> tuple[str, str] | None:
        return (self.side.title, f"aircraft {self.aircraft}") if self.status == DESTROYED else None

    def text(self, viewer: str | None = None) -> str:
        return f"{self.side.adjective} aircraft {self.aircraft} is {self.status}"


@dataclass(frozen=True, slots=True)
class Declined(Event):
    side: Side
    what: str

    def text(self, viewer: str | None = None) -> str:
        if self.what == "the Cross":
            cross = "Victoria" if self.side is Side.CANADIANS else "Iron"
            return f"the {self.side.title} keep the {cross} Cross for later"
        return f"the {self.side.title} decline {self.what}"


@dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    count: int

    def text(self, viewer: str | None = None) -> str:
        return "a deck runs out, and all 52 cards are shuffled and dealt again"


@dataclass(frozen=True, slots=True)
class DecisionNeeded(Event):
    side: Side
    kind: str
    prompt: str

    def text(self, viewer: str | None = None) -> str:
        return ""


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    side: Side
    next_side: Side
    turn: int
    chosen: bool = False  # by `end`, rather than by the last action: a choice, so it is told

    def text(self, viewer: str | None = None) -> str:
        return f"the {self.side.title} end their turn" if self.chosen else ""


@dataclass(frozen=True, slots=True)
class DrawOffered(Event):
    side: Side

    def text(self, viewer: str | None = None) -> str:
        return f"the {self.side.title} offer a draw"


@dataclass(frozen=True, slots=True)
class DrawDeclined(Event):
    side: Side

    def text(self, viewer: str | None = None) -> str:
        return f"the {self.side.title} decline the draw"


@dataclass(frozen=True, slots=True)
class DrawLapsed(Event):
    """The offer of `side` went unanswered while the opponent played on (R20): it is gone."""

    side: Side

    def text(self, viewer: str | None = None) -> str:
        return f"the draw offered by the {self.side.title} lapses"


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    winner: Side | None
    reason: str  # the words (an Outcome's detail)
    squares: tuple[str, ...] = field(default=())
    kind: str = ""  # the EndReason value

    def text(self, viewer: str | None = None) -> str:
        return ended_text(self.winner.title if self.winner else None, self.kind, self.reason)


def _value(v: int) -> str:
    """What a modified card counts as: a number, or a face card's name (the ace's own Ace counts
    one more than any card)."""
    return {11: "a Jack", 12: "a Queen", 13: "a King", 14: "an Ace", 15: "one above an Ace"}.get(v, str(v))


def summary(events: Sequence[Event], viewer: str | None = None) -> str:
    """The events of one action as one readable line."""
    return ", ".join(t for e in events if (t := e.text(viewer)))

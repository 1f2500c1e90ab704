"""What an action did, as values: the renderer highlights them, the history prints them.

Squares are names ('e4') so events read well in JSON and logs without the board at hand.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from engine.blockwars.model import Side


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
        return f"deployed ({self.layout})"  # the line already starts with the side


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

    def text(self, viewer: str | None = None) -> str:
        from engine.cards import Card

        a, d = Card.parse(self.attacker_card), Card.parse(self.defender_card)
        verb = {"attack": "attacks", "fire": "fires at", "tank fire": "fires at", "strafe": "strafes"}.get(
            self.kind, "fights"
        )
        av = f" (as {self.attacker_value})" if self.attacker_value != a.rank else ""
        dv = f" (as {self.defender_value})" if self.defender_value != d.rank else ""
        outcome = {"win": "won", "loss": "lost", "tie": "tie"}[self.result]
        if self.result == "tie" and self.need > 1 and self.attacker_value > self.defender_value:
            outcome = f"tie: {self.why} needs a win by {self.need}"
        who = "the tank" if self.kind == "tank fire" else self.attacker  # not its corner square
        return f"{who} {verb} {self.defender}: {a.long_name}{av} vs {d.long_name}{dv}, {outcome}"


@dataclass(frozen=True, slots=True)
class Removed(Event):
    side: Side
    kind: str
    square: str
    cause: str

    def text(self, viewer: str | None = None) -> str:
        return f"{self.side.adjective} {self.kind} on {self.square} destroyed"


@dataclass(frozen=True, slots=True)
class TankDamaged(Event):
    side: Side
    squares: tuple[str, ...]
    damage: int
    destroyed: bool

    def text(self, viewer: str | None = None) -> str:
        return "the tank is destroyed" if self.destroyed else "the tank is damaged"


@dataclass(frozen=True, slots=True)
class CrossUsed(Event):
    side: Side
    square: str

    def text(self, viewer: str | None = None) -> str:
        cross = "Victoria Cross" if self.side is Side.CANADIANS else "Iron Cross"
        return f"the {self.side.adjective} soldier on {self.square} wins the {cross}"


@dataclass(frozen=True, slots=True)
class BarrageFired(Event):
    side: Side
    square: str
    gas: bool
    area: tuple[str, ...]

    def text(self, viewer: str | None = None) -> str:
        return f"{self.side.adjective} {'gas ' if self.gas else ''}barrage on {self.square}"


@dataclass(frozen=True, slots=True)
class BarrageHit(Event):
    side: Side
    square: str
    card: str
    hit: bool

    def text(self, viewer: str | None = None) -> str:
        from engine.cards import Card

        return f"{self.square} {Card.parse(self.card).label}{' hit' if self.hit else ''}"


@dataclass(frozen=True, slots=True)
class Reinforced(Event):
    side: Side
    kind: str
    squares: tuple[str, ...]
    by_ace: bool
    from_casualties: bool

    def text(self, viewer: str | None = None) -> str:
        how = "Ace: " if self.by_ace else ""
        back = " (back from the casualties)" if self.from_casualties else ""
        return f"{how}{self.side.adjective} {self.kind} arrives on {'/'.join(self.squares)}{back}"


@dataclass(frozen=True, slots=True)
class Fizzled(Event):
    side: Side
    what: str
    why: str

    def text(self, viewer: str | None = None) -> str:
        return f"{self.what} has no effect: {self.why}"


@dataclass(frozen=True, slots=True)
class AirBattle(Event):
    side: Side
    aircraft: str

    def text(self, viewer: str | None = None) -> str:
        return f"{self.side.adjective} aircraft {self.aircraft} takes off"


@dataclass(frozen=True, slots=True)
class AircraftHit(Event):
    side: Side
    aircraft: str
    status: str

    def text(self, viewer: str | None = None) -> str:
        return f"{self.side.adjective} aircraft {self.aircraft} {self.status}"


@dataclass(frozen=True, slots=True)
class Declined(Event):
    side: Side
    what: str

    def text(self, viewer: str | None = None) -> str:
        return f"{self.side.title} decline {self.what}"


@dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    count: int

    def text(self, viewer: str | None = None) -> str:
        return "the decks run out and are reshuffled"


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

    def text(self, viewer: str | None = None) -> str:
        return ""


@dataclass(frozen=True, slots=True)
class DrawOffered(Event):
    side: Side

    def text(self, viewer: str | None = None) -> str:
        return f"{self.side.title} offer a draw"


@dataclass(frozen=True, slots=True)
class DrawDeclined(Event):
    side: Side

    def text(self, viewer: str | None = None) -> str:
        return f"{self.side.title} decline the draw"


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    winner: Side | None
    reason: str
    squares: tuple[str, ...] = field(default=())

    def text(self, viewer: str | None = None) -> str:
        if self.winner is None:
            return f"the game is drawn ({self.reason})"
        return f"{self.winner.title} win ({self.reason})"


def summary(events: list[Event], viewer: str | None = None) -> str:
    """The events of one action as one readable line."""
    return ", ".join(t for e in events if (t := e.text(viewer)))

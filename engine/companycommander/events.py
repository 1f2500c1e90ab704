"""What an action did, as values, worded per viewer: a hand's cards reach their owner only.

Every die rolled is in an event, with its dice, modifiers and total ("2D6: 4 + 5 = 9, the German
MG 42 team G3 is Pinned"). Two events hold secrets: the Tactics cards a side draws (its owner alone
sees which) and the hand a Recon mission looks at (the Recon side alone sees it, once: H11).
`seen_by` returns the event as a viewer may know it. Units are named by label and type key, cards
by code, so events read the same in JSON without the state at hand; the board's record of the last
turn is a list of these events.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from engine.companycommander.model import (
    ADJECTIVES,
    FRONT_NAMES,
    TACTICS,
    TITLES,
    TYPES,
    VICTORY_LOSSES,
    and_list,
    at_front,
    cards_words,
    other,
    plural,
)
from engine.meta import DrawDeclined, DrawLapsed, DrawOffered, GameEnded, PlainEvent
from engine.protocol import Weight

Viewer = str | None
Event = PlainEvent
Mod = tuple[str, int]  # (why, how much): ("Recon", 1)
Effect = tuple[str, str, str]  # (unit label, type key, what happened): ("G3", "G:mg42", "pinned")


def unit_words(label: str, key: str) -> str:
    """'the German MG 42 team G3'."""
    t = TYPES[key]
    return f"the {ADJECTIVES[t.side]} {t.name} {label}"


def dice_words(dice: tuple[int, ...], mods: tuple[Mod, ...] = ()) -> str:
    """'2D6: 4 + 5 = 9', '2D6: 4 + 5 + 1 = 10 (+1 Recon)', '1D6: 5'."""
    head = f"{len(dice)}D6: "
    if len(dice) == 1 and not mods:
        return head + str(dice[0])
    parts = " + ".join(str(d) for d in dice)
    total = sum(dice) + sum(m for _, m in mods)
    for _, m in mods:
        parts += f" + {m}" if m >= 0 else f" − {-m}"
    why = ", ".join(f"{'+' if m >= 0 else '−'}{abs(m)} {w}" for w, m in mods)
    return f"{head}{parts} = {total}" + (f" ({why})" if why else "")


def short_dice(dice: tuple[int, ...], mods: tuple[Mod, ...] = ()) -> str:
    """'4+5=9', '4+5+1=10', '5' (the board's compact form)."""
    if len(dice) == 1 and not mods:
        return str(dice[0])
    parts = "+".join(str(d) for d in dice)
    for _, m in mods:
        parts += f"+{m}" if m >= 0 else f"−{-m}"
    return f"{parts}={sum(dice) + sum(m for _, m in mods)}"


EFFECT_WORDS = {
    "pinned": "is Pinned",
    "already": "is already Pinned (no effect)",
    "repinned": "is Pinned again and takes a Casualty",
    "casualty": "takes a Casualty",
    "casualty_pinned": "takes a Casualty and is Pinned",
    "destroyed": "takes a Casualty and is destroyed",
    "routed": "routs",
}
EFFECT_SHORT = {
    "pinned": "Pinned",
    "already": "already Pinned",
    "repinned": "Pinned again: Casualty",
    "casualty": "Casualty",
    "casualty_pinned": "Casualty, Pinned",
    "destroyed": "destroyed",
    "routed": "routs",
}


def effects_words(effects: tuple[Effect, ...]) -> str:
    return " and ".join(f"{unit_words(label, key)} {EFFECT_WORDS[what]}" for label, key, what in effects)


def effects_short(effects: tuple[Effect, ...]) -> str:
    return ", ".join(f"{label} {EFFECT_SHORT[what]}" for label, _, what in effects)


class Rolled(Event):
    """A die roll the board lists in its record of the turn (`short` is that line)."""

    __slots__ = ()

    def short(self) -> str:
        return ""


@dataclass(frozen=True, slots=True)
class TurnBegan(Event):
    side: str
    round: int

    def text(self, viewer: Viewer = None) -> str:
        return f"round {self.round}: the {TITLES[self.side]}' turn"


@dataclass(frozen=True, slots=True)
class SquadDrawn(Event):
    """Squad cards drawn to deploy (face up: everyone sees them, H6)."""

    side: str
    units: tuple[tuple[str, str], ...]  # (label, type key)
    source: str  # deploy, extra, reinforcements
    wanted: int

    def text(self, viewer: Viewer = None) -> str:
        who = f"the {TITLES[self.side]}"
        short = ""
        if len(self.units) < self.wanted:
            short = f" (their Squad deck is {'empty' if not self.units else 'used up'})"
        if not self.units:
            return f"{who} draw no Squad card{short}"
        what = and_list([f"{label} {TYPES[key].name}" for label, key in self.units])
        how = {"deploy": "draw", "extra": "draw an extra Squad card:", "reinforcements": "draw"}[self.source]
        return f"{who} {how} {what}{short}"


@dataclass(frozen=True, slots=True)
class Deployed(Event):
    side: str
    unit: str
    utype: str
    front: int

    def text(self, viewer: Viewer = None) -> str:
        name = TYPES[self.utype].name
        return f"the {TITLES[self.side]} deploy {self.unit} {name} {at_front(self.front)}"


@dataclass(frozen=True, slots=True)
class Moved(Event):
    side: str
    unit: str
    utype: str
    src: int
    dst: int

    def text(self, viewer: Viewer = None) -> str:
        return (
            f"the {TITLES[self.side]} move {self.unit} {TYPES[self.utype].name} from the "
            f"{FRONT_NAMES[self.src]} to the {FRONT_NAMES[self.dst]}"
        )


@dataclass(frozen=True, slots=True)
class TacticsDrawn(Event):
    """Tactics cards into a hand: the owner sees which, everyone else how many."""

    side: str
    cards: tuple[str, ...]  # codes; empty for a viewer who may not see them
    count: int
    source: str  # tactics, extra, dealt

    def text(self, viewer: Viewer = None) -> str:
        verb = {"dealt": "are dealt", "extra": "take an extra Tactics card:", "tactics": "draw"}[self.source]
        if viewer == self.side and self.cards:
            what = cards_words([TACTICS[c] for c in self.cards])
        elif self.source == "extra":
            what = "" if self.count else "none is left"
        else:
            what = plural(self.count, "Tactics card")
        if self.source == "extra" and not (viewer == self.side and self.cards):
            return f"the {TITLES[self.side]} take an extra Tactics card" + (f" ({what})" if what else "")
        if not self.count:
            return f"the {TITLES[self.side]} draw no Tactics card (both the deck and its discard are empty)"
        return f"the {TITLES[self.side]} {verb} {what}"

    def seen_by(self, viewer: Viewer) -> Event | None:
        return self if viewer == self.side else replace(self, cards=())


@dataclass(frozen=True, slots=True)
class ExtraDeclined(Event):
    """The Company Commander's extra card left undrawn: the text says a player *may* draw it."""

    side: str

    def text(self, viewer: Viewer = None) -> str:
        return f"the {TITLES[self.side]} go without their Company Commander's extra card"


@dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    count: int

    def text(self, viewer: Viewer = None) -> str:
        cards = plural(self.count, "card")
        return f"the Tactics deck runs out: its discard pile ({cards}) is shuffled into a new deck"


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    side: str
    card: str

    def text(self, viewer: Viewer = None) -> str:
        return f"the {TITLES[self.side]} discard {TACTICS[self.card].name} (seven cards at most)"


@dataclass(frozen=True, slots=True)
class Shot(Rolled):
    """One Suppression roll: by a unit, a Support card, or at a spotted Recon unit.

    `source` is the firing unit's label, a card code, or "spotted"; `effects` what it did (empty:
    nothing, or no target left at that front)."""

    side: str  # the side that rolls
    source: str
    source_type: str  # the firing unit's type key, the card's code, or "" when spotted
    front: int  # the front fired at (the target side's)
    dice: tuple[int, ...]
    mods: tuple[Mod, ...]
    effects: tuple[Effect, ...]
    empty: bool = False  # nobody was left at that front to hit

    @property
    def weight(self) -> Weight:
        """A roll that hit something is news; one that did nothing is routine."""
        return Weight.DECISIVE if any(what != "already" for _, _, what in self.effects) else Weight.ROUTINE

    def _result(self) -> str:
        if self.empty:
            return "nobody is left there to hit"
        if not self.effects:
            return "no effect"
        return effects_words(self.effects)

    def text(self, viewer: Viewer = None) -> str:
        roll = "no roll" if self.empty else dice_words(self.dice, self.mods)
        if self.source == "spotted":
            return f"spotted: the {TITLES[self.side]} fire at it: {roll}, {self._result()}"
        target = f"the {ADJECTIVES[other(self.side)]} {FRONT_NAMES[self.front]}"
        if self.source_type in TACTICS:
            return f"{TACTICS[self.source_type].name} on {target}: {roll}, {self._result()}"
        return f"{self.source} {TYPES[self.source_type].name} fires at {target}: {roll}, {self._result()}"

    def brief(self, viewer: Viewer = None) -> str:
        """What it did, without the dice (a turn's summary, where a Support card's own line, just
        before, names the card and the front)."""
        result = "nobody left" if self.empty else (effects_short(self.effects) or "no effect")
        if self.source == "spotted":
            return f"spotted: the {TITLES[self.side]} fire at it: {result}"
        target = f"the {ADJECTIVES[other(self.side)]} {FRONT_NAMES[self.front]}"
        if self.source_type in TACTICS:
            return result
        return f"{self.source} {TYPES[self.source_type].name} fires at {target}: {result}"

    def short(self) -> str:
        roll = "no roll" if self.empty else short_dice(self.dice, self.mods)
        result = "nobody left" if self.empty else (effects_short(self.effects) or "no effect")
        if self.source == "spotted":
            return f"  spotted: {roll}, {result}"
        name = TACTICS[self.source_type].name if self.source_type in TACTICS else f"{self.source} fires"
        return f"{name} → {'LCR'[self.front]}: {roll}, {result}"


@dataclass(frozen=True, slots=True)
class Mission(Rolled):
    """A Recon mission and its 1D6; a spotted unit's Suppression roll follows as a `Shot`."""

    side: str
    unit: str
    utype: str
    front: int
    roll: int
    choice: str  # look, mark (said before the roll)

    @property
    def weight(self) -> Weight:
        return Weight.ROUTINE if self.result == "nothing" else Weight.DECISIVE

    @property
    def result(self) -> str:
        return "spotted" if self.roll <= 2 else ("nothing" if self.roll <= 4 else "success")

    def text(self, viewer: Viewer = None) -> str:
        them = f"the {ADJECTIVES[other(self.side)]} {FRONT_NAMES[self.front]}"
        who = f"the {TITLES[self.side]} send {self.unit} {TYPES[self.utype].name}"
        head = f"{who} on a Recon mission into {them}: 1D6: {self.roll}"
        if self.result == "spotted":
            return f"{head}, spotted"
        if self.result == "nothing":
            return f"{head}, nothing found"
        if self.choice == "mark":
            return f"{head}, success: every Suppression roll against {them} is at +1 this turn"
        return f"{head}, success: they look at the {TITLES[other(self.side)]}' hand"

    def short(self) -> str:
        what = {"spotted": "spotted", "nothing": "nothing"}.get(self.result)
        if what is None:
            what = "success, +1 vs " + "LCR"[self.front] if self.choice == "mark" else "success, saw the hand"
        return f"{self.unit} Recon → {'LCR'[self.front]}: 1D6 {self.roll}, {what}"


@dataclass(frozen=True, slots=True)
class HandSeen(Event):
    """A Recon success looking at the enemy's hand: the cards go to the Recon side alone (H11)."""

    reveals: ClassVar[bool] = True  # the rules show a secret here (tests/test_conformance.py)
    weight: ClassVar[Weight] = Weight.DECISIVE

    side: str  # who looks
    of: str  # whose hand
    cards: tuple[str, ...]  # empty for anyone else
    count: int

    def text(self, viewer: Viewer = None) -> str:
        if viewer == self.side:
            held = cards_words([TACTICS[c] for c in self.cards]) if self.cards else "no cards"
            return f"you see the {TITLES[self.of]}' hand: {held}"
        # The owner reads what the channel reads: words of its own would be sent to it as news.
        return f"the {TITLES[self.side]} see the {TITLES[self.of]}' hand ({plural(self.count, 'card')})"

    def seen_by(self, viewer: Viewer) -> Event | None:
        return self if viewer == self.side else replace(self, cards=())


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    weight: ClassVar[Weight] = Weight.DECISIVE

    side: str
    card: str
    front: int = -1
    unit: str = ""
    utype: str = ""
    effect: str = ""  # what a keyword card did, in words

    def text(self, viewer: Viewer = None) -> str:
        c = TACTICS[self.card]
        who = f"the {TITLES[self.side]} play {c.name}"
        if c.kind == "support":
            them = ADJECTIVES[other(self.side)]
            return (
                f"{who} against the {them} {FRONT_NAMES[self.front]} ({plural(c.rolls, 'Suppression roll')})"
            )
        where = f" {at_front(self.front, 'their')}" if self.front >= 0 else ""
        if self.unit:
            where = f" on {self.unit} {TYPES[self.utype].name}"
        return f"{who}{where}" + (f": {self.effect}" if self.effect else "")

    def brief(self, viewer: Viewer = None) -> str:
        """Without the count of rolls, which follow it in a turn's summary."""
        c = TACTICS[self.card]
        if c.kind == "support":
            them = f"the {ADJECTIVES[other(self.side)]} {FRONT_NAMES[self.front]}"
            return f"the {TITLES[self.side]} play {c.name} against {them}"
        return self.text(viewer)


@dataclass(frozen=True, slots=True)
class Assaulted(Rolled):
    """One Assault and its 2D6 (H15): the result table decides `result`, `effects` what befell whom."""

    weight: ClassVar[Weight] = Weight.DECISIVE

    side: str
    unit: str
    utype: str
    target: str
    ttype: str
    front: int
    dice: tuple[int, ...]
    mods: tuple[Mod, ...]
    result: str  # repulsed, stalled, hit, hit_pinned, routed
    effects: tuple[Effect, ...]

    def text(self, viewer: Viewer = None) -> str:
        head = (
            f"{self.unit} {TYPES[self.utype].name} assaults {unit_words(self.target, self.ttype)} "
            f"(drawn at random) {at_front(self.front)}: {dice_words(self.dice, self.mods)}"
        )
        how = {
            "repulsed": "repulsed",
            "stalled": "the assault stalls",
            "hit": "a hit",
            "hit_pinned": "a hit",
            "routed": "a rout",
        }[self.result]
        return f"{head}, {how}: {effects_words(self.effects)}"

    def brief(self, viewer: Viewer = None) -> str:
        """What it did, without the dice (a turn's summary)."""
        how = {
            "repulsed": "repulsed",
            "stalled": "stalls",
            "hit": "a hit",
            "hit_pinned": "a hit",
            "routed": "a rout",
        }
        return (
            f"{self.unit} {TYPES[self.utype].name} assaults {self.target} {at_front(self.front)}: "
            f"{how[self.result]}, {effects_short(self.effects)}"
        )

    def short(self) -> str:
        roll = short_dice(self.dice, self.mods)
        return f"{self.unit} assaults {self.target}: {roll}, {effects_short(self.effects)}"


@dataclass(frozen=True, slots=True)
class Rallied(Rolled):
    """A Pinned unit's Rally roll at the end of its side's turn (H17)."""

    side: str
    unit: str
    utype: str
    roll: int
    mods: tuple[Mod, ...]
    result: str  # rallied, pinned, routed

    @property
    def weight(self) -> Weight:
        return Weight.DECISIVE if self.result == "routed" else Weight.ROUTINE

    def text(self, viewer: Viewer = None) -> str:
        roll = dice_words((self.roll,), self.mods)
        what = {
            "rallied": "rallies, its Pinned marker removed",  # one parenthesis: the roll's
            "pinned": "stays Pinned",
            "routed": "routs",
        }[self.result]
        # Named for its side, so the history line is not "Germans: rally: G6 …"
        return (
            f"the {TITLES[self.side]} roll to rally {self.unit} {TYPES[self.utype].name}: it {what} ({roll})"
        )

    def short(self) -> str:
        what = {"rallied": "rallies", "pinned": "stays Pinned", "routed": "routs"}[self.result]
        return f"{self.unit} rally: 1D6 {short_dice((self.roll,), self.mods)}, {what}"


@dataclass(frozen=True, slots=True)
class Removed(Event):
    """A unit out of play: destroyed (Casualty markers equal to its Strength) or routed."""

    side: str
    unit: str
    utype: str
    how: str  # destroyed, routed
    lost: int  # the side's units destroyed or routed so far

    weight: ClassVar[Weight] = Weight.CHANGED

    @property
    def loss(self) -> tuple[str, str]:
        return TITLES[self.side], f"{self.unit} {TYPES[self.utype].name}"

    @property
    def score(self) -> str:
        return f"{ADJECTIVES[self.side]} losses so far: {self.lost} of {VICTORY_LOSSES}"

    def text(self, viewer: Viewer = None) -> str:
        name = TYPES[self.utype].name
        return f"{self.unit} {name} is out ({self.how}): the {TITLES[self.side]} have lost {self.lost} of 10"

    def brief(self, viewer: Viewer = None) -> str:
        return ""  # a summary names the loss in its headline, and the roll that caused it says how


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    side: str

    def text(self, viewer: Viewer = None) -> str:
        return f"the {TITLES[self.side]} end their turn"


EVENT_TYPES: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        TurnBegan,
        SquadDrawn,
        Deployed,
        Moved,
        TacticsDrawn,
        ExtraDeclined,
        Reshuffled,
        Discarded,
        Shot,
        Mission,
        HandSeen,
        CardPlayed,
        Assaulted,
        Rallied,
        Removed,
        TurnEnded,
        DrawOffered,
        DrawDeclined,
        DrawLapsed,
        GameEnded,
    )
}


def event_from_json(data: dict[str, Any]) -> Event:
    """An event stored in a state's record of a turn, read back."""
    cls = EVENT_TYPES[data["type"]]
    fields = {k: v for k, v in data.items() if k != "type"}
    for key in ("dice", "cards"):
        if key in fields:
            fields[key] = tuple(fields[key])
    for key in ("mods", "effects", "units"):
        if key in fields:
            fields[key] = tuple(tuple(x) for x in fields[key])
    event: Event = cls(**fields)
    return event


__all__ = [
    "EFFECT_SHORT",
    "EFFECT_WORDS",
    "EVENT_TYPES",
    "Assaulted",
    "CardPlayed",
    "Deployed",
    "Discarded",
    "Effect",
    "Event",
    "ExtraDeclined",
    "HandSeen",
    "Mission",
    "Mod",
    "Moved",
    "Rallied",
    "Removed",
    "Reshuffled",
    "Rolled",
    "Shot",
    "SquadDrawn",
    "TacticsDrawn",
    "TurnBegan",
    "TurnEnded",
    "dice_words",
    "event_from_json",
    "short_dice",
    "unit_words",
]

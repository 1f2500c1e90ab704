"""Company Commander's actions and their notation (the table is in rules/companycommander.md).

    deploy A7 L            put the arriving unit A7 on your Left Flank (Deploy phase)
    extra squad            your Company Commander's extra card: a Squad card (or `extra tactics`,
                           or `extra none` to go without: the text says you *may* draw it)
    move A3 C              move A3 to the neighbouring Center (Deploy phase)
    tactics                done deploying: on to the Tactics phase, which draws your 2 cards
    discard medic          throw a card away when you hold more than seven
    recon A2 look          send A2 on a Recon mission; on a success, look at the enemy's hand
    recon A2 mark          ... on a success, +1 to every Suppression roll against that front
    fire A4                A4 fires at the enemy front across (Suppression)
    play artillery C       a Support card: its rolls against the enemy's Center (`artillery C` and
                           `card artillery C` are the same action: the Discord command `play`
                           sends the words after it, and `card` is the game's own command)
    play rally L / play medic A3 / play ambush R / play surprise / play reinforcements
    assault A1             A1 assaults a random enemy unit at the front across
    end                    end the turn (the Rally phase follows by itself)

Actions are interned values compared and hashed by their notation, computed once, since the search
keys its tree on it and `apply` checks an action against the legal list.
"""

from __future__ import annotations

import re
from functools import cache

from engine.action import Notated
from engine.companycommander.model import (
    ADJACENT,
    FRONT_LETTERS,
    TacticsCard,
    front_of,
    parse_label,
    tactics_card,
)
from engine.errors import InvalidNotation

EXAMPLES = "deploy A7 L, move A3 C, tactics, recon A2 look, fire A4, play artillery C, assault A1, end"


class Action(Notated):
    """Base of this game's own actions (`engine.action.Notated`: the notation kept, compared by it)."""

    __slots__ = ()


class Deploy(Action):
    __slots__ = ("front", "unit")

    def __init__(self, unit: str, front: int) -> None:
        super().__init__(f"deploy {unit} {FRONT_LETTERS[front]}")
        self.unit, self.front = unit, front


class Move(Action):
    __slots__ = ("front", "unit")

    def __init__(self, unit: str, front: int) -> None:
        super().__init__(f"move {unit} {FRONT_LETTERS[front]}")
        self.unit, self.front = unit, front


class Extra(Action):
    """The Company Commander's extra card: "squad", "tactics", or "none" (declined)."""

    __slots__ = ("deck",)

    def __init__(self, deck: str) -> None:
        super().__init__(f"extra {deck}")
        self.deck = deck


class Draw(Action):
    """Done deploying: on to the Tactics phase, which draws two cards."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__("tactics")


class Discard(Action):
    __slots__ = ("card",)

    def __init__(self, card: TacticsCard) -> None:
        super().__init__(f"discard {card.code}")
        self.card = card


class Recon(Action):
    """A Recon mission; `choice` ("look" or "mark") is what a success is used for, said beforehand."""

    __slots__ = ("choice", "unit")

    def __init__(self, unit: str, choice: str) -> None:
        super().__init__(f"recon {unit} {choice}")
        self.unit, self.choice = unit, choice


class Fire(Action):
    __slots__ = ("unit",)

    def __init__(self, unit: str) -> None:
        super().__init__(f"fire {unit}")
        self.unit = unit


class Play(Action):
    """A Tactics card from the hand; `front` or `unit` when the card names one."""

    __slots__ = ("card", "front", "unit")

    def __init__(self, card: TacticsCard, front: int | None = None, unit: str | None = None) -> None:
        tail = f" {FRONT_LETTERS[front]}" if front is not None else (f" {unit}" if unit else "")
        super().__init__(f"play {card.code}{tail}")
        self.card, self.front, self.unit = card, front, unit


class Assault(Action):
    __slots__ = ("unit",)

    def __init__(self, unit: str) -> None:
        super().__init__(f"assault {unit}")
        self.unit = unit


class End(Action):
    __slots__ = ()

    def __init__(self) -> None:
        super().__init__("end")


DRAW, END = Draw(), End()
EXTRA_SQUAD, EXTRA_TACTICS, EXTRA_NONE = Extra("squad"), Extra("tactics"), Extra("none")
RECON_CHOICES = ("look", "mark")


@cache
def deploy(unit: str, front: int) -> Deploy:
    return Deploy(unit, front)


@cache
def move(unit: str, front: int) -> Move:
    return Move(unit, front)


@cache
def deploys(unit: str) -> tuple[Deploy, ...]:
    """The three deployments of an arriving unit, L, C, R."""
    return tuple(deploy(unit, f) for f in range(3))


@cache
def moves(unit: str, front: int) -> tuple[Move, ...]:
    """The moves of a unit at `front` to its neighbouring fronts."""
    return tuple(move(unit, f) for f in ADJACENT[front])


@cache
def recons(unit: str) -> tuple[Recon, Recon]:
    return recon(unit, "look"), recon(unit, "mark")


@cache
def discard(card: TacticsCard) -> Discard:
    return Discard(card)


@cache
def recon(unit: str, choice: str) -> Recon:
    return Recon(unit, choice)


@cache
def fire(unit: str) -> Fire:
    return Fire(unit)


@cache
def play(card: TacticsCard, front: int | None = None, unit: str | None = None) -> Play:
    return Play(card, front, unit)


@cache
def assault(unit: str) -> Assault:
    return Assault(unit)


_UNIT = r"([a-z]\d+)"  # a unit's name; `parse_label` says when it names none
_FRONT = r"(\w+(?:\s+flank)?)"  # a front's letter or name; `front_of` says when it names none
_FORMS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p, re.IGNORECASE), kind)
    for p, kind in (
        (rf"^deploy\s+{_UNIT}\s+(?:to\s+|on\s+)?{_FRONT}$", "deploy"),
        (rf"^move\s+{_UNIT}\s+(?:to\s+)?{_FRONT}$", "move"),
        (rf"^{_UNIT}\s*(?:-|>|->|→)\s*{_FRONT}$", "move"),
        (r"^extra\s+(squad|tactics|none|no)(?:\s+card)?$", "extra"),
        (r"^(?:no|decline|skip)\s+(?:the\s+)?extra(?:\s+card)?$", "no extra"),
        (r"^(?:tactics|draw tactics|done|done deploying)$", "draw"),
        (r"^discard\s+(.+)$", "discard"),
        (rf"^recon\s+{_UNIT}\s+(look|mark)$", "recon"),
        (rf"^fire\s+{_UNIT}$", "fire"),
        (rf"^assault\s+{_UNIT}$", "assault"),
        (r"^(?:play|card)\s+(.+)$", "play"),
        (r"^(?:end|end turn)$", "end"),
    )
)


_NO_FRONT = re.compile(rf"^(deploy|move)\s+{_UNIT}$", re.IGNORECASE)  # "deploy A1"
_NO_VERB = re.compile(rf"^{_UNIT}\s+([lcr])$", re.IGNORECASE)  # "A1 C"


def parse(text: str) -> Action:
    """Notation (any case, the forms above and a few spellings around them) to an action."""
    t = " ".join(str(text).split())
    for pattern, kind in _FORMS:
        m = pattern.match(t)
        if m is None:
            continue
        if kind == "draw":
            return DRAW
        if kind == "end":
            return END
        if kind == "extra":
            deck = m.group(1).lower()
            return EXTRA_SQUAD if deck == "squad" else (EXTRA_TACTICS if deck == "tactics" else EXTRA_NONE)
        if kind == "no extra":
            return EXTRA_NONE
        if kind == "discard":
            return discard(tactics_card(m.group(1)))
        if kind == "play":
            return _play(m.group(1))
        unit = parse_label(m.group(1))
        if kind == "deploy":
            return deploy(unit, front_of(m.group(2)))
        if kind == "move":
            return move(unit, front_of(m.group(2)))
        if kind == "recon":
            return recon(unit, m.group(2).lower())
        if kind == "fire":
            return fire(unit)
        return assault(unit)
    if _names_card(t):
        # A card named without `play`: what `/companycommander play action:mortars L` sends, and
        # what the console's `play mortars L` passes on (issue 31).
        return _play(t)
    if t.lower().startswith("recon"):
        # The example names the unit the player typed (an example with another unit may be refused).
        words = t.split()
        try:
            unit = parse_label(words[1]) if len(words) > 1 else "A2"
        except InvalidNotation:
            unit = "A2"
        raise InvalidNotation(
            f"Say what a success is for: `recon {unit} look` (look at the enemy's hand) or `recon {unit} "
            "mark` (+1 to every Suppression roll against that front this turn).",
            (f"recon {unit} look", f"recon {unit} mark"),
        )
    if (m := _NO_FRONT.match(t)) is not None:
        verb, unit = m.group(1).lower(), parse_label(m.group(2))
        raise InvalidNotation(
            f"Say which front{' it moves to (the next one over)' if verb == 'move' else ''}: "
            f"`{verb} {unit} L`, `{verb} {unit} C` or `{verb} {unit} R` (your Left Flank, Center or "
            "Right Flank).",
            tuple(f"{verb} {unit} {f}" for f in "LCR"),  # tried in the position: why one is refused
        )
    if (m := _NO_VERB.match(t)) is not None:
        unit, front = parse_label(m.group(1)), m.group(2).upper()
        raise InvalidNotation(
            # unquoted: no examples to try in the position, where one of the two is always refused
            f"Say what {unit} does: deploy {unit} {front} (a unit just drawn) or move {unit} {front} "
            "(one already at a front)."
        )
    raise InvalidNotation(f"'{text}' is not a Company Commander action. Examples: {EXAMPLES}.")


def _names_card(text: str) -> bool:
    """Whether `text` begins with a Tactics card's name (one word or two: "air strike")."""
    words = text.split()
    for cut in (2, 1):
        if len(words) >= cut:
            try:
                tactics_card(" ".join(words[:cut]))
            except InvalidNotation:
                continue
            return True
    return False


def _play(rest: str) -> Play:
    words = rest.split()
    while len(words) > 1 and words[0].lower() in ("play", "card"):
        words = words[1:]  # "play play mortars L": the word typed after a command that already says it
    # The card's name may be two words ("air strike"); what follows it is its front or unit.
    for cut in range(len(words), 0, -1):
        try:
            card = tactics_card(" ".join(words[:cut]))
        except InvalidNotation:
            continue
        tail = " ".join(words[cut:])
        if card.target == "front":
            if not tail:
                raise InvalidNotation(
                    f"Name the front for {card.name}: `play {card.code} C` (L, C or R).",
                    (f"play {card.code} C",),
                )
            return play(card, front=front_of(tail))
        if card.target == "unit":
            if not tail:
                raise InvalidNotation(
                    f"Name your unit for {card.name}: `play {card.code} A3`.", (f"play {card.code} A3",)
                )
            return play(card, unit=parse_label(tail))
        if tail:
            raise InvalidNotation(f"{card.name} names nothing: `play {card.code}`.", (f"play {card.code}",))
        return play(card)
    tactics_card(words[0] if words else rest)  # raises, naming the cards
    raise InvalidNotation(f"'play {rest}' is not a card play. Example: play artillery C.")


__all__ = [
    "DRAW",
    "END",
    "EXAMPLES",
    "EXTRA_NONE",
    "EXTRA_SQUAD",
    "EXTRA_TACTICS",
    "RECON_CHOICES",
    "Action",
    "Assault",
    "Deploy",
    "Discard",
    "Draw",
    "End",
    "Extra",
    "Fire",
    "Move",
    "Play",
    "Recon",
    "assault",
    "deploy",
    "deploys",
    "discard",
    "fire",
    "move",
    "moves",
    "parse",
    "play",
    "recon",
    "recons",
]

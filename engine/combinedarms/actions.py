"""Actions as small immutable values with a short notation that parses back (see rules/combinedarms.md).

    army balanced            army I8 S1 M1 T2 A2 F1 H1      a ready-made or a custom army (secret)
    deploy line              deploy .AAHAA../IIMSMII./IIIITTII   a layout: rows from your back row
    b2-c4                    move the unit on b2 to c4 (any path of king steps over empty squares)
    done                     end the move phase;   end   end the turn
    c4xd6                    the unit on c4 attacks the enemy unit on d6
    retreat e4               the defender's choice of square for a unit forced to retreat
    T@a1                     a reinforcement (a Tank) onto a1 of your back row
    autoretreat on           a standing order: your retreats take the automatic square, no question

Squares are names ("e4", "k10"), so one action type serves every board size; the state checks that
a square is on its board. Parsing needs the era only for army letters (`parse(text, era)`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from engine.action import GameAction
from engine.combinedarms.units import Era
from engine.errors import InvalidNotation

EXAMPLE_ACTIONS = ("army balanced", "deploy line", "b2-c4", "done", "c4xd6", "end", "retreat e4", "T@a1")
EXAMPLES = ", ".join(f"`{e}`" for e in EXAMPLE_ACTIONS)
SQ = r"[a-z][1-9][0-9]?"
_NO_DASH = re.compile(r"^([a-h][1-8]) ?([a-h][1-8])$")
_MOVE = re.compile(rf"^({SQ})\s*([-x])\s*({SQ})$")
_RETREAT = re.compile(rf"^retreat\s+(?:to\s+)?({SQ})$")
_REINFORCE = re.compile(rf"^([a-z])\s*@\s*({SQ})$")
BOARD_FILES = 8  # a row of a deployment: one letter or dot a file
_ROW = re.compile(r"^(?:[A-Z]\*?|\.)+$")
_WORD = re.compile(r"^[a-z]+$")
_COUNT_FIRST = re.compile(r"^(?:\d+[A-Z])+$")
_LETTER_FIRST = re.compile(r"^(?:[A-Z]\d*)+$")
# Each era's example army and deployment rows, in its own letters (WWII has no 'S'): a whole army of
# the standard game within its limits, and rows that deploy exactly that army.
ARMY_EXAMPLE = {"wwi": "I8 S1 M1 T2 A2 F1 H1", "wwii": "I3 E2 M2 L1 T2 K1 A2 X1 Y1 H1"}
ROWS_EXAMPLE = {"wwi": ".AAH.FS./IIIIIIII/..TT..M.", "wwii": "..AH.A../IIXYEEM./..LTTKIM"}


@dataclass(frozen=True, slots=True)
class Examples:
    """What a refusal offers as examples. `of_era`: the notation's own, for a parse without a
    position; the game's `parse_in` gives ones accepted in the position (an army the options allow,
    rows that deploy the player's own army, actions legal now). None: no such action now."""

    army: str | None  # unit letters with counts: "I8 S1 M1 T2 A2 F1 H1"
    rows: str | None  # deployment rows: ".AAH.FS./IIIIIIII/..TT..M."
    layout: str | None  # a ready-made layout's action: "deploy line"
    now: str  # a sentence offering a few actions: "Examples: `army balanced`, ..."
    offers: tuple[str, ...] = ()  # the notations `now` offers, in its order

    @staticmethod
    def of_era(era: Era) -> Examples:
        return Examples(
            ARMY_EXAMPLE[era.key],
            ROWS_EXAMPLE[era.key],
            "deploy line",
            f"Examples: {EXAMPLES}.",
            EXAMPLE_ACTIONS,
        )

    def army_error(self, lead: str) -> InvalidNotation:
        """`army_refusal` as the error, with the notations it shows."""
        shown = self.offers if self.army is None else (f"army {self.army}",)
        return InvalidNotation(self.army_refusal(lead), shown)

    def deploy_error(self, lead: str) -> InvalidNotation:
        """`deploy_refusal` as the error, with the notations it shows."""
        due = self.rows is not None and self.layout is not None
        shown = (self.layout, f"deploy {self.rows}") if due else self.offers
        return InvalidNotation(self.deploy_refusal(lead), tuple(s for s in shown if s is not None))

    def army_refusal(self, lead: str) -> str:
        """`lead` (what was wrong) then how to write an army, with an example accepted now; or, when
        no army is chosen now, that and what is legal instead."""
        if self.army is None:
            return f"This is not the time to choose an army. {self.now}"
        return f"{lead}give unit letters with counts, like `army {self.army}`."

    def deploy_refusal(self, lead: str) -> str:
        """`lead` then how to deploy, with examples accepted now; or, when no deployment is due now,
        that and what is legal instead."""
        if self.rows is None or self.layout is None:
            return f"This is not the time to deploy. {self.now}"
        return (
            f"{lead}a ready-made layout (`{self.layout}`), or rows of your own from your back row "
            f"forwards, like `deploy {self.rows}`."
        )


@dataclass(frozen=True, slots=True)
class Action(GameAction):
    """Base of the game's own actions (the shared ones are `engine.meta`'s)."""


@dataclass(frozen=True, slots=True)
class Army(Action):
    """An army: a ready-made one by name, or counts per unit letter in the era's order."""

    preset: str | None = None
    counts: tuple[tuple[str, int], ...] = ()

    def __str__(self) -> str:
        if self.preset is not None:
            return f"army {self.preset}"
        return "army " + " ".join(f"{code}{n}" for code, n in self.counts)

    def as_dict(self) -> dict[str, int]:
        return dict(self.counts)


@dataclass(frozen=True, slots=True)
class Deploy(Action):
    """A whole deployment: a ready-made layout by name, or rows from the back row forwards.

    A row lists files a.. in order: a unit letter (followed by * for an Elite unit) or "." for empty.
    """

    preset: str | None = None
    rows: tuple[str, ...] = ()

    def __str__(self) -> str:
        if self.preset is not None:
            return f"deploy {self.preset}"
        return "deploy " + "/".join(self.rows)


@dataclass(frozen=True, slots=True)
class Move(Action):
    src: str
    dst: str

    def __str__(self) -> str:
        return f"{self.src}-{self.dst}"


@dataclass(frozen=True, slots=True)
class Attack(Action):
    src: str
    dst: str

    def __str__(self) -> str:
        return f"{self.src}x{self.dst}"


@dataclass(frozen=True, slots=True)
class Done(Action):
    """End the move phase (the attack phase follows)."""

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True, slots=True)
class End(Action):
    """End the turn (from either phase)."""

    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class Retreat(Action):
    dst: str

    def __str__(self) -> str:
        return f"retreat {self.dst}"


@dataclass(frozen=True, slots=True)
class Reinforce(Action):
    code: str
    dst: str

    def __str__(self) -> str:
        return f"{self.code}@{self.dst}"


@dataclass(frozen=True, slots=True)
class AutoRetreat(Action):
    """A standing order either player may give at any time: take the automatic retreat square."""

    anytime: ClassVar[bool] = True
    on: bool = True

    def __str__(self) -> str:
        return f"autoretreat {'on' if self.on else 'off'}"


DONE, END = Done(), End()
# The fewest letters an army written as repeated letters can have (16 units, or 24 in the Campaign).
_SHORTEST_ARMY = 16


def _or(names: list[str]) -> str:
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]


Offered = Examples | Callable[[], Examples] | None
"""A refusal's examples: given, to be worked out when a refusal needs them, or the era's own."""


def _examples(ex: Offered, era: Era) -> Examples:
    if ex is None:
        return Examples.of_era(era)
    return ex if isinstance(ex, Examples) else ex()


def army_counts(spec: str, era: Era, ex: Offered = None) -> tuple[tuple[str, int], ...]:
    """Unit letters with counts ("I8 S2 H1", "8I 2S H", "IIIIIIIISSH") in the era's order."""
    counts: dict[str, int] = {}
    pairs: list[tuple[str, int]] = []
    word = spec.strip().lower()
    if _WORD.match(word) and len(word) > 3 and any(c.upper() not in era.by_code for c in word):
        raise _examples(ex, era).army_error(
            f"There is no ready-made army '{word[:20]}' ({_or(list(era.presets))}); or "
        )
    for token in spec.upper().replace(",", " ").split():
        if _COUNT_FIRST.match(token):
            pairs.extend((c, int(n)) for n, c in re.findall(r"(\d+)([A-Z])", token))
        elif _LETTER_FIRST.match(token):
            pairs.extend((c, int(n or 1)) for c, n in re.findall(r"([A-Z])(\d*)", token))
        else:
            raise _examples(ex, era).army_error(f"'{token[:20]}' is not part of an army: ")
    for code, n in pairs:
        if code not in era.by_code:
            known = ", ".join(f"{u.code} ({u.name})" for u in era.units)
            raise InvalidNotation(f"There is no unit '{code}'. The units: {known}.")
        counts[code] = counts.get(code, 0) + n
    if not counts:
        raise _examples(ex, era).army_error("Name a ready-made army, or ")
    return tuple((u.code, counts[u.code]) for u in era.units if counts.get(u.code))


def parse(text: str, era: Era, ex: Offered = None) -> Action:
    """Notation to an action; raises `InvalidNotation` with examples (`ex`: those of a position, else
    the era's; worked out only for a refusal) when it does not parse."""
    raw = " ".join(str(text).strip().split())
    low = raw.lower()
    if low == "done":
        return DONE
    if low in ("end", "end turn"):
        return END
    m = _MOVE.match(low)
    if m:
        src, kind, dst = m.groups()
        return Move(src, dst) if kind == "-" else Attack(src, dst)
    m = _RETREAT.match(low)
    if m:
        return Retreat(m.group(1))
    m = _REINFORCE.match(low)
    if m:
        return Reinforce(m.group(1).upper(), m.group(2))
    if low.startswith("army"):
        rest = raw[4:].strip()
        if not rest:
            raise _examples(ex, era).army_error(f"Say which army: {_or(list(era.presets))}; or ")
        if _WORD.match(rest.lower()):
            if rest.lower() in era.presets:
                return Army(preset=rest.lower())
            if len(rest) < _SHORTEST_ARMY:  # too few letters for an army: a misspelt name
                raise _examples(ex, era).army_error(
                    f"There is no ready-made army '{rest[:20]}': choose {_or(list(era.presets))}; or "
                )
        return Army(counts=army_counts(rest, era, ex))
    if low.startswith("deploy"):
        rest = raw[6:].strip()
        if not rest:
            raise _examples(ex, era).deploy_error("Say how to deploy: ")
        if _WORD.match(rest.lower()):
            if rest.lower() in LAYOUTS:
                return Deploy(preset=rest.lower())
            # One word of letters is no deployment (an army needs at least two rows): a misspelt
            # name, or one row of unit letters alone (a newcomer's first try at a row of their own)
            if len(rest) == BOARD_FILES and set(rest.upper()) <= set(era.by_code):
                raise _examples(ex, era).deploy_error(
                    f"'{rest}' is one row, and your army needs more: separate the rows by '/'. Deploy with "
                )
            raise _examples(ex, era).deploy_error(
                f"There is no ready-made layout '{rest[:20]}' ({_or(list(LAYOUTS))}). Deploy with "
            )
        rows = tuple(r.strip().upper() for r in rest.split("/"))
        for r in rows:
            if not _ROW.match(r):
                raise InvalidNotation(
                    f"'{r[:20]}' is not a row: use unit letters (add * for Elite) and '.' for an empty "
                    "square, rows from your back row forwards separated by '/'."
                )
        return Deploy(rows=rows)
    if low.startswith("autoretreat"):
        rest = low[len("autoretreat") :].strip()
        if rest in ("on", "yes", ""):
            return AutoRetreat(True)
        if rest in ("off", "no"):
            return AutoRetreat(False)
        raise InvalidNotation(
            "Say `autoretreat on` or `autoretreat off`.", ("autoretreat on", "autoretreat off")
        )
    if joined := _NO_DASH.match(low):  # chess's long notation, "d3d5", or the squares apart
        src, dst = joined.groups()
        raise InvalidNotation(
            # unquoted, so no example to try in the position: one of the two may well be legal
            f"Put a dash between the squares of a move, {src}-{dst}, or an x before the square you "
            f"attack, {src}x{dst}."
        )
    offered = _examples(ex, era)
    raise InvalidNotation(f"'{raw[:40]}' is not an action here. {offered.now}", offered.offers)


LAYOUTS: dict[str, str] = {
    "line": "guns behind, a full front line",
    "wedge": "the strongest units in the centre",
    "flanks": "fast units on the wings",
}
LAYOUTS_FIRST = next(iter(LAYOUTS))

__all__ = [
    "ARMY_EXAMPLE",
    "DONE",
    "END",
    "EXAMPLES",
    "LAYOUTS",
    "LAYOUTS_FIRST",
    "ROWS_EXAMPLE",
    "Action",
    "Army",
    "Attack",
    "AutoRetreat",
    "Deploy",
    "Done",
    "End",
    "Examples",
    "Move",
    "Reinforce",
    "Retreat",
    "army_counts",
    "parse",
]

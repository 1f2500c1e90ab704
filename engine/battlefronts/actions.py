"""Battlefronts' actions and their notation (see rules/battlefronts.md, "Notation").

    call T2 5      call up a battalion of 5 cards into travel zone T2 (support phase)
    move R3 F2     move battalion R3 to a neighbouring place (move phase)
    jump R3 F5     discard R3's face card on top and jump to any front (move phase)
    reduce R3      choose which of your tied battalions takes a reduction
    end            end your turn in this phase (your opponent acts; you may act again later)
    pass           you are finished with this phase

Actions are interned values whose notation is computed once, since the search keys its tree on it.
"""

from __future__ import annotations

import re
from functools import cache

from engine.action import Notated
from engine.battlefronts.model import LETTERS, PLACE_NAMES, is_front, parse_label, place_of
from engine.errors import InvalidNotation

EXAMPLES = "call T2 5, move R3 F2, jump R3 F5, reduce R3, end, pass"


class Action(Notated):
    """Base of this game's own actions (`engine.action.Notated`: the notation kept, compared by it)."""

    __slots__ = ()


class Call(Action):
    __slots__ = ("size", "zone")

    def __init__(self, zone: int, size: int) -> None:
        super().__init__(f"call {PLACE_NAMES[zone]} {size}")
        self.zone = zone
        self.size = size


class Move(Action):
    __slots__ = ("dest", "unit")

    def __init__(self, unit: str, dest: int) -> None:
        super().__init__(f"move {unit} {PLACE_NAMES[dest]}")
        self.unit = unit
        self.dest = dest


class Jump(Action):
    __slots__ = ("dest", "unit")

    def __init__(self, unit: str, dest: int) -> None:
        super().__init__(f"jump {unit} {PLACE_NAMES[dest]}")
        self.unit = unit
        self.dest = dest


class Reduce(Action):
    __slots__ = ("unit",)

    def __init__(self, unit: str) -> None:
        super().__init__(f"reduce {unit}")
        self.unit = unit


class End(Action):
    __slots__ = ()

    def __init__(self) -> None:
        super().__init__("end")


class Pass(Action):
    __slots__ = ()

    def __init__(self) -> None:
        super().__init__("pass")


END, PASS = End(), Pass()


@cache
def call(zone: int, size: int) -> Call:
    return Call(zone, size)


@cache
def move(unit: str, dest: int) -> Move:
    return Move(unit, dest)


@cache
def jump(unit: str, dest: int) -> Jump:
    return Jump(unit, dest)


@cache
def reduce(unit: str) -> Reduce:
    return Reduce(unit)


_UNIT = r"([rb]\d+)"
_PLACE = r"([ft]\d)"
_FORMS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p, re.IGNORECASE), kind)
    for p, kind in (
        (rf"^(?:move\s+)?{_UNIT}\s*(?:-|>|->|→|\s+to\s+|\s+){_PLACE}$", "move"),
        (rf"^jump\s+{_UNIT}\s*(?:\s+to\s+|\s+){_PLACE}$", "jump"),
        (rf"^{_UNIT}\s*\*\s*{_PLACE}$", "jump"),
        (rf"^call(?:\s+up)?\s+{_PLACE}\s+x?(\d+)(?:\s+cards?)?$", "call"),
        (rf"^call(?:\s+up)?\s+(\d+)(?:\s+cards?)?\s+(?:into\s+|to\s+)?{_PLACE}$", "call_n_first"),
        (rf"^reduce\s+{_UNIT}$", "reduce"),
        (r"^(?:end|end turn|done)$", "end"),
        (r"^pass$", "pass"),
    )
)


_CALL_HALF = re.compile(r"^call(?:\s+up)?(?:\s+\S+)?$", re.IGNORECASE)  # "call", "call T1", "call 5"


def parse(text: str) -> Action:
    """Notation (any case, the forms above and a few spellings around them) to an action."""
    t = " ".join(str(text).split())
    for pattern, kind in _FORMS:
        m = pattern.match(t)
        if m is None:
            continue
        if kind == "end":
            return END
        if kind == "pass":
            return PASS
        if kind == "reduce":
            return reduce(_unit(m.group(1)))
        if kind in ("call", "call_n_first"):
            zone_text, size_text = (m.group(1), m.group(2)) if kind == "call" else (m.group(2), m.group(1))
            zone = place_of(zone_text)
            if is_front(zone):
                raise InvalidNotation(
                    f"Call-ups go into a travel zone (T1 to T4), not onto {zone_text.upper()}."
                )
            size = int(size_text)
            if size < 1:
                raise InvalidNotation("A battalion needs at least 1 card.")
            return call(zone, size)
        unit, dest = _unit(m.group(1)), place_of(m.group(2))
        if kind == "jump":
            if not is_front(dest):
                raise InvalidNotation(f"A jump lands on a front (F1 to F5), not on {PLACE_NAMES[dest]}.")
            return jump(unit, dest)
        return move(unit, dest)
    if t.lower().split(" ")[0] in ("attack", "fight", "battle", "fire"):  # there is no such command
        raise InvalidNotation(
            "Battlefronts has no attack command: each round's battle phase fights at every front where "
            "both sides stand. Move a battalion onto a front to fight there (move R1 F2); the rules "
            "topic battle says how a battle goes."
        )
    if _CALL_HALF.match(t):  # a zone or a number left out: what a call-up needs, both of them
        raise InvalidNotation(
            "A call-up names a travel zone, T1 to T4, and how many of your cards go into it: `call T1 3`.",
            ("call T1 3",),
        )
    raise InvalidNotation(f"'{text}' is not a Battlefronts action. Examples: {EXAMPLES}.")


def _unit(text: str) -> str:
    side, num = parse_label(text)
    return f"{LETTERS[side]}{num}"


__all__ = [
    "END",
    "EXAMPLES",
    "PASS",
    "Action",
    "Call",
    "End",
    "Jump",
    "Move",
    "Pass",
    "Reduce",
    "call",
    "jump",
    "move",
    "parse",
    "reduce",
]

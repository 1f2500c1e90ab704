"""Words and groupings for actions: what buttons, selects and autocomplete show.

Presentation only: which actions exist always comes from the engine's `legal_actions()`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.blockwars import Action, State
from engine.blockwars import actions as A
from engine.blockwars.squares import SQUARE_NAMES

MAX_CHOICES = 25  # Discord: autocomplete choices and select options
TANK = "tank"
RESERVE = "reserve"

KINDS = ("move", "attack", "fire", "tank", "reinforce", "decide", "setup")


def _sq(index: int) -> str:
    return SQUARE_NAMES[index]


def is_gun(state: State, square: int) -> bool:
    uid = state.board[square]
    return uid is not None and uid[1] == "M"


def kind_of(state: State, action: Action) -> str:
    """Which slash command plays `action` (move, attack, fire, tank, reinforce, decide, setup, end)."""
    if isinstance(action, A.Setup):
        return "setup"
    if state.pending is not None:
        return "decide"
    if isinstance(action, A.Move):
        return "move"
    if isinstance(action, A.Attack):
        return "fire" if is_gun(state, action.src) else "attack"
    if isinstance(action, A.TankMove | A.TankFire):
        return "tank"
    if isinstance(action, A.Reinforce):
        return "reinforce"
    if isinstance(action, A.EndTurn):
        return "end"
    return "decide"


def describe(state: State, action: Action) -> str:
    """One action in words, e.g. "Move e2 → e3" or "Attack e6 from e5 (after stepping)"."""
    if isinstance(action, A.Move):
        return f"Move {_sq(action.src)} → {_sq(action.dst)}"
    if isinstance(action, A.Attack):
        if is_gun(state, action.src):
            return f"Machine gun {_sq(action.src)} fires at {_sq(action.target)}"
        if action.via is not None:
            return (
                f"Attack {_sq(action.target)} from {_sq(action.via)} (after stepping from {_sq(action.src)})"
            )
        return f"Attack {_sq(action.target)} from {_sq(action.src)}"
    if isinstance(action, A.TankMove):
        return "Tank moves forward" if action.forward else "Tank moves back"
    if isinstance(action, A.TankFire):
        return f"Tank's gun fires at {_sq(action.target)}"
    if isinstance(action, A.Reinforce):
        if action.tank:
            return f"Bring the tank in at {_sq(action.at)} (its lower-left square)"
        return f"Bring infantry onto {_sq(action.at)}"
    if isinstance(action, A.EndTurn):
        return "End the turn"
    if isinstance(action, A.Setup):
        return "Standard layout" if action.layout is None else f"Layout {action.layout}"
    if isinstance(action, A.Barrage):
        return f"{'Gas barrage' if action.gas else 'Barrage'} centred on {_sq(action.at)}"
    if isinstance(action, A.Fly):
        return f"Send aircraft {action.aircraft}"
    if isinstance(action, A.Dogfight):
        return f"Dogfight with aircraft {action.aircraft}"
    if isinstance(action, A.Strafe):
        return f"Strafe the unit on {_sq(action.target)}"
    if isinstance(action, A.UseCross):
        return "Spend the Cross"
    if isinstance(action, A.Decline):
        return "Decline"
    return str(action)


def unit_of(action: Action) -> str | None:
    """The unit an action belongs to in the select flow: a square, the tank, or the reserve."""
    if isinstance(action, A.Move | A.Attack):
        return _sq(action.src)
    if isinstance(action, A.TankMove | A.TankFire):
        return TANK
    if isinstance(action, A.Reinforce):
        return RESERVE
    return None


def unit_label(state: State, unit: str) -> str:
    if unit == TANK:
        return "Tank"
    if unit == RESERVE:
        return "Reserve: bring a unit onto the back row"
    index = SQUARE_NAMES.index(unit)
    return f"{'Machine gun' if is_gun(state, index) else 'Infantry'} on {unit}"


def units_with_actions(state: State, legal: Iterable[Action]) -> list[str]:
    """Units that can do something now, in board order, the tank and the reserve last (at most 25)."""
    seen: dict[str, None] = {}
    for action in legal:
        unit = unit_of(action)
        if unit is not None:
            seen.setdefault(unit)
    squares = [u for u in seen if u not in (TANK, RESERVE)]
    extra = [u for u in (TANK, RESERVE) if u in seen]
    keep = MAX_CHOICES - len(extra)
    return squares[:keep] + extra


def actions_of_unit(legal: Iterable[Action], unit: str) -> list[Action]:
    return [a for a in legal if unit_of(a) == unit]


def chunks(items: Sequence[Action], size: int = MAX_CHOICES, most: int = 4) -> list[list[Action]]:
    """Split into select-sized pieces (at most `most` selects, so a message keeps a row spare)."""
    return [list(items[i : i + size]) for i in range(0, min(len(items), size * most), size)]


def filter_choices(state: State, legal: Iterable[Action], kinds: Sequence[str], typed: str) -> list[Action]:
    """Autocomplete: actions of these kinds whose notation or words contain what was typed (max 25)."""
    needle = typed.strip().lower()
    out = []
    for action in legal:
        if kinds and kind_of(state, action) not in kinds:
            continue
        text = str(action).lower()
        if needle and needle not in text and needle not in describe(state, action).lower():
            continue
        out.append(action)
    out.sort(key=lambda a: not str(a).lower().startswith(needle))  # prefix matches first, stable
    return out[:MAX_CHOICES]


def choice_name(state: State, action: Action) -> str:
    """Autocomplete label: the notation and the words (Discord allows 100 characters)."""
    return f"{action} — {describe(state, action)}"[:100]

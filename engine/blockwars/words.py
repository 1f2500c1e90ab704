"""Block Wars in words: what a side must do now, what buttons, selects and autocomplete say about an
action, and how actions group by unit in the "Take action" flow (the game's `words`: every function
takes the view, `engine.protocol.Words`). Presentation only: legality always comes from the state."""

from __future__ import annotations

from engine.blockwars import actions as A
from engine.blockwars.model import STANDARD, Side, describe_layout
from engine.blockwars.squares import SQUARE_NAMES
from engine.blockwars.state import SETUP, State, View

ACTION_WORDS = {2: "2 actions left", 1: "1 action left", 0: "no actions left"}
PLAYER = "{player}"

TANK = "tank"
RESERVE = "reserve"


def _sq(index: int) -> str:
    return SQUARE_NAMES[index]


def is_gun(state: State, square: int) -> bool:
    uid = state.board[square]
    return uid is not None and uid[1] == "M"


def status(view: View, side: str) -> str:
    """What `side` must do now, after its player's mention."""
    state = view.state
    title = Side(side).title
    if state.phase == SETUP:
        return f"{PLAYER} ({title}): deploy your units (`setup std` for the standard layout)."
    if state.pending is not None:
        return f"{PLAYER} ({title}) must decide: {state.pending.question(state.legal_actions())}"
    return f"{PLAYER} ({title}) to play, {ACTION_WORDS[state.actions_left]}."


def verb_of(view: View, action: object) -> str:
    """Which command plays `action` (move, attack, fire, tank, reinforce, decide, setup, end)."""
    state = view.state
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


def describe(view: View, action: object) -> str:
    """One action in words, e.g. "Move e2 → e3" or "Attack e6 from e5 (after stepping)"."""
    state = view.state
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
        if action.gun:
            return f"Bring a machine gun back onto {_sq(action.at)}"
        return f"Bring infantry onto {_sq(action.at)}"
    if isinstance(action, A.EndTurn):
        return "End the turn"
    if isinstance(action, A.Setup):
        side = state.current_player() or Side.GERMANS
        return describe_layout(side, action.layout or STANDARD[side])
    if isinstance(action, A.Barrage):
        return f"{'Gas barrage' if action.gas else 'Barrage'} centred on {_sq(action.at)}"
    if isinstance(action, A.Fly):
        return f"Send aircraft {action.aircraft}"
    if isinstance(action, A.Dogfight):
        return f"Dogfight with aircraft {action.aircraft}"
    if isinstance(action, A.Strafe):
        return f"Strafe the unit on {_sq(action.target)}"
    if isinstance(action, A.UseCross | A.Decline):
        pending = state.pending
        cross = "Victoria Cross" if pending is not None and pending.side is Side.CANADIANS else "Iron Cross"
        if isinstance(action, A.UseCross):
            return f"Spend the {cross}: the soldier wins"
        kind = pending.kind if pending is not None else ""
        return {
            "dogfight": "Let it pass (no dogfight)",
            "strafe": "Do not strafe",
            "cross": f"Keep the {cross}",
        }.get(kind, "Decline")
    return str(action)


def group_of(view: View, action: object) -> str | None:
    """The unit an action belongs to in the select flow: a square, the tank, or the reserve."""
    if isinstance(action, A.Move | A.Attack):
        return _sq(action.src)
    if isinstance(action, A.TankMove | A.TankFire):
        return TANK
    if isinstance(action, A.Reinforce):
        return RESERVE
    return None


def group_label(view: View, unit: str) -> str:
    if unit == TANK:
        return "Tank"
    if unit == RESERVE:
        return "Reserve: bring a unit onto the back row"
    index = SQUARE_NAMES.index(unit)
    return f"{'Machine gun' if is_gun(view.state, index) else 'Infantry'} on {unit}"


def private_text(view: View, *, tapping: bool = False) -> None:
    """Block Wars has nothing one player knows and the other does not."""
    return None


__all__ = ["describe", "group_label", "group_of", "is_gun", "private_text", "status", "verb_of"]

"""Battlefronts in words: what to do now, actions for buttons and autocomplete, battalions by name
(the game's `words`: every function takes the view, `engine.protocol.Words`)."""

from __future__ import annotations

from engine.battlefronts import actions as A
from engine.battlefronts.model import (
    NEIGHBOURS,
    PLACE_NAMES,
    TITLES,
    ZONES,
    Battalion,
    and_list,
    or_list,
    other,
    plural,
)
from engine.battlefronts.state import MOVE, SUPPORT, State
from engine.battlefronts.view import View
from engine.protocol import Action

PLAYER = "{player}"


def battalion_words(b: Battalion) -> str:
    """'R3 (9♥, 4 cards)' or 'R3 (4 cards face down)'."""
    if not b.up:
        return f"{b.label} ({plural(b.size, 'card')} face down)"
    top = b.cards[-1]
    return f"{b.label} ({top.label}, strength {b.strength}, {plural(b.size, 'card')})"


def status(view: View, side: str) -> str:
    """What `side` must do now, after its player's mention."""
    state = view.state
    who = f"{PLAYER} ({TITLES[side]})"
    if state.waiting == side:
        head = state.queue[0]
        tied = state.tied()
        options = or_list(
            [f"`reduce {b.label}` ({b.cards[-1].label}, {plural(b.size, 'card')})" for b in tied]
        )
        return (
            f"{who}: your battalions at {PLACE_NAMES[head[1]]} tie at strength {tied[0].strength}; "
            f"choose which takes the {head[3]} reduction: {options}."
        )
    if state.current != side:
        return f"{who}: wait for the {TITLES[other(side)]}."
    if state.spent():
        return f"{who}: you {state.spent_words(side)}; `pass` to finish the {state.phase} phase."
    rest = (
        "then `end` your turn (you may act again later) or `pass` to finish the phase"
        if names_end(state)
        else f"then `pass` to end the phase (the {TITLES[other(side)]} have finished it)"
    )
    if state.phase == MOVE:
        ready = [b for b in state.battalions if b.side == side and not b.moved]
        example = f"move {ready[0].label} {PLACE_NAMES[NEIGHBOURS[ready[0].place][-1]]}"
        jumpers = [b.label for b in ready if b.face_led and b.size > 1]
        jumps = [a for a in state.legal_actions(side) if isinstance(a, A.Jump) and a.unit in jumpers]
        jump = ""
        if jumps:
            # a whole jump to quote: on Discord, after Take action (named at the move), the aside
            # goes and the words stay, as for any move Take action reaches (cogs/_tap.py)
            led = "led by a face card" if len(jumpers) == 1 else "each led by a face card"
            jump = f" or jump {or_list(jumpers)}, {led}, to any front (`{jumps[0]}`)"
        return (
            f"{who}, round {state.round}, move phase: move battalions to a neighbouring place "
            f"(`{example}`; {plural(len(ready), 'battalion')} can still move){jump}, {rest}."
        )
    if state.phase == SUPPORT:
        free = [PLACE_NAMES[z] for z in ZONES if z not in state.called[side]]
        deck = len(state.decks[side])
        cards = "your deck's last card" if deck == 1 else f"your {plural(deck, 'card')}"
        return (
            f"{who}, round {state.round}, support phase: call up battalions from {cards} into "
            f"{and_list(free)} (`call {free[0]} {min(3, deck)}`, one call-up per zone), {rest}."
        )
    return f"{who} to play."


def names_end(state: State) -> bool:
    """Whether the status of the side on turn names End turn as a way on: while it may still act and
    the other side has not finished the phase. Before its first action End turn is not legal yet,
    so the menu shows it disabled (a phone player sees the button the status names)."""
    side = state.current
    return (
        side is not None and state.waiting is None and not state.spent() and other(side) not in state.passed
    )


def describe(view: View, action: Action) -> str:
    """An action in words, for buttons and autocomplete (a shared word, `resign`, as written)."""
    state = view.state
    if isinstance(action, A.Call):
        return f"Call up {plural(action.size, 'card')} into {PLACE_NAMES[action.zone]}"
    if isinstance(action, A.End):
        return "End your turn (you may act again later this phase)"
    if isinstance(action, A.Pass):
        return "Pass: finished with this phase"
    b = state.find(action.unit) if isinstance(action, A.Move | A.Jump | A.Reduce) else None
    if b is None:
        return str(action)
    if isinstance(action, A.Reduce):
        return f"Reduce {battalion_words(b)}"
    src = PLACE_NAMES[b.place]
    if isinstance(action, A.Jump):
        dest = PLACE_NAMES[action.dest]
        return f"Jump {battalion_words(b)} from {src} to {dest}, discarding the {b.cards[-1].label}"
    assert isinstance(action, A.Move)
    turn = " (its top is turned up)" if not b.up and action.dest % 2 == 0 else ""
    return f"Move {battalion_words(b)} from {src} to {PLACE_NAMES[action.dest]}{turn}"


def verb_of(view: View, action: Action) -> str:
    return {
        A.Call: "call",
        A.Move: "move",
        A.Jump: "jump",
        A.Reduce: "reduce",
        A.End: "end",
        A.Pass: "pass",
    }.get(type(action), "play")


def group_of(view: View, action: Action) -> str | None:
    """Moves and jumps group by battalion, call-ups by travel zone."""
    if isinstance(action, A.Move | A.Jump):
        return action.unit
    if isinstance(action, A.Call):
        return PLACE_NAMES[action.zone]
    if isinstance(action, A.Reduce):
        return "reduce"
    return None


def group_label(view: View, group: str) -> str:
    if group == "reduce":
        return "Choose the battalion to reduce"
    if group.startswith("T"):
        return f"Call up into travel zone {group}"
    b = view.state.find(group)
    if b is None:
        return group
    return f"{battalion_words(b)} at {PLACE_NAMES[b.place]}"


def private_text(view: View, *, tapping: bool = False) -> None:
    """Nothing to tell one player alone: a card face down is unknown to both sides (R5)."""
    return None


__all__ = ["battalion_words", "describe", "group_label", "group_of", "private_text", "status", "verb_of"]

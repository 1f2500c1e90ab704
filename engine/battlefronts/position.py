"""Build any Battlefronts position with any cards: for scenario tests, pictures and puzzles.

    state = build({"F2": {"red": ["5H 9D 2C", "QS 9C 3D 4H"], "blue": ["3C 8D 4S 6H", "TD", "2S"]}},
                  round=3, phase=BATTLE)
    events = begin(state)        # run the battle phase from its start

A battalion is written top card first ("5H 9D 2C": the 5 of hearts on top, the 2 of clubs at the
bottom); a leading "?" keeps its top face down ("?5H 9D", as after a call-up). "R7:5H 9D" names
the battalion; otherwise each side's battalions are numbered 1, 2, ... in the order given. Each side
has its own 52 cards: those not in a battalion fill its deck (`decks` names the top cards, first
drawn first, then the rest in pack order) up to `deck_sizes`, and the remainder are its discards.
"""

from __future__ import annotations

from engine.battlefronts.model import SIDES, Battalion, parse_label, place_of
from engine.battlefronts.state import (
    ATTRITION,
    BATTLE,
    DEFAULT_ROUNDS,
    MOVE,
    SUPPORT,
    State,
    first_player,
)
from engine.cards import FULL_PACK, Card
from engine.protocol import Event as AnyEvent


def build(
    places: dict[str, dict[str, list[str]]] | None = None,
    *,
    round: int = 2,
    phase: str = MOVE,
    current: str | None = None,
    decks: dict[str, list[str]] | None = None,
    deck_sizes: dict[str, int] | None = None,
    moved: tuple[str, ...] = (),
    called: dict[str, list[str]] | None = None,
    passed: tuple[str, ...] = (),
    limit: int = DEFAULT_ROUNDS,
    seed: int = 0,
) -> State:
    """A state with exactly these battalions, in `phase` of `round`.

    For the move and support phases the state waits for `current` (default: the round's first
    player), or for the other side if `current` has nothing to do. For attrition and battle it
    stands just before the phase: call `begin` to run it.
    """
    s = State(seed, limit)
    s.round = round
    s.phase = phase
    used: dict[str, set[str]] = {side: set() for side in SIDES}
    for place_name, by_side in (places or {}).items():
        place = place_of(place_name)
        for side, specs in by_side.items():
            for spec in specs:
                b = _battalion(s, side, place, spec)
                for c in b.cards:
                    if c.code in used[side]:
                        raise ValueError(f"the {c.code} of the {side} side is named twice")
                    used[side].add(c.code)
                b.moved = b.label in moved
                s.battalions.append(b)
    for side in SIDES:
        top = [Card.parse(c) for c in (decks or {}).get(side, [])]
        for c in top:
            if c.code in used[side]:
                raise ValueError(f"the {c.code} of the {side} side is named twice")
            used[side].add(c.code)
        rest = [c for c in FULL_PACK if c.code not in used[side]]
        size = (deck_sizes or {}).get(side, len(top) + len(rest))
        if size < len(top):
            raise ValueError("deck_sizes is smaller than the named top cards")
        fill, spare = rest[: size - len(top)], rest[size - len(top) :]
        s.decks[side] = list(reversed(top + fill))  # drawn from the end
        s.discards[side] = spare
    s.called = {side: [place_of(z) for z in (called or {}).get(side, [])] for side in SIDES}
    if phase in (MOVE, SUPPORT):
        s.current = current or first_player(round)
        s.passed = list(passed)
        s._advance()  # a side with nothing to do passes at once, as in play
        s._events = []
    return s


def begin(state: State) -> list[AnyEvent]:
    """Run an attrition or battle phase from its start (as the round would), up to the next
    decision or the end of the phase's consequences; returns the events."""
    state._events = []
    if state.phase == ATTRITION:
        state._begin_round(state.round)
        state._events = [e for e in state._events if type(e).__name__ != "RoundBegan"]
    elif state.phase == BATTLE:
        state._start_battle()
    else:
        raise ValueError("begin() runs the attrition or the battle phase")
    state._advance()
    return list(state._events)


def _battalion(state: State, side: str, place: int, spec: str) -> Battalion:
    label = None
    if ":" in spec:
        label, spec = spec.split(":", 1)
    words = spec.split()
    up = not words[0].startswith("?")
    words[0] = words[0].lstrip("?")
    cards = [Card.parse(w) for w in reversed(words)]  # bottom first
    if label is not None:
        owner, num = parse_label(label)
        if owner != side:
            raise ValueError(f"{label} is not a {side} battalion")
    else:
        num = state.numbers[side] + 1
    state.numbers[side] = max(state.numbers[side], num)
    return Battalion(side, num, place, cards, up)


__all__ = ["begin", "build"]

"""Build any position with any deck order: for scenario tests, golden images and puzzles.

    state = build({"e4": "C", "e5": "G", "d6": "GM", "c1": "CT"}, active=Side.CANADIANS,
                  decks={Side.CANADIANS: ["9C"], Side.GERMANS: ["7D"]})

Pieces: "G"/"C" infantry, "GM"/"CM" machine gun, "CT" the tank (give its lower-left square).
Deck lists are top card first; cards not named fill the rest of each deck in a fixed order,
so every one of the 52 cards is somewhere.
"""

from __future__ import annotations

from engine.blockwars.model import Options, Side
from engine.blockwars.squares import square
from engine.blockwars.state import PLAY, TANK_ID, State, tank_squares
from engine.cards import FULL_PACK, Card


def build(
    pieces: dict[str, str],
    *,
    active: Side = Side.GERMANS,
    actions_left: int = 2,
    decks: dict[Side, list[str]] | None = None,
    options: Options | None = None,
    seed: int = 0,
    tank_damage: int = 0,
    aircraft: dict[Side, dict[str, str]] | None = None,
) -> State:
    """A state in play with exactly `pieces` on the board; every other unit stays in reserve."""
    s = State(options or Options(), seed)
    s.phase = PLAY
    s.deployed = {Side.GERMANS: True, Side.CANADIANS: True}
    s.turn = 1
    s.active = active
    s.actions_left = actions_left
    for name, code in sorted(pieces.items(), key=lambda kv: square(kv[0])):
        side = Side.GERMANS if code[0].upper() == "G" else Side.CANADIANS
        kind = code[1:].upper() or "I"
        sq = square(name)
        squares: tuple[int, ...]
        if kind == "T":
            uid = TANK_ID
            squares = tank_squares(sq)
        else:
            uid = next(u for u in s.reserves[side] if u[1] == kind)
            squares = (sq,)
        s.reserves[side].remove(uid)
        for q in squares:
            if s.board[q] is not None:
                raise ValueError(f"{name}: square already taken")
            s.board[q] = uid
        s.pos[uid] = sq
    s.tank_damage = tank_damage
    for side, planes in (aircraft or {}).items():
        s.aircraft[side].update(planes)
    stack_decks(s, decks or {})
    return s


def stack_decks(state: State, tops: dict[Side, list[str]]) -> None:
    """Put the named cards on top of each deck (first = drawn first); the rest follow in pack order."""
    named = {side: [Card.parse(c) for c in cards] for side, cards in tops.items()}
    used = {c.code for cards in named.values() for c in cards}
    if len(used) != sum(len(c) for c in named.values()):
        raise ValueError("a card is named twice")
    rest = [c for c in FULL_PACK if c.code not in used]
    for side in Side:
        top = named.get(side, [])
        fill = [rest.pop(0) for _ in range(26 - len(top))]
        # Decks are drawn from the end of the list.
        state.decks[side] = list(reversed(top + fill))
    state.discards = {Side.GERMANS: [], Side.CANADIANS: []}
    state._legal = None

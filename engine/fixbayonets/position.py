"""Build any position with any hands and deck order: for scenario tests, pictures and puzzles.

    state = build({"d1": "AOR", "d6": "GR"}, hands={"americans": ["rifle3"], "germans": ["trees"]},
                  deck=["march", "run"], active="americans", phase="fight")

A square's code is the side (G or A) then the men's kinds (O H S U R). Men not named are dead.
Deck lists are top card first (drawn first); every card not named anywhere fills the deck below
them in card-list order, so all 60 cards are somewhere.
"""

from __future__ import annotations

from engine.cards import Deck
from engine.fixbayonets.cards import FULL_DECK, Card, card, sort_cards
from engine.fixbayonets.model import (
    AMERICANS,
    GERMANS,
    GRID,
    PRESETS,
    Options,
    side_units,
    unit_kind,
)
from engine.fixbayonets.state import MOVING, State


def build(
    men: dict[str, str],
    *,
    hands: dict[str, list[str]] | None = None,
    deck: list[str] | None = None,
    discard: list[str] | None = None,
    active: str = GERMANS,
    phase: str = MOVING,
    round: int = 1,
    options: Options | None = None,
    seed: int = 0,
    orders: dict[str, dict[str, str]] | None = None,
) -> State:
    s = State(options or Options(), seed)
    s.phase = phase
    s.active = active
    s.round = round
    s.layouts = {GERMANS: PRESETS["std"], AMERICANS: PRESETS["std"]}
    s.alive = [False] * len(s.alive)
    for name, code in men.items():
        side = {"G": GERMANS, "A": AMERICANS}[code[0].upper()]
        sq = GRID.square(name)
        for k in code[1:].upper():
            u = next((u for u in side_units(side) if unit_kind(u) == k and not s.alive[u]), None)
            if u is None:
                raise ValueError(f"{name}: no {k} left for the {side}")
            s.alive[u] = True
            s._put(u, sq)
    held = {side: [card(c) for c in cards] for side, cards in (hands or {}).items()}
    top = [card(c) for c in deck or []]
    thrown = [card(c) for c in discard or []]
    rest = list(FULL_DECK)
    for c in [*top, *thrown, *(c for cs in held.values() for c in cs)]:
        if c not in rest:
            raise ValueError(f"more than three copies of {c.name}")
        rest.remove(c)
    for side in (GERMANS, AMERICANS):
        s.hands[side] = sort_cards(held.get(side, []))
    s.deck = Deck(_below(rest, top), thrown, 1)
    for side, o in (orders or {}).items():
        s.orders[side].update(o)
    return s


def _below(rest: list[Card], top: list[Card]) -> list[Card]:
    """The pile as a list drawn from its end: `top` first, then `rest` in card-list order."""
    return list(reversed(top + rest))

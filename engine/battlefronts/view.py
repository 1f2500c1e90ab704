"""What a player (or a spectator) may know of a Battlefronts game: the same for everyone (R5).

Face-down cards are unknown to both players, their owner included, and the order of each deck
too; everything else (every face-up top, every discard, the sizes of stacks and decks) is public.
So a view is one thing whoever looks: it holds a copy of the state whose unseen cards are dealt in
a canonical order (pack order, see `State.redeal`) and whose seed is 0, and its JSON carries only
counts where cards are hidden. Renderers and the AI get this copy and cannot leak a face-down card
by construction.
"""

from __future__ import annotations

import random
from typing import Any

from engine.battlefronts.model import SIDES
from engine.battlefronts.state import State


class View:
    __slots__ = ("side", "state")

    def __init__(self, state: State, side: str | None) -> None:
        self.state = canonical(state)
        self.side = side

    @property
    def viewer(self) -> str | None:
        return self.side

    def to_json(self) -> dict[str, Any]:
        data = self.state.to_json(public=True)
        data["viewer"] = self.side
        return data

    @staticmethod
    def from_json(data: dict[str, Any]) -> View:
        view = View.__new__(View)
        view.state = State.from_json(data)  # public JSON: the unseen cards come back canonical
        view.side = data.get("viewer")
        return view

    def determinize(self, rng: random.Random) -> State:
        """A full state consistent with the view: each side's unseen cards shuffled into its
        face-down places and its deck."""
        s = self.state.clone()
        for side in SIDES:
            cards = s.unseen(side)
            rng.shuffle(cards)
            s.redeal(side, cards)
        return s


def canonical(state: State) -> State:
    """A copy of `state` with every unseen card in pack order and no seed: what anyone may know."""
    s = state.clone()
    for side in SIDES:
        s.redeal(side, s.unseen(side))
    s.seed = 0
    return s


__all__ = ["View", "canonical"]

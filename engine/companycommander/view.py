"""What one side (or a spectator, `viewer` None) may know of a Company Commander game.

Everything on the table is public: the units and their markers, the discard pile, hand and deck
sizes, the rolls. Hidden are the Tactics hands (each from the other side; both from a spectator),
the order of every deck (from everyone, the owner of a Squad deck too: nobody looks into a deck) and
the seed, which would predict every die. A view holds a copy of the state with all of that taken out
(the Squad decks in card-list order, the Tactics deck and the hidden hands empty, the seed 0), so
renderers and the AI, which only get views, cannot leak it. A hand seen by a Recon mission is not
kept: the mission's event showed it once (H11).
"""

from __future__ import annotations

import random
from typing import Any

from engine.cards import unseen
from engine.companycommander.model import SIDES, TACTICS_DECK, TYPE_INDEX, sort_cards
from engine.companycommander.state import State


class View:
    __slots__ = ("hand_counts", "state", "tactics_count", "viewer")

    def __init__(self, state: State, viewer: str | None) -> None:
        s = state.clone()
        s._legal = None
        s.seed = 0
        for side in SIDES:
            s.squad[side] = sorted(s.squad[side], key=lambda t: TYPE_INDEX[t.key])
            if side != viewer:
                s.hands[side] = []
        s.tactics = []
        self.state = s
        self.viewer = viewer
        self.hand_counts = {side: len(state.hands[side]) for side in SIDES}
        self.tactics_count = len(state.tactics)

    def sees_hand(self, side: str) -> bool:
        return side == self.viewer

    def to_json(self) -> dict[str, Any]:
        data = self.state.to_json()
        data["viewer"] = self.viewer
        data["hand_counts"] = dict(self.hand_counts)
        data["tactics_count"] = self.tactics_count
        return data

    @staticmethod
    def from_json(data: dict[str, Any]) -> View:
        v = View.__new__(View)
        v.state = State.from_json(data)
        v.viewer = data["viewer"]
        v.hand_counts = {side: int(n) for side, n in data["hand_counts"].items()}
        v.tactics_count = int(data["tactics_count"])
        return v

    def determinize(self, rng: random.Random) -> State:
        """A full state consistent with this view: the unseen Tactics cards dealt to the hidden hands
        and the deck, every Squad deck shuffled, and a sampled seed for the dice to come."""
        s = self.state.clone()
        known = list(s.tactics_discard)
        for side in SIDES:
            if self.sees_hand(side):
                known.extend(s.hands[side])
        cards = unseen(TACTICS_DECK, known)
        rng.shuffle(cards)
        for side in SIDES:
            if not self.sees_hand(side):
                n = self.hand_counts[side]
                s.hands[side] = sort_cards(cards[:n])
                cards = cards[n:]
        s.tactics = cards[: self.tactics_count]
        for side in SIDES:
            rng.shuffle(s.squad[side])
        s.seed = rng.getrandbits(31)
        s._legal = None
        return s


def squad_left(view: View, side: str) -> dict[str, int]:
    """How many of each unit type are still in `side`'s Squad deck (public: the deck's contents
    are known, only their order is not)."""
    out: dict[str, int] = {}
    for t in view.state.squad[side]:
        out[t.key] = out.get(t.key, 0) + 1
    return out


__all__ = ["View", "squad_left"]

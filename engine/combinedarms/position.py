"""Build any position in play: for scenario tests, golden images and puzzles.

    s = build("wwi", {"e4": "T", "e5": "i", "d8": "h", "d1": "H"}, active=0)

A capital letter is a unit of the first side (British / Americans), a small letter one of the second
(Germans); a trailing "*" makes it Elite. `terrain` maps squares to "B", "T", "N" or "D"; `cities`
lists city squares. The turn begins as in play (`turn` is the active side's own turn number), so
reinforcements, paratroopers' boost and city victories are judged as they would be.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.combinedarms.events import Event
from engine.combinedarms.state import PLAY, State


def build(
    era: str,
    pieces: Mapping[str, str],
    *,
    active: int = 0,
    turn: int = 1,
    options: Mapping[str, Any] | None = None,
    terrain: Mapping[str, str] | None = None,
    cities: Sequence[str] = (),
    seed: int = 0,
) -> State:
    """A state in play with exactly `pieces` on the board, `active` to move (its move phase)."""
    s = State(era, dict(options or {}), seed)
    g = s.g
    if terrain:
        s.terrain = [""] * g.size
        for name, code in terrain.items():
            s.terrain[g.index[name]] = code
    s.cities = sorted(g.index[c] for c in cities)
    s._derive_map()
    counts: list[dict[str, int]] = [{}, {}]
    for name, spec in sorted(pieces.items(), key=lambda kv: g.index[kv[0]]):
        code = spec.rstrip("*")
        side = 0 if code.isupper() else 1
        code = code.upper()
        sq = g.index[name]
        if s.board[sq] != -1:
            raise ValueError(f"{name}: square already taken")
        s._add_unit(code, side, sq, spec.endswith("*"))
        counts[side][code] = counts[side].get(code, 0) + 1
    s.phase = PLAY
    s.designed = [True, True]
    s.deployed = [True, True]
    s.armies = [counts[0], counts[1]]
    s.active = active
    # The first side moves first: when the second side begins its turn n, the first has begun n too.
    s.taken = [turn - 1, turn - 1] if active == 0 else [turn, turn - 1]
    s.turn = sum(s.taken)
    events: list[Event] = []
    s._begin_turn(events)
    s._legal = None
    return s


__all__ = ["build"]

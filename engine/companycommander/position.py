"""Build any position with any units, hands and deck order: for scenario tests, pictures and puzzles.

    state = build({"A1": "rifles L", "A2": "scouts C", "G1": "mg42 C pinned cas1"},
                  hands={"americans": ["artillery"]}, squad={"germans": ["panzer"]},
                  active="americans", phase="recon")

A unit's words are its type code, its front (L, C, R, or - while arriving), then any of `pinned`,
`casN` (N Casualty markers), `fresh`, `moved`, `acted`. Deck lists are top card first (drawn
first); every card not named anywhere fills its deck below them in card-list order, so each deck
holds what it should. Dice come from the seed: `rig` finds a seed whose next rolls are the ones a
scenario needs, so tests take the real path of chance.
"""

from __future__ import annotations

import functools
from itertools import count

from engine import chance
from engine.companycommander.model import (
    AMERICANS,
    LETTERS,
    SIDE_OF_LETTER,
    SIDES,
    SQUAD_DECKS,
    TACTICS,
    TACTICS_DECK,
    TYPES,
    Options,
    TacticsCard,
    Unit,
    UnitType,
    front_of,
    sort_cards,
)
from engine.companycommander.state import RECON, State


def build(
    units: dict[str, str] | None = None,
    *,
    hands: dict[str, list[str]] | None = None,
    squad: dict[str, list[str]] | None = None,
    tactics: list[str] | None = None,
    discard: list[str] | None = None,
    active: str = AMERICANS,
    first: str = AMERICANS,
    phase: str = RECON,
    round: int = 3,
    lost: dict[str, int] | None = None,
    options: Options | None = None,
    seed: int = 0,
    extra: bool = False,
) -> State:
    s = State(options or Options(), seed)
    s.active, s.first, s.phase, s.round = active, first, phase, round
    s.turns = 2 * (round - 1) + (1 if active == first else 2)
    s.extra = extra
    used: dict[str, list[UnitType]] = {side: [] for side in SIDES}
    for label, words in (units or {}).items():
        side = SIDE_OF_LETTER[label[0]]
        kind, where, *flags = words.split()
        utype = TYPES[f"{LETTERS[side]}:{kind}"]
        u = Unit(label, utype, -1 if where == "-" else front_of(where))
        u.fresh = "fresh" in flags or where == "-"
        u.pinned = "pinned" in flags
        u.moved = "moved" in flags
        u.acted = "acted" in flags
        u.cas = next((int(f[3:]) for f in flags if f.startswith("cas")), 0)
        s.forces[side][label] = u
        if u.front >= 0:
            s.occ[side][u.front] += 1
        s.labels[side] = max(s.labels[side], int(label[1:]))
        used[side].append(utype)
    for side in SIDES:
        top = [TYPES[f"{LETTERS[side]}:{k}"] for k in (squad or {}).get(side, [])]
        rest = list(SQUAD_DECKS[side])
        for t in [*used[side], *top]:
            if t in rest:
                rest.remove(t)
        s.squad[side] = list(reversed(top)) if squad and side in squad else list(reversed(top + rest))
    held = {side: [TACTICS[c] for c in cards] for side, cards in (hands or {}).items()}
    thrown = [TACTICS[c] for c in discard or []]
    pile = [TACTICS[c] for c in tactics or []]
    rest_cards: list[TacticsCard] = list(TACTICS_DECK)
    for c in [*pile, *thrown, *(c for cs in held.values() for c in cs)]:
        rest_cards.remove(c)
    for side in SIDES:
        s.hands[side] = sort_cards(held.get(side, []))
    s.tactics = list(reversed(pile + rest_cards))
    s.tactics_discard = thrown
    for side, n in (lost or {}).items():
        s.lost[side] = n
    return s


def rig(
    state: State,
    *rolls: tuple[int, ...],
    target: tuple[int, int] | None = None,
    limit: int = 3_000_000,
    start: int = 0,
) -> State:
    """Give `state` a seed whose next draws of chance roll `rolls`, in order: (4, 5) for a 2D6,
    (6,) for a 1D6. `target` = (index, candidates) also fixes which unit the first roll's draw of a
    target picks (index among the enemy units at that front, in the order they were drawn). The
    search starts at seed `start`: a test that rigs many rolls (each 2D6 fixed is 1 in 36, so four
    take about a million seeds) names the seed it found, and the search only confirms it."""
    state.seed = _seed_rolling(state.n, rolls, target, limit, start)
    state._legal = None
    return state


@functools.cache
def _seed_rolling(
    n: int, rolls: tuple[tuple[int, ...], ...], target: tuple[int, int] | None, limit: int, start: int
) -> int:
    """The first seed from `start` whose draws from action `n` on roll `rolls` (`rig`): it depends on
    nothing else, so a search made once is not made again."""
    for seed in count(start):
        if seed > limit:
            raise ValueError(f"no seed up to {limit} rolls {rolls}")
        ok = True
        for i, dice in enumerate(rolls):
            r = chance.rng(seed, n + i)
            if tuple(r.randint(1, 6) for _ in dice) != dice:
                ok = False
                break
            if i == 0 and target is not None and r.choice(range(target[1])) != target[0]:
                ok = False
                break
        if ok:
            return seed
    raise AssertionError("unreachable")


__all__ = ["build", "rig"]

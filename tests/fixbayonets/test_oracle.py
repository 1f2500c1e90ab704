"""Fix Bayonets against a second reading of the rules, written apart from the engine (the rules audit
of 2026-11-28): in random games, every single-man move and every attack a side may play, which group
moves are accepted, and the officers' victory are worked out again from the card list and
rules/fixbayonets.md with plain file and rank arithmetic, none of the engine's tables."""

from __future__ import annotations

import random

import pytest

from engine.errors import IllegalAction, InvalidNotation
from engine.fixbayonets.model import AMERICANS, GERMANS, Options, side_units, unit_kind, unit_side
from engine.fixbayonets.state import FIGHTING, MOVING, State, new_game

FILES = "abcdefgh"
STEPS = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if df or dr]
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
# The card list: attack distances (a knight's jump for the Grenade), who may use each weapon (R10),
# move distances, and the cards of one side only.
REACH = {"bayonet": (1, 1), "pistol": (1, 2), "flamer": (2, 3), "rifle3": (3, 3), "rifle4": (4, 4)}
REACH |= {"mg": (4, 5), "sniper": (5, 6)}
USERS = {"bayonet": "RSU", "pistol": "RSUO", "flamer": "H", "grenade": "RSU", "rifle3": "RSU"}
USERS |= {"rifle4": "RSU", "mg": "H", "sniper": "S"}
MOVES = {"crawl": 1, "march": 2, "double": 3, "run": 4, "charge": 5, "advance": 2, "counter": 3}
ONLY = {"flamer": GERMANS, "mg": AMERICANS, "advance": GERMANS, "counter": AMERICANS}
ONLY |= {"foxholes": AMERICANS, "hold": GERMANS}


def name(sq: int) -> str:
    return f"{FILES[sq % 8]}{sq // 8 + 1}"


def on_board(f: int, r: int) -> bool:
    return 0 <= f < 8 and 0 <= r < 8


def holder(s: State, f: int, r: int) -> str | None:
    stack = s.stacks[r * 8 + f]
    return unit_side(stack[0]) if stack else None


def playable(s: State, side: str) -> set[str]:
    return {c.code for c in s.hands[side] if ONLY.get(c.code, side) == side}


def men(s: State, side: str) -> dict[tuple[int, str], list[int]]:
    out: dict[tuple[int, str], list[int]] = {}
    for u in side_units(side):
        if s.where[u] >= 0:
            out.setdefault((s.where[u], unit_kind(u)), []).append(u)
    return out


def may_move(s: State, u: int) -> bool:
    return s.moves[u] < (2 if unit_kind(u) == "U" else 1)  # the runner moves twice (R11)


def expected_plays(s: State, side: str) -> set[str]:
    """Every single-man move (move phase) or attack (fight phase) `side` may play now."""
    enemy = AMERICANS if side == GERMANS else GERMANS
    cards = playable(s, side)
    out = set()
    for (sq, kind), units in men(s, side).items():
        f, r = sq % 8, sq // 8
        src = f"{kind}{name(sq)}"
        for code in sorted(cards):
            if s.phase == MOVING and code == "zigzag" and any(may_move(s, u) for u in units):
                for df, dr in KNIGHT:  # (R8): a jump; only the landing square counts
                    if on_board(f + df, r + dr) and holder(s, f + df, r + dr) != enemy:
                        out.add(f"zigzag {src}-{name((r + dr) * 8 + f + df)}")
            elif s.phase == MOVING and code in MOVES and any(may_move(s, u) for u in units):
                n = MOVES[code]  # (R6): exactly n squares in a straight line, never into or through enemies
                for df, dr in STEPS:
                    path = [(f + df * i, r + dr * i) for i in range(1, n + 1)]
                    if all(on_board(pf, pr) and holder(s, pf, pr) != enemy for pf, pr in path):
                        out.add(f"{code} {src}-{name(path[-1][1] * 8 + path[-1][0])}")
            elif s.phase == FIGHTING and code in USERS and kind in USERS[code]:
                if code == "grenade":
                    reach = [(f + df, r + dr) for df, dr in KNIGHT]
                else:  # (R7, R9): any distance in the range, along a straight line, nothing blocks
                    lo, hi = REACH[code]
                    reach = [(f + df * i, r + dr * i) for df, dr in STEPS for i in range(lo, hi + 1)]
                for tf, tr in reach:
                    if on_board(tf, tr) and holder(s, tf, tr) == enemy:
                        out.add(f"{code} {src}x{name(tr * 8 + tf)}")
    return out


def group_allowed(s: State, side: str, code: str, group: list[tuple[int, str]]) -> bool:
    """(R11): two men or more, each able to move its card's number straight forward on his own."""
    if code not in MOVES or code not in playable(s, side) or sum(len(k) for _, k in group) < 2:
        return False
    enemy = AMERICANS if side == GERMANS else GERMANS
    ahead = 1 if side == AMERICANS else -1
    mine = men(s, side)
    for sq, kinds in group:
        for k in set(kinds):
            if sum(1 for u in mine.get((sq, k), []) if may_move(s, u)) < kinds.count(k):
                return False
        f, r = sq % 8, sq // 8
        if not all(
            on_board(f, r + ahead * i) and holder(s, f, r + ahead * i) != enemy
            for i in range(1, MOVES[code] + 1)
        ):
            return False
    return True


def random_group(s: State, side: str, rng: random.Random) -> tuple[str, list[tuple[int, str]]]:
    squares: dict[int, list[str]] = {}
    for sq, kind in men(s, side):
        squares.setdefault(sq, []).extend(kind * len(men(s, side)[(sq, kind)]))
    group = []
    for sq in rng.sample(sorted(squares), min(len(squares), rng.randint(1, 3))):
        kinds = rng.sample(squares[sq], rng.randint(1, len(squares[sq])))
        group.append((sq, "".join(sorted(kinds, key="OHSUR".index))))
    return rng.choice(sorted(MOVES)), sorted(group)


@pytest.mark.parametrize("seed", range(16))
def test_random_games_agree_with_a_second_reading_of_the_rules(seed: int) -> None:
    rng = random.Random(seed)
    s = new_game(Options(open_hands=seed % 2 == 0), seed)
    while not s.is_over():
        side = rng.choice(sorted(s.to_act()))
        legal = s.legal_actions(side)
        if s.pending is None and s.phase in (MOVING, FIGHTING):
            listed = {str(a) for a in legal if " fwd " not in str(a)} - {"end", "fight"}
            assert listed == expected_plays(s, side)
        if s.pending is None and s.phase == MOVING:
            code, group = random_group(s, side, rng)
            text = f"{code} fwd " + ",".join(f"{kinds}{name(sq)}" for sq, kinds in group)
            try:
                s.clone().apply(text, side)
                accepted = True
            except (IllegalAction, InvalidNotation):
                accepted = False
            assert accepted == group_allowed(s, side, code, group), text
        busy = [a for a in legal if str(a) not in ("end", "fight", "pass")]
        s.apply(rng.choice(busy) if busy and rng.random() < 0.85 else rng.choice(legal), side)
        for lost in (GERMANS, AMERICANS):  # (R19): both officers dead ends it, for the other side
            if s.officers_alive(lost) == 0:
                outcome = s.outcome()
                assert outcome is not None and outcome.winner == (AMERICANS if lost == GERMANS else GERMANS)

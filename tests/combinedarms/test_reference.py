"""The engine's bit-mask moves, attacks, damage and retreats against a plain reading of the rules.

The state answers "where may this unit go" with whole-board masks and a per-unit cache; here the
same questions are answered square by square, straight from the rulings (R5-R19, R22, R24, W2-W8,
W10, W12), over seeded random games of both eras with every option: the two must agree everywhere.
"""

from __future__ import annotations

import random

import pytest

from engine.combinedarms import actions as A
from engine.combinedarms import events as E
from engine.combinedarms.state import MOVE, NOWHERE, PLAY, REINFORCE, State, new_game


def _near(s: State, a: int, b: int) -> bool:
    return a != b and s.g.distance(a, b) == 1


def _moves(s: State, uid: int) -> set[int]:
    """Breadth-first over empty squares by king steps; heavy units stop on entering difficult
    terrain (W8); an Airfield ends beside a friend and beside no enemy (W2); Move 4 for a
    Paratrooper that began the turn beside a friendly Airfield (W4)."""
    t = s.utype(uid)
    side = s.u_side[uid]
    start = s.u_sq[uid]
    points = t.para_move if uid in s.boosted else t.move
    # Difficult ground, and the cities too when both options are on (W7).
    slow = {i for i, t in enumerate(s.terrain) if t == "D"} | (set(s.cities) if s.rules.difficult else set())
    seen = {start}
    frontier = [start]
    for _ in range(points):
        nxt = []
        for sq in frontier:
            if sq != start and t.heavy and sq in slow:
                continue  # entered difficult ground: it stops there
            for d in range(s.g.size):
                if _near(s, sq, d) and d not in seen and s.board[d] == NOWHERE:
                    seen.add(d)
                    nxt.append(d)
        frontier = nxt
    out = seen - {start}
    if t.airfield:
        units = [(s.u_side[u], s.u_sq[u]) for u in range(len(s.u_sq)) if s.u_sq[u] != NOWHERE and u != uid]
        out = {
            d
            for d in out
            if any(k == side and _near(s, d, q) for k, q in units)
            and not any(k != side and _near(s, d, q) for k, q in units)
        }
    return out


def _targets(s: State, uid: int) -> set[int]:
    """Enemies within range (R7); an Airfield that moved fires at nothing, and never at an AA gun
    or a unit of the gun's side beside it (W2, W3)."""
    t = s.utype(uid)
    side = s.u_side[uid]
    if uid in s.attacked or (t.airfield and uid in s.moved):
        return set()
    foes = [u for u in s.alive(1 - side) if s.g.distance(s.u_sq[uid], s.u_sq[u]) <= t.reach]
    if t.airfield:
        guns = [s.u_sq[g] for g in s.alive(1 - side) if s.utype(g).shield]
        foes = [u for u in foes if not any(s.u_sq[u] == q or _near(s, s.u_sq[u], q) for q in guns)]
    return {s.u_sq[u] for u in foes}


def _retreats(s: State, uid: int) -> set[int]:
    """One square back (straight or diagonal) or beside, empty; beside only out of contact (R10-R11)."""
    g = s.g
    sq, side = s.u_sq[uid], s.u_side[uid]
    f, r = sq % g.width, sq // g.width
    back = r - 1 if side == 0 else r + 1
    out = set()
    for df in (-1, 0, 1):
        d = g.at(f + df, back)
        if d is not None and s.board[d] == NOWHERE:
            out.add(d)
    for df in (-1, 1):
        d = g.at(f + df, r)
        if d is None or s.board[d] != NOWHERE:
            continue
        if not any(_near(s, d, s.u_sq[e]) for e in s.alive(1 - side)):
            out.add(d)
    return out


def _reinforcements(s: State, side: int) -> set[str]:
    """Any type but the Headquarters and (WWII) the bases, while the board holds fewer of it than
    the army may have, and fewer tanks than the army may have (R19, W10)."""
    lim = s.rules.limits
    mine = [s.u_code[u] for u in s.alive(side)]
    tanks = sum(1 for c in mine if s.types[c].cls == "armour")
    out = set()
    for t in s.rules.era.units:
        if t.code == "H" or (t.code == "F" and s.rules.era.key == "wwii"):
            continue
        if mine.count(t.code) >= lim.most.get(t.code, 99):
            continue
        if t.cls == "armour" and tanks >= lim.class_most["armour"]:
            continue
        out.add(t.code)
    return out


def _end(s: State, side: str) -> None:
    """Ending a turn: every city held by the other side wins for it (W6, edition 2); else the turn
    limit draws after the second side's turn (R24); else the other side begins."""
    me = s.side_index(side)
    occupants = {s.u_side[s.board[c]] if s.board[c] != NOWHERE else None for c in s.cities}
    held = s.rules.cities and occupants == {1 - me}
    last = me == 1 and 0 < s.rules.turns <= s.taken[1]
    s.apply(A.END, side)
    outcome = s.outcome()
    if held:
        assert outcome is not None and outcome.winner == s.sides[1 - me]
    elif last:
        assert outcome is not None and outcome.winner is None
    else:
        assert outcome is None and s.active == 1 - me


def _check(s: State) -> None:
    names = s.g.names
    legal = s.legal_actions()
    if s.pending is not None:
        uid, _ = s.pending
        assert {a.dst for a in legal if isinstance(a, A.Retreat)} == {names[d] for d in _retreats(s, uid)}
        return
    side = s.active
    if s.step == REINFORCE:
        free = {names[d] for d in s.back_row(side) if s.board[d] == NOWHERE}
        assert {a.dst for a in legal if isinstance(a, A.Reinforce)} == free
        assert {a.code for a in legal if isinstance(a, A.Reinforce)} == _reinforcements(s, side)
        return
    for uid in s.alive(side):
        src = names[s.u_sq[uid]]
        if s.step == MOVE:
            want = set() if uid in s.moved else {names[d] for d in _moves(s, uid)}
            got = {a.dst for a in legal if isinstance(a, A.Move) and a.src == src}
        else:
            want = {names[d] for d in _targets(s, uid)}
            got = {a.dst for a in legal if isinstance(a, A.Attack) and a.src == src}
        assert got == want, (src, s.u_code[uid], sorted(got ^ want))


# Two damage, from the texts' special abilities (R15, W12); Elite always two (R16).
DOUBLE = {
    "wwi": {"M": set("IF"), "T": {"M"}, "F": set("ISMTAHFR")},
    "wwii": {"E": set("FH"), "X": set("LTK")},
}
BONUS = {"B": 2, "T": 1, "N": -1, "D": 1}


def _damage(s: State, att: int, tgt: int) -> int:
    if s.elite[att] or s.u_code[tgt] in DOUBLE[s.rules.era.key].get(s.u_code[att], ()):
        return 2
    return 1


def _defence(s: State, uid: int) -> int:
    """The trait, +1 Elite, the square's terrain (a city counts as difficult with that option on)."""
    sq = s.u_sq[uid]
    ground = "D" if s.rules.difficult and sq in s.cities else s.terrain[sq]
    return max(1, s.utype(uid).defense + s.elite[uid] + BONUS.get(ground, 0))


def _attack(s: State, action: A.Attack, side: str) -> None:
    """One attack against the text: its damage, the target's defence, and what reaching it does."""
    g = s.g
    att, tgt = s.board[g.index[action.src]], s.board[g.index[action.dst]]
    dmg, d, before = _damage(s, att, tgt), _defence(s, tgt), s.u_dmg[tgt]
    again = tgt in s.retreated
    cannot = s.utype(tgt).move == 0
    room = _retreats(s, tgt)
    events = s.apply(action, side)
    hit = next(e for e in events if isinstance(e, E.Hit))
    assert (hit.damage, hit.defense, hit.total) == (dmg, d, before + dmg)
    gone = [e for e in events if isinstance(e, E.Destroyed)]
    if before + dmg < d:
        assert not gone and s.u_sq[tgt] == g.index[action.dst]
    elif again or cannot or not room:  # Double Whammy (R13), no Move (R14, W5), nowhere to go
        assert gone and s.u_sq[tgt] == NOWHERE
    else:
        assert not gone and (s.pending is not None or s.u_sq[tgt] in room)


@pytest.mark.parametrize(
    ("era", "options", "army"),
    [
        ("wwi", {"terrain": True, "reinforcements": True}, "balanced"),
        ("wwi", {"elite": True, "experienced": True}, "assault"),
        ("wwii", {"cities": True, "difficult": True, "reinforcements": True}, "airborne"),
        ("wwii", {"difficult": True}, "armoured"),
        ("wwii", {"campaign": True}, "airborne"),
    ],
)
def test_moves_attacks_damage_and_retreats_agree_with_a_square_by_square_reading(era, options, army):
    for seed in range(2):
        s = new_game(era, {"turns": 12, **options}, seed)
        rng = random.Random(seed)
        first, second = s.sides
        s.apply(f"army {army}", first)
        s.apply(f"army {army}", second)
        s.apply("deploy line", first)
        s.apply("deploy flanks", second)
        steps = 0
        while s.phase == PLAY and steps < 1500:
            _check(s)
            if steps % 7 == 0:  # a stored game comes back as it was: the same actions, the same turn
                back = State.from_json(s.to_json())
                assert back.legal_actions() == s.legal_actions() and back.to_json() == s.to_json()
                s = back
            legal = s.legal_actions()
            # Moves and attacks mostly, so the game goes somewhere; an end now and then.
            pick = [a for a in legal if not isinstance(a, A.End | A.Done)] or legal
            if rng.random() < 0.06:
                pick = [a for a in legal if isinstance(a, A.Done | A.End)] or pick
            action = rng.choice(pick)
            if isinstance(action, A.Attack):
                _attack(s, action, next(iter(s.to_act())))
            elif isinstance(action, A.End):
                _end(s, next(iter(s.to_act())))
            else:
                s.apply(action, next(iter(s.to_act())))
            steps += 1

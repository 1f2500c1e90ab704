"""The search's judgement for Combined Arms: `evaluate`, a cheap `rollout` policy and an `order`.

The generic search (`engine.search`) plays one small step at a time, so these hooks carry the game's
sense: units walk to where they can fire (a ranged unit at the edge of its range, a melee unit next to
an enemy), attacks go first where they finish a retreat or a kill (the Double Whammy: push a unit back,
then push it again), the Headquarters is the prize, and a threatened one is the worry.

Distances to the nearest enemy come from a distance field built by growing the enemy's occupancy mask
one king step at a time; it depends only on the enemy's squares, which do not change while a side
moves, so it is cached by mask.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import lru_cache

from engine.combinedarms import actions as A
from engine.combinedarms.board import Geometry, bits, geometry
from engine.combinedarms.state import (
    ATTACK,
    DEPLOY,
    DESIGN,
    MOVE,
    NOWHERE,
    OVER,
    PLAY,
    REINFORCE,
    RETREAT,
    State,
)
from engine.protocol import Action

HQ_VALUE = 6.0  # the Headquarters is the game: threats to it count this much
FAR = 99
PREFERRED_ARMY = {"wwi": "balanced", "wwii": "balanced"}
PREFERRED_LAYOUT = "line"
THREAT = 0.35  # what a side could hit next turn, per enemy unit (its value times this)
POSITION = 0.5  # the weight of where units stand, against material (Infantry = 1)
MOVE_COST = 0.12  # a move must gain something: aimless shuffles rank below `done`
CITY = 1.5  # a city held (City Spaces, W6), and HQ_VALUE more for holding them all: that wins


@lru_cache(maxsize=8192)
def _field(width: int, height: int, mask: int) -> tuple[int, ...]:
    """King distance from each square to the nearest square of `mask` (FAR when empty)."""
    g = geometry(width, height)
    out = [FAR] * g.size
    if not mask:
        return tuple(out)
    ring = mask
    seen = 0
    d = 0
    while ring and d < 30:
        for sq in bits(ring):
            out[sq] = d
        seen |= ring
        ring = g.spread(seen) & ~seen
        d += 1
    return tuple(out)


def enemy_field(s: State, side: int) -> tuple[int, ...]:
    return _field(s.g.width, s.g.height, s.occ[1 - side])


def _value(s: State, uid: int) -> float:
    code = s.u_code[uid]
    v = HQ_VALUE if code == "H" else s.types[code].value
    return v * 1.25 if s.elite[uid] else v


def _dist(g: Geometry, a: int, b: int) -> int:
    w = g.width
    return max(abs(a % w - b % w), abs(a // w - b // w))


# ----------------------------------------------------------------------------- evaluation


def evaluate(s: State, side: str) -> float:
    """How good `s` is for `side`, in [-1, 1]."""
    if s.phase == OVER:
        r = s.result
        if r is None or r.winner is None:
            return 0.0
        return 1.0 if r.winner == side else -1.0
    if s.phase in (DESIGN, DEPLOY):
        return 0.0
    me = s.side_index(side)
    mine = _side_score(s, me)
    theirs = _side_score(s, 1 - me)
    return math.tanh((mine - theirs) / 10.0)


def _side_score(s: State, me: int) -> float:
    """Material, pressure on enemy units and on the enemy HQ, and this turn's damage, for side `me`."""
    g = s.g
    own = s.alive(me)
    foes = s.alive(1 - me)
    total = 0.0
    for u in own:
        if s.u_code[u] != "H":
            total += _value(s, u)
    hq = s.hq(1 - me)
    tempo = 1.0 if s.active == me else 0.6
    # What my units could hit by next attack phase.
    within = g.within
    reach = []
    for u in own:
        t = s.utype(u)
        sq = s.u_sq[u]
        reach.append((sq, within[min(6, s.move_points(u) + t.reach)][sq], within[t.reach][sq], u, t.reach))
    for e in foes:
        esq = s.u_sq[e]
        d_e = s.defense(e)
        potential = 0
        now = 0
        for _, far, near, u, _ in reach:
            if far >> esq & 1:
                dmg = s.damage_of(u, e)
                potential += dmg
                if near >> esq & 1:
                    now += dmg
        if e == hq:
            total += tempo * (0.5 * min(potential, 2 * d_e) + 0.25 * now)
            if potential >= d_e:
                total += tempo * 2.0
                if s.falls_if_forced(e) is not None:  # a Headquarters never retreats (R14, W5)
                    total += tempo * 3.0
        elif potential:
            total += tempo * _value(s, e) * THREAT * min(1.0, potential / (2 * d_e))
    # Where each unit stands, judged as the move ordering judges a move (so the search and the
    # ordering agree): at its own range from the nearest enemy, and on the way to the enemy HQ.
    field = _field(g.width, g.height, s.occ[1 - me])
    hsq = None if hq is None else s.u_sq[hq]
    for sq, _, _, u, near in reach:
        if s.u_code[u] == "H":
            continue
        total += POSITION * _desire(field[sq], near)
        if hsq is not None:
            d = _dist(g, sq, hsq)
            total += POSITION * (0.08 * max(0, 12 - d) + (1.5 if d <= near else 0.0))
    if s.rules.cities and s.cities:
        total += _cities_score(s, me, [sq for sq, _, _, u, _ in reach if s.u_code[u] != "H"])
    # Damage dealt this turn is worth something while the turn lasts (more attacks can finish it).
    if s.active == me and s.step in (ATTACK, RETREAT):
        ready = attackers(s, me)
        for e in foes:
            if s.u_dmg[e] and s.u_dmg[e] + firepower(s, e, NOWHERE, ready) >= s.defense(e):
                total += 0.5 * _value(s, e) * s.u_dmg[e] / s.defense(e)
            if e in s.retreated:
                total += 0.2 * _value(s, e)
    return total


def _cities_score(s: State, me: int, squares: list[int]) -> float:
    """Cities held, all of them most (a win when our next turn begins unless the enemy pushes one
    off first, W6), and units on the way to the ones not held yet."""
    held = 0
    total = 0.0
    for c in s.cities:
        uid = s.board[c]
        if uid != NOWHERE and s.u_side[uid] == me:
            held += 1
        elif squares:
            d = min(_dist(s.g, sq, c) for sq in squares)
            total += POSITION * 0.1 * max(0, 6 - d)
    total += CITY * held
    if held == len(s.cities):
        total += HQ_VALUE
    elif held == len(s.cities) - 1:
        total += CITY
    return total


# ----------------------------------------------------------------------------- quick scores


def _move_score(s: State, field: tuple[int, ...], hq_sq: int | None, src: int, dst: int) -> float:
    uid = s.board[src]
    t = s.utype(uid)
    before = _desire(field[src], t.reach)
    after = _desire(field[dst], t.reach)
    score = after - before
    if hq_sq is not None:
        score += 0.08 * (_dist(s.g, src, hq_sq) - _dist(s.g, dst, hq_sq))
        if _dist(s.g, dst, hq_sq) <= t.reach:
            score += 1.5
    score += 0.15 * s.bonus[dst]
    if s.rules.cities and s.cities:  # a city is held by standing on it (W6)
        score += CITY * ((dst in s.cities) - (src in s.cities))
    return score - MOVE_COST


def _desire(d: int, reach: int) -> float:
    """How much a unit likes standing `d` from the nearest enemy: best at its range."""
    if d <= reach:
        return 1.0 - 0.15 * (reach - d)
    return -0.3 * (d - reach)


def attackers(s: State, side: int) -> list[tuple[int, int, int]]:
    """`side`'s units that may still attack this phase: (unit, square, range)."""
    out = []
    for u in s.alive(side):
        if u in s.attacked:
            continue
        t = s.utype(u)
        if t.reach and not (t.airfield and u in s.moved):
            out.append((u, s.u_sq[u], t.reach))
    return out


def firepower(
    s: State, target: int, exclude: int = NOWHERE, ready: list[tuple[int, int, int]] | None = None
) -> int:
    """Damage the target's enemies can still deal it this attack phase (units yet to fire, in range)."""
    if ready is None:
        ready = attackers(s, 1 - s.u_side[target])
    within = s.g.within
    tsq = s.u_sq[target]
    total = 0
    for u, sq, reach in ready:
        if u != exclude and within[reach][sq] >> tsq & 1:
            total += s.damage_of(u, target)
    return total


def _attack_score(s: State, src: int, dst: int, ready: list[tuple[int, int, int]] | None = None) -> float:
    """Finish what can be finished: kills first, then forced retreats, then hits that others can
    complete this phase; a hit nobody can complete is worth little (damage clears at the turn's end)."""
    att, tgt = s.board[src], s.board[dst]
    if att == NOWHERE or tgt == NOWHERE:
        return -5.0
    dmg = s.damage_of(att, tgt)
    d = s.defense(tgt)
    left = d - s.u_dmg[tgt]
    value = _value(s, tgt)
    if dst in s.cities and s.cities_holder() == s.u_side[tgt]:
        value += HQ_VALUE  # every city held (W6): pushing one off breaks the hold
    choice = 0.05 * bin(s.targets(att)).count("1")  # a unit with fewer targets fires first
    if dmg >= left:
        if s.falls_if_forced(tgt) is not None:
            return 20.0 + value * 3.0 - choice
        return 6.0 + value - choice
    if dmg + firepower(s, tgt, att, ready) >= left:
        return 3.0 + value * (dmg + s.u_dmg[tgt]) / d + (2.0 if tgt in s.retreated else 0.0) - choice
    return 0.2 + 0.1 * value - choice


def _retreat_score(s: State, dst: int) -> float:
    """Fewer enemy units able to hit the square, and defensive terrain, are better."""
    if s.pending is None:
        return 0.0
    uid = s.pending[0]
    side = s.u_side[uid]
    danger = 0
    for e in s.alive(1 - side):
        if e not in s.attacked and _dist(s.g, s.u_sq[e], dst) <= s.utype(e).reach:
            danger += s.damage_of(e, uid)
    return -danger + 0.5 * s.bonus[dst]


def score(
    s: State,
    side: int,
    action: Action,
    field: tuple[int, ...] | None = None,
    ready: list[tuple[int, int, int]] | None = None,
    hq_sq: int | None = NOWHERE,
) -> float:
    """A quick guess of how good `action` is for `side` (higher first). `field`, `ready` and
    `hq_sq` (the enemy distance field, the units yet to fire, the enemy HQ's square) may be passed
    by a caller scoring many actions of one position."""
    g = s.g
    if isinstance(action, A.Move):
        src, dst = g.index[action.src], g.index[action.dst]
        if hq_sq == NOWHERE:
            hq = s.hq(1 - side)
            hq_sq = None if hq is None else s.u_sq[hq]
        return _move_score(s, field or enemy_field(s, side), hq_sq, src, dst)
    if isinstance(action, A.Attack):
        return 10.0 + _attack_score(s, g.index[action.src], g.index[action.dst], ready)
    if isinstance(action, A.Done):
        return -0.05
    if isinstance(action, A.End):
        return -2.0 if s.step == ATTACK else -9.0
    if isinstance(action, A.Retreat):
        return _retreat_score(s, g.index[action.dst])
    if isinstance(action, A.Reinforce):
        t = s.rules.era.by_code[action.code]
        f = g.index[action.dst] % g.width
        return t.value - 0.05 * abs(f - (g.width - 1) / 2)
    if isinstance(action, A.Army):
        return 1.0 if action.preset == PREFERRED_ARMY[s.rules.era.key] else 0.0
    if isinstance(action, A.Deploy):
        return 1.0 if action.preset == PREFERRED_LAYOUT else 0.0
    return 0.0


def _hq_square(s: State, me: int) -> int | None:
    hq = s.hq(1 - me)
    return None if hq is None else s.u_sq[hq]


def order(s: State, side: str, actions: Sequence[Action], rng: random.Random) -> list[Action]:
    """The most promising actions first (progressive widening tries these)."""
    me = s.side_index(side)
    field = enemy_field(s, me) if s.phase not in (DESIGN, DEPLOY) else None
    ready = attackers(s, me) if s.step == ATTACK and s.pending is None else None
    hq = _hq_square(s, me)
    scored = [(score(s, me, a, field, ready, hq) + rng.random() * 0.01, i) for i, a in enumerate(actions)]
    scored.sort(reverse=True)
    return [actions[i] for _, i in scored]


def rollout(s: State, side: str, rng: random.Random) -> Action:
    """A cheap, sensible playout step: the best of a few sampled actions."""
    legal = s.legal_actions(side)
    if len(legal) == 1:
        return legal[0]
    me = s.side_index(side)
    if s.phase in (DESIGN, DEPLOY) or s.step in (REINFORCE, RETREAT) or s.pending is not None:
        return max(legal, key=lambda a: score(s, me, a) + rng.random() * 0.1)
    if s.step == MOVE:
        if rng.random() < 0.12:
            return A.DONE
        field = enemy_field(s, me)
        sample = [legal[rng.randrange(len(legal) - 2)] for _ in range(6)] if len(legal) > 2 else legal
        hq = _hq_square(s, me)
        value, best = max(
            (score(s, me, a, field, None, hq) + rng.random() * 0.2, i) for i, a in enumerate(sample)
        )
        return A.DONE if value <= 0.1 else sample[best]
    attacks = legal[:-1]
    if not attacks or rng.random() < 0.05:
        return A.END
    if len(attacks) > 8:
        attacks = rng.sample(attacks, 8)
    ready = attackers(s, me)
    _, best = max((score(s, me, a, None, ready) + rng.random() * 0.5, i) for i, a in enumerate(attacks))
    return attacks[best]


__all__ = ["attackers", "enemy_field", "evaluate", "firepower", "order", "rollout", "score"]


def hq_veto(s: State, side: str, pick: Action, weights: object) -> Action:
    """`pick`, unless it ends our moves (a move, `done`, an attack that closes the move phase, or
    `end`) with our Headquarters open to destruction next turn while another move would keep the
    damage the enemy can bring to it below its defence (`plan.hq_risk`; issue 32: WWI's `hard`
    walked the units ringing its Headquarters away from an enemy Flame Thrower and Artillery). Then
    the move that leaves it safest, the first by `order` among equals."""
    from engine.combinedarms import plan  # plan imports this module

    if s.phase != PLAY or s.step != MOVE or s.pending is not None:
        return pick
    me = s.sides.index(side)
    if s.hq(me) is None:
        return pick
    assert isinstance(weights, plan.Weights)

    def risk_after(action: Action) -> float:
        after = s.clone()
        after.apply(action, side)
        return plan.hq_risk(after, me, weights)

    if risk_after(pick) < 1.0:
        return pick
    legal = s.legal_actions(side)
    moves = [a for a in order(s, side, legal, random.Random(0)) if isinstance(a, A.Move)]
    best, best_risk = pick, risk_after(pick)
    for action in moves:
        risk = risk_after(action)
        if risk < best_risk:
            best, best_risk = action, risk
            if risk < 1.0 and risk <= 0.5:
                break
    return best if best_risk < 1.0 else pick

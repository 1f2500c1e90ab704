"""Whole-turn planning for Combined Arms: the AI levels `normal` and `hard`, and `easy`'s one step.

The game is won by concentrating force: a unit gives way only when the damage of several attacks in
one turn reaches its defence, a second forced retreat (the Double Whammy) or a blocked one destroys
it, and a Headquarters falls to its defence in damage. A search one small step at a time cannot see
that, so the turn is planned as a whole:

- **Forcing.** `force` answers "what can this side force with these attackers?": for every target,
  the damage that can reach it against what it still needs to give way, whether giving way destroys
  it (a base, the Headquarters, a unit already pushed back once, a unit with no square to retreat
  to) or only pushes it back, and a greedy assignment of attackers to targets (the best gain per
  point of damage first; each attacker once, those with the fewest other targets first). Melee
  units need a free square beside the target, so a Headquarters ringed by its own units is safe
  from them. It is asked about this turn (units where they stand) and the next (units where they
  could move, through empty squares).
- **Judging a position** (`judge`): material; the own Headquarters' empty neighbours and friendly
  guards; where units stand (their range from the nearest enemy, their distance to the enemy
  Headquarters, both sides); units pushed back this turn; at `hard` also what the enemy can force
  next turn (its Headquarters destroyed above all) against what we can. With City Spaces, the
  cities held; every city the enemy holds wins for it when our turn ends (W6), so it is as good as
  lost unless we break the hold, and our own hold is a threat the enemy must answer: pushing a unit
  off a held city counts like a Headquarters in `force`; an enemy able to step onto every city next
  turn counts like our Headquarters lost.
- **The attack phase** is a beam search over attack sequences played on copies of the state (so
  retreats, the Double Whammy and blocked retreats are the engine's own); the defender's retreat
  squares are chosen as our own defender would choose them (where the attackers still to fire can
  force least). Partial sequences are ranked by what is done, what the attackers still to fire can
  force and damage on its way to a forced retreat; the kept ones are judged by `judge`. The budget
  is a number of positions, never a clock. The plan is made once per phase and replayed step by
  step: each step is stored under the position it expects, and a position that differs (a retreat
  went elsewhere) is planned afresh.
- **The move phase** goes one move at a time. `easy` and `normal` take the quick score's best move
  (`ai.score`: towards a unit's range from the nearest enemy and the enemy Headquarters). `hard`
  weighs the quick score's best moves, every step onto a square beside its own Headquarters, and
  `done`, by what each leaves: the damage the enemy could bring to our Headquarters next turn
  (`guard`), what we can force in this turn's attack phase (`focus`: a move that brings another
  attacker onto a target) and the damage we could bring to theirs next turn (`siege`). A planned
  move phase (the best move by `judge` until none gained) was tried and dropped: it played too
  cautiously (docs/ai.md).

Everything is computed from the side's `View` (Combined Arms hides nothing once the armies are
revealed). The seed draws the ready-made army and layout and breaks ties, so seeded games differ
and the same seed gives the same action.
"""

from __future__ import annotations

import random
import re
from collections import OrderedDict
from dataclasses import dataclass, fields, replace
from typing import Any

from engine import search
from engine.combinedarms import actions as A
from engine.combinedarms import ai
from engine.combinedarms.army import ready_layout
from engine.combinedarms.board import Geometry, bits
from engine.combinedarms.state import ATTACK, DEPLOY, DESIGN, MOVE, NOWHERE, OVER, REINFORCE, State

WIN = 1000.0  # a destroyed Headquarters (or every city held): the game


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's weights, in units of one Infantry (tuned by self-play, docs/ai.md)."""

    retreat: float = 0.35  # a forced retreat, as a share of the unit's value
    double: float = 0.8  # a Double Whammy counted on ahead of time (the retreat may go out of reach)
    single: float = 0.6  # a forced retreat with one square to go to (another's retreat may take it)
    danger: float = 0.7  # what the enemy can force next turn, against us
    pressure: float = 0.3  # what we can force the turn after, against them
    hq_lost: float = 30.0  # the enemy can destroy our Headquarters next turn
    hq_margin: float = 2.0  # the damage the enemy can bring to our Headquarters, as a share of its defence
    hq_open: float = 0.25  # per empty square beside our Headquarters
    hq_guard: float = 0.3  # per friendly unit beside our Headquarters (up to three)
    hq_press: float = 1.0  # the damage we can bring to theirs, as a share of its defence
    advance: float = 0.12  # per square of distance to the nearest enemy, beyond a unit's range
    toward_hq: float = 0.05  # per square closer to the enemy Headquarters
    city: float = 1.5  # a city held (City Spaces)

    def as_dict(self) -> dict[str, float]:
        return {f.name: float(getattr(self, f.name)) for f in fields(self)}


TUNED = Weights()


@dataclass(frozen=True, slots=True)
class Config:
    """How much one level plans: the size of its searches, never a clock."""

    deep: bool = True  # judge what the enemy can force next turn (and we the turn after)
    beam: int = 6  # attack sequences kept per depth
    guard: float = 0.0  # with greedy moves: how much the damage the enemy can bring to our HQ counts
    candidates: int = 12  # with guard: the moves (by quick score) judged by what they leave the HQ
    siege: float = 0.0  # with guard: how much the damage we could bring to their HQ next turn counts
    focus: float = 0.0  # with guard: how much a move's gain in what we can force this turn counts
    corner: bool = False  # deploy the Headquarters in a corner of the back row, ringed by units
    positions: int = 4000  # the most positions an attack plan plays through (its budget)
    weights: Weights = TUNED
    # Correspondence (`turn_plan`): the whole turn chosen among lines played out by this planner
    # (hard's) for both sides, our turn and the enemy's reply; `lines` first moves are tried.
    rollout: Config | None = None
    lines: int = 0
    cap_s: float = 0.0  # a safety net only: no line is begun after this long (`search.clock`)


# ----------------------------------------------------------------------------- small pieces


def _value(s: State, uid: int) -> float:
    code = s.u_code[uid]
    v = 3.0 if code == "H" else s.types[code].value
    return v * 1.25 if s.elite[uid] else v


def _dist(g: Geometry, a: int, b: int) -> int:
    w = g.width
    return max(abs(a % w - b % w), abs(a // w - b // w))


def _grow(g: Geometry, mask: int, steps: int) -> int:
    for _ in range(steps):
        mask = g.spread(mask)
    return mask


def _reach_mask(s: State, uid: int, empty: int, moves: int) -> int:
    """The squares `uid` could move to through `empty` squares (its own included)."""
    g = s.g
    sq = s.u_sq[uid]
    start = 1 << sq
    if moves <= 0:
        return start
    stop = s.slow if s.utype(uid).heavy else 0
    visited = frontier = start
    for i in range(moves):
        src = frontier if i == 0 else frontier & ~stop
        if not src:
            break
        frontier = g.spread(src) & empty & ~visited
        if not frontier:
            break
        visited |= frontier
    return visited


Zone = tuple[int, int, bool]  # attacker, the squares it can hit, melee


def zones_now(s: State, side: int) -> list[Zone]:
    """`side`'s attackers still to fire this phase, from where they stand."""
    out: list[Zone] = []
    shield = -1
    for u in s.alive(side):
        if u in s.attacked:
            continue
        t = s.utype(u)
        if not t.reach or (t.airfield and u in s.moved):
            continue
        zone = s.g.within[t.reach][s.u_sq[u]]
        if t.airfield:
            if shield < 0:
                shield = s.shielded(1 - side)
            zone &= ~shield
        out.append((u, zone, t.reach == 1))
    return out


def zones_next(s: State, side: int) -> list[Zone]:
    """`side`'s attackers next turn: anywhere they could move to (through squares the enemy does not
    hold: its own units can make way first), then their range."""
    g = s.g
    empty = g.full & ~s.occ[1 - side]  # its own units can make way: only the enemy's block
    fields_ = 0
    for u in s.alive(side):
        if s.utype(u).airfield:
            fields_ |= 1 << s.u_sq[u]
    near_fields = g.spread(fields_) if fields_ else 0
    shield = -1
    out: list[Zone] = []
    for u in s.alive(side):
        t = s.utype(u)
        if not t.reach:
            continue
        sq = s.u_sq[u]
        if t.airfield:  # it attacks only if it stays put (W2)
            if shield < 0:
                shield = s.shielded(1 - side)
            out.append((u, g.within[t.reach][sq] & ~shield, False))
            continue
        moves = t.para_move if t.para_move and near_fields >> sq & 1 else t.move
        reach = _reach_mask(s, u, empty, moves)
        out.append((u, _grow(g, reach, t.reach), t.reach == 1))
    return out


def _squares_behind(s: State, e: int, fresh: bool) -> int:
    """How many squares a forced retreat of `e` may use: 0 when it destroys `e` (a base or the
    Headquarters, a unit already pushed back this turn: the Double Whammy; or no square free)."""
    t = s.utype(e)
    if t.base or t.move == 0:
        return 0
    if not fresh and e in s.retreated:
        return 0
    return len(s.retreat_squares(e))


@dataclass(slots=True)
class Forcing:
    """What one side can force: the gain (in Infantry), and the damage it can bring to the enemy
    Headquarters against what that needs."""

    gain: float = 0.0
    hq_damage: int = 0
    hq_need: int = 1
    hq_falls: bool = False


def force(s: State, zones: list[Zone], target_side: int, fresh: bool, w: Weights) -> Forcing:
    """A greedy assignment of the attackers in `zones` to `target_side`'s units. `fresh`: damage
    counted from zero as at the start of a turn (the next turn), else this turn's damage so far."""
    g = s.g
    out = Forcing()
    if not zones:
        hq = s.hq(target_side)
        if hq is not None:
            out.hq_need = s.defense(hq) - (0 if fresh else s.u_dmg[hq])
        return out
    occ_t = s.occ[target_side]
    free = g.full & ~occ_t  # squares a melee attacker could stand on (its own, or empty ones)
    held = 0  # every city, held by the target side (W6): pushing one off breaks the hold
    if s.cities and s.cities_holder() == target_side:
        for c in s.cities:
            held |= 1 << c
    alts = [bin(z & occ_t).count("1") for _, z, _ in zones]
    plans: list[tuple[float, float, int, list[tuple[int, int]], int, int, bool]] = []
    for e in s.alive(target_side):
        sq = s.u_sq[e]
        bit = 1 << sq
        ranged: list[tuple[int, int]] = []
        melee: list[tuple[int, int]] = []
        for i, (u, zone, is_melee) in enumerate(zones):
            if zone & bit:
                (melee if is_melee else ranged).append((i, s.damage_of(u, e)))
        if not ranged and not melee:
            if s.u_code[e] == "H":
                out.hq_need = s.defense(e) - (0 if fresh else s.u_dmg[e])
            continue
        if melee:
            slots = bin(g.near[sq] & free).count("1")
            melee.sort(key=lambda x: -x[1])
            melee = melee[:slots]
        contributors = ranged + melee
        total = sum(d for _, d in contributors)
        d_e = s.defense(e)
        need = d_e - (0 if fresh else s.u_dmg[e])
        if s.u_code[e] == "H":
            out.hq_damage = total
            out.hq_need = need
            if total >= need:
                out.hq_falls = True
            continue
        if total < need:
            continue
        value = _value(s, e)
        behind = _squares_behind(s, e, fresh)
        if behind == 0:
            gain, cost = value, need
        elif behind == 1 and total >= need + d_e:
            gain, cost = value * max(w.double, w.single), need  # its one square is easily taken
        elif behind == 1:
            gain, cost = value * w.single, need
        elif total >= need + d_e:
            gain, cost = value * w.double, need + d_e
        else:
            gain, cost = value * w.retreat, need
        double = gain == value * w.double
        if held & bit:
            gain += w.hq_lost
        contributors.sort(key=lambda x: (alts[x[0]], -x[1]))
        plans.append((gain / cost, gain, cost, contributors, need, e, double))
    plans.sort(key=lambda p: (-p[0], -p[1], p[5]))
    used: set[int] = set()
    for _, gain, cost, contributors, need, e, double in plans:
        got = 0
        chosen: list[int] = []
        for i, dmg in contributors:
            if i in used:
                continue
            chosen.append(i)
            got += dmg
            if got >= cost:
                break
        if got < cost and double and got >= need:
            # not enough left for the second push: only the first
            gain = _value(s, e) * w.retreat + (w.hq_lost if held >> s.u_sq[e] & 1 else 0.0)
        elif got < cost:
            continue
        used.update(chosen)
        out.gain += gain
    return out


# ----------------------------------------------------------------------------- judging


def _material(s: State, me: int) -> float:
    total = 0.0
    for u in range(len(s.u_code)):
        if s.u_sq[u] == NOWHERE or s.u_code[u] == "H":
            continue
        total += _value(s, u) if s.u_side[u] == me else -_value(s, u)
    return total


def judge(s: State, me: int, cfg: Config) -> float:
    """How good `s` is for side `me`, in Infantry: see the module's docstring."""
    w = cfg.weights
    if s.phase == OVER:
        r = s.result
        if r is None or r.winner is None:
            return 0.0
        return WIN if r.winner == s.sides[me] else -WIN
    mine, theirs = s.hq(me), s.hq(1 - me)
    if theirs is None:
        return WIN
    if mine is None:
        return -WIN
    g = s.g
    score = _material(s, me)
    my_hq, their_hq = s.u_sq[mine], s.u_sq[theirs]
    occupied = s.occ[0] | s.occ[1]
    score -= w.hq_open * bin(g.near[my_hq] & ~occupied).count("1")
    score += w.hq_guard * min(3, bin(g.near[my_hq] & s.occ[me]).count("1"))
    if cfg.deep:
        danger = force(s, zones_next(s, 1 - me), me, True, w)
        if danger.hq_falls:
            score -= w.hq_lost
        score -= w.danger * danger.gain + w.hq_margin * min(1.0, danger.hq_damage / max(1, danger.hq_need))
        press = force(s, zones_next(s, me), 1 - me, True, w)
        score += w.pressure * press.gain + w.hq_press * min(1.0, press.hq_damage / max(1, press.hq_need))
    # Where units stand: at their range from the nearest enemy, closer to the enemy Headquarters.
    score += _standing(s, me, their_hq, w) - _standing(s, 1 - me, my_hq, w)
    if s.active == me and s.step == ATTACK:  # pushed back this turn: out of place, open to a second push
        score += w.retreat * sum(_value(s, e) for e in s.retreated if s.u_sq[e] != NOWHERE)
    if s.rules.cities and s.cities:
        score += _cities(s, me, w)
    return score


def _standing(s: State, me: int, their_hq: int, w: Weights) -> float:
    """Where `me`'s units stand: at their range from the nearest enemy, near the enemy Headquarters."""
    g = s.g
    field = _enemy_field(s, me)
    score = 0.0
    for u in s.alive(me):
        t = s.utype(u)
        if t.move == 0:
            continue
        sq = s.u_sq[u]
        score -= w.advance * max(0, field[sq] - t.reach) + w.toward_hq * _dist(g, sq, their_hq)
    return score


def _cities(s: State, me: int, w: Weights) -> float:
    """Cities held (W6). Every city held wins when the holder's next turn begins, so a hold the
    side to move has not broken is as good as lost for it when its turn ends, and its own hold is a
    threat the enemy must answer (in edition 1 the engine ends the game at once instead)."""
    held = [0, 0]
    for c in s.cities:
        uid = s.board[c]
        if uid != NOWHERE:
            held[s.u_side[uid]] += 1
    n = len(s.cities)
    score = w.city * (held[me] - held[1 - me])
    if held[me] == n - 1:
        score += w.city
    if held[1 - me] == n - 1:
        score -= 2 * w.city
    for side, sign in ((me, 1.0), (1 - me, -1.0)):
        if held[side] == n:
            score += sign * (WIN / 2 if side != s.active else w.hq_lost)
    if held[me] == 0 and held[1 - me] < n and _fill_next(s, 1 - me):
        score -= w.hq_lost  # a hold the enemy can make next turn: like our Headquarters in reach
    return score


def _fill_next(s: State, side: int) -> bool:
    """Whether `side` could stand on every city in its next turn: each city it does not hold yet
    is empty and a unit of its own (a different one for each, not one holding a city) could move
    there through empty squares (Paratroopers with Move 4 if an Airfield is beside them now)."""
    open_cities = [c for c in s.cities if s.board[c] == NOWHERE]
    if any(s.board[c] != NOWHERE and s.u_side[s.board[c]] != side for c in s.cities):
        return False
    g = s.g
    empty = g.full & ~(s.occ[0] | s.occ[1])
    cities = 0
    for c in s.cities:
        cities |= 1 << c
    fields = s.occ[side] & ~cities
    airfields = 0
    for u in s.alive(side):
        if s.utype(u).airfield:
            airfields |= 1 << s.u_sq[u]
    boost = g.spread(airfields) if airfields else 0
    options: list[list[int]] = [[] for _ in open_cities]
    for u in s.alive(side):
        sq = s.u_sq[u]
        if not fields >> sq & 1:
            continue
        t = s.utype(u)
        moves = t.para_move if t.para_move and boost >> sq & 1 else t.move
        reach = _reach_mask(s, u, empty, moves)
        for i, c in enumerate(open_cities):
            if reach >> c & 1:
                options[i].append(u)

    def match(i: int, used: frozenset[int]) -> bool:
        if i == len(open_cities):
            return True
        return any(match(i + 1, used | {u}) for u in options[i] if u not in used)

    return all(options) and match(0, frozenset())


_FIELDS: OrderedDict[tuple[int, int, int], tuple[int, ...]] = OrderedDict()


def _enemy_field(s: State, me: int) -> tuple[int, ...]:
    """King distance from each square to the nearest enemy unit (cached by the enemy's squares)."""
    g = s.g
    key = (g.width, g.height, s.occ[1 - me])
    got = _FIELDS.get(key)
    if got is not None:
        return got
    out = [99] * g.size
    seen = ring = s.occ[1 - me]
    d = 0
    while ring:
        for sq in bits(ring):
            out[sq] = d
        d += 1
        grown = g.spread(seen)
        ring = grown & ~seen
        seen = grown
    field = tuple(out)
    _FIELDS[key] = field
    if len(_FIELDS) > 4096:
        _FIELDS.popitem(last=False)
    return field


def now_value(s: State, me: int, cfg: Config) -> float:
    """What `me`'s attackers still to fire can force this phase (the enemy Headquarters above all)."""
    f = force(s, zones_now(s, me), 1 - me, False, cfg.weights)
    return (WIN / 2 if f.hq_falls else 0.0) + f.gain


# ----------------------------------------------------------------------------- the move phase


def _shift(s: State, uid: int, src: int, dst: int) -> None:
    """Move a unit in place, outside the rules, to judge a candidate (undone by shifting back)."""
    side = s.u_side[uid]
    s.board[src] = NOWHERE
    s.board[dst] = uid
    s.occ[side] = (s.occ[side] & ~(1 << src)) | (1 << dst)
    s.u_sq[uid] = dst


# ----------------------------------------------------------------------------- the attack phase


def retreat_choice(s: State, cfg: Config) -> A.Retreat:
    """Where our unit forced back goes: where the attackers still to fire can force least."""
    assert s.pending is not None
    uid, options = s.pending
    me = s.u_side[uid]
    origin = s.u_sq[uid]
    shallow = replace(cfg, deep=False)
    best: tuple[float, int] | None = None
    for i, dst in enumerate(options):
        dmg = s.u_dmg[uid]
        _shift(s, uid, origin, dst)
        s.retreated.add(uid)
        s.u_dmg[uid] = 0
        v = -now_value(s, 1 - me, cfg) + 0.1 * judge(s, me, shallow) - 0.001 * i
        s.u_dmg[uid] = dmg
        s.retreated.discard(uid)
        _shift(s, uid, dst, origin)
        if best is None or v > best[0]:
            best = (v, dst)
    assert best is not None
    return A.Retreat(s.g.names[best[1]])


def _useful_attacks(s: State, me: int) -> list[A.Attack]:
    """Attacks that can still count: the target can be forced back with the attackers left."""
    g = s.g
    ready = zones_now(s, me)
    out: list[A.Attack] = []
    totals: dict[int, int] = {}
    for e in s.alive(1 - me):
        bit = 1 << s.u_sq[e]
        totals[e] = sum(s.damage_of(u, e) for u, zone, _ in ready if zone & bit)
    for u, zone, _ in ready:
        for dst in bits(zone & s.occ[1 - me]):
            e = s.board[dst]
            if totals[e] >= s.defense(e) - s.u_dmg[e]:
                out.append(A.Attack(g.names[s.u_sq[u]], g.names[dst]))
    return out


def _progress(s: State, me: int) -> float:
    """Damage on its way to a forced retreat: the attackers still to fire can complete it."""
    ready = zones_now(s, me)
    total = 0.0
    for e in s.alive(1 - me):
        dmg = s.u_dmg[e]
        if not dmg:
            continue
        bit = 1 << s.u_sq[e]
        left = s.defense(e) - dmg
        if sum(s.damage_of(u, e) for u, zone, _ in ready if zone & bit) >= left:
            total += 0.3 * _value(s, e) * dmg / s.defense(e)
    return total


def _resolve(c: State, me: int, cfg: Config) -> None:
    """The defender's retreat choices, as our own defender would make them."""
    while c.pending is not None and c.phase != OVER:
        c.apply(retreat_choice(c, cfg), c.sides[c.u_side[c.pending[0]]])


LAST_POSITIONS = 0  # positions the last attack plan played through (for tests and benches)


def plan_attacks(s: State, me: int, cfg: Config) -> tuple[list[A.Action], float]:
    """The attack phase as a beam search over attack sequences; the best finished one, and its value."""
    side = s.sides[me]
    shallow = replace(cfg, deep=False)
    start = s.clone()
    best_plan: list[A.Action] = [A.END]
    best_value = judge(start, me, cfg)
    beam: list[tuple[float, State, list[A.Action]]] = [(0.0, start, [])]
    seen: set[tuple[Any, ...]] = set()
    global LAST_POSITIONS
    played = 0
    while beam:
        children: list[tuple[float, State, list[A.Action]]] = []
        for _, st, acts in beam:
            for a in _useful_attacks(st, me):
                if played >= cfg.positions:
                    break
                played += 1
                c = st.clone()
                c.apply(a, side)
                _resolve(c, me, cfg)
                plan = [*acts, a]
                if c.phase == OVER:
                    v = judge(c, me, cfg)
                    if v > best_value:
                        best_value, best_plan = v, plan
                    continue
                key = state_key(c)
                if key in seen:
                    continue
                seen.add(key)
                children.append((judge(c, me, shallow) + now_value(c, me, cfg) + _progress(c, me), c, plan))
        children.sort(key=lambda x: -x[0])
        beam = children[: cfg.beam]
        for _, c, plan in beam:  # the full judgement only for the sequences kept
            final = judge(c, me, cfg)
            if final > best_value:
                best_value, best_plan = final, [*plan, A.END]
    LAST_POSITIONS = played
    return best_plan, best_value


def state_key(s: State) -> tuple[Any, ...]:
    """Everything a plan depends on: where every unit stands, damage, who moved, attacked, fell back."""
    return (
        s.turn,
        s.active,
        s.step,
        s.phase,
        tuple(s.u_sq),
        tuple(s.u_dmg),
        tuple(s.elite),
        tuple(sorted(s.moved)),
        tuple(sorted(s.attacked)),
        tuple(sorted(s.retreated)),
        s.pending,
    )


# ----------------------------------------------------------------------------- choosing


# Kept between decisions, so registered for the check that replays them (`search.memories`); each
# key begins with the game the plan was made in (`search.scope`), as another game may reach the
# same position (same units on the same squares) and must not play this game's plan there.
_PLANS: OrderedDict[tuple[Any, ...], A.Action] = search.remembered(OrderedDict())
_MOST_PLANS = 20_000


def _remember(key: tuple[Any, ...], action: A.Action) -> None:
    _PLANS[key] = action
    if len(_PLANS) > _MOST_PLANS:
        _PLANS.popitem(last=False)


def _store(tag: tuple[Any, ...], s: State, me: int, plan: list[A.Action], cfg: Config) -> None:
    """Every planned step under the position it expects (the defender's retreats as we expect them)."""
    c = s.clone()
    side = s.sides[me]
    for a in plan:
        if c.phase == OVER:
            break
        _remember((*tag, state_key(c)), a)
        c.apply(a, side)
        _resolve(c, me, cfg)


def setup_choice(s: State, me: int, rng: random.Random, corner: bool = False) -> A.Action:
    """An army and a layout drawn from the ready-made ones by the seed; with `corner`, the layout's
    Headquarters moved to a corner of the back row with a unit on each of its three neighbours."""
    if s.phase == DESIGN:
        return A.Army(preset=rng.choice(sorted(s.rules.presets)))
    style = rng.choice(sorted(A.LAYOUTS))
    if not corner:
        return A.Deploy(preset=style)
    army = s.armies[me]
    assert army is not None
    width = s.g.width
    rows = ready_layout(style, army, s.rules.era, width, s.rules.elite_allowed)
    grid = [_cells(r, width) for r in rows] + [["."] * width for _ in range(3 - len(rows))]
    cells = [(r, f) for r in range(3) for f in range(width)]
    hq = next((r, f) for r, f in cells if grid[r][f].rstrip("*") == "H")
    f0 = rng.choice((0, width - 1))
    grid[hq[0]][hq[1]], grid[0][f0] = grid[0][f0], grid[hq[0]][hq[1]]
    step = 1 if f0 == 0 else -1
    ring = [(0, f0 + step), (1, f0), (1, f0 + step)]
    for r, f in ring:
        if grid[r][f] != ".":
            continue
        spare = next(
            (
                (r2, f2)
                for r2, f2 in reversed(cells)
                if grid[r2][f2] != "." and (r2, f2) not in ring and (r2, f2) != (0, f0)
            ),
            None,
        )
        if spare is not None:
            grid[r][f], grid[spare[0]][spare[1]] = grid[spare[0]][spare[1]], "."
    text = ["".join(row) for row in grid]
    while text and set(text[-1]) == {"."}:
        text.pop()
    return A.Deploy(rows=tuple(text))


def _cells(row: str, width: int) -> list[str]:
    """A deployment row as one string per square: a letter (with its Elite star) or '.'."""
    cells = re.findall(r"[A-Z]\*?|\.", row)
    return cells + ["."] * (width - len(cells))


def reinforcement(s: State, me: int, cfg: Config) -> A.Action:
    """The reinforcement that `judge`s best (type and square)."""
    side = s.sides[me]
    best: tuple[float, int] | None = None
    options = s.legal_actions(side)
    for i, a in enumerate(options):
        c = s.clone()
        c.apply(a, side)
        v = judge(c, me, cfg) - 0.001 * i
        if best is None or v > best[0]:
            best = (v, i)
    assert best is not None
    return options[best[1]]


def greedy(state: State, side: str, seed: int) -> A.Action:
    """`easy`: one step at a time, the action the quick score (`ai.score`) likes best."""
    me = state.side_index(side)
    rng = random.Random(f"ca-easy:{seed}")
    if state.phase in (DESIGN, DEPLOY):
        return setup_choice(state, me, rng)
    ranked = ai.order(state, side, state.legal_actions(side), rng)
    action = ranked[0]
    assert isinstance(action, A.Action)
    return action


def hq_risk(s: State, me: int, w: Weights) -> float:
    """The damage the enemy can bring to our Headquarters next turn, as a share of its defence
    (1 or more: it can be destroyed)."""
    f = force(s, zones_next(s, 1 - me), me, True, w)
    return f.hq_damage / max(1, f.hq_need)


def siege(s: State, me: int, w: Weights) -> float:
    """The damage we could bring to the enemy Headquarters next turn, as a share of its defence
    (capped at 1, and 1 more when it would fall)."""
    f = force(s, zones_next(s, me), 1 - me, True, w)
    share = f.hq_damage / max(1, f.hq_need)
    return min(1.0, share) + (1.0 if share >= 1.0 else 0.0)


def guarded(state: State, me: int, cfg: Config, seed: int) -> A.Action:
    """A move by the quick score, weighed against what it leaves our Headquarters open to: the best
    few moves, every move onto a square beside the Headquarters and `done` are judged by the damage
    the enemy could bring to it next turn (a destroyed Headquarters most of all)."""
    return weighed_moves(state, me, cfg, seed)[0]


def weighed_moves(state: State, me: int, cfg: Config, seed: int) -> list[A.Action]:
    """`guarded`'s candidates, its pick first and the rest in the order it weighs them."""
    side = state.sides[me]
    rng = random.Random(f"ca-guard:{seed}")
    legal = state.legal_actions(side)
    ranked = ai.order(state, side, legal, rng)
    mine = state.hq(me)
    if mine is None:
        return ranked  # type: ignore[return-value]
    g = state.g
    ring = g.near[state.u_sq[mine]]
    w = cfg.weights
    field = ai.enemy_field(state, me)
    their = state.hq(1 - me)
    their_sq = None if their is None else state.u_sq[their]
    picks: list[A.Action] = []
    for a in ranked:
        if isinstance(a, A.Move) and (len(picks) < cfg.candidates or ring >> g.index[a.dst] & 1):
            picks.append(a)
    picks.append(A.DONE)
    base = now_value(state, me, cfg) if cfg.focus else 0.0
    valued: list[tuple[float, int]] = []
    for i, a in enumerate(picks):
        if isinstance(a, A.Move):
            src, dst = g.index[a.src], g.index[a.dst]
            quick = ai.score(state, me, a, field, None, their_sq)
            uid = state.board[src]
            _shift(state, uid, src, dst)
            risk = hq_risk(state, me, w) if cfg.guard else 0.0
            gain = now_value(state, me, cfg) if cfg.focus else 0.0
            reach = siege(state, me, w) if cfg.siege else 0.0
            _shift(state, uid, dst, src)
        else:
            quick = -0.05
            risk = hq_risk(state, me, w) if cfg.guard else 0.0
            gain = base
            reach = siege(state, me, w) if cfg.siege else 0.0
        v = (
            quick
            + cfg.focus * (gain - base)
            + cfg.siege * reach
            - cfg.guard * (min(risk, 2.0) ** 2 + (3.0 if risk >= 1.0 else 0.0))
        )
        valued.append((v - 0.0001 * i, i))
    valued.sort(key=lambda x: -x[0])
    return [picks[i] for _, i in valued]


LAST_LINES = 0  # lines the last turn plan played out (for tests and benches)


def _step(c: State, cfg: Config, tag: str) -> A.Action:
    """The action `cfg`'s planner takes in `c` for whoever owes one, as the level plays it (its
    Headquarters veto included)."""
    side = c.sides[c._owed()[0]]
    action = choose(c, side, tag, cfg, 0)
    return ai.hq_veto(c, side, action, cfg.weights)  # type: ignore[return-value]


def _play_turn(c: State, me: int, cfg: Config, tag: str, record: list[tuple[Any, A.Action]] | None) -> None:
    """Play `c` on with `cfg`'s planner until side `me`'s turn is over (retreats forced on the other
    side chosen as its planner would), recording our own steps under the positions they are taken in."""
    moves = 0
    while c.phase != OVER and c.active == me and moves < 200:
        action = _step(c, cfg, tag)
        if record is not None and c._owed()[0] == me:
            record.append((state_key(c), action))
        c.apply(action, c.sides[c._owed()[0]])
        moves += 1


def turn_plan(state: State, me: int, cfg: Config, tag: str) -> list[tuple[Any, A.Action]]:
    """Correspondence: policy improvement over hard's planner, a whole turn at a time. Lines of
    play differ in their first move (hard's best `lines` by `weighed_moves`, and `done`) and in how
    much the moves weigh our Headquarters' danger; each line is played out by the planner to the end
    of our turn, then the enemy's whole turn is played by it as well (the game has no dice, so the
    line is exact against that planner) and the position we would face is judged. The best line's
    own steps are returned under the positions they expect."""
    global LAST_LINES
    base = cfg.rollout or cfg
    sim = f"{tag}:line"
    starts: list[tuple[A.Action | None, Config]] = [(None, base)]
    for g in (0.0, 0.5, 1.5):
        if g != base.guard:
            starts.append((None, replace(base, guard=g)))
    for a in weighed_moves(state, me, base, 0)[: cfg.lines]:
        starts.append((a, base))
    best: tuple[float, list[tuple[Any, A.Action]]] | None = None
    seen: set[tuple[Any, ...]] = set()
    lines = 0
    began = search.now()
    for first, line_cfg in starts:
        if best is not None and cfg.cap_s and search.now() - began > cfg.cap_s:
            break
        c = state.clone()
        record: list[tuple[Any, A.Action]] = []
        if first is not None:
            record.append((state_key(c), first))
            c.apply(first, state.sides[me])
        _play_turn(c, me, line_cfg, sim, record)
        key = state_key(c)
        if key in seen:
            continue
        seen.add(key)
        lines += 1
        if c.phase != OVER:
            _play_turn(c, 1 - me, base, sim, None)
        value = judge(c, me, base) - (0.0 if best is None else 0.25)  # hard's own line unless beaten
        if best is None or value > best[0]:
            best = (value, record)
    LAST_LINES = lines
    assert best is not None
    return best[1]


def choose(state: State, side: str, tag: str, cfg: Config, seed: int) -> A.Action:
    """The planned action for `side` in `state` (a copy of the side's view): the next step of the
    phase's plan, planned now if this position was not foreseen."""
    me = state.side_index(side)
    rng = random.Random(f"ca-plan:{seed}")
    if state.phase in (DESIGN, DEPLOY):
        return setup_choice(state, me, rng, cfg.corner)
    if state.pending is not None:
        return retreat_choice(state, cfg)
    if state.step == REINFORCE:
        return reinforcement(state, me, cfg)
    if cfg.lines:
        game = search.scope()
        got = _PLANS.get((game, tag, cfg, "turn", state_key(state)))
        if got is None and state.step == MOVE:
            for key, action in turn_plan(state, me, cfg, tag):
                _remember((game, tag, cfg, "turn", key), action)
            got = _PLANS.get((game, tag, cfg, "turn", state_key(state)))
        if got is not None:
            return got
    if state.step == MOVE:
        if cfg.guard or cfg.focus or cfg.siege:
            return guarded(state, me, cfg, seed)
        return greedy(state, side, seed)
    if state.step != ATTACK:  # pragma: no cover - every step of play is above
        return state.legal_actions(side)[-1]
    got = _PLANS.get((search.scope(), tag, cfg, state_key(state)))
    if got is not None:
        return got
    plan, _ = plan_attacks(state, me, cfg)
    _store((search.scope(), tag, cfg), state, me, plan, cfg)
    return plan[0]


__all__ = [
    "TUNED",
    "Config",
    "Forcing",
    "Weights",
    "choose",
    "force",
    "greedy",
    "judge",
    "plan_attacks",
    "retreat_choice",
    "state_key",
    "zones_next",
    "zones_now",
]

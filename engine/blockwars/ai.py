"""The computer opponent: plays either side, every phase and every pending decision, from a player's view.

    action = choose(state.view(side), "hard", seed=42)

Levels, each a clear step above the one before (bench/ladder.py; docs/ai.md):
- `random`: any legal action.
- `easy`: plays by rule of thumb: the action whose quick score (`quick_score`: the gain it promises
  at average fight odds) is highest, without looking at the position it leaves; now and then
  (ROLLOUT_EPSILON) any legal action, as a beginner might.
- `normal`: greedy one action ahead: every legal action played out exactly over the card fight's
  win / tie / loss (the deck order sampled from what it may know) and the best position kept.
- `hard`: plans the whole two-action turn with exact fight odds; as the Germans it charges each
  plan for the attacks it leaves the opponent, a cheap stand-in for the enemy's reply; its judgement
  adds the tank's gun and breakthrough and a bolder use of the Cross.
Decisions (barrage, gas, Ace, aircraft, dogfight, strafe, Cross) and set-up use fast heuristics at
every level above random.

The AI only reads what the player may see: it samples deck orders with `View.determinize`
and re-seeds each sample's reshuffles, so neither the true deck order nor the match seed leaks in.

Deterministic for a given (view, level, seed): every level does a fixed amount of work; the only
wall-clock use is the safety cap `budget_s`, which no ordinary machine reaches (tests pass a large
one to be sure; `iterations=` turns on hard's optional rollouts).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from engine import search
from engine.blockwars import actions as A
from engine.blockwars.actions import Action
from engine.blockwars.model import DAMAGED, DESTROYED, OK, Side
from engine.blockwars.squares import AREA, NEIGHBOURS, square
from engine.blockwars.state import (
    BARRAGE_KILLS,
    GAS_KILLS,
    MG_LINES,
    PLAY,
    QUIET_TURN_LIMIT,
    SETUP,
    TANK_ID,
    TANK_LINES,
    State,
    View,
    tank_squares,
)
from engine.cards import ACE, FULL_PACK, JACK, KING


def clock() -> float:
    """The clock the safety caps read: the platform's search clock, so a test's fake clock or a
    benchmark's CPU clock (`bench/ladder.py --cpu-clock`) reaches every AI at once."""
    return search.now()


RANDOM, EASY, NORMAL, HARD = "random", "easy", "normal", "hard"
LEVELS = (RANDOM, EASY, NORMAL, HARD)

# Safety caps (seconds) per level: each level's work is fixed (a few hundred evaluations at most),
# so these only bind on a machine many times too slow; then the level plays what it has so far.
DEFAULT_BUDGETS: dict[str, float] = {RANDOM: 1.0, EASY: 1.0, NORMAL: 2.0, HARD: 5.0}
# Rollouts per decision: hard plans its turns exactly and runs none unless asked (see SEARCH).
DEFAULT_ITERATIONS: dict[str, int] = {RANDOM: 0, EASY: 0, NORMAL: 0, HARD: 0}


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """How a search level looks ahead: candidates, turn planning, opponent replies and rollouts."""

    candidates: int
    depth: int  # half-turns played after the current one before evaluating
    lookahead: int = 0  # second actions tried per candidate when planning the whole turn (0: off)
    reply: int = 0  # actions a modelled greedy opponent considers when replying to a plan (0: off)
    finalists: int = 3  # planned turns played on against that reply (see `reply_value`)
    keep: int = 10  # candidates left for the rollouts after that planning
    wary: float = 0.0  # weight of the opponent's best attacks after a planned turn (see `threat`)


SEARCH: dict[str, SearchConfig] = {
    # Hard plans the whole turn: each first action is judged by its best second action, with exact
    # fight odds. In 100-game matches against easy (tuned weights for both variants), adding the
    # opponent's best reply (`reply`) or heuristic rollouts after the plan made it weaker (0.57 and
    # 0.56 against 0.64), so both are off by default; `iterations=` > 0 turns the rollouts back on.
    # `wary` (the opponent's best attacks after the planned turn, cheaply counted) lifted hard v easy
    # from 0.55 to 0.63-0.70 in 60-game matches (1.0, 1.5 and 2.0 all alike), mostly as the Germans.
    # Playing the best 3-6 plans on against easy's own greedy reply (`reply`=10, exact fight odds)
    # did not help either side in 100-game matches (Germans 0.48 -> 0.46-0.48, Canadians 0.77 ->
    # 0.79) at three times the think time, so it is off; `wary` hurt the Canadians (0.68 -> 0.77
    # without it), hence SIDE_SEARCH.
    HARD: SearchConfig(candidates=8, depth=1, lookahead=10, keep=1, reply=0, wary=1.5),
}

# ----------------------------------------------------------------------------- evaluation weights
# Unit values in "infantry" points. adv[p] is the bonus for an infantry unit p ranks from its own
# back row (p = 7 is the enemy back row, scored separately because two there win the game).


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's weights: one set per level, so a level's strength is also its judgement."""

    adv: tuple[float, ...] = (0.0, 0.0, 0.12, 0.3, 0.55, 0.85, 1.35, 0.0)
    inf: float = 1.0
    reserve_inf: float = 0.75
    mg: float = 1.5
    tank_hp: float = 1.4
    air_ok: float = 0.3
    air_damaged: float = 0.15
    gas: float = 0.4
    cross: float = 0.5
    one_through: float = 5.0  # one unit on the enemy back row: halfway to winning
    runner: float = 1.0  # a unit that can step onto the enemy back row
    exposed: float = 0.1  # an infantry unit a free-firing enemy gun can see
    push: float = 0.06  # per king step closer to an open square of the enemy back row (flanking)
    # Spend the Cross whenever the fight it turns is worth this much (our unit saved plus the enemy's
    # loss, see `_cross_swing`); 0 keeps the plain rule (only for an advanced unit or a long game).
    cross_swing: float = 0.0
    tank_exposed: float = 0.0  # a German unit the tank's gun can see (it fires twice a turn, for free)
    tank_runner: float = 0.0  # 1: the tank one move from the enemy back row counts as a runner
    # Past this many turns without a card turned (R24), fade the evaluation towards the coming draw
    # (0: never): ahead, take a fight that resets the count; behind, the draw is welcome.
    quiet_fade: int = 0


# Easy's plain judgement, and the tuned one of the search levels. Tuned in self-play against easy
# (100-game matches, easy v easy): the tank and the machine guns fire for free every turn, so they
# are worth far more than an infantry unit, and standing in a gun's sights costs accordingly.
PLAIN = Weights()
TUNED = Weights(tank_hp=3.0, mg=3.0, exposed=0.3)
# Hard also spends the Cross to win back a fight worth more than the Cross itself (see `_cross_swing`),
# sees the tank one move from breaking through and fades its judgement towards a coming dead-position
# draw. Measured together with SIDE_WEIGHTS / SIDE_SEARCH, hard v easy went from 0.58 (Germans 0.48,
# Canadians 0.68) to 0.69 and 0.68 on two 200-game seed sets; the Cross and tank terms alone moved
# the Canadians from 0.77 to 0.82-0.84, the fade did not measurably change anything (draws 10 -> 9).
HARD_WEIGHTS = Weights(tank_hp=3.0, mg=3.0, exposed=0.3, cross_swing=3.0, tank_runner=1.0, quiet_fade=20)
LEVEL_WEIGHTS: dict[str, Weights] = {RANDOM: PLAIN, EASY: PLAIN, NORMAL: PLAIN, HARD: HARD_WEIGHTS}
# Per-side overrides: the two sides play different games (the Germans hold two guns behind the wire,
# the Canadians have the tank), so a level may judge positions differently on each side.
# Hard as the Germans also fears the tank's gun, and the Canadian machine gun more: both fire for free
# (0.48 -> 0.51-0.54 in 100-game matches; fearing the tank twice as much dropped it to 0.36).
SIDE_WEIGHTS: dict[tuple[str, Side], Weights] = {
    (HARD, Side.GERMANS): replace(HARD_WEIGHTS, exposed=0.5, tank_exposed=0.3),
}
# Hard as the Canadians does not charge its plans for the attacks they leave (`wary`): behind the
# tank and with seven men in the front row it can afford the trades, and the caution made it stall
# (0.68 -> 0.77). The Germans keep wary 1.5: 1.0 and 2.5 both did worse (0.49 and 0.49 v 0.56).
SIDE_SEARCH: dict[tuple[str, Side], SearchConfig] = {(HARD, Side.CANADIANS): replace(SEARCH[HARD], wary=0.0)}


def level_weights(level: str, side: Side) -> Weights:
    """The weights `level` judges with when playing `side`."""
    return SIDE_WEIGHTS.get((level, side), LEVEL_WEIGHTS[level])


def search_config(level: str, side: Side) -> SearchConfig:
    """How `level` searches when playing `side` (the sides play different games, see SIDE_WEIGHTS)."""
    return SIDE_SEARCH.get((level, side), SEARCH[level])


WIN = 1000.0

# Card-fight odds with a full, even pack (used where no exact odds are needed).
P_WIN_1, P_WIN_2, P_LOSS = 0.4706, 0.3982, 0.4706

ROLLOUT_EPSILON = 0.03  # rollouts play a uniformly random action this often
# Easy plays any legal action this often, as a beginner overlooks things. With 0.2, easy beat random
# in 92 of 100 games and lost 71 of 100 to normal (0.25: 92.5 % and 75 % over 40 games; 0.03: 97.5 %
# and 67.5 %): a clear step below normal that still never loses to random play.
EASY_EPSILON = 0.2
ROLLOUT_NOISE = 0.05  # random jitter between near-equal actions in rollouts


def progress(side: Side, sq: int) -> int:
    """Ranks from `side`'s own back row to `sq` (0..7): 7 is the enemy back row."""
    r = sq >> 3
    return 7 - r if side is Side.GERMANS else r


def _side_score(s: State, side: Side, w: Weights) -> float:
    """Material, advancement and breakthrough threats of one side (higher is better for it)."""
    own = "G" if side is Side.GERMANS else "C"
    board = s.board
    enemy_back = side.other.back_rank * 8
    lines = MG_LINES[side.other]
    total = 0.0
    through = 0
    runners = 0
    push = 0.0
    gaps = [q for q in range(enemy_back, enemy_back + 8) if board[q] is None]
    for uid, at in s.pos.items():
        if uid[0] != own:
            continue
        code = uid[1]
        if code == "I":
            p = progress(side, at)
            if p == 7:
                through += 1
                total += w.inf + w.adv[6]
                continue
            total += w.inf + w.adv[p]
            push += 7 - _gap_distance(at, p, gaps)
            if p == 6:
                for n in NEIGHBOURS[at]:
                    if enemy_back <= n < enemy_back + 8 and board[n] is None:
                        runners += 1
                        break
        elif code == "M":
            total += w.mg
        else:  # the tank
            hp = 2 - s.tank_damage
            squares = tank_squares(at)
            top = max(progress(side, q) for q in squares)
            total += w.tank_hp * hp + w.adv[min(top, 6)] * 0.6
            if top == 7:
                through += 1
            elif top == 6 and w.tank_runner and all(board[q + 8] is None for q in squares[2:]):
                runners += 1
    # Exposure to the enemy's machine guns, which fire for free.
    prefix_enemy = "C" if own == "G" else "G"
    exposed = 0
    for uid, at in s.pos.items():
        if uid[0] == prefix_enemy and uid[1] == "M":
            for t, block in lines[at]:
                occ = board[t]
                if occ is not None and occ[0] == own and occ[1] == "I":
                    for b in block:
                        if board[b] is not None:
                            break
                    else:
                        exposed += 1
    total -= w.exposed * min(exposed, 4)
    if w.tank_exposed and own == "G" and TANK_ID in s.pos:
        total -= w.tank_exposed * min(_in_tank_sights(s), 4)
    for uid in s.reserves[side]:
        total += w.reserve_inf if uid[1] == "I" else w.tank_hp * 2 * 0.8 if uid == TANK_ID else 0.0
    for st in s.aircraft[side].values():
        total += w.air_ok if st == OK else w.air_damaged if st == DAMAGED else 0.0
    if side is Side.GERMANS and not s.gas_used:
        total += w.gas
    if s.options.crosses and not s.cross_used[side]:
        total += w.cross
    if through >= 1:
        total += w.one_through + w.runner * 2.5 * min(runners, 2) + w.push * 2 * push
    else:
        total += w.runner * 0.3 * min(runners, 2) + w.push * push
    return total


def _in_tank_sights(s: State) -> int:
    """How many German units the tank's gun could fire at now (line of sight as in the rules, R7)."""
    board = s.board
    squares = tank_squares(s.pos[TANK_ID])
    found: set[int] = set()
    for q in squares:
        for t, block in TANK_LINES[q]:
            occ = board[t]
            if occ is None or occ[0] != "G" or t in found:
                continue
            if all(board[b] is None or b in squares for b in block):
                found.add(t)
    return len(found)


def _gap_distance(at: int, p: int, gaps: list[int]) -> int:
    """King steps from `at` to the nearest empty square of the enemy back row (7 - p when none)."""
    if not gaps:
        return 7 - p
    f = at & 7
    return max(7 - p, min(abs((g & 7) - f) for g in gaps))


def evaluate(s: State, side: Side, w: Weights = PLAIN) -> float:
    """How good `s` is for `side`: a win is +WIN, a loss -WIN, otherwise the score difference."""
    if s.phase == "over":
        winner = s.result.winner if s.result else None
        return 0.0 if winner is None else WIN if winner == side else -WIN
    v = _side_score(s, side, w) - _side_score(s, side.other, w)
    if w.quiet_fade and s.quiet_turns > w.quiet_fade:
        v *= max(0.0, (QUIET_TURN_LIMIT - s.quiet_turns) / (QUIET_TURN_LIMIT - w.quiet_fade))
    return v


def unit_value(s: State, uid: str, w: Weights = PLAIN) -> float:
    """What losing this unit costs its side, roughly (used by the quick heuristics)."""
    if uid == TANK_ID:
        return w.tank_hp * 1.5
    if uid[1] == "M":
        return w.mg
    side = Side.GERMANS if uid[0] == "G" else Side.CANADIANS
    p = progress(side, s.pos[uid])
    return w.inf + (w.adv[6] + w.one_through if p == 7 else w.adv[p])


def attackers_turn(s: State, attacker: Side) -> State | None:
    """`s` with `attacker` to act in its play phase: `s` itself, or after the side on turn ends its
    turn (a copy); None when no such turn follows at once (a decision pending, another phase)."""
    if s.phase != PLAY or s.pending is not None:
        return None
    if s.active is attacker:
        return s
    t = s.clone()
    t.apply(A.END)
    if t.phase != PLAY or t.pending is not None or t.active is not attacker:
        return None
    return t


def threat(s: State, attacker: Side, odds: dict[int, tuple[float, float, float]], w: Weights) -> float:
    """The expected gain of `attacker`'s two best attacks if it moved now in `s` (cards aside).

    A cheap stand-in for the opponent's reply: it is what a greedy opponent mostly does with its turn,
    so a plan that leaves units hanging next to enemy infantry or in a gun's sights pays for it.
    """
    t = attackers_turn(s, attacker)
    if t is None:
        return 0.0
    board = t.board
    defender = attacker.other
    wire_from, wire_to = defender.front_rank + defender.forward, defender.front_rank
    best_by_unit: dict[str, float] = {}
    repeat: list[float] = []
    for a in t.legal_actions():
        if isinstance(a, A.TankFire):
            tgt = board[a.target]
            if tgt is not None:
                repeat.append(odds[1][0] * unit_value(t, tgt, w))
            continue
        if not isinstance(a, A.Attack):
            continue
        uid, tgt = board[a.src], board[a.target]
        if uid is None or tgt is None:
            continue
        if uid[1] == "M":
            repeat.append(odds[1][0] * unit_value(t, tgt, w))
            continue
        here = a.via if a.via is not None else a.src
        need = 2 if tgt == TANK_ID or ((here >> 3) == wire_from and (a.target >> 3) == wire_to) else 1
        p_win, _, p_loss = odds[need]
        prize = w.tank_hp if tgt == TANK_ID else unit_value(t, tgt, w)
        gain = p_win * prize - p_loss * unit_value(t, uid, w)
        if gain > best_by_unit.get(uid, 0.0):
            best_by_unit[uid] = gain
    gains = sorted([*best_by_unit.values(), *repeat, *repeat], reverse=True)
    return sum(g for g in gains[:2] if g > 0)


# ----------------------------------------------------------------------------- card odds


def _rank_counts(view_state: State) -> list[int]:
    """How many unseen cards of each rank remain (index = rank 2..14); discards are public."""
    counts = [0] * 15
    seen = {c.code for d in view_state.discards.values() for c in d}
    for c in FULL_PACK:
        if c.code not in seen:
            counts[c.rank] += 1
    return counts


def fight_odds(counts: list[int], need: int) -> tuple[float, float, float]:
    """P(win), P(tie), P(loss) of a card fight where the attacker must win by `need`."""
    n = sum(counts)
    if n < 2:
        return (P_WIN_1, 1 - 2 * P_WIN_1, P_LOSS)
    win = loss = 0
    for a in range(2, 15):
        ca = counts[a]
        if not ca:
            continue
        for d in range(2, 15):
            cd = counts[d] - (1 if a == d else 0)
            if cd <= 0:
                continue
            if a - d >= need:
                win += ca * cd
            elif d > a:
                loss += ca * cd
    pairs = n * (n - 1)
    return (win / pairs, (pairs - win - loss) / pairs, loss / pairs)


# ----------------------------------------------------------------------------- decisions


def _kill_chance(counts: list[int], kills: frozenset[int]) -> float:
    n = sum(counts)
    return sum(counts[r] for r in kills) / n if n else len(kills) / 13


def decide(s: State, side: Side, counts: list[int] | None = None, w: Weights = PLAIN) -> Action:
    """Answer a pending decision (or set-up) with a fixed heuristic: fast, used by every level."""
    legal = s.legal_actions()
    if s.phase == SETUP:
        return legal[0]  # the standard layout
    d = s.pending
    assert d is not None
    if len(legal) == 1:
        return legal[0]
    if d.kind == "barrage":
        return _best_barrage(s, side, legal, counts, w)
    if d.kind == "ace":
        return _best_placement(s, side, legal)
    if d.kind == "fly":
        return max(legal, key=lambda a: _plane_rank(s, side, getattr(a, "aircraft", "")))
    if d.kind == "dogfight":
        planes = [a for a in legal if isinstance(a, A.Dogfight)]
        return max(planes, key=lambda a: _plane_rank(s, side, a.aircraft)) if planes else A.DECLINE
    if d.kind == "strafe":
        targets = [a for a in legal if isinstance(a, A.Strafe)]
        if not targets:
            return A.DECLINE
        return max(targets, key=lambda a: (_strafe_value(s, side, a.target, w), -a.target))
    # cross: spend it on a unit worth saving
    sq = _square_index(d.data.get("square", ""))
    uid = s.board[sq] if sq is not None else None
    if uid is not None and sq is not None and (progress(side, sq) >= 4 or s.turn > 80):
        return A.USE_CROSS
    if uid is not None and w.cross_swing and _cross_swing(s, uid, w) >= w.cross_swing:
        return A.USE_CROSS
    return A.DECLINE


def _cross_swing(s: State, uid: str, w: Weights) -> float:
    """What spending the Cross on `uid`'s lost fight gains: the unit saved and what the enemy then loses.

    The fight is public (its result task waits in the queue), so this reads no hidden information.
    Saving a back-row defender from an enemy about to break through is worth far more than the Cross.
    """
    gain = unit_value(s, uid, w)
    task = s.queue[0] if s.queue and s.queue[0].get("t") == "result" else None
    if task is None:
        return gain
    attacker, defender = task["attacker"], task["defender"]
    if uid == defender:  # the attacker suffers what a loser suffers
        if ":" in attacker:
            return gain + w.air_ok  # a strafing aircraft is damaged
        hit = attacker[1] == "I" and attacker in s.pos  # a firing gun is never harmed
        return gain + (unit_value(s, attacker, w) if hit else 0.0)
    if defender == TANK_ID:
        return gain + w.tank_hp
    return gain + (unit_value(s, defender, w) if defender in s.pos else 0.0)


def _square_index(name: str) -> int | None:
    try:
        return square(name)
    except ValueError:
        return None


def _plane_rank(s: State, side: Side, name: str) -> tuple[int, int]:
    st = s.aircraft[side].get(name, DESTROYED)
    return (0 if st == DESTROYED else 2 if st == OK else 1, 1 if name == "A" else 0)


def _strafe_value(s: State, side: Side, target: int, w: Weights) -> float:
    uid = s.board[target]
    return unit_value(s, uid, w) if uid is not None else 0.0


def _best_barrage(s: State, side: Side, legal: list[Action], counts: list[int] | None, w: Weights) -> Action:
    """Maximise the expected value of enemy units destroyed minus our own."""
    counts = counts or _rank_counts(s)
    p_b = _kill_chance(counts, BARRAGE_KILLS)
    p_g = _kill_chance(counts, GAS_KILLS)
    best: dict[bool, tuple[float, Action | None]] = {False: (-1e9, None), True: (-1e9, None)}
    for a in legal:
        assert isinstance(a, A.Barrage)
        seen: set[str] = set()
        total = 0.0
        for q in AREA[a.at]:
            uid = s.board[q]
            if uid is None or uid in seen:
                continue
            seen.add(uid)
            v = unit_value(s, uid, w)
            if uid == TANK_ID:
                v = w.tank_hp  # a hit only damages it (unless already damaged)
            total += -v if (uid[0] == "G") == (side is Side.GERMANS) else v
        total *= p_g if a.gas else p_b
        if total > best[a.gas][0]:
            best[a.gas] = (total, a)
    plain, gas = best[False], best[True]
    if gas[1] is not None and gas[0] - max(plain[0], 0.0) > w.gas + 0.3:
        return gas[1]
    assert plain[1] is not None
    return plain[1]


def _best_placement(s: State, side: Side, legal: list[Action]) -> Action:
    """The tank if it can come, else the back-row square nearest the enemy's most advanced unit."""
    tanks = [a for a in legal if isinstance(a, A.Reinforce) and a.tank]
    if tanks:
        return tanks[len(tanks) // 2]
    # Infantry before a returning machine gun (R13): it can move up, a gun stays where it lands.
    legal = [a for a in legal if not (isinstance(a, A.Reinforce) and a.gun)] or legal
    enemy = "C" if side is Side.GERMANS else "G"
    threats = [at for uid, at in s.pos.items() if uid[0] == enemy]
    if not threats:
        return legal[len(legal) // 2]
    deepest = max(threats, key=lambda q: (progress(side.other, q), -q))

    def dist(a: Action) -> tuple[int, int]:
        at = getattr(a, "at", 0)
        return (abs((at & 7) - (deepest & 7)), at)

    return min(legal, key=dist)


# ----------------------------------------------------------------------------- quick action scores


def quick_score(s: State, side: Side, a: Action, w: Weights = PLAIN) -> float:
    """A cheap estimate of an action's gain, without applying it: the rollout policy's guide."""
    board = s.board
    if isinstance(a, A.Move):
        p0, p1 = progress(side, a.src), progress(side, a.dst)
        if p1 == 7 and p0 < 7:  # a step along the enemy back row breaks nothing through
            return w.one_through + 3.0
        gaps = _gaps(s, side)
        closer = _gap_distance(a.src, p0, gaps) - _gap_distance(a.dst, p1, gaps)
        return w.adv[p1] - w.adv[p0] + w.push * closer + (0.5 if p1 == 6 else 0.0)
    if isinstance(a, A.Attack):
        uid = board[a.src]
        tgt = board[a.target]
        if uid is None or tgt is None:
            return 0.0
        gain = unit_value(s, tgt, w)
        if uid[1] == "M":
            return P_WIN_1 * gain
        here = a.via if a.via is not None else a.src
        move = 0.0
        if a.via is not None:
            p0, p1 = progress(side, a.src), progress(side, a.via)
            if p1 == 7 and p0 < 7:
                return w.one_through + 3.0
            move = w.adv[p1] - w.adv[p0]
        enemy = side.other
        wire = (here >> 3) == enemy.front_rank + enemy.forward and (a.target >> 3) == enemy.front_rank
        p_win = P_WIN_2 if (wire or tgt == TANK_ID) else P_WIN_1
        if tgt == TANK_ID:
            gain = w.tank_hp
        cost = w.inf + w.adv[progress(side, here)]
        return p_win * gain - P_LOSS * cost + move
    if isinstance(a, A.TankFire):
        tgt = board[a.target]
        return P_WIN_1 * unit_value(s, tgt, w) if tgt is not None else 0.0
    if isinstance(a, A.TankMove):
        return 0.15 if a.forward else -0.3
    if isinstance(a, A.Reinforce):
        return (w.tank_hp * 0.4) if a.tank else (w.inf - w.reserve_inf) * 0.5
    return 0.0  # end


def _gaps(s: State, side: Side) -> list[int]:
    back = side.other.back_rank * 8
    return [q for q in range(back, back + 8) if s.board[q] is None]


def rollout_action(
    s: State,
    side: Side,
    rng: random.Random,
    counts: list[int],
    w: Weights = PLAIN,
    epsilon: float = ROLLOUT_EPSILON,
) -> Action:
    """The rollout policy: decisions by heuristic, turns mostly greedy on `quick_score` (any legal
    action with probability `epsilon`)."""
    if s.pending is not None or s.phase == SETUP:
        return decide(s, side, counts, w)
    legal = s.legal_actions()
    if rng.random() < epsilon:
        return rng.choice(legal)
    best = A.END
    best_v = 0.02
    for a in legal:
        v = quick_score(s, side, a, w) + rng.random() * ROLLOUT_NOISE
        if v > best_v:
            best, best_v = a, v
    return best


# ----------------------------------------------------------------------------- sampling helpers


def _sample(view: View, rng: random.Random) -> State:
    """A full state consistent with the view; its future reshuffles are re-seeded from `rng` too."""
    s = view.determinize(rng)
    s.seed = rng.getrandbits(48)
    return s


def _settle(s: State, side: Side, counts: list[int], w: Weights = PLAIN) -> None:
    """Answer decisions with the heuristic until it is `side`'s turn proper again (or the turn ends)."""
    guard = 0
    while s.phase == PLAY and s.pending is not None and guard < 30:
        who = s.current_player()
        assert who is not None
        s.apply(decide(s, who, counts, w))
        guard += 1


_SPECIAL = (JACK, KING, ACE)


def _force(s: State, attacker: Side, a_rank: int, d_rank: int) -> bool:
    """Put cards of the given ranks on top of the two decks (swapping cards within the sample)."""
    fixed: tuple[Side, int] | None = None
    for side, rank in ((attacker, a_rank), (attacker.other, d_rank)):
        deck = s.decks[side]
        if not deck:
            return False
        found: tuple[Side, int] | None = None
        for owner in (side, side.other):
            cards = s.decks[owner]
            for i in range(len(cards) - 1, -1, -1):
                if cards[i].rank == rank and (owner, i) != fixed and (owner, i - len(cards)) != fixed:
                    found = (owner, i)
                    break
            if found:
                break
        if found is None:
            return False
        owner, i = found
        other = s.decks[owner]
        other[i], deck[-1] = deck[-1], other[i]
        fixed = (side, len(deck) - 1)
    return True


def _pick_ranks(counts: list[int], need: int) -> dict[str, tuple[int, int]]:
    """Representative non-special card ranks for a win, a tie and a loss."""
    plain = [r for r in range(2, 15) if r not in _SPECIAL and counts[r] > 0]
    out: dict[str, tuple[int, int]] = {}
    if len(plain) >= 2:
        lo, hi = plain[0], plain[-1]
        if hi - lo >= need:
            out["win"] = (hi, lo)
        out["loss"] = (lo, hi)
    for r in plain:
        if counts[r] >= 2:
            out["tie"] = (r, r)
            break
    return out


def fight_need(s: State, side: Side, a: Action) -> int:
    """What `side`'s fight by `a` must be won by: 2 against the tank or across the wire, else 1; 0
    for an action that is no fight."""
    if not isinstance(a, A.Attack | A.TankFire):
        return 0
    if s.board[a.target] == TANK_ID:
        return 2
    if isinstance(a, A.Attack) and (s.board[a.src] or "").startswith(("GI", "CI")):
        here = a.via if a.via is not None else a.src
        enemy = side.other
        if (here >> 3) == enemy.front_rank + enemy.forward and (a.target >> 3) == enemy.front_rank:
            return 2
    return 1


def outcomes(
    view: View, side: Side, a: Action, rng: random.Random, counts: list[int], w: Weights = PLAIN
) -> list[tuple[float, State]]:
    """The states after `a` with their probabilities: one per fight result (specials aside)."""
    base = _sample(view, rng)
    need = fight_need(base, side, a)
    out: list[tuple[float, State]] = []
    if need:
        p_win, p_tie, p_loss = fight_odds(counts, need)
        ranks = _pick_ranks(counts, need)
        weight = 0.0
        for key, p in (("win", p_win), ("tie", p_tie), ("loss", p_loss)):
            if p <= 0 or key not in ranks:
                continue
            s = base.clone()
            if not _force(s, side, *ranks[key]):
                continue
            s.apply(a)
            _settle(s, side, counts, w)
            out.append((p, s))
            weight += p
        if out:
            return [(p / weight, s) for p, s in out]
    base.apply(a)
    _settle(base, side, counts, w)
    return [(1.0, base)]


Odds = dict[int, tuple[float, float, float]]


def leaf_value(s: State, side: Side, w: Weights, wary: float = 0.0, odds: Odds | None = None) -> float:
    """The evaluation, less `wary` times the opponent's best attacks when it is (about) to move."""
    v = evaluate(s, side, w)
    if wary and odds is not None and s.phase == PLAY:
        v -= wary * threat(s, side.other, odds, w)
    return v


def expected_after(
    view: View,
    side: Side,
    a: Action,
    rng: random.Random,
    counts: list[int],
    w: Weights = PLAIN,
    wary: float = 0.0,
    odds: Odds | None = None,
) -> float:
    """The evaluation after `a`, averaged exactly over the fight's win / tie / loss (specials aside)."""
    return sum(p * leaf_value(s, side, w, wary, odds) for p, s in outcomes(view, side, a, rng, counts, w))


Leaves = list[tuple[float, State]]


def turn_plan(
    view: View,
    side: Side,
    a: Action,
    rng: random.Random,
    counts: list[int],
    width: int,
    w: Weights = PLAIN,
    wary: float = 0.0,
) -> tuple[float, Leaves]:
    """Expected evaluation of `a` followed by the best second action of the turn (among `width`).

    Also returns where the turn ends, each state with its probability, so the best plans can be
    played on against the opponent's reply (`reply_value`) without planning them again.
    With `wary` > 0 each finished turn also pays for the attacks it leaves the opponent (`threat`).
    """
    odds: Odds = {1: fight_odds(counts, 1), 2: fight_odds(counts, 2)}
    total = 0.0
    leaves: Leaves = []
    sub_seed = rng.getrandbits(32)
    for p, s in outcomes(view, side, a, rng, counts, w):
        if s.phase != PLAY or s.active is not side or s.pending is not None or s.actions_left <= 0:
            total += p * leaf_value(s, side, w, wary, odds)
            leaves.append((p, s))
            continue
        best = leaf_value(s, side, w, wary, odds)  # ending the turn now
        best_leaves: Leaves = [(1.0, s)]
        legal = sorted(s.legal_actions(), key=lambda b: -quick_score(s, side, b, w))[:width]
        sv = View(s, side)
        for b in legal:
            if b is A.END:
                continue  # the same as ending now
            outs = outcomes(sv, side, b, random.Random(sub_seed), counts, w)
            v = sum(q * leaf_value(t, side, w, wary, odds) for q, t in outs)
            if v > best:
                best, best_leaves = v, outs
        total += p * best
        leaves.extend((p * q, t) for q, t in best_leaves)
    return total, leaves


def turn_value(
    view: View,
    side: Side,
    a: Action,
    rng: random.Random,
    counts: list[int],
    width: int,
    w: Weights = PLAIN,
    wary: float = 0.0,
) -> float:
    """Expected evaluation of `a` followed by the best second action of the turn (see `turn_plan`)."""
    return turn_plan(view, side, a, rng, counts, width, w, wary)[0]


def greedy_action(s: State, who: Side, counts: list[int], width: int, seed: int) -> tuple[Action, Leaves]:
    """What a greedy player (easy's rule: best expected evaluation after one action) plays in `s`.

    It looks at its `width` likeliest actions by `quick_score` (easy looks at all of them: nearly always
    the same pick, at a fraction of the cost) and returns the action with the states it leads to.
    """
    sv = View(s, who)
    best: Action = A.END
    best_v = evaluate(s, who, PLAIN)  # ending the turn changes nothing the evaluation sees
    best_outs: Leaves = [(1.0, s)]
    for b in sorted(s.legal_actions(), key=lambda b: -quick_score(s, who, b, PLAIN))[:width]:
        if b is A.END:
            continue
        outs = outcomes(sv, who, b, random.Random(seed), counts, PLAIN)
        v = sum(q * evaluate(t, who, PLAIN) for q, t in outs)
        if v > best_v:
            best, best_v, best_outs = b, v, outs
    return best, best_outs


def greedy_turn(s: State, who: Side, counts: list[int], width: int, seed: int) -> Leaves:
    """`who`'s whole turn from `s` as a greedy player would play it: the end states and their odds."""
    done: Leaves = []
    todo: Leaves = [(1.0, s)]
    while todo:
        p, t = todo.pop()
        if t.phase != PLAY or t.pending is not None or t.active is not who or t.actions_left <= 0:
            done.append((p, t))
            continue
        a, outs = greedy_action(t, who, counts, width, seed)
        if a is A.END:
            done.append((p, t))
            continue
        todo.extend((p * q, u) for q, u in outs)
    return done


def reply_value(leaves: Leaves, side: Side, counts: list[int], width: int, seed: int, w: Weights) -> float:
    """Expected evaluation of a finished turn after the opponent's reply, assuming a greedy opponent.

    Easy's one-action-ahead rule is the opponent model (a standard one: any sensible player takes the
    attacks and steps that pay at once), so hard sees the breakthroughs and trades its plan leaves
    open, not just a static count of attacks (`threat`). Fights are averaged exactly as elsewhere.
    """
    enemy = side.other
    total = 0.0
    for p, e in leaves:
        if e.phase == PLAY and e.pending is None and e.active is side:
            e = e.clone()
            e.apply(A.END)
        if e.phase != PLAY or e.pending is not None or e.active is not enemy:
            total += p * evaluate(e, side, w)
            continue
        total += p * sum(q * evaluate(f, side, w) for q, f in greedy_turn(e, enemy, counts, width, seed))
    return total


# ----------------------------------------------------------------------------- the levels


def _as_view(view_or_state: View | State) -> View:
    if isinstance(view_or_state, View):
        return view_or_state
    side = view_or_state.current_player()
    if side is None:
        raise ValueError("The game is over: there is nothing to choose.")
    return view_or_state.view(side)


def choose(
    view_or_state: View | State,
    level: str = NORMAL,
    seed: int = 0,
    budget_s: float | None = None,
    iterations: int | None = None,
) -> Action:
    """Pick the action for the side of `view` (which must be the side to act now).

    `budget_s` caps thinking time (default: DEFAULT_BUDGETS[level]); `iterations` caps rollouts
    (default: DEFAULT_ITERATIONS[level]). With a generous time cap the result depends only on the
    view, the level, the seed and the iterations.
    """
    if level not in LEVELS:
        raise ValueError(f"Unknown AI level '{level}': choose one of {', '.join(LEVELS)}.")
    view = _as_view(view_or_state)
    s = view.state
    side = view.side
    if side is None or s.current_player() is not side:
        raise ValueError(f"It is not the {side.title if side else 'spectator'}' move.")
    start = clock()
    budget = DEFAULT_BUDGETS[level] if budget_s is None else budget_s
    deadline = start + budget
    rng = random.Random(f"blockwars-ai:{level}:{seed}")
    legal = s.legal_actions()
    if level == RANDOM:
        return rng.choice(legal)
    counts = _rank_counts(s)
    if len(legal) == 1:
        return legal[0]
    w = level_weights(level, side)
    if s.phase == SETUP or s.pending is not None:
        return decide(s, side, counts, w)
    if level == EASY:
        return _rule_of_thumb(s, side, legal, rng, counts, w)
    scored = _greedy_scores(view, side, legal, rng, counts, deadline, w)
    if level == NORMAL:
        return scored[0][1]
    cfg = search_config(level, side)
    iters = DEFAULT_ITERATIONS[level] if iterations is None else iterations
    cands = [a for _, a in scored[: cfg.candidates]]
    if cfg.lookahead and s.actions_left == 2 and len(cands) > 1:
        cands = _rerank_by_turn(view, side, cands, rng, counts, deadline, cfg, w)[: cfg.keep]
    elif cfg.wary and s.actions_left == 1 and len(cands) > 1:
        cands = _rerank_last(view, side, cands, rng, counts, deadline, cfg, w)[: cfg.keep]
    if len(cands) == 1 or iters <= 0:
        return cands[0]
    return _search(view, side, cands, iters, cfg.depth, rng, counts, deadline, w)


def _rule_of_thumb(
    s: State, side: Side, legal: list[Action], rng: random.Random, counts: list[int], w: Weights
) -> Action:
    """Easy: the best action by `quick_score`; now and then (EASY_EPSILON) any legal one instead,
    but never when the best one breaks through (a beginner does not miss a win in one move)."""
    best = rollout_action(s, side, rng, counts, w, 0.0)
    if rng.random() < EASY_EPSILON and quick_score(s, side, best, w) < w.one_through:
        return rng.choice(legal)
    return best


def _greedy_scores(
    view: View,
    side: Side,
    legal: list[Action],
    rng: random.Random,
    counts: list[int],
    deadline: float,
    w: Weights,
) -> list[tuple[float, Action]]:
    """Every legal action with its expected one-action evaluation, best first (ties by notation)."""
    s = view.state
    # Cheap pre-filter: with many actions and little time, only the most promising get the full look.
    order = sorted(legal, key=lambda a: -quick_score(s, side, a, w))
    out: list[tuple[float, Action]] = []
    sub_seed = rng.getrandbits(32)
    for i, a in enumerate(order):
        if i >= 8 and clock() > deadline:
            out.extend((-1e6 + quick_score(s, side, b, w), b) for b in order[i:])
            break
        v = expected_after(view, side, a, random.Random(sub_seed), counts, w)
        out.append((v, a))
    out.sort(key=lambda t: (-t[0], str(t[1])))
    return out


def _rerank_by_turn(
    view: View,
    side: Side,
    cands: list[Action],
    rng: random.Random,
    counts: list[int],
    deadline: float,
    cfg: SearchConfig,
    w: Weights,
) -> list[Action]:
    """Order first actions by the best two-action turn they start (exact fight odds, one sample).

    With `cfg.reply` the `cfg.finalists` best turns are then ordered by their value after the
    opponent's greedy reply (`reply_value`).
    """
    seed = rng.getrandbits(32)
    leaves: dict[Action, Leaves] = {}

    def score(a: Action) -> float:
        v, leaves[a] = turn_plan(view, side, a, random.Random(seed), counts, cfg.lookahead, w, cfg.wary)
        return v

    ranked = _ranked(cands, score, deadline, 2)
    return _reply_order(ranked, leaves, side, rng, counts, deadline, cfg, w)


def _rerank_last(
    view: View,
    side: Side,
    cands: list[Action],
    rng: random.Random,
    counts: list[int],
    deadline: float,
    cfg: SearchConfig,
    w: Weights,
) -> list[Action]:
    """Order last actions of a turn by their value less the attacks they leave the opponent.

    With `cfg.reply` the `cfg.finalists` best are then ordered by their value after the opponent's
    greedy reply, as the first action of the turn is.
    """
    seed = rng.getrandbits(32)
    odds: Odds = {1: fight_odds(counts, 1), 2: fight_odds(counts, 2)}
    end = leaf_value(view.state, side, w, cfg.wary, odds)
    scored = [(end, -1, A.END)]
    leaves: dict[Action, Leaves] = {A.END: [(1.0, view.state.clone())]}
    for i, a in enumerate(cands):
        if a is not A.END:
            outs = outcomes(view, side, a, random.Random(seed), counts, w)
            leaves[a] = outs
            scored.append((sum(q * leaf_value(t, side, w, cfg.wary, odds) for q, t in outs), i, a))
    scored.sort(key=lambda t: (-t[0], t[1]))
    return _reply_order([a for _, _, a in scored], leaves, side, rng, counts, deadline, cfg, w)


def _reply_order(
    ranked: list[Action],
    leaves: dict[Action, Leaves],
    side: Side,
    rng: random.Random,
    counts: list[int],
    deadline: float,
    cfg: SearchConfig,
    w: Weights,
) -> list[Action]:
    """The `cfg.finalists` best of `ranked` reordered by their value after a greedy reply, then the rest."""
    if not cfg.reply:
        return ranked
    seed = rng.getrandbits(32)
    finalists = [a for a in ranked[: cfg.finalists] if a in leaves]
    rest = [a for a in ranked if a not in finalists]
    if len(finalists) < 2:
        return ranked
    order = _ranked(
        finalists, lambda a: reply_value(leaves[a], side, counts, cfg.reply, seed, w), deadline, 1
    )
    return order + rest


def _ranked(
    cands: list[Action], score: Callable[[Action], float], deadline: float, least: int
) -> list[Action]:
    """Best first; after `least` candidates, the ones the deadline leaves unscored keep their order last."""
    scored: list[tuple[float, int, Action]] = []
    for i, a in enumerate(cands):
        if i >= least and clock() > deadline:
            scored.extend((-1e9, j, b) for j, b in enumerate(cands[i:], start=i))
            break
        scored.append((score(a), i, a))
    scored.sort(key=lambda t: (-t[0], t[1]))
    return [a for _, _, a in scored]


def _search(
    view: View,
    side: Side,
    cands: list[Action],
    iterations: int,
    depth: int,
    rng: random.Random,
    counts: list[int],
    deadline: float,
    w: Weights,
) -> Action:
    """Successive halving over candidates; each rollout samples a deck order (common to all candidates)."""
    s0 = view.state
    start_turn = s0.turn
    stop_turn = start_turn + 1 + depth
    alive = list(cands)
    sums = {a: 0.0 for a in cands}
    n = {a: 0 for a in cands}
    rounds = max(1, (len(cands) - 1).bit_length())
    used = 0
    for r in range(rounds):
        per = max(1, (iterations - used) // (len(alive) * (rounds - r)))
        for _ in range(per):
            sample_seed = rng.getrandbits(48)
            for a in alive:
                if clock() > deadline and used > 0:
                    return _best(alive, sums, n)
                srng = random.Random(sample_seed)
                st = _sample(view, srng)
                st.apply(a)
                steps = 0
                while st.phase == PLAY and st.turn < stop_turn and steps < 60:
                    who = st.current_player()
                    assert who is not None
                    st.apply(rollout_action(st, who, srng, counts, w))
                    steps += 1
                sums[a] += evaluate(st, side, w)
                n[a] += 1
                used += 1
        if len(alive) <= 1:
            break
        alive.sort(key=lambda a: (-sums[a] / max(n[a], 1), str(a)))
        alive = alive[: max(1, (len(alive) + 1) // 2)]
    return _best(alive, sums, n)


def _best(alive: list[Action], sums: dict[Action, float], n: dict[Action, int]) -> Action:
    return min(alive, key=lambda a: (-(sums[a] / n[a]) if n[a] else 0.0, str(a)))

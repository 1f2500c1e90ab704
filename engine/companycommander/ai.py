"""Company Commander's AI: the levels' own play, and the hooks of the generic search.

The levels (`GAME.ai`, measured against each other by bench/ladder.py; docs/ai.md):
- `easy` plays the rule of thumb below, but a third of its choices are any legal action;
- `normal` plays the rule of thumb (`rollout`): cover empty fronts, fire everything, barrage the
  most crowded enemy front, assault where the Strength is about even or better, then end;
- `hard` (`careful`) weighs every assault and every barrage by its exact odds over the 36 throws of
  2D6, lets a tank assault instead of firing when that is worth more, lays Ambushes, sends Scouts to
  mark a front only where two or more rolls will use the mark, and deploys its weak units among
  friends.
None of them searches: in this game the dice swamp what a few hundred playouts can see, and the
generic search (the `search` level, `engine.search` with the hooks below) played no better than the
rule of thumb it plays out with (docs/ai.md). Each level reads only its own view, dealt for the seed,
so the same view and seed give the same choice.

The search's hooks: it deals the unknown afresh every iteration (the enemy's hand, every deck's
order and the dice to come), so they only judge a position and suggest sensible actions. What
matters: units destroyed or routed (ten lose the game), the Strength each side has standing and
ready to fight, Pinned units (they lose a turn and rout on a bad rally), and the three fronts (all
three held against one or none wins at once, so a side down to two fronts is in danger).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from engine.companycommander import actions as A
from engine.companycommander.model import (
    SUPPORT,
    VICTORY_LOSSES,
    TacticsCard,
    Unit,
    other,
)
from engine.companycommander.state import (
    AMBUSH,
    CASUALTY_AT,
    DEPLOY,
    DISCARD,
    HIT_PINNED_UPTO,
    HIT_UPTO,
    PIN_AT,
    PINNED_TARGET,
    REPULSED_UPTO,
    STALLED_UPTO,
    State,
)
from engine.protocol import Action

CARD_VALUE = {
    "sniper": 0.5,
    "mortars": 0.9,
    "artillery": 1.3,
    "airstrike": 1.7,
    "surprise": 0.6,
    "ambush": 0.5,
    "rally": 0.5,
    "medic": 0.7,
    "reinforcements": 0.9,
}


def unit_value(u: Unit) -> float:
    """What a unit is worth on the table: its Strength left, more for long-range fire."""
    v = u.left * (1.25 if u.type.fires else 1.0) + (0.6 if u.type.commander else 0.0)
    if u.pinned:
        v *= 0.75
    return v


def _losses(n: int) -> float:
    """Losses weigh more as they near ten (the tenth ends the game)."""
    return n + n * n / (2 * VICTORY_LOSSES)


def score(state: State, side: str) -> float:
    """The position for `side`, unbounded (positive is good)."""
    them = other(side)
    total = 1.6 * (_losses(state.lost[them]) - _losses(state.lost[side]))
    mine = theirs = 0.0
    for u in state.forces[side].values():
        mine += unit_value(u)
    for u in state.forces[them].values():
        theirs += unit_value(u)
    total += 0.35 * (mine - theirs)
    held_me, held_them = state.fronts_held(side), state.fronts_held(them)
    total += 0.4 * (held_me - held_them)
    if held_me <= 1 and held_them == 3:
        total -= 3.0
    if held_them <= 1 and held_me == 3:
        total += 3.0
    if held_me == 2:
        total -= 0.3
    if held_them == 2:
        total += 0.3
    total += 0.12 * (len(state.hands[side]) - len(state.hands[them]))
    return total


def evaluate(state: State, side: str) -> float:
    if state.result is not None:
        w = state.result.winner
        return 0.0 if w is None else (1.0 if w == side else -1.0)
    return math.tanh(score(state, side) / 6.0)


# ------------------------------------------------------------------------------ action values


class Glance:
    """Per front, what a quick judgement of actions needs, read in one pass over the units."""

    __slots__ = ("enemy", "mine", "pinned_enemy", "threat")

    def __init__(self, state: State, side: str) -> None:
        self.mine = [0, 0, 0]  # my deployed units per front
        self.enemy: list[list[Unit]] = [[], [], []]
        self.threat = [0.0, 0.0, 0.0]  # enemy strength and firepower across
        for u in state.forces[side].values():
            if u.front >= 0:
                self.mine[u.front] += 1
        for u in state.forces[other(side)].values():
            if u.front >= 0:
                self.enemy[u.front].append(u)
                self.threat[u.front] += u.left + (1.0 if u.type.fires else 0.0)


def _assault_value(state: State, g: Glance, u: Unit) -> float:
    them = g.enemy[u.front]
    if not them:
        return -5.0
    odds = sum(u.left - t.left + (2 if t.pinned else 0) for t in them) / len(them)
    odds += u.type.assault_bonus + state.surprise
    if state.ambush[other(u.side)] >> u.front & 1:
        odds -= 3
    return 1.0 + 0.6 * odds - (0.8 if u.type.fires else 0.0)


def quick(state: State, side: str, action: Action, g: Glance | None = None) -> float:
    """A cheap score of one action for ordering and playouts: higher first."""
    if g is None:
        g = Glance(state, side)
    if isinstance(action, A.Deploy):
        here = g.mine[action.front]
        if not here:
            return 8.0  # cover an empty front
        return 6.0 + 0.25 * len(g.enemy[action.front]) - 0.3 * here
    if isinstance(action, A.Extra):
        if action.deck == "none":
            return 0.0  # a card more is never worth less than none here
        return 6.0 + (0.5 if action.deck == "tactics" and len(state.hands[side]) < 4 else 0.0)
    if isinstance(action, A.Draw):
        return 1.0
    if isinstance(action, A.Move):
        u = state.forces[side].get(action.unit)
        if u is None:
            return -1.0
        if not g.mine[action.front] and g.mine[u.front] > 1:
            return 4.0  # fill an empty front
        return -1.0
    if isinstance(action, A.Discard):
        return 3.0 - CARD_VALUE[action.card.code]
    if isinstance(action, A.Recon):
        front = state.forces[side][action.unit].front
        if action.choice == "mark":
            firers = sum(
                1 for u in state.forces[side].values() if u.front == front and u.type.fires and u.ready
            )
            return 3.0 + 0.4 * firers
        return 2.5
    if isinstance(action, A.Fire):
        return 4.0 + 0.2 * g.threat[state.forces[side][action.unit].front]
    if isinstance(action, A.Play):
        return _play_value(state, g, side, action)
    if isinstance(action, A.Assault):
        return _assault_value(state, g, state.forces[side][action.unit])
    if isinstance(action, A.End):
        return 0.5
    return 0.0


def _play_value(state: State, g: Glance, side: str, action: A.Play) -> float:
    c: TacticsCard = action.card
    if c.kind == SUPPORT:
        assert action.front is not None
        return 3.5 + 0.3 * c.rolls + 0.15 * g.threat[action.front]
    if c.code == "rally":
        return 3.0
    if c.code == "medic":
        return 2.5
    if c.code == "reinforcements":
        return 4.0
    if c.code == "surprise":
        best = max(
            (_assault_value(state, g, u) for u in state.forces[side].values() if u.ready), default=-5.0
        )
        return 1.0 + 0.5 * best
    if c.code == "ambush":
        assert action.front is not None
        return 0.5 + 0.2 * g.threat[action.front]
    return 0.0


def order(state: State, side: str, actions: Sequence[Action], rng: random.Random) -> list[Action]:
    g = Glance(state, side)
    scored = sorted(
        ((quick(state, side, a, g) + rng.random() * 0.05, i) for i, a in enumerate(actions)), reverse=True
    )
    return [actions[i] for _, i in scored]


def rollout(state: State, side: str, rng: random.Random) -> Action:
    """A quick playout policy that resembles play: cover empty fronts, fire everything, barrage the
    most crowded enemy front, assault where the odds are good, then end. One pass over the legal
    actions and a few counts: the search calls it tens of thousands of times a decision."""
    legal = state.legal_actions(side)
    if len(legal) == 1:
        return legal[0]
    if rng.random() < 0.1:
        return rng.choice(legal)
    phase = state.phase
    them = other(side)
    if phase == DISCARD:
        return min(legal, key=lambda a: CARD_VALUE[a.card.code] if isinstance(a, A.Discard) else 9.0)
    mine, theirs = state.occ[side], state.occ[them]
    if phase == DEPLOY:
        return _deploy_choice(legal, lambda a: -3.0 * mine[a.front] + 0.5 * theirs[a.front] + rng.random())
    weight = [0.0, 0.0, 0.0]  # per front, the enemy's Strength left, less 2 for each Pinned unit
    for t in state.forces[them].values():
        if t.front >= 0:
            weight[t.front] += t.left - (2 if t.pinned else 0)
    marks: list[Action] = []
    fires: list[Action] = []
    support: Action | None = None
    crowd = 0
    assault: Action | None = None
    odds = -1.5  # the least average Strength edge worth an assault in a playout
    other_plays: list[Action] = []
    for a in legal:
        if isinstance(a, A.Fire):
            fires.append(a)
        elif isinstance(a, A.Recon):
            if a.choice == "mark":
                marks.append(a)
        elif isinstance(a, A.Assault):
            u = state.forces[side][a.unit]
            edge = u.left - weight[u.front] / theirs[u.front]
            edge += u.type.assault_bonus + state.surprise - (1.0 if u.type.fires else 0.0)
            if edge > odds:
                assault, odds = a, edge
        elif isinstance(a, A.Play):
            if a.card.kind == SUPPORT:
                assert a.front is not None
                if theirs[a.front] > crowd:
                    support, crowd = a, theirs[a.front]
            elif a.card.code in ("rally", "medic"):
                other_plays.append(a)
    if marks and rng.random() < 0.7:
        return rng.choice(marks)
    if fires:
        return rng.choice(fires)
    if support is not None:
        return support
    if other_plays and rng.random() < 0.5:
        return rng.choice(other_plays)
    if assault is not None:
        return assault
    return legal[-1]  # end


# ------------------------------------------------------------------------------ the levels

# What `hard` counts a result as worth, in the same units for both sides: a unit out (towards the
# ten), a Casualty marker that leaves the unit standing, a Pinned marker. Chosen by self-play
# matches against the rule of thumb (docs/ai.md): a Pin is worth about a Casualty, because a Pinned
# unit loses its turn and is +2 to assault.
KILL, CASUALTY, PIN = 3.0, 1.0, 1.1
ASSAULT_FROM = -0.3  # the least expected worth of an assault `hard` makes
TANK_MARGIN = 0.3  # a tank assaults rather than fires when that is worth this much more
EASY_SLIPS = 1 / 3  # the share of `easy`'s choices that are any legal action

# The 36 throws of 2D6 as (total, ways).
THROWS: tuple[tuple[int, int], ...] = tuple((t, 6 - abs(t - 7)) for t in range(2, 13))


def _out(u: Unit) -> float:
    return KILL + 0.3 * u.left


def _result_worth(u: Unit, what: str) -> float:
    """What `what` happening to `u` is worth to its enemy (and costs its side)."""
    if what == "pin":
        return 0.0 if u.pinned else PIN
    if what == "rout" or u.left <= 1:
        return _out(u)
    if what == "casualty_pinned":
        return CASUALTY + (0.0 if u.pinned else PIN)
    return CASUALTY


def assault_worth(state: State, u: Unit) -> float:
    """The expected worth of `u` assaulting now (H15), over the target drawn and the 36 throws."""
    them = state.assault_targets(u)
    if not them:
        return -99.0
    ambushed = state.ambush[other(u.side)] >> u.front & 1
    worth = 0.0
    for t in them:
        mod = u.left - t.left + (PINNED_TARGET if t.pinned else 0) + u.type.assault_bonus + state.surprise
        mod -= AMBUSH if ambushed else 0
        for throw, ways in THROWS:
            total = throw + mod
            if total <= REPULSED_UPTO:
                worth -= ways * _result_worth(u, "casualty")
            elif total <= STALLED_UPTO:
                worth -= ways * _result_worth(u, "pin")
            elif total <= HIT_UPTO:
                worth += ways * _result_worth(t, "casualty")
            elif total <= HIT_PINNED_UPTO:
                worth += ways * _result_worth(t, "casualty_pinned")
            else:
                worth += ways * _result_worth(t, "rout")
    return worth / (36 * len(them))


def assault_odds(state: State, u: Unit) -> tuple[float, float]:
    """The chance that `u`'s assault now takes an enemy unit out, and the chance that it costs `u`
    itself (repulsed, the Casualty marker its last Strength), over the target drawn and the throws:
    the two numbers of the race to ten losses."""
    them = state.assault_targets(u)
    if not them:
        return 0.0, 0.0
    ambushed = state.ambush[other(u.side)] >> u.front & 1
    kill = lose = 0.0
    for t in them:
        mod = u.left - t.left + (PINNED_TARGET if t.pinned else 0) + u.type.assault_bonus + state.surprise
        mod -= AMBUSH if ambushed else 0
        for throw, ways in THROWS:
            total = throw + mod
            if total <= REPULSED_UPTO:
                lose += ways if u.left <= 1 else 0
            elif total > HIT_PINNED_UPTO or (total > STALLED_UPTO and t.left <= 1):
                kill += ways
    return kill / (36 * len(them)), lose / (36 * len(them))


def roll_worth(state: State, side: str, front: int, bonus: int = 0) -> float:
    """The expected worth of one Suppression roll by `side` against the enemy's `front`."""
    them = state.at(other(side), front)
    if not them:
        return -99.0
    bonus += state.marks >> front & 1
    worth = 0.0
    for t in them:
        for throw, ways in THROWS:
            total = throw + bonus
            if total >= CASUALTY_AT:
                worth += ways * _result_worth(t, "casualty")
            elif total >= PIN_AT:  # a Pin on a Pinned unit is a Casualty (H13)
                worth += ways * _result_worth(t, "casualty" if t.pinned and state.double_pin else "pin")
    return worth / (36 * len(them))


def _careful_deploy(state: State, side: str, legal: Sequence[Action], rng: random.Random) -> Action:
    """The rule of thumb's deployment (spread out, towards the enemy), but a Strength-1 unit goes
    where friends stand, so that a random hit there seldom falls on it, unless a front is empty."""
    mine, theirs = state.occ[side], state.occ[other(side)]
    held = sum(1 for n in mine if n)

    def value(a: A.Deploy) -> float:
        if state.forces[side][a.unit].left <= 1:
            v = mine[a.front] - 0.5 * theirs[a.front] - (10.0 if not mine[a.front] and held >= 2 else 0.0)
        else:
            v = -3.0 * mine[a.front] + 0.5 * theirs[a.front]
        return v + rng.random()

    return _deploy_choice(legal, value)


def _deploy_choice(legal: Sequence[Action], value: Callable[[A.Deploy], float]) -> Action:
    """The Deploy phase's choice shared by the rule of thumb and `hard`: the Company Commander's
    extra card first, Reinforcements before any unit, a unit where `value` likes it best, a draw
    last of all."""
    best: Action | None = None
    top = -1e9
    for a in legal:
        if isinstance(a, A.Extra) and a.deck != "none":  # a free card is worth taking (it may be declined)
            return a
        if isinstance(a, A.Deploy):
            v = value(a)
        elif isinstance(a, A.Play) and a.card.code == "reinforcements":
            v = 10.0
        elif isinstance(a, A.Draw):
            v = -50.0
        else:
            continue
        if v > top:
            best, top = a, v
    return best if best is not None else legal[-1]


def careful(state: State, side: str, rng: random.Random) -> Action:
    """`hard`: the rule of thumb's order of play (missions, fire, barrages, then assaults), each
    choice weighed by its exact odds."""
    legal = state.legal_actions(side)
    if len(legal) == 1:
        return legal[0]
    if state.phase == DISCARD:
        return min(legal, key=lambda a: CARD_VALUE[a.card.code] if isinstance(a, A.Discard) else 9.0)
    if state.phase == DEPLOY:
        if any(isinstance(a, A.Deploy | A.Extra) for a in legal):
            return _careful_deploy(state, side, legal, rng)
        move = _careful_move(state, side, legal)
        if move is not None:
            return move
        return _careful_deploy(state, side, legal, rng)
    forces = state.forces[side]
    fires: list[A.Fire] = []
    tanks: list[A.Fire] = []  # heavy units: they may be worth more assaulting
    marks: list[A.Recon] = []
    barrages: list[A.Play] = []
    assaults: list[A.Assault] = []
    cards: dict[str, list[A.Play]] = {}
    for a in legal:
        if isinstance(a, A.Fire):
            (tanks if forces[a.unit].left >= 3 else fires).append(a)
        elif isinstance(a, A.Recon):
            if a.choice == "mark":
                marks.append(a)
        elif isinstance(a, A.Assault):
            assaults.append(a)
        elif isinstance(a, A.Play):
            if a.card.kind == SUPPORT:
                barrages.append(a)
            else:
                cards.setdefault(a.card.code, []).append(a)
    best_mark: A.Recon | None = None
    users = 1  # a mark is worth a mission only where two or more rolls will use it
    support_rolls = sum(c.rolls for c in state.hands[side] if c.kind == SUPPORT)
    for r in marks:
        front = forces[r.unit].front
        if state.marks >> front & 1:
            continue
        n = support_rolls + sum(1 for u in forces.values() if u.front == front and u.type.fires and u.ready)
        if n > users:
            best_mark, users = r, n
    if best_mark is not None:
        return best_mark
    if fires:
        return rng.choice(fires)
    if barrages:
        return max(barrages, key=lambda a: roll_worth(state, side, a.front or 0) + 0.01 * rng.random())
    for f in tanks:
        u = forces[f.unit]
        if assault_worth(state, u) <= roll_worth(state, side, u.front, u.type.fire_bonus) + TANK_MARGIN:
            return f
    race = _race(state, side, assaults, cards)
    if race is not None:
        return race
    for code in ("rally", "medic"):
        if code in cards:
            return cards[code][0]
    if state.lost[side] >= VICTORY_LOSSES - 1:  # one more loss ends the game: no assault that risks it
        assaults = [a for a in assaults if assault_odds(state, forces[a.unit])[1] == 0.0]
    if assaults:
        worth, pick = max(((assault_worth(state, forces[a.unit]), a) for a in assaults), key=lambda p: p[0])
        if worth > ASSAULT_FROM:
            if "surprise" in cards and worth < 1.0:
                return cards["surprise"][0]
            return pick
    if "ambush" in cards:
        theirs = state.occ[other(side)]
        return max(cards["ambush"], key=lambda a: theirs[a.front or 0] + 0.1 * rng.random())
    return A.END if A.END in legal else legal[-1]


def _race(
    state: State, side: str, assaults: Sequence[A.Assault], cards: dict[str, list[A.Play]]
) -> Action | None:
    """One kill from winning the race to ten: the assault likeliest to take a unit out (not one
    that risks our own last loss), with the Surprise Attack played first if we hold it."""
    them = other(side)
    if state.lost[them] < VICTORY_LOSSES - 1 or not assaults:
        return None
    forces = state.forces[side]
    last = state.lost[side] >= VICTORY_LOSSES - 1
    best: A.Assault | None = None
    top = 0.0
    for a in assaults:
        kill, lose = assault_odds(state, forces[a.unit])
        if last and lose > 0.0:
            continue
        if kill > top:
            best, top = a, kill
    if best is None:
        return None
    if "surprise" in cards and not state.surprise and top < 1.0:
        return cards["surprise"][0]
    return best


def _careful_move(state: State, side: str, legal: Sequence[Action]) -> Action | None:
    """In the Deploy phase, once every new unit is placed: a unit standing idle (no enemy across)
    at a front where a friend stays moves to the neighbouring front with the most enemy Strength
    against ours, towards the fight; a front is never emptied (three fronts decide games, and the
    win check takes or denies those moves itself)."""
    them = other(side)
    mine, theirs = state.occ[side], state.occ[them]
    strength = [0, 0, 0]
    for t in state.forces[them].values():
        if t.front >= 0:
            strength[t.front] += t.left
    best: Action | None = None
    top = 0.0
    for a in legal:
        if not isinstance(a, A.Move):
            continue
        u = state.forces[side].get(a.unit)
        if u is None or theirs[u.front] or mine[u.front] < 2 or not theirs[a.front]:
            continue
        gain = strength[a.front] - 0.5 * mine[a.front]
        if gain > top:
            best, top = a, gain
    return best


def easy(state: State, side: str, rng: random.Random) -> Action:
    """`easy`: the rule of thumb, but a third of its choices are any legal action."""
    if rng.random() < EASY_SLIPS:
        return rng.choice(state.legal_actions(side))
    return rollout(state, side, rng)


__all__ = [
    "Glance",
    "assault_odds",
    "assault_worth",
    "careful",
    "easy",
    "evaluate",
    "order",
    "quick",
    "roll_worth",
    "rollout",
    "score",
    "unit_value",
]

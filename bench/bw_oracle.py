"""Block Wars: how far above `hard` can a player get who knows the cards? A cheater against `hard`.

    .venv/bin/python bench/bw_oracle.py oracle                     # seeds 1-2, under a minute
    .venv/bin/python bench/bw_oracle.py oracle --first 1 --last 60
    .venv/bin/python bench/bw_oracle.py prophet --first 1 --last 30    # about 7 s of CPU a game

Meant as a ceiling for a fair level above `hard` (issue 32): if even a player who sees what no
player may scores only a little above `hard`, a fair one will not reach 60 %. Every cheater is
hard's own turn planner (its weights, its width, its set-up, its rules of thumb for decisions); what
changes is how fights are judged:
- `oracle`: every fight of its own turn by its true result. Nothing in Block Wars is chance but the
  two decks and the reshuffles, and a reshuffle is dealt from the game's seed and the count of
  shuffles, so a clone of the real state (decks in draw order, seed and all) draws exactly the cards
  the game will. Each candidate action is played on such a clone, and the decisions the fight raises
  (barrage, Ace, aircraft, dogfight, strafe, Cross, for either side) are answered with the rule of
  thumb `hard` answers them with in the game, from the counts of the moment, so the predicted state
  is the state the game reaches (`fights_checked` / `fights_matched` count it on every fight the
  cheater starts). The opponent's reply is charged as hard charges it (`wary`, odds-based).
- `seer`: the oracle, and the attacks its plan leaves the opponent judged by the cards the
  opponent would really draw (the two decks' top cards, then the next two), on both sides.
- `prophet`: hard's four best plans (correspondence's candidates) as they really end, each followed
  by `hard`'s real reply played on the true cards (hard's program, not the seed it will use),
  judged where the prophet moves next by hard's evaluation and its own next fights, true ones.
- `half`: what the oracle sees short of the order. Block Wars has no hand: the only thing hidden
  is the decks, so the half-oracle knows which of the unseen cards lies in which deck (the split,
  which a fair player never learns) but not their order. Its fights are judged like hard's, exactly
  over win, tie and loss, but with odds from the attacker's deck against the defender's, and its
  samples shuffle each deck within itself (future reshuffles re-seeded, so unknown).
- `control`: hard's own judgement through the cheaters' true view; it must score exactly 50 %, the
  check that the swap reads nothing else.
None of them beats `hard` (docs/ai.md, Block Wars, "Players who see the cards"): a cheater is a
lower bound on what seeing the cards is worth, and built on hard's judgement it is worth nothing.

Played as `bench/bw_variants.py` plays its variants (every seed from both sides, no win check, the
thread's CPU clock; `hard` against itself scores exactly 50 %). The swap is a module attribute of
`engine.blockwars.ai`, put back after every decision, so `hard` on the other side plays as it
always does. Nothing here is reachable from the bot (tests/test_bw_oracle.py checks no module of
the bot imports it). The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bw_selfplay import paired
from engine import search
from engine.blockwars import actions as A
from engine.blockwars import ai, correspondence, new_game
from engine.blockwars.actions import Action
from engine.blockwars.ai import HARD
from engine.blockwars.events import Combat
from engine.blockwars.model import Options, Side
from engine.blockwars.state import PLAY, TANK_ID, State, View
from engine.cards import ACE, JACK, KING

MAX_ACTIONS = 3000
_hard_outcomes, _hard_config = ai.outcomes, ai.search_config
SEER_WARY = 1.0  # the true fights are certain; only whether hard takes them is not
PROPHET_PLANS = 4  # correspondence's candidates
SEER_REPLY, SEER_FINALISTS = 0, 3  # hard's: no greedy reply look (10 and 8 scored 35 % on seeds 3-12)
_PLAIN_RANKS = [r for r in range(2, 15) if r not in (JACK, KING, ACE)]


class TrueView(View):
    """A view that keeps the whole state: the decks in the order they will be drawn and the seed
    that deals the reshuffles. Only the cheaters get one."""

    __slots__ = ()

    def __init__(self, state: State, side: Side | None) -> None:  # no canonical deal: the truth
        self.state = state
        self.side = side


def settle_as_played(s: State, side: Side, counts: list[int], w: ai.Weights = ai.PLAIN) -> None:
    """Answer the pending decisions exactly as `hard` answers them in the game: each side with its
    own weights and the card counts of the moment (hard's `_settle` uses the planner's)."""
    guard = 0
    while s.phase == PLAY and s.pending is not None and guard < 30:
        who = s.current_player()
        assert who is not None
        s.apply(ai.decide(s, who, ai._rank_counts(s), ai.level_weights(HARD, who)))
        guard += 1


def oracle_outcomes(
    view: View, side: Side, a: Action, rng: random.Random, counts: list[int], w: ai.Weights = ai.PLAIN
) -> list[tuple[float, State]]:
    """The one state `a` leads to: played on a clone of the true state, so the fight draws what the
    game will draw."""
    s = view.state.clone()
    s.apply(a)
    settle_as_played(s, side, counts, w)
    return [(1.0, s)]


def deck_counts(deck: list[Any]) -> list[int]:
    out = [0] * 15
    for c in deck:
        out[c.rank] += 1
    return out


def split_odds(att: list[int], dfn: list[int], need: int) -> tuple[float, float, float]:
    """P(win), P(tie), P(loss) when the attacker's card comes from one deck and the defender's from
    the other (hard's `fight_odds` draws both from the unseen cards as one pile)."""
    win = tie = loss = 0
    for a in range(2, 15):
        for d in range(2, 15):
            n = att[a] * dfn[d]
            if a - d >= need:
                win += n
            elif d > a:
                loss += n
            else:
                tie += n
    total = win + tie + loss
    return (win / total, tie / total, loss / total) if total else (0.0, 1.0, 0.0)


def split_ranks(att: list[int], dfn: list[int], need: int) -> dict[str, tuple[int, int]]:
    """Representative plain ranks (no King, Ace or Jack, as hard's) for a win, a tie and a loss, each
    card from its own deck."""
    a_plain = [r for r in _PLAIN_RANKS if att[r]]
    d_plain = [r for r in _PLAIN_RANKS if dfn[r]]
    out: dict[str, tuple[int, int]] = {}
    if a_plain and d_plain:
        if a_plain[-1] - d_plain[0] >= need:
            out["win"] = (a_plain[-1], d_plain[0])
        if d_plain[-1] > a_plain[0]:
            out["loss"] = (a_plain[0], d_plain[-1])
        both = [r for r in a_plain if dfn[r]]
        if both:
            out["tie"] = (both[0], both[0])
    return out


def _on_top(deck: list[Any], rank: int) -> bool:
    """Swap a card of `rank` to the top of `deck` (its end: the next drawn), within the deck."""
    for i in range(len(deck) - 1, -1, -1):
        if deck[i].rank == rank:
            deck[i], deck[-1] = deck[-1], deck[i]
            return True
    return False


def sample_split(view: View, rng: random.Random) -> State:
    """The true state with each deck shuffled within itself and the reshuffles re-seeded: the split
    kept, the order and the future unknown."""
    s = view.state.clone()
    for side in Side:
        rng.shuffle(s.decks[side])
    s.seed = rng.getrandbits(48)
    return s


def half_outcomes(
    view: View, side: Side, a: Action, rng: random.Random, counts: list[int], w: ai.Weights = ai.PLAIN
) -> list[tuple[float, State]]:
    """Hard's outcomes (win, tie and loss, exactly weighed, specials aside) with each deck's own cards."""
    base = sample_split(view, rng)
    need = ai.fight_need(base, side, a)
    att, dfn = base.decks[side], base.decks[side.other]
    if not need or len(att) < 2:  # no fight; or the attacker's last card, after which all is reshuffled
        if need:
            return _hard_outcomes(View(base, side), side, a, rng, counts, w)
        base.apply(a)
        settle_as_played(base, side, counts, w)
        return [(1.0, base)]
    ca, cd = deck_counts(att), deck_counts(dfn)
    odds = dict(zip(("win", "tie", "loss"), split_odds(ca, cd, need), strict=True))
    out: list[tuple[float, State]] = []
    for key, (ar, dr) in split_ranks(ca, cd, need).items():
        if odds[key] <= 0:
            continue
        s = base.clone()
        _on_top(s.decks[side], ar)
        _on_top(s.decks[side.other], dr)
        s.apply(a)
        settle_as_played(s, side, counts, w)
        out.append((odds[key], s))
    if not out:
        base.apply(a)
        settle_as_played(base, side, counts, w)
        return [(1.0, base)]
    weight = sum(p for p, _ in out)
    return [(p / weight, s) for p, s in out]


def _pair_result(t: State, attacker: Side, k: int, need: int) -> str | None:
    """The result of `attacker`'s `k`-th fight from now (0 or 1) on the true decks; None when a deck
    runs out before it (a reshuffle: then the odds stand in)."""
    mine, theirs = t.decks[attacker], t.decks[attacker.other]
    if len(mine) <= k + 1 or len(theirs) <= k:  # the attacker's last card: the defender's is dealt anew
        return None
    a, d = mine[-1 - k].rank, theirs[-1 - k].rank
    return "win" if a - d >= need else "loss" if d > a else "tie"


def exact_threat(s: State, attacker: Side, odds: ai.Odds, w: ai.Weights) -> float:
    """Hard's `threat` (the gain of `attacker`'s two best attacks if it moved now) with each fight
    judged by the cards it would really draw: the first by the two decks' top cards, the second by
    the next two (King, Ace and Jack aside, as in hard's)."""
    t = ai.attackers_turn(s, attacker)
    if t is None:
        return 0.0
    board = t.board
    defender = attacker.other
    wire_from, wire_to = defender.front_rank + defender.forward, defender.front_rank
    gains: list[list[tuple[str, float]]] = [[], []]  # by fight: (unit, gain)
    for a in t.legal_actions():
        if not isinstance(a, A.Attack | A.TankFire):
            continue
        uid = TANK_ID if isinstance(a, A.TankFire) else board[a.src]
        tgt = board[a.target]
        if uid is None or tgt is None:
            continue
        fires = uid == TANK_ID or uid[1] == "M"  # a gun that loses is not harmed
        wire = False
        if isinstance(a, A.Attack) and not fires:
            here = a.via if a.via is not None else a.src
            wire = (here >> 3) == wire_from and (a.target >> 3) == wire_to
        need = 2 if tgt == TANK_ID or wire else 1
        prize = w.tank_hp if tgt == TANK_ID else ai.unit_value(t, tgt, w)
        cost = 0.0 if fires else ai.unit_value(t, uid, w)
        for k in (0, 1):
            result = _pair_result(t, attacker, k, need)
            if result is None:
                p_win, _, p_loss = odds[need]
                g = p_win * prize - p_loss * cost
            else:
                g = prize if result == "win" else -cost if result == "loss" else 0.0
            gains[k].append((uid, g))
    best = max([0.0, *(g for _, g in gains[0])])  # one fight (a second that would lose is not made)
    for u1, g1 in gains[0]:
        for u2, g2 in gains[1]:
            if g1 > 0 and g2 > 0 and (u1 != u2 or u1 == TANK_ID or u1[1] == "M"):
                best = max(best, g1 + g2)
    return best


def seer_config(level: str, side: Side) -> ai.SearchConfig:
    """Hard's search, charging every plan for the opponent's true next fights on both sides."""
    return replace(_hard_config(level, side), wary=SEER_WARY, reply=SEER_REPLY, finalists=SEER_FINALISTS)


VARIANTS: dict[str, dict[str, Callable[..., Any]]] = {
    "oracle": {"outcomes": oracle_outcomes},
    "seer": {"outcomes": oracle_outcomes, "threat": exact_threat, "search_config": seer_config},
    "half": {"outcomes": half_outcomes},
    # The check of the machinery: hard's own judgement through a true view (its samples shuffle every
    # unseen card, so it reads nothing of the order): it must play exactly as `hard` does, 50 %.
    "control": {"outcomes": _hard_outcomes},
}


@contextmanager
def cheating(name: str) -> Iterator[None]:
    """`engine.blockwars.ai` with the cheater's functions in place of hard's and true views, for
    one decision."""
    swaps: dict[str, Any] = {**VARIANTS[name], "View": TrueView}
    old = {attr: getattr(ai, attr) for attr in swaps}
    for attr, value in swaps.items():
        setattr(ai, attr, value)
    try:
        yield
    finally:
        for attr, value in old.items():
            setattr(ai, attr, value)


def cheat_choose(s: State, side: Side, name: str, seed: int) -> Action:
    """The cheater's action in the real state `s` (left untouched)."""
    with cheating(name):
        return ai.choose(TrueView(s.clone(), side), HARD, seed, 100.0)


def hard_reply(e: State, side: Side, seed: int) -> State:
    """`e` (a clone) once `side`'s opponent has played its whole turn as `hard` really plays it, on
    the true cards; every decision on the way answered as `hard` answers it."""
    e = e.clone()
    n = 0
    while e.phase == PLAY and n < 40:
        who = e.current_player()
        assert who is not None
        if who is side and e.pending is None:
            break
        e.apply(ai.choose(e.view(who), HARD, seed + n, 100.0), who)
        n += 1
    return e


def prophet_choose(s: State, side: Side, seed: int) -> Action:
    """Hard's best PROPHET_PLANS turns, each as it really ends, then `hard`'s real reply played on the
    true cards, judged where we move next (hard's evaluation plus our next fights, true ones)."""
    legal = s.legal_actions()
    if s.phase != PLAY or s.pending is not None or len(legal) == 1:
        return cheat_choose(s, side, "oracle", seed)
    view = TrueView(s.clone(), side)
    counts = ai._rank_counts(s)
    w = ai.level_weights(HARD, side)
    with cheating("oracle"):
        plans = correspondence.hard_plans(view, side, random.Random(seed), counts, math.inf, PROPHET_PLANS)
    reply_seed = random.Random(f"reply:{seed}").getrandbits(
        32
    )  # not the seed hard will use: its program only
    best, best_v = plans[0][0], -math.inf
    for a, [(_, e)] in plans:
        e = correspondence.handed_over(e, side, counts, w) if e.active is side else e
        f = hard_reply(e, side, reply_seed)
        v = ai.evaluate(f, side, w)
        if f.phase == PLAY:
            c = ai._rank_counts(f)
            v += exact_threat(f, side, {1: ai.fight_odds(c, 1), 2: ai.fight_odds(c, 2)}, w)
        if v > best_v:
            best, best_v = a, v
    return best


def same_state(a: State, b: State) -> bool:
    keys = ("board", "pos", "tank_damage", "reserves", "casualties", "decks", "discards", "aircraft")
    return all(getattr(a, k) == getattr(b, k) for k in keys) and (a.active, a.turn, a.phase) == (
        b.active,
        b.turn,
        b.phase,
    )


class Tally:
    """The oracle's predicted states against the game's, fight by fight; and the fights each side
    started (attacks and shots), by result."""

    def __init__(self) -> None:
        self.checked = 0
        self.matched = 0
        self.started: dict[str, Counter[str]] = {"cheater": Counter(), "hard": Counter()}

    def count(self, events: list[Any], cheater: bool) -> None:
        for e in events:
            if isinstance(e, Combat) and e.kind in ("attack", "fire", "tank fire"):
                self.started["cheater" if cheater else "hard"][e.result] += 1
                self.started["cheater" if cheater else "hard"]["shots"] += e.kind != "attack"


def play(seed: int, cheat_side: Side, name: str, tally: Tally | None = None) -> Side | None:
    s = new_game(Options(), seed)
    n = 0
    expect: State | None = None
    while not s.is_over() and n < MAX_ACTIONS:
        side = s.current_player()
        assert side is not None
        key = seed * 100_003 + n
        if side is cheat_side:
            action = prophet_choose(s, side, key) if name == "prophet" else cheat_choose(s, side, name, key)
            if tally is not None and s.phase == PLAY and s.pending is None and ai.fight_need(s, side, action):
                expect = oracle_outcomes(TrueView(s.clone(), side), side, action, random.Random(0), [])[0][1]
        else:
            action = ai.choose(s.view(side), HARD, key, 100.0)
        events = s.apply(action, side)
        if tally is not None:
            tally.count(events, side is cheat_side)
        n += 1
        if expect is not None and tally is not None and (s.pending is None or s.is_over()):
            tally.checked += 1
            tally.matched += same_state(expect, s)
            expect = None
    winner = s.result.winner if s.result else None
    return Side(winner) if winner else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", choices=sorted([*VARIANTS, "prophet"]))
    parser.add_argument("--first", type=int, default=1, help="first seed")
    parser.add_argument("--last", type=int, default=2, help="last seed")
    args = parser.parse_args()
    search.clock = time.thread_time
    t0 = time.process_time()
    tally = Tally()
    out: dict[str, Any] = {
        "bench": "bw_oracle",
        "variant": args.variant,
        "seeds": f"{args.first}-{args.last}",
    }
    out.update(
        paired(range(args.first, args.last + 1), lambda seed, side: play(seed, side, args.variant, tally))
    )
    out["fights_checked"], out["fights_matched"] = tally.checked, tally.matched
    out["fights_started"] = {who: dict(sorted(c.items())) for who, c in tally.started.items()}
    out["cpu_s"] = round(time.process_time() - t0, 1)
    print(json.dumps(out))


if __name__ == "__main__":
    main()

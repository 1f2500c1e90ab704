"""How fair the AI's draw answer is: where it accepts, how often its side goes on to win anyway.

    .venv/bin/python bench/draws.py                         # every game, 4 seeds: under a minute
    nice -n 10 .venv/bin/python bench/draws.py --games 120 --cpu-clock   # the docs' table

Seeded self-play (`easy` against `easy` by default, `Game.choose` on each side's view, as the bot
plays), for every game and, in Combined Arms, each era; WWII is played twice, once with the
Americans' army left to the AI and once forced to airborne (the army whose reach the German
evaluation first misread). Every `--every`-th action, before it is played, each side still in the
game is asked `Game.accepts_draw` on its own view with the seed the bot would use; at the end each
asked position is scored by the game's result for the asked side (a win 1, a draw or an unfinished
game 1/2, a loss 0).

Figures per variant: positions asked, accepted, and of the accepted the asked side's score
(`won_of_accepted`, draws half; the target is at most about 1 in 10); accepted positions per third
of the game (by the action's place in it); `lost_games_accepting`: of the games a side lost, in how
many it would have taken a draw at some sampled point (it must not refuse every draw); and the
first-move check: offers before each side's first action, all of which must be declined. The last
line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import defaultdict
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import registry, search
from engine.protocol import Game, State

MAX_ACTIONS = 1500
# A variant: (name, game, forced first actions by side). WWII twice: the army chosen or airborne.
VARIANTS: dict[str, tuple[str, dict[str, str]]] = {
    "blockwars": ("blockwars", {}),
    "fixbayonets": ("fixbayonets", {}),
    "battlefronts": ("battlefronts", {}),
    "combinedarms": ("combinedarms", {}),
    "combinedarms_wwii": ("combinedarms_wwii", {}),
    "combinedarms_wwii_airborne": ("combinedarms_wwii", {"americans": "army airborne"}),
    "companycommander": ("companycommander", {}),
}

Task = tuple[str, str, int, int, float]  # variant, level, seed, every, shares below


def _use_cpu_clock() -> None:
    search.clock = time.thread_time


def _forced(rules: Game, state: State, side: str, forced: dict[str, str]) -> Any | None:
    wanted = forced.get(side)
    if wanted is None:
        return None
    legal = state.legal_actions(side)
    return next((a for a in legal if str(a) == wanted), None)


def _judged(rules: Game, state: State, side: str, seed: int) -> float:
    """The judgement `BaseGame.accepts_draw` compares with the margin (for the dump: margins tried
    offline on the same games)."""
    view = state.view(side)
    rng = random.Random(f"draw:{seed}")
    deals = [view.determinize(rng) for _ in range(4)]
    return round(sum(rules.evaluate(d, side) for d in deals) / 4, 6)  # type: ignore[attr-defined]


def play(task: Task) -> dict[str, Any]:
    """One seeded self-play game with its draw answers sampled."""
    variant, level, seed, every, below = task
    name, forced = VARIANTS[variant]
    rules = registry.game(name)
    state = rules.new_game({}, seed)
    asked: list[tuple[int, str, bool, float, int]] = []  # action index, side, accepted, judgement, turn
    shares: dict[int, float] = {}  # asked position (its place in `asked`): its playout share
    first_taken: list[str] = []
    seen: set[str] = set()
    n = 0
    cpu_answers = 0.0
    cpu0 = time.thread_time()
    while not state.is_over() and n < MAX_ACTIONS:
        for side in sorted(s.name for s in rules.sides):
            first = side in state.to_act() and side not in seen
            if n % every and not first:
                continue
            c0 = time.thread_time()
            accepted = rules.accepts_draw(state.view(side), seed * 7919 + n)
            cpu_answers += time.thread_time() - c0
            judged = _judged(rules, state, side, seed * 7919 + n)
            if first:
                seen.add(side)
                if accepted:
                    first_taken.append(side)
            if n % every == 0:
                if rules.draw_playouts and judged <= -below:  # type: ignore[attr-defined]
                    shares[len(asked)] = rules.playout_share(state.view(side), side)  # type: ignore[attr-defined]
                asked.append((n, side, accepted, judged, state.turn_number()))
        side = min(state.to_act())
        action = _forced(rules, state, side, forced) or rules.choose(
            state.view(side), level, seed * 100_003 + n
        )
        state.apply(action, side)
        n += 1
    outcome = state.outcome() if state.is_over() else None
    winner = outcome.winner if outcome is not None else None
    return {
        "variant": variant,
        "seed": seed,
        "actions": n,
        "winner": winner,
        "asked": asked,
        "shares": shares,
        "first_taken": first_taken,
        "answers": len(asked) + len(seen),
        "cpu_answers_s": cpu_answers,
        "cpu_s": time.thread_time() - cpu0,
    }


def score(winner: str | None, side: str) -> float:
    return 0.5 if winner is None else (1.0 if winner == side else 0.0)


def summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    by: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in results:
        by[r["variant"]].append(r)
    out: dict[str, Any] = {}
    for variant, games in sorted(by.items()):
        asked = accepted = 0
        won = 0.0
        thirds = [[0, 0.0], [0, 0.0], [0, 0.0]]  # accepted, won, per third of the game
        lost_games = lost_accepting = 0
        for g in games:
            sides = sorted({a[1] for a in g["asked"]})
            for n, side, ok, *_ in g["asked"]:
                asked += 1
                if ok:
                    accepted += 1
                    got = score(g["winner"], side)
                    won += got
                    third = min(2, 3 * n // max(1, g["actions"]))
                    thirds[third][0] += 1
                    thirds[third][1] += got
            for side in sides:
                if g["winner"] is not None and g["winner"] != side:
                    lost_games += 1
                    lost_accepting += any(ok for _, s, ok, *_ in g["asked"] if s == side)
        out[variant] = {
            "games": len(games),
            "asked": asked,
            "accepted": accepted,
            "won_of_accepted": round(won, 1),
            "won_rate": round(won / accepted, 3) if accepted else 0.0,
            "by_third": [f"{w:g} of {a}" for a, w in thirds],
            "lost_games_accepting": f"{lost_accepting} of {lost_games}",
            "first_move_taken": sum(len(g["first_taken"]) for g in games),
            "mean_actions": round(sum(g["actions"] for g in games) / len(games)),
            "cpu_ms_per_answer": round(
                1000 * sum(g["cpu_answers_s"] for g in games) / max(1, sum(g["answers"] for g in games)), 2
            ),
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", choices=sorted(VARIANTS), help="default: every one")
    parser.add_argument("--games", type=int, default=4, help="games per variant (default 4)")
    parser.add_argument("--seed", type=int, default=1, help="first seed")
    parser.add_argument("--level", default="easy", help="the level both sides play (default easy)")
    parser.add_argument("--every", type=int, default=6, help="ask every k-th action (default 6)")
    parser.add_argument("--procs", type=int, default=1)
    parser.add_argument("--cpu-clock", action="store_true", help="searches count CPU seconds")
    parser.add_argument("--dump", type=Path, help="write every game's answers here (JSON lines)")
    parser.add_argument(
        "--shares",
        type=float,
        default=1.0,
        help="in a game with playouts, also dump the playout share of each position judged at most "
        "minus this (default 1: none), to try margins and shares offline",
    )
    args = parser.parse_args()
    variants = args.variant or sorted(VARIANTS)
    tasks: list[Task] = [
        (v, args.level, args.seed + g, args.every, args.shares) for v in variants for g in range(args.games)
    ]
    started = time.perf_counter()
    results: list[dict[str, Any]] = []
    with Pool(max(1, args.procs), initializer=_use_cpu_clock if args.cpu_clock else None) as pool:
        for r in pool.imap_unordered(play, tasks, chunksize=1):
            results.append(r)
            took = sum(a[2] for a in r["asked"])
            print(
                f"[{len(results)}/{len(tasks)} {time.perf_counter() - started:5.0f}s] {r['variant']} seed "
                f"{r['seed']}: {r['winner'] or 'drawn'} in {r['actions']} actions, {took} of "
                f"{len(r['asked'])} asked accepted",
                file=sys.stderr,
                flush=True,
            )
    if args.dump:
        args.dump.write_text("".join(json.dumps(r) + "\n" for r in results))
    figures = summary(results)
    for variant, f in figures.items():
        print(
            f"{variant:<28} accepted {f['accepted']:>4} of {f['asked']:>5}, won {f['won_of_accepted']:>5g} "
            f"({f['won_rate']:.0%}); thirds {f['by_third']}; lost games accepting "
            f"{f['lost_games_accepting']}; first move taken {f['first_move_taken']}"
        )
    print(
        json.dumps(
            {
                "bench": "draws",
                "level": args.level,
                "games_per_variant": args.games,
                "every": args.every,
                "clock": "cpu" if args.cpu_clock else "wall",
                "variants": figures,
                "wall_s": round(time.perf_counter() - started, 1),
                "cpu_s": round(sum(r["cpu_s"] for r in results), 1),  # the games' own, every process
                "date": time.strftime("%Y-%m-%d"),
            }
        )
    )


if __name__ == "__main__":
    main()

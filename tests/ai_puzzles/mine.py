"""Find puzzles in seeded games and store them (`tests/ai_puzzles/<game>.json`).

    .venv/bin/python -m tests.ai_puzzles.mine --game blockwars --seeds 1-40 --per-kind 5

Both sides play the game's rule of thumb (its playout policy), with one action in five a random one
so that the games reach the mistakes puzzles are made of. At each free choice the engine is asked
what the kit asks (`kit.win_share`, `kit.loss_share`): a position where some actions win at once and
most do not is a *win now*; one where most actions leave the opponent an immediate win and some do
not, a *stop the loss*; one where a plausible action (the rule of thumb's, or among the first by the
game's order) loses at once and others do not, a *don't blunder*. Every stored puzzle is then
verified again by the tests.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

from engine import registry, search
from engine.protocol import Side, State
from tests.ai_puzzles import kit


def _spread(seeds: str) -> list[int]:
    a, _, b = seeds.partition("-")
    return list(range(int(a), int(b or a) + 1))


def examine(
    game_name: str, state: State, side: Side, log: list[tuple[Side, str]], seed: int
) -> list[kit.Puzzle]:
    game: Any = registry.game(game_name)
    legal = list(state.legal_actions(side))
    if len(legal) < 2:
        return []
    found: list[tuple[str, list[str], list[str]]] = []
    rng = random.Random(seed)
    # Win now: a cheap look in the true position first.
    winners = []
    for action in legal:
        after = state.clone()
        after.apply(action, side)
        search._answer_others(after, side, game.rollout, rng)
        if after.is_over() and search.winner_of(after) == side:
            winners.append(action)
    if winners and len(winners) * 2 <= len(legal):
        sure = [str(a) for a in winners if kit.win_share(game_name, state, side, a) >= kit.WIN_SHARE]
        if sure:
            found.append(("win now", sure, []))
    # Threats: only where the rule of thumb's pick or the first by order loses in the true position.
    guard = kit.CHECKS[game_name]
    plausible = [game.rollout(state.clone(), side, random.Random(seed))]
    plausible += game.order(state, side, legal, random.Random(seed))[:3]
    first = [str(a) for a in plausible]
    danger = {
        str(a): search.threat_share([state], side, a, guard, game.order, game.rollout, rng) for a in plausible
    }
    if not winners and max(danger.values()) >= 1.0:
        ranked = game.order(state, side, legal, random.Random(seed))[:30]
        shares = {str(a): kit.loss_share(game_name, state, side, a) for a in ranked}
        safe = [k for k, v in shares.items() if v <= kit.SAFE_SHARE]
        losing = [k for k, v in shares.items() if v >= kit.LOSS_SHARE]
        if safe and losing:
            if len(losing) * 2 >= len(shares):
                found.append(("stop the loss", safe, [k for k in first if k in losing][:2] or losing[:2]))
            else:
                bad = [k for k in first if k in losing]
                if bad:
                    found.append(("don't blunder", safe, bad[:2]))
    # `end` in a phase of turns taken in alternation (Battlefronts) only puts the threat off to
    # our next turn in the same phase, and a support phase's call-ups decide a battle a round
    # later: neither makes a puzzle "at a glance", so such finds are left out.
    found = [
        (kind, answers, blunders)
        for kind, answers, blunders in found
        if kind == "win now" or (answers != ["end"] and getattr(state, "phase", "") != "support")
    ]
    return [
        kit.Puzzle(
            game=game_name,
            name=f"{game_name}-{seed}-{len(log)}",
            kind=kind,
            seed=seed,
            log=tuple(log),
            answers=tuple(answers),
            blunders=tuple(blunders),
        )
        for kind, answers, blunders in found
    ]


def mine(
    game_name: str, seeds: list[int], per_kind: int, budget_s: float, out: Path | None = None
) -> list[kit.Puzzle]:
    game: Any = registry.game(game_name)
    start = time.monotonic()
    got: dict[str, list[kit.Puzzle]] = {k: [] for k in kit.KINDS}
    for seed in seeds:
        if time.monotonic() - start > budget_s or all(len(v) >= per_kind for v in got.values()):
            break
        state = game.new_game({}, seed)
        rng = random.Random(f"mine:{seed}")
        log: list[tuple[Side, str]] = []
        seen_here = 0
        while not state.is_over() and len(log) < 2000:
            side = min(state.to_act())
            legal = state.legal_actions(side)
            if not state.quick_decision() and state.turn_number() > 0 and seen_here < 2:
                for p in examine(game_name, state, side, log, seed):
                    if len(got[p.kind]) < per_kind and not kit.verify(p):
                        got[p.kind].append(p)
                        seen_here += 1
                        print(p.name, p.kind, p.answers[:3], p.blunders, flush=True)
                        if out is not None:
                            found = [q for kind in kit.KINDS for q in got[kind]]
                            out.write_text(
                                json.dumps([q.to_json() for q in found], indent=1) + "\n", encoding="utf-8"
                            )
            action = rng.choice(legal) if rng.random() < 0.2 else game.rollout(state, side, rng)
            log.append((side, str(action)))
            state.apply(action, side)
    return [p for kind in kit.KINDS for p in got[kind]]


def prune(game_name: str) -> None:
    """Drop the stored puzzles whose claims the kit no longer confirms (after a change to it)."""
    path = kit.HERE / f"{game_name}.json"
    rows = json.loads(path.read_text(encoding="utf-8"))
    by_name = {p.name: p for p in kit.load(game_name)}
    kept = []
    for row in rows:
        problems = kit.verify(by_name[row["name"]])
        if problems:
            print(f"dropped {row['name']}: {problems[0]}")
        else:
            kept.append(row)
    path.write_text(json.dumps(kept, indent=1) + "\n", encoding="utf-8")
    print(f"{len(kept)} of {len(rows)} kept")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", required=True)
    parser.add_argument("--seeds", default="1-40")
    parser.add_argument("--per-kind", type=int, default=5)
    parser.add_argument("--budget", type=float, default=600.0)
    parser.add_argument("--prune", action="store_true", help="only drop puzzles the kit no longer confirms")
    args = parser.parse_args()
    if args.prune:
        prune(args.game)
        return
    path = kit.HERE / f"{args.game}.json"
    found = mine(args.game, _spread(args.seeds), args.per_kind, args.budget, path)
    path.write_text(json.dumps([p.to_json() for p in found], indent=1) + "\n", encoding="utf-8")
    print(f"{len(found)} puzzles written to {path}")


if __name__ == "__main__":
    main()

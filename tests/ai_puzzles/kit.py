"""Puzzles every AI level must solve (issue 32): a position, what kind of test it is, its answer.

A puzzle is built reproducibly: a game, its options and seed, and the actions played from the start
(`Puzzle.log`), or a builder in `examples.py` for the positions the issue describes. Its claims are
checked with the engine, in deals of what the side to play cannot see (`View.determinize`: the
hidden cards dealt as its knowledge allows, the dice to come sampled), so chance is judged by a share:

- *win now*: each answer wins at once (one action, or a line of the side's own actions in a row) in
  at least `WIN_SHARE` of the deals;
- *stop the loss* and *don't blunder*: each answer leaves the opponent no winning line before our
  next free choice in more than `SAFE_SHARE` of the deals, and each blunder leaves one in at least
  `LOSS_SHARE` (stop the loss: most actions lose; don't blunder: a plausible one does), or its own
  stated share where only the dice make it lose, and then a level that plays it has failed.

A level is asked as the bot asks it (`Game.choose(view, level, seed)`, its own budget), for its whole
turn, in `worlds` deals of the unknown; it solves the puzzle when, over those worlds, it played an
answer first or won at least `SOLVED_WIN` of the time (win now), or played no blunder first and was
left open to an immediate loss at most `SOLVED_LOSS` of the time (the other two kinds).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import registry, search
from engine.battlefronts.ai import idle as battlefronts_idle
from engine.fixbayonets.ai import win_check as fixbayonets_check
from engine.protocol import Action, Side, State

HERE = Path(__file__).resolve().parent
KINDS = ("win now", "stop the loss", "don't blunder")
WIN_SHARE = 0.9
SAFE_SHARE = 0.1
LOSS_SHARE = 0.9
SOLVED_WIN = 0.75
SOLVED_LOSS = 0.25
GAMES = ("blockwars", "fixbayonets", "battlefronts", "combinedarms", "combinedarms_wwii", "companycommander")

# How deep the checks look, per game: own actions in a row for a win (1 where a turn is long and
# wide), and the opponent's line after our turn. Fix Bayonets: two each (into the fight, then the
# shot), FIGHT always tried (`Guard.always`) where one shot could then win, and a full hand's
# discard played by rule of thumb first (`Guard.forced`).
CHECKS: dict[str, search.Guard] = {
    "blockwars": search.Guard(deals=8, depth=2, reply_depth=1, width=8, rest=6),
    "fixbayonets": fixbayonets_check(deals=8, depth=2, width=6, rest=6),
    "battlefronts": search.Guard(deals=8, depth=2, reply_depth=3, width=8, rest=6, idle=battlefronts_idle),
    "combinedarms": search.Guard(deals=2, depth=1, reply_depth=1, width=8, rest=6),
    "combinedarms_wwii": search.Guard(deals=2, depth=1, reply_depth=1, width=8, rest=6),
    "companycommander": search.Guard(deals=8, depth=1, reply_depth=3, width=6, rest=6),
}


@dataclass(frozen=True)
class Puzzle:
    game: str
    name: str
    kind: str
    seed: int
    log: tuple[tuple[Side, str], ...]
    answers: tuple[str, ...]
    blunders: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    note: str = ""
    build: Callable[[], State] | None = None  # a builder instead of seed and log (examples.py)
    # A blunder that loses only by the dice (an assault that fails one time in four) states its
    # own share; it must then never be played (`solve_share`).
    blunder_share: float = LOSS_SHARE

    def position(self) -> State:
        if self.build is not None:
            return self.build()
        game = registry.game(self.game)
        state = game.new_game(self.options, self.seed)
        for side, notation in self.log:
            state.apply(game.parse(notation), side)
        return state

    @property
    def side(self) -> Side:
        state = self.position()
        return min(state.to_act())

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "seed": self.seed,
            "options": self.options,
            "log": [list(step) for step in self.log],
            "answers": list(self.answers),
            "blunders": list(self.blunders),
            "note": self.note,
        }


def load(game: str) -> list[Puzzle]:
    """The stored puzzles of `game` (mined from seeded games by `mine.py`), then the issue's examples."""
    from tests.ai_puzzles import examples

    path = HERE / f"{game}.json"
    found = []
    if path.exists():
        for row in json.loads(path.read_text(encoding="utf-8")):
            found.append(
                Puzzle(
                    game=game,
                    name=row["name"],
                    kind=row["kind"],
                    seed=row["seed"],
                    log=tuple((s, n) for s, n in row["log"]),
                    answers=tuple(row["answers"]),
                    blunders=tuple(row["blunders"]),
                    options=row.get("options", {}),
                    note=row.get("note", ""),
                )
            )
    return found + [p for p in examples.EXAMPLES if p.game == game]


def deals(state: State, side: Side, count: int, seed: int) -> list[State]:
    view = state.view(side)
    rng = random.Random(f"puzzle:{seed}")
    return [view.determinize(rng) for _ in range(count)]


def _hooks(game_name: str) -> tuple[search.Order, search.Rollout]:
    game: Any = registry.game(game_name)
    return game.order, game.rollout


def win_share(game_name: str, state: State, side: Side, action: Action, seed: int = 0) -> float:
    """The share of deals in which `action` wins at once (or begins a winning line of own actions)."""
    guard = CHECKS[game_name]
    order, rollout = _hooks(game_name)
    rng = random.Random(f"win:{seed}")
    won = 0
    pool = deals(state, side, guard.deals, seed)
    for deal in pool:
        after = deal.clone()
        after.apply(action, side)
        search._answer_others(after, side, rollout, rng, guard)
        if after.is_over():
            won += search.winner_of(after) == side
        elif side in after.to_act() and guard.depth > 1:
            line = search.win_line(after, side, guard.depth - 1, guard.width, order, rollout, rng, guard)
            won += line is not None
    return won / len(pool)


# Combined Arms: a Headquarters falls to a whole turn of moves and attacks, too long a line for
# the generic look. There the judge is the game itself: our turn ends, the opponent plays its turn
# at `hard` (the planner that masses on a Headquarters), and we have lost if it wins; the planner's
# own count of the damage the enemy can bring to our Headquarters next turn (`plan.hq_risk`) at 1 or
# more counts as lost too.
PLAYED_OUT = ("combinedarms", "combinedarms_wwii")


def _finish(state: State, side: Side) -> None:
    """End `side`'s turn at once (Combined Arms' `end`)."""
    game = registry.game("combinedarms")
    for _ in range(4):
        if state.is_over() or side not in state.to_act():
            return
        state.apply(game.parse("end"), side)


def _lost_by_play(game_name: str, world: State, me: Side, seed: int) -> bool:
    from engine.combinedarms import plan
    from engine.combinedarms.game import PLANNED

    if world.is_over():
        return search.winner_of(world) not in (me, None)
    era = "wwii" if game_name.endswith("wwii") else "wwi"
    index = world.sides.index(me)  # type: ignore[attr-defined]
    if plan.hq_risk(world, index, PLANNED[era]["hard"].weights) >= 1.0:  # type: ignore[arg-type]
        return True
    opponent = min(world.to_act()) if world.to_act() else None
    if opponent is None or opponent == me:
        return False
    play_turn(game_name, world, opponent, "hard", seed)
    return search.winner_of(world) == opponent


def loss_share(game_name: str, state: State, side: Side, action: Action, seed: int = 0) -> float:
    """The share of deals in which `action`, with our best finish of the turn, leaves the opponent
    a winning line before our next free choice (Combined Arms: `PLAYED_OUT`, the turn ended at once)."""
    if game_name in PLAYED_OUT:
        lost = 0
        pool = deals(state, side, CHECKS[game_name].deals, seed)
        for k, deal in enumerate(pool):
            deal.apply(action, side)
            _finish(deal, side)
            lost += _lost_by_play(game_name, deal, side, k)
        return lost / len(pool)
    guard = CHECKS[game_name]
    order, rollout = _hooks(game_name)
    pool = deals(state, side, guard.deals, seed)
    return search.threat_share(pool, side, action, guard, order, rollout, random.Random(f"loss:{seed}"))


def verify(p: Puzzle) -> list[str]:
    """What is wrong with the puzzle's claims (empty: the engine confirms them)."""
    game = registry.game(p.game)
    state = p.position()
    side = min(state.to_act())
    problems = []
    legal = {str(a) for a in state.legal_actions(side)}
    for text in (*p.answers, *p.blunders):
        if text not in legal:
            problems.append(f"{text} is not legal")
    if problems:
        return problems
    for text in p.answers:
        action = game.parse(text)
        if p.kind == "win now":
            share = win_share(p.game, state, side, action)
            if share < WIN_SHARE:
                problems.append(f"{text} wins in only {share:.0%} of deals")
        else:
            share = loss_share(p.game, state, side, action)
            if share > SAFE_SHARE:
                problems.append(f"{text} still loses in {share:.0%} of deals")
    for text in p.blunders:
        share = loss_share(p.game, state, side, game.parse(text))
        if share < p.blunder_share:
            problems.append(f"the blunder {text} loses in only {share:.0%} of deals")
    return problems


def play_turn(game_name: str, world: State, side: Side, level: str, seed: int, most: int = 60) -> list[str]:
    """`level` plays `side`'s turn in `world` through `Game.choose` as the bot asks it; quick answers
    owed by the other side on the way are played by its rule of thumb."""
    game: Any = registry.game(game_name)
    played = []
    rng = random.Random(f"turn:{seed}")
    for step in range(most):
        if world.is_over():
            break
        owed = world.to_act()
        if side not in owed:
            if owed and world.quick_decision():
                other = min(owed)
                world.apply(game.rollout(world, other, rng), other)
                continue
            break
        action = game.choose(world.view(side), level, seed * 1000 + step)
        played.append(str(action))
        world.apply(action, side)
    return played


def solve_share(p: Puzzle, level: str, worlds: int = 4, seed: int = 0) -> float:
    """The share of `worlds` (deals of the unknown) in which `level`'s whole turn solves the puzzle."""
    game_name = p.game
    guard = CHECKS[game_name]
    order, rollout = _hooks(game_name)
    state = p.position()
    side = min(state.to_act())
    good = 0
    for k, world in enumerate(deals(state, side, worlds, 7919 + seed)):
        played = play_turn(game_name, world, side, level, seed=k + 1)
        # A blunder as the turn's first action fails the puzzle; one that loses only by the dice
        # fails it anywhere in the turn (the position it spoils is still there later).
        risky = set(played) if p.blunder_share < LOSS_SHARE else set(played[:1])
        if p.kind != "win now" and risky & set(p.blunders):
            continue
        if p.kind == "win now":  # the answer taken (it wins by the dice) or the game won
            good += (bool(played[:1]) and played[0] in p.answers) or search.winner_of(world) == side
        elif game_name in PLAYED_OUT:
            good += not _lost_by_play(game_name, world, side, k)
        else:
            lost = search._danger(world, side, guard, order, rollout, random.Random(k), rest=0) >= 1.0
            good += not lost
    return good / worlds


def solved(p: Puzzle, level: str, worlds: int = 4) -> bool:
    share = solve_share(p, level, worlds)
    if p.kind == "win now":
        return share >= SOLVED_WIN
    return share >= 1.0 - SOLVED_LOSS


def describe(puzzles: Sequence[Puzzle]) -> str:
    return ", ".join(f"{p.name} ({p.kind})" for p in puzzles)

"""Block Wars as a game of the platform: metadata, commands, menus and the AI behind `protocol.Game`."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.base import CORRESPONDENCE, CORRESPONDENCE_BUDGET_S, MAX_OPTIONS, BaseGame
from engine.blockwars import actions as A
from engine.blockwars import words
from engine.blockwars.ai import DEFAULT_BUDGETS
from engine.blockwars.help import TOPICS
from engine.blockwars.model import Options, Side
from engine.blockwars.squares import SQUARE_NAMES, rank_of
from engine.blockwars.state import SETUP, State, View, new_game
from engine.protocol import (
    Action,
    AiLevels,
    Choice,
    Focus,
    Menu,
    OptionSpec,
    Pick,
    SideInfo,
    Verb,
)
from engine.protocol import State as AnyState
from engine.protocol import View as AnyView
from engine.search import Settings
from engine.search import choose as search_choose

MAX_BUTTONS = 5
# The generic search stops at a fixed number of iterations, so that its choice depends on the view,
# the seed and nothing else (docs/fairness.md, "Checking the AI"): about 1.5 s of CPU a decision on
# the machine of docs/ai.md, as long as it thought when it stopped on time alone. `SEARCH_CAP` is the
# safety net every level has, far enough above that time that it binds only on a machine several
# times slower (or far busier).
SEARCH_ITERATIONS = 8_000
SEARCH_CAP = 10.0
# No playout after the expansion: the evaluation is good and Block Wars' fights are decided by the
# deal each iteration samples anyway. Against easy, 10 games each at 0.3 s a move: playouts of
# 0 actions won 5, of 2 actions won 1 (docs/performance.md).
SEARCH_ROLLOUT = 0


# What a decision's select asks, on its closed face: a phone shows this and not the status above it.
PICK_WORDS = {
    "barrage": "Choose the centre square",
    "ace": "Choose what comes on, and where",
    "strafe": "Choose the unit to strafe",
}


class BlockWarsGame(BaseGame[State, View]):
    """The WWI trench game: a chessboard, two card decks, two actions a turn."""

    # Its AI hooks are below, not a `brain`: they weigh with tuned weights, and the heuristics are
    # imported only when an AI plays.
    state_type, view_type, parser, words = State, View, staticmethod(A.parse), words

    name = "blockwars"
    title = "Block Wars"
    description = "Play Block Wars, the WWI trench game"
    sides = (SideInfo("germans", "Germans", "German"), SideInfo("canadians", "Canadians", "Canadian"))
    options = (
        OptionSpec("crosses", "Crosses", "Optional rule: each side may spend a Victoria/Iron Cross once"),
        OptionSpec(
            "fighter_aces", "Fighter aces", "Optional rule: aircraft A is an ace (+1), damaged aircraft -1"
        ),
    )
    verbs = (
        Verb(
            "setup",
            "Deploy your units: the standard layout or your own",
            arg="layout",
            arg_description="`std`, or files like bcfg/cdef/cf (back row / second row / machine guns)",
            template="setup {}",
            default="std",
        ),
        Verb(
            "move",
            "Move an infantry unit one square",
            arg_description="The move, e.g. e2-e3 (choose from the list)",
        ),
        Verb(
            "attack",
            "Attack with an infantry unit, stepping first if you like",
            arg_description="The attack, e.g. e4-e5xe6 (step, then attack) or e5xe6",
        ),
        Verb(
            "fire",
            "Fire a machine gun at an enemy unit",
            arg_description="The shot, e.g. c6xd4 (gun square x target square)",
        ),
        Verb(
            "tank",
            "The tank: move forward or back (T+ / T-), or fire its gun (Txd5)",
            arg_description="T+ forward, T- back, or Tx<square> to fire",
        ),
        Verb(
            "reinforce",
            "Bring a unit from the reserve onto your back row",
            arg_description="R@<square> for infantry, T@<square> for the tank (its lower-left square)",
        ),
        Verb(
            "decide",
            "Answer the pending decision (barrage, Ace, air battle, Cross)",
            arg_description=(
                "Your answer, e.g. e4 or barrage e4, R@c1, M@c1, fly A, dogfight B, strafe e4, cross, decline"
            ),
        ),
        Verb("end", "End your turn now (you may pass with actions left)", arg=None, template="end"),
    )
    # Ratings: bench/ladder.py, 100 games a pairing, 2026-11-24 (docs/performance.md); `search` against
    # hard at 1.5 s a decision each (docs/ai.md).
    ai = AiLevels(
        ("random", "easy", "normal", "hard", "search", CORRESPONDENCE),
        "normal",
        {
            "random": "plays any legal action",
            "easy": "plays by rule of thumb, one action at a time, and sometimes blunders",
            "normal": "tries every action with the exact odds of its card fight and keeps the best",
            "hard": "plans each two-action turn with exact odds and weighs what it leaves the enemy",
            "search": (
                f"the generic tree search every game has, {SEARCH_ITERATIONS:,} iterations (about 1.5 s) "
                "a decision; not rated"
            ),
            CORRESPONDENCE: "hard's plans weighed against hard's reply; about a second a decision",
        },
        # correspondence: hard's Elo plus its measured match against hard (20-20 in 40 games,
        # 2026-11-28, docs/ai.md): level with hard, +/- about 110 Elo at 95 %.
        ratings={"random": 0.0, "easy": 465.0, "normal": 663.0, "hard": 861.0, CORRESPONDENCE: 861.0},
        budgets={**DEFAULT_BUDGETS, "search": SEARCH_CAP, CORRESPONDENCE: CORRESPONDENCE_BUDGET_S},
    )
    focus = Focus(
        "unit",
        "A square with a unit on it, to show where it can move and attack",
        "There is no unit on `{}`: give the square of a unit on the board, its file and rank (like `e2`).",
    )
    rules = TOPICS
    notation_help = A.EXAMPLES

    # -- rules entry points

    def new_game(self, options: Mapping[str, Any], seed: int) -> State:
        return new_game(Options.from_json(dict(self.normalise_options(options))), seed)

    # -- the AI

    # Block Wars' evaluation is tanh(points / 4) of hard's judgement, which weighs the sides
    # differently (the Germans start near -0.55). A side is clearly losing 18 points down before
    # turn 30 and 11 from then on (`bench/draws.py`, `easy` self-play, seeds 1-60: at 12 points
    # throughout, the margin until 2026-11-29's third look, the side that would have accepted went
    # on to win 3 of 14 such positions in the first third of its game and 8.5 of 48 in the middle
    # one; at 18 then 11, 0 of 1 and 1.5 of 20, with as many lost games accepted, 25 of 53).
    draw_margins = ((0, math.tanh(18 / 4)), (30, math.tanh(11 / 4)))
    own_levels = frozenset(ai.names)  # random included: its own heuristics' random player

    def own_choice(
        self, view: AnyView, level: str, seed: int, budget_s: float | None, iterations: int | None
    ) -> Action:
        if level == "search":
            settings = Settings(
                iterations=SEARCH_ITERATIONS if iterations is None else iterations,
                budget_s=SEARCH_CAP if budget_s is None else budget_s,
                rollout_depth=SEARCH_ROLLOUT,
            )
            return search_choose(
                view, self.evaluate, seed=seed, settings=settings, rollout=self.rollout, order=self.order
            )
        from engine.blockwars import ai  # the heuristics are only needed for AI games

        if level == CORRESPONDENCE:  # hard's plans judged after hard's own reply (docs/ai.md)
            from engine.blockwars import correspondence

            return correspondence.choose(self.view_of(view), seed, budget_s)
        return ai.choose(self.view_of(view), level, seed, budget_s, iterations)

    def evaluate(self, state: AnyState, side: str) -> float:
        from engine.blockwars import ai

        return math.tanh(ai.evaluate(self.state_of(state), Side(side), ai.TUNED) / 4.0)

    def rollout(self, state: AnyState, side: str, rng: random.Random) -> Action:
        from engine.blockwars import ai

        s = self.state_of(state)
        return ai.rollout_action(s, Side(side), rng, ai._rank_counts(s), ai.TUNED)

    def order(
        self, state: AnyState, side: str, actions: Sequence[Action], rng: random.Random
    ) -> list[Action]:
        from engine.blockwars import ai

        s = self.state_of(state)
        scored = [
            (ai.quick_score(s, Side(side), a, ai.TUNED) + rng.random() * 0.01, i)
            for i, a in enumerate(actions)
            if isinstance(a, A.Action)
        ]
        scored.sort(reverse=True)
        return [actions[i] for _, i in scored]

    # -- menus

    def focus_choices(self, view: AnyView) -> list[str]:
        board = self.view_of(view).state.board
        return list(dict.fromkeys(SQUARE_NAMES[i] for i, uid in enumerate(board) if uid is not None))

    def menu(self, view: AnyView) -> Menu:
        """Set-up layouts, the decision's answers, or Take action and End turn."""
        v = self.view_of(view)
        state = v.state
        if state.is_over():
            return Menu()
        legal = state.legal_actions()

        def choice(a: Action, primary: bool) -> Choice:
            return Choice(words.describe(v, a), str(a), style="primary" if primary else "secondary")

        if state.phase == SETUP:
            return Menu(buttons=tuple(choice(a, str(a) == "setup std") for a in legal[:MAX_BUTTONS]))
        if state.pending is not None:
            ordinary = [a for a in legal if not (isinstance(a, A.Barrage) and a.gas)]
            gas = len(ordinary) != len(legal)
            if len(ordinary) <= MAX_BUTTONS:
                return Menu(buttons=tuple(choice(a, not isinstance(a, A.Decline)) for a in ordinary))
            options = [a for a in ordinary if not isinstance(a, A.Decline)]
            declinable = len(options) != len(ordinary)
            what = PICK_WORDS.get(state.pending.kind, "Choose")
            picks = by_rank(what, v, options, most=3)  # ranks 1–3, 4–6, 7–8 for a barrage
            buttons: list[Choice] = []
            if gas:
                buttons.append(Choice("Use poison gas instead…", opens="gas", style="danger"))
            if declinable:
                buttons.append(Choice(words.describe(v, A.DECLINE), "decline"))
            return Menu(buttons=tuple(buttons), picks=picks)
        end = (Choice("End turn", "end"),) if A.END in legal else ()
        return Menu(buttons=end, take_action=True)

    def submenu(self, view: AnyView, legal: Sequence[Action], key: str) -> Menu:
        """The Germans' once-a-game gas: the 64 squares as selects."""
        gas = [a for a in legal if isinstance(a, A.Barrage) and a.gas]
        if key != "gas" or not gas:
            return Menu(title="Gas is not available now.")
        return Menu(
            title="Where should the gas fall?", picks=by_rank("Gas barrage", self.view_of(view), gas, most=3)
        )


def by_rank(what: str, view: View, actions: Sequence[Action], most: int) -> tuple[Pick, ...]:
    """Answers about squares as selects of whole ranks, each labelled with its ranks ("ranks 1–3"), so
    a player looking for e2 knows which one holds it. A rank holds at most 8 barrage or strafe answers
    (23 for an Ace, all on one rank), so three ranks always fit Discord's 25 a select and `most` (3 or
    more) selects hold every answer."""
    rows: dict[int, list[Choice]] = {}
    for a in actions:
        rows.setdefault(rank_of(_square_of(a)), []).append(Choice(words.describe(view, a), str(a)))
    ranks = sorted(rows)
    per = max(1, -(-len(ranks) // most))  # ranks per select, as few selects as `most` allows
    picks = []
    for i in range(0, len(ranks), per):
        group = ranks[i : i + per]
        choices = tuple(c for r in group for c in rows[r])[:MAX_OPTIONS]
        first, last = group[0] + 1, group[-1] + 1
        span = f"rank {first}" if first == last else f"ranks {first}–{last}"
        picks.append(Pick(f"{what} ({span})" if len(ranks) > per else what, choices))
    return tuple(picks[:most])


def _square_of(action: Action) -> int:
    """The square an answer is about: a barrage's centre, a strafe's target, a reinforcement's square."""
    at = getattr(action, "at", None)
    if at is None:
        at = getattr(action, "target", None)
    assert isinstance(at, int), action
    return at


GAME = BlockWarsGame()

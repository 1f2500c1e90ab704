"""Battlefronts as a game of the platform: metadata, commands, menus and the AI behind `protocol.Game`."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Any, cast

from engine.base import CORRESPONDENCE, CORRESPONDENCE_BUDGET_S, BaseGame, Brain, limit_option, pick_rows
from engine.battlefronts import actions as A
from engine.battlefronts import ai, words
from engine.battlefronts.ai import idle
from engine.battlefronts.correspondence import Lookahead
from engine.battlefronts.help import TOPICS
from engine.battlefronts.model import ADJECTIVES, BLUE, RED, TITLES
from engine.battlefronts.state import DEFAULT_ROUNDS, State, new_game
from engine.battlefronts.view import View
from engine.protocol import Action, AiLevels, Choice, Menu, SideInfo, Verb
from engine.protocol import State as AnyState
from engine.protocol import View as AnyView
from engine.search import Guard, Settings

MAX_BUTTONS = 5
# Playouts long enough to reach the round's battle and check for a win, where the game is decided;
# the platform's default (12 actions) mostly stops mid-phase. Deeper playouts won 13 of 20 games
# against the default depth at equal iterations.
ROLLOUT_DEPTH = 30
# The levels (docs/ai.md has the matches that chose them): a fixed amount of work each, the time
# cap only a safety net. Easy looks one turn ahead at its three most promising actions, in one guess
# at the face-down cards; normal and hard search. Easy judging ten actions in four guesses was
# weaker, not stronger (it won 6.5 of 20 against the three): the ordering's first choices are better
# than the evaluation's pick one turn ahead. Hard searches eight times as long as normal and plays
# each playout on to the end of its round, so that every position it judges is at a round's start
# (a fixed 30 actions stop anywhere, often after one side's moves and before the other's reply):
# at 800 iterations that won 87.5 % of 40 games against normal, against 67.5 % without it. 700
# iterations keep a whole turn under 20 s of CPU (800 took up to 20.2 s) and won 75 % on the ladder.
NORMAL_ITERATIONS = 100
HARD_ITERATIONS = 700
HARD = Settings(iterations=HARD_ITERATIONS, budget_s=5.0, rollout_depth=ROLLOUT_DEPTH, to_turn_end=True)
# Correspondence (issue 32): hard's search, its time cap the level's 20 s, each leaf judged a round
# later (`correspondence`), at about hard's CPU: 67.5 % of 40 against hard, where four times hard's
# playouts had scored 47.5 % of 20 at up to 33 s of CPU a turn.
CORRESPONDENCE_LOOKAHEAD = Lookahead(replace(HARD, budget_s=CORRESPONDENCE_BUDGET_S), rounds=1)
SEARCH_LEVELS = {
    "easy": Settings(iterations=0, greedy=3, deals=1, budget_s=1.0),
    "normal": Settings(iterations=NORMAL_ITERATIONS, budget_s=2.0, rollout_depth=ROLLOUT_DEPTH),
    "hard": HARD,
    CORRESPONDENCE: CORRESPONDENCE_LOOKAHEAD.search,  # played by `own_choice`, a round later
}
HARD_GUARD = Guard(deals=6, depth=2, reply_depth=3, width=8, rest=10, alternatives=40, idle=idle)
AI_LEVELS = AiLevels(
    ("random", "easy", "normal", "hard", CORRESPONDENCE),
    "normal",
    {
        "random": "plays any legal action",
        "easy": "tries its three likeliest actions to the end of its turn, blind to your reply",
        "normal": f"a tree search of {NORMAL_ITERATIONS} playouts a decision, guessing your hidden cards",
        "hard": f"the same search, {HARD_ITERATIONS} playouts a decision, each played to the round's end",
        CORRESPONDENCE: "hard's search, each line judged after your reply: about 1 s a decision",
    },
    # bench/ladder.py --cpu-clock (docs/performance.md, 2026-11-28, 40 games each unless said), easy
    # judging its turn blind to the threat term (`ai.evaluate_now`): easy won 100 % against random
    # (+763, the ladder's virtual draw), normal 75 % against easy (2 drawn: 76.25 %, +208); hard
    # 70.8 % against normal (17 of 24), +147; correspondence 67.5 % against hard (26 won, 2 drawn), +127.
    ratings={"random": 0.0, "easy": 763.0, "normal": 971.0, "hard": 1118.0, CORRESPONDENCE: 1245.0},
    budgets={level: settings.budget_s for level, settings in SEARCH_LEVELS.items()},
)


class BattlefrontsGame(BaseGame[State, View]):
    """Five fronts, four travel zones, two 52-card decks and a war of attrition."""

    state_type, view_type, parser, words = State, View, staticmethod(A.parse), words
    # Its `order` takes only Battlefronts' own actions: the game's `order` below passes only those.
    brain = cast("Brain[State]", ai)
    # Its evaluation alone tells a lost position poorly (`bench/draws.py`, `easy` self-play, 60
    # games): at -0.8 the side that would have accepted went on to win 28 % of those positions, at
    # -0.9 18 %, and few reach -0.92. So from -0.75 the position is played out too
    # (`BaseGame.playout_share`).
    draw_margins = ((0, 0.75),)
    draw_playouts = 32

    name = "battlefronts"
    title = "Battlefronts"
    description = "Play Battlefronts: wear the enemy down on five fronts with a deck of cards"
    sides = (SideInfo(RED, TITLES[RED], ADJECTIVES[RED]), SideInfo(BLUE, TITLES[BLUE], ADJECTIVES[BLUE]))
    options = (
        limit_option(
            "rounds",
            "Round limit",
            "Rounds before the side holding more fronts alone wins (0 = no limit; default 30)",
            DEFAULT_ROUNDS,
            99,
            shown="{} rounds, then the side holding more fronts alone wins",
            off="none",
        ),
    )
    verbs = (
        Verb(
            "call",
            "Call up a battalion of face-down cards into a travel zone (support phase)",
            arg="callup",
            arg_description="The travel zone and the number of cards, e.g. T2 5",
            template="call {}",
        ),
        Verb(
            "move",
            "Move a battalion to a neighbouring front or travel zone (move phase)",
            arg="move",
            arg_description="The battalion and where it goes, e.g. R3 F2",
            template="move {}",
        ),
        Verb(
            "jump",
            "Discard a face card on top of a battalion to jump it to any front (move phase)",
            arg="jump",
            arg_description="The battalion and the front, e.g. R3 F5",
            template="jump {}",
        ),
        Verb(
            "reduce",
            "Choose which of your equally strong battalions takes a reduction",
            arg="battalion",
            arg_description="The battalion, e.g. R3",
            template="reduce {}",
        ),
        Verb(
            "end",
            "End your turn: your opponent acts, and you may act again later in this phase",
            arg=None,
            template="end",
        ),
        Verb(
            "pass", "Finish this phase: you take no more actions in it this round", arg=None, template="pass"
        ),
    )
    rules = TOPICS
    notation_help = A.EXAMPLES
    sampled = MappingProxyType({"Call": ("size",)})  # call-ups of any size; 1 to 13 are listed (R10)
    turn_label = "Round"

    # -- rules entry points

    # Playouts to the end of the round, where the battle and the check for a win decide the game
    # (30 actions against the default 12 won 13 of 20 games at equal iterations).
    search_levels = MappingProxyType(SEARCH_LEVELS)
    ai = AI_LEVELS
    # The win check (issue 32): a win comes at the battle after both sides' moves, so the
    # opponent's line runs on through the support phase (`ai.idle`) and may take a move and a pass.
    guards = MappingProxyType(
        {
            "easy": Guard(deals=2, depth=2, reply_depth=2, width=4, rest=4, alternatives=12, idle=idle),
            "normal": Guard(deals=4, depth=2, reply_depth=2, width=6, rest=6, alternatives=24, idle=idle),
            "hard": HARD_GUARD,
            CORRESPONDENCE: HARD_GUARD,
        }
    )

    own_levels = frozenset({CORRESPONDENCE})

    def judge_of(self, level: str) -> Callable[[AnyState, str], float] | None:
        """Easy judges its turn by what holds at its end, blind to next round's threats."""
        if level != "easy":
            return None
        return lambda state, side: ai.evaluate_now(self.state_of(state), side)

    def own_choice(
        self, view: AnyView, level: str, seed: int, budget_s: float | None, iterations: int | None
    ) -> Action:
        """Correspondence: hard's search with each leaf judged a round later (`correspondence`)."""
        from engine.battlefronts import correspondence

        return correspondence.choose(
            self.view_of(view), seed, CORRESPONDENCE_LOOKAHEAD, self.order, self.rollout, budget_s, iterations
        )

    def new_game(self, options: Mapping[str, Any], seed: int) -> State:
        checked = self.normalise_options(options)
        return new_game(seed, int(checked["rounds"]))

    # -- the AI

    def order(
        self, state: AnyState, side: str, actions: Sequence[Action], rng: random.Random
    ) -> list[Action]:
        mine = [a for a in actions if isinstance(a, A.Action)]  # never the shared words
        return list(ai.order(self.state_of(state), side, mine, rng))

    # -- menus

    def menu(self, view: AnyView) -> Menu:
        """The tie to settle as buttons, or End turn / Pass and the Take action flow."""
        v = self.view_of(view)
        state = v.state
        if state.is_over():
            return Menu()
        if state.waiting is not None:
            ties = [Choice(words.describe(v, a), str(a), style="primary") for a in state.legal_actions()]
            if len(ties) <= MAX_BUTTONS:
                return Menu(buttons=tuple(ties))
            return Menu(picks=pick_rows("Choose the battalion to reduce", ties))
        legal = state.legal_actions()
        buttons = []
        if A.END in legal or words.names_end(state):
            # named by the status before it is legal (before the turn's first action): shown disabled
            buttons.append(Choice("End turn", "end", disabled=A.END not in legal))
        buttons.append(Choice("Pass (finished with this phase)", "pass", style="danger"))
        return Menu(buttons=tuple(buttons), take_action=True)


GAME = BattlefrontsGame()

__all__ = ["GAME", "BattlefrontsGame"]

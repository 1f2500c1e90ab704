"""Fix Bayonets as a game of the platform: metadata, commands, menus and the AI hooks."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from engine import cards
from engine.base import CORRESPONDENCE, CORRESPONDENCE_BUDGET_S, GUARDS, BaseGame, limit_option
from engine.fixbayonets import actions as A
from engine.fixbayonets import ai, words
from engine.fixbayonets.ai import win_check
from engine.fixbayonets.help import TOPICS
from engine.fixbayonets.model import (
    AMERICANS,
    GERMANS,
    HAND_LIMIT,
    PRESET_WORDS,
    PRESETS,
    SINGULAR,
    TITLE,
    Options,
)
from engine.fixbayonets.state import (
    DISCARD,
    FIGHTING,
    LOSS_WORDS,
    MOVING,
    NEGATE_WORDS,
    SETUP,
    State,
    View,
    new_game,
)
from engine.protocol import Action, AiLevels, Choice, Menu, OptionSpec, Pick, SideInfo, Verb
from engine.protocol import State as AnyState
from engine.protocol import View as AnyView
from engine.search import Settings

# The levels (docs/ai.md has the matches that chose them): a fixed amount of work each, the time
# cap only a safety net. Easy and normal look one turn ahead and no further (easy at its three most
# promising actions in one guess at the hidden cards, normal at ten in four guesses); hard searches.
# 20-game matches: normal beat easy 16-4, hard beat normal 15-5; a search of 100 playouts only
# drew level with normal (9-11), so hard needs its 400. The 40-game ladder: 77.5 % and 77.5 %.
HARD_ITERATIONS = 400
CORRESPONDENCE_ITERATIONS = 5 * HARD_ITERATIONS
CORRESPONDENCE_SETTLE = 0.3
SEARCH_LEVELS = {
    "easy": Settings(iterations=0, greedy=3, deals=1, budget_s=1.0),
    "normal": Settings(iterations=0, greedy=10, deals=4, budget_s=2.0),
    "hard": Settings(iterations=HARD_ITERATIONS, budget_s=5.0),
    # Correspondence (issue 32): the same search with up to five times hard's playouts, stopping
    # early once the leading action is out of reach (`settle`), so a clear decision costs about
    # hard's budget and the close ones get the rest; capped at 20 s.
    CORRESPONDENCE: Settings(
        iterations=CORRESPONDENCE_ITERATIONS, budget_s=CORRESPONDENCE_BUDGET_S, settle=CORRESPONDENCE_SETTLE
    ),
}
AI_LEVELS = AiLevels(
    ("random", "easy", "normal", "hard", CORRESPONDENCE),
    "normal",
    {
        "random": "plays any legal action",
        "easy": "tries its three likeliest actions to the end of its turn, blind to your reply",
        "normal": "tries ten actions to the end of its turn, four guesses at your hand each",
        "hard": f"a tree search of {HARD_ITERATIONS} playouts a decision that weighs your replies",
        CORRESPONDENCE: (
            f"for games over days: up to {CORRESPONDENCE_ITERATIONS:,} playouts, about 1 s a decision"
        ),
    },
    # bench/ladder.py, 40 games a pairing, 2026-11-27 (docs/performance.md): easy won 100 % against
    # random, normal 77.5 % against easy. After the win check saw the fight and the shot past a
    # discard (2026-11-28, --cpu-clock): hard won 75 % against normal (40 games; +185, it was 72.5 %
    # and +168 before), correspondence 67.5 % against hard (40 games, seeds 1-40: 13 of 20, then 14
    # of 20, as before the change; +127).
    ratings={"random": 0.0, "easy": 763.0, "normal": 972.0, "hard": 1157.0, CORRESPONDENCE: 1284.0},
    budgets={level: settings.budget_s for level, settings in SEARCH_LEVELS.items()},
)

ORDERS_BUTTON = Choice("Standing orders…", opens="orders")


def _sentence(words: str) -> str:
    """A select option's label: the words alone, capitalised; the value carries the notation, so
    its keyword ("std", "losses auto") would only be noise on a phone."""
    return (words[:1].upper() + words[1:])[:100]


class FixBayonetsGame(BaseGame[State, View]):
    """The Argonne, 1918: private hands, a shared deck, and cards the opponent cancels."""

    state_type, view_type, parser, words, brain = State, View, staticmethod(A.parse), words, ai
    # Its evaluation rarely leaves -0.85 to 0.85 (an officer down reads about -0.8 whoever then
    # wins): in `easy` self-play (`bench/draws.py`, 60 games) 7 of the 11 positions judged -0.8 or
    # less went on to win. So from -0.7 the position is played out too (`BaseGame.playout_share`).
    draw_margins = ((0, 0.7),)
    draw_playouts = 32

    name = "fixbayonets"
    title = "Fix Bayonets"
    description = "Play Fix Bayonets: the Lost Battalion against German stormtroopers"
    sides = (SideInfo(GERMANS, "Germans", "German"), SideInfo(AMERICANS, "Americans", "American"))
    options = (
        OptionSpec(
            "open_hands",
            "Strategic Version",
            "Strategic Version: both hands are played face up",
            default=False,
        ),
        limit_option(
            "turn_limit",
            "Turn limit",
            "Rounds before the battle is drawn (0 = no limit; default 30)",
            30,
            99,
            shown="{} rounds, then a draw",
            off="none",
        ),
    )
    verbs = (
        Verb(
            "setup",
            "Set up your 16 men on your back row, two to a square (hidden until both sides have)",
            arg="layout",
            arg_description="std, wings, guard, huddle, or pairs for files a-h like RR/HR/SR/OR/OR/UR/HR/RR",
            template="setup {}",
            default="std",
        ),
        Verb(
            "move",
            "Play a move card: one man, or a group forward",
            arg_description="e.g. march Rd1-d3, zigzag Rd1-e3, or march fwd ORd1,RRe1 (choose from the list)",
        ),
        Verb(
            "attack",
            "Play an attack card: one of your men attacks an enemy square",
            arg_description="e.g. rifle3 Rd3xd6 (card, kind and square of your man, x, the target)",
        ),
        Verb(
            "negate",
            "Cancel the card your opponent just played with a terrain card",
            arg="card",
            arg_description="trees or foxholes against an attack, rough or hold against a move",
            template="negate {}",
        ),
        Verb("pass", "Let the card your opponent just played stand", arg=None, template="pass"),
        Verb(
            "lose",
            "Choose which man of your hit stack falls",
            arg="man",
            arg_description="O officer, H specialist, S sniper, U runner or R rifleman",
            template="lose {}",
        ),
        Verb(
            "discard",
            "Discard a card when you hold more than five",
            arg="card",
            arg_description="The card to throw away, e.g. trees",
            template="discard {}",
        ),
        Verb("fight", "End your move phase and go to the fight phase", arg=None, template="fight"),
        Verb("end", "End your turn", arg=None, template="end"),
        Verb(
            "orders",
            "Set your standing orders for cancelling cards and for casualties (private, any time)",
            arg="orders",
            arg_description="ask, never, officers, attacks, always, losses ask or losses auto",
            template="orders {}",
            default="ask",
            choices=(*A.NEGATE_POLICIES, *(f"losses {p}" for p in A.LOSS_POLICIES)),
        ),
    )
    private_info = True
    ai = AI_LEVELS
    search_levels = SEARCH_LEVELS
    # The win check (issue 32): a side's officers fall to a fight phase entered first, so the
    # opponent's line after our turn may take two actions (into the fight, then the shot), and
    # FIGHT is always tried where a shot could then win (`ai.into_fight`): the moves outrank it
    # by `order` while move cards are in hand. A turn that opens with a full hand's discard plays
    # it by rule of thumb first (`ai.discard_first`), so the fight and the shot stay in reach.
    guards = MappingProxyType(
        {
            **GUARDS,
            "normal": win_check(deals=4, depth=1, width=6, rest=6, alternatives=24),
            "hard": win_check(deals=6, depth=2, width=8, rest=12, alternatives=40),
            CORRESPONDENCE: win_check(deals=12, depth=2, width=10, rest=16, alternatives=60),
        }
    )
    rules = TOPICS
    notation_help = A.EXAMPLES
    sampled = MappingProxyType({"Group": ("men",)})  # any men who may go, not only the menu (R11)
    turn_label = "Round"

    # -- rules entry points

    def new_game(self, options: Mapping[str, Any], seed: int) -> State:
        return new_game(Options.from_json(dict(self.normalise_options(options))), seed)

    # -- the AI (BaseGame.choose runs the generic search with these)

    def obvious(self, view: AnyView, level: str) -> Action | None:
        """Over the hand limit, a card this side can never play (R22) is always the first to go:
        keeping it is worth nothing, and the search cannot tell."""
        v = self.view_of(view)
        s, side = v.state, v.viewer
        if level != "random" and side is not None and s.phase == DISCARD and s.pending is None:
            useless = [c for c in s.hands[side] if not c.usable_by(side)]
            if useless and side in s.to_act():
                return A.Discard(useless[0])
        return None

    # -- the fair-chance property

    def chance_twin(self, state: AnyState, side: str, rng: random.Random) -> AnyState:
        """The default twin with the other side's standing orders put back: a view drops them, but
        they are that player's choice, not chance (R15)."""
        assert isinstance(state, State)
        twin = state.view(side).determinize(rng)
        twin.orders = {s: dict(o) for s, o in state.orders.items()}
        return twin

    # -- menus

    def menu(self, view: AnyView) -> Menu:
        """Built from the spectator's view: buttons that any player may see without learning a card."""
        s = self.view_of(view).state
        if s.is_over():
            return Menu()
        if s.phase == SETUP:
            return Menu(
                buttons=(
                    Choice("Standard set-up", str(A.Setup(PRESETS["std"])), style="primary"),
                    Choice("Other set-ups…", opens="setup"),
                    ORDERS_BUTTON,
                )
            )
        p = s.pending
        if p is not None:
            if p.kind == "negate":
                return Menu(
                    buttons=(
                        Choice("Let it stand", "pass", style="primary"),
                        Choice("Cancel it…", opens="negate", style="danger"),
                        ORDERS_BUTTON,
                    )
                )
            assert isinstance(p.play, A.Attack)
            kinds = list(dict.fromkeys(s.men_at(p.play.dst)))
            falls = [Choice(f"The {SINGULAR[k]} falls", f"lose {k}", style="danger") for k in kinds[:4]]
            return Menu(buttons=(*falls, ORDERS_BUTTON))
        if s.phase == DISCARD:
            # the cards are the player's secret: the button opens them to the player alone, who
            # picks every card to discard at once (`submenu`), not one a round trip
            return Menu(buttons=(DISCARD_BUTTON, ORDERS_BUTTON))
        if s.phase == MOVING:
            return Menu(
                take_action=True,
                buttons=(Choice("Fight", "fight", style="primary"), Choice("End turn", "end"), ORDERS_BUTTON),
            )
        if s.phase == FIGHTING:
            return Menu(take_action=True, buttons=(Choice("End turn", "end", style="primary"), ORDERS_BUTTON))
        return Menu()

    def submenu(self, view: AnyView, legal: Sequence[Action], key: str) -> Menu:
        """Shown to the clicker only: their set-up presets, their cancelling cards, their orders."""
        v = self.view_of(view)
        s = v.state
        if key == "setup":
            choices = [
                Choice(_sentence(PRESET_WORDS[name]), str(A.Setup(lay))) for name, lay in PRESETS.items()
            ]
            return Menu(title="Choose a set-up (the other side sees it only when both have set up).",
                        picks=(Pick("Set-up", tuple(choices)),))  # fmt: skip
        if key == "negate":
            cancels = [a for a in legal if isinstance(a, A.Negate)]
            p = s.pending
            if p is not None and p.kind == "negate" and p.side != v.viewer:
                return Menu(
                    title=f"The question is for the {TITLE[p.side]}: they decide whether to cancel your "
                    f"{p.play.card.name}. Wait for their answer."
                )
            if not any(isinstance(a, A.Pass) for a in legal):
                return Menu(title="There is no card of your opponent's to answer now.")
            if not cancels:
                return Menu(
                    title="You hold no card that can cancel this one: let it stand.",
                    buttons=(Choice("Let it stand", "pass", style="primary"),),
                )
            buttons = [Choice(words.describe(v, a), str(a), style="danger") for a in cancels[:4]]
            return Menu(title="Cancel the card with:", buttons=(*buttons, Choice("Let it stand", "pass")))
        if key == "orders":
            side = v.viewer
            if side is None:
                return Menu(title="Only the players have standing orders.")
            now = s.orders[side]
            negate = tuple(Choice(_sentence(NEGATE_WORDS[p]), f"orders {p}") for p in A.NEGATE_POLICIES)
            losses = tuple(Choice(_sentence(LOSS_WORDS[p]), f"orders losses {p}") for p in A.LOSS_POLICIES)
            return Menu(
                title=(
                    f"Your standing orders (private): {NEGATE_WORDS[now['negate']]}; "
                    f"{LOSS_WORDS[now['losses']]}."
                ),
                picks=(
                    Pick("Cancelling the opponent's cards", negate),
                    Pick("Casualties in a hit stack", losses),
                ),
            )
        if key == "discard":
            return discard_menu(v, legal)
        return Menu(title="Nothing to choose here.")


def discard_menu(view: View, legal: Sequence[Action]) -> Menu:
    """The viewer's hand as one select of the cards to discard, as many picks as they are over the
    limit (R4: they are then discarded one by one, in the order listed, as one command)."""
    s = view.state
    side = view.viewer
    if side is None or s.phase != DISCARD or not any(isinstance(a, A.Discard) for a in legal):
        waiting = f"the {TITLE[s.active]}" if s.phase == DISCARD else "nobody"
        return Menu(title=f"Only a player over five cards discards, and now that is {waiting}.")
    return cards.discard_menu(s.hands[side], HAND_LIMIT, "cards", lambda c: str(A.Discard(c)))


DISCARD_BUTTON = Choice("Discard…", opens="discard", style="primary")
GAME = FixBayonetsGame()

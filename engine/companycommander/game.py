"""Company Commander as a game of the platform: metadata, commands, menus and the AI hooks."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from engine import cards, search
from engine.base import CORRESPONDENCE, EDITION, BaseGame, limit_option
from engine.companycommander import actions as A
from engine.companycommander import ai as brain
from engine.companycommander import words
from engine.companycommander.help import EDITION_1, TOPICS
from engine.companycommander.improve import improve
from engine.companycommander.model import (
    ADJECTIVES,
    AMERICANS,
    DEFAULT_TURN_LIMIT,
    GERMANS,
    HAND_LIMIT,
    TITLES,
    Options,
    sort_cards,
)
from engine.companycommander.model import (
    EDITION as NEWEST,
)
from engine.companycommander.state import ACTING, DEPLOY, DISCARD, State, new_game
from engine.companycommander.view import View
from engine.protocol import Action, AiLevels, Choice, Menu, SideInfo, Verb
from engine.protocol import State as AnyState
from engine.protocol import View as AnyView

# Playouts long enough to finish the turn and see the enemy's answer: a turn is 8 to 15 actions.
ROLLOUT_DEPTH = 30


class CompanyCommanderGame(BaseGame[State, View]):
    """Two infantry companies on three fronts: Squad decks, a shared Tactics deck and dice."""

    state_type, view_type, parser, words, brain = State, View, staticmethod(A.parse), words, brain
    # No draw before round 3, then "clearly losing" from -0.93, and from -0.9 from round 5
    # (`bench/draws.py`, `easy` self-play, seeds 1-60). Until the second side's first Deploy phase
    # is over the first side holds every front it deployed to and the second none, which the
    # evaluation reads as nearly lost (about -0.88): an offer made right after the first side's
    # deployment was taken. And in round 2 a side judged lost still came back: at -0.9 it went on to
    # win 6 of 27 such positions, at -0.98 2 of 4. From round 3 at -0.9 it won 11 of 104 positions
    # in the middle third of its game; with -0.93 in rounds 3 and 4, 6 of 84.
    draw_margins = ((3, 0.93), (5, 0.9))

    name = "companycommander"
    title = "Company Commander"
    description = "Play Company Commander: two WWII infantry companies, three fronts, cards and dice"
    sides = (
        SideInfo(AMERICANS, TITLES[AMERICANS], ADJECTIVES[AMERICANS]),
        SideInfo(GERMANS, TITLES[GERMANS], ADJECTIVES[GERMANS]),
    )
    edition = NEWEST  # a game begun under edition 1 keeps its rules (rules/companycommander.md)
    options = (
        limit_option(
            "turn_limit",
            "Turn limit",
            "Rounds, then the side that put out more enemy units wins (0 = no limit, the default)",
            DEFAULT_TURN_LIMIT,
            99,
            shown="after round {}, the side that put out more enemy units wins",
            off="none",
        ),
    )
    verbs = (
        Verb(
            "deploy",
            "Deploy a unit you drew this turn to one of your fronts (Deploy phase)",
            arg="deployment",
            arg_description="The unit and the front (L, C or R), e.g. A7 L",
            template="deploy {}",
        ),
        Verb(
            "move",
            "Move a unit to a neighbouring front (Deploy phase; it may not attack this turn)",
            arg="move",
            arg_description="The unit and the front, e.g. A3 C",
            template="move {}",
        ),
        Verb(
            "extra",
            # Registered once for both editions: edition 1 refuses `none` (H19), so it is not promised.
            "Your Company Commander's extra card: Squad or Tactics, or none if your game allows (Deploy)",
            arg="deck",
            arg_description="squad, tactics, or none to go without it (not in edition-1 games)",
            template="extra {}",
        ),
        Verb(
            "tactics",
            "Done deploying: on to the Tactics phase, which draws your two cards",
            arg=None,
            template="tactics",
        ),
        Verb(
            "discard",
            "Discard a Tactics card when you hold more than seven",
            arg="card",
            arg_description="The card, e.g. medic",
            template="discard {}",
        ),
        Verb(
            "recon",
            "Send a Scout team on a Recon mission into the enemy front across",
            arg="mission",
            arg_description="The unit and what a success is for: A2 look (their hand) or A2 mark (+1 fire)",
            template="recon {}",
        ),
        Verb(
            "fire",
            "Suppression fire by a unit with long-range fire at the enemy front across",
            arg="unit",
            arg_description="The firing unit, e.g. A4",
            template="fire {}",
        ),
        Verb(
            "card",
            "Play a Tactics card from your hand",
            arg="card",
            arg_description="The card and its front or unit, e.g. artillery C, rally L, medic A3, surprise",
            template="play {}",
        ),
        Verb(
            "assault",
            "Assault the enemy front across: a random unit there, a Pinned one if any",
            arg="unit",
            arg_description="The assaulting unit, e.g. A1",
            template="assault {}",
        ),
        Verb("end", "End your turn (your Pinned units then roll to rally)", arg=None, template="end"),
    )
    private_info = True
    rules = TOPICS
    notation_help = A.EXAMPLES
    turn_label = "Round"

    # The levels (engine/companycommander/ai.py says what each does). Ratings: bench/ladder.py, the
    # rules after issue 31 and the levels after issue 32 (docs/ai.md).
    ai = AiLevels(
        ("random", "easy", "normal", "hard", "search", CORRESPONDENCE),
        "normal",
        {
            "random": "plays any legal action",
            "easy": "normal's play, but a third of its choices are any legal action",
            "normal": "fires everything, barrages the most crowded front, assaults at fair odds",
            "hard": "weighs each assault and barrage by its exact odds, lays ambushes",
            "search": "the generic tree search, 200 playouts a decision (under a second); not rated",
            CORRESPONDENCE: "plays out hard's 8 best choices in up to 96 deals: about 1 s a decision",
        },
        # bench/ladder.py --cpu-clock, 40 games a pairing, seeds 1-40, 2026-11-28 (issue 32: the win
        # check, moves and the race to ten): easy 92.5 % v random, normal 67.5 % v easy, hard 75 % v normal
        # correspondence: hard's Elo plus the measured difference against hard (improve.py), the same
        # ladder at --procs 1: seeds 41-80 26 of 40, seeds 1-40 26 of 40, together 65 % (+108; docs/ai.md)
        ratings={"random": 0.0, "easy": 412.0, "normal": 536.0, "hard": 721.0, CORRESPONDENCE: 829.0},
        budgets={"random": 1.0, "easy": 1.0, "normal": 1.0, "hard": 1.0, "search": 1.0, CORRESPONDENCE: 20.0},
    )
    # The levels that play a policy of their own, without searching.
    policies = MappingProxyType({"easy": brain.easy, "normal": brain.rollout, "hard": brain.careful})
    own_levels = frozenset((*policies, CORRESPONDENCE))  # correspondence: hard's play improved by rollouts
    # Iterations, not seconds, bound the search, so it plays the same for the same seed; the budget
    # is a safety net above what the iterations take on a quiet machine (docs/performance.md). A turn
    # is 15-20 decisions: at 400 iterations and 2 s a turn took 41 s (p95) on the loaded machine.
    search_levels = MappingProxyType(
        {"search": search.Settings(iterations=200, budget_s=1.0, rollout_depth=ROLLOUT_DEPTH)}
    )

    # -- rules entry points

    def new_game(self, options: Mapping[str, Any], seed: int) -> State:
        edition = self.edition_of(options)  # before normalising, which would fill in the newest
        checked = self.normalise_options({**options, EDITION: edition})
        return new_game(Options(int(checked["turn_limit"]), edition), seed)

    def rules_for(self, options: Mapping[str, Any]) -> Mapping[str, str]:
        return EDITION_1 if self.edition_of(options) == 1 else TOPICS

    # -- the AI

    def own_choice(
        self, view: AnyView, level: str, seed: int, budget_s: float | None, iterations: int | None
    ) -> Action:
        """`easy`, `normal` and `hard` play their policy on the view dealt for the seed (they read
        nothing the view does not hold; a policy has no budget); `correspondence` plays hard's
        candidates out in many deals (`improve`); `random` and `search` are the platform's."""
        if level == CORRESPONDENCE:
            return improve(self.view_of(view), seed)
        play = self.policies[level]
        side = self.view_of(view).viewer
        assert side is not None, "a spectator has nothing to choose"
        state = view.determinize(random.Random(seed))
        return play(self.state_of(state), side, random.Random(f"thumb:{seed}"))

    def twin(self, state: AnyState, side: str, rng: random.Random) -> State | None:
        """`state` with up to two cards of `side`'s hand swapped for cards at the bottom of the
        Tactics deck, which are drawn last: the same dice and the same draws for a long while."""
        s = self.state_of(state).clone()
        hand, pile = s.hands[side], s.tactics
        spots = [i for i in range(min(6, len(pile))) if all(pile[i] is not c for c in hand)]
        if not hand or not spots:
            return None
        for i, k in enumerate(rng.sample(range(len(hand)), min(2, len(hand), len(spots)))):
            hand[k], pile[spots[i]] = pile[spots[i]], hand[k]
        s.hands[side] = sort_cards(hand)
        s._legal = None
        return s

    def showcases(self) -> list[tuple[State, list[str]]]:
        """A Recon mission that succeeds and looks at the Germans' hand (random play seldom does)."""
        from engine.companycommander.position import build, rig

        s = build(
            {"A1": "scouts C", "A2": "hmg C", "A3": "rifles L", "A4": "rifles R"}
            | {"G1": "rifles C", "G2": "mg42 L", "G3": "rifles R"},
            hands={AMERICANS: ["sniper", "medic"], GERMANS: ["airstrike", "rally", "medic"]},
        )
        return [(rig(s, (6,)), ["recon A1 look"])]

    # -- menus

    def menu(self, view: AnyView) -> Menu:
        """From the spectator's view: the phase's way on, and Take action for the rest."""
        v = self.view_of(view)
        s = v.state
        if s.is_over():
            return Menu()
        side = s.active
        if s.phase == DEPLOY:
            # the status ends "then `tactics` to draw your two Tactics cards" from the start of the
            # phase: the button shows from the start too, disabled until it is the step left
            # (`tactics` is legal once no unit waits and the extra card is settled: the last branch)
            later = Choice(DONE_DEPLOYING, "tactics", style="primary", disabled=True)
            waiting = s.arriving(side)
            if waiting:
                u = waiting[0]
                return Menu(
                    buttons=(
                        *(
                            Choice(f"{u.label} {u.type.short} to the {name}", str(A.deploy(u.label, f)))
                            for f, name in _FRONTS
                        ),
                        later,
                    ),
                    take_action=True,
                )
            buttons: tuple[Choice, ...] = ()
            if words.extra_open(v, side):
                # The spectator's view holds no Tactics deck (its order is secret): count it instead.
                decks = (
                    ("squad", bool(s.squad[side])),
                    ("tactics", bool(v.tactics_count or s.tactics_discard)),
                )
                offered = [
                    Choice(f"Extra {deck} card", f"extra {deck}", style="primary")
                    for deck, left in decks
                    if left
                ]
                declined = (Choice("No extra card", str(A.EXTRA_NONE)),) if s.extra_optional else ()
                buttons = (*offered, *declined, later)
            else:
                buttons = (Choice(DONE_DEPLOYING, "tactics", style="primary"),)
            return Menu(buttons=buttons, take_action=True)
        if s.phase == DISCARD:
            # the cards are the player's secret: the button opens them to the player alone, who
            # picks every card to discard at once (`submenu`), not one a round trip
            return Menu(buttons=(Choice("Discard…", opens="discard", style="primary"),))
        if s.phase in ACTING:
            return Menu(buttons=(Choice("End turn", "end", style="danger"),), take_action=True)
        return Menu()

    def submenu(self, view: AnyView, legal: Sequence[Action], key: str) -> Menu:
        """Shown to the clicker only: the cards of their own hand to discard over seven."""
        if key == "discard":
            return discard_menu(self.view_of(view), legal)
        return Menu(title="Nothing to choose here.")


def discard_menu(view: View, legal: Sequence[Action]) -> Menu:
    """The viewer's hand as one select of the cards to discard, as many picks as they are over
    seven: they are then discarded one by one, in the order listed, as one command."""
    s = view.state
    side = view.viewer
    if side is None or s.phase != DISCARD or not any(isinstance(a, A.Discard) for a in legal):
        waiting = f"the {TITLES[s.active]}" if s.phase == DISCARD else "nobody"
        return Menu(title=f"Only a player over seven Tactics cards discards, and now that is {waiting}.")
    return cards.discard_menu(s.hands[side], HAND_LIMIT, "Tactics cards", lambda c: str(A.Discard(c)))


_FRONTS = ((0, "Left Flank"), (1, "Center"), (2, "Right Flank"))
# The status's "then `tactics` to draw your two Tactics cards" names it by what comes before the
# aside on Discord ("then **Done deploying** to draw ..."): what the button does is said once.
DONE_DEPLOYING = "Done deploying (draw 2 Tactics cards)"

GAME = CompanyCommanderGame()

__all__ = ["GAME", "CompanyCommanderGame"]

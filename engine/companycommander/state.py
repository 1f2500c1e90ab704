"""The Company Commander state: every rule of the fragment, our house rules, and seeded dice.

A turn is the six phases of the fragment. Deploy waits for the player (deploy the drawn units, take
the Company Commander's extra card, move units, then `tactics`); the Tactics phase draws by itself and
asks only for discards over seven; Recon, Suppression and Assault follow in that order, a player
moving on simply by acting in a later phase; `end` closes the turn with the Rally phase, whose rolls
are automatic. Nothing is ever owed by the side whose turn it is not (H24), so a game over days never
waits for an answer. House rules are numbered in rules/companycommander.md and cited as (H<n>).

Every die is rolled with `engine.chance` from the match seed and a counter kept here (`n`), so the
seed plus the log replays a game exactly.
"""

from __future__ import annotations

from typing import Any

from engine import chance
from engine.companycommander import actions as A
from engine.companycommander.actions import Action
from engine.companycommander.events import (
    Assaulted,
    CardPlayed,
    Deployed,
    Discarded,
    Effect,
    ExtraDeclined,
    HandSeen,
    Mission,
    Mod,
    Moved,
    Rallied,
    Removed,
    Reshuffled,
    Rolled,
    Shot,
    SquadDrawn,
    TacticsDrawn,
    TurnBegan,
    TurnEnded,
    event_from_json,
)
from engine.companycommander.model import (
    ADJACENT,
    ADJECTIVES,
    EDITION_1_FIRST_TURN_DRAW,
    EDITION_1_SECOND_PLAYER_BONUS,
    FLANK_TURNS,
    FRONT_LETTERS,
    FRONT_NAMES,
    FRONTS,
    HAND_LIMIT,
    LETTERS,
    SECOND_PLAYER_BONUS,
    SIDE_OF_LETTER,
    SIDES,
    SQUAD_DECKS,
    SQUAD_DRAW,
    START_HAND,
    SUPPORT,
    TACTICS,
    TACTICS_DECK,
    TACTICS_DRAW,
    TITLES,
    TYPES,
    VICTORY_LOSSES,
    Options,
    TacticsCard,
    Unit,
    UnitType,
    and_list,
    at_front,
    other,
    plural,
    sort_cards,
)
from engine.errors import IllegalAction
from engine.meta import DrawLapsed, GameEnded, MetaAction, parse_meta, settle, settle_events
from engine.protocol import EndReason, Outcome
from engine.protocol import Event as AnyEvent

DEPLOY, DISCARD, RECON, FIRE, ASSAULT, OVER = "deploy", "discard", "recon", "suppression", "assault", "over"
PHASE_NAMES = {
    DEPLOY: "Deploy",
    DISCARD: "Tactics",
    RECON: "Recon",
    FIRE: "Suppression",
    ASSAULT: "Assault",
    OVER: "",
}
ACTING = (RECON, FIRE, ASSAULT)  # the phases a player leaves simply by acting in a later one

# The fragment's Suppression table (2D6): 2-7 nothing, 8-10 Pinned, 11+ a Casualty.
PIN_AT, CASUALTY_AT = 8, 11
# Our Assault table (H15), on 2D6 plus the modifiers: what each total does.
REPULSED_UPTO, STALLED_UPTO, HIT_UPTO, HIT_PINNED_UPTO = 4, 7, 9, 11
PINNED_TARGET = 2  # assaulting a Pinned unit (H14)
SURPRISE, AMBUSH = 3, 3  # the keyword cards' modifiers (H3)
RALLY_AT = 4  # a Rally roll of this or more removes the Pinned marker (H17)
# The rulings issue 31 changed are edition 2's (model.EDITION): a game reads them from its own
# edition (`State.double_pin` and its neighbours), so a game begun under edition 1 keeps its rules.
REINFORCEMENTS = 2  # Squad cards the Reinforcements card draws
LOOK, MARK = "look", "mark"
_BITS = (0, 1, 1, 2, 1, 2, 2, 3)  # fronts in a 3-bit mask


class State:
    """One game of Company Commander. Build it with `new_game` or `State.from_json`."""

    __slots__ = (
        "_events",
        "_legal",
        "_moved",
        "active",
        "ambush",
        "draw_offer",
        "extra",
        "first",
        "forces",
        "hands",
        "labels",
        "last_log",
        "last_side",
        "log",
        "lost",
        "marks",
        "n",
        "occ",
        "options",
        "phase",
        "result",
        "round",
        "seed",
        "squad",
        "surprise",
        "tactics",
        "tactics_discard",
        "turns",
    )

    def __init__(self, options: Options, seed: int) -> None:
        self.options = options
        self.seed = seed
        self.n = 0  # draws of chance so far
        self.round = 0
        self.turns = 0  # turns begun in the whole game (both sides)
        self.first = SIDES[0]
        self.active = SIDES[0]
        self.phase = DEPLOY
        # Each side's units in play and arriving, by label, in the order drawn.
        self.forces: dict[str, dict[str, Unit]] = {side: {} for side in SIDES}
        self.occ = {side: [0, 0, 0] for side in SIDES}  # deployed units per front, kept as they change
        self.labels = {side: 0 for side in SIDES}  # the last number given to each side's units
        self.squad: dict[str, list[UnitType]] = {side: [] for side in SIDES}  # drawn from the end
        self.tactics: list[TacticsCard] = []  # drawn from the end
        self.tactics_discard: list[TacticsCard] = []
        self.hands: dict[str, list[TacticsCard]] = {side: [] for side in SIDES}
        self.lost = {side: 0 for side in SIDES}  # units destroyed or routed
        self.extra = False  # the Company Commander's extra card is still to be taken this turn
        self.marks = 0  # enemy fronts marked by a Recon success this turn (bits)
        self.ambush = {side: 0 for side in SIDES}  # each side's fronts under Ambush (bits)
        self.surprise = 0  # added to the next Assault roll this turn
        self.log: list[Rolled] = []  # this turn's rolls, for the board
        self.last_log: list[Rolled] = []  # the previous turn's
        self.last_side: str | None = None
        self.draw_offer: str | None = None
        self.result: Outcome | None = None
        self._legal: tuple[str, list[Action]] | None = None
        self._events: list[AnyEvent] = []
        self._moved = False  # a unit came, went or was removed in this action: check the flanks

    # ------------------------------------------------------------------------------ protocol

    def to_act(self) -> frozenset[str]:
        if self.result is not None:
            return frozenset()
        return frozenset((self.active,))

    def outcome(self) -> Outcome | None:
        return self.result

    def is_over(self) -> bool:
        return self.result is not None

    def turn_number(self) -> int:
        return self.round

    def chance_drawn(self) -> int:
        """The protocol's mark of chance drawn: the dice and reshuffles (`n`) weigh most, then the
        Squad cards drawn (the labels given, never reused), then the Tactics cards drawn since the
        last reshuffle (the deck grows back only at a reshuffle, which bumps `n`)."""
        squad = sum(self.labels.values())
        return (self.n * 1000 + squad) * 1000 + (999 - len(self.tactics))

    # -- the rulings that differ by edition (rules/companycommander.md, "Editions")

    @property
    def edition(self) -> int:
        return self.options.edition

    @property
    def double_pin(self) -> bool:
        """(H13) A Suppression Pin on a unit already Pinned is a Casualty instead (edition 2)."""
        return self.options.edition >= 2

    @property
    def ambush_once(self) -> bool:
        """(H3) An Ambush spoils one enemy Assault at its front, then it is spent (edition 2)."""
        return self.options.edition >= 2

    @property
    def pinned_first(self) -> bool:
        """(H15) An Assault goes in against a Pinned unit across, if there is one (edition 2)."""
        return self.options.edition >= 2

    @property
    def extra_optional(self) -> bool:
        """(H19) The Company Commander's extra card may be declined, `extra none` (edition 2)."""
        return self.options.edition >= 2

    @property
    def rally_stands(self) -> bool:
        """(H17) The Company Commander's +1 ends once he routs in the same Rally phase (edition 2)."""
        return self.options.edition >= 2

    def quick_decision(self) -> bool:
        return False  # nothing is ever asked of the side whose turn it is not (H24)

    def default_action(self, side: str) -> Action | None:
        return None

    def view(self, side: str | None) -> Any:
        from engine.companycommander.view import View

        return View(self, side)

    def clone(self) -> State:
        s = State.__new__(State)
        s.options = self.options
        s.seed = self.seed
        s.n = self.n
        s.round = self.round
        s.turns = self.turns
        s.first = self.first
        s.active = self.active
        s.phase = self.phase
        s.forces = {side: {k: u.copy() for k, u in units.items()} for side, units in self.forces.items()}
        s.occ = {k: list(v) for k, v in self.occ.items()}
        s.labels = dict(self.labels)
        s.squad = {k: list(v) for k, v in self.squad.items()}
        s.tactics = list(self.tactics)
        s.tactics_discard = list(self.tactics_discard)
        s.hands = {k: list(v) for k, v in self.hands.items()}
        s.lost = dict(self.lost)
        s.extra = self.extra
        s.marks = self.marks
        s.ambush = dict(self.ambush)
        s.surprise = self.surprise
        s.log = list(self.log)  # events are immutable
        s.last_log = list(self.last_log)
        s.last_side = self.last_side
        s.draw_offer = self.draw_offer
        s.result = self.result
        s._legal = self._legal
        s._events = []
        s._moved = False
        return s

    # ---------------------------------------------------------------------------- questions

    def at(self, side: str, front: int) -> list[Unit]:
        """`side`'s units deployed at `front`, in the order they were drawn."""
        return [u for u in self.forces[side].values() if u.front == front]

    def arriving(self, side: str) -> list[Unit]:
        """`side`'s units drawn this turn and not yet deployed."""
        return [u for u in self.forces[side].values() if u.front < 0]

    def in_play(self, side: str) -> list[Unit]:
        return [u for u in self.forces[side].values() if u.front >= 0]

    def unit(self, label: str) -> Unit | None:
        """The unit called `label` if it is in play (or arriving)."""
        side = SIDE_OF_LETTER.get(label[:1])
        return self.forces[side].get(label) if side else None

    def fronts_held(self, side: str) -> int:
        """How many fronts hold at least one of `side`'s deployed units."""
        return _BITS[self.held(side)]

    def held(self, side: str) -> int:
        """The fronts holding at least one of `side`'s deployed units (bits)."""
        c = self.occ[side]
        return (c[0] > 0) | (c[1] > 0) << 1 | (c[2] > 0) << 2

    def commander(self, side: str) -> Unit | None:
        for u in self.forces[side].values():
            if u.type.commander:
                return u
        return None

    def enemy_at(self, side: str, front: int) -> bool:
        """Whether the enemy of `side` has a unit at `front` (the front across from `side`'s)."""
        return self.occ[other(side)][front] > 0

    def assault_targets(self, u: Unit) -> list[Unit]:
        """(H15) The enemy units an Assault by `u` may fall on, one drawn at random: the Pinned ones
        across, if any (the attack goes in where the fire has pinned the enemy down), else all."""
        across = [t for t in self.forces[other(u.side)].values() if t.front == u.front]
        if self.pinned_first:
            pinned = [t for t in across if t.pinned]
            if pinned:
                return pinned
        return across

    def tactics_left(self) -> int:
        return len(self.tactics) + len(self.tactics_discard)

    # -------------------------------------------------------------------------- legal actions

    def legal_actions(self, side: str | None = None) -> list[Action]:
        if self.result is not None:
            return []
        if side is None:
            side = self.active
        if side != self.active:
            return []
        if self._legal is not None and self._legal[0] == side:
            return self._legal[1]
        out = self._generate(side)
        self._legal = (side, out)
        return out

    def _generate(self, side: str) -> list[Action]:
        if self.phase == DISCARD:
            return [A.discard(c) for c in dict.fromkeys(self.hands[side])]
        out: list[Action] = []
        mine = list(self.forces[side].values())
        enemy = self.held(other(side))
        if self.phase == DEPLOY:
            if self._extra_open(side):
                if self.squad[side]:
                    out.append(A.EXTRA_SQUAD)
                if self.tactics_left():
                    out.append(A.EXTRA_TACTICS)
                if self.extra_optional:
                    out.append(A.EXTRA_NONE)  # the text: you *may* draw it (issue 31)
            waiting = False
            for u in mine:
                if u.front < 0:
                    waiting = True
                    out.extend(A.deploys(u.label))
            for u in mine:
                if u.front >= 0 and not (u.fresh or u.pinned or u.moved):
                    out.extend(A.moves(u.label, u.front))
            out.extend(self._card_plays(side, mine, enemy))
            if not waiting and not self._extra_open(side):
                out.append(A.DRAW)
            return out
        out.extend(self._card_plays(side, mine, enemy))
        ready = [u for u in mine if u.ready and enemy >> u.front & 1]
        if self.phase == RECON:
            for u in ready:
                if u.type.recon:
                    out.extend(A.recons(u.label))
        if self.phase != ASSAULT:
            out.extend(A.fire(u.label) for u in ready if u.type.fires)
        out.extend(A.assault(u.label) for u in ready)
        out.append(A.END)
        return out

    def _card_plays(self, side: str, mine: list[Unit], enemy: int) -> list[Action]:
        """The Tactics cards `side` may play now (H4), each with every target it may name."""
        out: list[Action] = []
        hand = self.hands[side]
        if not hand:
            return out
        pinned = 0
        held = 0
        for u in mine:
            if u.front >= 0:
                held |= 1 << u.front
                if u.pinned:
                    pinned |= 1 << u.front
        for c in dict.fromkeys(hand):
            code = c.code
            if c.kind == SUPPORT:
                if self.phase in (RECON, FIRE):
                    out.extend(A.play(c, front=f) for f in FRONTS if enemy >> f & 1)
            elif code == "surprise":
                if self.phase in ACTING and not self.surprise and self._can_assault(mine, enemy):
                    out.append(A.play(c))
            elif code == "reinforcements":
                if self.phase == DEPLOY and self.squad[side]:
                    out.append(A.play(c))
            elif code == "rally":
                out.extend(A.play(c, front=f) for f in FRONTS if pinned >> f & 1)
            elif code == "ambush":
                taken = self.ambush[side]
                out.extend(A.play(c, front=f) for f in FRONTS if held >> f & 1 and not taken >> f & 1)
            elif code == "medic":
                out.extend(A.play(c, unit=u.label) for u in mine if u.cas and u.front >= 0)
        return out

    def _extra_open(self, side: str) -> bool:
        """Whether the Company Commander's extra card is still to be taken, and there is one."""
        return self.extra and bool(self.squad[side] or self.tactics_left())

    @staticmethod
    def _can_assault(mine: list[Unit], enemy: int) -> bool:
        return any(u.ready and enemy >> u.front & 1 for u in mine)

    # ---------------------------------------------------------------------------------- apply

    def apply(self, action: Any, side: str | None = None) -> list[AnyEvent]:
        if isinstance(action, str):
            action = parse_meta(action) or A.parse(action)
        if isinstance(action, MetaAction):
            if side is None:
                raise IllegalAction(f"'{action}' needs to know which side sends it.")
            return self._apply_meta(action, side)
        if not isinstance(action, Action):
            raise IllegalAction(f"'{action}' is not a Company Commander action.")
        if side is None:
            side = self.active
        if side not in SIDES:
            raise IllegalAction(f"'{side}' is not a side: the sides are the Americans and the Germans.")
        if self.result is not None:
            raise IllegalAction("The game is over.")
        legal = self.legal_actions(side)
        listed = _listed(action, legal)
        if listed is None:
            try:
                why = self._refusal(action, side)
            except (AssertionError, IndexError, KeyError, ValueError):
                # an action built in code with fields no notation gives (a card played with a front
                # it takes none of): it is refused all the same, in plainer words (issue 22)
                why = f"'{action}' is not a legal action now."
            raise IllegalAction(why, self._hints(action, legal))
        action = listed  # the listed action itself: its fields are the ones its notation says
        self._legal = None
        self._events = events = list[AnyEvent]()
        if isinstance(action, A.Deploy):
            u = self.forces[side][action.unit]
            u.front = action.front
            self.occ[side][action.front] += 1
            events.append(Deployed(side, u.label, u.type.key, action.front))
        elif isinstance(action, A.Move):
            u = self.forces[side][action.unit]
            events.append(Moved(side, u.label, u.type.key, u.front, action.front))
            self.occ[side][u.front] -= 1
            self.occ[side][action.front] += 1
            u.front = action.front
            u.moved = True
        elif isinstance(action, A.Extra):
            self.extra = False
            if action.deck == "squad":
                self._draw_squad(side, 1, "extra")
            elif action.deck == "tactics":
                self._draw_tactics(side, 1, "extra")
            else:
                events.append(ExtraDeclined(side))
        elif isinstance(action, A.Draw):
            self.extra = False
            self._tactics_phase(side)
        elif isinstance(action, A.Discard):
            self.hands[side].remove(action.card)
            self.tactics_discard.append(action.card)
            events.append(Discarded(side, action.card.code))
            if len(self.hands[side]) <= HAND_LIMIT:
                self.phase = RECON
        elif isinstance(action, A.Recon):
            self._recon(self.forces[side][action.unit], action.choice)
        elif isinstance(action, A.Fire):
            self.phase = FIRE
            u = self.forces[side][action.unit]
            u.acted = True
            mods: tuple[Mod, ...] = ((u.type.short, u.type.fire_bonus),) if u.type.fire_bonus else ()
            self._suppress(side, u.front, u.label, u.type.key, mods)
        elif isinstance(action, A.Play):
            self._play(side, action)
        elif isinstance(action, A.Assault):
            self.phase = ASSAULT
            self._assault(self.forces[side][action.unit])
        elif isinstance(action, A.End):
            self._end_turn(side)
        if self._moved or isinstance(action, A.Deploy | A.Move):
            self._moved = False
            self._check_flanks(self.turns - 1)
        self._events = []
        return events

    # ---------------------------------------------------------------------------- refusals

    def _refusal(self, action: Action, side: str) -> str:
        """Why `action` is not legal for `side` now, in a player's words."""
        if side != self.active:
            return f"It is not your turn: it is {self.waiting_words()}."
        unit = self.unit(getattr(action, "unit", None) or "")
        label = getattr(action, "unit", None)
        if label and unit is None and not (isinstance(action, A.Play) and action.unit is None):
            return f"There is no unit {label} in play."
        if unit is not None and unit.side != side:
            return f"{label} is not yours: it is {unit.words()}."
        if self.phase == DISCARD:
            extra = len(self.hands[side]) - HAND_LIMIT
            if isinstance(action, A.Discard):
                return f"You hold no {action.card.name} card."
            return f"You hold {len(self.hands[side])} Tactics cards: discard {extra} first (seven at most)."
        if isinstance(action, A.Discard):
            return "You discard only when you hold more than seven Tactics cards after the Tactics phase."
        if isinstance(action, A.Extra):
            if self.phase != DEPLOY or not self._extra_open(side):
                # first whether there is a card on offer at all: the edition matters only then
                if action.deck == "none":
                    return (
                        "There is no extra card to decline now: your Company Commander's extra card "
                        "comes in the Deploy phase, once a turn, when he was in play at its start."
                    )
                return (
                    "Your Company Commander's extra card is taken in the Deploy phase, once a turn, "
                    "when he was in play at its start."
                )
            # Only the decks that still hold a card are offered (a Squad deck may run out, H20).
            decks = [d for d, left in (("squad", self.squad[side]), ("tactics", self.tactics_left())) if left]
            if action.deck == "none" and not self.extra_optional:
                return (
                    "This game began under the first edition of our rules, in which the Company "
                    f"Commander's extra card is always taken: {' or '.join(f'`extra {d}`' for d in decks)}."
                )
            # The Tactics deck is shared: it is empty only with its discard pile (H21).
            why = (
                "Your Squad deck is empty"
                if action.deck == "squad"
                else "The Tactics deck and its discard pile are empty"
            )
            take = f"a {decks[0].title()} card (`extra {decks[0]}`)"
            without = " or go without it (`extra none`)" if self.extra_optional else ""
            return f"{why}: take {take}{without}."
        if isinstance(action, A.Play):
            return self._play_refusal(action, side)
        if self.phase == DEPLOY:
            waiting = self.arriving(side)
            if isinstance(action, A.Deploy):
                assert unit is not None
                where = at_front(unit.front)
                return f"{unit.label} is already deployed, {where}: use `move` to shift it."
            if isinstance(action, A.Move):
                assert unit is not None
                return _move_refusal(unit, action.front)
            if waiting:
                names = and_list([u.label for u in waiting])
                return f"Deploy your new units first ({names}): `deploy {waiting[0].label} C`."
            if self._extra_open(side):
                if not self.extra_optional:
                    return "Take your Company Commander's extra card first: `extra squad` or `extra tactics`."
                return (
                    "Take or decline your Company Commander's extra card first: `extra squad`, "
                    "`extra tactics` or `extra none`."
                )
            if isinstance(action, A.Draw):
                return "You are ready: `tactics` ends the Deploy phase."
            return "Finish the Deploy phase first: `tactics` (it draws your two Tactics cards)."
        if isinstance(action, A.Deploy | A.Move | A.Draw):
            return f"The Deploy phase is over: this is the {PHASE_NAMES[self.phase]} phase."
        assert unit is not None or isinstance(action, A.End)
        if isinstance(action, A.Recon | A.Fire | A.Assault):
            assert unit is not None
            # What the unit is first, then the phase, then what it did this turn, then the enemy
            # across: the first reason that holds is the one a player can act on (issue 31: a unit
            # deployed this turn acts at once, H8, so "new" is never a reason).
            if isinstance(action, A.Recon):
                if not unit.type.recon:
                    return (
                        f"{unit.label}, {_a(unit.type.name)}, is not a Recon unit: only Scout teams go on "
                        "Recon missions."
                    )
                if self.phase != RECON:
                    return f"The Recon phase is over: this is the {PHASE_NAMES[self.phase]} phase."
            if isinstance(action, A.Fire):
                if not unit.type.fires:
                    return (
                        f"{unit.label}, {_a(unit.type.name)}, has no long-range fire: only artillery "
                        "observers, mortars, tanks and machine guns fire in the Suppression phase."
                    )
                if self.phase == ASSAULT:
                    return "The Suppression phase is over: this is the Assault phase."
            busy = _busy_words(unit)
            if busy:
                return busy
            if not self.enemy_at(side, unit.front):
                where = at_front(unit.front)
                return f"The enemy has no unit {where}, the front across from {unit.label}."
        return f"'{action}' cannot be played now."

    def _play_refusal(self, action: A.Play, side: str) -> str:
        c = action.card
        if c not in self.hands[side]:
            return f"You hold no {c.name} card."
        if c.kind == SUPPORT:
            if self.phase not in (RECON, FIRE):
                now = PHASE_NAMES[self.phase]
                why = (
                    f"Support cards are played in the Recon or Suppression phase, and this is the {now} phase"
                )
                if self.phase == ASSAULT:
                    return f"{why} (an assault or a Surprise Attack ends the Suppression phase)."
                return f"{why}."
            assert action.front is not None
            where = at_front(action.front)
            return f"The enemy has no unit {where}: a Support card needs a target there."
        if c.code == "reinforcements":
            if self.phase != DEPLOY:
                return "Reinforcements are played in your Deploy phase."
            return "Your Squad deck is empty: there is nobody left to reinforce you."
        if c.code == "surprise":
            if self.surprise:
                return "A Surprise Attack is already waiting for your next assault."
            if self.phase not in ACTING:
                return "Surprise Attack is played once the Deploy phase is over, before an assault."
            return self._none_assaults(side)
        if c.code == "rally":
            assert action.front is not None
            return f"None of your units {at_front(action.front)} is Pinned."
        if c.code == "ambush":
            assert action.front is not None
            if self.ambush[side] >> action.front & 1:
                return f"Your {FRONT_NAMES[action.front]} is already under an Ambush."
            return f"You have no unit {at_front(action.front)} to lay an Ambush."
        if c.code == "medic":
            unit = self.unit(action.unit or "")
            if unit is None or unit.side != side:
                return f"There is no unit {action.unit} of yours in play."
            return f"{unit.label} has no Casualty marker to remove."
        return f"'{action}' cannot be played now."

    def _none_assaults(self, side: str) -> str:
        """Why a Surprise Attack has no assault to add to: each unit of `side` in play and what keeps
        it from assaulting (as `_can_assault` checks it), read only from what the player may know,
        their own units and the enemy's units on the public board."""
        if not self.in_play(side):
            return (
                "A Surprise Attack needs a unit of yours on the board to assault, and you have none "
                "there. Keep the card for a later turn."
            )
        why: dict[str, list[str]] = {"pinned": [], "moved": [], "acted": [], "alone": []}
        for u in sorted(self.in_play(side), key=lambda u: int(u.label[1:])):
            if u.pinned:
                why["pinned"].append(u.label)
            elif u.moved:
                why["moved"].append(u.label)
            elif u.acted:
                why["acted"].append(u.label)
            elif not self.enemy_at(side, u.front):
                why["alone"].append(u.label)
        parts = []
        if why["pinned"]:
            parts.append(f"{and_list(why['pinned'])} {'is' if len(why['pinned']) == 1 else 'are'} Pinned")
        if why["moved"]:
            parts.append(f"{and_list(why['moved'])} moved this turn")
        if why["acted"]:
            have = "has" if len(why["acted"]) == 1 else "have"
            parts.append(f"{and_list(why['acted'])} {have} already acted this turn")
        if why["alone"]:
            alone = why["alone"]
            across = alone[0] if len(alone) == 1 else ", ".join(alone[:-1]) + " or " + alone[-1]
            parts.append(f"the enemy has no unit across from {across}")
        return (
            f"A Surprise Attack needs a unit of yours that can assault, and none can now: "
            f"{and_list(parts)}. Keep the card for a later turn: it stays in your hand."
        )

    def _hints(self, action: Action, legal: list[Action]) -> list[Action]:
        related = [a for a in legal if type(a) is type(action)]
        pool = related or [a for a in legal if not isinstance(a, A.End | A.Draw)] or legal
        return pool[:5]

    # ------------------------------------------------------------------------------ turns

    def begin(self, side: str) -> None:
        """Start `side`'s turn: the Deploy phase draws its three Squad cards."""
        if self.turns:
            self.last_log, self.last_side = self.log, self.active
        self.log = []
        self.active = side
        self.turns += 1
        if side == self.first:
            self.round += 1
        for u in self.forces[side].values():
            u.fresh = u.moved = u.acted = False
        self.ambush[side] = 0  # an Ambush lasts until its side's next turn
        self.marks = 0
        self.surprise = 0
        self.phase = DEPLOY
        self._events.append(TurnBegan(side, self.round))
        cc = self.commander(side)
        self.extra = cc is not None and cc.front >= 0 and bool(self.squad[side] or self.tactics_left())
        first = self.turns == 1 and self.options.edition == 1
        self._draw_squad(side, EDITION_1_FIRST_TURN_DRAW if first else SQUAD_DRAW, "deploy")
        self._check_annihilation()

    def _tactics_phase(self, side: str) -> None:
        self._draw_tactics(side, TACTICS_DRAW, "tactics")
        self.phase = DISCARD if len(self.hands[side]) > HAND_LIMIT else RECON

    def _end_turn(self, side: str) -> None:
        self._rally(side)
        if self.result is not None:
            return
        self._events.append(TurnEnded(side))
        self._check_flanks(self.turns)
        if self.result is not None:
            return
        if self.draw_offer == other(side):  # playing on turns the offer down (as in the other games)
            self.draw_offer = None
            self._events.append(DrawLapsed(other(side), TITLES[other(side)]))
        limit = self.options.turn_limit
        if limit and side != self.first and self.round >= limit:
            self._turn_limit(limit)
            return
        self.begin(other(side))

    def _turn_limit(self, limit: int) -> None:
        """(H23) The last round is over: more enemy units destroyed or routed wins; equal draws."""
        a, g = SIDES
        took = {a: self.lost[g], g: self.lost[a]}
        head = f"turn limit of {plural(limit, 'round')} reached"
        if took[a] == took[g]:
            units = plural(took[a], "enemy unit")
            self._finish(Outcome(None, EndReason.TURN_LIMIT, f"{head} with {units} put out by each side"))
            return
        winner = a if took[a] > took[g] else g
        # A winner by a rule of ours, not of the text: the result says so.
        score = f"{max(took.values())} to {min(took.values())}"
        why = f"{head}: by our rule H23 the side that put out more enemy units wins, {score}"
        self._finish(Outcome(winner, EndReason.TURN_LIMIT, why))

    # ------------------------------------------------------------------------------ decks

    def _rng(self) -> Any:
        r = chance.rng(self.seed, self.n)
        self.n += 1
        return r

    def _draw_squad(self, side: str, k: int, source: str) -> None:
        pile = self.squad[side]
        drawn: list[tuple[str, str]] = []
        for _ in range(k):
            if not pile:
                break  # (H20) no reshuffle: the company is what it is
            utype = pile.pop()
            self.labels[side] += 1
            label = f"{LETTERS[side]}{self.labels[side]}"
            self.forces[side][label] = Unit(label, utype)
            drawn.append((label, utype.key))
        self._events.append(SquadDrawn(side, tuple(drawn), source, k))

    def _draw_tactics(self, side: str, k: int, source: str) -> None:
        got: list[TacticsCard] = []
        for _ in range(k):
            if not self.tactics:
                if not self.tactics_discard:
                    break
                self._events.append(Reshuffled(len(self.tactics_discard)))
                self.tactics = chance.shuffled(self.tactics_discard, self.seed, self.n)
                self.n += 1
                self.tactics_discard = []
            got.append(self.tactics.pop())
        self.hands[side] = sort_cards(self.hands[side] + got)
        self._events.append(TacticsDrawn(side, tuple(c.code for c in sort_cards(got)), len(got), source))

    # ------------------------------------------------------------------------------ combat

    def _recon(self, u: Unit, choice: str) -> None:
        u.acted = True
        roll = self._rng().randint(1, 6)
        side = u.side
        mission = Mission(side, u.label, u.type.key, u.front, roll, choice)
        self._record(mission)
        if roll <= 2:  # spotted: one Suppression roll against the Recon unit itself
            r = self._rng()
            dice = (r.randint(1, 6), r.randint(1, 6))
            effects = self._hit(u, sum(dice))
            self._record(Shot(other(side), "spotted", "", u.front, dice, (), effects))
            self._removals(effects)
        elif roll >= 5:
            if choice == MARK:
                self.marks |= 1 << u.front
            else:
                them = other(side)
                cards = tuple(c.code for c in self.hands[them])
                self._events.append(HandSeen(side, them, cards, len(cards)))

    def _suppress(self, side: str, front: int, source: str, stype: str, mods: tuple[Mod, ...]) -> None:
        """One Suppression roll by `side` against the enemy's `front`: the fragment's table."""
        them = other(side)
        targets = [u for u in self.forces[them].values() if u.front == front]
        if not targets:
            self._record(Shot(side, source, stype, front, (), (), (), empty=True))
            return
        if self.marks >> front & 1:
            mods = (*mods, ("Recon", 1))
        r = self._rng()
        dice = (r.randint(1, 6), r.randint(1, 6))
        total = sum(dice) + sum(m for _, m in mods)
        effects: tuple[Effect, ...] = ()
        if total >= PIN_AT:
            effects = self._hit(r.choice(targets), total)
        self._record(Shot(side, source, stype, front, dice, mods, effects))
        self._removals(effects)

    def _hit(self, u: Unit, total: int) -> tuple[Effect, ...]:
        """A Suppression result on `u` (H13: a second Pin is a Casualty; in edition 1 it did nothing)."""
        if total >= CASUALTY_AT:
            return (self._casualty(u),)
        if total >= PIN_AT:
            if u.pinned:
                if self.double_pin:  # (H13) pinned again: the designer's "double whammy"
                    effect = self._casualty(u)
                    return ((u.label, u.type.key, "repinned" if effect[2] == "casualty" else effect[2]),)
                return ((u.label, u.type.key, "already"),)
            u.pinned = True
            return ((u.label, u.type.key, "pinned"),)
        return ()

    def _casualty(self, u: Unit, *, pin: bool = False) -> Effect:
        u.cas += 1
        if u.cas >= u.type.strength:
            return (u.label, u.type.key, "destroyed")
        if pin:
            u.pinned = True
            return (u.label, u.type.key, "casualty_pinned")
        return (u.label, u.type.key, "casualty")

    def _assault(self, u: Unit) -> None:
        """(H15) One unit assaults a random enemy unit at the front across: 2D6 and our table."""
        u.acted = True
        side, them = u.side, other(u.side)
        targets = self.assault_targets(u)
        r = self._rng()  # the dice first, then the target: the order of every roll in this game
        dice = (r.randint(1, 6), r.randint(1, 6))
        t = r.choice(targets)
        mods: list[Mod] = []
        diff = u.left - t.left
        if diff:
            mods.append((f"Strength {u.left} against {t.left}", diff))
        if t.pinned:
            mods.append(("Pinned target", PINNED_TARGET))
        if u.type.assault_bonus:
            mods.append((u.type.name, u.type.assault_bonus))
        if self.surprise:
            mods.append(("Surprise Attack", self.surprise))
            self.surprise = 0
        if self.ambush[them] >> t.front & 1:
            mods.append(("Ambush", -AMBUSH))
            if self.ambush_once:  # (H3) one fight, as the designer's Ambush card
                self.ambush[them] &= ~(1 << t.front)
        total = sum(dice) + sum(m for _, m in mods)
        if total <= REPULSED_UPTO:
            result, effects = "repulsed", (self._casualty(u),)
        elif total <= STALLED_UPTO:
            u.pinned = True
            result, effects = "stalled", ((u.label, u.type.key, "pinned"),)
        elif total <= HIT_UPTO:
            result, effects = "hit", (self._casualty(t),)
        elif total <= HIT_PINNED_UPTO:
            result, effects = "hit_pinned", (self._casualty(t, pin=True),)
        else:
            result, effects = "routed", ((t.label, t.type.key, "routed"),)
        self._record(
            Assaulted(
                side, u.label, u.type.key, t.label, t.type.key, u.front, dice, tuple(mods), result, effects
            )
        )
        self._removals(effects)

    def _rally(self, side: str) -> None:
        """(H17) The Rally phase: each Pinned unit of `side` rolls 1D6, +1 beside its Company
        Commander: 4 or more rallies; a 1 routs a unit that has a Casualty marker."""
        cc = self.commander(side)
        for u in [u for u in self.forces[side].values() if u.pinned]:
            mods: tuple[Mod, ...] = ()
            if self.rally_stands and cc is not None and cc.label not in self.forces[side]:
                cc = None  # he routed earlier in this Rally phase: he no longer stands there (H17)
            if cc is not None and cc is not u and cc.front == u.front and cc.front >= 0:
                mods = (("Company Commander", 1),)
            roll = self._rng().randint(1, 6)
            if roll + sum(m for _, m in mods) >= RALLY_AT:
                u.pinned = False
                result = "rallied"
            elif roll == 1 and u.cas:
                result = "routed"
            else:
                result = "pinned"
            self._record(Rallied(side, u.label, u.type.key, roll, mods, result))
            if result == "routed":
                self._remove(u, "routed")
                if self.result is not None:
                    return

    def _removals(self, effects: tuple[Effect, ...]) -> None:
        for label, _, what in effects:
            if what in ("destroyed", "routed") and self.result is None:
                self._remove(self.forces[SIDE_OF_LETTER[label[0]]][label], what)

    def _remove(self, u: Unit, how: str) -> None:
        del self.forces[u.side][u.label]
        self._moved = True
        if u.front >= 0:
            self.occ[u.side][u.front] -= 1
        self.lost[u.side] += 1
        self._events.append(Removed(u.side, u.label, u.type.key, how, self.lost[u.side]))
        if self.lost[u.side] >= VICTORY_LOSSES:
            self._finish(
                Outcome(
                    other(u.side),
                    EndReason.OBJECTIVE,
                    f"{VICTORY_LOSSES} {ADJECTIVES[u.side]} units destroyed or routed",
                )
            )
        else:
            self._check_annihilation()

    def _record(self, event: Rolled) -> None:
        self._events.append(event)
        self.log.append(event)

    # ------------------------------------------------------------------------------ cards

    def _play(self, side: str, action: A.Play) -> None:
        c = action.card
        self.hands[side].remove(c)
        self.tactics_discard.append(c)
        if c.kind == SUPPORT:
            assert action.front is not None
            self.phase = FIRE
            self._events.append(CardPlayed(side, c.code, action.front))
            for _ in range(c.rolls):
                if self.result is not None:
                    return
                self._suppress(side, action.front, c.code, c.code, ())
            return
        if c.code == "surprise":
            self.phase = ASSAULT
            self.surprise = SURPRISE
            self._events.append(
                CardPlayed(side, c.code, effect=f"+{SURPRISE} to their next Assault roll this turn")
            )
        elif c.code == "ambush":
            assert action.front is not None
            self.ambush[side] |= 1 << action.front
            self._events.append(
                CardPlayed(
                    side,
                    c.code,
                    action.front,
                    effect=f"the next enemy Assault there is at −{AMBUSH}, before their next turn"
                    if self.ambush_once  # (H3; edition 1: every one until then)
                    else f"every enemy Assault there is at −{AMBUSH} until their next turn",
                )
            )
        elif c.code == "rally":
            assert action.front is not None
            freed = [u for u in self.at(side, action.front) if u.pinned]
            for u in freed:
                u.pinned = False
            names = and_list([u.label for u in freed])
            self._events.append(
                CardPlayed(
                    side,
                    c.code,
                    action.front,
                    effect=f"{names} {'is' if len(freed) == 1 else 'are'} no longer Pinned",
                )
            )
        elif c.code == "medic":
            u = self.forces[side][action.unit or ""]
            u.cas -= 1
            self._events.append(
                CardPlayed(
                    side,
                    c.code,
                    unit=u.label,
                    utype=u.type.key,
                    effect=f"one Casualty marker removed ({u.cas} left)",
                )
            )
        elif c.code == "reinforcements":
            self._events.append(CardPlayed(side, c.code))
            self._draw_squad(side, REINFORCEMENTS, "reinforcements")

    # ------------------------------------------------------------------------------ ending

    def _check_flanks(self, completed: int) -> None:
        """(The fragment, H18) Once each side has had two turns (`completed` turns played in all),
        units at all three fronts against enemy units at one front or none win at once."""
        if self.result is not None or completed < 2 * FLANK_TURNS:
            return
        for side in (self.active, other(self.active)):
            theirs = _BITS[self.held(other(side))]
            if self.held(side) == 7 and theirs <= 1:
                where = "one front" if theirs == 1 else "no front"
                self._finish(
                    Outcome(
                        side,
                        EndReason.OBJECTIVE,
                        f"the {TITLES[side]} hold all three fronts and the {TITLES[other(side)]} {where}",
                    )
                )
                return

    def _check_annihilation(self) -> None:
        """(H20) A side with no unit left and no Squad card to draw has lost its company."""
        if self.result is not None:
            return
        for side in SIDES:
            if not self.squad[side] and not self.forces[side]:
                self._finish(
                    Outcome(
                        other(side),
                        EndReason.ANNIHILATION,
                        f"the {TITLES[side]} have no unit left to fight with",
                    )
                )
                return

    def _finish(self, outcome: Outcome) -> None:
        self.result = outcome
        self.phase = OVER
        self.draw_offer = None
        self._legal = None
        self._events.append(GameEnded.of(outcome, lambda s: TITLES[s]))

    def _apply_meta(self, action: MetaAction, side: str) -> list[AnyEvent]:
        if side not in SIDES:
            raise IllegalAction(f"'{side}' is not a side: the sides are the Americans and the Germans.")
        done = settle(
            action, side, other(side), self.draw_offer, lambda s: TITLES[s], over=self.result is not None
        )
        self._legal = None
        self.draw_offer = done.draw_offer
        events: list[AnyEvent] = list(settle_events(done, side, lambda s: TITLES[s]))
        if done.outcome is not None:
            self.result = done.outcome
            self.phase = OVER
        return events

    # ------------------------------------------------------------------------------ words

    def waiting_words(self) -> str:
        return f"the {TITLES[self.active]}' {PHASE_NAMES[self.phase]} phase"

    # -------------------------------------------------------------------------------- JSON

    def to_json(self) -> dict[str, Any]:
        return {
            "options": self.options.to_json(),
            "seed": self.seed,
            "n": self.n,
            "round": self.round,
            "turns": self.turns,
            "first": self.first,
            "active": self.active,
            "phase": self.phase,
            "units": [
                [u.label, u.type.key, u.front, u.cas, int(u.pinned), int(u.fresh), int(u.moved), int(u.acted)]
                for side in SIDES
                for u in self.forces[side].values()
            ],
            "labels": dict(self.labels),
            "squad": {side: [t.key for t in self.squad[side]] for side in SIDES},
            "tactics": [c.code for c in self.tactics],
            "tactics_discard": [c.code for c in self.tactics_discard],
            "hands": {side: [c.code for c in self.hands[side]] for side in SIDES},
            "lost": dict(self.lost),
            "extra": self.extra,
            "marks": self.marks,
            "ambush": dict(self.ambush),
            "surprise": self.surprise,
            "log": [e.to_json() for e in self.log],
            "last_log": [e.to_json() for e in self.last_log],
            "last_side": self.last_side,
            "draw_offer": self.draw_offer,
            "result": self.result.to_json() if self.result else None,
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> State:
        s = State(Options.from_json(data["options"]), int(data["seed"]))
        s.n = int(data["n"])
        s.round = int(data["round"])
        s.turns = int(data["turns"])
        s.first = data["first"]
        s.active = data["active"]
        s.phase = data["phase"]
        for label, key, front, cas, pinned, fresh, moved, acted in data["units"]:
            u = Unit(label, TYPES[key], int(front))
            u.cas, u.pinned, u.fresh, u.moved, u.acted = (
                int(cas),
                bool(pinned),
                bool(fresh),
                bool(moved),
                bool(acted),
            )
            s.forces[u.side][label] = u
            if u.front >= 0:
                s.occ[u.side][u.front] += 1
        s.labels = {side: int(n) for side, n in data["labels"].items()}
        s.squad = {side: [TYPES[k] for k in data["squad"][side]] for side in SIDES}
        s.tactics = [TACTICS[c] for c in data["tactics"]]
        s.tactics_discard = [TACTICS[c] for c in data["tactics_discard"]]
        s.hands = {side: [TACTICS[c] for c in data["hands"][side]] for side in SIDES}
        s.lost = {side: int(n) for side, n in data["lost"].items()}
        s.extra = bool(data["extra"])
        s.marks = int(data["marks"])
        s.ambush = {side: int(n) for side, n in data["ambush"].items()}
        s.surprise = int(data["surprise"])
        s.log = [_rolled(e) for e in data["log"]]
        s.last_log = [_rolled(e) for e in data["last_log"]]
        s.last_side = data["last_side"]
        s.draw_offer = data["draw_offer"]
        r = data["result"]
        s.result = Outcome.from_json(r) if r else None
        return s


def _listed(action: Action, legal: list[Action]) -> Action | None:
    """The action of `legal` that `action` is: by identity first (generated actions are interned,
    and a list's `in` would call `__eq__` on every action before it), then by notation, with the
    type and every field alike (an action changed after it was made is not the one listed)."""
    for a in legal:
        if a is action:
            return a
    for a in legal:
        if a == action and type(a) is type(action) and _fields(a) == _fields(action):
            return a
    return None


def _fields(action: Action) -> tuple[object, ...]:
    names: tuple[str, ...] = type(action).__slots__
    return tuple(getattr(action, name) for name in names)


def _rolled(data: dict[str, Any]) -> Rolled:
    e = event_from_json(data)
    assert isinstance(e, Rolled)
    return e


def _busy_words(u: Unit) -> str:
    """Why `u` may not go on a mission, fire or assault this turn ('' if it may)."""
    if u.front < 0:
        return f"{u.label} is not deployed yet."
    if u.pinned:
        return f"{u.label} is Pinned: a Pinned unit does nothing until it rallies."
    if u.moved:
        return f"{u.label} moved this turn: a unit that moved may not attack or go on a Recon mission."
    if u.acted:
        return f"{u.label} has already acted this turn (one mission, fire or assault a turn)."
    return ""


def _a(name: str) -> str:
    """'a Rifle squad', 'an MG 42 team', 'an HMG team'."""
    return f"{'an' if name[:1] in 'AEIOU' or name.startswith(('MG', 'HMG')) else 'a'} {name}"


def _move_refusal(u: Unit, front: int) -> str:
    if u.front < 0:
        return f"{u.label} is not deployed yet: `deploy {u.label} {FRONT_LETTERS[front]}`."
    if u.fresh:
        return f"{u.label} was deployed this turn: it may move from your next turn."
    if u.pinned:
        return f"{u.label} is Pinned: Pinned units may not move."
    if u.moved:
        return f"{u.label} has moved this turn: one move a turn."
    if front == u.front:
        return f"{u.label} is {at_front(front)} already."
    near = " or ".join(FRONT_NAMES[f] for f in ADJACENT[u.front])
    return f"{u.label} may move only to a neighbouring front: from the {FRONT_NAMES[u.front]}, the {near}."


def new_game(options: Options, seed: int) -> State:
    """A new game: the decks shuffled, the first player drawn at random, the starting hands dealt
    (H5), and the first turn's Deploy phase under way."""
    s = State(options, seed)
    s.tactics = chance.shuffled(TACTICS_DECK, seed, 0)
    for i, side in enumerate(SIDES):
        s.squad[side] = chance.shuffled(SQUAD_DECKS[side], seed, 1 + i)
    s.first = SIDES[chance.roll(seed, 3, 2) - 1]
    s.n = 4
    s._draw_tactics(s.first, START_HAND, "dealt")
    bonus = EDITION_1_SECOND_PLAYER_BONUS if options.edition == 1 else SECOND_PLAYER_BONUS
    s._draw_tactics(other(s.first), START_HAND + bonus, "dealt")
    s.begin(s.first)
    s._events = []
    return s


__all__ = [
    "ACTING",
    "ASSAULT",
    "DEPLOY",
    "DISCARD",
    "FIRE",
    "OVER",
    "PHASE_NAMES",
    "RECON",
    "State",
    "new_game",
]

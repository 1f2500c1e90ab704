"""The Battlefronts state: the round's phases, turns within a phase, reductions and the end.

A round runs attrition, move, support, battle and the check for a win (every round runs them all;
in round 1 only support finds anything to do, R18). Attrition and battle resolve by themselves and
stop only when a side must choose between equally strong battalions (R4). In the move and support
phases the sides take turns (R9): the side on turn makes any number of moves or call-ups, then ends
its turn or passes out of the phase; a side with nothing to do when its turn comes passes by itself.

The only chance is the shuffle of each deck at the start (`engine.chance`, shuffles 0 and 1 of the
match seed). Rulings are numbered as in rules/battlefronts.md and cited here as (R<n>).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine import chance
from engine.battlefronts import actions as A
from engine.battlefronts.events import (
    Battle,
    CalledUp,
    FrontsHeld,
    Jumped,
    Moved,
    MustChoose,
    Passed,
    Reduced,
    RoundBegan,
    TurnEnded,
    Wasted,
)
from engine.battlefronts.model import (
    BATTLE_DIVISOR,
    BLUE,
    FRONTS,
    NEIGHBOURS,
    PLACE_NAMES,
    RED,
    SIDES,
    TITLES,
    WIN_FRONTS,
    ZONES,
    Battalion,
    and_list,
    is_front,
    or_list,
    other,
    parse_label,
    plural,
)
from engine.cards import FULL_PACK, Card
from engine.errors import IllegalAction
from engine.meta import GameEnded, MetaAction, settle, settle_events
from engine.protocol import EndReason, Outcome
from engine.protocol import Event as AnyEvent

ATTRITION, MOVE, SUPPORT, BATTLE, OVER = "attrition", "move", "support", "battle", "over"
DEFAULT_ROUNDS = 30
LISTED_CALL_SIZES = 13  # legal_actions lists call-ups of 1..13 cards; apply accepts any size (R10)


def first_player(round_: int) -> str:
    """The Reds go first in odd rounds, the Blues in even ones (R17)."""
    return RED if round_ % 2 else BLUE


class State:
    """One game of Battlefronts. Mutable: `clone` before trying things; only `apply` changes it."""

    __slots__ = (
        "_events",
        "acted",
        "battalions",
        "called",
        "current",
        "decks",
        "discards",
        "draw_offer",
        "limit",
        "marks",
        "numbers",
        "passed",
        "phase",
        "queue",
        "result",
        "round",
        "seed",
        "waiting",
    )

    def __init__(self, seed: int = 0, limit: int = DEFAULT_ROUNDS) -> None:
        self.seed = seed
        self.limit = limit
        self.round = 1
        self.phase = ATTRITION
        self.current: str | None = None  # whose turn in the move and support phases
        self.passed: list[str] = []  # sides finished with the current phase
        self.acted = 0  # actions the side on turn has taken this turn (R9: `end` needs one)
        self.queue: list[list[Any]] = []  # reductions still owed: [side, place, count, cause]
        self.waiting: str | None = None  # the side that must choose a reduction (R4)
        self.battalions: list[Battalion] = []
        self.numbers = {RED: 0, BLUE: 0}  # the last battalion number each side used
        self.decks: dict[str, list[Card]] = {RED: [], BLUE: []}  # the top is the end of the list
        self.discards: dict[str, list[Card]] = {RED: [], BLUE: []}  # out of the game, face up
        self.called: dict[str, list[int]] = {RED: [], BLUE: []}  # zones called into this round
        self.marks: list[dict[str, Any]] = []  # what happened since the last battle began (public)
        self.result: Outcome | None = None
        self.draw_offer: str | None = None
        self._events: list[AnyEvent] = []

    # ------------------------------------------------------------------ the protocol's questions

    def to_act(self) -> frozenset[str]:
        if self.result is not None:
            return frozenset()
        if self.waiting is not None:
            return frozenset((self.waiting,))
        if self.current is not None:
            return frozenset((self.current,))
        return frozenset()

    def is_over(self) -> bool:
        return self.result is not None

    def outcome(self) -> Outcome | None:
        return self.result

    def turn_number(self) -> int:
        return self.round

    def chance_drawn(self) -> int:
        """The protocol's mark of chance drawn: the cards turned face up so far, by either side (a
        card once seen stays seen: face up on top of its battalion, then discarded face up)."""
        return 2 * len(FULL_PACK) - len(self.unseen(RED)) - len(self.unseen(BLUE))

    def quick_decision(self) -> bool:
        """Formalities answered quickly: choosing between equal battalions in a reduction, and
        passing once a side has done everything it could this phase (R9)."""
        if self.result is not None:
            return False
        return self.waiting is not None or self.spent()

    def spent(self) -> bool:
        """The side on turn has acted and has nothing left to do: only `pass` remains."""
        side = self.current
        return side is not None and self.acted > 0 and not self._can_do_anything(side)

    def default_action(self, side: str) -> A.Action | None:
        if side in self.to_act() and self.quick_decision():
            return self.legal_actions(side)[0]
        return None

    def first(self) -> str:
        return first_player(self.round)

    # ------------------------------------------------------------------ looking things up

    def at(self, side: str, place: int) -> list[Battalion]:
        return [b for b in self.battalions if b.side == side and b.place == place]

    def of(self, side: str) -> list[Battalion]:
        return [b for b in self.battalions if b.side == side]

    def find(self, label: str) -> Battalion | None:
        """The battalion called `label` ('R3'), or None if there is none (any more)."""
        for b in self.battalions:
            if b.label == label:
                return b
        return None

    def total(self, side: str, place: int) -> int:
        return sum(b.strength for b in self.battalions if b.side == side and b.place == place)

    def contested(self, place: int) -> bool:
        sides = {b.side for b in self.battalions if b.place == place}
        return len(sides) == 2

    def held(self, side: str) -> list[int]:
        """The fronts `side` holds alone (uncontested)."""
        mine = {b.place for b in self.battalions if b.side == side}
        theirs = {b.place for b in self.battalions if b.side != side}
        return [f for f in FRONTS if f in mine and f not in theirs]

    def cards_left(self, side: str) -> int:
        """Cards a side still has in play: its battalions and its deck."""
        return len(self.decks[side]) + sum(len(b.cards) for b in self.battalions if b.side == side)

    def tied(self) -> list[Battalion]:
        """The battalions the waiting side may choose between for the next reduction."""
        if self.waiting is None or not self.queue:
            return []
        side, place = self.queue[0][0], self.queue[0][1]
        here = self.at(side, place)
        best = max(b.strength for b in here)
        return [b for b in here if b.strength == best]

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self, side: str | None = None) -> list[A.Action]:
        if self.result is not None:
            return []
        if side is None:
            owed = self.to_act()
            if len(owed) != 1:
                return []
            side = next(iter(owed))
        if self.waiting is not None:
            return [A.reduce(b.label) for b in self.tied()] if side == self.waiting else []
        if side != self.current:
            return []
        out = self._doings(side)
        if out and self.acted and other(side) not in self.passed:
            out.append(A.END)
        out.append(A.PASS)
        return out

    def _doings(self, side: str) -> list[A.Action]:
        """The moves (move phase) or call-ups (support phase) `side` could make now."""
        out: list[A.Action] = []
        if self.phase == MOVE:
            for b in self.battalions:
                if b.side != side or b.moved:
                    continue
                label = b.label
                for n in NEIGHBOURS[b.place]:
                    out.append(A.move(label, n))
                if b.face_led and len(b.cards) > 1:
                    for f in FRONTS:
                        if f != b.place:
                            out.append(A.jump(label, f))
        elif self.phase == SUPPORT:
            deck = len(self.decks[side])
            if deck:
                used = self.called[side]
                most = min(deck, LISTED_CALL_SIZES)
                for z in ZONES:
                    if z not in used:
                        out.extend(A.call(z, n) for n in range(1, most + 1))
        return out

    def _can_do_anything(self, side: str) -> bool:
        if self.phase == MOVE:
            return any(b.side == side and not b.moved for b in self.battalions)
        if self.phase == SUPPORT:
            return bool(self.decks[side]) and len(self.called[side]) < len(ZONES)
        return False

    # ------------------------------------------------------------------ applying actions

    def apply(self, action: Any, side: str) -> list[AnyEvent]:
        if isinstance(action, MetaAction):
            return self._apply_meta(action, side)
        if not isinstance(action, A.Action):
            raise IllegalAction(f"'{action}' is not a Battlefronts action.")
        if self.result is not None:
            raise IllegalAction("The game is over.")
        if side not in SIDES:
            raise IllegalAction(f"'{side}' is not a side in Battlefronts (red or blue).")
        if side not in self.to_act():
            raise IllegalAction(self._not_your_turn(side), self.legal_actions()[:5])
        self._check(action, side)  # raises, leaving the state untouched
        self._events = []
        if isinstance(action, A.Reduce):
            self._choose(action, side)
        elif isinstance(action, A.Move):
            self._move(action, side)
        elif isinstance(action, A.Jump):
            self._jump(action, side)
        elif isinstance(action, A.Call):
            self._call(action, side)
        elif isinstance(action, A.End) and not self.spent():
            self._events.append(TurnEnded(side))
            self._hand_over()
        else:  # pass, or `end` from a side with nothing left to do: the same thing (R9)
            self._events.append(Passed(side, self.phase, ""))
            self.passed.append(side)
            self._hand_over()
        self._advance()
        return self._events

    def _check(self, action: A.Action, side: str) -> None:
        """Raise IllegalAction with the reason and a few legal alternatives, or return."""
        if self._allowed(action, side):
            return
        if isinstance(action, A.Call) and self.phase == SUPPORT and self.waiting is None:
            why = self._call_problem(action, side) or "That is not legal now."
        else:
            why = self._explain(action, side)
        raise IllegalAction(why, _sample(self.legal_actions(side), action))

    def _allowed(self, action: A.Action, side: str) -> bool:
        """The rules for `side` (already known to be owed an action) doing `action`, checked
        directly: what `legal_actions` lists, and call-ups of any size (R10)."""
        if self.waiting is not None:
            return isinstance(action, A.Reduce) and any(b.label == action.unit for b in self.tied())
        if isinstance(action, A.Pass):
            return True
        if isinstance(action, A.End):
            return self.spent() or (self.acted > 0 and other(side) not in self.passed)
        if isinstance(action, A.Move | A.Jump):
            b = self.find(action.unit)
            if self.phase != MOVE or b is None or b.side != side or b.moved:
                return False
            if isinstance(action, A.Move):
                return action.dest in NEIGHBOURS[b.place]
            # a jump lands on a front (R8), never in a travel zone (issue 22: one built in code did)
            return b.face_led and len(b.cards) > 1 and action.dest != b.place and action.dest in FRONTS
        if isinstance(action, A.Call):
            return self.phase == SUPPORT and not self._call_problem(action, side)
        return False

    def _call_problem(self, action: A.Call, side: str) -> str:
        deck = len(self.decks[side])
        if action.zone not in ZONES:  # issue 22: a call-up built in code went straight onto a front
            zones = and_list([PLACE_NAMES[z] for z in ZONES])
            return f"Call-ups go into a travel zone ({zones}), not onto a front."
        if action.size < 1:  # issue 22: a call-up of 0 cards made a battalion of none
            return "A call-up takes at least 1 card."
        if action.zone in self.called[side]:
            free = [PLACE_NAMES[z] for z in ZONES if z not in self.called[side]]
            rest = f" Zones still free: {and_list(free)}." if free else ""
            return f"You have already called up into {PLACE_NAMES[action.zone]} this round.{rest}"
        if deck == 0:
            return "Your deck is empty: you cannot call up any more battalions. Pass to finish."
        if action.size > deck:
            return f"You have only {plural(deck, 'card')} left in your deck; call up at most {deck}."
        return ""

    def _explain(self, action: A.Action, side: str) -> str:
        phase = self.phase
        if self.waiting is not None:
            names = or_list([b.label for b in self.tied()])
            return f"First choose which battalion takes the reduction: reduce {names}."
        if isinstance(action, A.Reduce):
            return "There is no reduction to choose now."
        if isinstance(action, A.Call):
            return f"Call-ups happen in the support phase; this is the {phase} phase."
        if isinstance(action, A.End):
            if other(side) in self.passed:
                return (
                    "Your opponent has finished this phase, so there is no turn to hand over: act, or pass."
                )
            return "Make at least one move or call-up before ending your turn, or pass to finish the phase."
        if isinstance(action, A.Move | A.Jump):
            if phase != MOVE:
                return f"Battalions move in the move phase; this is the {phase} phase."
            b = self.find(action.unit)
            if b is None:
                owner, num = parse_label(action.unit)
                if num <= self.numbers[owner]:  # called up once: names are never reused (R19)
                    return f"{action.unit} has been wiped out: none of its cards is left in the game."
                return f"There is no battalion {action.unit}."
            if b.side != side:
                return f"{action.unit} belongs to the {TITLES[b.side]}."
            if b.moved:
                return f"{action.unit} has already moved this round (a battalion moves once a round)."
            here = PLACE_NAMES[b.place]
            if isinstance(action, A.Move):
                if action.dest == b.place:
                    return f"{action.unit} is already at {here}."
                if action.dest not in NEIGHBOURS[b.place]:
                    near = and_list([PLACE_NAMES[n] for n in NEIGHBOURS[b.place]])
                    head = f"From {here}, {action.unit} can only move to {near}"
                    if not is_front(action.dest):
                        return f"{head}."
                    if b.face_led and len(b.cards) > 1:
                        dest = PLACE_NAMES[action.dest]
                        return (
                            f"{head}; `jump {action.unit} {dest}` would take it there, "
                            f"discarding its {b.cards[-1].label}."
                        )
                    return (
                        f"{head}. (Only a battalion showing a Jack, Queen or King on top, with cards "
                        "beneath it, can jump straight to a front.)"
                    )
            else:
                if not b.up:
                    return f"{action.unit}'s top card is face down: only a face card shown on top may jump."
                if not b.face_led:
                    return f"{action.unit} shows no face card on top (Jack, Queen or King): it cannot jump."
                if len(b.cards) < 2:
                    return f"{action.unit} is a lone face card: jumping would discard the whole battalion."
                if action.dest == b.place:
                    return f"{action.unit} is already at {here}."
                if action.dest not in FRONTS:
                    fronts = and_list([PLACE_NAMES[f] for f in FRONTS])
                    return f"A jump lands on a front ({fronts}), never in a travel zone."
        return "That is not legal now."

    def _not_your_turn(self, side: str) -> str:
        if self.waiting is not None:
            return f"The {TITLES[self.waiting]} must first choose which battalion takes a reduction."
        if self.current is not None:
            phase = self.phase
            if side in self.passed:
                return f"You have finished the {phase} phase; the {TITLES[self.current]} are still acting."
            return f"It is the {TITLES[self.current]}' turn in the {phase} phase."
        return "Nobody is to act now."

    # -- the actions

    def _choose(self, action: A.Reduce, side: str) -> None:
        b = self.find(action.unit)
        assert b is not None
        cause = self.queue[0][3]
        self.waiting = None
        self._reduce(b, cause, chosen=True)
        self._spent()

    def _move(self, action: A.Move, side: str) -> None:
        b = self.find(action.unit)
        assert b is not None
        src = b.place
        b.place = action.dest
        b.moved = True
        revealed = None
        if is_front(action.dest) and not b.up:
            b.up = True  # arriving at a front turns the top card face up (R6)
            revealed = b.cards[-1].code
        self.marks.append({"k": "move", "u": b.label, "side": side, "from": src, "to": action.dest})
        self._events.append(
            Moved(side, b.label, PLACE_NAMES[src], PLACE_NAMES[action.dest], revealed, b.strength)
        )
        self._acted(side)

    def _jump(self, action: A.Jump, side: str) -> None:
        b = self.find(action.unit)
        assert b is not None
        src = b.place
        face = b.cards.pop()
        self.discards[side].append(face)
        b.place = action.dest
        b.moved = True
        b.up = True  # the next card is turned up on arrival (R8)
        self.marks.append(
            {"k": "move", "u": b.label, "side": side, "from": src, "to": action.dest, "jump": face.code}
        )
        self._events.append(
            Jumped(
                side,
                b.label,
                PLACE_NAMES[src],
                PLACE_NAMES[action.dest],
                face.code,
                b.cards[-1].code,
                b.strength,
            )
        )
        self._acted(side)

    def _call(self, action: A.Call, side: str) -> None:
        deck = self.decks[side]
        # Dealt one at a time off the top of the deck: the first card dealt ends at the bottom (R10).
        cards = [deck.pop() for _ in range(action.size)]
        self.numbers[side] += 1
        b = Battalion(side, self.numbers[side], action.zone, cards, up=False)
        self.battalions.append(b)
        self.called[side].append(action.zone)
        self.marks.append({"k": "call", "u": b.label, "side": side, "at": action.zone, "n": action.size})
        self._events.append(CalledUp(side, b.label, PLACE_NAMES[action.zone], action.size))
        self._acted(side)

    def _acted(self, side: str) -> None:
        """One more action this turn. A side that has now done all it can still ends its turn itself
        (its command may end with `pass`); that formality is a quick decision defaulting to pass (R9)."""
        self.acted += 1

    def spent_words(self, side: str) -> str:
        if self.phase == MOVE:
            return "have moved every battalion" if self.of(side) else "have nothing to move"
        if not self.decks[side]:
            return "have no cards left to call up"
        return "have called up into every travel zone"

    def _hand_over(self) -> None:
        """The turn goes to the other side if it is still in the phase (R9)."""
        self.acted = 0
        assert self.current is not None
        nxt = other(self.current)
        self.current = nxt if nxt not in self.passed else self.current

    # ------------------------------------------------------------------ running the round

    def _advance(self) -> None:
        """Play everything that needs nobody's choice, up to the next decision or the end."""
        while self.result is None:
            if self.phase in (ATTRITION, BATTLE):
                if not self._run_queue():
                    return
                if self.phase == ATTRITION:
                    self._start_turns(MOVE)
                else:
                    self._check_for_win()
                    if self.result is None:
                        self._begin_round(self.round + 1)
                continue
            assert self.current is not None
            side = self.current
            if side not in self.passed:
                if self.acted or self._can_do_anything(side):
                    return
                self._events.append(Passed(side, self.phase, self.spent_words(side)))
                self.passed.append(side)
            if other(side) not in self.passed:
                self.current = other(side)
                self.acted = 0
                continue
            self.current = None
            if self.phase == MOVE:
                self._start_turns(SUPPORT)
            else:
                self._start_battle()

    def start(self) -> None:
        """Begin round 1 (its attrition, moves and battle find nothing; R18)."""
        self._begin_round(1)
        self._advance()
        self._events = []

    def _begin_round(self, number: int) -> None:
        self.round = number
        self.called = {RED: [], BLUE: []}
        for b in self.battalions:
            b.moved = False
        first = self.first()
        self._events.append(RoundBegan(number, first))
        self.phase = ATTRITION
        # One reduction for each side at each front contested now (R13, R14, R15).
        self.queue = [
            [s, f, 1, ATTRITION] for f in FRONTS if self.contested(f) for s in (first, other(first))
        ]

    def _start_turns(self, phase: str) -> None:
        self.phase = phase
        self.passed = []
        self.acted = 0
        self.current = self.first()

    def _start_battle(self) -> None:
        """Every contested front fights at once: damage comes from the totals before any loss (R14)."""
        self.phase = BATTLE
        self.marks = []
        first = self.first()
        queue: list[list[Any]] = []
        for f in FRONTS:
            if not self.contested(f):
                continue
            red, blue = self.total(RED, f), self.total(BLUE, f)
            on_red, on_blue = _damage(blue), _damage(red)
            self._events.append(Battle(PLACE_NAMES[f], red, blue, on_red, on_blue))
            self.marks.append(
                {"k": "battle", "at": f, "red": red, "blue": blue, "on_red": on_red, "on_blue": on_blue}
            )
            owed = {RED: on_red, BLUE: on_blue}
            queue.extend([s, f, owed[s], BATTLE] for s in (first, other(first)) if owed[s])
        self.queue = queue

    def _run_queue(self) -> bool:
        """Make the owed reductions in order; False when a side must choose between equals (R4)."""
        queue = self.queue
        while queue:
            side, place, count, cause = queue[0]
            here = [b for b in self.battalions if b.side == side and b.place == place]
            if not here:
                self._events.append(Wasted(side, PLACE_NAMES[place], count))  # (R12)
                self.marks.append({"k": "wasted", "side": side, "at": place, "n": count})
                queue.pop(0)
                continue
            best = max(b.strength for b in here)
            tied = [b for b in here if b.strength == best]
            if len(tied) > 1 and len({_looks(b) for b in tied}) > 1:
                self.waiting = side
                self._events.append(
                    MustChoose(side, PLACE_NAMES[place], cause, tuple(b.label for b in tied), best)
                )
                return False
            self._reduce(tied[0], cause, chosen=False)
            self._spent()
        self.waiting = None
        return True

    def _spent(self) -> None:
        """One reduction of the queue's head is done."""
        head = self.queue[0]
        head[2] -= 1
        if head[2] <= 0:
            self.queue.pop(0)

    def _reduce(self, b: Battalion, cause: str, *, chosen: bool) -> None:
        """Discard the top card and turn up the next (R2, R3); an empty battalion is gone."""
        was = b.strength
        card = b.cards.pop()
        self.discards[b.side].append(card)
        revealed = None
        if b.cards:
            b.up = True
            revealed = b.cards[-1].code
        else:
            self.battalions.remove(b)
        self.marks.append(
            {"k": "loss", "u": b.label, "side": b.side, "at": b.place, "card": card.code, "cause": cause,
             "gone": revealed is None}
        )  # fmt: skip
        self._events.append(
            Reduced(
                b.side,
                b.label,
                PLACE_NAMES[b.place],
                cause,
                card.code,
                was,
                revealed,
                b.strength if revealed else 0,
                chosen,
            )
        )

    def _check_for_win(self) -> None:
        """Three uncontested fronts win; the draw and the round limit (R11, R16)."""
        held = {s: self.held(s) for s in SIDES}
        for s in SIDES:
            if len(held[s]) >= WIN_FRONTS:
                names = and_list([PLACE_NAMES[f] for f in held[s]])
                self._finish(Outcome(s, EndReason.OBJECTIVE, f"they hold {names} uncontested"))
                return
        if all(len(self.of(s)) < WIN_FRONTS and not self.decks[s] for s in SIDES):
            self._finish(
                Outcome(
                    None, EndReason.STALEMATE, "neither side has the battalions left to hold three fronts"
                )
            )
            return
        if self.limit and self.round >= self.limit:  # (R16): 0 is no limit
            r, b = len(held[RED]), len(held[BLUE])
            limit = f"round limit of {self.limit} reached"
            if r == b:
                why = f"{limit} with {plural(r, 'front')} held alone by each side"
                self._finish(Outcome(None, EndReason.TURN_LIMIT, why))
            else:
                # A winner by a rule of ours, not of the text: the result says so (R16).
                score = f"{max(r, b)} to {min(r, b)}"
                why = f"{limit}: by our rule R16 the side holding more fronts alone wins, {score}"
                self._finish(Outcome(RED if r > b else BLUE, EndReason.TURN_LIMIT, why))
            return
        self._events.append(
            FrontsHeld(
                self.round,
                tuple(PLACE_NAMES[f] for f in held[RED]),
                tuple(PLACE_NAMES[f] for f in held[BLUE]),
            )
        )

    def _finish(self, outcome: Outcome) -> None:
        self.result = outcome
        self.phase = OVER
        self.current = None
        self.waiting = None
        self.queue = []
        self._events.append(GameEnded.of(outcome, lambda s: TITLES[s]))

    # ------------------------------------------------------------------ resign and draws

    def _apply_meta(self, action: MetaAction, side: str) -> list[AnyEvent]:
        if side not in SIDES:
            raise IllegalAction(f"'{side}' is not a side in Battlefronts (red or blue).")
        settled = settle(action, side, other(side), self.draw_offer, lambda s: TITLES[s], over=self.is_over())
        self.draw_offer = settled.draw_offer
        if settled.outcome is not None:
            self.result = settled.outcome
            self.phase = OVER
            self.current = None
            self.waiting = None
            self.queue = []
        return settle_events(settled, side, lambda s: TITLES[s])

    # ------------------------------------------------------------------ what nobody knows (R5)

    def unseen(self, side: str) -> list[Card]:
        """`side`'s cards nobody has seen (face down or in the deck), in pack order."""
        seen = {c.code for c in self.discards[side]}
        seen.update(b.cards[-1].code for b in self.battalions if b.side == side and b.up)
        return [c for c in FULL_PACK if c.code not in seen]

    def redeal(self, side: str, cards: Sequence[Card]) -> None:
        """Put `cards` into `side`'s face-down places: battalion by battalion, bottom card first, then
        the deck from the bottom up. With `unseen` in pack order this is the canonical deal that
        views hold; shuffled, it is a determinization."""
        it = iter(cards)
        for b in self.battalions:
            if b.side == side:
                hidden = len(b.cards) - 1 if b.up else len(b.cards)
                for i in range(hidden):
                    b.cards[i] = next(it)
        deck = self.decks[side]
        for i in range(len(deck)):
            deck[i] = next(it)

    def view(self, side: str | None) -> Any:
        from engine.battlefronts.view import View

        return View(self, side)

    # ------------------------------------------------------------------ copying and JSON

    def clone(self) -> State:
        new = State.__new__(State)
        new.seed = self.seed
        new.limit = self.limit
        new.round = self.round
        new.phase = self.phase
        new.current = self.current
        new.passed = list(self.passed)
        new.acted = self.acted
        new.queue = [list(q) for q in self.queue]
        new.waiting = self.waiting
        new.battalions = [b.copy() for b in self.battalions]
        new.numbers = dict(self.numbers)
        new.decks = {RED: list(self.decks[RED]), BLUE: list(self.decks[BLUE])}
        new.discards = {RED: list(self.discards[RED]), BLUE: list(self.discards[BLUE])}
        new.called = {RED: list(self.called[RED]), BLUE: list(self.called[BLUE])}
        new.marks = list(self.marks)
        new.result = self.result
        new.draw_offer = self.draw_offer
        new._events = []
        return new

    def to_json(self, public: bool = False) -> dict[str, Any]:
        """Everything, face-down cards and deck order included: for storage only.

        With `public`, what everyone may know (R5): face-down cards and the deck become counts, and
        the seed is left out. `from_json` reads both; a public one gets the unknown cards in a
        canonical order (see `engine.battlefronts.view`).
        """

        def battalion(b: Battalion) -> dict[str, Any]:
            out: dict[str, Any] = {"side": b.side, "num": b.num, "place": PLACE_NAMES[b.place], "up": b.up}
            if public:
                out["size"] = len(b.cards)
                out["top"] = b.cards[-1].code if b.up else None
            else:
                out["cards"] = [c.code for c in b.cards]
            out["moved"] = b.moved
            return out

        data: dict[str, Any] = {
            "game": "battlefronts",
            "format": 1,
            "limit": self.limit,
            "round": self.round,
            "phase": self.phase,
            "current": self.current,
            "passed": list(self.passed),
            "acted": self.acted,
            "queue": [[s, PLACE_NAMES[p], n, c] for s, p, n, c in self.queue],
            "waiting": self.waiting,
            "battalions": [battalion(b) for b in self.battalions],
            "numbers": dict(self.numbers),
            "decks": {s: len(d) if public else [c.code for c in d] for s, d in self.decks.items()},
            "discards": {s: [c.code for c in d] for s, d in self.discards.items()},
            "called": {s: [PLACE_NAMES[z] for z in v] for s, v in self.called.items()},
            "marks": [dict(m) for m in self.marks],
            "outcome": self.result.to_json() if self.result else None,
            "draw_offer": self.draw_offer,
        }
        if not public:
            data["seed"] = self.seed
        return data

    @staticmethod
    def from_json(data: dict[str, Any]) -> State:
        from engine.battlefronts.model import place_of

        s = State(int(data.get("seed", 0)), int(data["limit"]))
        s.round = int(data["round"])
        s.phase = data["phase"]
        s.current = data["current"]
        s.passed = list(data["passed"])
        s.acted = int(data["acted"])
        s.queue = [[q[0], place_of(q[1]), int(q[2]), q[3]] for q in data["queue"]]
        s.waiting = data["waiting"]
        s.numbers = {k: int(v) for k, v in data["numbers"].items()}
        s.discards = {k: [Card.parse(c) for c in v] for k, v in data["discards"].items()}
        s.called = {k: [place_of(z) for z in v] for k, v in data["called"].items()}
        s.marks = [dict(m) for m in data["marks"]]
        out = data["outcome"]
        s.result = Outcome.from_json(out) if out else None
        s.draw_offer = data["draw_offer"]
        public = any(isinstance(v, int) for v in data["decks"].values())
        if not public:
            s.decks = {k: [Card.parse(c) for c in v] for k, v in data["decks"].items()}
            s.battalions = [
                Battalion(b["side"], int(b["num"]), place_of(b["place"]), [Card.parse(c) for c in b["cards"]],
                          bool(b["up"]), bool(b["moved"]))
                for b in data["battalions"]
            ]  # fmt: skip
            return s
        # A public copy: the known tops, and each side's unseen cards dealt in the canonical order.
        blank = FULL_PACK[0]
        s.battalions = []
        for b in data["battalions"]:
            n = int(b["size"])
            cards = [blank] * (n - 1) + [Card.parse(b["top"]) if b["up"] else blank]
            s.battalions.append(
                Battalion(
                    b["side"], int(b["num"]), place_of(b["place"]), cards, bool(b["up"]), bool(b["moved"])
                )
            )
        s.decks = {side: [blank] * int(data["decks"][side]) for side in SIDES}
        for side in SIDES:
            s.redeal(side, s.unseen(side))
        return s


def _looks(b: Battalion) -> tuple[int, bool]:
    """All a player can tell apart between equally strong battalions (R4): the number of cards, and
    whether a face card leads it (a lone face card cannot jump, so it is like any lone card)."""
    return len(b.cards), b.face_led and len(b.cards) > 1


def _damage(total: int) -> int:
    """A side's battle damage: its total strength divided by five, rounded up."""
    return -(-total // BATTLE_DIVISOR)


def _sample(legal: Sequence[A.Action], action: A.Action) -> list[A.Action]:
    """A few legal actions like the refused one, for the refusal's suggestions."""
    same = [a for a in legal if type(a) is type(action)]
    return (same or list(legal))[:5]


def new_game(seed: int = 0, limit: int = DEFAULT_ROUNDS) -> State:
    """Shuffle each side's 52-card deck (chance draws 0 and 1 of `seed`) and begin round 1."""
    s = State(seed, limit)
    s.decks = {RED: chance.shuffled(FULL_PACK, seed, 0), BLUE: chance.shuffled(FULL_PACK, seed, 1)}
    s.start()
    return s


def replay(seed: int, log: list[tuple[str, str]], limit: int = DEFAULT_ROUNDS) -> State:
    """Rebuild a game from its seed and action log of (side, notation): it is deterministic."""
    state = new_game(seed, limit)
    for side, text in log:
        from engine.battlefronts.actions import parse
        from engine.meta import parse_meta

        state.apply(parse_meta(text) or parse(text), side)
    return state


__all__ = [
    "ATTRITION",
    "BATTLE",
    "DEFAULT_ROUNDS",
    "LISTED_CALL_SIZES",
    "MOVE",
    "OVER",
    "SUPPORT",
    "State",
    "first_player",
    "new_game",
    "replay",
]

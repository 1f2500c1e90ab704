"""The Fix Bayonets state: every rule, the off-turn decisions and the shared, seeded deck.

`apply` checks an action, plays it and stops at the next decision, which may be owed by the side
whose turn it is not: answering a played card (cancel it with a terrain card, or let it stand) and
choosing which man of a hit stack falls. Rulings the rulebook leaves open are numbered in
rules/fixbayonets.md and cited here as (R<n>).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, replace
from typing import Any

from engine.cards import Deck
from engine.errors import IllegalAction
from engine.fixbayonets import actions as A
from engine.fixbayonets import refusals
from engine.fixbayonets.actions import Action
from engine.fixbayonets.cards import (
    ATTACK,
    CARD_TYPES,
    FULL_DECK,
    MOVE,
    TERRAIN,
    Card,
    lookup,
    sort_cards,
)
from engine.fixbayonets.events import (
    Discarded,
    Drew,
    Killed,
    Moved,
    Negated,
    OrdersSet,
    Passed,
    PhaseEnded,
    Played,
    Reshuffled,
    Revealed,
    SetUp,
    TurnBegan,
)
from engine.fixbayonets.model import (
    ADJECTIVE,
    AMERICANS,
    FIRST,
    GERMANS,
    KIND_INDEX,
    KINDS,
    LOSS_ORDER,
    MEN_PER_SIDE,
    MOVES_PER_TURN,
    NAMES,
    PRESETS,
    SIDES,
    TITLE,
    UNIT_KINDS,
    Layout,
    Options,
    canonical_kinds,
    other,
    side_units,
    unit_kind,
    unit_side,
)
from engine.fixbayonets.model import DISCARD as DISCARD  # the phases, for the modules that read a state
from engine.fixbayonets.model import FIGHTING as FIGHTING
from engine.fixbayonets.model import HAND_LIMIT as HAND_LIMIT
from engine.fixbayonets.model import MOVING as MOVING
from engine.fixbayonets.model import OVER as OVER
from engine.fixbayonets.model import SETUP as SETUP
from engine.fixbayonets.tables import ATTACK_MASKS, ATTACK_TARGETS, BIT, FORWARD_MOVES, move_table
from engine.meta import DrawLapsed, GameEnded, MetaAction, parse_meta, settle, settle_events
from engine.protocol import EndReason, Outcome
from engine.protocol import Event as AnyEvent

DRAW = 3  # cards drawn in each Orders phase; hands start empty (R3)
HIDDEN: Layout = ()  # a layout set up but not yet revealed to this viewer
DEFAULT_ORDERS = {"negate": "ask", "losses": "ask"}
NEGATE_WORDS = {
    "ask": "ask me before every card I could cancel",
    "never": "never cancel a card",
    "officers": "cancel attacks on my officers when I can, let everything else stand",
    "attacks": "cancel every attack when I can, let moves stand",
    "always": "cancel every move and attack when I can",
}
LOSS_WORDS = {
    "ask": "ask me who falls when a stack is hit",
    "auto": "riflemen fall first, then runners, snipers, specialists, officers last",
}

# Interned generated actions, keyed by small integers: generating legal moves allocates little.
_MOVE_CACHE: dict[int, A.Move] = {}
_ATTACK_CACHE: dict[int, A.Attack] = {}
_DISCARDS = tuple(A.Discard(c) for c in CARD_TYPES)
_NEGATES = tuple(A.Negate(c) for c in CARD_TYPES)
_LOSES = {k: A.Lose(k) for k in KINDS}
_PRESET_ACTIONS = tuple(dict.fromkeys(A.Setup(p) for p in PRESETS.values()))


def _move(card: Card, kind: str, src: int, dst: int) -> A.Move:
    key = ((card.index * 5 + KIND_INDEX[kind]) * 64 + src) * 64 + dst
    found = _MOVE_CACHE.get(key)
    if found is None:
        found = _MOVE_CACHE[key] = A.Move(card, kind, src, dst)
    return found


def _attack(card: Card, kind: str, src: int, dst: int) -> A.Attack:
    key = ((card.index * 5 + KIND_INDEX[kind]) * 64 + src) * 64 + dst
    found = _ATTACK_CACHE.get(key)
    if found is None:
        found = _ATTACK_CACHE[key] = A.Attack(card, kind, src, dst)
    return found


@dataclass(slots=True)
class Pending:
    """A decision owed now by `side`: "negate" (answer `play`) or "lose" (who falls to `play`)."""

    kind: str
    side: str
    play: A.Move | A.Group | A.Attack

    @property
    def target(self) -> int:
        """The square a pending attack hit (for "lose")."""
        assert isinstance(self.play, A.Attack)
        return self.play.dst

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "side": self.side, "play": str(self.play)}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Pending:
        play = A.parse(data["play"])
        assert isinstance(play, A.Move | A.Group | A.Attack)
        return Pending(data["kind"], data["side"], play)


@dataclass(slots=True)
class LastPlay:
    """The last card played and what became of it: public, for the board."""

    side: str
    card: str
    attack: bool
    moves: tuple[tuple[str, str, str], ...]  # (kind, from, to); an attack: (kind, attacker, target)
    status: str = "waiting"  # waiting (for the answer), done, negated
    negated_by: str | None = None
    killed: str = ""  # the kinds that fell
    whole: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "card": self.card,
            "attack": self.attack,
            "moves": [list(m) for m in self.moves],
            "status": self.status,
            "negated_by": self.negated_by,
            "killed": self.killed,
            "whole": self.whole,
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> LastPlay:
        return LastPlay(
            data["side"],
            data["card"],
            bool(data["attack"]),
            tuple((m[0], m[1], m[2]) for m in data["moves"]),
            data["status"],
            data["negated_by"],
            data["killed"],
            bool(data["whole"]),
        )


class State:
    """One game of Fix Bayonets. Build it with `new_game` or `State.from_json`."""

    __slots__ = (
        "_events",
        "_legal",
        "active",
        "alive",
        "asked",
        "deck",
        "draw_offer",
        "hands",
        "last",
        "layouts",
        "moves",
        "occ",
        "options",
        "orders",
        "pending",
        "phase",
        "result",
        "round",
        "seed",
        "stacks",
        "where",
    )

    def __init__(self, options: Options, seed: int) -> None:
        self.options = options
        self.seed = seed
        self.phase = SETUP
        self.active = FIRST
        self.round = 0
        self.deck: Deck[Card] = Deck([], [], 0)
        self.hands: dict[str, list[Card]] = {GERMANS: [], AMERICANS: []}
        self.layouts: dict[str, Layout | None] = {GERMANS: None, AMERICANS: None}
        n = 2 * MEN_PER_SIDE
        self.where = [-1] * n  # square of each unit, -1 off the board (not yet placed, or dead)
        self.alive = [True] * n
        self.moves = [0] * n  # moves made this turn
        self.stacks: list[list[int]] = [[] for _ in range(64)]  # unit ids on each square, sorted
        self.occ = {GERMANS: 0, AMERICANS: 0}  # bit masks of the squares each side holds
        self.pending: Pending | None = None
        self.orders: dict[str, dict[str, str]] = {s: dict(DEFAULT_ORDERS) for s in SIDES}
        # Cancel-or-pass questions put to each side so far (public: each is posted); the first one
        # names the standing orders that answer it for them.
        self.asked = {GERMANS: 0, AMERICANS: 0}
        self.last: LastPlay | None = None
        self.draw_offer: str | None = None
        self.result: Outcome | None = None
        self._legal: tuple[str, list[Action]] | None = None
        self._events: list[AnyEvent] = []

    # ------------------------------------------------------------------------------ protocol

    def to_act(self) -> frozenset[str]:
        if self.result is not None:
            return frozenset()
        if self.phase == SETUP:
            return frozenset(s for s in SIDES if self.layouts[s] is None)
        if self.pending is not None:
            return frozenset((self.pending.side,))
        return frozenset((self.active,))

    def outcome(self) -> Outcome | None:
        return self.result

    def is_over(self) -> bool:
        return self.result is not None

    def turn_number(self) -> int:
        return self.round

    def chance_drawn(self) -> int:
        """The protocol's mark of chance drawn: each shuffle of the deck weighs more than all the
        cards one deck brings, then each card drawn from the pile (which only refills on a shuffle)."""
        return self.deck.shuffles * 1000 + (999 - len(self.deck.pile))

    def quick_decision(self) -> bool:
        return self.pending is not None and self.result is None

    def default_action(self, side: str) -> Action | None:
        """Let the card stand; lose the least valuable man (R13, R16)."""
        p = self.pending
        if p is None or p.side != side or self.result is not None:
            return None
        if p.kind == "negate":
            return A.PASS
        return _LOSES[self._auto_casualty(p.target)]

    def view(self, side: str | None) -> View:
        return View(self, side)

    def clone(self) -> State:
        s = State.__new__(State)
        s.options = self.options
        s.seed = self.seed
        s.phase = self.phase
        s.active = self.active
        s.round = self.round
        s.deck = self.deck.clone()
        s.hands = {k: list(v) for k, v in self.hands.items()}
        s.layouts = dict(self.layouts)
        s.where = list(self.where)
        s.alive = list(self.alive)
        s.moves = list(self.moves)
        s.stacks = [list(x) for x in self.stacks]
        s.occ = dict(self.occ)
        s.pending = self.pending  # never mutated in place
        s.orders = {k: dict(v) for k, v in self.orders.items()}
        s.asked = dict(self.asked)
        s.last = self.last  # never mutated: replaced when it changes
        s.draw_offer = self.draw_offer
        s.result = self.result
        s._legal = self._legal
        s._events = []
        return s

    # ---------------------------------------------------------------------------- questions

    def men_at(self, sq: int) -> str:
        """The kinds on a square in canonical order ('ORR')."""
        return canonical_kinds("".join(UNIT_KINDS[u % MEN_PER_SIDE] for u in self.stacks[sq]))

    def owner(self, sq: int) -> str | None:
        if self.occ[GERMANS] & BIT[sq]:
            return GERMANS
        if self.occ[AMERICANS] & BIT[sq]:
            return AMERICANS
        return None

    def officers_alive(self, side: str) -> int:
        base = 0 if side == GERMANS else MEN_PER_SIDE
        return int(self.alive[base]) + int(self.alive[base + 1])

    def men_alive(self, side: str) -> int:
        return sum(1 for u in side_units(side) if self.alive[u])

    def movers(self, side: str) -> list[tuple[int, str, int]]:
        """(square, kind, how many) of `side`'s men that may still move this turn."""
        out: dict[tuple[int, str], int] = {}
        for u in side_units(side):
            sq = self.where[u]
            if sq >= 0:
                k = UNIT_KINDS[u % MEN_PER_SIDE]
                if self.moves[u] < MOVES_PER_TURN[k]:
                    out[(sq, k)] = out.get((sq, k), 0) + 1
        return sorted(((sq, k, n) for (sq, k), n in out.items()), key=lambda t: (t[0], KIND_INDEX[t[1]]))

    def shooters(self, side: str) -> list[tuple[int, str]]:
        """(square, kind) of `side`'s men on the board: each may attack as often as cards allow (R10)."""
        out = set()
        for u in side_units(side):
            sq = self.where[u]
            if sq >= 0:
                out.add((sq, UNIT_KINDS[u % MEN_PER_SIDE]))
        return sorted(out, key=lambda t: (t[0], KIND_INDEX[t[1]]))

    def negators(self, side: str, kind: str) -> list[Card]:
        """The distinct cards in `side`'s hand that may cancel a card of `kind` (R12)."""
        return [
            c
            for c in dict.fromkeys(self.hands[side])
            if c.kind == TERRAIN and c.negates == kind and c.usable_by(side)
        ]

    # -------------------------------------------------------------------------- legal actions

    def legal_actions(self, side: str | None = None) -> list[Action]:
        owed = self.to_act()
        if side is None:
            if not owed:
                return []
            side = min(owed)
        if side not in owed:
            return []
        if self._legal is not None and self._legal[0] == side:
            return self._legal[1]
        out = self._generate(side)
        self._legal = (side, out)
        return out

    def _generate(self, side: str) -> list[Action]:
        if self.phase == SETUP:
            return list(_PRESET_ACTIONS)
        p = self.pending
        if p is not None:
            if p.kind == "negate":
                kind = ATTACK if isinstance(p.play, A.Attack) else MOVE
                return [A.PASS, *(_NEGATES[c.index] for c in self.negators(side, kind))]
            men = self.men_at(p.target)
            return [_LOSES[k] for k in dict.fromkeys(men)]
        if self.phase == DISCARD:
            return [_DISCARDS[c.index] for c in dict.fromkeys(self.hands[side])]
        if self.phase == MOVING:
            return [*self._move_actions(side), A.FIGHT, A.END]
        return [*self._attack_actions(side), A.END]

    def _move_actions(self, side: str) -> list[Action]:
        cards = [c for c in dict.fromkeys(self.hands[side]) if c.kind == MOVE and c.usable_by(side)]
        if not cards:
            return []
        movers = self.movers(side)
        enemy = self.occ[other(side)]
        out: list[Action] = []
        for c in cards:
            table = move_table(c)
            for sq, k, _ in movers:
                for dst, mask in table[sq]:
                    if not mask & enemy:
                        out.append(_move(c, k, sq, dst))
        for c in cards:
            if not c.knight:
                out.extend(self._groups(side, c, movers, enemy))
        return out

    def _groups(self, side: str, c: Card, movers: list[tuple[int, str, int]], enemy: int) -> list[A.Group]:
        """A menu of group moves (R11): everyone who can go, everyone but the officers, each stack."""
        ahead = FORWARD_MOVES[side][c.lo]
        able: dict[int, str] = {}
        for sq, k, n in movers:
            m = ahead[sq]
            if m is not None and not m[1] & enemy:
                able[sq] = able.get(sq, "") + k * n
        if sum(len(k) for k in able.values()) < 2:
            return []
        found: dict[str, A.Group] = {}

        def add(men: dict[int, str]) -> None:
            men = {sq: k for sq, k in men.items() if k}
            if sum(len(k) for k in men.values()) >= 2:
                g = A.Group(c, tuple(sorted(men.items())))
                found.setdefault(g.text, g)

        add(able)
        add({sq: k.replace("O", "") for sq, k in able.items()})
        for sq, k in able.items():
            add({sq: k})
        return list(found.values())

    def _attack_actions(self, side: str) -> list[Action]:
        cards = [c for c in dict.fromkeys(self.hands[side]) if c.kind == ATTACK and c.usable_by(side)]
        if not cards:
            return []
        enemy = self.occ[other(side)]
        out: list[Action] = []
        shooters = self.shooters(side)
        for c in cards:
            masks = ATTACK_MASKS[c.index]
            targets = ATTACK_TARGETS[c.index]
            for sq, k in shooters:
                if k in c.users and masks[sq] & enemy:
                    for t in targets[sq]:
                        if enemy & BIT[t]:
                            out.append(_attack(c, k, sq, t))
        return out

    # ---------------------------------------------------------------------------------- apply

    def apply(self, action: Any, side: str | None = None) -> list[AnyEvent]:
        if isinstance(action, str):
            action = parse_meta(action) or A.parse(action)
        if isinstance(action, MetaAction):
            if side is None:
                raise IllegalAction(f"'{action}' needs to know which side sends it.")
            return self._apply_meta(action, side)
        if not isinstance(action, Action):
            raise IllegalAction(f"'{action}' is not a Fix Bayonets action.")
        if side is None:
            owed = self.to_act()
            if isinstance(action, A.Orders) or len(owed) != 1:
                raise IllegalAction(f"'{action}' needs to know which side sends it.")
            side = next(iter(owed))
        if self.result is not None:
            raise IllegalAction("The game is over.")
        if isinstance(action, A.Orders):
            return self._set_orders(action, side)
        if isinstance(action, A.Move | A.Attack):
            problem = refusals.unlisted(self, action, side)
        else:
            problem = refusals.refusal(self, action, side)
        if problem is not None:
            raise IllegalAction(problem, refusals.hints(self, action, side))
        self._legal = None
        self._events = events = list[AnyEvent]()
        if isinstance(action, A.Setup):
            self._setup(side, action.layout)
        elif isinstance(action, A.Negate):
            self._negate(side, action.card)
        elif isinstance(action, A.Pass):
            assert self.pending is not None
            play = self.pending.play
            self.pending = None
            events.append(Passed(side))
            self._resolve(play)
        elif isinstance(action, A.Lose):
            assert self.pending is not None
            target = self.pending.target
            self.pending = None
            self._kill_one(target, action.kind)
        elif isinstance(action, A.Discard):
            self._discard(side, action.card)
        elif isinstance(action, A.Fight):
            self.phase = FIGHTING
            events.append(PhaseEnded(side, "move"))
        elif isinstance(action, A.End):
            self._end_turn(side)
        elif isinstance(action, A.Move | A.Group | A.Attack):
            self._play(side, action)
        self._events = []
        return events

    # ------------------------------------------------------------------------------ set-up

    def _setup(self, side: str, layout: Layout) -> None:
        self.layouts[side] = layout
        g, a = self.layouts[GERMANS], self.layouts[AMERICANS]
        self._events.append(SetUp(side, layout, last=g is not None and a is not None))
        if g is None or a is None:
            return
        for s, lay in ((GERMANS, g), (AMERICANS, a)):
            self._place(s, lay)
        self._events.append(Revealed(g, a))
        self._begin_turn(FIRST)

    def _place(self, side: str, layout: Layout) -> None:
        free = list(side_units(side))
        rank = 7 if side == GERMANS else 0
        for f, pair in enumerate(layout):
            sq = rank * 8 + f
            for k in pair:
                u = next(u for u in free if unit_kind(u) == k)
                free.remove(u)
                self._put(u, sq)

    def _put(self, u: int, sq: int) -> None:
        self.where[u] = sq
        bisect.insort(self.stacks[sq], u)
        self.occ[unit_side(u)] |= BIT[sq]

    def _lift(self, u: int) -> None:
        sq = self.where[u]
        stack = self.stacks[sq]
        stack.remove(u)
        if not stack:
            self.occ[unit_side(u)] &= ~BIT[sq]
        self.where[u] = -1

    # ------------------------------------------------------------------------------ turns

    def _begin_turn(self, side: str) -> None:
        self.active = side
        if side == FIRST:
            self.round += 1
        for u in side_units(side):
            self.moves[u] = 0
        self._events.append(TurnBegan(side, self.round))
        self._draw(side, DRAW)
        self.phase = DISCARD if len(self.hands[side]) > HAND_LIMIT else MOVING

    def _draw(self, side: str, n: int) -> None:
        got: list[Card] = []
        for _ in range(n):
            if not self.deck.pile:
                if not self.deck.discard:
                    break  # (R18): cannot happen with 60 cards and hands of five
                self._events.append(Reshuffled(len(self.deck.discard)))
                self.deck.reshuffle(self.seed)
            got.append(self.deck.pile.pop())
        self.hands[side] = sort_cards(self.hands[side] + got)
        codes = tuple(c.code for c in sort_cards(got))
        self._events.append(Drew(side, codes, len(got), self.options.open_hands))

    def _discard(self, side: str, c: Card) -> None:
        self.hands[side].remove(c)
        self.deck.discard.append(c)
        self._events.append(Discarded(side, c.code))
        if len(self.hands[side]) <= HAND_LIMIT:
            self.phase = MOVING

    def _end_turn(self, side: str) -> None:
        self._events.append(PhaseEnded(side, "turn"))
        if self.draw_offer == other(side):  # (R21) playing on turns the offer down
            self.draw_offer = None
            self._events.append(DrawLapsed(other(side), TITLE[other(side)]))
        limit = self.options.turn_limit
        if side != FIRST and limit and self.round >= limit:  # (R20): 0 is no limit
            self._finish(
                Outcome(
                    None,
                    EndReason.TURN_LIMIT,
                    f"turn limit of {limit} round{'' if limit == 1 else 's'} reached",
                )
            )
            return
        self._begin_turn(other(side))

    # ----------------------------------------------------------------------------- card play

    def _play(self, side: str, action: A.Move | A.Group | A.Attack) -> None:
        c = action.card
        self.hands[side].remove(c)
        self.deck.discard.append(c)
        # Only the card is spent here: a man's move counts when it is made, so a cancelled move
        # leaves him free to try again with another card (R14).
        if isinstance(action, A.Move | A.Attack):
            moves: tuple[tuple[str, str, str], ...] = ((action.kind, NAMES[action.src], NAMES[action.dst]),)
        else:
            ahead = FORWARD_MOVES[side][c.lo]
            out: list[tuple[str, str, str]] = []
            for sq, kinds in action.men:
                dst = ahead[sq]
                assert dst is not None
                out.extend((k, NAMES[sq], NAMES[dst[0]]) for k in kinds)
            moves = tuple(out)
        attack = isinstance(action, A.Attack)
        self._events.append(Played(side, c.code, attack, moves))
        self.last = LastPlay(side, c.code, attack, moves)
        self._offer(side, action)

    def _mover(self, side: str, sq: int, kind: str, skip: list[int]) -> int:
        """A man of `kind` on `sq` who may still move (not in `skip`, already moved by this card);
        men of one kind on a square are alike, so it is the one who has moved least."""
        best = -1
        for u in self.stacks[sq]:
            if unit_side(u) != side or unit_kind(u) != kind or u in skip:
                continue
            if self.moves[u] < MOVES_PER_TURN[kind] and (best < 0 or self.moves[u] < self.moves[best]):
                best = u  # the man who has moved least: a runner keeps his second move
        assert best >= 0, "checked before"
        return best

    def _offer(self, side: str, play: A.Move | A.Group | A.Attack) -> None:
        """The opponent's chance to cancel the card (R12, R13, R15)."""
        them = other(side)
        if not self.hands[them]:
            self._resolve(play)  # an empty hand is public: not asking reveals nothing
            return
        kind = ATTACK if isinstance(play, A.Attack) else MOVE
        able = self.negators(them, kind)
        if self.options.open_hands and not able:
            self._resolve(play)  # hands face up: everyone sees there is nothing to answer with
            return
        policy = self.orders[them]["negate"]
        if policy == "ask":
            self.pending = Pending("negate", them, play)
            self.asked[them] += 1
            return
        if able and self._orders_cancel(policy, play, them):
            self._negate(them, able[-1], play)
        else:
            self._events.append(Passed(them))
            self._resolve(play)

    def _orders_cancel(self, policy: str, play: A.Move | A.Group | A.Attack, them: str) -> bool:
        if policy == "always":
            return True
        if not isinstance(play, A.Attack):
            return False
        if policy == "attacks":
            return True
        return policy == "officers" and "O" in self.men_at(play.dst)

    def _negate(self, side: str, c: Card, play: A.Move | A.Group | A.Attack | None = None) -> None:
        if play is None:
            assert self.pending is not None
            play = self.pending.play
        self.pending = None
        self.hands[side].remove(c)
        self.deck.discard.append(c)
        self._events.append(Negated(side, c.code, play.card.code))
        if self.last is not None:
            self.last = replace(self.last, status="negated", negated_by=c.code)

    def _resolve(self, play: A.Move | A.Group | A.Attack) -> None:
        side = self.active
        if self.last is not None:
            self.last = replace(self.last, status="done")
        if isinstance(play, A.Attack):
            self._hit(side, play)
            return
        moved: list[tuple[str, str, str]] = []
        if isinstance(play, A.Move):
            pairs = [(play.src, play.kind, play.dst)]
        else:
            ahead = FORWARD_MOVES[side][play.card.lo]
            pairs = []
            for sq, kinds in play.men:
                m = ahead[sq]
                assert m is not None
                pairs.extend((sq, k, m[0]) for k in kinds)
        lifted: list[int] = []
        for sq, k, _ in pairs:
            u = self._mover(side, sq, k, lifted)
            lifted.append(u)
            self.moves[u] += 1
            self._lift(u)
        for u, (sq, k, dst) in zip(lifted, pairs, strict=True):
            self._put(u, dst)
            moved.append((k, NAMES[sq], NAMES[dst]))
        self._events.append(Moved(side, tuple(moved)))

    def _hit(self, side: str, play: A.Attack) -> None:
        sq = play.dst
        men = self.men_at(sq)
        if play.card.area:  # (R17) grenade, machine gun, flame thrower: the whole stack
            self._kill(sq, list(self.stacks[sq]), whole=True)
            return
        if len(set(men)) == 1:
            self._kill_one(sq, men[0])
            return
        them = other(side)
        if self.orders[them]["losses"] == "auto":
            self._kill_one(sq, self._auto_casualty(sq))
            return
        self.pending = Pending("lose", them, play)

    def _auto_casualty(self, sq: int) -> str:
        men = self.men_at(sq)
        return next(k for k in LOSS_ORDER if k in men)

    def _kill_one(self, sq: int, kind: str) -> None:
        victims = [u for u in self.stacks[sq] if unit_kind(u) == kind]
        self._kill(sq, [victims[-1]], whole=False)

    def _kill(self, sq: int, units: list[int], *, whole: bool) -> None:
        side = unit_side(units[0])
        kinds = canonical_kinds("".join(unit_kind(u) for u in units))
        for u in units:
            self._lift(u)
            self.alive[u] = False
        self._events.append(Killed(side, NAMES[sq], kinds, whole))
        if self.last is not None:
            self.last = replace(self.last, killed=kinds, whole=whole)
        if self.officers_alive(side) == 0:
            self._finish(
                Outcome(other(side), EndReason.OBJECTIVE, f"both {ADJECTIVE[side]} officers are dead")
            )

    def _finish(self, outcome: Outcome) -> None:
        self.result = outcome
        self.pending = None
        self.phase = OVER
        self.draw_offer = None
        self._events.append(GameEnded.of(outcome, lambda s: TITLE[s]))

    # ------------------------------------------------------------------------ anytime actions

    def _set_orders(self, action: A.Orders, side: str) -> list[AnyEvent]:
        if side not in SIDES:
            raise IllegalAction(f"'{side}' is not a side: the sides are the Germans and the Americans.")
        self._legal = None
        self._events = events = list[AnyEvent]()
        if action.negate is not None:
            self.orders[side]["negate"] = action.negate
            events.append(OrdersSet(side, NEGATE_WORDS[action.negate]))
        else:
            assert action.losses is not None
            self.orders[side]["losses"] = action.losses
            events.append(OrdersSet(side, LOSS_WORDS[action.losses]))
        p = self.pending
        # A question already waiting is answered at once by the new orders (R15).
        if p is not None and p.side == side:
            if p.kind == "negate" and self.orders[side]["negate"] != "ask":
                kind = ATTACK if isinstance(p.play, A.Attack) else MOVE
                able = self.negators(side, kind)
                if able and self._orders_cancel(self.orders[side]["negate"], p.play, side):
                    self._negate(side, able[-1])
                else:
                    self.pending = None
                    self._events.append(Passed(side))
                    self._resolve(p.play)
            elif p.kind == "lose" and self.orders[side]["losses"] == "auto":
                self.pending = None
                self._kill_one(p.target, self._auto_casualty(p.target))
        self._events = []
        return events

    def _apply_meta(self, action: MetaAction, side: str) -> list[AnyEvent]:
        if side not in SIDES:
            raise IllegalAction(f"'{side}' is not a side: the sides are the Germans and the Americans.")
        done = settle(
            action, side, other(side), self.draw_offer, lambda s: TITLE[s], over=self.result is not None
        )
        self._legal = None
        self.draw_offer = done.draw_offer
        events: list[AnyEvent] = list(settle_events(done, side, lambda s: TITLE[s]))
        if done.outcome is not None:
            self.result = done.outcome
            self.pending = None
            self.phase = OVER
        return events

    # -------------------------------------------------------------------------------- JSON

    def to_json(self) -> dict[str, Any]:
        return {
            "options": self.options.to_json(),
            "seed": self.seed,
            "phase": self.phase,
            "active": self.active,
            "round": self.round,
            "deck": self.deck.to_json(),
            "hands": {s: [c.code for c in self.hands[s]] for s in SIDES},
            "layouts": {s: (list(v) if v is not None else None) for s, v in self.layouts.items()},
            "where": list(self.where),
            "alive": list(self.alive),
            "moves": list(self.moves),
            "pending": self.pending.to_json() if self.pending else None,
            "orders": {s: dict(self.orders[s]) for s in SIDES},
            "asked": dict(self.asked),
            "last": self.last.to_json() if self.last else None,
            "draw_offer": self.draw_offer,
            "result": self.result.to_json() if self.result else None,
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> State:
        s = State(Options.from_json(data["options"]), int(data["seed"]))
        s.phase = data["phase"]
        s.active = data["active"]
        s.round = int(data["round"])
        s.deck = Deck.from_json(data["deck"], lookup)
        s.hands = {side: [lookup(c) for c in data["hands"][side]] for side in SIDES}
        s.layouts = {side: (tuple(v) if v is not None else None) for side, v in data["layouts"].items()}
        s.alive = [bool(x) for x in data["alive"]]
        s.moves = [int(x) for x in data["moves"]]
        for u, sq in enumerate(data["where"]):
            if sq >= 0:
                s._put(u, int(sq))
        s.pending = Pending.from_json(data["pending"]) if data["pending"] else None
        s.orders = {side: dict(data["orders"][side]) for side in SIDES}
        s.asked = {side: int(data.get("asked", {}).get(side, 2)) for side in SIDES}  # older: told before
        s.last = LastPlay.from_json(data["last"]) if data["last"] else None
        s.draw_offer = data["draw_offer"]
        r = data["result"]
        s.result = Outcome.from_json(r) if r else None
        return s


def new_game(options: Options, seed: int) -> State:
    """A new game: the deck shuffled, both hands empty until their first Orders phase (R3), both
    sides to set up."""
    s = State(options, seed)
    s.deck = Deck.shuffled(FULL_DECK, seed)
    return s


# ------------------------------------------------------------------------------------- views


class View:
    """What one side (or a spectator, `viewer` None) may know.

    It holds a copy of the state with the secrets taken out: the deck's order and the seed (which
    would predict every reshuffle), the hands the viewer may not see, the other side's standing
    orders, and a set-up not yet revealed. Renderers and the AI only ever get this.
    """

    __slots__ = ("deck_count", "hand_counts", "state", "viewer")

    def __init__(self, state: State, viewer: str | None) -> None:
        s = state.clone()
        s._legal = None
        s.seed = 0
        s.deck.pile = []
        for side in SIDES:
            if side == viewer:
                continue
            if not state.options.open_hands:
                s.hands[side] = []
            s.orders[side] = dict(DEFAULT_ORDERS)
            if s.phase == SETUP and s.layouts[side] is not None:
                s.layouts[side] = HIDDEN
        self.state = s
        self.viewer = viewer
        self.hand_counts = {side: len(state.hands[side]) for side in SIDES}
        self.deck_count = len(state.deck.pile)

    def sees_hand(self, side: str) -> bool:
        return side == self.viewer or self.state.options.open_hands

    def to_json(self) -> dict[str, Any]:
        data = self.state.to_json()
        data["viewer"] = self.viewer
        data["hand_counts"] = dict(self.hand_counts)
        data["deck_count"] = self.deck_count
        return data

    @staticmethod
    def from_json(data: dict[str, Any]) -> View:
        v = View.__new__(View)
        v.state = State.from_json(data)
        v.viewer = data["viewer"]
        v.hand_counts = {s: int(n) for s, n in data["hand_counts"].items()}
        v.deck_count = int(data["deck_count"])
        return v

    def unseen(self) -> list[Card]:
        """The cards this viewer has not seen (the deck and the hidden hands), in card-list order."""
        from engine.cards import unseen

        known = list(self.state.deck.discard)
        for side in SIDES:
            if self.sees_hand(side):
                known.extend(self.state.hands[side])
        return unseen(FULL_DECK, known)

    def determinize(self, rng: Any) -> State:
        """A full state consistent with this view: the unseen cards dealt to the hidden hands and
        the deck in a sampled order, a sampled seed for later reshuffles, a sampled hidden set-up."""
        s = self.state.clone()
        cards = self.unseen()
        rng.shuffle(cards)
        for side in SIDES:
            if not self.sees_hand(side):
                n = self.hand_counts[side]
                s.hands[side] = sort_cards(cards[:n])
                cards = cards[n:]
        s.deck.pile = cards[: self.deck_count]
        s.seed = rng.getrandbits(31)
        for side in SIDES:
            if s.layouts[side] == HIDDEN:
                letters = list(UNIT_KINDS)
                rng.shuffle(letters)
                s.layouts[side] = tuple(canonical_kinds("".join(letters[i : i + 2])) for i in range(0, 16, 2))
        s._legal = None
        return s

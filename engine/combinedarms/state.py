"""The Combined Arms state: every rule of both eras, with the optional rules as settings.

A game runs: design (both sides at once, in secret) -> deployment (one side, then the other) ->
turns (reinforcement when due, move phase, attack phase, with the defender's retreat choices as
decisions of the side not on turn) -> over. Rulings the texts leave open are numbered in
rules/combinedarms.md and rules/combinedarms-wwii.md and cited here as (R<n>) and (W<n>).

Units live in parallel lists indexed by a unit id; occupancy is kept as one bit mask per side, so
moves, ranges and contact are whole-board mask operations (see `board.py`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.base import EDITION
from engine.combinedarms import actions as A
from engine.combinedarms import terrain as T
from engine.combinedarms.army import (
    army_problem,
    class_words,
    describe_army,
    layout_problem,
    placements,
    random_army,
    ready_layout,
)
from engine.combinedarms.board import Geometry, bits, geometry
from engine.combinedarms.events import (
    ArmiesRevealed,
    ArmyChosen,
    ArmyShown,
    BecameElite,
    CitiesHeld,
    Deployed,
    Destroyed,
    Event,
    GameOver,
    Hit,
    Moved,
    MovesDone,
    NoReinforcement,
    Reinforced,
    Retreated,
    RetreatOwed,
    StandingOrder,
    TurnBegins,
    TurnEnded,
)
from engine.combinedarms.rules import DEPLOY_ROWS, EXPERIENCED_KILLS, Rules
from engine.combinedarms.units import UnitType, agree
from engine.errors import IllegalAction
from engine.meta import DrawDeclined, DrawLapsed, DrawOffered, MetaAction, settle
from engine.protocol import Action as AnyAction
from engine.protocol import EndReason, Outcome

DESIGN, DEPLOY, PLAY, OVER = "design", "deploy", "play", "over"
REINFORCE, MOVE, ATTACK, RETREAT = "reinforce", "move", "attack", "retreat"
NOWHERE = -1

_MOVES: dict[tuple[int, int], list[list[A.Move | None]]] = {}
_ATTACKS: dict[tuple[int, int], list[list[A.Attack | None]]] = {}
# Moves from a square to the squares of one rank, per (square, rank, squares of that rank as bits):
# a unit's moves are a few of these lists joined, so generation allocates no action objects.
_RANK_MOVES: dict[tuple[int, int], dict[int, list[A.Move]]] = {}


def _move(g: Geometry, src: int, dst: int) -> A.Move:
    """The interned move src-dst (one object per board size, so generation allocates nothing)."""
    table = _MOVES.get((g.width, g.height))
    if table is None:
        table = _MOVES[g.width, g.height] = [[None] * g.size for _ in range(g.size)]
    m = table[src][dst]
    if m is None:
        m = table[src][dst] = A.Move(g.names[src], g.names[dst])
    return m


def _moves_to(g: Geometry, src: int, mask: int) -> list[A.Move]:
    """The moves from `src` to every square of `mask`, in board order."""
    if not mask:
        return []
    table = _RANK_MOVES.get((g.width, g.height))
    if table is None:
        table = _RANK_MOVES[g.width, g.height] = {}
    w = g.width
    row = (1 << w) - 1
    rank = ((mask & -mask).bit_length() - 1) // w
    mask >>= rank * w
    out: list[A.Move] = []
    base = src * g.height
    while mask:
        chunk = mask & row
        if chunk:
            key = ((base + rank) << w) | chunk
            part = table.get(key)
            if part is None:
                part = table[key] = [_move(g, src, rank * w + f) for f in bits(chunk)]
            out += part
        mask >>= w
        rank += 1
    return out


def _attack(g: Geometry, src: int, dst: int) -> A.Attack:
    table = _ATTACKS.get((g.width, g.height))
    if table is None:
        table = _ATTACKS[g.width, g.height] = [[None] * g.size for _ in range(g.size)]
    a = table[src][dst]
    if a is None:
        a = table[src][dst] = A.Attack(g.names[src], g.names[dst])
    return a


class State:
    """One game of Combined Arms (either era). Build it with `new_game` or `State.from_json`."""

    __slots__ = (
        "_legal",
        "_move_cache",
        "active",
        "armies",
        "attacked",
        "auto",
        "board",
        "bonus",
        "boosted",
        "cities",
        "deployed",
        "designed",
        "draw_offer",
        "draws",
        "elite",
        "g",
        "helpers",
        "kills",
        "last_trail",
        "moved",
        "occ",
        "options",
        "pending",
        "phase",
        "result",
        "retreated",
        "rules",
        "seed",
        "sides",
        "slow",
        "step",
        "taken",
        "terrain",
        "trail",
        "turn",
        "types",
        "u_code",
        "u_dmg",
        "u_side",
        "u_sq",
    )

    def __init__(self, era: str, options: Mapping[str, Any], seed: int) -> None:
        # The rules' edition (a match's options hold it) is in `rules`, never among the options a
        # snapshot keeps: those stay as they were before editions.
        self.options: dict[str, Any] = {k: v for k, v in options.items() if k != EDITION}
        self.rules = Rules.of(era, options)
        self.types = self.rules.era.by_code
        self.seed = seed
        self.draws = 0
        width, height = self.rules.size
        self.g: Geometry = geometry(width, height)
        self.sides: tuple[str, str] = (self.rules.era.sides[0].name, self.rules.era.sides[1].name)
        self.phase = DESIGN
        self.step = ""
        self.designed = [False, False]
        self.armies: list[dict[str, int] | None] = [None, None]
        self.deployed = [False, False]
        self.u_code: list[str] = []
        self.u_side: list[int] = []
        self.u_sq: list[int] = []
        self.u_dmg: list[int] = []
        self.elite: list[bool] = []
        self.kills: list[int] = []
        self.board: list[int] = [NOWHERE] * self.g.size
        self.occ = [0, 0]
        self.terrain: list[str] = [""] * self.g.size
        self.cities: list[int] = []
        self.bonus: list[int] = [0] * self.g.size
        self.slow = 0  # difficult squares, as a mask: tanks and mechanized infantry stop there (W8)
        self.active = 0
        self.turn = 0  # turns begun, both sides counted
        self.taken = [0, 0]  # each side's own turns begun
        self.moved: set[int] = set()
        self.attacked: set[int] = set()
        self.retreated: set[int] = set()
        self.helpers: dict[int, set[int]] = {}
        self.boosted: set[int] = set()
        self.pending: tuple[int, tuple[int, ...]] | None = None
        self.auto = [False, False]
        self.draw_offer: int | None = None
        self.result: Outcome | None = None
        self.trail: list[list[str]] = []
        self.last_trail: list[list[str]] = []
        self._legal: list[A.Action] | None = None
        self._move_cache: dict[int, tuple[int, int, list[A.Move]]] = {}

    # ------------------------------------------------------------------ set-up of the map

    def _lay_map(self) -> None:
        """Deal terrain and cities from the seed (R21, W6, W7)."""
        r, g = self.rules, self.g
        if r.terrain:
            self.draws += 1
            self.terrain = T.ww1_terrain(g, self.seed, self.draws)
        if r.cities:
            self.draws += 1
            self.cities = T.cities(g, self.seed, self.draws)
        if r.difficult:
            self.draws += 1
            self.terrain = T.difficult(g, self.seed, self.draws, self.cities)
        self._derive_map()

    def _derive_map(self) -> None:
        self.bonus = [T.DEFENCE_BONUS[t] for t in self.terrain]
        slow = 0
        for i, t in enumerate(self.terrain):
            if t == "D":
                slow |= 1 << i
        if self.rules.difficult:
            for c in self.cities:
                slow |= 1 << c
                self.bonus[c] = T.DEFENCE_BONUS["D"]  # (W7): a city is difficult terrain too
        self.slow = slow

    # ------------------------------------------------------------------ queries

    def side_index(self, side: str) -> int:
        if side == self.sides[0]:
            return 0
        if side == self.sides[1]:
            return 1
        raise IllegalAction(f"'{side}' is not a side of this game.")

    def title(self, index: int) -> str:
        return self.rules.era.sides[index].title

    def adjective(self, index: int) -> str:
        return self.rules.era.sides[index].adjective

    def whose(self, index: int) -> str:
        """A side's name before "turn": "the Germans' turn", but "the British turn" (no 's' to
        take an apostrophe)."""
        title = self.title(index)
        return f"{title}'" if title.endswith("s") else title

    def utype(self, uid: int) -> UnitType:
        return self.types[self.u_code[uid]]

    def unit_name(self, uid: int) -> str:
        name = self.utype(uid).name
        return f"Elite {name}" if self.elite[uid] else name

    def alive(self, side: int) -> list[int]:
        return [u for u in range(len(self.u_code)) if self.u_side[u] == side and self.u_sq[u] != NOWHERE]

    def hq(self, side: int) -> int | None:
        for u in range(len(self.u_code)):
            if self.u_side[u] == side and self.u_code[u] == "H" and self.u_sq[u] != NOWHERE:
                return u
        return None

    def defense(self, uid: int) -> int:
        """Defence now: the trait, +1 if Elite, the square's terrain bonus; never below 1 (R22)."""
        d = self.utype(uid).defense + (1 if self.elite[uid] else 0) + self.bonus[self.u_sq[uid]]
        return d if d > 1 else 1

    def damage_of(self, attacker: int, target: int) -> int:
        """1, or 2 for the special damage rules and Elite attackers; they never add up (R15, R16)."""
        t = self.utype(attacker)
        if t.always_double or self.elite[attacker] or self.u_code[target] in t.double_vs:
            return 2
        return 1

    def move_points(self, uid: int) -> int:
        t = self.utype(uid)
        return t.para_move if uid in self.boosted else t.move

    def _owed(self) -> tuple[int, ...]:
        if self.phase == OVER:
            return ()
        if self.phase == DESIGN:
            return tuple(i for i in (0, 1) if not self.designed[i])
        if self.phase == DEPLOY:
            return (0,) if not self.deployed[0] else (1,)
        if self.pending is not None:
            return (self.u_side[self.pending[0]],)
        return (self.active,)

    def to_act(self) -> frozenset[str]:
        return frozenset(self.sides[i] for i in self._owed())

    def is_over(self) -> bool:
        return self.phase == OVER

    def outcome(self) -> Outcome | None:
        return self.result

    def turn_number(self) -> int:
        """Rounds begun: the first side's turn and the second's after it make one (0 before play)."""
        return (self.turn + 1) // 2

    def chance_drawn(self) -> int:
        """The protocol's mark of chance drawn: the map deal's draws (the game's only chance)."""
        return self.draws

    def quick_decision(self) -> bool:
        """A retreat square is a quick answer owed by the side not on turn (R12)."""
        return self.phase == PLAY and self.pending is not None

    def default_action(self, side: str) -> A.Action | None:
        """The automatic retreat square when a retreat decision's deadline passes (R12)."""
        if self.pending is not None and self.sides[self.u_side[self.pending[0]]] == side:
            return A.Retreat(self.g.names[self.pending[1][0]])
        return None

    def view(self, side: str | None) -> View:
        return View(self, side)

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self, side: str | None = None) -> list[A.Action]:
        """What `side` may do now, in a stable order. Set-up lists the ready-made armies and layouts;
        any other legal army or deployment is accepted by `apply` too."""
        owed = self._owed()
        if not owed:
            return []
        who = owed[0] if side is None else self.side_index(side)
        if who not in owed:
            return []
        if self.phase == DESIGN:
            return [A.Army(preset=p) for p in self.rules.presets]
        if self.phase == DEPLOY:
            return [A.Deploy(preset=p) for p in A.LAYOUTS]
        if self._legal is None:
            self._legal = self._generate()
        return list(self._legal)

    def _generate(self) -> list[A.Action]:
        if self.pending is not None:
            return [A.Retreat(self.g.names[s]) for s in self.pending[1]]
        if self.step == REINFORCE:
            return list(self._reinforcements())
        if self.step == MOVE:
            out: list[A.Action] = []
            side = self.active
            moved, cache, sides = self.moved, self._move_cache, self.u_side
            for uid, sq in enumerate(self.u_sq):
                if sq == NOWHERE or sides[uid] != side or uid in moved:
                    continue
                c = cache.get(uid)
                out += c[2] if c is not None and c[0] == sq else self._unit_moves(uid)
            out.append(A.DONE)
            out.append(A.END)
            return out
        out = []
        g = self.g
        side = self.active
        enemy = self.occ[1 - side]
        within = g.within
        attacked, moved = self.attacked, self.moved
        shield = -1
        for uid, sq in enumerate(self.u_sq):
            if sq == NOWHERE or self.u_side[uid] != side or uid in attacked:
                continue
            t = self.types[self.u_code[uid]]
            mask = within[t.reach][sq] & enemy
            if t.airfield and mask:
                if uid in moved:
                    continue  # (W2)
                if shield < 0:
                    shield = self.shielded(1 - side)
                mask &= ~shield
            for d in bits(mask):
                out.append(_attack(g, sq, d))
        out.append(A.END)
        return out

    def reach(self, uid: int) -> int:
        """The squares `uid` may move to now, as a mask (R5, R6, W2, W4, W8)."""
        return self._reach(uid)[0]

    def _reach(self, uid: int) -> tuple[int, int]:
        """The reach, and the squares whose occupancy it depends on (the cache's invalidation span)."""
        t = self.types[self.u_code[uid]]
        m = t.para_move if uid in self.boosted else t.move
        sq = self.u_sq[uid]
        start = 1 << sq
        if m <= 0:
            return 0, 0
        g = self.g
        empty = g.full & ~(self.occ[0] | self.occ[1])
        if m == 1 and not t.airfield:
            return g.near[sq] & empty, g.near[sq] | start
        stop = self.slow if t.heavy else 0
        visited = frontier = inner = start
        spread = g.spread
        for i in range(m):
            src = frontier if i == 0 else frontier & ~stop
            if not src:
                break
            inner |= src
            frontier = spread(src) & empty & ~visited
            if not frontier:
                break
            visited |= frontier
        out = visited ^ start
        if t.airfield:
            if not out:
                return 0, spread(inner)
            side = self.u_side[uid]
            friends = self.occ[side] & ~start
            return out & spread(friends) & ~spread(self.occ[1 - side]), spread(visited)
        return out, spread(inner)

    def _unit_moves(self, uid: int) -> list[A.Move]:
        cached = self._move_cache.get(uid)
        sq = self.u_sq[uid]
        if cached is not None and cached[0] == sq:
            return cached[2]
        mask, span = self._reach(uid)
        moves = _moves_to(self.g, sq, mask)
        self._move_cache[uid] = (sq, span | (1 << sq), moves)
        return moves

    def targets(self, uid: int) -> int:
        """The enemy squares `uid` may attack now, as a mask (R7, W2, W3)."""
        if uid in self.attacked:
            return 0
        t = self.utype(uid)
        if t.airfield and uid in self.moved:
            return 0  # (W2): an airfield moves or attacks, not both
        side = self.u_side[uid]
        enemy = self.occ[1 - side]
        out = self.g.within[t.reach][self.u_sq[uid]] & enemy
        if t.airfield and out:
            out &= ~self.shielded(1 - side)
        return out

    def shielded(self, side: int) -> int:
        """`side`'s squares airfields may not attack: its AA guns and their friendly neighbours (W3)."""
        guns = 0
        for u in self.alive(side):
            if self.utype(u).shield:
                guns |= 1 << self.u_sq[u]
        if not guns:
            return 0
        return guns | (self.g.spread(guns) & self.occ[side])

    def _unit_attacks(self, uid: int) -> list[A.Attack]:
        mask = self.targets(uid)
        if not mask:
            return []
        g, sq = self.g, self.u_sq[uid]
        return [_attack(g, sq, d) for d in bits(mask)]

    def reinforcement_types(self, side: int) -> list[UnitType]:
        """Types a reinforcement may be: no HQ or base, within the maxima counted on the board (R19, W10)."""
        lim = self.rules.limits
        on_board: dict[str, int] = {}
        for u in self.alive(side):
            on_board[self.u_code[u]] = on_board.get(self.u_code[u], 0) + 1
        out = []
        for t in self.rules.era.units:
            if t.hq or t.base:
                continue
            most = lim.most.get(t.code)
            if most is not None and on_board.get(t.code, 0) >= most:
                continue
            if t.cls in lim.class_most:
                n = sum(v for c, v in on_board.items() if self.rules.era.by_code[c].cls == t.cls)
                if n >= lim.class_most[t.cls]:
                    continue
            out.append(t)
        return out

    def back_row(self, side: int) -> list[int]:
        g = self.g
        rank = 0 if side == 0 else g.height - 1
        return [rank * g.width + f for f in range(g.width)]

    def _reinforcements(self) -> list[A.Reinforce]:
        side = self.active
        free = [s for s in self.back_row(side) if self.board[s] == NOWHERE]
        names = self.g.names
        return [A.Reinforce(t.code, names[s]) for t in self.reinforcement_types(side) for s in free]

    def retreat_squares(self, uid: int) -> tuple[int, ...]:
        """Where `uid` may retreat, in the automatic choice's order (R10, R11, R12).

        Back: the three squares one rank towards its own side (straight back first, then the diagonal
        towards the centre); lateral: the squares beside it, if empty and out of contact with enemies.
        """
        g = self.g
        sq = self.u_sq[uid]
        side = self.u_side[uid]
        f, r = sq % g.width, sq // g.width
        back = -1 if side == 0 else 1
        inward = 1 if f < (g.width - 1) / 2 else -1
        enemy = self.occ[1 - side]
        out: list[int] = []
        for df in (0, inward, -inward):
            s = g.at(f + df, r + back)
            if s is not None and self.board[s] == NOWHERE:
                out.append(s)
        for df in (inward, -inward):
            s = g.at(f + df, r)
            if s is not None and self.board[s] == NOWHERE and not g.near[s] & enemy:
                out.append(s)
        return tuple(out)

    # ------------------------------------------------------------------ applying actions

    def apply(self, action: AnyAction | str, side: str | None = None) -> list[Event]:
        """Validate and resolve one action for `side`; return what happened (IllegalAction: nothing
        changed)."""
        if isinstance(action, str):
            action = A.parse(action, self.rules.era)
        if isinstance(action, MetaAction):
            if side is None:
                raise IllegalAction("Say which side sends it.")
            return self._apply_meta(action, self.side_index(side))
        if not isinstance(action, A.Action):
            raise IllegalAction(f"'{action}' is not a Combined Arms action.")
        if self.phase == OVER:
            raise IllegalAction("The game is over.")
        owed = self._owed()
        who = owed[0] if side is None else self.side_index(side)
        if isinstance(action, A.AutoRetreat):
            return self._standing_order(who, action.on)
        if who not in owed:
            raise IllegalAction(self._not_yours(who))
        events: list[Event] = []
        if self.phase == DESIGN:
            self._design(who, action, events)
        elif self.phase == DEPLOY:
            self._deploy(who, action, events)
        else:
            self._play(who, action, events)
        self._legal = None
        if self.draw_offer is not None and self.draw_offer != who and not isinstance(action, A.Retreat):
            # (R26): playing on declines; answering a retreat question does not
            events.append(DrawLapsed(self.sides[self.draw_offer], self.title(self.draw_offer)))
            self.draw_offer = None
        return events

    def _not_yours(self, who: int) -> str:
        owed = self._owed()
        other = owed[0] if owed else 1 - who
        if self.phase == DESIGN:
            return "You have already chosen your army; wait for your opponent's."
        if self.phase == DEPLOY:
            return f"The {self.title(other)} deploy now; wait for them."
        if self.pending is not None:
            uid, _ = self.pending
            return (
                f"The {self.title(other)} must first choose where their {self.unit_name(uid)} on "
                f"{self.g.names[self.u_sq[uid]]} retreats; send the rest after their answer."
            )
        return f"It is the {self.whose(other)} turn, not yours."

    def _apply_meta(self, action: MetaAction, who: int) -> list[Event]:
        done = settle(
            action,
            self.sides[who],
            self.sides[1 - who],
            self._offer_name(),
            self._title_of,
            over=self.is_over(),
        )
        events: list[Event] = []
        self.draw_offer = None if done.draw_offer is None else self.side_index(done.draw_offer)
        if done.offered:
            events.append(DrawOffered(self.sides[who], self.title(who)))
        if done.declined:
            events.append(DrawDeclined(self.sides[who], self.title(who)))
        if done.outcome is not None:
            self._finish(done.outcome, events)
        return events

    def _offer_name(self) -> str | None:
        return None if self.draw_offer is None else self.sides[self.draw_offer]

    def _title_of(self, side: str) -> str:
        return self.title(self.side_index(side))

    def _standing_order(self, who: int, on: bool) -> list[Event]:
        if self.phase == OVER:
            raise IllegalAction("The game is over.")
        if self.auto[who] == on:
            state = "on" if on else "off"
            raise IllegalAction(f"Automatic retreats are already {state} for you.")
        self.auto[who] = on
        events: list[Event] = [StandingOrder(self.sides[who], self.title(who), on)]
        if on and self.pending is not None and self.u_side[self.pending[0]] == who:
            uid, options = self.pending
            self.pending = None
            self.step = ATTACK
            self._retreat(uid, options[0], "automatic", events)
        self._legal = None
        return events

    def _finish(self, outcome: Outcome, events: list[Event]) -> None:
        self.result = outcome
        self.phase = OVER
        self.pending = None
        self.draw_offer = None
        self._legal = None
        winner = outcome.winner
        title = None if winner is None else self.title(self.side_index(winner))
        events.append(GameOver(winner, title, outcome.reason.value, outcome.detail))

    # -- design and deployment

    def _design(self, who: int, action: A.Action, events: list[Event]) -> None:
        if not isinstance(action, A.Army):
            raise IllegalAction(
                "First choose your army: a ready-made one or your own counts.",
                self.legal_actions(self.sides[who]),
            )
        counts = self.army_of(action)
        problem = army_problem(counts, self.rules.limits, self.rules.era)
        if problem:
            raise IllegalAction(problem, self.legal_actions(self.sides[who]))
        self.armies[who] = counts
        self.designed[who] = True
        if not all(self.designed):  # the second army is announced with both, below
            events.append(ArmyChosen(self.sides[who], self.title(who), describe_army(counts, self.rules.era)))
        else:
            a0, a1 = self.armies
            assert a0 is not None and a1 is not None
            events.append(ArmiesRevealed(self.title(who)))
            events += [
                ArmyShown(self.title(i), describe_army(a, self.rules.era)) for i, a in enumerate((a0, a1))
            ]
            self.phase = DEPLOY  # (R3): the first side deploys first and moves first

    def army_of(self, action: A.Army) -> dict[str, int]:
        if action.preset is not None:
            if action.preset not in self.rules.presets:
                raise IllegalAction(
                    f"There is no ready-made army '{action.preset}'.",
                    [A.Army(preset=p) for p in self.rules.presets],
                )
            return dict(self.rules.presets[action.preset])
        return action.as_dict()

    def layout_rows(self, who: int, action: A.Deploy) -> tuple[str, ...]:
        army = self.armies[who]
        assert army is not None
        if action.preset is not None:
            return ready_layout(action.preset, army, self.rules.era, self.g.width, self.rules.elite_allowed)
        return action.rows

    def _deploy(self, who: int, action: A.Action, events: list[Event]) -> None:
        if not isinstance(action, A.Deploy):
            raise IllegalAction(
                f"The {self.title(who)} deploy now: a ready-made layout or rows of your own.",
                self.legal_actions(self.sides[who]),
            )
        army = self.armies[who]
        assert army is not None
        if action.preset is not None and action.preset not in A.LAYOUTS:
            raise IllegalAction(
                f"There is no layout '{action.preset}'.", [A.Deploy(preset=p) for p in A.LAYOUTS]
            )
        rows = self.layout_rows(who, action)
        problem = layout_problem(
            rows, self.g.width, DEPLOY_ROWS, army, self.rules.elite_allowed, self.rules.era
        )
        if problem:
            raise IllegalAction(problem, self.legal_actions(self.sides[who]))
        g = self.g
        for p in placements(rows):
            rank = p.row if who == 0 else g.height - 1 - p.row
            self._add_unit(p.code, who, rank * g.width + p.file, p.elite)
        self.deployed[who] = True
        events.append(Deployed(self.sides[who], self.title(who), "/".join(rows)))
        if all(self.deployed):
            self.phase = PLAY
            self.active = 0
            self._begin_turn(events)

    def _add_unit(self, code: str, side: int, sq: int, elite: bool = False) -> int:
        uid = len(self.u_code)
        self.u_code.append(code)
        self.u_side.append(side)
        self.u_sq.append(sq)
        self.u_dmg.append(0)
        self.elite.append(elite)
        self.kills.append(0)
        self.board[sq] = uid
        self.occ[side] |= 1 << sq
        self._touched(1 << sq)
        return uid

    # -- the turn

    def _begin_turn(self, events: list[Event]) -> None:
        side = self.active
        self.turn += 1
        self.taken[side] += 1
        self.last_trail, self.trail = self.trail, []
        self.moved.clear()
        self.attacked.clear()
        self.retreated.clear()
        self.helpers.clear()
        self._move_cache.clear()
        events.append(TurnBegins(self.sides[side], self.title(side), self.taken[side]))
        self.boosted = set()
        airfields = 0
        for u in self.alive(side):
            if self.utype(u).airfield:
                airfields |= 1 << self.u_sq[u]
        if airfields:
            near = self.g.spread(airfields)
            for u in self.alive(side):
                if self.utype(u).para_move and near >> self.u_sq[u] & 1:
                    self.boosted.add(u)  # (W4): judged as the turn begins
        self.step = MOVE
        if self.rules.reinforcements and self.taken[side] % 3 == 0:  # (R18)
            if not any(self.board[s] == NOWHERE for s in self.back_row(side)):
                events.append(NoReinforcement(self.sides[side], "the back row is full", self.title(side)))
            elif not self.reinforcement_types(side):
                events.append(
                    NoReinforcement(
                        self.sides[side],
                        "every type it may be is at its limit on the board",
                        self.title(side),
                    )
                )
            else:
                self.step = REINFORCE

    def _end_turn(self, events: list[Event]) -> None:
        side = self.active
        events.append(TurnEnded(self.sides[side], self.title(side)))
        for u in range(len(self.u_dmg)):
            self.u_dmg[u] = 0  # (R9): damage lasts one turn
        self.retreated.clear()
        self.helpers.clear()
        if self.rules.cities_hold and self.cities_holder() == 1 - side:  # (W6): the hold survived
            self._cities_held(1 - side, events)
            return
        if side == 1 and self.rules.turns and self.taken[1] >= self.rules.turns:  # (R24): 0 is no limit
            self._finish(
                Outcome(
                    None,
                    EndReason.TURN_LIMIT,
                    f"turn limit of {self.rules.turns} turn{'' if self.rules.turns == 1 else 's'} "
                    "each reached",
                ),
                events,
            )
            return
        self.active = 1 - side
        self._begin_turn(events)

    def _play(self, who: int, action: A.Action, events: list[Event]) -> None:
        if self.pending is not None:
            uid, options = self.pending
            if not isinstance(action, A.Retreat):
                # (R12) Name the unit and its squares: the question may have come hours ago.
                name, names = self.unit_name(uid), [self.g.names[o] for o in options]
                where = ", ".join(names[:-1]) + " or " + names[-1]
                raise IllegalAction(
                    f"First choose where your {name} on {self.g.names[self.u_sq[uid]]} "
                    f"{agree(name, 'retreats', 'retreat')}: {where} (`retreat {names[0]}`).",
                    self._generate(),
                )
            dst = self._square(action.dst)
            if dst not in options:
                raise IllegalAction(
                    f"{action.dst} is not a square your {self.unit_name(uid)} may retreat to.",
                    self._generate(),
                )
            self.pending = None
            self.step = ATTACK
            self._retreat(uid, dst, "chosen", events)
            return
        if self.step == REINFORCE:
            self._reinforce(who, action, events)
            return
        if isinstance(action, A.Move):
            self._do_move(who, action, events)
        elif isinstance(action, A.Attack):
            self._do_attack(who, action, events)
        elif isinstance(action, A.Done):
            if self.step != MOVE:
                raise IllegalAction("The move phase is already over; `end` ends your turn.", [A.END])
            self.step = ATTACK
            events.append(MovesDone(self.sides[who], self.title(who)))
        elif isinstance(action, A.End):
            self._end_turn(events)
        elif isinstance(action, A.Retreat):
            raise IllegalAction("No unit of yours is retreating now.")
        elif isinstance(action, A.Reinforce):
            if not self.rules.reinforcements:
                raise IllegalAction("Reinforcements are an optional rule that is not in play in this game.")
            due = (self.taken[who] // 3 + 1) * 3
            raise IllegalAction(
                "No reinforcement is due now: one comes at the start of every third turn of yours, "
                f"before you move, and your next is due on your turn {due}.",
                self._hint_units(who),
            )
        else:
            raise IllegalAction(f"Set-up is over: {self._what_now()}", self._hint_units(who))

    def _what_now(self) -> str:
        """What the side on turn may do in this phase, with an example it can play now."""
        legal = self._generate()
        if self.step == MOVE:
            move = next((a for a in legal if isinstance(a, A.Move)), None)
            example = f"move a unit (e.g. `{move}`), " if move else ""
            return f"{example}`done` to go on to the attacks, or `end` your turn."
        attack = next((a for a in legal if isinstance(a, A.Attack)), None)
        if attack is None:
            return "no unit of yours can attack now; `end` your turn."
        return f"attack an enemy unit in range (e.g. `{attack}`) or `end` your turn."

    def _square(self, name: str) -> int:
        sq = self.g.index.get(name)
        if sq is None:
            last = self.g.names[-1]
            raise IllegalAction(f"{name} is not on this board (a1 to {last}).")
        return sq

    def _own_unit(self, who: int, name: str) -> int:
        sq = self._square(name)
        uid = self.board[sq]
        if uid == NOWHERE:
            raise IllegalAction(f"There is no unit on {name}.", self._hint_units(who))
        if self.u_side[uid] != who:
            raise IllegalAction(f"The unit on {name} is not yours.", self._hint_units(who))
        return uid

    def _hint_units(self, who: int) -> list[AnyAction]:
        return list(self._generate()[:5])

    def _do_move(self, who: int, action: A.Move, events: list[Event]) -> None:
        if self.step != MOVE:
            raise IllegalAction(f"The move phase is over: {self._what_now()}", self._hint_units(who))
        uid = self._own_unit(who, action.src)
        dst = self._square(action.dst)
        t = self.utype(uid)
        if uid in self.moved:
            raise IllegalAction(
                f"Your {t.name} on {action.src} {agree(t.name, 'has', 'have')} already moved this turn.",
                self._hint_units(who),
            )
        if t.move == 0:
            raise IllegalAction(f"Your {t.name} cannot move.", self._hint_units(who))
        if not self.reach(uid) >> dst & 1:
            raise IllegalAction(self._why_not_there(uid, dst), self._unit_moves(uid)[:6])
        self._relocate(uid, dst)
        self.moved.add(uid)
        events.append(Moved(self.sides[who], self.unit_name(uid), action.src, action.dst, self.title(who)))
        self.trail.append(["move", self.sides[who], action.src, action.dst])
        self._cities_taken(who, dst, events)

    def _why_not_there(self, uid: int, dst: int) -> str:
        t = self.utype(uid)
        name = self.g.names[dst]
        if self.board[dst] != NOWHERE:
            return f"{name} is occupied: units never share a square."
        points = self.move_points(uid)
        d = self.g.distance(self.u_sq[uid], dst)
        if d > points:
            squares = "square" if points == 1 else "squares"
            moves = agree(t.name, "moves", "move")
            boost = ""
            if t.para_move and points < t.para_move:
                boost = (
                    f" ({t.plural} have Move {t.para_move} when their turn begins next to a friendly "
                    "Airfield.)"
                )
            return f"Your {t.name} {moves} at most {points} {squares}; {name} is {d} squares away.{boost}"
        if t.airfield:
            # (W2) Name what is wrong with the square; a square that is right for it but walled
            # off gets the path's reason below.
            side = self.u_side[uid]
            foes = self.g.near[dst] & self.occ[1 - side]
            rule = "An airfield may only move to a square next to a friendly unit and not next to an enemy"
            if foes:
                return f"{rule}; {name} is next to the enemy on {self.g.names[next(bits(foes))]}."
            if not self.g.near[dst] & self.occ[side] & ~(1 << self.u_sq[uid]):
                return f"{rule}; no friendly unit stands next to {name}."
        if t.heavy and self.slow:
            return (
                f"No path of empty squares leads to {name} (units cannot pass through others, and "
                f"{t.plural} stop on entering difficult terrain)."
            )
        return f"No path of empty squares leads to {name}: units cannot move through other units."

    def _do_attack(self, who: int, action: A.Attack, events: list[Event]) -> None:
        uid = self._own_unit(who, action.src)
        dst = self._square(action.dst)
        target = self.board[dst]
        if target == NOWHERE or self.u_side[target] == who:
            raise IllegalAction(f"There is no enemy unit on {action.dst}.", self._attack_hints(uid))
        if not self.targets(uid) >> dst & 1:
            raise IllegalAction(self._why_no_attack(uid, target), self._attack_hints(uid))
        if self.step == MOVE:  # an attack closes the move phase (R8)
            self.step = ATTACK
            events.append(MovesDone(self.sides[who], self.title(who)))
        dmg = self.damage_of(uid, target)
        self.attacked.add(uid)
        self.helpers.setdefault(target, set()).add(uid)
        self.u_dmg[target] += dmg
        d = self.defense(target)
        events.append(
            Hit(
                self.sides[who],
                self.unit_name(uid),
                action.src,
                self.unit_name(target),
                action.dst,
                dmg,
                self.u_dmg[target],
                d,
                self.adjective(who),
                self.adjective(1 - who),
                target in self.retreated,
            )
        )
        self.trail.append(["hit", self.sides[who], action.src, action.dst])
        if self.u_dmg[target] >= d:  # (R9): reaching the defence forces a retreat, any excess is lost
            self._forced_retreat(target, events)

    def _attack_hints(self, uid: int) -> list[AnyAction]:
        own: list[AnyAction] = list(self._unit_attacks(uid))
        return own[:5] if own else self._hint_units(self.u_side[uid])

    def _why_no_attack(self, uid: int, target: int) -> str:
        t = self.utype(uid)
        name = self.g.names[self.u_sq[target]]
        if uid in self.attacked:
            has = agree(t.name, "has", "have")
            return f"Your {t.name} on {self.g.names[self.u_sq[uid]]} {has} already attacked this turn."
        if t.airfield and uid in self.moved:
            here = self.g.names[self.u_sq[uid]]
            return (
                f"Your Airfield on {here} moved this turn, and an Airfield cannot move and attack in "
                "one turn."
            )
        d = self.g.distance(self.u_sq[uid], self.u_sq[target])
        if d > t.reach:
            return (
                f"Your {t.name} {agree(t.name, 'has', 'have')} range {t.reach}; {name} is {d} squares away."
            )
        # (W3) Shielded: name the gun that shields it, so the player sees what to take out first.
        rule = "Airfields cannot attack an Anti-Aircraft Gun or a unit next to one"
        if self.utype(target).shield:
            return f"{rule}; {name} is an Anti-Aircraft Gun."
        guns = [
            u
            for u in self.alive(self.u_side[target])
            if self.utype(u).shield and self.g.distance(self.u_sq[u], self.u_sq[target]) == 1
        ]
        gun = self.g.names[self.u_sq[guns[0]]] if guns else "a neighbouring square"
        return f"{rule}; {name} is next to the Anti-Aircraft Gun on {gun}."

    def falls_if_forced(self, uid: int) -> str | None:
        """Why a forced retreat of `uid` now would destroy it (the `Destroyed` event's reason), or
        None when it would fall back: one test for the engine and for what the players are told."""
        if uid in self.retreated:
            return "double whammy"  # (R13)
        t = self.utype(uid)
        if t.base:
            return "base"  # (W5)
        if t.move == 0:
            return "cannot move"  # (R14): a unit that cannot move cannot retreat (the WWI HQ)
        if self.retreat_squares(uid):
            return None
        side = self.u_side[uid]
        on_back = self.u_sq[uid] // self.g.width == (0 if side == 0 else self.g.height - 1)
        return "off the board" if on_back else "no retreat"

    def _forced_retreat(self, uid: int, events: list[Event]) -> None:
        side = self.u_side[uid]
        why = self.falls_if_forced(uid)
        if why is not None:
            self._destroy(uid, why, events)
            return
        options = self.retreat_squares(uid)
        if len(options) == 1:
            self._retreat(uid, options[0], "only square", events)
        elif self.auto[side]:
            self._retreat(uid, options[0], "automatic", events)
        else:
            self.pending = (uid, options)
            self.step = RETREAT
            names = self.g.names
            events.append(
                RetreatOwed(
                    self.sides[side],
                    self.title(side),
                    self.unit_name(uid),
                    names[self.u_sq[uid]],
                    tuple(names[s] for s in options),
                )
            )

    def _retreat(self, uid: int, dst: int, how: str, events: list[Event]) -> None:
        names = self.g.names
        src = self.u_sq[uid]
        self._relocate(uid, dst)
        self.u_dmg[uid] = 0  # (R13): a unit that fell back starts counting again
        self.retreated.add(uid)
        side = self.u_side[uid]
        events.append(
            Retreated(
                self.sides[side], self.unit_name(uid), names[src], names[dst], how, self.adjective(side)
            )
        )
        self.trail.append(["retreat", self.sides[side], names[src], names[dst]])
        self._cities_taken(side, dst, events)

    def cities_holder(self) -> int | None:
        """The side whose units stand on every city, if one does."""
        if not (self.rules.cities and self.cities):
            return None
        first = self.board[self.cities[0]]
        if first == NOWHERE:
            return None
        side = self.u_side[first]
        if all(self.board[c] != NOWHERE and self.u_side[self.board[c]] == side for c in self.cities):
            return side
        return None

    def _cities_taken(self, side: int, dst: int, events: list[Event]) -> None:
        """(W6) City Spaces: a side whose units come to stand on every city (a move to `dst`, or
        even a retreat there in the enemy's turn) wins if it still stands on them all when its own
        next turn begins, and the players are told so; edition 1 ended the game at once."""
        if self.phase == OVER or dst not in self.cities or self.cities_holder() != side:
            return
        n = len(self.cities)
        if self.rules.cities_hold:
            # Only a second-side hold made in its own last turn has no next turn before the limit
            # (every other hold is judged as an enemy turn ends, before the limit: W6, R24).
            last = side == 1 == self.active and 0 < self.rules.turns <= self.taken[1]
            events.append(CitiesHeld(self.sides[side], self.title(side), n, too_late=last))
            return
        self._finish(Outcome(self.sides[side], EndReason.OBJECTIVE, f"they occupy all {n} cities"), events)

    def _cities_held(self, side: int, events: list[Event]) -> None:
        """(W6) The enemy's turn is over and `side` still stands on every city: it wins as its own
        turn would begin."""
        n = len(self.cities)
        enemy = self.whose(1 - side)
        self._finish(
            Outcome(
                self.sides[side], EndReason.OBJECTIVE, f"they held all {n} cities through the {enemy} turn"
            ),
            events,
        )

    def _destroy(self, uid: int, why: str, events: list[Event]) -> None:
        side = self.u_side[uid]
        sq = self.u_sq[uid]
        name = self.unit_name(uid)
        self.board[sq] = NOWHERE
        self.occ[side] &= ~(1 << sq)
        self.u_sq[uid] = NOWHERE
        self.u_dmg[uid] = 0
        self._touched(1 << sq)
        events.append(Destroyed(self.sides[side], name, self.g.names[sq], why, self.adjective(side)))
        self.trail.append(["destroyed", self.sides[side], self.g.names[sq], self.u_code[uid]])
        for h in sorted(self.helpers.pop(uid, ())):  # (R17): every unit that hit it this turn helped
            if self.u_sq[h] == NOWHERE:
                continue
            self.kills[h] += 1
            if self.rules.experienced and not self.elite[h] and self.kills[h] >= EXPERIENCED_KILLS:
                self.elite[h] = True
                mine = self.u_side[h]
                events.append(
                    BecameElite(
                        self.sides[mine], self.utype(h).name, self.g.names[self.u_sq[h]], self.adjective(mine)
                    )
                )
        if self.u_code[uid] == "H":
            winner = 1 - side
            self._finish(
                Outcome(
                    self.sides[winner],
                    EndReason.OBJECTIVE,
                    f"the {self.adjective(side)} Headquarters was destroyed",
                ),
                events,
            )

    def _relocate(self, uid: int, dst: int) -> None:
        side = self.u_side[uid]
        src = self.u_sq[uid]
        self.board[src] = NOWHERE
        self.board[dst] = uid
        self.occ[side] = (self.occ[side] & ~(1 << src)) | (1 << dst)
        self.u_sq[uid] = dst
        self._touched((1 << src) | (1 << dst))

    def _touched(self, changed: int) -> None:
        """Forget the cached moves of units near squares whose occupancy changed."""
        cache = self._move_cache
        if cache:
            stale = [u for u, (_, span, _) in cache.items() if span & changed]
            for u in stale:
                del cache[u]

    def _reinforce(self, who: int, action: A.Action, events: list[Event]) -> None:
        hints = self._generate()[:5]
        if not isinstance(action, A.Reinforce):
            raise IllegalAction(
                "A reinforcement is due: place it on an empty square of your back row first "
                f"(e.g. `{hints[0]}`).",
                hints,
            )
        kinds = self.reinforcement_types(who)
        if action.code not in {t.code for t in kinds}:
            allowed = ", ".join(f"{t.name} ({t.code})" for t in kinds)
            raise IllegalAction(
                f"{self._why_not_reinforcement(who, action.code)} Allowed now: {allowed}.", hints
            )
        dst = self._square(action.dst)
        if dst not in self.back_row(who) or self.board[dst] != NOWHERE:
            raise IllegalAction(
                f"Reinforcements arrive on an empty square of your back row; {action.dst} is not one.",
                hints,
            )
        self._add_unit(action.code, who, dst)
        self.step = MOVE
        name = self.rules.era.by_code[action.code].name
        events.append(Reinforced(self.sides[who], name, action.dst, self.title(who)))
        self.trail.append(["reinforce", self.sides[who], action.dst, action.dst])

    def _why_not_reinforcement(self, who: int, code: str) -> str:
        """Why a reinforcement may not be of type `code` now (R19, W10)."""
        t = self.types.get(code)
        if t is None:
            return f"There is no unit '{code}' in this game."
        if t.hq:
            return "A reinforcement is never a Headquarters."
        if t.base:
            return f"A reinforcement is never a base, so not a {t.name}."
        on_board = [self.u_code[u] for u in self.alive(who)]
        n = on_board.count(code)
        most = self.rules.limits.most.get(code)
        if most is not None and n >= most:
            return f"You already have {t.counted(n)} on the board, the most your army may have."
        cap = self.rules.limits.class_most.get(t.cls, 0)
        n = sum(1 for c in on_board if self.types[c].cls == t.cls)
        return f"You already have {n} {class_words(t.cls)} on the board, the most your army may have ({cap})."

    # ------------------------------------------------------------------ copies and JSON

    def clone(self) -> State:
        s = State.__new__(State)
        s.options = self.options
        s.rules = self.rules
        s.types = self.types
        s.seed = self.seed
        s.draws = self.draws
        s.g = self.g
        s.sides = self.sides
        s.phase = self.phase
        s.step = self.step
        s.designed = list(self.designed)
        s.armies = [None if a is None else dict(a) for a in self.armies]
        s.deployed = list(self.deployed)
        s.u_code = list(self.u_code)
        s.u_side = list(self.u_side)
        s.u_sq = list(self.u_sq)
        s.u_dmg = list(self.u_dmg)
        s.elite = list(self.elite)
        s.kills = list(self.kills)
        s.board = list(self.board)
        s.occ = list(self.occ)
        s.terrain = self.terrain
        s.cities = self.cities
        s.bonus = self.bonus
        s.slow = self.slow
        s.active = self.active
        s.turn = self.turn
        s.taken = list(self.taken)
        s.moved = set(self.moved)
        s.attacked = set(self.attacked)
        s.retreated = set(self.retreated)
        s.helpers = {k: set(v) for k, v in self.helpers.items()}
        s.boosted = set(self.boosted)
        s.pending = self.pending
        s.auto = list(self.auto)
        s.draw_offer = self.draw_offer
        s.result = self.result
        s.trail = list(self.trail)
        s.last_trail = self.last_trail
        s._legal = self._legal
        s._move_cache = dict(self._move_cache)
        return s

    def to_json(self) -> dict[str, Any]:
        r = self.result
        return {
            "era": self.rules.era.key,
            "options": dict(self.options),
            "seed": self.seed,
            "draws": self.draws,
            "phase": self.phase,
            "step": self.step,
            "designed": list(self.designed),
            "armies": [None if a is None else dict(a) for a in self.armies],
            "deployed": list(self.deployed),
            "units": {
                "code": "".join(self.u_code),
                "side": list(self.u_side),
                "sq": list(self.u_sq),
                "dmg": list(self.u_dmg),
                "elite": list(self.elite),
                "kills": list(self.kills),
            },
            "terrain": list(self.terrain),
            "cities": list(self.cities),
            "active": self.active,
            "turn": self.turn,
            "taken": list(self.taken),
            "moved": sorted(self.moved),
            "attacked": sorted(self.attacked),
            "retreated": sorted(self.retreated),
            "helpers": [[k, sorted(v)] for k, v in sorted(self.helpers.items())],
            "boosted": sorted(self.boosted),
            "pending": None if self.pending is None else [self.pending[0], list(self.pending[1])],
            "auto": list(self.auto),
            "draw_offer": self.draw_offer,
            "result": None if r is None else r.to_json(),
            "trail": [list(t) for t in self.trail],
            "last_trail": [list(t) for t in self.last_trail],
            **({"edition": self.rules.edition} if self.rules.edition != 1 else {}),
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> State:
        # A snapshot from before editions names none: edition 1.
        options = {**data["options"], EDITION: int(data.get("edition", 1))}
        s = State(str(data["era"]), options, int(data["seed"]))
        s.draws = int(data["draws"])
        s.phase = str(data["phase"])
        s.step = str(data["step"])
        s.designed = [bool(x) for x in data["designed"]]
        s.armies = [None if a is None else {str(k): int(v) for k, v in a.items()} for a in data["armies"]]
        s.deployed = [bool(x) for x in data["deployed"]]
        u = data["units"]
        s.u_code = list(u["code"])
        s.u_side = [int(x) for x in u["side"]]
        s.u_sq = [int(x) for x in u["sq"]]
        s.u_dmg = [int(x) for x in u["dmg"]]
        s.elite = [bool(x) for x in u["elite"]]
        s.kills = [int(x) for x in u["kills"]]
        s.board = [NOWHERE] * s.g.size
        s.occ = [0, 0]
        for uid, sq in enumerate(s.u_sq):
            if sq != NOWHERE:
                s.board[sq] = uid
                s.occ[s.u_side[uid]] |= 1 << sq
        s.terrain = [str(t) for t in data["terrain"]]
        s.cities = [int(c) for c in data["cities"]]
        s._derive_map()
        s.active = int(data["active"])
        s.turn = int(data["turn"])
        s.taken = [int(x) for x in data["taken"]]
        s.moved = {int(x) for x in data["moved"]}
        s.attacked = {int(x) for x in data["attacked"]}
        s.retreated = {int(x) for x in data["retreated"]}
        s.helpers = {int(k): {int(x) for x in v} for k, v in data["helpers"]}
        s.boosted = {int(x) for x in data["boosted"]}
        p = data["pending"]
        s.pending = None if p is None else (int(p[0]), tuple(int(x) for x in p[1]))
        s.auto = [bool(x) for x in data["auto"]]
        s.draw_offer = None if data["draw_offer"] is None else int(data["draw_offer"])
        r = data["result"]
        s.result = None if r is None else Outcome.from_json(r)
        s.trail = [[str(x) for x in t] for t in data["trail"]]
        s.last_trail = [[str(x) for x in t] for t in data["last_trail"]]
        return s


class View:
    """What one side (or a spectator, `side` None) may know: everything but an army still secret.

    It holds its own copy of the state with the hidden army removed (and no seed), so renderers and
    the AI, which get views, cannot see a secret design by construction (R2).
    """

    __slots__ = ("side", "state")

    def __init__(self, state: State, side: str | None) -> None:
        s = state.clone()
        if s.phase == DESIGN:
            for i in (0, 1):
                if s.sides[i] != side:
                    s.armies[i] = None
        s.seed = 0
        s._legal = None
        self.state = s
        self.side = side

    @property
    def viewer(self) -> str | None:
        return self.side

    def to_json(self) -> dict[str, Any]:
        data = self.state.to_json()
        data["viewer"] = self.side
        return data

    @staticmethod
    def from_json(data: dict[str, Any]) -> View:
        full = dict(data)
        viewer = full.pop("viewer", None)
        view = View.__new__(View)
        view.state = State.from_json(full)
        view.side = viewer
        return view

    def determinize(self, rng: random.Random) -> State:
        """A full state consistent with this view: a secret army is invented, plausibly."""
        s = self.state.clone()
        for i in (0, 1):
            if s.designed[i] and s.armies[i] is None:
                s.armies[i] = random_army(s.rules.era, s.rules.limits, rng, s.rules.presets)
        return s


def new_game(era: str, options: Mapping[str, Any], seed: int) -> State:
    s = State(era, options, seed)
    s._lay_map()
    return s


def replay(era: str, options: Mapping[str, Any], seed: int, log: Sequence[tuple[str, str]]) -> State:
    """The state after playing `log` ((side, notation) pairs) from the start."""
    s = new_game(era, options, seed)
    for side, text in log:
        s.apply(text, side)
    return s


__all__ = [
    "ATTACK",
    "DEPLOY",
    "DESIGN",
    "MOVE",
    "NOWHERE",
    "OVER",
    "PLAY",
    "REINFORCE",
    "RETREAT",
    "State",
    "View",
    "new_game",
    "replay",
]

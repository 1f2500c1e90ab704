"""The Block Wars state: every rule, the pending decisions and explicit, seeded chance.

The state is a plain mutable object; `apply` validates an action, resolves it as far as it can
and stops at the next pending decision (which may belong to the side whose turn it is not).
Rulings the rulebook leaves open are numbered in rules/blockwars.md and referenced here as (R<n>).
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine import chance
from engine.blockwars import actions as A
from engine.blockwars.actions import Action, parse
from engine.blockwars.events import (
    AirBattle,
    AircraftHit,
    BarrageFired,
    BarrageHit,
    Combat,
    CrossUsed,
    DecisionNeeded,
    Declined,
    Deployed,
    DrawDeclined,
    DrawLapsed,
    DrawOffered,
    Event,
    Fizzled,
    GameOver,
    Moved,
    Reinforced,
    Removed,
    Reshuffled,
    TankDamaged,
    TankMoved,
    TurnEnded,
)
from engine.blockwars.model import (
    AIRCRAFT_NAMES,
    DAMAGED,
    DESTROYED,
    INFANTRY,
    MACHINE_GUN,
    OK,
    PRESETS,
    STANDARD,
    TANK,
    Layout,
    Options,
    Side,
    unit_kind,
    unit_side,
)
from engine.blockwars.squares import AREA, FILES, NEIGHBOURS, SQUARE_NAMES, rank_of, sight_lines, square
from engine.cards import ACE, FULL_PACK, JACK, KING, Card
from engine.errors import IllegalAction
from engine.meta import Abandon, DrawAccept, DrawOffer, MetaAction, Resign, Timeout
from engine.protocol import Action as AnyAction
from engine.protocol import EndReason, Outcome

SETUP, PLAY, OVER = "setup", "play", "over"
TANK_ID = "CT"
BARRAGE_KILLS = frozenset({2, 3})  # (R9)
GAS_KILLS = frozenset({2, 3, 4, 5, 6})
QUIET_TURN_LIMIT = 60  # (R24): 30 turns each without a single fight is a dead position


def _arc(forward: int) -> list[tuple[int, int]]:
    return [(df, forward * dr) for dr in (1, 2) for df in range(-dr, dr + 1)]


# Machine-gun sight lines per side and square: (target, squares that block it).   (R6)
MG_LINES = {side: tuple(sight_lines(i, _arc(side.forward)) for i in range(64)) for side in Side}
_ALL_AROUND = [(df, dr) for dr in range(-2, 3) for df in range(-2, 3) if df or dr]
TANK_LINES = tuple(sight_lines(i, _ALL_AROUND) for i in range(64))
# Interned infantry actions per square, so generating moves allocates nothing.
_STEPS = tuple(tuple((d, A.move(s, d)) for d in NEIGHBOURS[s]) for s in range(64))
_STRIKES = tuple(tuple((t, A.attack(s, t)) for t in NEIGHBOURS[s]) for s in range(64))
_REINFORCE = tuple(A.intern(A.Reinforce(s)) for s in range(64))
_TANK_REINFORCE = tuple(A.intern(A.Reinforce(f, tank=True)) for f in range(7))
_GUN_REINFORCE = tuple(A.intern(A.Reinforce(s, gun=True)) for s in range(64))
_TANK_FIRE = tuple(A.intern(A.TankFire(s)) for s in range(64))
_VIAS = tuple(
    {v: tuple((t, A.attack(s, t, v)) for t in NEIGHBOURS[v] if t != s) for v in NEIGHBOURS[s]}
    for s in range(64)
)


# Neighbourhoods as bit masks (bit i = square i): "is this square next to an enemy?" in one test.
_NMASK = tuple(sum(1 << n for n in NEIGHBOURS[s]) for s in range(64))
_TANK_NMASK = tuple(
    (_NMASK[a] | _NMASK[a + 1] | _NMASK[a + 8] | _NMASK[a + 9]) if a % 8 < 7 and a < 56 else 0
    for a in range(64)
)
_BARRAGES = tuple(A.intern(A.Barrage(s)) for s in range(64))
_GAS = tuple(A.intern(A.Barrage(s, gas=True)) for s in range(64))
_STRAFES = tuple(A.intern(A.Strafe(s)) for s in range(64))
_FLY = {n: A.intern(A.Fly(n)) for n in AIRCRAFT_NAMES}
_DOGFIGHT = {n: A.intern(A.Dogfight(n)) for n in AIRCRAFT_NAMES}


def tank_squares(anchor: int) -> tuple[int, int, int, int]:
    """The tank's four squares from its lower-left corner (as seen from a1)."""
    return (anchor, anchor + 1, anchor + 8, anchor + 9)


# What each kind of decision is called in a refusal: "First finish the Ace's reinforcement: ...".
DECISION_LABELS = {
    "barrage": "artillery barrage",
    "ace": "Ace's reinforcement",
    "fly": "air battle",
    "dogfight": "dogfight",
    "strafe": "strafe",
    "cross": "Cross",
}


@dataclass(slots=True)
class Decision:
    """A choice the game waits for; `side` may be the side whose turn it is not."""

    kind: str  # barrage, ace, fly, dogfight, strafe, cross
    side: Side
    data: dict[str, Any] = field(default_factory=dict)

    def prompt(self, legal: Sequence[Action] = ()) -> str:
        """The decision with the side that must take it: "Germans: the King calls ..."."""
        return f"{self.side.title}: {self.question(legal)}"

    def question(self, legal: Sequence[Action] = (), *, public: bool = False) -> str:
        """What must be decided and the exact words that answer it: addressed to the side deciding
        ("your aircraft"), or, `public`, worded for everyone who reads the board in the channel,
        which names the side ("the Canadians' aircraft").

        `legal` (the decision's legal answers) gives the examples real squares and aircraft.
        """
        side = self.side
        whose = f"the {side.title}'" if public else "your"
        if self.kind == "barrage":
            gas = (
                f" Or declare {'the' if public else 'your'} once-a-game poison gas: `gas e4`."
                if any(isinstance(a, A.Barrage) and a.gas for a in legal)
                else ""
            )
            return (
                "the King calls an artillery barrage. Answer `barrage <square>` with its centre, "
                f"e.g. `barrage e4`.{gas}"
            )
        if self.kind == "ace":
            return f"the Ace brings a reinforcement onto {whose} back row. Answer {_ace_answers(legal)}."
        if self.kind == "fly":
            planes = [str(a) for a in legal if isinstance(a, A.Fly)] or ["fly A", "fly B"]
            return f"the Jack starts an air battle. Choose the aircraft that flies: {_either(planes)}."
        if self.kind == "dogfight":
            planes = [str(a) for a in legal if isinstance(a, A.Dogfight)] or ["dogfight A"]
            enemy = side.other.adjective if public else "enemy"
            meet = f"The {side.title} may meet it" if public else "Meet it"
            return (
                f"{enemy} aircraft {self.data['aircraft']} is coming to strafe. {meet} with "
                f"{_either(planes)}, or answer `decline`."
            )
        if self.kind == "strafe":
            target = next((str(a) for a in legal if isinstance(a, A.Strafe)), "strafe e4")
            unit = f"a {side.other.adjective} unit" if public else "an enemy unit"
            tank = " (not the tank)" if side is Side.GERMANS else ""  # the tank is the Canadians' own
            return (
                f"{whose} aircraft {self.data['aircraft']} may strafe {unit}{tank}. Answer "
                f"`strafe <square>`, e.g. `{target}`, or `decline`."
            )
        cross = "Victoria Cross" if side is Side.CANADIANS else "Iron Cross"
        return (
            f"{whose} infantry on {self.data['square']} lost its fight. Answer `cross` to spend the {cross} "
            "and win it instead, or `decline` to keep the Cross."
        )

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "side": self.side.value, "data": dict(self.data)}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Decision:
        return Decision(data["kind"], Side(data["side"]), dict(data["data"]))


def _either(words: Sequence[str]) -> str:
    """`a`, `a` or `b`, `a`, `b` or `c`: answers in backticks, as a player types them."""
    quoted = [f"`{w}`" for w in words]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"


def _and(words: Sequence[str]) -> str:
    """a, a and b, a, b and c."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _files_fault(files: str) -> str:
    """What is wrong with a set-up's files, in words: "c is named twice", "3 files given: a, b and c".
    Files are listed from a to h (the notation is read that way), never echoed as if typed so."""
    again = sorted({f for f in files if files.count(f) > 1})
    if again:
        times = "twice" if all(files.count(f) == 2 for f in again) else "more than once"
        return f"{_and(again)} {'is' if len(again) == 1 else 'are'} named {times}"
    given = sorted(files)
    if not given:
        return "no file is given"
    return f"{len(given)} file{'s' if len(given) > 1 else ''} given: {_and(given)}"


def _ace_answers(legal: Sequence[Action]) -> str:
    """The Ace's answers that are legal now, each with an example square."""
    found: dict[str, str] = {}
    for a in legal:
        if isinstance(a, A.Reinforce):
            found.setdefault("T" if a.tank else "M" if a.gun else "R", SQUARE_NAMES[a.at])
    parts = []
    if "R" in found or not found:
        parts.append(f"`R@<square>` for infantry, e.g. `R@{found.get('R', 'a1')}`")
    if "M" in found:
        parts.append(f"`M@<square>` to bring back a machine gun, e.g. `M@{found['M']}`")
    if "T" in found:
        parts.append(f"`T@<square>` for the tank (its lower-left square), e.g. `T@{found['T']}`")
    return parts[0] if len(parts) == 1 else f"{'; '.join(parts[:-1])}; or {parts[-1]}"


class State:
    """One game of Block Wars. Build it with `new_game` or `State.from_json`."""

    __slots__ = (
        "_events",
        "_legal",
        "actions_left",
        "active",
        "aircraft",
        "board",
        "card_turned",
        "casualties",
        "cross_used",
        "decks",
        "deployed",
        "discards",
        "draw_offer",
        "entered",
        "gas_used",
        "moved",
        "options",
        "pending",
        "phase",
        "pos",
        "queue",
        "quiet_turns",
        "reserves",
        "result",
        "seed",
        "shuffles",
        "tank_damage",
        "turn",
    )

    def __init__(self, options: Options, seed: int) -> None:
        self.options = options
        self.seed = seed
        self.phase = SETUP
        self.deployed: dict[Side, bool] = {Side.GERMANS: False, Side.CANADIANS: False}
        self.board: list[str | None] = [None] * 64
        self.pos: dict[str, int] = {}
        self.tank_damage = 0
        self.reserves: dict[Side, list[str]] = {
            Side.GERMANS: [f"GI{i:02d}" for i in range(1, 21)] + ["GM1", "GM2"],
            Side.CANADIANS: [f"CI{i:02d}" for i in range(1, 22)] + ["CM1", TANK_ID],
        }
        self.casualties: dict[Side, list[str]] = {Side.GERMANS: [], Side.CANADIANS: []}
        self.decks: dict[Side, list[Card]] = {Side.GERMANS: [], Side.CANADIANS: []}
        self.discards: dict[Side, list[Card]] = {Side.GERMANS: [], Side.CANADIANS: []}
        self.shuffles = 0
        self.aircraft: dict[Side, dict[str, str]] = {s: dict.fromkeys(AIRCRAFT_NAMES, OK) for s in Side}
        self.gas_used = False
        self.cross_used: dict[Side, bool] = {Side.GERMANS: False, Side.CANADIANS: False}
        self.active = Side.GERMANS  # (R1)
        self.actions_left = 2
        self.turn = 0
        self.quiet_turns = 0  # whole turns in a row without a card turned (R24)
        self.card_turned = False  # a card was turned in the turn under way: it is not a quiet one
        self.moved: set[str] = set()
        self.entered: set[str] = set()
        self.pending: Decision | None = None
        self.queue: list[dict[str, Any]] = []
        self.result: Outcome | None = None
        self.draw_offer: Side | None = None
        self._events: list[Event] = []
        self._legal: list[Action] | None = None

    # ------------------------------------------------------------------ queries

    def current_player(self) -> Side | None:
        """The side that must act now: a pending decision's owner, else the side to move."""
        if self.phase == OVER:
            return None
        if self.phase == SETUP:
            return Side.CANADIANS if self.deployed[Side.GERMANS] else Side.GERMANS
        if self.pending is not None:
            return self.pending.side
        return self.active

    def is_over(self) -> bool:
        return self.phase == OVER

    def outcome(self) -> Outcome | None:
        """How the game ended (None while it goes on)."""
        return self.result

    def to_act(self) -> frozenset[str]:
        side = self.current_player()
        return frozenset() if side is None else frozenset((side,))

    def turn_number(self) -> int:
        """Whole turns begun: a German turn and the Canadian turn after it make one (0 in set-up)."""
        return (self.turn + 1) // 2

    def chance_drawn(self) -> int:
        """The protocol's mark of chance drawn: a deal counts 64 (more than the 52 cards it brings
        back), each card turned one (the discards hold the cards turned since the last deal)."""
        return self.shuffles * 64 + len(self.discards[Side.GERMANS]) + len(self.discards[Side.CANADIANS])

    def quick_decision(self) -> bool:
        """Block Wars' decisions run on the turn's clock (they are part of the turn)."""
        return False

    def default_action(self, side: str) -> Action | None:
        return None

    def unit_at(self, sq: int) -> str | None:
        return self.board[sq]

    def tank_anchor(self) -> int | None:
        return self.pos.get(TANK_ID)

    def on_board(self, side: Side) -> list[str]:
        prefix = side.value[0].upper()
        return sorted(uid for uid in self.pos if uid[0] == prefix)

    def available_aircraft(self, side: Side) -> list[str]:
        return [n for n, st in self.aircraft[side].items() if st != DESTROYED]

    def cross_available(self, side: Side) -> bool:
        return self.options.crosses and not self.cross_used[side]

    def gas_available(self) -> bool:
        return not self.gas_used

    def legal_actions(self, side: str | None = None) -> list[Action]:
        """Every legal action for `current_player()`, in a stable order (board order, a1 first);
        none for any other `side`.

        During set-up this lists the standard deployment and a few presets; any other valid
        layout is accepted by `apply` too (the full space has 137,200 layouts).
        """
        if side is not None and side != self.current_player():
            return []
        return list(self._legal_list())

    def legal_for(self, sq: int) -> list[Action]:
        """The legal actions of the unit on `sq` (for hints, overlays and autocomplete)."""
        uid = self.board[sq]
        out = []
        for a in self._legal_list():
            src = getattr(a, "src", None)
            if src == sq or (uid == TANK_ID and isinstance(a, A.TankMove | A.TankFire)):
                out.append(a)
        return out

    def view(self, side: str | None) -> View:
        return View(self, Side(side) if side is not None else None)

    # ------------------------------------------------------------------ legal action generation

    def _legal_list(self) -> list[Action]:
        if self._legal is None:
            self._legal = self._generate()
        return self._legal

    def _generate(self) -> list[Action]:
        if self.phase == OVER:
            return []
        if self.phase == SETUP:
            side = self.current_player()
            assert side is not None
            return [A.intern(A.Setup(None)), *(A.intern(A.Setup(p)) for p in PRESETS[side])]
        if self.pending is not None:
            return self._decision_actions(self.pending)
        return self._play_actions()

    def _play_actions(self) -> list[Action]:
        side = self.active
        own = "G" if side is Side.GERMANS else "C"
        board = self.board
        moved, entered = self.moved, self.entered
        lines = MG_LINES[side]
        # Squares next to an enemy unit (a bit mask): only there can infantry attack from.
        near = 0
        mine: list[tuple[int, str]] = []
        for uid, at in self.pos.items():
            if uid[0] == own:
                if uid != TANK_ID:
                    mine.append((at, uid))
            elif uid == TANK_ID:
                near |= _TANK_NMASK[at]
            else:
                near |= _NMASK[at]
        mine.sort()
        out: list[Action] = []
        append = out.append
        for sq, uid in mine:
            code = uid[1]
            if code == "I":
                if uid in moved:
                    continue
                steps = _STEPS[sq]
                for d, m in steps:
                    if board[d] is None:
                        append(m)
                if uid in entered:  # (R14)
                    continue
                if near >> sq & 1:
                    for t, a in _STRIKES[sq]:
                        occ = board[t]
                        if occ is not None and occ[0] != own:
                            append(a)
                vias = _VIAS[sq]
                for d, _ in steps:
                    if near >> d & 1 and board[d] is None:
                        for t, a in vias[d]:
                            occ = board[t]
                            if occ is not None and occ[0] != own:
                                append(a)
            elif code == "M":
                if uid in entered:
                    continue
                for t, block in lines[sq]:
                    occ = board[t]
                    if occ is not None and occ[0] != own and occ != TANK_ID:
                        for b in block:
                            if board[b] is not None:
                                break
                        else:
                            append(A.attack(sq, t))
        if own == "C" and TANK_ID in self.pos:
            if self.actions_left == 2:
                for fwd in (True, False):
                    if self._tank_move_block(fwd) is None:
                        append(A.TANK_FORWARD if fwd else A.TANK_BACK)
            if TANK_ID not in entered:
                out.extend(_TANK_FIRE[t] for t in self._tank_targets())
        if self.actions_left == 2:
            out.extend(self._placements(side, from_casualties=False))
        append(A.END)
        return out

    def _tank_targets(self) -> list[int]:
        board = self.board
        squares = tank_squares(self.pos[TANK_ID])
        found: set[int] = set()
        for s in squares:
            for t, block in TANK_LINES[s]:
                occ = board[t]
                if occ is None or occ[0] != "G" or t in found:
                    continue
                if all(board[b] is None or b in squares for b in block):
                    found.add(t)
        return sorted(found)

    def _tank_move_block(self, forward: bool) -> str | None:
        """Why the tank cannot move that way, or None if it can."""
        anchor = self.pos[TANK_ID]
        step = 8 if forward else -8
        new = anchor + step
        if not 0 <= new <= 55:
            return "the tank would leave the board"
        for s in tank_squares(new):
            occ = self.board[s]
            if occ is not None and occ != TANK_ID:
                return f"{SQUARE_NAMES[s]} is occupied"
        return None

    def _placements(self, side: Side, from_casualties: bool) -> list[Action]:
        """Reinforcement squares: infantry on an empty back-row square; the tank on rows 1-2. With
        `from_casualties` (an Ace) and no infantry left in reserve, a fallen infantry unit or machine
        gun may come back instead, onto the back row too. (R12, R13)"""
        out: list[Action] = []
        board = self.board
        reserve = self.reserves[side]
        has_inf = bool(reserve) and reserve[0][1] == "I"  # infantry ids sort before MG and tank ids
        has_gun = False
        if not has_inf and from_casualties:
            has_inf = any(u[1] == "I" for u in self.casualties[side])
            has_gun = any(u[1] == "M" for u in self.casualties[side])
        back = side.back_rank * 8
        empty = [s for s in range(back, back + 8) if board[s] is None]
        if has_inf:
            out.extend(_REINFORCE[s] for s in empty)
        if has_gun:
            out.extend(_GUN_REINFORCE[s] for s in empty)
        if side is Side.CANADIANS and TANK_ID in reserve:
            for f in range(7):
                if (
                    board[f] is None
                    and board[f + 1] is None
                    and board[f + 8] is None
                    and board[f + 9] is None
                ):
                    out.append(_TANK_REINFORCE[f])
        return out

    def _decision_actions(self, d: Decision) -> list[Action]:
        if d.kind == "barrage":
            out: list[Action] = list(_BARRAGES)
            if d.side is Side.GERMANS and not self.gas_used:
                out.extend(_GAS)
            return out
        if d.kind == "ace":
            return self._placements(d.side, from_casualties=True)
        if d.kind == "fly":
            return [_FLY[n] for n in self.available_aircraft(d.side)]
        if d.kind == "dogfight":
            return [*(_DOGFIGHT[n] for n in self.available_aircraft(d.side)), A.DECLINE]
        if d.kind == "strafe":
            return [*(_STRAFES[t] for t in self._strafe_targets(d.side)), A.DECLINE]
        return [A.USE_CROSS, A.DECLINE]

    def _strafe_targets(self, side: Side) -> list[int]:
        enemy = "C" if side is Side.GERMANS else "G"
        return [s for s, u in enumerate(self.board) if u is not None and u[0] == enemy and u != TANK_ID]

    # ------------------------------------------------------------------ applying actions

    def apply(self, action: AnyAction | str, side: str | None = None) -> list[Event]:
        """Validate and resolve one action; return what happened.

        `side` is who is acting: optional for ordinary actions (checked if given), required for
        resign, timeout and the draw actions, which either player may send at any time.
        """
        if isinstance(action, str):
            action = parse(action)
        if side is not None:
            side = Side(side)
        if isinstance(action, MetaAction):
            return self._apply_meta(action, side)
        if not isinstance(action, Action):
            raise IllegalAction(f"'{action}' is not a Block Wars action.")
        if self.phase == OVER:
            raise IllegalAction("The game is over.")
        actor = self.current_player()
        assert actor is not None
        if side is not None and side is not actor:
            raise IllegalAction(self._not_your_turn(side))
        if isinstance(action, A.BareSquare):
            if not 0 <= action.at < len(SQUARE_NAMES):
                raise IllegalAction("That square is not on the board: squares run from a1 to h8.")
            from engine.blockwars import refusals  # only a bare square or a refusal needs it

            action = refusals.from_square(self, action.at)
        if isinstance(action, A.Setup):
            if self.phase != SETUP:
                raise IllegalAction("Both sides have already deployed; set-up is over.")
            self._check_setup(actor, action)
        else:
            legal = self._legal_list()
            for a in legal:
                if a is action:
                    break
            else:
                if action not in legal:
                    from engine.blockwars import refusals

                    raise IllegalAction(refusals.refusal_words(self, action), refusals.hint(self, action))
        self._legal = None
        self._events = events = list[Event]()
        if self.draw_offer is actor.other:  # (R20)
            self.draw_offer = None
            events.append(DrawLapsed(actor.other))
        if isinstance(action, A.Setup):
            self._do_setup(actor, action)
        elif self.pending is not None:
            self._answer(self.pending, action)
            self._run()
        else:
            self._do_play(action)
            self._run()
            if isinstance(action, A.EndTurn):  # "Canadians: end" told the choice in notation
                events[:] = [replace(e, chosen=True) if isinstance(e, TurnEnded) else e for e in events]
        self._events = []
        return events

    def _not_your_turn(self, side: Side) -> str:
        actor = self.current_player()
        assert actor is not None
        if self.pending is not None:
            what = DECISION_LABELS[self.pending.kind]
            return f"It is not your decision: the {actor.title} must first answer the {what}."
        if self.phase == SETUP:
            return f"The {actor.title} deploy first; wait for them."
        return f"It is the {actor.title}' turn, not yours."

    # -- set-up

    def _check_setup(self, side: Side, action: A.Setup) -> None:
        layout = action.layout or STANDARD[side]
        guns = 2 if side is Side.GERMANS else 1
        for label, files, count in (
            ("back row", layout.back, 4),
            ("second row", layout.second, 4),
            ("machine guns", layout.guns, guns),
        ):
            if len(set(files)) != count or len(files) != count or any(f not in FILES for f in files):
                if label == "machine guns":
                    need = (
                        "have one machine gun: give one file for it"
                        if count == 1
                        else "have two machine guns: give two different files for them"
                    )
                else:
                    need = f"need four different files for the {label}"
                raise IllegalAction(
                    f"The {side.title} {need}; {_files_fault(files)}. Example: "
                    f"`setup {STANDARD[side]}` (back row / second row / machine-gun files), or `setup std`.",
                    [A.intern(A.Setup())],
                )

    def _do_setup(self, side: Side, action: A.Setup) -> None:
        layout: Layout = action.layout or STANDARD[side]
        infantry = [u for u in self.reserves[side] if u[1] == "I"]
        guns = [u for u in self.reserves[side] if u[1] == "M"]
        placed: list[tuple[int, str]] = []
        rows = ((side.back_rank, layout.back), (side.second_rank, layout.second))
        for rank, files in rows:
            for f in sorted(files):
                placed.append((rank * 8 + FILES.index(f), infantry.pop(0)))
        for f in FILES:
            uid = guns.pop(0) if f in layout.guns else infantry.pop(0)
            placed.append((side.front_rank * 8 + FILES.index(f), uid))
        for sq, uid in placed:
            self.reserves[side].remove(uid)
            self.board[sq] = uid
            self.pos[uid] = sq
        self.deployed[side] = True
        self._events.append(Deployed(side, str(layout)))
        if all(self.deployed.values()):
            self.phase = PLAY
            self.turn = 1
            self.active = Side.GERMANS
            self.actions_left = 2
            self._deal()

    # -- the turn's actions

    def _do_play(self, action: Action) -> None:
        side = self.active
        ev = self._events
        uid: str | None
        if isinstance(action, A.Move):
            uid = self._step(action.src, action.dst)
            self.moved.add(uid)
            self.actions_left -= 1
            if action.dst >> 3 == side.other.back_rank:
                self._check_breakthrough(side)
        elif isinstance(action, A.Attack):
            self.actions_left -= 1
            src = action.src
            uid = self.board[src]
            assert uid is not None
            if uid[1] == "I":
                self.moved.add(uid)
                if action.via is not None:
                    self._step(src, action.via)
                    src = action.via
                    if src >> 3 == side.other.back_rank and self._check_breakthrough(side):
                        return  # (R17): the attack is never made
                self._ground_combat("attack", side, uid, src, action.target)
            else:
                self._ground_combat("fire", side, uid, src, action.target)
        elif isinstance(action, A.TankFire):
            self.actions_left -= 1
            self._ground_combat("tank fire", side, TANK_ID, self.pos[TANK_ID], action.target)
        elif isinstance(action, A.TankMove):
            self.actions_left -= 2
            old = self.pos[TANK_ID]
            new = old + (8 if action.forward else -8)
            for s in tank_squares(old):
                self.board[s] = None
            for s in tank_squares(new):
                self.board[s] = TANK_ID
            self.pos[TANK_ID] = new
            ev.append(TankMoved(side, _names(tank_squares(old)), _names(tank_squares(new)), action.forward))
            self._check_breakthrough(side)
        elif isinstance(action, A.Reinforce):
            self.actions_left -= 2
            self._reinforce(side, action, by_ace=False)
        elif isinstance(action, A.EndTurn):
            self.actions_left = 0

    def _step(self, src: int, dst: int) -> str:
        uid = self.board[src]
        assert uid is not None
        self.board[src] = None
        self.board[dst] = uid
        self.pos[uid] = dst
        self._events.append(Moved(unit_side(uid), SQUARE_NAMES[src], SQUARE_NAMES[dst]))
        return uid

    def _reinforce(self, side: Side, action: A.Reinforce, by_ace: bool) -> None:
        squares: tuple[int, ...]
        if action.tank:
            uid = TANK_ID
            self.reserves[side].remove(uid)
            squares = tank_squares(action.at)
            self.pos[uid] = action.at
            from_casualties = False
        else:
            code = "M" if action.gun else "I"
            from_casualties = not any(u[1] == "I" for u in self.reserves[side])  # (R13)
            pool = self.casualties[side] if from_casualties else self.reserves[side]
            uid = next(u for u in pool if u[1] == code)
            pool.remove(uid)
            squares = (action.at,)
            self.pos[uid] = action.at
        for s in squares:
            self.board[s] = uid
        self.moved.discard(uid)  # (R14) a casualty back is a new arrival: a move before it fell is forgotten
        self.entered.add(uid)
        kind = TANK if action.tank else MACHINE_GUN if action.gun else INFANTRY
        self._events.append(Reinforced(side, kind, _names(squares), by_ace, from_casualties))

    # -- combat

    def _ground_combat(self, kind: str, side: Side, attacker: str, src: int, target: int) -> None:
        """An initial conflict: cards drawn here trigger King, Ace and Jack afterwards."""
        defender = self.board[target]
        assert defender is not None
        need, why = 1, ""
        if defender == TANK_ID:  # (R8): tank and wire do not stack
            need, why = 2, "the tank"
        elif kind == "attack":
            enemy = side.other
            if rank_of(src) == enemy.front_rank + enemy.forward and rank_of(target) == enemy.front_rank:
                need, why = 2, "the wire"  # (R5)
        a_card = self._draw(side)
        d_card = self._draw(side.other)
        self._contest(
            kind,
            side,
            attacker,
            defender,
            SQUARE_NAMES[src],
            SQUARE_NAMES[target],
            a_card,
            a_card.rank,
            d_card,
            need,
            why,
        )
        specials = []
        for who, card in ((side, a_card), (side.other, d_card)):  # (R11): attacker's first
            if card.rank in (KING, ACE, JACK):
                if card.rank == JACK and who is side.other and a_card.rank == JACK:
                    continue  # both Jacks: only the attacker flies
                specials.append({"t": "special", "rank": card.rank, "side": who.value})
        self.queue.extend(specials)

    def _contest(
        self,
        kind: str,
        side: Side,
        attacker: str,
        defender: str,
        a_name: str,
        d_name: str,
        a_card: Card,
        a_value: int,
        d_card: Card,
        need: int,
        why: str,
    ) -> None:
        """Compare two cards, record it, and queue the result (after an optional Cross)."""
        d_value = d_card.rank
        if a_value - d_value >= need:
            result = "win"
        elif d_value > a_value:
            result = "loss"
        else:
            result = "tie"
        self._events.append(
            Combat(kind, side, a_name, d_name, a_card.code, d_card.code, a_value, d_value, need, why, result)
        )
        task = {"t": "result", "attacker": attacker, "defender": defender, "result": result, "crossed": False}
        self.queue.insert(0, task)
        loser = defender if result == "win" else attacker if result == "loss" else None
        if loser is not None and loser[1] == "I" and self.cross_available(unit_side(loser)):  # (R19)
            self._ask(Decision("cross", unit_side(loser), {"square": SQUARE_NAMES[self.pos[loser]]}))

    def _apply_result(self, task: dict[str, Any]) -> None:
        result = task["result"]
        if task["crossed"]:
            result = "win" if result == "loss" else "loss"
        if result == "win":
            self._hurt(task["defender"], "combat")
        elif result == "loss":
            attacker = task["attacker"]
            if ":" in attacker:  # an aircraft that lost a strafe (R16)
                side, name = attacker.split(":")
                self._hit_aircraft(Side(side), name)
            elif attacker[1] == "I":
                self._hurt(attacker, "combat")
            # a machine gun (or the tank's) that loses while firing is not harmed

    def _hurt(self, uid: str, cause: str) -> None:
        side = unit_side(uid)
        sq = self.pos[uid]
        if uid == TANK_ID:
            self.tank_damage += 1
            destroyed = self.tank_damage >= 2
            squares = tank_squares(sq)
            self._events.append(TankDamaged(side, _names(squares), self.tank_damage, destroyed))
            if destroyed:
                for s in squares:
                    self.board[s] = None
                del self.pos[uid]
                self.casualties[side].append(uid)
            return
        self.board[sq] = None
        del self.pos[uid]
        self.casualties[side].append(uid)
        self._events.append(Removed(side, unit_kind(uid), SQUARE_NAMES[sq], cause))

    def _hit_aircraft(self, side: Side, name: str) -> None:
        status = DESTROYED if self.aircraft[side][name] == DAMAGED else DAMAGED
        self.aircraft[side][name] = status
        self._events.append(AircraftHit(side, name, status))

    def _air_value(self, side: Side, name: str, card: Card) -> int:
        if not self.options.fighter_aces:
            return card.rank
        bonus = 1 if name == "A" else 0
        malus = 1 if self.aircraft[side][name] == DAMAGED else 0
        return card.rank + bonus - malus

    # -- cards

    def _deal(self) -> None:
        pack = chance.shuffled(FULL_PACK, self.seed, self.shuffles)
        self.shuffles += 1
        self.decks[Side.GERMANS] = pack[:26]
        self.decks[Side.CANADIANS] = pack[26:]
        self.discards = {Side.GERMANS: [], Side.CANADIANS: []}

    def _draw(self, side: Side) -> Card:
        """Top card of `side`'s deck; an emptied deck reshuffles everything at once (R18)."""
        card = self.decks[side].pop()
        self.quiet_turns = 0
        self.card_turned = True
        self.discards[side].append(card)
        if not self.decks[side]:
            self._deal()
            self._events.append(Reshuffled(self.shuffles - 1))
        return card

    # -- resolution queue and decisions

    def _ask(self, decision: Decision) -> None:
        self.pending = decision
        self._events.append(
            DecisionNeeded(decision.side, decision.kind, decision.prompt(self._decision_actions(decision)))
        )

    def _run(self) -> None:
        """Resolve queued steps until one needs a decision; then, if nothing is left, close the action."""
        while self.pending is None and self.queue and self.phase == PLAY:
            task = self.queue.pop(0)
            if task["t"] == "result":
                self._apply_result(task)
            elif task["t"] == "special":
                self._special(Side(task["side"]), task["rank"])
            elif task["t"] == "strafe":
                self._offer_strafe(Side(task["side"]), task["aircraft"])
        if self.phase == PLAY and self.pending is None and not self.queue:
            self._finish_action()

    def _special(self, side: Side, rank: int) -> None:
        if rank == KING:
            self._ask(Decision("barrage", side))
        elif rank == ACE:
            if self._placements(side, from_casualties=True):
                self._ask(Decision("ace", side))
            else:
                self._events.append(Fizzled(side, "the Ace", "no reinforcement can be placed"))
        else:
            planes = self.available_aircraft(side)
            if not planes:
                self._events.append(Fizzled(side, "the Jack", "no aircraft left"))
            elif len({self._plane_class(side, n) for n in planes}) > 1:
                self._ask(Decision("fly", side))
            else:
                self._launch(side, planes[0], chosen=False)

    def _plane_class(self, side: Side, name: str) -> tuple[str, bool]:
        """Aircraft that would fight identically are one choice, so no prompt is needed."""
        return (self.aircraft[side][name], self.options.fighter_aces and name == "A")

    def _launch(self, side: Side, name: str, chosen: bool) -> None:
        self._events.append(AirBattle(side, name, chosen))
        if self.available_aircraft(side.other):
            self._ask(Decision("dogfight", side.other, {"aircraft": name}))
        else:
            self._offer_strafe(side, name)

    def _offer_strafe(self, side: Side, name: str) -> None:
        if self._strafe_targets(side):
            self._ask(Decision("strafe", side, {"aircraft": name}))
        else:
            self._events.append(Fizzled(side, "the strafe", "no enemy unit can be strafed"))

    def _answer(self, d: Decision, action: Action) -> None:
        self.pending = None
        side = d.side
        if isinstance(action, A.Barrage):
            self._barrage(side, action)
        elif isinstance(action, A.Reinforce):
            self._reinforce(side, action, by_ace=True)
        elif isinstance(action, A.Fly):
            self._launch(side, action.aircraft, chosen=True)
        elif isinstance(action, A.Dogfight):
            self._dogfight(side.other, d.data["aircraft"], action.aircraft)
        elif isinstance(action, A.Strafe):
            self._strafe(side, d.data["aircraft"], action.target)
        elif isinstance(action, A.UseCross):
            self.cross_used[side] = True
            self.queue[0]["crossed"] = True
            self._events.append(CrossUsed(side, d.data["square"]))
        elif isinstance(action, A.Decline):
            what = {"dogfight": "the dogfight", "strafe": "to strafe", "cross": "the Cross"}[d.kind]
            self._events.append(Declined(side, what))
            if d.kind == "dogfight":
                self._offer_strafe(side.other, d.data["aircraft"])

    def _barrage(self, side: Side, action: A.Barrage) -> None:
        area = AREA[action.at]
        if action.gas:
            self.gas_used = True
        self._events.append(BarrageFired(side, SQUARE_NAMES[action.at], action.gas, _names(area)))
        kills = GAS_KILLS if action.gas else BARRAGE_KILLS
        targets: list[str] = []
        for s in area:  # (R10): friendly units are hit too; the tank is drawn for once
            uid = self.board[s]
            if uid is not None and uid not in targets:
                targets.append(uid)
        for uid in targets:
            card = self._draw(side)
            hit = card.rank in kills
            self._events.append(BarrageHit(side, SQUARE_NAMES[self.pos[uid]], card.code, hit))
            if hit:
                self._hurt(uid, "barrage")

    def _dogfight(self, side: Side, mine: str, theirs: str) -> None:
        a_card = self._draw(side)
        d_card = self._draw(side.other)
        a_val = self._air_value(side, mine, a_card)
        d_val = self._air_value(side.other, theirs, d_card)
        result = "win" if a_val > d_val else "loss" if d_val > a_val else "tie"
        self._events.append(
            Combat(
                "dogfight",
                side,
                f"aircraft {mine}",
                f"aircraft {theirs}",
                a_card.code,
                d_card.code,
                a_val,
                d_val,
                1,
                "",
                result,
            )
        )
        if result == "win":
            self._hit_aircraft(side.other, theirs)
        elif result == "loss":
            self._hit_aircraft(side, mine)
        if result != "loss":
            self.queue.insert(0, {"t": "strafe", "side": side.value, "aircraft": mine})

    def _strafe(self, side: Side, name: str, target: int) -> None:
        defender = self.board[target]
        assert defender is not None
        a_card = self._draw(side)
        d_card = self._draw(side.other)
        self._contest(
            "strafe",
            side,
            f"{side.value}:{name}",
            defender,
            f"aircraft {name}",
            SQUARE_NAMES[target],
            a_card,
            self._air_value(side, name, a_card),
            d_card,
            1,
            "",
        )

    # -- end of an action, of a turn, of the game

    def _finish_action(self) -> None:
        for side in (self.active, self.active.other):  # (R21)
            if not self.reserves[side] and not self.pos_of(side):
                other_dead = not self.pos_of(side.other) and not self.reserves[side.other]
                why = "neither side has a unit left" if other_dead else f"the {side.title} have no units left"
                self._end(None if other_dead else side.other, EndReason.ANNIHILATION, why, ())
                return
        if self.actions_left <= 0:
            side = self.active
            self.active = side.other
            self.actions_left = 2
            self.moved.clear()
            self.entered.clear()
            self.turn += 1
            if self.card_turned:  # (R24): the turn of a fight is not quiet; the count starts after it
                self.card_turned = False
            else:
                self.quiet_turns += 1
            self._events.append(TurnEnded(side, self.active, self.turn))
            if self.quiet_turns >= QUIET_TURN_LIMIT:
                self._end(None, EndReason.STALEMATE, f"no card was turned in {QUIET_TURN_LIMIT} turns", ())

    def pos_of(self, side: Side) -> bool:
        """Whether `side` has any unit on the board."""
        prefix = "G" if side is Side.GERMANS else "C"
        return any(uid[0] == prefix for uid in self.pos)

    def _check_breakthrough(self, side: Side) -> bool:
        """Two units (the tank counts once) on the enemy back row win at once (R17)."""
        prefix = "G" if side is Side.GERMANS else "C"
        back = side.other.back_rank * 8
        found = {u for u in self.board[back : back + 8] if u is not None and u[0] == prefix}
        if len(found) >= 2:
            squares = tuple(SQUARE_NAMES[s] for s in range(back, back + 8) if self.board[s] in found)
            self._end(side, EndReason.OBJECTIVE, "two units on the enemy back row", squares)
            return True
        return False

    def _end(self, winner: Side | None, kind: EndReason, reason: str, squares: tuple[str, ...]) -> None:
        self.phase = OVER
        self.pending = None
        self.queue.clear()
        self.draw_offer = None
        self.result = Outcome(winner, kind, reason)
        self._legal = None
        self._events.append(GameOver(winner, reason, squares, kind.value))

    # -- resign, timeout, draws

    def _apply_meta(self, action: MetaAction, side: Side | None) -> list[Event]:
        if side is None:
            raise IllegalAction(f"'{action}' needs to know which side sends it.")
        if self.phase == OVER:
            raise IllegalAction("The game is over.")
        events: list[Event] = []
        self._events = events
        if isinstance(action, Resign):
            self._end(side.other, EndReason.RESIGNATION, f"the {side.title} resigned", ())
        elif isinstance(action, Timeout):
            self._end(side.other, EndReason.TIMEOUT, f"the {side.title} ran out of time", ())
        elif isinstance(action, Abandon):
            self._end(None, EndReason.ABANDONED, "neither side acted in time", ())
        elif isinstance(action, DrawOffer):
            if self.draw_offer is side:
                raise IllegalAction("You have already offered a draw; wait for the answer.")
            if self.draw_offer is side.other:
                raise IllegalAction("Your opponent has offered a draw: accept draw or decline draw.")
            self.draw_offer = side
            events.append(DrawOffered(side))
        else:
            if self.draw_offer is not side.other:
                raise IllegalAction("There is no draw offer from your opponent to answer.")
            if isinstance(action, DrawAccept):
                self._end(None, EndReason.AGREEMENT, "by agreement", ())
            else:
                self.draw_offer = None
                events.append(DrawDeclined(side))
        self._events = []
        return events

    # ------------------------------------------------------------------ copying and JSON

    def clone(self) -> State:
        new = State.__new__(State)
        new.options = self.options
        new.seed = self.seed
        new.phase = self.phase
        new.deployed = dict(self.deployed)
        new.board = list(self.board)
        new.pos = dict(self.pos)
        new.tank_damage = self.tank_damage
        new.reserves = {s: list(v) for s, v in self.reserves.items()}
        new.casualties = {s: list(v) for s, v in self.casualties.items()}
        new.decks = {s: list(v) for s, v in self.decks.items()}
        new.discards = {s: list(v) for s, v in self.discards.items()}
        new.shuffles = self.shuffles
        new.aircraft = {s: dict(v) for s, v in self.aircraft.items()}
        new.gas_used = self.gas_used
        new.cross_used = dict(self.cross_used)
        new.active = self.active
        new.actions_left = self.actions_left
        new.turn = self.turn
        new.quiet_turns = self.quiet_turns
        new.card_turned = self.card_turned
        new.moved = set(self.moved)
        new.entered = set(self.entered)
        new.pending = (
            Decision(self.pending.kind, self.pending.side, dict(self.pending.data)) if self.pending else None
        )
        new.queue = [dict(t) for t in self.queue]
        new.result = self.result
        new.draw_offer = self.draw_offer
        new._events = []
        new._legal = self._legal
        return new

    def to_json(self) -> dict[str, Any]:
        """Everything, including the deck order: for storage, never for a player (use `view`)."""
        return {
            "game": "blockwars",
            "format": 1,
            "seed": self.seed,
            "options": self.options.to_json(),
            "phase": self.phase,
            "deployed": [s.value for s in Side if self.deployed[s]],
            "board": {SQUARE_NAMES[i]: u for i, u in enumerate(self.board) if u is not None},
            "tank_damage": self.tank_damage,
            "reserves": {s.value: list(v) for s, v in self.reserves.items()},
            "casualties": {s.value: list(v) for s, v in self.casualties.items()},
            "decks": {s.value: [c.code for c in v] for s, v in self.decks.items()},
            "discards": {s.value: [c.code for c in v] for s, v in self.discards.items()},
            "shuffles": self.shuffles,
            "aircraft": {s.value: dict(v) for s, v in self.aircraft.items()},
            "gas_used": self.gas_used,
            "cross_used": [s.value for s in Side if self.cross_used[s]],
            "active": self.active.value,
            "actions_left": self.actions_left,
            "turn": self.turn,
            "quiet_turns": self.quiet_turns,
            "card_turned": self.card_turned,
            "moved": sorted(self.moved),
            "entered": sorted(self.entered),
            "pending": self.pending.to_json() if self.pending else None,
            "queue": [dict(t) for t in self.queue],
            "outcome": self.result.to_json() if self.result else None,
            "draw_offer": self.draw_offer.value if self.draw_offer else None,
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> State:
        s = State(Options.from_json(data["options"]), data["seed"])
        s.phase = data["phase"]
        s.deployed = {side: side.value in data["deployed"] for side in Side}
        s.board = [None] * 64
        s.pos = {}
        for name_, uid in data["board"].items():
            i = square(name_)
            s.board[i] = uid
            s.pos[uid] = min(s.pos.get(uid, 64), i)
        s.tank_damage = data["tank_damage"]
        s.reserves = {Side(k): list(v) for k, v in data["reserves"].items()}
        s.casualties = {Side(k): list(v) for k, v in data["casualties"].items()}
        s.decks = {Side(k): [Card.parse(c) for c in v] for k, v in data["decks"].items()}
        s.discards = {Side(k): [Card.parse(c) for c in v] for k, v in data["discards"].items()}
        s.shuffles = data["shuffles"]
        s.aircraft = {Side(k): dict(v) for k, v in data["aircraft"].items()}
        s.gas_used = data["gas_used"]
        s.cross_used = {side: side.value in data["cross_used"] for side in Side}
        s.active = Side(data["active"])
        s.actions_left = data["actions_left"]
        s.turn = data["turn"]
        s.quiet_turns = data.get("quiet_turns", 0)
        # Older snapshots lack the flag; a count of 0 in play meant a card was turned this turn (or
        # it is the first turn, where counting from the next one is harmless).
        s.card_turned = data.get("card_turned", s.phase == PLAY and s.quiet_turns == 0)
        s.moved = set(data["moved"])
        s.entered = set(data["entered"])
        s.pending = Decision.from_json(data["pending"]) if data["pending"] else None
        s.queue = [dict(t) for t in data["queue"]]
        out = data["outcome"]
        s.result = _outcome_from_json(out) if out else None
        s.draw_offer = Side(data["draw_offer"]) if data["draw_offer"] else None
        return s


class View:
    """What one player (or a spectator, `side` None) may know: everything but the decks' order.

    The view holds its own copy of the state whose decks are dealt in a canonical order (the unseen
    cards in pack order) and whose seed is 0, so no view carries the real deck order or the seed that
    would predict it: renderers and the AI get this, and cannot leak it by construction.
    """

    __slots__ = ("side", "state")

    def __init__(self, state: State, side: Side | None) -> None:
        self.state = _canonical(state)
        self.side = side

    @property
    def viewer(self) -> str | None:
        return self.side

    def deck_sizes(self) -> dict[Side, int]:
        return {s: len(d) for s, d in self.state.decks.items()}

    def unseen_cards(self) -> list[Card]:
        """The cards in the two decks, in a fixed order that reveals nothing."""
        seen = {c.code for d in self.state.discards.values() for c in d}
        return [c for c in FULL_PACK if c.code not in seen]

    def to_json(self) -> dict[str, Any]:
        data = self.state.to_json()
        data["decks"] = {s.value: len(d) for s, d in self.state.decks.items()}
        data["viewer"] = self.side.value if self.side is not None else None
        return data

    @staticmethod
    def from_json(data: dict[str, Any]) -> View:
        full = dict(data)
        sizes = {Side(k): int(v) for k, v in data["decks"].items()}
        seen = {c for pile in data["discards"].values() for c in pile}
        cards = [c.code for c in FULL_PACK if c.code not in seen]
        n = sizes[Side.GERMANS]
        full["decks"] = {
            Side.GERMANS.value: cards[:n],
            Side.CANADIANS.value: cards[n : n + sizes[Side.CANADIANS]],
        }
        viewer = data.get("viewer")
        return View(State.from_json(full), Side(viewer) if viewer else None)

    def determinize(self, rng: random.Random) -> State:
        """A full state consistent with this view, with the unseen cards dealt in a sampled order.

        Its future reshuffles are seeded from the sampled deal, so they are unknown too.
        """
        s = self.state.clone()
        cards = self.unseen_cards()
        rng.shuffle(cards)
        n, m = len(s.decks[Side.GERMANS]), len(s.decks[Side.CANADIANS])
        s.decks = {Side.GERMANS: cards[:n], Side.CANADIANS: cards[n : n + m]}
        s.seed = zlib.crc32("".join(c.code for c in cards).encode())
        return s


def _canonical(state: State) -> State:
    """A copy of `state` with the unseen cards in pack order and no seed: what a player may know."""
    s = state.clone()
    seen = {c.code for d in state.discards.values() for c in d}
    cards = [c for c in FULL_PACK if c.code not in seen]
    n = len(state.decks[Side.GERMANS])
    s.decks = {Side.GERMANS: cards[:n], Side.CANADIANS: cards[n : n + len(state.decks[Side.CANADIANS])]}
    s.seed = 0
    s._legal = state._legal
    return s


_KIND_BY_WORDS = (
    ("resigned", EndReason.RESIGNATION),
    ("ran out of time", EndReason.TIMEOUT),
    ("agree", EndReason.AGREEMENT),
    ("no units left", EndReason.ANNIHILATION),
    ("has a unit left", EndReason.ANNIHILATION),
    ("no card was turned", EndReason.STALEMATE),
    ("neither side", EndReason.ABANDONED),
)


def _outcome_from_json(data: dict[str, Any]) -> Outcome:
    """Read an outcome in either spelling (`Outcome.from_json`); snapshots written before outcomes
    were typed hold only the words, and the reason is found in them."""
    o = Outcome.from_json(data, _kind_by_words)
    return o if o.winner is None else replace(o, winner=Side(o.winner))


def _kind_by_words(words: str) -> EndReason:
    return next((k for w, k in _KIND_BY_WORDS if w in words), EndReason.OBJECTIVE)


def _names(squares: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(SQUARE_NAMES[s] for s in squares)


def new_game(options: Options | None = None, seed: int = 0) -> State:
    """A fresh game waiting for the Germans to deploy."""
    return State(options or Options(), seed)


def replay(options: Options, seed: int, log: list[tuple[Side, str]]) -> State:
    """Rebuild a game from its seed and action log (side, notation): it is deterministic."""
    state = new_game(options, seed)
    for side, notation in log:
        state.apply(parse(notation), side)
    return state

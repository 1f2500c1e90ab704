"""Actions as small immutable values whose notation parses back (the table is in rules/fixbayonets.md).

    setup RR/HR/SR/OR/OR/UR/HR/RR   set up the back row, files a..h (or `setup std`)
    march Rd1-d3                    play March: the rifleman on d1 moves to d3
    march fwd ORd1,RRe1             play March for a group: these men all move 2 squares forward
    rifle3 Rd3xd6                   play Rifle (3): the rifleman on d3 shoots at the stack on d6
    negate trees / pass             answer the opponent's card: cancel it with a terrain card, or not
    lose R                          choose which man of a hit stack falls
    discard trees                   throw a card away to get down to five
    fight / end                     end the move phase / end the turn
    orders never                    standing orders (either player, at any time)

Actions compare and hash by their notation, so an action parsed from text equals the one the
generator made, and the generator may hand out interned objects.
"""

from __future__ import annotations

import re
from typing import ClassVar

from engine.action import Notated
from engine.errors import InvalidNotation
from engine.fixbayonets.cards import ATTACK, MOVE, TERRAIN, Card, card
from engine.fixbayonets.model import (
    KIND_INDEX,
    KIND_WORDS,
    NAMES,
    PRESETS,
    Layout,
    canonical_kinds,
    check_layout,
)
from engine.grid import CHESSBOARD

EXAMPLES = "march Rd1-d3, march fwd ORd1,RRe1, rifle3 Rd3xd6, negate trees, pass, lose R, fight, end"
NEGATE_POLICIES = ("ask", "never", "officers", "attacks", "always")
LOSS_POLICIES = ("ask", "auto")


class Action(Notated):
    """Base of this game's own actions (`engine.action.Notated`: the notation kept, compared by it)."""

    __slots__ = ()


class Setup(Action):
    __slots__ = ("layout",)

    def __init__(self, layout: Layout) -> None:
        self.layout = check_layout(layout)
        super().__init__("setup " + "/".join(self.layout))


class Move(Action):
    """One man moves with one move card (a straight line of exactly its number, or a knight jump)."""

    __slots__ = ("card", "dst", "kind", "src")

    def __init__(self, card: Card, kind: str, src: int, dst: int) -> None:
        self.card, self.kind, self.src, self.dst = card, kind, src, dst
        super().__init__(f"{card.code} {kind}{NAMES[src]}-{NAMES[dst]}")


class Group(Action):
    """Several men move straight forward by the card's number, all with one card.

    `men` is ((square, kinds), ...) in square order, each square's kinds in canonical order.
    """

    __slots__ = ("card", "men")

    def __init__(self, card: Card, men: tuple[tuple[int, str], ...]) -> None:
        self.card, self.men = card, men
        super().__init__(f"{card.code} fwd " + ",".join(f"{k}{NAMES[s]}" for s, k in men))

    @property
    def size(self) -> int:
        return sum(len(k) for _, k in self.men)


class Attack(Action):
    __slots__ = ("card", "dst", "kind", "src")

    def __init__(self, card: Card, kind: str, src: int, dst: int) -> None:
        self.card, self.kind, self.src, self.dst = card, kind, src, dst
        super().__init__(f"{card.code} {kind}{NAMES[src]}x{NAMES[dst]}")


class Negate(Action):
    __slots__ = ("card",)

    def __init__(self, card: Card) -> None:
        self.card = card
        super().__init__(f"negate {card.code}")


class Pass(Action):
    __slots__ = ()

    def __init__(self) -> None:
        super().__init__("pass")


class Lose(Action):
    __slots__ = ("kind",)

    def __init__(self, kind: str) -> None:
        self.kind = kind
        super().__init__(f"lose {kind}")


class Discard(Action):
    __slots__ = ("card",)

    def __init__(self, card: Card) -> None:
        self.card = card
        super().__init__(f"discard {card.code}")


class Fight(Action):
    __slots__ = ()

    def __init__(self) -> None:
        super().__init__("fight")


class End(Action):
    __slots__ = ()

    def __init__(self) -> None:
        super().__init__("end")


class Orders(Action):
    """Standing orders: how the sender's off-turn decisions are answered when they are not asked."""

    __slots__ = ("losses", "negate")
    anytime: ClassVar[bool] = True

    def __init__(self, negate: str | None = None, losses: str | None = None) -> None:
        if (negate is None) == (losses is None):
            raise ValueError("standing orders set either the negation policy or the casualty policy")
        self.negate, self.losses = negate, losses
        super().__init__(f"orders {negate}" if negate is not None else f"orders losses {losses}")


PASS, FIGHT, END = Pass(), Fight(), End()
_WORDS: dict[str, Action] = {"pass": PASS, "fight": FIGHT, "end": END, "end turn": END}
_NAME_THE_CARD = {
    "negate": (
        "Name the terrain card that cancels it: `negate trees`, `negate foxholes`, `negate rough` or "
        "`negate hold`.",
        ("negate trees", "negate foxholes", "negate rough", "negate hold"),
    ),
    "discard": ("Name the card to throw away, e.g. `discard trees`.", ("discard trees",)),
}
_SQ = CHESSBOARD.pattern
_PLAY = re.compile(rf"^(.+?)\s+([ohsur]){_SQ}\s*([-x])\s*{_SQ}$")
_GROUP = re.compile(r"^(.+?)\s+fwd\s+(.+)$")
_MAN = re.compile(rf"^([ohsur]+){_SQ}$")
_NO_KIND = re.compile(rf"^(.+?)\s+{_SQ}\s*([-x])\s*{_SQ}$")
_NO_CARD = re.compile(rf"^([ohsur]?){_SQ}\s*([-x])\s*{_SQ}$")  # a chess move: "Ra8-a6", "e7-e5"


def parse(text: str) -> Action:
    """The action `text` names (case and extra spaces do not matter); raises InvalidNotation."""
    low = " ".join(str(text).lower().split())
    if ";" in low:
        raise InvalidNotation("One action at a time here: ';' separates actions in a command.")
    if low in _WORDS:
        return _WORDS[low]
    head, _, rest = low.partition(" ")
    if head in _NAME_THE_CARD and not rest:  # not "'' is not a card"
        raise InvalidNotation(*_NAME_THE_CARD[head])
    if head == "setup":
        return _setup(rest)
    if head == "negate":
        c = card(rest)
        if c.kind != TERRAIN:
            raise InvalidNotation(f"Only terrain cards negate: {c.name} is not one (try negate trees).")
        return Negate(c)
    if head == "lose":
        return Lose(_kind(rest))
    if head == "discard":
        return Discard(card(rest))
    if head == "orders":
        return _orders(rest)
    return _play(low)


_MOVE_BY_REACH = {1: "crawl", 2: "march", 3: "double", 4: "run", 5: "charge"}
_ATTACK_BY_REACH = {1: "bayonet", 2: "pistol", 3: "rifle3", 4: "rifle4", 5: "sniper", 6: "sniper"}


def _card_for(src: str, sep: str, dst: str) -> str:
    """A card that reaches from `src` to `dst`, for an example of the notation that fits what the
    player typed (whether they hold it is for `hand` to say)."""
    reach = max(abs(ord(src[0]) - ord(dst[0])), abs(int(src[1:]) - int(dst[1:])))
    if sep == "-":
        return _MOVE_BY_REACH.get(reach, "march")
    return _ATTACK_BY_REACH.get(reach, "rifle3")


def _setup(rest: str) -> Setup:
    rest = rest.strip()
    if rest in PRESETS:
        return Setup(PRESETS[rest])
    parts = [p for p in re.split(r"[/,\s]+", rest) if p]
    if len(parts) != 8:
        raise InvalidNotation(
            "Name two men for each back-row square, files a to h, like `setup RR/HR/SR/OR/OR/UR/HR/RR`, "
            f"or a preset: {', '.join(f'`setup {name}`' for name in PRESETS)}.",
            ("setup RR/HR/SR/OR/OR/UR/HR/RR", *(f"setup {name}" for name in PRESETS)),
        )
    return Setup(tuple(parts))


def _kind(word: str) -> str:
    w = word.strip().lower()
    if not w:  # a bare `lose`: not "'' is not a kind of man"
        raise InvalidNotation(
            "Name the man who falls: `lose O` (officer), `lose H` (heavy weapons specialist), "
            "`lose S` (sniper), `lose U` (runner) or `lose R` (rifleman).",
            ("lose O", "lose H", "lose S", "lose U", "lose R"),
        )
    if len(w) == 1 and w.upper() in KIND_INDEX:
        return w.upper()
    if w in KIND_WORDS:
        return KIND_WORDS[w]
    raise InvalidNotation(
        f"'{word.strip()[:20]}' is not a kind of man: O (officer), H (heavy weapons specialist), "
        "S (sniper), U (runner) or R (rifleman)."
    )


def _orders(rest: str) -> Orders:
    words = rest.split()
    if len(words) == 1 and words[0] in NEGATE_POLICIES:
        return Orders(negate=words[0])
    if len(words) == 2 and words[0] == "losses" and words[1] in LOSS_POLICIES:
        return Orders(losses=words[1])
    raise InvalidNotation(
        f"Standing orders are one of: {', '.join('orders ' + p for p in NEGATE_POLICIES)}, "
        "orders losses ask, orders losses auto."
    )


def _play(low: str) -> Action:
    m = _GROUP.match(low)
    if m:
        c = _card_of(m.group(1), MOVE, "move")
        if c.knight:
            raise InvalidNotation("Zigzag moves one man at a time (a knight's jump): no group moves.")
        men: dict[int, str] = {}
        for item in re.split(r"[,\s]+", m.group(2).strip()):
            mm = _MAN.match(item)
            if not mm:
                raise InvalidNotation(
                    f"'{item[:12]}' is not men on a square: write the kinds then the square, like ORd1."
                )
            sq = CHESSBOARD.square(mm.group(2))
            if sq in men:
                raise InvalidNotation(f"Name the men on {NAMES[sq]} once (like RRd1).")
            men[sq] = canonical_kinds(mm.group(1))
        group = tuple(sorted(men.items()))
        if sum(len(k) for _, k in group) < 2:
            s, k = group[0]
            raise InvalidNotation(
                f"A group move needs two men or more; one man moves with a plain move: the card, the "
                f"man, a dash and the square he goes to ({c.code} {k}{NAMES[s]}-, then the square)."
            )
        return Group(c, group)
    m = _PLAY.match(low)
    if not m and (chess := _NO_CARD.match(low)):
        kind, src, sep, dst = chess.groups()
        raise InvalidNotation(
            "Every move and attack plays a card from your hand: name the card, then the man's kind "
            f"and square, like {_card_for(src, sep, dst)} {kind.upper() or 'R'}{src}{sep}{dst}. The "
            "hand command lists your cards."  # unquoted: a card they may not hold is no example
        )
    if not m and (bare := _NO_KIND.match(low)):
        word, src, sep, dst = bare.groups()
        code = card(word).code  # an unknown card is the first thing to say
        raise InvalidNotation(
            "Name the man's kind before his square (O officer, H heavy weapons specialist, S sniper, "
            f"U runner, R rifleman), like {code} R{src}{sep}{dst}."
        )
    if not m:
        raise InvalidNotation(f"'{low[:40]}' is not an action. Examples: {EXAMPLES}.")
    word, kind, src, sep, dst = m.groups()
    a, b = CHESSBOARD.square(src), CHESSBOARD.square(dst)
    if sep == "-":
        return Move(_card_of(word, MOVE, "move"), kind.upper(), a, b)
    return Attack(_card_of(word, ATTACK, "attack"), kind.upper(), a, b)


def _card_of(word: str, kind: str, what: str) -> Card:
    c = card(word)
    if c.kind != kind:
        how = {
            ATTACK: f"it attacks, like {c.code} Rd3xd6",
            MOVE: f"it moves, like {c.code} Rd1-d3",
            TERRAIN: f"it cancels a card your opponent plays, as your answer to it (`negate {c.code}`)",
        }[c.kind]
        article = "an" if what[0] in "aeiou" else "a"
        raise InvalidNotation(f"{c.name} is not {article} {what} card: {how}.")
    return c


__all__ = [
    "END",
    "EXAMPLES",
    "FIGHT",
    "LOSS_POLICIES",
    "NEGATE_POLICIES",
    "PASS",
    "Action",
    "Attack",
    "Discard",
    "End",
    "Fight",
    "Group",
    "Lose",
    "Move",
    "Negate",
    "Orders",
    "Pass",
    "Setup",
    "parse",
]

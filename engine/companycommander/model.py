"""The pieces of Company Commander: the sides, the three fronts, the units of both Squad decks, the
Tactics cards, and the numbers every rule reads.

What the fragment of the original text fixes is named as such; everything else here is a house rule
of ours (rules/companycommander.md, H1 to H24), in the designer's style from his other games.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import InvalidNotation

AMERICANS, GERMANS = "americans", "germans"
SIDES = (AMERICANS, GERMANS)
TITLES = {AMERICANS: "Americans", GERMANS: "Germans"}
ADJECTIVES = {AMERICANS: "American", GERMANS: "German"}
LETTERS = {AMERICANS: "A", GERMANS: "G"}
SIDE_OF_LETTER = {"A": AMERICANS, "G": GERMANS}

# The three fronts, named as the board draws them, the same for both sides (H1): a side's Left Flank
# faces the enemy's Left Flank across the field.
LEFT, CENTER, RIGHT = 0, 1, 2
FRONTS = (LEFT, CENTER, RIGHT)
FRONT_LETTERS = ("L", "C", "R")
FRONT_NAMES = ("Left Flank", "Center", "Right Flank")
ADJACENT = ((CENTER,), (LEFT, RIGHT), (CENTER,))


def at_front(front: int, whose: str = "the") -> str:
    """Where a unit stands, as a reader says it: "on the Left Flank" (a flank is a side one is on),
    "in the Center" (a place one is in); `whose`: "the", "your", "their"."""
    return f"{'in' if front == CENTER else 'on'} {whose} {FRONT_NAMES[front]}"


_FRONT_WORDS = {
    "l": LEFT,
    "left": LEFT,
    "leftflank": LEFT,
    "c": CENTER,
    "center": CENTER,
    "centre": CENTER,
    "r": RIGHT,
    "right": RIGHT,
    "rightflank": RIGHT,
}

# The fragment's numbers.
SQUAD_DRAW = 3  # Squad cards drawn in each Deploy phase
TACTICS_DRAW = 2  # Tactics cards drawn in each Tactics phase
HAND_LIMIT = 7
VICTORY_LOSSES = 10  # enemy units destroyed or routed to win
FLANK_TURNS = 2  # turns each side has had before three fronts against one (or none) win (H18)
# Our numbers.
START_HAND = 3  # Tactics cards dealt to each side before the first turn (H5)
SECOND_PLAYER_BONUS = 4  # more for the side that moves second: 7, the hand limit (H5)
DEFAULT_TURN_LIMIT = 0  # no limit unless the challenge sets one (H23: the text has none)
# Editions of these rules (RULES.md): a game keeps the edition it began with, for ever. Edition 1 is
# the rules before issue 31; edition 2 follows the text where edition 1 did not.
EDITION = 2  # the edition new games get
EDITION_1_SECOND_PLAYER_BONUS = 2  # edition 1: the second player was dealt 5 (H5)
EDITION_1_FIRST_TURN_DRAW = 2  # edition 1: the game's very first Deploy phase drew 2 Squad cards (H5)


def other(side: str) -> str:
    return GERMANS if side == AMERICANS else AMERICANS


def front_of(text: str) -> int:
    """'L', 'center', 'Right Flank' to a front; InvalidNotation if it names none."""
    key = "".join(text.lower().split())
    found = _FRONT_WORDS.get(key)
    if found is None:
        raise InvalidNotation(
            f"'{text}' is not a front: the fronts are L (Left Flank), C (Center), R (Right Flank)."
        )
    return found


# ------------------------------------------------------------------------------------- units


@dataclass(frozen=True, slots=True, eq=False)
class UnitType:
    """One kind of Squad card. `fires`: long-range suppression fire (the fragment's Artillery,
    Mortars, Tanks and Heavy Machine Guns); `recon`: may go on Recon missions."""

    code: str  # "rifles"
    side: str
    name: str  # "Rifle squad"
    short: str  # a word for the board: "Rifles"
    strength: int
    fires: bool = False
    recon: bool = False
    commander: bool = False
    fire_bonus: int = 0  # added to this unit's suppression rolls
    assault_bonus: int = 0  # added to this unit's assault rolls
    count: int = 1  # copies in the Squad deck

    @property
    def key(self) -> str:
        """Unique across both decks: 'A:rifles'."""
        return f"{LETTERS[self.side]}:{self.code}"


# The two Squad decks (H2): the Americans more numerous, with the artillery and Shermans; the Germans
# fewer, built around the MG 42 and their assault squads, as the designer's Tank Killers gives the
# Germans the smaller deck of better cards.
UNIT_TYPES: tuple[UnitType, ...] = (
    UnitType("rifles", AMERICANS, "Rifle squad", "Rifles", 3, count=16),
    UnitType("hmg", AMERICANS, "Heavy MG team", "HMG", 2, fires=True, count=4),
    UnitType("mortar", AMERICANS, "Mortar team", "Mortar", 2, fires=True, count=4),
    UnitType("scouts", AMERICANS, "Scout team", "Scouts", 1, recon=True, count=3),
    UnitType("sherman", AMERICANS, "Sherman tank", "Sherman", 4, fires=True, count=2),
    UnitType("fo", AMERICANS, "Artillery observer", "Artillery", 1, fires=True, fire_bonus=1, count=2),
    UnitType("cc", AMERICANS, "Company Commander", "Co. Cmdr", 2, commander=True, count=1),
    UnitType("rifles", GERMANS, "Rifle squad", "Rifles", 3, count=9),
    UnitType("mg42", GERMANS, "MG 42 team", "MG 42", 2, fires=True, fire_bonus=1, count=6),
    UnitType("mortar", GERMANS, "Mortar team", "Mortar", 2, fires=True, count=3),
    UnitType("scouts", GERMANS, "Scout team", "Scouts", 1, recon=True, count=3),
    UnitType("panzer", GERMANS, "Panzer IV", "Panzer", 4, fires=True, count=2),
    UnitType("assault", GERMANS, "Assault squad", "Assault", 3, assault_bonus=1, count=3),
    UnitType("fo", GERMANS, "Artillery observer", "Artillery", 1, fires=True, count=2),
    UnitType("cc", GERMANS, "Company Commander", "Co. Cmdr", 2, commander=True, count=1),
)
TYPES: dict[str, UnitType] = {t.key: t for t in UNIT_TYPES}
TYPE_INDEX: dict[str, int] = {t.key: i for i, t in enumerate(UNIT_TYPES)}


def squad_deck(side: str) -> list[UnitType]:
    """A side's whole Squad deck in card-list order (the canonical order views show)."""
    return [t for t in UNIT_TYPES if t.side == side for _ in range(t.count)]


SQUAD_DECKS = {side: tuple(squad_deck(side)) for side in SIDES}


class Unit:
    """One deployed (or arriving) unit. `front` is -1 while it waits to be deployed this turn.

    Per-turn flags: `fresh` (drawn this turn: it may act at once but not move, H7 and H8), `moved`
    (it may not attack or Recon, the fragment), `acted` (it went on a mission, fired or assaulted:
    one of them a turn).
    """

    __slots__ = ("acted", "cas", "fresh", "front", "label", "moved", "pinned", "side", "type")

    def __init__(self, label: str, utype: UnitType, front: int = -1) -> None:
        self.label = label
        self.type = utype
        self.side = utype.side
        self.front = front
        self.cas = 0  # Casualty markers
        self.pinned = False
        self.fresh = True
        self.moved = False
        self.acted = False

    @property
    def left(self) -> int:
        """Strength left: Strength less Casualty markers."""
        return self.type.strength - self.cas

    @property
    def ready(self) -> bool:
        """May still go on a mission, fire or assault this turn."""
        return not (self.pinned or self.moved or self.acted) and self.front >= 0

    def copy(self) -> Unit:
        u = Unit.__new__(Unit)
        u.label, u.type, u.side, u.front = self.label, self.type, self.side, self.front
        u.cas, u.pinned, u.fresh, u.moved, u.acted = self.cas, self.pinned, self.fresh, self.moved, self.acted
        return u

    def words(self) -> str:
        """'the German MG 42 team G3'."""
        return f"the {ADJECTIVES[self.side]} {self.type.name} {self.label}"

    def __repr__(self) -> str:
        where = FRONT_LETTERS[self.front] if self.front >= 0 else "arriving"
        return f"Unit({self.label} {self.type.code} {where} cas={self.cas} pinned={self.pinned})"


def parse_label(text: str) -> str:
    """'a3' to 'A3'; InvalidNotation if it is not a unit's name."""
    t = text.strip().upper()
    if t[:1] not in SIDE_OF_LETTER or not t[1:].isdigit() or int(t[1:]) < 1:
        raise InvalidNotation(f"'{text}' is not a unit: units are named like A3 (American) or G5 (German).")
    return f"{t[0]}{int(t[1:])}"


# ----------------------------------------------------------------------------- Tactics cards

SUPPORT, KEYWORD = "support", "keyword"


@dataclass(frozen=True, slots=True, eq=False)
class TacticsCard:
    """One kind of Tactics card. A Support card's `rolls` are Suppression rolls against the front
    declared when it is played (the fragment); the rest are keyword cards of ours (H4)."""

    code: str
    name: str
    kind: str
    rolls: int = 0
    count: int = 1
    target: str = ""  # what the card names when played: "front", "unit" or "" (nothing)
    text: str = ""

    @property
    def index(self) -> int:
        return TACTICS_INDEX[self.code]


TACTICS_TYPES: tuple[TacticsCard, ...] = (
    TacticsCard("sniper", "Sniper", SUPPORT, rolls=1, count=6, target="front",
                text="1 Suppression roll against a front you name"),
    TacticsCard("mortars", "Mortar Barrage", SUPPORT, rolls=2, count=8, target="front",
                text="2 Suppression rolls against a front you name"),
    TacticsCard("artillery", "Artillery Barrage", SUPPORT, rolls=3, count=5, target="front",
                text="3 Suppression rolls against a front you name"),
    TacticsCard("airstrike", "Air Strike", SUPPORT, rolls=4, count=1, target="front",
                text="4 Suppression rolls against a front you name"),
    TacticsCard("surprise", "Surprise Attack", KEYWORD, count=3,
                text="+3 to your next Assault roll this turn"),
    TacticsCard("ambush", "Ambush", KEYWORD, count=3, target="front",
                text="the next enemy Assault on your units at one front, before your next turn, is at -3"),
    TacticsCard("rally", "Rally", KEYWORD, count=3, target="front",
                text="remove the Pinned markers of all your units at one front"),
    TacticsCard("medic", "Medic", KEYWORD, count=3, target="unit",
                text="remove one Casualty marker from one of your units"),
    TacticsCard("reinforcements", "Reinforcements", KEYWORD, count=2,
                text="in your Deploy phase: draw 2 more Squad cards and deploy them"),
)  # fmt: skip
TACTICS: dict[str, TacticsCard] = {c.code: c for c in TACTICS_TYPES}
TACTICS_INDEX: dict[str, int] = {c.code: i for i, c in enumerate(TACTICS_TYPES)}
TACTICS_DECK: tuple[TacticsCard, ...] = tuple(c for c in TACTICS_TYPES for _ in range(c.count))
_CARD_WORDS = {
    **{c.code: c.code for c in TACTICS_TYPES},
    **{"".join(c.name.lower().split()): c.code for c in TACTICS_TYPES},
    "mortar": "mortars",
    "barrage": "artillery",
    "air": "airstrike",
    "reinforce": "reinforcements",
    "reinforcement": "reinforcements",
}


def tactics_card(text: str) -> TacticsCard:
    """'artillery', 'Artillery Barrage' to the card; InvalidNotation if it names none."""
    key = "".join(text.lower().split())
    code = _CARD_WORDS.get(key)
    if code is None:
        names = ", ".join(c.code for c in TACTICS_TYPES)
        raise InvalidNotation(f"'{text}' is not a Tactics card (the cards: {names}).")
    return TACTICS[code]


def sort_cards(cards: list[TacticsCard]) -> list[TacticsCard]:
    """A hand in card-list order: the order it is shown and stored in (no secret in the order)."""
    return sorted(cards, key=lambda c: TACTICS_INDEX[c.code])


_PLURALS = {"rally": "Rallies", "ambush": "Ambushes", "reinforcements": "Reinforcements"}


def cards_words(cards: list[TacticsCard]) -> str:
    """'Mortar Barrage, 2 Medic and Rally' (card-list order)."""
    counts: dict[str, int] = {}
    for c in sort_cards(cards):
        counts[c.code] = counts.get(c.code, 0) + 1
    parts = [f"{n} {_PLURALS.get(code, TACTICS[code].name + 's')}" if n > 1 else TACTICS[code].name
             for code, n in counts.items()]  # fmt: skip
    return and_list(parts) if parts else "no cards"


# ------------------------------------------------------------------------------------- options


@dataclass(frozen=True, slots=True)
class Options:
    turn_limit: int = DEFAULT_TURN_LIMIT  # rounds; 0: no limit (H23)
    edition: int = EDITION  # the rules' edition the game began with (never a player's choice)

    def to_json(self) -> dict[str, int]:
        # Edition 1 is written as it always was (no key), so an old game's snapshot replays to itself.
        out = {"turn_limit": self.turn_limit}
        if self.edition != 1:
            out["edition"] = self.edition
        return out

    @staticmethod
    def from_json(data: dict[str, object]) -> Options:
        value = data.get("turn_limit", DEFAULT_TURN_LIMIT)
        edition = data.get("edition", 1)  # a snapshot from before editions is edition 1
        return Options(
            int(value) if isinstance(value, int | str) else DEFAULT_TURN_LIMIT,
            int(edition) if isinstance(edition, int | str) else 1,
        )


# --------------------------------------------------------------------------------------- words


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 card', '3 cards'."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def and_list(items: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


__all__ = [
    "ADJACENT",
    "ADJECTIVES",
    "AMERICANS",
    "CENTER",
    "FRONTS",
    "FRONT_LETTERS",
    "FRONT_NAMES",
    "GERMANS",
    "HAND_LIMIT",
    "KEYWORD",
    "LEFT",
    "LETTERS",
    "RIGHT",
    "SIDES",
    "SQUAD_DECKS",
    "SUPPORT",
    "TACTICS",
    "TACTICS_DECK",
    "TACTICS_TYPES",
    "TITLES",
    "TYPES",
    "UNIT_TYPES",
    "Options",
    "TacticsCard",
    "Unit",
    "UnitType",
    "and_list",
    "at_front",
    "cards_words",
    "front_of",
    "other",
    "parse_label",
    "plural",
    "sort_cards",
    "tactics_card",
]

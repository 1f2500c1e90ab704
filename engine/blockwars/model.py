"""Sides, unit kinds, aircraft and options: the vocabulary the rules and every interface share."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Side(StrEnum):
    GERMANS = "germans"
    CANADIANS = "canadians"

    @property
    def other(self) -> Side:
        return Side.CANADIANS if self is Side.GERMANS else Side.GERMANS

    @property
    def title(self) -> str:  # type: ignore[override]
        return "Germans" if self is Side.GERMANS else "Canadians"

    @property
    def adjective(self) -> str:
        return "German" if self is Side.GERMANS else "Canadian"

    @property
    def forward(self) -> int:
        """The rank step towards the enemy."""
        return -1 if self is Side.GERMANS else 1

    @property
    def back_rank(self) -> int:
        """Zero-based rank of this side's own back row (8 for the Germans, 1 for the Canadians)."""
        return 7 if self is Side.GERMANS else 0

    @property
    def second_rank(self) -> int:
        return self.back_rank + self.forward

    @property
    def front_rank(self) -> int:
        """The trench row facing the wire: 6 for the Germans, 3 for the Canadians."""
        return self.back_rank + 2 * self.forward

    @staticmethod
    def parse(text: str) -> Side:
        key = text.strip().lower()
        for side in Side:
            if key in (side.value, side.value[:-1], side.value[0]):
                return side
        raise ValueError(f"'{text}' is not a side: say germans or canadians.")


INFANTRY, MACHINE_GUN, TANK = "infantry", "machine gun", "tank"

# Aircraft statuses.
OK, DAMAGED, DESTROYED = "ok", "damaged", "destroyed"
AIRCRAFT_NAMES = ("A", "B")


@dataclass(frozen=True, slots=True)
class Options:
    """Optional rules, fixed when a match is created."""

    crosses: bool = False  # Victoria Cross / Iron Cross
    fighter_aces: bool = False  # Fighter aces and damaged aircraft

    def to_json(self) -> dict[str, bool]:
        return {"crosses": self.crosses, "fighter_aces": self.fighter_aces}

    @staticmethod
    def from_json(data: dict[str, bool]) -> Options:
        return Options(crosses=bool(data.get("crosses")), fighter_aces=bool(data.get("fighter_aces")))


def unit_kind(unit_id: str) -> str:
    """Unit ids encode their kind: GI07 infantry, GM1 machine gun, CT the tank."""
    code = unit_id[1]
    return INFANTRY if code == "I" else MACHINE_GUN if code == "M" else TANK


def unit_side(unit_id: str) -> Side:
    return Side.GERMANS if unit_id[0] == "G" else Side.CANADIANS


@dataclass(frozen=True, slots=True)
class Layout:
    """A deployment: files occupied on the back row and the second row, and the machine-gun files."""

    back: str
    second: str
    guns: str

    def __str__(self) -> str:
        return f"{self.back}/{self.second}/{self.guns}"


# The one-command deployment, and a few more for variety (the AI and random games use them).
STANDARD = {Side.GERMANS: Layout("bcfg", "cdef", "cf"), Side.CANADIANS: Layout("bcfg", "cdef", "d")}
PRESETS = {
    Side.GERMANS: (
        Layout("aceg", "bdfh", "cf"),
        Layout("abgh", "cdef", "de"),
        Layout("cdef", "bcfg", "bg"),
    ),
    Side.CANADIANS: (
        Layout("aceg", "bdfh", "e"),
        Layout("abgh", "cdef", "c"),
        Layout("cdef", "bcfg", "f"),
    ),
}

# A name and a picture in words for each offered layout, so a new player knows what a button deploys.
LAYOUT_NAMES = {
    "bcfg/cdef": "standard",
    "aceg/bdfh": "checkerboard",
    "abgh/cdef": "wide",
    "cdef/bcfg": "narrow",
}


def layout_name(side: Side, layout: str) -> str:
    """'the checkerboard layout' for an offered layout, 'a layout of their own' for any other."""
    offered = {str(x) for x in (STANDARD[side], *PRESETS[side])}
    name = LAYOUT_NAMES.get(layout.rsplit("/", 1)[0]) if layout in offered else None
    return f"the {name} layout" if name else "a layout of their own"


def _files(files: str) -> str:
    """'c–f' for a run of files, 'b c f g' otherwise."""
    run = "abcdefgh".find(files) >= 0
    return f"{files[0]}–{files[-1]}" if run and len(files) > 2 else " ".join(files)


def describe_layout(side: Side, layout: Layout) -> str:
    """A layout in words, for its button: 'Checkerboard: back row a c e g, second row b d f h, guns
    on c and f' (the front row is always full: the guns and infantry beside them)."""
    name = layout_name(side, str(layout)).removeprefix("the ").removesuffix(" layout")
    guns = " and ".join(layout.guns)
    gun_words = f"gun{'s' if len(layout.guns) > 1 else ''} on {guns}"
    return (
        f"{name[0].upper()}{name[1:]}: back row {_files(layout.back)}, second row {_files(layout.second)}, "
        f"{gun_words}"
    )

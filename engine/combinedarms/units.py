"""The two eras as data: unit tables, special damage, army limits and ready-made armies.

Everything that differs between WWI and WWII Combined Arms and can be said as a table lives here,
so the rules engine (`state.py`) reads an `Era` and never asks which war it is fighting. The few
WWII rules that are more than numbers are flags on a unit type (`airfield`, `shield`, `base`,
`heavy`, `para_move`) which the engine honours wherever they appear.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.protocol import SideInfo


@dataclass(frozen=True, slots=True)
class UnitType:
    """One line of a unit table, with the special abilities as data."""

    code: str  # one capital letter: notation and the board's token
    name: str  # "Machine Gun"
    plural: str  # "Machine Guns"
    move: int
    reach: int  # the Range trait (named so as not to shadow range())
    defense: int
    cls: str = ""  # WWII class: infantry, armour, artillery, air, base ("" in WWI)
    double_vs: frozenset[str] = frozenset()  # target codes this unit does 2 damage to
    always_double: bool = False  # 2 damage to anything (the Flame Thrower)
    base: bool = False  # cannot move: a forced retreat destroys it (WWII bases)
    airfield: bool = False  # moves only next to friends and away from enemies; moves or attacks
    shield: bool = False  # airfields cannot attack it or its friendly neighbours (the AA gun)
    heavy: bool = False  # stops on entering difficult terrain (tanks, mechanized infantry)
    para_move: int = 0  # its Move when it starts the turn next to a friendly airfield
    value: float = 1.0  # what the AI thinks it is worth (infantry = 1)
    one: str = ""  # counted, one of them, where the name is a plural: "1 Engineer", not "1 Engineers"

    @property
    def hq(self) -> bool:
        return self.code == "H"

    def counted(self, n: int) -> str:
        """`n` of this type in words: "1 Engineer", "2 Engineers", "1 Tank", "8 Infantry"."""
        return f"{n} {(self.one or self.name) if n == 1 else self.plural}"

    def traits(self) -> str:
        return f"move {self.move}, range {self.reach}, defence {self.defense}"


def agree(name: str, one: str, many: str) -> str:
    """The verb form that agrees with a unit's name: `many` for the names that are plurals
    (Engineers, Paratroopers, Trench Raiders), `one` otherwise; "Headquarters" reads as one."""
    return many if name.endswith("s") and not name.endswith("Headquarters") else one


@dataclass(frozen=True, slots=True)
class Limits:
    """What a legal army is: its size, per-type bounds, per-class caps and variety."""

    size: int
    most: Mapping[str, int]  # per type (a type not named has no maximum)
    least: Mapping[str, int]  # per type
    class_most: Mapping[str, int] = field(default_factory=dict)  # per class, e.g. armour <= 5
    min_types: int = 0  # different types besides the HQ
    elite: int = 2  # units a side may make Elite (the Elite option; the texts' 2, Campaign too: R23)


@dataclass(frozen=True, slots=True)
class Era:
    """One game of the system: the WWI or WWII data set."""

    key: str  # "wwi" / "wwii"
    units: tuple[UnitType, ...]
    sides: tuple[SideInfo, SideInfo]
    limits: Limits
    campaign_limits: Limits
    presets: Mapping[str, Mapping[str, int]]  # name -> counts, for 16-unit armies
    campaign_presets: Mapping[str, Mapping[str, int]]  # the same names, for Campaign armies
    preset_words: Mapping[str, str]  # name -> a few words for buttons

    def unit(self, code: str) -> UnitType:
        return self.by_code[code]

    @property
    def by_code(self) -> dict[str, UnitType]:
        return _BY_CODE[self.key]

    @property
    def codes(self) -> str:
        return "".join(u.code for u in self.units)


# ------------------------------------------------------------------------------------------ WWI

WWI_UNITS: tuple[UnitType, ...] = (
    UnitType("I", "Infantry", "Infantry", 2, 1, 3, value=1.0),
    UnitType("S", "Sniper", "Snipers", 2, 2, 2, value=1.3),
    UnitType("M", "Machine Gun", "Machine Guns", 1, 2, 3, double_vs=frozenset("IF"), value=1.8),
    UnitType("T", "Tank", "Tanks", 2, 2, 3, double_vs=frozenset("M"), value=2.0),
    UnitType("A", "Artillery", "Artillery", 1, 4, 2, value=1.8),
    UnitType("F", "Flame Thrower", "Flame Throwers", 1, 1, 3, always_double=True, value=1.6),
    UnitType("R", "Trench Raiders", "Trench Raiders", 3, 1, 3, value=1.4, one="Trench Raider"),
    UnitType("H", "Headquarters", "Headquarters", 0, 1, 4, value=3.0),
)

WWI = Era(
    key="wwi",
    units=WWI_UNITS,
    sides=(SideInfo("british", "British", "British"), SideInfo("germans", "Germans", "German")),
    limits=Limits(
        size=16,
        most={"S": 2, "M": 2, "T": 2, "A": 5, "H": 1, "F": 2, "R": 2},
        least={"I": 8, "H": 1},
    ),
    campaign_limits=Limits(
        size=24,
        most={"S": 3, "M": 3, "T": 3, "A": 7, "H": 1, "F": 3, "R": 3},
        least={"I": 12, "H": 1},
    ),
    presets={
        "balanced": {"I": 8, "S": 1, "M": 1, "T": 2, "A": 2, "F": 1, "H": 1},
        "assault": {"I": 8, "T": 2, "A": 1, "F": 2, "R": 2, "H": 1},
        "guns": {"I": 8, "M": 2, "A": 5, "H": 1},
        "firepower": {"I": 8, "S": 2, "M": 2, "T": 2, "A": 1, "H": 1},
    },
    campaign_presets={
        "balanced": {"I": 12, "S": 1, "M": 2, "T": 3, "A": 3, "F": 2, "H": 1},
        "assault": {"I": 12, "T": 3, "A": 2, "F": 3, "R": 3, "H": 1},
        "guns": {"I": 12, "S": 1, "M": 3, "A": 7, "H": 1},
        "firepower": {"I": 12, "S": 3, "M": 3, "T": 3, "A": 2, "H": 1},
    },
    preset_words={
        "balanced": "a bit of everything",
        "assault": "tanks, flame throwers, raiders",
        "guns": "five artillery pieces",
        "firepower": "snipers, machine guns, tanks",
    },
)

# ----------------------------------------------------------------------------------------- WWII

_TANKS = frozenset("LTK")

WWII_UNITS: tuple[UnitType, ...] = (
    UnitType("I", "General Infantry", "General Infantry", 1, 1, 5, "infantry", value=1.0),
    UnitType(
        "P", "Paratroopers", "Paratroopers", 1, 1, 4, "infantry", para_move=4, value=1.0, one="Paratrooper"
    ),
    UnitType(
        "E",
        "Engineers",
        "Engineers",
        1,
        1,
        4,
        "infantry",
        double_vs=frozenset("FH"),
        value=1.3,
        one="Engineer",
    ),
    UnitType("M", "Mechanized Infantry", "Mechanized Infantry", 2, 1, 4, "infantry", heavy=True, value=1.3),
    UnitType("L", "Light Tank", "Light Tanks", 3, 2, 3, "armour", heavy=True, value=1.7),
    UnitType("T", "Medium Tank", "Medium Tanks", 2, 2, 4, "armour", heavy=True, value=2.0),
    UnitType("K", "Heavy Tank", "Heavy Tanks", 1, 2, 5, "armour", heavy=True, value=2.2),
    UnitType("A", "Howitzer", "Howitzers", 1, 3, 3, "artillery", value=1.8),
    UnitType("X", "Anti-Tank Gun", "Anti-Tank Guns", 1, 2, 3, "artillery", double_vs=_TANKS, value=1.5),
    UnitType("Y", "Anti-Aircraft Gun", "Anti-Aircraft Guns", 1, 2, 3, "artillery", shield=True, value=1.4),
    UnitType("R", "Airfield", "Airfields", 2, 4, 2, "air", airfield=True, value=2.0),
    UnitType("F", "Fortification", "Fortifications", 0, 3, 6, "base", base=True, value=2.0),
    UnitType("H", "Headquarters", "Headquarters", 0, 1, 6, "base", base=True, value=3.0),
)

WWII = Era(
    key="wwii",
    units=WWII_UNITS,
    sides=(SideInfo("americans", "Americans", "American"), SideInfo("germans", "Germans", "German")),
    limits=Limits(
        size=16,
        most={u.code: (1 if u.code == "H" else 4) for u in WWII_UNITS},
        least={"H": 1},
        class_most={"armour": 5},
        min_types=7,
    ),
    campaign_limits=Limits(
        size=24,
        most={u.code: (1 if u.code == "H" else 6) for u in WWII_UNITS},
        least={"H": 1},
        class_most={"armour": 7},
        min_types=7,
    ),
    presets={
        "balanced": {"I": 3, "E": 2, "M": 2, "L": 1, "T": 2, "K": 1, "A": 2, "X": 1, "Y": 1, "H": 1},
        "armoured": {"I": 2, "E": 1, "M": 3, "L": 2, "T": 2, "K": 1, "A": 2, "X": 1, "Y": 1, "H": 1},
        "airborne": {"I": 3, "P": 4, "E": 1, "T": 1, "A": 2, "Y": 2, "R": 2, "H": 1},
        "fortress": {"I": 4, "E": 2, "T": 1, "A": 3, "X": 2, "Y": 1, "F": 2, "H": 1},
    },
    campaign_presets={
        "balanced": {"I": 5, "E": 3, "M": 3, "L": 2, "T": 3, "K": 1, "A": 3, "X": 2, "Y": 1, "H": 1},
        "armoured": {"I": 3, "E": 2, "M": 4, "L": 3, "T": 3, "K": 1, "A": 3, "X": 2, "Y": 2, "H": 1},
        "airborne": {"I": 5, "P": 6, "E": 2, "T": 1, "A": 3, "Y": 3, "R": 3, "H": 1},
        "fortress": {"I": 6, "E": 3, "T": 1, "A": 5, "X": 3, "Y": 2, "F": 3, "H": 1},
    },
    preset_words={
        "balanced": "tanks, guns and infantry",
        "armoured": "five tanks, mechanized",
        "airborne": "airfields and paratroopers",
        "fortress": "fortifications and guns",
    },
)

ERAS: dict[str, Era] = {WWI.key: WWI, WWII.key: WWII}
_BY_CODE: dict[str, dict[str, UnitType]] = {e.key: {u.code: u for u in e.units} for e in (WWI, WWII)}

__all__ = ["ERAS", "WWI", "WWII", "Era", "Limits", "UnitType", "agree"]

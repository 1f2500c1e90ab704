"""Armies and deployments: checking a design against the era's limits, the ready-made layouts, and
reading a deployment written as rows.

A deployment lists a side's rows from its own back row forwards (rank 1, 2, 3 for the side at the
bottom; rank 8, 7, 6 for the side at the top); each row names files a.. in order. Ready-made layouts
are computed from the army, so they fit every design.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from engine.combinedarms.units import Era, Limits, UnitType

BACK, MIDDLE, FRONT = 0, 1, 2
# Where a type likes to stand in a ready-made layout.
ROLE: dict[str, dict[str, int]] = {
    "wwi": {"H": BACK, "A": BACK, "M": MIDDLE, "S": MIDDLE, "T": FRONT, "I": FRONT, "F": FRONT, "R": FRONT},
    "wwii": {
        "H": BACK, "A": BACK, "R": MIDDLE, "F": MIDDLE, "Y": MIDDLE, "X": MIDDLE,
        "I": FRONT, "P": FRONT, "E": FRONT, "M": FRONT, "L": FRONT, "T": FRONT, "K": FRONT,
    },
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Placement:
    """One unit of a deployment: `row` counts from the side's back row (0), `file` from a (0)."""

    row: int
    file: int
    code: str
    elite: bool = False


def army_problem(counts: Mapping[str, int], limits: Limits, era: Era) -> str | None:
    """Why `counts` is not a legal army under `limits`, or None when it is."""
    total = sum(counts.values())
    if total != limits.size:
        return f"An army has exactly {limits.size} units; this one has {total}."
    for u in era.units:
        n = counts.get(u.code, 0)
        least = limits.least.get(u.code, 0)
        most = limits.most.get(u.code)
        if least and most == least and n != least:
            return f"An army needs exactly {u.counted(least)} ({u.code}); this one has {n}."
        if n < least:
            return f"An army needs at least {u.counted(least)} ({u.code}); it has {n}."
        if most is not None and n > most:
            return f"An army may have at most {u.counted(most)} ({u.code}); this one has {n}."
    for cls, most in limits.class_most.items():
        n = sum(counts.get(u.code, 0) for u in era.units if u.cls == cls)
        if n > most:
            return f"An army may have at most {most} {class_words(cls, in_all=True)}; this one has {n}."
    if limits.min_types:
        kinds = sum(1 for u in era.units if not u.hq and counts.get(u.code, 0) > 0)
        if kinds < limits.min_types:
            return (
                f"An army needs at least {limits.min_types} different unit types besides the Headquarters; "
                f"this one has {kinds}."
            )
    return None


def class_words(cls: str, *, in_all: bool = False) -> str:
    """A class of units as a limit names it: the tanks are three types counted together."""
    total = " in all" if in_all else ""
    if cls == "armour":
        return f"tanks{total} (light, medium and heavy together)"
    return f"{cls} units{total}"


def describe_army(counts: Mapping[str, int], era: Era) -> str:
    """'8 Infantry, 2 Tanks, 1 Headquarters' in the era's order."""
    parts = []
    for u in era.units:
        n = counts.get(u.code, 0)
        if n:
            parts.append(u.counted(n))
    return ", ".join(parts)


def random_army(
    era: Era, limits: Limits, rng: random.Random, presets: Mapping[str, Mapping[str, int]]
) -> dict[str, int]:
    """A plausible legal army: a ready-made one half the time, else random counts within the limits."""
    if rng.random() < 0.5:
        return dict(presets[rng.choice(sorted(presets))])
    for _ in range(50):
        counts = {code: n for code, n in limits.least.items()}
        others = [u for u in era.units if not u.hq]
        rng.shuffle(others)
        for u in others[: limits.min_types]:
            counts[u.code] = max(counts.get(u.code, 0), 1)
        pool = [u for u in era.units if not u.hq]
        guard = 0
        while sum(counts.values()) < limits.size and guard < 500:
            guard += 1
            u = rng.choice(pool)
            trial = dict(counts)
            trial[u.code] = trial.get(u.code, 0) + 1
            if _within_caps(trial, limits, era):
                counts = trial
        if army_problem(counts, limits, era) is None:
            return counts
    return dict(presets[sorted(presets)[0]])


def _within_caps(counts: Mapping[str, int], limits: Limits, era: Era) -> bool:
    for code, n in counts.items():
        most = limits.most.get(code)
        if most is not None and n > most:
            return False
    for cls, most in limits.class_most.items():
        if sum(counts.get(u.code, 0) for u in era.units if u.cls == cls) > most:
            return False
    return True


# ----------------------------------------------------------------------------- deployments


def layout_problem(
    rows: tuple[str, ...], width: int, depth: int, counts: Mapping[str, int], elite: int, era: Era
) -> str | None:
    """Why `rows` is not a deployment of exactly the army `counts`, or None when it is."""
    if len(rows) > depth:
        return f"A deployment has at most {depth} rows (your back {depth} ranks); this one has {len(rows)}."
    seen: dict[str, int] = {}
    marked = 0
    for n, row in enumerate(rows):
        cells = split_row(row)
        if len(cells) != width:
            return (
                f"Row {n + 1} ('{row}') has {len(cells)} squares; every row has {width}, one per file "
                "(use '.' for an empty square)."
            )
        for code, is_elite in cells:
            if code == ".":
                continue
            if code not in era.by_code:
                return f"There is no unit '{code}' in this game."
            seen[code] = seen.get(code, 0) + 1
            marked += is_elite
    want = {c: n for c, n in counts.items() if n}
    if seen != want:
        for u in era.units:
            a, b = seen.get(u.code, 0), want.get(u.code, 0)
            if a != b:
                return f"Your army has {u.counted(b)} ({u.code}) but the deployment places {a}."
    if marked > elite:
        if elite == 0:
            return "Elite units (*) are only allowed with the Elite option."
        return f"At most {elite} units may be Elite (*); this deployment marks {marked}."
    return None


def split_row(row: str) -> list[tuple[str, bool]]:
    """A row's squares: (letter or '.', elite?)."""
    out: list[tuple[str, bool]] = []
    for ch in row:
        if ch == "*":
            if out and out[-1][0] != ".":
                out[-1] = (out[-1][0], True)
            continue
        out.append((ch, False))
    return out


def placements(rows: tuple[str, ...]) -> list[Placement]:
    out = []
    for r, row in enumerate(rows):
        for f, (code, elite) in enumerate(split_row(row)):
            if code != ".":
                out.append(Placement(r, f, code, elite))
    return out


def ready_layout(style: str, counts: Mapping[str, int], era: Era, width: int, elite: int) -> tuple[str, ...]:
    """A ready-made deployment of `counts` in `style` (line, wedge or flanks), rows back to front."""
    roles = ROLE[era.key]
    units = [era.unit(c) for u in era.units for c in [u.code] * counts.get(u.code, 0)]
    rows: list[list[UnitType]] = [[], [], []]
    for u in sorted(units, key=lambda u: (-_front_priority(u), u.code)):
        rows[roles.get(u.code, FRONT)].append(u)
    # Overflow: the front and back rows spill into the middle, the middle into the front, then back.
    for src, dst in ((FRONT, MIDDLE), (BACK, MIDDLE), (MIDDLE, FRONT), (MIDDLE, BACK)):
        while len(rows[src]) > width and len(rows[dst]) < width:
            rows[dst].append(rows[src].pop())
    grid: list[list[str]] = [["."] * width for _ in range(3)]
    for r in (BACK, MIDDLE, FRONT):
        _fill(grid[r], rows[r], style, r == BACK, width)
    _next_to_airfields(grid, era)
    if elite:
        _mark_elite(grid, elite, era)
    text = ["".join(row) for row in grid]
    while text and set(text[-1]) == {"."}:
        text.pop()
    return tuple(text)


def _next_to_airfields(grid: list[list[str]], era: Era) -> None:
    """Paratroopers moved beside a friendly Airfield, so they have Move 4 from the first turn (W4):
    each takes the best square there (`_para_spot`), swapping with the unit on it; never with a gun
    of the back rank, a base or an Airfield."""
    fields = [
        (r, f)
        for r, row in enumerate(grid)
        for f, c in enumerate(row)
        if c in era.by_code and era.unit(c).airfield
    ]
    paras = {u.code for u in era.units if u.para_move}
    if not fields or not paras:
        return

    def beside(r: int, f: int) -> bool:
        return any(max(abs(r - ar), abs(f - af)) == 1 for ar, af in fields)

    roles = ROLE[era.key]
    for r, row in enumerate(grid):
        for f, code in enumerate(row):
            if code not in paras or beside(r, f):
                continue
            spots = [
                (_para_spot(c, r2, roles), abs(r2 - r) + abs(f2 - f), r2, f2)
                for r2, row2 in enumerate(grid)
                for f2, c in enumerate(row2)
                if beside(r2, f2)
                and c not in paras
                and (c == "." or (roles.get(c) != BACK and not (era.unit(c).base or era.unit(c).airfield)))
            ]
            if spots:
                _, _, r2, f2 = min(spots)
                grid[r][f], grid[r2][f2] = grid[r2][f2], grid[r][f]


def _para_spot(code: str, row: int, roles: Mapping[str, int]) -> int:
    """How good a square beside an Airfield is for a paratrooper (lower first): empty ahead of the
    back rank, then a front-line unit's (they swap), then empty on the back rank, then a middle one."""
    if code == ".":
        return 0 if row != BACK else 2
    return 1 if roles.get(code) == FRONT else 3


def _front_priority(u: UnitType) -> float:
    """Who gets the front row when it is crowded: armour and assault units before plain infantry."""
    return u.value + u.move * 0.1


def _fill(row: list[str], units: list[UnitType], style: str, back: bool, width: int) -> None:
    if not units:
        return
    centre = (width - 1) / 2
    by_centre = sorted(range(width), key=lambda f: (abs(f - centre), f))
    if back:
        # The HQ in the centre with its neighbours left empty as long as possible: a back-row HQ
        # whose side squares are taken cannot retreat at all.
        hq = [u for u in units if u.hq]
        rest = [u for u in units if not u.hq]
        order = list(reversed(by_centre))
        if hq:
            spot = by_centre[0]
            row[spot] = hq[0].code
            near = {spot - 1, spot + 1}
            order = [f for f in order if f != spot and f not in near] + [f for f in order if f in near]
        for f, u in zip(order, sorted(rest, key=lambda u: -u.value), strict=False):
            row[f] = u.code
        return
    n = len(units)
    if style == "wedge":
        files = by_centre[:n]
        ranked = sorted(units, key=lambda u: -u.value)
        for f, u in zip(sorted(files, key=lambda f: (abs(f - centre), f)), ranked, strict=False):
            row[f] = u.code
    elif style == "flanks":
        wings = list(reversed(by_centre))[:n]
        ranked = sorted(units, key=lambda u: (-u.move, -u.value))
        for f, u in zip(sorted(wings, key=lambda f: (-abs(f - centre), f)), ranked, strict=False):
            row[f] = u.code
    else:  # line: spread evenly, the strongest alternating from the centre
        files = sorted({min(width - 1, int((i + 0.5) * width / n)) for i in range(n)})
        while len(files) < n:
            files = sorted(set(files) | {next(f for f in by_centre if f not in files)})
        ranked = sorted(units, key=lambda u: -u.value)
        for f, u in zip(sorted(files, key=lambda f: (abs(f - centre), f)), ranked, strict=False):
            row[f] = u.code


def _mark_elite(grid: list[list[str]], elite: int, era: Era) -> None:
    spots = [
        (-era.unit(code).value, -r, f)
        for r, row in enumerate(grid)
        for f, code in enumerate(row)
        if code != "." and not era.unit(code).hq
    ]
    for _, r, f in sorted(spots)[:elite]:
        grid[-r][f] = grid[-r][f] + "*"


__all__ = [
    "Placement",
    "army_problem",
    "describe_army",
    "layout_problem",
    "placements",
    "random_army",
    "ready_layout",
    "split_row",
]

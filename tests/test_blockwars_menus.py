"""Block Wars' buttons and selects as a new player meets them (issue 13): the barrage centre picker is cut
and labelled by rank, and the set-up buttons say what each layout is."""

from __future__ import annotations

import re

import pytest

from engine.blockwars import GAME, Options, Side, State, new_game, parse
from engine.blockwars.model import PRESETS, STANDARD
from engine.blockwars.squares import SQUARE_NAMES, rank_of, square
from tests.rules_helpers import C, G, pos


def barrage(side: Side) -> State:
    if side is G:
        s = pos({"e5": "G", "e4": "C", "a8": "G", "h1": "C"}, active=G, g=["KC"], c=["2D"])
        s.apply("e5xe4")
    else:
        s = pos({"e4": "C", "e5": "G", "a8": "G", "h1": "C"}, active=C, c=["KC"], g=["2D"])
        s.apply("e4xe5")
    assert s.pending is not None and s.pending.kind == "barrage"
    return s


def ranks_in(label: str) -> set[int]:
    """The ranks a select's label promises: "(ranks 1–3)" or "(rank 7)"."""
    m = re.search(r"\(ranks? (\d)(?:–(\d))?\)", label)
    assert m, label
    first, last = int(m.group(1)), int(m.group(2) or m.group(1))
    return set(range(first, last + 1))


@pytest.mark.parametrize("side", [G, C])
def test_the_barrage_picker_holds_whole_ranks_and_says_which(side: Side) -> None:
    s = barrage(side)
    picks = GAME.menu(s.view(None)).picks
    assert len(picks) == 3
    seen: list[str] = []
    for pick in picks:
        promised = ranks_in(pick.placeholder)
        squares = [str(parse(c.notation or "")).split()[-1] for c in pick.choices]
        assert {rank_of(square(q)) + 1 for q in squares} == promised, pick.placeholder
        assert len(squares) == 8 * len(promised) <= 25  # every square of those ranks
        seen += squares
    assert sorted(seen) == sorted(SQUARE_NAMES)
    (holder,) = [p for p in picks if 2 in ranks_in(p.placeholder)]
    assert "barrage e2" in [c.notation for c in holder.choices]


def test_the_gas_picker_is_cut_by_rank_too() -> None:
    s = barrage(G)
    menu = GAME.menu(s.view(None))
    (gas,) = [b for b in menu.buttons if b.opens]
    sub = GAME.submenu(s.view("germans"), s.legal_actions(), gas.opens or "")
    assert [ranks_in(p.placeholder) for p in sub.picks] == [{1, 2, 3}, {4, 5, 6}, {7, 8}]
    assert all(c.notation and c.notation.startswith("gas ") for p in sub.picks for c in p.choices)


@pytest.mark.parametrize("side", [G, C])
def test_the_set_up_buttons_describe_each_layout(side: Side) -> None:
    s = new_game(Options(), 3)
    if side is C:
        s.apply("setup std")
    buttons = GAME.menu(s.view(None)).buttons
    layouts = [STANDARD[side], *PRESETS[side]]
    assert len(buttons) == len(layouts)
    names = set()
    for button, layout in zip(buttons, layouts, strict=True):
        label = button.label
        assert len(label) <= 80 and not label.startswith("Layout"), label
        name, _, rows = label.partition(": ")
        names.add(name)
        back, second, guns = rows.split(", ")
        assert back.startswith("back row ") and second.startswith("second row "), label
        # The words name the layout's files: every one, as a run ("c–f") or one by one.
        for words, files in ((back, layout.back), (second, layout.second), (guns, layout.guns)):
            listed = words.split(" ", 2)[-1]
            for f in files:
                assert f in listed or re.search(rf"[a-{f}]–[{f}-h]", listed), (label, f)
        n = len(layout.guns)
        assert guns == ("guns on " + " and ".join(layout.guns) if n == 2 else f"gun on {layout.guns}")
    assert len(names) == len(layouts) and "Standard" in names


def test_the_deployed_line_names_the_layout() -> None:
    s = new_game(Options(), 3)
    (line,) = [e.text() for e in s.apply("setup aceg/bdfh/cf") if e.text()]
    assert line == "the Germans deploy the checkerboard layout (aceg/bdfh/cf)"
    (line,) = [e.text() for e in s.apply("setup bdeg/cdef/h") if e.text()]
    assert line == "the Canadians deploy a layout of their own (bdeg/cdef/h)"


def test_the_answers_to_optional_choices_say_what_they_do() -> None:
    pieces = {"e5": "G", "e4": "C", "a8": "G", "h1": "C"}
    cross = pos(pieces, active=G, g=["2D"], c=["9C"], options=Options(crosses=True))
    cross.apply("e5xe4")
    labels = [b.label for b in GAME.menu(cross.view(None)).buttons]
    assert labels == ["Spend the Iron Cross: the soldier wins", "Keep the Iron Cross"]
    dogfight = pos({"e5": "G", "e4": "C", "a8": "G", "h1": "C"}, active=G, g=["JD"], c=["2C"])
    dogfight.apply("e5xe4")
    labels = [b.label for b in GAME.menu(dogfight.view(None)).buttons]
    assert labels == ["Dogfight with aircraft A", "Dogfight with aircraft B", "Let it pass (no dogfight)"]

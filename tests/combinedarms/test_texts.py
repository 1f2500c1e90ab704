"""Combined Arms' words name whose unit did what: "Infantry retreats from g6 to f5" left a reader on
a phone asking whose infantry. Every event names its side (the title, "the Germans move ...", or the
adjective before a unit, "the British Infantry on e5 hits the German Infantry on f4"), in the present
tense the game uses, on the board's "Last:" lines and in the history lines."""

from __future__ import annotations

import random
from pathlib import Path

from engine.combinedarms.army import describe_army
from engine.combinedarms.state import State, new_game
from engine.combinedarms.units import WWI, WWII
from play.words import history_line
from render.combinedarms.board import _said
from tests.combinedarms.helpers import AMERICANS, BRITISH, GERMANS, E, build, play
from tests.console_run import console_said

OPTIONS = {"experienced": True, "reinforcements": True}


def played(era: str, seed: int) -> tuple[State, list[tuple[int, list[E.Event]]]]:
    """A seeded random game: (index of the side that acted, its events) per action."""
    s = new_game(era, OPTIONS, seed)
    rng = random.Random(seed)
    out: list[tuple[int, list[E.Event]]] = []
    while not s.is_over() and len(out) < 600:
        side = sorted(s.to_act())[0]
        action = rng.choice(s.legal_actions(side))
        out.append((s.side_index(side), s.apply(action, side)))
    return s, out


def test_every_event_names_its_side() -> None:
    kinds: set[type] = set()
    for era, seed in [("wwi", 1), ("wwi", 2), ("wwii", 3), ("wwii", 4)]:
        s, actions = played(era, seed)
        for _, events in actions:
            for e in events:
                side = getattr(e, "side", None)
                text = e.text(None)
                if side is None or not text:
                    continue
                kinds.add(type(e))
                who = s.side_index(side)
                named = (f"the {s.title(who)} ", f"the {s.adjective(who)} ")
                assert text.startswith(named), f"{era} seed {seed}: {text!r} does not name its side"
    assert {E.Moved, E.Hit, E.Retreated, E.Destroyed, E.MovesDone} <= kinds  # the games got that far


def test_an_attack_and_its_retreat_name_both_sides() -> None:
    s = build("wwi", {"e3": "I", "f3": "I", "g3": "I", "f4": "i", "a1": "H", "h8": "h"})
    events = play(s, BRITISH, "done", "e3xf4", "f3xf4", "g3xf4")
    assert events[1].text() == (
        "the British Infantry on e3 hits the German Infantry on f4: 1 damage (1 of 3 this turn)"
    )
    assert history_line("British", "g3xf4", events[3:]) == (
        "The British Infantry on g3 hits the German Infantry on f4: 1 damage (3 of 3 this turn); "
        "the Germans must choose where their Infantry on f4 retreats (f5, e5, g5)"
    )
    retreat = play(s, GERMANS, "retreat e5")
    assert history_line("Germans", "retreat e5", retreat) == "The German Infantry retreats from f4 to e5"
    assert _said(s, retreat, None) == ["The German Infantry retreats from f4 to e5."]


def test_moves_on_the_board_name_the_side_once() -> None:
    s = build("wwi", {"d2": "I", "e2": "I", "a1": "H", "h8": "h"})
    events = play(s, BRITISH, "d2-d3", "e2-e3")
    assert _said(s, events, None) == ["The British move Infantry d2-d3, Infantry e2-e3."]
    assert history_line("British", "d2-d3", events[:1]) == "The British move Infantry d2-d3"
    assert history_line("British", "done", play(s, BRITISH, "done")) == "The British are done moving"


def test_a_loss_and_an_elite_unit_say_whose() -> None:
    s = build("wwii", {"d4": "E", "c5": "a", "d5": "a", "e5": "a", "f6": "a", "a1": "H", "h8": "h"}, active=1)
    play(s, GERMANS, "done", "c5xd4", "d5xd4", "e5xd4", "f6xd4")
    moved = play(s, AMERICANS, "retreat d3")
    assert moved[-1].text() == "the American Engineers retreat from d4 to d3"
    gone = E.Destroyed(AMERICANS, "Engineers", "d4", "base", "American")
    assert gone.text() == "the American Engineers on d4 are destroyed (a base cannot retreat)"
    assert E.BecameElite(GERMANS, "Infantry", "e5", "German").text() == (
        "the German Infantry on e5 has helped destroy 5 units and becomes Elite"
    )


def test_an_army_of_one_of_a_kind_counts_it_in_the_singular() -> None:
    """ "1 Engineers, 1 Paratroopers" in the army line: the cards' names are plurals, one unit is not."""
    assert describe_army({"P": 1, "E": 1, "I": 3}, WWII) == "3 General Infantry, 1 Paratrooper, 1 Engineer"
    assert describe_army({"P": 2, "E": 2}, WWII) == "2 Paratroopers, 2 Engineers"
    assert (
        describe_army({"I": 8, "S": 1, "R": 1, "H": 1}, WWI)
        == "8 Infantry, 1 Sniper, 1 Trench Raider, 1 Headquarters"
    )


async def test_the_wwii_help_names_each_limit_a_reinforcement_keeps(tmp_path: Path) -> None:
    """`rules options` said a reinforcement comes "within the army's limits": a reader could not
    tell which (the 7 types a design needs do not apply, W10). It names the limits the engine
    checks (`State.reinforcement_types`), with the Campaign's, in one line."""
    said = await console_said(tmp_path, ["/combinedarms_wwii rules options"])
    lim, camp = WWII.limits, WWII.campaign_limits
    assert (lim.most["I"], lim.class_most["armour"], camp.most["I"], camp.class_most["armour"]) == (
        4,
        5,
        6,
        7,
    )
    assert (
        "Reinforcements: every third turn of yours, one more unit on your back row, placed before you "
        "move (`T@a1`): any type but a base (Fortification or Headquarters), as long as you then have "
        "at most 4 of its type and at most 5 tanks on the board (6 and 7 in the Campaign). The rule "
        "of 7 different types is for designing an army only."
    ) in said
    assert "army's limits" not in said

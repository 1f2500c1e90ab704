"""Fixed positions for the documentation images and the golden tests: `python -m render.blockwars.examples`.

Every scenario is built from stacked decks or a seeded game, so it draws the same picture on every
machine; tests/golden.py compares these renders against tests/golden/*.png.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path

from engine.blockwars import Event, Options, Side, State, new_game
from engine.blockwars.events import Combat
from engine.blockwars.position import build

Scenario = tuple[State, list[Event], str | None]
C, G = Side.CANADIANS, Side.GERMANS


def opening() -> Scenario:
    """The standard set-up, Germans to act."""
    s = new_game(Options(), 1)
    s.apply("setup std")
    return s, s.apply("setup std"), None


def wire_tie() -> Scenario:
    """An attack through the wire that wins by one: a tie, because the wire needs a win by two."""
    s = build(
        {"e5": "C", "e6": "G", "d6": "GM", "f7": "G", "e8": "G", "d3": "CM", "c1": "CT", "e2": "C"},
        active=C,
        decks={C: ["9C"], G: ["8D"]},
    )
    return s, s.apply("e5xe6"), None


def mid_game() -> Scenario:
    """A seeded random game some turns in, at an action with a combat (doc image)."""
    s = new_game(Options(crosses=True, fighter_aces=True), 7)
    rng = random.Random(7)
    events: list[Event] = []
    while not s.is_over():
        events = s.apply(rng.choice(s.legal_actions()))
        if s.turn >= 24 and any(isinstance(e, Combat) and e.kind == "attack" for e in events):
            break
    return s, events, None


def barrage() -> Scenario:
    """A King drawn in an attack, then the barrage on e6: its area, the cards and what it killed."""
    s = build(
        {"e4": "C", "e5": "G", "d6": "GM", "e6": "G", "f6": "G", "f7": "G", "c2": "C", "d3": "CM"},
        active=C,
        decks={C: ["KC", "2S", "9H", "3D", "7C"], G: ["5D"]},
    )
    s.apply("e4xe5")  # the King: the Canadians must choose a barrage square
    return s, s.apply("barrage e6"), None


def tank_and_strafe() -> Scenario:
    """The tank fires and a Jack sends an aircraft to strafe after a dogfight."""
    s = build(
        {"d5": "G", "c3": "CT", "e7": "G", "f6": "GM", "b7": "G", "e2": "C"},
        active=C,
        tank_damage=1,
        decks={C: ["JC", "QH", "AS"], G: ["4D", "6S", "2C"]},
        aircraft={G: {"B": "damaged"}},
    )
    s.apply("Txd5")  # the Jack: both Canadian aircraft are alike, the Germans may dogfight
    s.apply("dogfight A")
    return s, s.apply("strafe e7"), None


def won() -> Scenario:
    """The second Canadian unit reaches rank 8: the game is over."""
    s = build({"b8": "C", "c7": "C", "f6": "G", "d8": "G", "e3": "C", "g7": "G"}, active=C)
    return s, s.apply("c7-c8"), None


def overlay() -> Scenario:
    """What the German machine gun on d6 can reach, asked on the Canadians' turn."""
    s = build(
        {"d6": "GM", "c4": "C", "d4": "C", "e5": "C", "f4": "C", "c7": "G", "e6": "G", "b3": "C"},
        active=C,
    )
    return s, [], "d6"


SCENARIOS: dict[str, Callable[[], Scenario]] = {
    "opening": opening,
    "wire_tie": wire_tie,
    "mid_game": mid_game,
    "barrage": barrage,
    "tank_and_strafe": tank_and_strafe,
    "won": won,
    "overlay": overlay,
}


def main(out: Path = Path("docs/images")) -> None:
    """Write every scenario as a PNG, plus a short replay GIF, into docs/images/."""
    from render.blockwars import render_board
    from render.replay import random_log, render_replay

    out.mkdir(parents=True, exist_ok=True)
    for name, make in SCENARIOS.items():
        state, events, over = make()
        (out / f"{name}.png").write_bytes(render_board(state, events, overlay=over))
        print(f"wrote {out / name}.png", file=sys.stderr)
    log = random_log("blockwars", {}, 0, 40)
    (out / "replay.gif").write_bytes(render_replay("blockwars", {}, 0, log))
    print(f"wrote {out / 'replay.gif'}", file=sys.stderr)


if __name__ == "__main__":
    main()

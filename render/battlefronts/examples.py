"""Fixed scenes for looking at the board and for the docs: `python -m render.battlefronts.examples [dir]`.

Each scene is built from named cards or a seeded game, so it draws the same picture everywhere.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path

from engine.battlefronts import GAME, State
from engine.battlefronts.model import BLUE, RED
from engine.battlefronts.position import begin, build
from engine.battlefronts.state import BATTLE, new_game
from engine.protocol import Event
from render.battlefronts.board import render_board

Scene = tuple[State, list[Event]]


def _play(state: State, side: str, text: str) -> list[Event]:
    out: list[Event] = []
    for part in text.split(";"):
        out.extend(state.apply(GAME.parse(part.strip()), side))
    return out


def first_call_ups() -> Scene:
    """Round 1: the Reds have called up four battalions, the Blues are to act."""
    s = new_game(11)
    return s, _play(s, RED, "call T1 3; call T2 4; call T3 3; call T4 2; pass")


def worked_example() -> Scene:
    """The original text's example at F3, just after its battle (the next round's attrition too)."""
    s = build(
        {
            "F3": {RED: ["R1:5H 9D 2C", "R2:QS 9C 3D 4H"], BLUE: ["B1:3C 8D 4S 6H", "B2:TD", "B3:2S"]},
            "F1": {RED: ["R3:7C 2D"]},
            "T3": {BLUE: ["B4:?5H 9H"]},
        },
        round=3,
        phase=BATTLE,
    )
    return s, begin(s)


def a_tie() -> Scene:
    """The Reds must choose which of two battalions showing a 5 takes the battle reduction."""
    s = build(
        {"F2": {RED: ["5H 2H 3H", "5D"], BLUE: ["TC 2C", "KS 3S 4S 5S"]}, "F4": {BLUE: ["8D"]}},
        round=3,
        phase=BATTLE,
    )
    return s, begin(s)


def seeded(seed: int, actions: int) -> Scene:
    """A seeded game between two sensible players, `actions` actions in."""
    s = new_game(seed)
    rng = random.Random(seed)
    events: list[Event] = []
    from engine.battlefronts import ai

    for _ in range(actions):
        if s.is_over():
            break
        side = min(s.to_act())
        events = s.apply(ai.rollout(s, side, rng), side)
    return s, events


def mid_game() -> Scene:
    return seeded(5, 60)


def crowded() -> Scene:
    """Many battalions at one front: the rows grow, then the rest is counted."""
    reds = [f"{r}H" for r in "23456789T"] + [f"{r}D" for r in "2345"]
    blues = [f"{r}C" for r in "A23456"]
    s = build({"F3": {RED: reds, BLUE: blues}, "T2": {RED: ["?2S 3S", "?4S 5S", "?6S"]}}, round=6)
    return s, []


def game_over() -> Scene:
    s = build({"F1": {RED: ["5H"]}, "F3": {RED: ["6H 2H"]}, "F5": {RED: ["7H"], BLUE: ["2C"]}}, round=8)
    _play(s, BLUE, "move B1 T4; pass")
    _play(s, RED, "pass")
    _play(s, BLUE, "pass")
    return s, _play(s, RED, "pass")


SCENES: dict[str, Callable[[], Scene]] = {
    "first_call_ups": first_call_ups,
    "worked_example": worked_example,
    "a_tie": a_tie,
    "mid_game": mid_game,
    "crowded": crowded,
    "game_over": game_over,
}


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/battlefronts")
    out.mkdir(parents=True, exist_ok=True)
    for name, scene in SCENES.items():
        state, events = scene()
        (out / f"{name}.png").write_bytes(render_board(state.view(None).state, events))
        print(out / f"{name}.png")


if __name__ == "__main__":
    main()

__all__ = ["SCENES", "main"]

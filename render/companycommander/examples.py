"""Fixed scenes for looking at the board and for the docs:
`python -m render.companycommander.examples [dir]` writes each at full size and at 400 px wide.

Each scene is built from named units and rigged dice, or a seeded game played by the AI's playout
policy, so it draws the same picture everywhere.
"""

from __future__ import annotations

import io
import random
import sys
from collections.abc import Callable
from pathlib import Path

from PIL import Image

from engine.companycommander import GAME, State
from engine.companycommander.ai import rollout
from engine.companycommander.model import AMERICANS, GERMANS, Options
from engine.companycommander.position import build, rig
from engine.companycommander.state import DEPLOY, new_game
from engine.protocol import Event
from render import seen
from render.companycommander.board import render_board

Scene = tuple[State, list[Event]]


def _play(state: State, text: str) -> list[Event]:
    out: list[Event] = []
    for part in text.split(";"):
        out.extend(state.apply(GAME.parse(part.strip()), state.active))
    return out


def _playout(seed: int, actions: int) -> Scene:
    s = new_game(Options(), seed)
    rng = random.Random(seed)
    events: list[Event] = []
    for _ in range(actions):
        if s.is_over():
            break
        events = s.apply(rollout(s, s.active, rng), s.active)
    return s, events


def deploying() -> Scene:
    """Round 3: the Americans have drawn three units to deploy; the Germans' last turn's rolls show."""
    s = build(
        {"A1": "rifles L", "A2": "hmg C", "A3": "scouts C cas0", "A4": "rifles R", "A5": "mortar C pinned"}
        | {"A6": "rifles -", "A7": "sherman -", "A8": "scouts -"}
        | {"G1": "mg42 C", "G2": "rifles L", "G3": "assault R", "G4": "panzer C cas1", "G5": "rifles C"},
        phase=DEPLOY,
        hands={AMERICANS: ["artillery", "rally", "sniper"], GERMANS: ["mortars", "surprise"]},
    )
    return s, []


def arrivals() -> Scene:
    """The Americans' first turn: three new units, the Company Commander among them; the machine gun
    deployed this turn has fired (done), the others wait (new)."""
    s = build(
        {"A1": "cc -", "A2": "hmg -", "A3": "rifles -"}
        | {"G1": "rifles C", "G2": "mg42 L", "G3": "scouts R"},
        phase=DEPLOY,
        round=1,
        active=AMERICANS,
        first=GERMANS,
        hands={AMERICANS: ["sniper", "medic", "rally"], GERMANS: ["mortars", "ambush", "rally"]},
    )
    _play(s, "deploy A1 C; deploy A2 L; deploy A3 R; tactics")
    rig(s, (4, 5))
    return s, _play(s, "fire A2")


def firefight() -> Scene:
    """A whole American turn of fire: a Recon mark, machine guns, a barrage, an assault."""
    s = build(
        {"A1": "scouts C", "A2": "hmg C", "A3": "mortar C", "A4": "rifles C", "A5": "rifles L", "A6": "fo R"}
        | {"G1": "mg42 C", "G2": "rifles C", "G3": "rifles L", "G4": "scouts R", "G5": "panzer C"},
        hands={AMERICANS: ["artillery", "surprise"], GERMANS: ["medic"]},
        lost={GERMANS: 3, AMERICANS: 2},
    )
    rig(s, (5,), (4, 5))  # the mission succeeds; the rest as the seed's dice fall
    _play(s, "recon A1 mark; fire A2; fire A3; play artillery C; assault A4")
    return s, []


def mid_game() -> Scene:
    """A seeded game played by the AI's playout policy, some rounds in."""
    return _playout(12, 70)


def game_over() -> Scene:
    """The tenth German unit falls."""
    s = build(
        {
            "A1": "hmg C",
            "A2": "rifles L",
            "A3": "rifles R",
            "G1": "scouts C",
            "G2": "rifles L",
            "G3": "mg42 R",
        },
        lost={GERMANS: 9, AMERICANS: 6},
    )
    rig(s, (6, 6))
    return s, _play(s, "fire A1")


SCENES: dict[str, Callable[[], Scene]] = {
    "deploying": deploying,
    "arrivals": arrivals,
    "firefight": firefight,
    "mid_game": mid_game,
    "game_over": game_over,
}


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/companycommander")
    out.mkdir(parents=True, exist_ok=True)
    for name, scene in SCENES.items():
        state, events = scene()
        data = render_board(state.view(None), seen(events, None))
        (out / f"companycommander-{name}.png").write_bytes(data)
        image = Image.open(io.BytesIO(data)).convert("RGB")
        small = image.resize((400, image.height * 400 // image.width), Image.Resampling.LANCZOS)
        small.quantize(256).save(out / f"companycommander-{name}-400.png", optimize=True)
        print(out / f"companycommander-{name}.png")


if __name__ == "__main__":
    main()

__all__ = ["SCENES", "main"]

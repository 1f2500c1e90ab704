"""What a player reads on Block Wars' board (issue 13): the panel's words, the turn counter, the result
said once and off the units, and nothing cut off on the right of a replay frame."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import pytest
from PIL import Image

from engine.blockwars import Options, State, new_game
from engine.blockwars.events import Event
from engine.blockwars.squares import SQUARE_NAMES
from render.blockwars import board
from render.blockwars.board import REPLAY_SQUARE, SQUARE, Geo, draw
from render.blockwars.examples import SCENARIOS
from tests.rules_helpers import G, pos


@dataclass
class Drawn:
    """Every piece of text drawn in the panel and every image pasted there."""

    words: list[str] = field(default_factory=list)
    boxes: list[tuple[int, int, int, int]] = field(default_factory=list)

    @property
    def said(self) -> str:
        return " | ".join(self.words)


@contextmanager
def recording(monkeypatch: pytest.MonkeyPatch, s: int) -> Iterator[Drawn]:
    drawn = Drawn()
    g = Geo(s)
    real_text, real_paste = board.text, board.Canvas.paste

    def text(words: str, *args: object, **kw: object) -> Image.Image:
        drawn.words.append(words)
        return real_text(words, *args, **kw)  # type: ignore[arg-type]

    def paste(self: board.Canvas, tile: Image.Image, x: int, y: int) -> None:
        if x >= g.panel_x:
            drawn.boxes.append((x, y, x + tile.width, y + tile.height))
        real_paste(self, tile, x, y)

    monkeypatch.setattr(board, "text", text)
    monkeypatch.setattr(board.Canvas, "paste", paste)
    yield drawn


def positions(seed: int, steps: int) -> Iterator[tuple[State, list[Event]]]:
    """Every position of a seeded random game with both options, with the events that led to it."""
    s = new_game(Options(crosses=True, fighter_aces=True), seed)
    rng = random.Random(seed)
    events: list[Event] = []
    for _ in range(steps):
        yield s, events
        if s.is_over():
            return
        events = s.apply(rng.choice(s.legal_actions()))


@pytest.mark.parametrize("s", [REPLAY_SQUARE, SQUARE])
def test_nothing_drawn_in_the_panel_is_cut_off(monkeypatch: pytest.MonkeyPatch, s: int) -> None:
    """Replay frames are drawn small; every word must still fit inside the panel and the picture."""
    g = Geo(s)
    right = g.panel_x + g.panel_w
    cases = [SCENARIOS[n]() for n in SCENARIOS]
    cases += [(st, ev, None) for seed in (1, 2) for st, ev in positions(seed, 160)]
    with recording(monkeypatch, s) as drawn:
        for state, events, overlay in cases:
            drawn.boxes.clear()
            draw(state, events, overlay, s=s)
            for x0, y0, x1, y1 in drawn.boxes:
                assert x1 <= right and y1 <= g.height, (s, x0, y0, x1, y1, right, drawn.words[-3:])


def test_the_turn_counter_numbers_whole_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    state = pos({"a8": "G", "h1": "C"}, active=G)
    for _ in range(2 * 19):  # 19 German and 19 Canadian turns
        state.apply("end")
    assert state.turn_number() == 20 and state.active is G
    with recording(monkeypatch, SQUARE) as drawn:
        draw(state)
    assert "BLOCK WARS · turn 20" in drawn.words


def test_the_german_set_up_panel_counts_both_machine_guns(monkeypatch: pytest.MonkeyPatch) -> None:
    state = new_game(Options(), 1)
    with recording(monkeypatch, SQUARE) as drawn:
        draw(state)
    assert "To deploy: 14 infantry + 2 machine guns" in drawn.words
    assert "To deploy: 15 infantry + 1 machine gun" in drawn.words
    assert "Reserve: 6 infantry" in drawn.words and "Reserve: 6 infantry + the tank" in drawn.words
    assert not [w for w in drawn.words if "MG" in w or "Deck: 0" in w]


def resigned() -> tuple[State, list[Event]]:
    """The Germans step into No Man's Land, then the Canadians resign."""
    s = new_game(Options(), 1)
    s.apply("setup std")
    s.apply("setup std")
    s.apply("e6-e5")
    return s, s.apply("resign", "canadians")


def test_the_resign_board_says_the_result_once(monkeypatch: pytest.MonkeyPatch) -> None:
    state, events = resigned()
    with recording(monkeypatch, SQUARE) as drawn:
        draw(state, events)
    assert sum(w.lower().count("germans win") for w in drawn.words) == 1, drawn.said
    assert sum(w.count("resigned") for w in drawn.words) == 1, drawn.said


@pytest.mark.parametrize("case", ["won", "resigned"])
def test_the_result_covers_no_unit(case: str) -> None:
    """Every occupied square looks the same as in the same position still in play."""
    state, events = SCENARIOS["won"]()[:2] if case == "won" else resigned()
    playing = state.clone()
    playing.phase, playing.result = "play", None
    finished, before = draw(state, events).convert("RGB"), draw(playing, []).convert("RGB")
    g = Geo(SQUARE)
    winners = {sq for e in events for sq in getattr(e, "squares", ())}
    for sq, uid in enumerate(state.board):
        if uid is None or SQUARE_NAMES[sq] in winners:
            continue
        x, y = g.xy(sq)
        probe = (x + SQUARE // 2, y + SQUARE // 2 + SQUARE // 5)  # the token's body, below any arrow
        assert finished.getpixel(probe) == before.getpixel(probe), SQUARE_NAMES[sq]


def test_a_dogfight_is_headed_by_the_side_that_answered_and_names_the_winner(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The Germans strafe, the Canadians meet them and lose: the board must not say they won."""
    s = pos({"e5": "G", "e4": "C", "a8": "G", "h1": "C"}, active=G, g=["JD", "9C"], c=["2C", "3S"])
    s.apply("e5xe4")  # the German Jack sends aircraft A; the Canadians may dogfight it
    events = s.apply("dogfight A", "canadians")  # German 9 against Canadian 3: the Canadians lose
    with recording(monkeypatch, SQUARE) as drawn:
        draw(s, events)
    assert "LAST ACTION · Canadians" in drawn.words, drawn.said
    assert "Germans win" in drawn.words, drawn.said
    assert not [w for w in drawn.words if "for the attacker" in w]

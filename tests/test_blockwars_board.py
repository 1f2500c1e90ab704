"""What a player reads on Block Wars' board (issues 13 and 21): the words around the board, the turn
counter, the result said once and off the units, nothing cut off or drawn over the board, and a whole
turn's actions all said."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import pytest
from PIL import Image

from engine.blockwars import Options, State, new_game
from engine.blockwars.events import Event
from engine.blockwars.squares import SQUARE_NAMES
from render import kit
from render.blockwars.board import REPLAY_SQUARE, SQUARE, Geo, draw
from render.blockwars.examples import SCENARIOS
from render.blockwars.theme import KEY, PALETTE
from tests.rules_helpers import C, G, play, pos


@dataclass
class Drawn:
    """Every piece of text drawn and every tile pasted around the board."""

    words: list[str] = field(default_factory=list)
    boxes: list[tuple[int, int, int, int]] = field(default_factory=list)

    @property
    def said(self) -> str:
        return " | ".join(self.words)


@contextmanager
def recording(monkeypatch: pytest.MonkeyPatch, *, afresh: bool = True) -> Iterator[Drawn]:
    """Record what the pictures drawn inside the block say and paste. `afresh`: every word's tile
    drawn anew each time (`kit.measuring`); otherwise the caches are emptied once and a word's tile
    is drawn once, then reused as the bot reuses it: the same words and tiles, the same sizes."""
    drawn = Drawn()
    real_text, real_draw = PALETTE.text, kit.Column.draw

    def text(words: str, *args: object, **kw: object) -> Image.Image:
        drawn.words.append(words)
        return real_text(words, *args, **kw)  # type: ignore[arg-type]

    def draw(self: kit.Column, im: Image.Image) -> None:
        """The tiles a picture really gets (not those of a layout tried and dropped as too tall)."""
        for op in self.ops:
            if len(op) == 3:
                tile, x, y = op
                drawn.boxes.append((x, y, x + tile.width, y + tile.height))
        real_draw(self, im)

    monkeypatch.setattr(PALETTE, "text", text)
    monkeypatch.setattr(kit.Column, "draw", draw)
    if not afresh:
        kit._clear_render_caches()
        yield drawn
        return
    with kit.measuring():  # empties the caches: every word is drawn, and seen here, afresh
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
def test_no_word_is_cut_off_or_drawn_over_the_board(monkeypatch: pytest.MonkeyPatch, s: int) -> None:
    """Replay frames are drawn small; every word must still fit inside the picture, and the rows
    above and below the board must never run into it, whatever the position says."""
    cases = [SCENARIOS[n]() for n in SCENARIOS]
    cases += [(st, ev, None) for seed in (1, 2) for st, ev in positions(seed, 160)]
    with recording(monkeypatch, afresh=False) as drawn:  # the tiles' boxes: no need to draw each word anew
        for state, events, overlay in cases:
            drawn.boxes.clear()
            im = draw(state, events, overlay, s=s)
            g = Geo(s, 3 if state.options.crosses else 2)
            board = (g.x0, g.y0 - g.margin, g.x0 + 8 * s, g.y0 + 8 * s + g.margin)
            for x0, y0, x1, y1 in drawn.boxes:
                assert x0 >= 0 and x1 <= im.width and y1 <= im.height, (s, x0, y0, x1, y1, drawn.words[-3:])
                assert y1 <= board[1] or y0 >= board[3], (s, y0, y1, board, drawn.words[-3:])


def test_the_turn_counter_numbers_whole_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    state = pos({"a8": "G", "h1": "C"}, active=G)
    for _ in range(2 * 19):  # 19 German and 19 Canadian turns
        state.apply("end")
    assert state.turn_number() == 20 and state.active is G
    with recording(monkeypatch) as drawn:
        draw(state)
    assert "Germans: 2 actions left" in drawn.words and "turn 20" in drawn.words


def test_the_german_set_up_panel_counts_both_machine_guns(monkeypatch: pytest.MonkeyPatch) -> None:
    state = new_game(Options(), 1)
    with recording(monkeypatch) as drawn:
        draw(state)
    assert "to deploy: 14 infantry + 2 machine guns" in drawn.words
    assert "to deploy: 15 infantry + 1 machine gun" in drawn.words
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
    with recording(monkeypatch) as drawn:
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
    with recording(monkeypatch) as drawn:
        draw(s, events)
    assert "Last:" in drawn.words, drawn.said
    assert "The Canadians take on German aircraft A with aircraft A:" in " ".join(drawn.words), drawn.said
    assert "Germans win the fight" in drawn.words, drawn.said
    assert not [w for w in drawn.words if "for the attacker" in w]


def test_a_whole_turn_is_drawn_on_one_board(monkeypatch: pytest.MonkeyPatch) -> None:
    """One board per hand-off: the AI's two actions arrive as one list of events; the move gets its
    arrow, the attack its red arrow and both cards, and the words say all of it (nothing cut off)."""
    from engine.blockwars.squares import square

    s = pos({"e2": "C", "b4": "C", "b5": "G", "h8": "G"}, active=C, c=["9C"], g=["3D"])
    events = play(s, "e2-e3", "b4xb5")
    assert s.active is G  # the Canadians' turn is over: this is what the Germans come back to
    g = Geo(SQUARE)
    with recording(monkeypatch) as drawn:
        im = draw(s, events).convert("RGB")
    x, y = g.centre(square("e3"))
    assert im.getpixel((x, y + SQUARE // 2)) == KEY["move"]  # the move's white shaft crosses e2/e3
    x, y = g.centre(square("b5"))
    assert im.getpixel((x, y + SQUARE // 2)) == KEY["attack"]  # the attack's red one crosses b4/b5
    said = drawn.said
    assert "Last:" in said and "The Canadians move e2-e3." in said, said
    assert "The Canadians attack b5 from b4:" in " ".join(drawn.words), said
    assert "9♣" in said and "3♦" in said and "Canadians win the fight" in said, said
    assert not any(w.endswith("…") for w in drawn.words), said


PAST = re.compile(
    r"\b(moved|deployed|attacked|fired|strafed|took|brought|won|declined|offered|kept|sent|was)\b"
)


def test_the_board_tells_a_whole_random_game_in_the_present(monkeypatch: pytest.MonkeyPatch) -> None:
    """The board's Last box said "The Germans moved c4-d3." after its events were told in the
    present, as every game tells them (docs/architecture.md, Words)."""
    rng, s = random.Random(4), new_game(Options(crosses=True, fighter_aces=True), 4)
    with recording(monkeypatch) as drawn:
        for step in range(160):
            if s.is_over():
                break
            side = min(s.to_act())
            events = s.apply(rng.choice(s.legal_actions(side)), side)
            if step % 4 == 0:
                draw(s, events)
    told = [w for w in drawn.words if PAST.search(w) and "resigned" not in w]
    assert len(drawn.words) > 100 and not told, told


def test_the_last_box_says_what_happened_and_who_did_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The box read "Last: Germans / Decline the dogfight.", an order under a heading: every kind of
    action is told in the present tense, naming the side (a resignation is the result's own line)."""

    def last(s: State, events: list[Event]) -> str:
        with recording(monkeypatch) as drawn:
            draw(s, events)
        words = " ".join(drawn.words)
        return words[words.index("Last:") :] if "Last:" in words else words

    s = pos({"e5": "G", "e4": "C", "a8": "G", "h1": "C"}, active=G, g=["JD", "9C"], c=["2C", "3S"])
    s.apply("e5xe4")
    assert last(s, s.apply("decline", "canadians")).startswith("Last: The Canadians decline the dogfight.")
    assert last(s, s.apply("decline", "germans")).startswith("Last: The Germans decline to strafe.")
    s = pos({"a8": "G", "h1": "C", "a5": "G", "b5": "G"}, active=G)
    moved = play(s, "a5-a4", "b5-b4")
    assert last(s, moved).startswith("Last: The Germans move a5-a4 and b5-b4.")
    assert last(s, s.apply("offer draw", "canadians")).startswith("Last: The Canadians offer a draw.")
    assert last(s, s.apply("decline draw", "germans")).startswith("Last: The Germans decline the draw.")
    s = new_game(Options(), 3)
    said = last(s, s.apply("setup aceg/bdfh/cf"))
    assert said.startswith("Last: The Germans deploy the checkerboard layout (aceg/bdfh/cf)."), said
    resigned = s.apply("resign", "canadians")
    said = last(s, resigned)
    assert "The Canadians resigned." in said and "Last:" not in said, said


YOU = re.compile(r"\b(you|your|yours)\b", re.IGNORECASE)


def test_the_decision_on_the_public_board_names_the_side_and_never_says_you(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The board is posted in the channel for both players and spectators: the box under "Canadians
    decide" names whose aircraft, row or infantry it is ("The Canadians' aircraft A may strafe a
    German unit"), never "your". A refusal, which goes to the deciding player alone, keeps "your"."""
    boxed: dict[str, str] = {}
    with recording(monkeypatch) as drawn:
        for state, _events in positions(1, 200):
            d = state.pending
            if d is None or d.kind in boxed:
                continue
            drawn.words.clear()
            draw(state)
            boxed[d.kind] = " ".join(drawn.words)
            assert f"{d.side.title} decide" in drawn.words, drawn.said
            assert not YOU.search(drawn.said), drawn.said
    assert set(boxed) == {"barrage", "ace", "fly", "dogfight", "strafe", "cross"}, set(boxed)
    assert "The Canadians' aircraft B may strafe a German unit. Answer" in boxed["strafe"], boxed["strafe"]
    assert "Canadian aircraft A is coming to strafe. The Germans may" in boxed["dogfight"], boxed["dogfight"]
    assert "The Ace brings a reinforcement onto the Germans' back row." in boxed["ace"], boxed["ace"]
    assert "The Canadians' infantry on c5 lost its fight. Answer cross" in boxed["cross"], boxed["cross"]


def test_only_a_german_strafe_is_told_the_tank_is_out_of_reach() -> None:
    """The tank is the Canadians' own: "(not the tank)" is said to the Germans only."""
    from engine.blockwars.state import Decision

    german, canadian = Decision("strafe", G, {"aircraft": "A"}), Decision("strafe", C, {"aircraft": "B"})
    assert german.question(public=True).startswith(
        "the Germans' aircraft A may strafe a Canadian unit (not the tank)."
    )
    assert german.question().startswith("your aircraft A may strafe an enemy unit (not the tank).")
    assert canadian.question(public=True).startswith(
        "the Canadians' aircraft B may strafe a German unit. Answer"
    )


def test_a_cut_record_says_earlier_steps_are_in_the_history_above_what_is_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ "Last: … and before that: see the history. The German infantry on d3 is destroyed." read as
    if the history came after the line under it: the note stands above what is left, so it says
    what it stands for."""
    s, rng = new_game(Options(), 4), random.Random(4)
    for _ in range(400):
        side = min(s.to_act())
        events = s.apply(rng.choice(s.legal_actions(side)), side)
        if s.pending is not None and any(type(e).__name__ == "Combat" for e in events):
            with recording(monkeypatch) as drawn:
                draw(s, events)
            if kit.EARLIER in drawn.words:
                break
    else:
        raise AssertionError("no board had its record cut")
    last = len(drawn.words) - drawn.words[::-1].index("Last:")  # the layout kept: the last tried
    assert drawn.words[last] == "Earlier steps: see the history.", drawn.said

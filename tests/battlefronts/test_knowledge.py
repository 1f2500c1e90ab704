"""Who knows what (R5): face-down cards are unknown to both players, their owner included.

Two games that differ only in their face-down cards (and deck order) must look the same to every
viewer: the view's JSON, the board PNG, the events as each viewer sees them, the history line and
the replay frames. A card shows only once it is face up, and then to everyone.
"""

from __future__ import annotations

import json
import random

from engine.battlefronts import GAME, State
from engine.battlefronts.events import Event, Moved, summary
from engine.battlefronts.position import build
from engine.battlefronts.state import MOVE, new_game
from render import renderer, seen
from render.replay import frames

from .helpers import BLUE, RED, command, of_type

VIEWERS = (None, RED, BLUE)
DRAW = renderer("battlefronts")

ROUND_ONE = [
    (RED, "call T1 4"),
    (RED, "call T2 7"),
    (RED, "end"),
    (BLUE, "call T4 5"),
    (BLUE, "call T3 2"),
    (BLUE, "end"),
    (RED, "call T3 1"),
    (RED, "pass"),
    (BLUE, "call T1 20"),
    (BLUE, "pass"),
]


def looks(state: State, events: list, viewer: str | None) -> tuple[str, bytes, list[dict], str]:
    """Everything `viewer` is shown: view JSON, board, events and the history line."""
    mine = seen(events, viewer)
    view = state.view(viewer)
    return (
        json.dumps(view.to_json(), sort_keys=True),
        DRAW.board(view, mine),
        [e.to_json() for e in mine],
        summary([e for e in mine if isinstance(e, Event)], viewer),
    )


def test_two_deals_look_the_same_to_everyone_until_a_card_is_turned() -> None:
    a, b = new_game(101), new_game(202)
    assert a.to_json()["decks"] != b.to_json()["decks"]
    for side, text in ROUND_ONE:
        ea, eb = a.apply(GAME.parse(text), side), b.apply(GAME.parse(text), side)
        for viewer in VIEWERS:
            assert looks(a, ea, viewer) == looks(b, eb, viewer), (text, viewer)
    assert a.round == 2 and a.phase == MOVE
    # The first move onto a front turns a card up: now the games differ, for everyone alike.
    ea, eb = command(a, BLUE, "move B1 F5"), command(b, BLUE, "move B1 F5")
    (ma,), (mb,) = of_type(ea, Moved), of_type(eb, Moved)
    assert ma.revealed != mb.revealed
    assert {ma.text(v) for v in VIEWERS} == {ma.text(None)}  # the turned card is public


def hidden_twin(state: State, seed: int) -> State:
    """The same public position with the face-down cards and deck orders dealt another way."""
    return state.view(None).determinize(random.Random(seed))


def test_positions_differing_only_in_face_down_cards_stay_alike_through_quiet_actions() -> None:
    s = build(
        {
            "F2": {RED: ["9H 2H 3H 4H"], BLUE: ["KC 2C 3C"]},
            "T2": {RED: ["?5D 6D"]},
            "F4": {BLUE: ["8S 2S"]},
        },
        round=4,
        phase=MOVE,
        current=BLUE,
    )
    a, b = hidden_twin(s, 1), hidden_twin(s, 2)
    assert a.to_json() != b.to_json()  # the hidden cards really differ
    for side, text in [
        (BLUE, "move B2 T4"),
        (BLUE, "move B1 T2"),
        (BLUE, "end"),
        (RED, "move R1 T1"),
        (RED, "pass"),  # the Blues have moved all they have: the support phase begins, Blues first
        (BLUE, "call T3 6"),
        (BLUE, "end"),
        (RED, "call T4 3"),
        (RED, "pass"),
    ]:
        ea, eb = a.apply(GAME.parse(text), side), b.apply(GAME.parse(text), side)
        for viewer in VIEWERS:
            assert looks(a, ea, viewer) == looks(b, eb, viewer), (text, viewer)


def test_an_owner_does_not_see_its_own_face_down_cards() -> None:
    s = build({"T2": {RED: ["?5D 6D 7D"]}}, round=3, phase=MOVE)
    for viewer in VIEWERS:
        data = s.view(viewer).to_json()
        (battalion,) = data["battalions"]
        assert battalion["top"] is None and battalion["size"] == 3 and "cards" not in battalion
        assert isinstance(data["decks"][RED], int) and "seed" not in data
    assert GAME.private_info is False and GAME.private_text(s.view(RED)) is None


def test_the_views_hold_no_secret_even_inside() -> None:
    """The view's own copy of the state has the unseen cards in pack order, not the real ones."""
    a, b = new_game(5), new_game(6)
    assert a.view(RED).state.to_json() == b.view(RED).state.to_json()


def test_determinize_keeps_what_is_known_and_deals_the_rest() -> None:
    s = build(
        {"F3": {RED: ["9H 2H 3H 4H"], BLUE: ["KC 2C 3C"]}, "T1": {BLUE: ["?5S 6S"]}},
        round=4,
        phase=MOVE,
        deck_sizes={RED: 30, BLUE: 20},
    )
    view = s.view(RED)
    d1, d2 = view.determinize(random.Random(1)), view.determinize(random.Random(2))
    assert d1.view(RED).to_json() == d2.view(RED).to_json() == view.to_json()
    assert d1.to_json() != d2.to_json()
    for d in (d1, d2):
        for side in (RED, BLUE):
            every = [c.code for c in d.decks[side]] + [c.code for c in d.discards[side]]
            every += [c.code for b in d.battalions if b.side == side for c in b.cards]
            assert len(every) == 52 and len(set(every)) == 52
    # A twin with other hidden cards gives the very same determinizations: nothing leaks through.
    twin = hidden_twin(s, 9)
    assert (
        twin.view(RED).determinize(random.Random(3)).to_json() == view.determinize(random.Random(3)).to_json()
    )


def test_replay_frames_of_two_deals_are_identical_through_round_one() -> None:
    fa = frames("battlefronts", {}, 101, ROUND_ONE)
    fb = frames("battlefronts", {}, 202, ROUND_ONE)
    assert len(fa) == len(fb) == len(ROUND_ONE) + 1
    assert all(x.tobytes() == y.tobytes() for x, y in zip(fa, fb, strict=True))


def test_each_card_turned_up_is_chance_drawn_whichever_side_owns_it() -> None:
    """The platform keeps an action only before chance it has not drawn: every card turned face up
    counts, a Blue one as much as a Red one. Break caught: only the Reds' cards counted."""
    s = build({"T2": {RED: ["?5H 6H"]}, "T3": {BLUE: ["?7C"]}}, round=3, phase=MOVE)
    assert s.chance_drawn() == 0
    command(s, RED, "move R1 F2; end")
    assert s.chance_drawn() == 1
    command(s, BLUE, "move B1 F3")
    assert s.chance_drawn() == 2

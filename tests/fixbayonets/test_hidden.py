"""The no-leak proof: a hand reaches its owner and nobody else, anywhere the platform shows a game.

Two games that differ only in one player's hand (cards swapped with the bottom of the deck, so
every later draw is the same) are played on with the same public actions. To the other player and
to a spectator they must look identical at every step: the view's JSON, the board PNG, the events
as they see them, the history lines, the status and the channel menu.
"""

from __future__ import annotations

import json
import random

import pytest

from engine.fixbayonets import GAME
from engine.fixbayonets.events import Drew
from engine.fixbayonets.model import AMERICANS, GERMANS, Options
from engine.fixbayonets.state import State, new_game
from render import renderer, seen

from .helpers import OPEN, A, G, pos

DRAW = renderer("fixbayonets")


def twins(hidden: str, seed: int) -> tuple[State, State]:
    """Two games alike but for two cards of `hidden`'s hand, swapped with the deck's bottom: set up,
    on `hidden`'s first turn (hands start empty, so the Germans' first turn is played to get there)."""
    one = new_game(Options(), seed)
    one.apply("setup std", GERMANS)
    one.apply("setup std", AMERICANS)
    if hidden == AMERICANS:
        one.apply("end", GERMANS)
    two = one.clone()
    hand = two.hands[hidden]
    bottom = two.deck.pile
    for i in range(2):
        if bottom[i] != hand[i]:
            hand[i], bottom[i] = bottom[i], hand[i]
    two.hands[hidden] = sorted(hand, key=lambda c: c.index)
    assert one.hands[hidden] != two.hands[hidden]
    return one, two


def look(state: State, viewer: str | None, events: list, *, board: bool) -> dict:
    """Everything `viewer` is shown after an action, as JSON-able values."""
    view = state.view(viewer)
    mine = seen(events, viewer)
    out: dict[str, object] = {
        "view": view.to_json(),
        "events": [e.to_json() for e in mine],
        "history": [e.text(viewer) for e in mine],
        "status": [GAME.status(view, s) for s in sorted(state.to_act())],
        "menu": repr(GAME.menu(state.view(None))),
    }
    if board:
        out["board"] = DRAW.board(view, mine)
        out["frame"] = DRAW.frame(view, mine).tobytes()
    return out


@pytest.mark.parametrize(("hidden", "seed"), [(AMERICANS, 1), (GERMANS, 2), (AMERICANS, 3)])
def test_two_games_differing_only_in_one_hand_look_identical_to_the_other_player(
    hidden: str, seed: int
) -> None:
    one, two = twins(hidden, seed)
    watcher = GERMANS if hidden == AMERICANS else AMERICANS
    assert one.view(hidden).to_json() != two.view(hidden).to_json()  # the games do differ
    rng = random.Random(seed)
    steps = differed = 0
    # Until the swapped cards come up from the bottom of the deck (about round 8): then the games
    # differ in more than the one hand, and the comparison would no longer be of twins.
    while not one.is_over() and steps < 260:
        side = sorted(one.to_act())[0] if len(one.to_act()) > 1 else next(iter(one.to_act()))
        assert two.to_act() == one.to_act()
        shared = sorted({str(a) for a in one.legal_actions(side)} & {str(a) for a in two.legal_actions(side)})
        assert shared, "some public action is always open to both"
        text = rng.choice(shared)
        ev1, ev2 = one.apply(text, side), two.apply(text, side)
        if one.hands[watcher] != two.hands[watcher]:
            break  # the watcher drew a swapped card: from here the games differ in two hands
        board = steps % 9 == 0
        for viewer in (watcher, None):
            assert look(one, viewer, ev1, board=board) == look(two, viewer, ev2, board=board), (steps, text)
        differed += look(one, hidden, ev1, board=False) != look(two, hidden, ev2, board=False)
        steps += 1
    assert steps > 60 and differed > 0


def test_a_draw_names_the_cards_to_their_owner_only() -> None:
    s = pos({"d4": "GR"}, deck=["trees", "march", "rifle3"], active=A)
    events = s.apply("end", A)
    (drew,) = [e for e in events if isinstance(e, Drew)]
    assert drew.text(G) == "the Germans draw Rifle (3), March and Trees"
    assert drew.text(A) == "the Germans draw 3 cards"
    assert drew.seen_by(A).cards == () and drew.seen_by(None).cards == ()  # type: ignore[union-attr]
    assert drew.seen_by(None).text(None) == "the Germans draw 3 cards"  # type: ignore[union-attr]
    assert "trees" not in json.dumps(drew.seen_by(A).to_json())  # type: ignore[union-attr]


def test_with_hands_face_up_everyone_sees_the_draw_and_the_hands() -> None:
    s = pos({"d4": "GR"}, deck=["trees", "march", "rifle3"], active=A, a=["sniper"], options=OPEN)
    events = s.apply("end", A)
    (drew,) = [e for e in events if isinstance(e, Drew)]
    assert drew.seen_by(A).text(A) == "the Germans draw Rifle (3), March and Trees"  # type: ignore[union-attr]
    assert [c.code for c in s.view(A).state.hands[G]] == ["rifle3", "march", "trees"]
    assert [c.code for c in s.view(None).state.hands[A]] == ["sniper"]
    assert "Sniper" in (GAME.private_text(s.view(G)) or "")


def test_a_view_holds_no_hidden_hand_no_deck_order_and_no_seed() -> None:
    s = pos(
        {"d4": "GR"}, g=["trees", "run"], a=["foxholes", "sniper"], seed=77, orders={A: {"negate": "never"}}
    )
    for viewer in (G, None):
        data = s.view(viewer).to_json()
        assert data["hands"][A] == [] and data["hand_counts"][A] == 2
        assert data["deck"]["pile"] == [] and data["deck_count"] == len(s.deck.pile)
        assert data["seed"] == 0 and data["orders"][A] == {"negate": "ask", "losses": "ask"}
    assert s.view(A).to_json()["hands"][A] == ["sniper", "foxholes"]
    assert GAME.private_text(s.view(None)) is None
    assert "Fox Holes" in (GAME.private_text(s.view(A)) or "") and "Fox Holes" not in (
        GAME.private_text(s.view(G)) or ""
    )


def test_determinize_deals_only_unseen_cards_and_keeps_the_view() -> None:
    s = new_game(Options(), 5)
    s.apply("setup std", G)
    s.apply("setup std", A)
    view = s.view(A)
    mine = sorted(c.code for c in s.hands[A])
    germans_seen: set[str] = set()
    for k in range(30):
        d = view.determinize(random.Random(k))
        assert d.view(A).to_json() == view.to_json()
        assert sorted(c.code for c in d.hands[A]) == mine
        assert len(d.hands[G]) == len(s.hands[G]) and len(d.deck.pile) == len(s.deck.pile)
        every = [c.code for c in d.deck.pile + d.deck.discard + d.hands[G] + d.hands[A]]
        assert len(every) == 60 and all(every.count(c) == 3 for c in set(every))
        germans_seen.update(c.code for c in d.hands[G])
        assert d.seed != s.seed or k > 0
    assert len(germans_seen) > 10  # the unknown hand really is sampled, not copied


def test_determinize_samples_a_hidden_set_up() -> None:
    s = new_game(Options(), 6)
    s.apply("setup wings", G)
    view = s.view(A)
    layouts = {view.determinize(random.Random(k)).layouts[G] for k in range(10)}
    assert len(layouts) > 1 and all(lay and len(lay) == 8 for lay in layouts)
    d = view.determinize(random.Random(1))
    d.apply("setup std", A)  # the sampled set-up is a legal one
    assert d.men_alive(G) == 16


def test_the_ai_plays_from_its_view_only() -> None:
    """Same view, same seed, same answer, whatever the hidden hand really holds."""
    one, two = twins(AMERICANS, 8)
    for s in (one, two):
        s.apply("end", A)  # the Germans draw from the top of the deck: alike in both games
    assert one.view(G).to_json() == two.view(G).to_json()
    a1 = GAME.choose(one.view(G), "normal", seed=3, budget_s=60, iterations=150)
    a2 = GAME.choose(two.view(G), "normal", seed=3, budget_s=60, iterations=150)
    assert str(a1) == str(a2)

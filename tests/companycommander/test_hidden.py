"""The no-leak proof for Company Commander: hands reach their owner, a Recon look reaches the Recon
player once, and no deck's order reaches anyone.

Besides the conformance suite's twins (tests/test_conformance.py, which starts one pair of twins at
`GAME.showcases()`), these scenarios pin the particular secrets down.
"""

from __future__ import annotations

import json
import random

from engine.companycommander import GAME
from engine.companycommander.events import HandSeen, TacticsDrawn
from engine.companycommander.model import SQUAD_DECKS, TACTICS_DECK, Options
from engine.companycommander.state import new_game
from render import renderer, seen

from .helpers import A, G, build, command, of_type, rig

DRAW = renderer("companycommander")


def test_a_view_holds_no_hidden_hand_no_deck_order_and_no_seed() -> None:
    s = build({"A1": "rifles C", "G1": "rifles C"}, hands={A: ["medic"], G: ["airstrike", "rally"]}, seed=99)
    for viewer in (A, None):
        data = s.view(viewer).to_json()
        assert data["hands"][G] == [] and data["hand_counts"][G] == 2
        assert data["tactics"] == [] and data["tactics_count"] == len(s.tactics)
        assert data["seed"] == 0
        for side in (A, G):  # the Squad decks in card-list order: their contents are known, not their order
            order = list(data["squad"][side])
            assert order == sorted(order, key=lambda k: [t.key for t in SQUAD_DECKS[side]].index(k))
    assert s.view(G).to_json()["hands"][G] == ["airstrike", "rally"]
    assert "Air Strike" in (GAME.private_text(s.view(G)) or "")
    assert GAME.private_text(s.view(None)) is None
    assert "Air Strike" not in (GAME.private_text(s.view(A)) or "")


def test_no_one_knows_the_order_of_a_squad_deck_not_even_its_owner() -> None:
    one = new_game(Options(), 5)
    two = one.clone()
    side = one.active
    two.squad[side] = list(reversed(two.squad[side]))
    for viewer in (A, G, None):
        assert one.view(viewer).to_json() == two.view(viewer).to_json()
        assert DRAW.board(one.view(viewer), []) == DRAW.board(two.view(viewer), [])


def test_a_draw_names_the_cards_to_their_owner_only() -> None:
    s = build({"A1": "rifles C", "G1": "rifles C"}, phase="deploy", tactics=["medic", "artillery"])
    events = command(s, "tactics")
    (drew,) = of_type(events, TacticsDrawn)
    assert drew.text(A) == "the Americans draw Artillery Barrage and Medic"
    for viewer in (G, None):
        kept = drew.seen_by(viewer)
        assert kept is not None and "medic" not in json.dumps(kept.to_json())
        assert kept.text(viewer) == "the Americans draw 2 Tactics cards"


def test_twins_differing_in_the_looked_at_hand_differ_for_the_looker_only_in_the_look() -> None:
    base = build(
        {"A1": "scouts C", "A2": "hmg C", "G1": "rifles C", "G2": "mg42 L"},
        hands={G: ["airstrike", "rally", "medic"]},
    )
    rig(base, (5,))
    one = base.clone()
    two = GAME.twin(base, G, random.Random(1))
    assert two is not None and [c.code for c in one.hands[G]] != [c.code for c in two.hands[G]]
    ev1, ev2 = command(one, "recon A1 look"), command(two, "recon A1 look")
    (look1,), (look2,) = of_type(ev1, HandSeen), of_type(ev2, HandSeen)
    assert look1.text(A) != look2.text(A)  # the Recon player sees each twin's own hand
    for viewer in (None, G):  # the channel, and the owner (who is told only that it was seen)
        assert [e.to_json() for e in seen(ev1, viewer)] == [e.to_json() for e in seen(ev2, viewer)]
    assert one.view(A).to_json() == two.view(A).to_json()  # not kept: once only
    assert DRAW.board(one.view(A), seen(ev1, A)) == DRAW.board(two.view(A), seen(ev2, A))
    assert DRAW.board(one.view(None), seen(ev1, None)) == DRAW.board(two.view(None), seen(ev2, None))


def test_the_showcase_is_a_successful_look() -> None:
    ((state, script),) = GAME.showcases()
    events = command(state, "; ".join(script))
    (look,) = of_type(events, HandSeen)
    assert look.side == A and look.of == G and look.cards == ("airstrike", "rally", "medic")


def test_determinize_deals_only_unseen_cards_and_keeps_the_view() -> None:
    s = new_game(Options(), 6)
    view = s.view(A)
    mine = sorted(c.code for c in s.hands[A])
    seen_g: set[str] = set()
    for k in range(30):
        d = view.determinize(random.Random(k))
        assert d.view(A).to_json() == view.to_json()
        assert sorted(c.code for c in d.hands[A]) == mine
        assert len(d.hands[G]) == len(s.hands[G]) and len(d.tactics) == len(s.tactics)
        every = sorted(c.code for c in d.tactics + d.tactics_discard + d.hands[A] + d.hands[G])
        assert every == sorted(c.code for c in TACTICS_DECK)
        seen_g.update(c.code for c in d.hands[G])
    assert len(seen_g) > 5  # the hidden hand really is sampled


def test_the_ai_plays_from_its_view_only() -> None:
    """Same view, same seed, same answer, whatever the hidden hand really holds."""
    base = build(
        {"A1": "scouts C", "A2": "hmg C", "A3": "rifles L", "G1": "rifles C", "G2": "mg42 L"},
        hands={A: ["sniper"], G: ["airstrike", "rally", "medic"]},
    )
    two = GAME.twin(base, G, random.Random(3))
    assert two is not None
    assert base.view(A).to_json() == two.view(A).to_json()
    a1 = GAME.choose(base.view(A), "easy", seed=3, budget_s=60)
    a2 = GAME.choose(two.view(A), "easy", seed=3, budget_s=60)
    assert str(a1) == str(a2)

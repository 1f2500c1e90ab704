"""One spelling for a finished game's outcome in every game's snapshot, and Block Wars' older ones read.

`Outcome.to_json`/`from_json` (engine/protocol.py) are the only code that writes or reads it. Block
Wars once stored the words under "reason" and the typed reason under "kind", and before that the
words alone: stored games of both kinds must still load, with the same result.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from engine import registry
from engine.meta import RESIGN
from engine.protocol import EndReason, Outcome

FIXTURE = Path(__file__).parent / "fixtures" / "pre_platform.db"


def test_an_outcome_round_trips_in_one_spelling():
    o = Outcome("germans", EndReason.RESIGNATION, "the Canadians resigned")
    assert o.to_json() == {"winner": "germans", "reason": "resignation", "detail": "the Canadians resigned"}
    assert Outcome.from_json(o.to_json()) == o
    draw = Outcome(None, EndReason.AGREEMENT, "by agreement")
    assert Outcome.from_json(json.loads(json.dumps(draw.to_json()))) == draw


def test_block_wars_older_spellings_are_read():
    kind = {"winner": "canadians", "reason": "no units left", "kind": "annihilation"}
    assert Outcome.from_json(kind) == Outcome("canadians", EndReason.ANNIHILATION, "no units left")
    words = {"winner": None, "reason": "neither side acted in time"}
    assert Outcome.from_json(words) == Outcome(None, EndReason.OBJECTIVE, "neither side acted in time")
    assert Outcome.from_json(words, lambda w: EndReason.ABANDONED).reason is EndReason.ABANDONED


@pytest.mark.parametrize("name", registry.names())
def test_every_game_writes_the_one_spelling_and_reads_it_back(name: str):
    rules = registry.game(name)
    state = rules.new_game({}, 7)
    side = sorted(state.to_act())[0]
    state.apply(RESIGN, side)
    data = state.to_json()
    stored = [v for v in data.values() if isinstance(v, dict) and "detail" in v]
    assert stored == [state.outcome().to_json()]  # type: ignore[union-attr]
    assert rules.from_json(json.loads(json.dumps(data))).outcome() == state.outcome()


def test_a_block_wars_game_stored_with_kind_under_its_own_key_loads():
    rules = registry.game("blockwars")
    state = rules.new_game({}, 3)
    state.apply(RESIGN, "canadians")
    data = state.to_json()
    o = state.outcome()
    assert o is not None
    data["outcome"] = {"winner": o.winner, "reason": o.detail, "kind": o.reason.value}  # the old spelling
    loaded = rules.from_json(data).outcome()
    assert loaded == o and loaded is not None and loaded.winner == "germans"


def test_a_finished_game_stored_by_the_one_game_bot_loads_with_a_typed_reason():
    """tests/fixtures/pre_platform.db holds a Block Wars game finished before outcomes were typed:
    its snapshot has only the words."""
    with sqlite3.connect(FIXTURE) as db:
        (snapshot,) = db.execute("SELECT snapshot FROM matches WHERE status = 'finished'").fetchone()
    data = json.loads(snapshot)
    assert data["outcome"] == {"winner": "germans", "reason": "the Canadians resigned"}
    state = registry.game("blockwars").from_json(data)
    assert state.outcome() == Outcome("germans", EndReason.RESIGNATION, "the Canadians resigned")
    again = registry.game("blockwars").from_json(json.loads(json.dumps(state.to_json())))
    assert again.outcome() == state.outcome()
    assert again.to_json()["outcome"] == state.outcome().to_json()  # type: ignore[union-attr]

"""What the AI keeps between decisions (Combined Arms' plan of a turn, `search.memories`) belongs to
the game it was made in: an AI process serves many games, and another game whose units stand on the
same squares must not make this game's AI play its plan, which the check could then not replay
(docs/fairness.md, "Checking the AI")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine import fairness, registry, search
from engine.protocol import View
from tests.test_ai_verify import ai_game, close_databases, record_of, service

__all__ = ["close_databases"]  # the fixture that closes the databases these tests open


def other_map(game: str, view: View) -> View:
    """`view` as in another game whose units stand on the very same squares, on another map: every
    unit of the AI's opponent in a bunker. The same position to a plan's key, not to its plan."""
    rules = registry.game(game)
    data = json.loads(json.dumps(view.to_json()))
    units, me = data["units"], data["active"]
    for sq, side in zip(units["sq"], units["side"], strict=True):
        if side != me and 0 <= sq < len(data["terrain"]):
            data["terrain"][sq] = "B"
    return rules.view_from_json(data)


async def test_a_plan_kept_from_another_game_never_reaches_this_one(tmp_path: Path, monkeypatch) -> None:
    """Before each decision of this game's AI, another game in the same AI process, its units on
    the same squares of another map, plans its turn there: this game's AI plays as if alone, and its
    record verifies, every decision replayed with the memory the replay built (none thought afresh)."""
    svc = await service(tmp_path / "g.db", 11)
    real = svc.thinker.choose

    async def beside_another_game(game: str, view: View, level: str, seed: int, *args: Any, **kw: Any) -> str:
        if view.to_json().get("phase") == "play":
            await real(game, other_map(game, view), level, seed ^ 1)
        return await real(game, view, level, seed, *args, **kw)

    monkeypatch.setattr(svc.thinker, "choose", beside_another_game)
    match_id = await ai_game(svc, "combinedarms", "normal", plies=10)
    record = await record_of(svc, match_id)
    assert len(record["ai"]["decisions"]) >= 20
    for store in search.memories:  # checked as by anyone: in a process of its own, nothing kept
        store.clear()
    report = fairness.check(record, ai=True)
    assert report.ok, report.text()
    assert "thought afresh" not in report.text(), report.text()

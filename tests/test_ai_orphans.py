"""The AI's decisions whose action never came (the game moved on, or ended, while it thought) are read
by no record: a game's end drops them, and none is written once it is over (docs/fairness.md,
"Checking the AI"). On both stores."""

from __future__ import annotations

import pytest

from data import Match, Result, Status
from data.ai_decisions import AiDecision, AiDecisionStore, new_id
from engine import fairness
from play import MatchService
from tests.test_ai_verify import (
    AI,
    ALICE,
    CHANNEL,
    ai_game,
    challenge_ai,
    close_databases,
    record_of,
    service,
)

__all__ = ["close_databases"]  # the fixture that closes the databases these tests open


def stray(n: int) -> AiDecision:
    """A decision for action `n` by a process whose action was never stored."""
    return AiDecision(n, "move", "random", None, "[]", new_id())


async def test_a_games_end_drops_the_decisions_no_action_carries(store: str) -> None:
    svc = await service(store, 6)
    decisions = AiDecisionStore(svc.db)
    match_id = await ai_game(svc, "blockwars", "random", plies=1)  # she resigns after one step each
    match, _ = await svc.latest(CHANNEL)
    assert match.id == match_id and match.status is Status.FINISHED
    record = await record_of(svc, match_id)
    kept = await decisions.decisions(match_id)
    assert [d.n for d in kept] == [d["n"] for d in record["ai"]["decisions"]]  # no orphan is left
    assert not await decisions.write(match_id, stray(99))  # none is written once it is over
    assert await decisions.decisions(match_id) == kept
    assert fairness.check(record, ai=True).ok


async def open_game(svc: MatchService) -> Match:
    """Alice has challenged the AI, which has made its first move if it had one to make."""
    await challenge_ai(svc, "blockwars", "random", 7)
    await svc.ai_turns(CHANNEL)
    match, _ = await svc.latest(CHANNEL)
    return match


@pytest.mark.parametrize("end", ["resign", "forfeit", "cancel"])
async def test_orphans_written_while_it_was_played_go_at_its_end(end: str, store: str) -> None:
    """Two strays, written while the game was open (as by a process whose action never came), are
    kept until its end, however it ends (a move, a forfeit without one, a cancel); every decision
    an action carries stays."""
    svc = await service(store, 7)
    decisions = AiDecisionStore(svc.db)
    match = await open_game(svc)
    strays = [stray(1), stray(40)]
    for s in strays:
        await decisions.write(match.id, s)
    before = await decisions.decisions(match.id)
    assert set(strays) <= set(before)
    if end == "resign":
        await svc.act(CHANNEL, ALICE, "resign")
    elif end == "forfeit":
        await svc.db.finish_match(match.id, expected_version=match.version, result=Result(AI, "timeout"))
    else:
        await svc.db.update_match(match.id, expected_version=match.version, status=Status.CANCELLED)
    assert await decisions.decisions(match.id) == [d for d in before if d not in strays]

"""A database written by the one-game bot (commit cb66d09) opens with the platform and plays on.

tests/fixtures/pre_platform.db was written by that version through its own match service
(tests/fixtures/make_pre_platform_db.py says how): a finished game with ratings, a game in progress
and a game against the AI. Everything in it must keep working after the upgrade.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from data import Database, Status
from engine import registry
from play import MatchService

FIXTURE = Path(__file__).parent / "fixtures" / "pre_platform.db"
GUILD = 10
ALICE, BOB, CAROL, BOT = 1, 2, 3, 99
T0 = 1_790_000_000.0


@pytest.fixture
async def service(tmp_path: Path):
    path = tmp_path / "upgraded.db"
    shutil.copy(FIXTURE, path)
    clock = lambda: T0 + 60  # noqa: E731
    db = await Database.open(path, clock=clock)
    yield MatchService(db, clock=clock, rng=random.Random(1))
    await db.close()


async def test_the_old_database_migrates_and_keeps_its_ratings_per_game(service: MatchService):
    assert await service.db.schema_version() >= 2
    alice = await service.stats(GUILD, "blockwars", ALICE)
    bob = await service.stats(GUILD, "blockwars", BOB)
    assert (alice.wins, alice.losses, round(alice.rating)) == (1, 0, 1216)
    assert (bob.wins, bob.losses, round(bob.rating)) == (0, 1, 1184)
    assert [s.user_id for s in await service.leaderboard(GUILD, "blockwars")] == [ALICE, BOB]


async def test_a_game_in_progress_continues(service: MatchService):
    match, state = await service.current(102)
    assert match.game == "blockwars" and match.status is Status.ACTIVE
    assert match.options == {"crosses": True, "fighter_aces": False}
    # Seed plus log still replays to the stored position.
    replayed, _, _ = await service.replayed(match)
    assert replayed.to_json() == state.to_json()
    side = sorted(state.to_act())[0]
    mover = match.sides[side]
    legal = await service.legal(102, mover)
    assert legal
    played = await service.act(102, mover, legal[0])
    assert played.match.version == match.version + 1


async def test_a_finished_game_still_shows_and_replays(service: MatchService):
    match, state = await service.latest(101)
    assert match.status is Status.FINISHED and state.is_over()
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == "germans" and "resigned" in outcome.detail
    lines = await service.history(101)
    assert lines[-1].startswith("Canadians:") and "resigned" in lines[-1]
    from render import board

    assert board("blockwars", state, [])[:8] == b"\x89PNG\r\n\x1a\n"


async def test_an_ai_game_continues_with_the_ai(service: MatchService):
    match, state = await service.current(103)
    assert match.ai_player_id == BOT and match.ai_level == "easy"
    assert match.side_of(BOB) in state.to_act()
    played = await service.act(103, BOB, "setup std")
    assert not played.over
    answered = await service.ai_turns(103)
    assert answered and all(p.match.game == "blockwars" for p in answered)
    assert registry.game("blockwars").title == "Block Wars"

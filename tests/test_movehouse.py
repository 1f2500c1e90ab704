"""Moving house: an SQLite database of real games, copied into an empty PostgreSQL database, reads back
the same and every match replays to its snapshot; a database that already holds games is refused."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

import bot
from data import Database, Result
from data.tournaments import TournamentStore
from engine import registry
from play import MatchService
from play.movehouse import move_house, replay_mismatches

GUILD = 7
T0 = 1_800_000_000.0
FIXTURE = Path(__file__).parent / "fixtures" / "pre_platform.db"
FORMATS = ("swiss", "round-robin", "knockout")


async def play_some(svc: MatchService, channel: int, game: str, rng: random.Random, steps: int) -> None:
    """A game of `game` in `channel`, `steps` random legal actions into it."""
    await svc.challenge(game=game, guild_id=GUILD, channel_id=channel, challenger_id=1, opponent_id=2)
    await svc.accept(channel, 2)
    for _ in range(steps):
        match, state = await svc.current(channel)
        if state.is_over():
            return
        side = sorted(state.to_act())[0]
        legal = state.legal_actions(side)
        if not legal:
            return
        await svc.act(channel, match.sides[side], str(rng.choice(legal)), interaction_id=rng.getrandbits(40))


async def sqlite_with_games(path: Path) -> dict[str, object]:
    """Every hosted game, some moves in each, one finished with ratings, a preference, owed boards,
    a tournament of each format."""
    rng = random.Random(5)
    async with Database.open(path, clock=lambda: T0) as db:
        svc = MatchService(db, clock=lambda: T0, rng=random.Random(3), outbox=True)
        for n, rules in enumerate(registry.games()):
            await play_some(svc, 100 + n, rules.name, rng, steps=12)
        match, _ = await svc.current(100)
        await db.finish_match(match.id, expected_version=match.version, result=Result(1, "resigned"))
        await db.set_dm_on_turn(2, True, now=T0)
        for n, format in enumerate(FORMATS):
            await TournamentStore(db).create_tournament(
                guild_id=GUILD, channel_id=900 + n, game=registry.games()[0].name, options={},
                name=f"Cup {n}", rounds=1, round_seconds=86_400, created_by=1, now=T0, format=format,
            )  # fmt: skip
        return {
            "matches": await db.list_matches(),
            "actions": [await db.actions(m.id) for m in await db.list_matches()],
            "stats": await db.leaderboard(GUILD, registry.games()[0].name),
            "owed": await db.owed_boards(T0 + 1),
        }


async def test_every_table_moves_and_every_match_replays(tmp_path: Path, pg_empty_url: str):
    path = tmp_path / "wargames.db"
    before = await sqlite_with_games(path)
    said: list[str] = []
    assert await move_house(path, pg_empty_url, said.append) == 0, "\n".join(said)
    assert "replay to their snapshots" in said[-2]
    async with Database.open(pg_empty_url) as moved:
        assert await moved.list_matches() == before["matches"]
        assert [await moved.actions(m.id) for m in await moved.list_matches()] == before["actions"]
        assert await moved.leaderboard(GUILD, registry.games()[0].name) == before["stats"]
        assert await moved.owed_boards(T0 + 1) == before["owed"] != []
        assert (await moved.get_user_prefs(2)).dm_on_turn
        # each format as stored, a knockout too (migration 0020: no mark beside `format` to carry)
        cups = [await TournamentStore(moved).channel_tournament(900 + n) for n in range(len(FORMATS))]
        assert [cup.format if cup else None for cup in cups] == list(FORMATS)
        # the copy plays on: a new match gets an id after the copied ones
        svc = MatchService(moved, rng=random.Random(1))
        fresh = await svc.challenge(
            game=registry.games()[0].name, guild_id=GUILD, channel_id=999, challenger_id=1, opponent_id=2
        )
        assert fresh.id > max(m.id for m in await moved.list_matches() if m.id != fresh.id)
    # a second move into the same database is refused, and changes nothing
    said.clear()
    assert await move_house(path, pg_empty_url, said.append) == 1
    assert any("already holds rows" in line for line in said)


async def test_a_database_of_the_one_game_bot_moves_too(tmp_path: Path, pg_empty_url: str):
    path = tmp_path / "old.db"
    shutil.copy(FIXTURE, path)
    said: list[str] = []
    assert await move_house(path, pg_empty_url, said.append) == 0, "\n".join(said)
    async with Database.open(pg_empty_url) as moved:
        checked, wrong = await replay_mismatches(moved)
        assert checked >= 3 and wrong == []


async def test_a_snapshot_that_does_not_replay_is_reported(tmp_path: Path, pg_empty_url: str):
    """The replay check is real: a copied match whose snapshot was tampered with is named."""
    path = tmp_path / "wargames.db"
    await sqlite_with_games(path)
    async with Database.open(path) as db:
        match = next(m for m in await db.list_matches(statuses=["active"]) if m.snapshot)
        state = registry.game(match.game).from_json(match.snapshot or {})
        side = sorted(state.to_act())[0]
        list(state.apply(state.legal_actions(side)[0], side))  # a real position the log does not reach
        await db.update_match(match.id, expected_version=match.version, snapshot=state.to_json())
    said: list[str] = []
    assert await move_house(path, pg_empty_url, said.append) == 1
    assert any(f"match {match.id} " in line and "differs" in line for line in said), said


def test_the_command_is_python_bot_py_move_to(
    tmp_path: Path, pg_empty_url: str, monkeypatch: pytest.MonkeyPatch
):
    path = tmp_path / "wargames.db"
    shutil.copy(FIXTURE, path)
    monkeypatch.setenv("DATABASE_PATH", str(path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert bot.main(["--move-to", pg_empty_url]) == 0

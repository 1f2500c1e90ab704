"""A sign-up's input is kept for the whole tournament (migration 0015, docs/fairness.md,
"Tournaments"): a player who knows or guesses how the dice fall (an operator's own account, or a
player told the tournament's secret) could leave and join again, each sign-up a fresh interaction id
mixed into their games' dice, until the dice suited them. A join again now takes the input of their
first sign-up, on both stores; the game verifies with the inputs it was played with, and a record
that names the later sign-up instead fails."""

from __future__ import annotations

import json
import random
import sqlite3

import asyncpg
import pytest

from bot import WargamesBot
from data import Database, load_migrations
from data.db import count, rows
from data.tournaments import Tournament, TournamentStore
from engine import chance, fairness
from play import MatchService
from play import fairness as play_fairness
from play.errors import BadRequest
from play.tournament import TournamentService
from tests.clock import Clock
from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import fake_discord, start_bot  # noqa: F401 (pytest fixtures)
from tests.test_sealed import snowflake
from tests.test_sealed_tournament import one_round, services
from tests.test_tournament_bot import GAME, bot, setup_club, until  # noqa: F401 (pytest fixtures)

GUILD, CHANNEL, THREAD = 5, 100, 1001
ALICE, BOB = 11, 12


async def play_on(matches: MatchService, plies: int, seed: int) -> None:
    """Seeded random actions by whoever is on turn (no resign or draw), so the game draws dice."""
    rng = random.Random(seed)
    for _ in range(plies):
        match, state = await matches.current(THREAD)
        if state.is_over():
            return
        side = sorted(state.to_act())[0]
        legal = [a for a in state.legal_actions(side) if not a.anytime]
        await matches.act(THREAD, match.sides[side], str(rng.choice(legal)))


async def rejoined(t: TournamentService, clock: Clock) -> tuple[Tournament, dict[str, int]]:
    """Alice and Bob sign up after the seal; Alice leaves, joins again (a later interaction), leaves
    and joins once more: the ids of her sign-ups and Bob's."""
    made = await one_round(t)
    assert await t.seal_shown(made, snowflake(clock.now, 1))
    clock.now += 60
    ids = {"alice": snowflake(clock.now, 10), "bob": snowflake(clock.now, 11)}
    await t.join(made, ALICE, entropy=ids["alice"])
    await t.join(made, BOB, entropy=ids["bob"])
    for n in (1, 2):
        clock.now += 600
        await t.leave(made, ALICE)
        ids[f"again{n}"] = snowflake(clock.now, 20 + n)
        await t.join(made, ALICE, entropy=ids[f"again{n}"])
    return made, ids


async def test_leaving_and_joining_again_keeps_the_first_input_and_the_game_verifies(store_world) -> None:
    """The dice of Alice's game come from her first sign-up, not her last: the same dice as had she
    never left. The game verifies with those inputs; its record with her later sign-up swapped in
    (still after the seal, so the order check passes) fails on the dice."""
    db, clock = store_world
    matches, t = services(db, clock)
    made, ids = await rejoined(t, clock)
    joined = {e.user_id: e.join_input for e in await t.store.tournament_entries(made.id)}
    assert joined == {ALICE: str(ids["alice"]), BOB: str(ids["bob"])}
    await t.start(CHANNEL, organiser=True)
    (board,) = await t.pending_starts(await t.open_in(CHANNEL))
    match = await t.start_board(board, THREAD)
    first = {ALICE: ids["alice"], BOB: ids["bob"]}
    kept = [f"join:{first[board.first_id]}", f"join:{first[board.second_id or 0]}"]
    assert play_fairness.inputs_of(match) == [*kept, "accept:-"]
    assert made.seal_secret is not None and match.seed_secret is not None
    assert play_fairness.engine_seed(match) == chance.game_seed(
        bytes.fromhex(match.seed_secret), [*kept, "accept:-"]
    )
    await play_on(matches, 40, seed=5)
    match, _ = await matches.current(THREAD)
    if match.status.is_open:
        await matches.act(THREAD, match.sides["germans"], "resign")
    await t.sweep()  # the round closes, the tournament is over: its secret is revealed
    _, report = await play_fairness.verify(matches, GUILD, THREAD)
    assert report.ok, report.text()
    assert "2 of the 2 players' joins came after it" in report.text()
    _, data = await play_fairness.export(matches, GUILD, THREAD)
    record = json.loads(data)
    assert record["inputs"] == [*kept, "accept:-"] and record["tournament"]["secret"] == made.seal_secret
    assert fairness.check(record).ok
    forged = json.loads(data)
    forged["inputs"] = [i.replace(str(ids["alice"]), str(ids["again2"])) for i in record["inputs"]]
    assert forged["inputs"] != record["inputs"]
    text = fairness.check(forged).text()
    assert "2 of the 2 players' joins came after it" in text  # the order alone holds...
    failed = [line for line in text.splitlines() if line.startswith("❌")]
    assert failed, text  # ...but the dice are not the game's: the replay fails
    assert all("commitment" not in line and "secret" not in line for line in failed), failed


async def test_the_input_outlives_a_removal_and_leaving_the_server(store_world) -> None:
    """Taken off by an organiser and put back by one, or off the list for leaving the server and back
    by her own join: still the first input. Only the tournament's: a player's input to another
    tournament in the channel is their own sign-up there. (Before migration 0018 she joined again
    herself after the removal, the hole it closed: an organiser's removal now holds until one of
    them puts her back.)"""
    db, clock = store_world
    _, t = services(db, clock)
    made = await one_round(t)
    assert await t.seal_shown(made, snowflake(clock.now, 1))
    clock.now += 60
    first = snowflake(clock.now, 10)
    await t.join(made, ALICE, entropy=first)
    await t.remove(CHANNEL, ALICE, organiser=True)
    assert await t.store.tournament_entries(made.id) == []
    clock.now += 60
    with pytest.raises(BadRequest, match="An organiser took you off the list"):
        await t.join(made, ALICE, entropy=snowflake(clock.now, 11))
    await t.reinstate(CHANNEL, ALICE, organiser=True)
    (entry,) = await t.store.tournament_entries(made.id)
    assert entry.join_input == str(first)
    await t.withdraw(GUILD, ALICE)  # she left the server
    assert await t.store.tournament_entries(made.id) == []
    clock.now += 60
    await t.join(made, ALICE, entropy=snowflake(clock.now, 12))
    (entry,) = await t.store.tournament_entries(made.id)
    assert entry.join_input == str(first)
    with pytest.raises(BadRequest, match="already signed up"):  # refused, and nothing else changes
        await t.join(made, ALICE, entropy=snowflake(clock.now, 13))
    await t.cancel(CHANNEL, organiser=True)
    clock.now += 60
    other = await one_round(t)
    assert await t.seal_shown(other, snowflake(clock.now, 2))
    clock.now += 60
    await t.join(other, ALICE, entropy=snowflake(clock.now, 14))
    (entry,) = await t.store.tournament_entries(other.id)
    assert entry.join_input == str(snowflake(clock.now, 14))


async def test_migration_15_keeps_the_inputs_of_those_signed_up(store: str) -> None:
    """A store at migration 14 with a tournament taking sign-ups: after the upgrade, its players'
    inputs are kept (a leave and a join again take them back); a row without an input (a tournament
    made before seals) keeps none."""
    clock = Clock()
    db = await Database.open(store, clock=clock)
    try:
        _, t = services(db, clock)
        made = await one_round(t)
        assert await t.seal_shown(made, snowflake(clock.now, 1))
        clock.now += 60
        await t.join(made, ALICE, entropy=snowflake(clock.now, 10))
        await t.join(made, BOB, entropy=snowflake(clock.now, 11))

        def back_to_14():  # as the rows stood before migration 0015: no input kept anywhere
            yield count("DELETE FROM tournament_inputs")
            yield count("UPDATE tournament_players SET join_input = NULL WHERE user_id = ?", (BOB,))

        await db._transact(back_to_14)
        await db.close()
        await _downgrade_to_14(store)
        db = await Database.open(store, clock=clock)
        assert await db.schema_version() == len(load_migrations())
        _, t = services(db, clock)

        def kept():
            found = yield rows("SELECT user_id, join_input FROM tournament_inputs ORDER BY user_id")
            return [(int(r["user_id"]), r["join_input"]) for r in found]

        assert await db._transact(kept) == [(ALICE, str(snowflake(clock.now, 10)))]
        await t.leave(made, ALICE)
        await t.join(made, ALICE, entropy=snowflake(clock.now + 60, 12))
        entries = {e.user_id: e.join_input for e in await TournamentStore(db).tournament_entries(made.id)}
        assert entries[ALICE] == str(snowflake(clock.now, 10))
    finally:
        await db.close()


LATER_COLUMNS = ("joined_round", "withdrawn_round", "withdrawn_by")  # migration 0016's
SETTINGS_COLUMNS = ("format", "max_players", "tiebreaks", "signup_closes_at")  # 0017's (0019's went in 0020)


async def _downgrade_to_14(store: str) -> None:
    """Drop what migrations 0015 to 0021 made and mark the store as at 14, so opening it runs them
    again on the rows as they are (the same SQL an upgrading bot runs)."""
    if store.startswith("postgresql"):
        pg = await asyncpg.connect(store)
        try:
            await pg.execute("DROP TABLE tournament_inputs")
            for column in LATER_COLUMNS:
                await pg.execute(f"ALTER TABLE tournament_players DROP COLUMN {column}")
            for column in SETTINGS_COLUMNS:
                await pg.execute(f"ALTER TABLE tournaments DROP COLUMN {column}")
            await pg.execute("DROP INDEX rating_changes_by_player")  # 0021's
            await pg.execute("ALTER TABLE rating_changes DROP COLUMN rated_at")
            await pg.execute("UPDATE schema_version SET version = 14")
        finally:
            await pg.close()
        return
    lite = sqlite3.connect(store)
    try:
        lite.execute("DROP TABLE tournament_inputs")
        for column in LATER_COLUMNS:
            lite.execute(f"ALTER TABLE tournament_players DROP COLUMN {column}")
        for column in SETTINGS_COLUMNS:
            lite.execute(f"ALTER TABLE tournaments DROP COLUMN {column}")
        lite.execute("DROP INDEX rating_changes_by_player")  # 0021's
        lite.execute("ALTER TABLE rating_changes DROP COLUMN rated_at")
        lite.execute("PRAGMA user_version = 14")
        lite.commit()
    finally:
        lite.close()


async def test_in_discord_a_join_again_takes_the_first_sign_ups_id(
    fake_discord: FakeDiscord,  # noqa: F811
    start_bot,  # noqa: F811
    bot: WargamesBot,  # noqa: F811
) -> None:
    """Through the bot: Alice joins by the button, leaves with the command and joins again by the
    command; the answers read as before (nothing to learn from them), and her input is the first
    click's id, after the seal's message."""
    fake = fake_discord
    _, club, (alice,) = await setup_club(fake, 1)
    await start_bot(bot)
    bot.service.seeded_inputs = False  # the joins' ids are their inputs, as in production
    created = await fake.slash(
        fake.owner,
        club,
        "tournament",
        "create",
        {"game": GAME, "rounds": 1, "days": 2},
        messages=2,
    )
    sealed, signup = created.messages
    join = next(c for c in signup.custom_ids if c.startswith("bw:tjoin:"))
    clicked = await fake.click(alice, signup, join)
    assert "You are in" in clicked.content
    first = clicked.interaction_id
    left = await fake.slash(alice, club, "tournament", "leave")
    assert left.ephemeral and left.content.startswith("You are no longer signed up for **")
    again = await fake.slash(alice, club, "tournament", "join")
    assert again.ephemeral and "You are in" in again.content
    assert again.interaction_id > first > sealed.id
    await until(lambda: f"<@{alice.id}>" in signup.content)
    store = TournamentStore(bot.database)
    made = await store.channel_tournament(club.id)
    assert made is not None
    (entry,) = await store.tournament_entries(made.id)
    assert entry.user_id == alice.id and entry.join_input == str(first)

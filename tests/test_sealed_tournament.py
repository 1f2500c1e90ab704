"""A tournament's seal (docs/fairness.md, "Tournaments"), on both stores: drawn when the tournament is
made and shown by a message of its own before anyone joins; each game's secret is an HMAC of it
under the game's round and board, with its players' joins as the inputs; a game verifies while the
tournament runs (its link to the seal waits for the reveal) and, once the tournament is over, with
the link checked; a record whose tournament secret does not give the game's fails."""

from __future__ import annotations

import json
import random
import re
import time

from bot import WargamesBot
from data import Database, Status
from data.db import count
from data.tournaments import Tournament, TournamentStatus
from engine import chance, fairness
from play import MatchService
from play import fairness as play_fairness
from play.tournament import TournamentService
from tests.clock import Clock
from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import fake_discord, start_bot  # noqa: F401 (pytest fixtures)
from tests.test_sealed import snowflake
from tests.test_tournament_bot import GAME, bot, play_out, setup_club, sweep, threads_of  # noqa: F401

GUILD, CHANNEL, THREAD = 5, 100, 1001
ORGANISER, ALICE, BOB = 1, 11, 12


def services(db: Database, clock: Clock) -> tuple[MatchService, TournamentService]:
    matches = MatchService(db, clock=clock, rng=random.Random(3), seeded_inputs=False)
    return matches, TournamentService(db, matches, clock=clock)


async def one_round(t: TournamentService) -> Tournament:
    """A one-round Block Wars tournament of two days, just made (its seal drawn, not yet shown)."""
    return await t.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=ORGANISER,
        game="blockwars",
        rounds=1,
        days=2,
        organiser=True,
    )


async def test_a_tournament_game_comes_from_the_tournaments_seal_and_verifies_before_and_after_its_end(
    store_world,
) -> None:
    db, clock = store_world
    matches, t = services(db, clock)
    made = await one_round(t)
    assert made.seal_commitment is not None and made.seal_secret is not None
    assert made.seal_secret not in repr(made)
    assert made.seal_commitment == chance.commitment(bytes.fromhex(made.seal_secret))
    line = play_fairness.tournament_seal_text(made)
    assert made.seal_commitment[:32] in line and made.seal_secret not in line
    assert await t.seal_shown(made, snowflake(clock.now, 1))
    clock.now += 60
    for n, user in enumerate((ALICE, BOB)):
        await t.join(made, user, entropy=snowflake(clock.now, 10 + n))
    await t.start(CHANNEL, organiser=True)
    (board,) = await t.pending_starts(await t.open_in(CHANNEL))
    match = await t.start_board(board, THREAD)
    label = fairness.tournament_label(made.id, 1, board.board)
    assert match.seed_secret == fairness.tournament_secret(bytes.fromhex(made.seal_secret), label).hex()
    joins = play_fairness.inputs_of(match)[:2]
    assert sorted(joins) == sorted(f"join:{snowflake(clock.now, 10 + n)}" for n in range(2))
    assert match.sealed_at is None  # a thread's own seal is not what it takes
    clock.now += 60
    await matches.act(THREAD, match.sides["germans"], "resign")
    # While the tournament runs: verified, the link to the seal left for its end, and not revealed.
    _, report = await play_fairness.verify(matches, GUILD, THREAD)
    assert report.ok, report.text()
    text = report.text()
    assert f"shown by message {snowflake(clock.now - 120, 1)}" in text and "2 of the 2 players' joins" in text
    assert "revealed when the tournament ends; verify this game again then" in text
    _, data = await play_fairness.export(matches, GUILD, THREAD)
    record = json.loads(data)
    assert record["tournament"]["secret"] is None and made.seal_secret not in data.decode()
    # The round closes, the tournament is over: the secret is revealed and the link checked.
    await t.sweep()
    over = await t.by_id(made.id)
    assert over.status is TournamentStatus.FINISHED
    assert made.seal_secret in play_fairness.tournament_reveal_text(over)
    _, report = await play_fairness.verify(matches, GUILD, THREAD)
    assert report.ok, report.text()
    assert "✅ The tournament's revealed secret matches its commitment and gives this game's secret" in (
        report.text()
    )
    _, data = await play_fairness.export(matches, GUILD, THREAD)
    record = json.loads(data)
    assert record["tournament"]["secret"] == made.seal_secret
    record["tournament"]["secret"] = bytes(32).hex()  # another secret: not the one committed to
    tampered = fairness.check(record)
    assert not tampered.ok and "does not match its commitment" in tampered.text()
    record["tournament"]["label"] = fairness.tournament_label(made.id, 2, board.board)
    record["tournament"]["secret"] = made.seal_secret  # the right secret, another game's label
    tampered = fairness.check(record)
    assert not tampered.ok and "does not give this game's secret" in tampered.text()


async def test_a_tournament_stored_before_seals_starts_its_games_as_before(store_world) -> None:
    """A tournament without a seal (made before migration 0010) draws each game's secret at its start."""
    db, clock = store_world
    matches, t = services(db, clock)
    made = await one_round(t)
    await t.seal_shown(made)
    for user in (ALICE, BOB):
        await t.join(made, user)
    await t.start(CHANNEL, organiser=True)
    (board,) = await t.pending_starts(await t.open_in(CHANNEL))

    def unsealed():  # the tournament as a row stored before migration 0010 reads
        yield count("UPDATE tournaments SET seal_secret = NULL, seal_commitment = NULL")

    await db._transact(unsealed)
    match = await t.start_board(board, THREAD)
    assert match.status is Status.ACTIVE and match.seed_commitment is not None
    assert not play_fairness.inputs_of(match)[0].startswith("join:")  # an ordinary challenge's inputs
    await matches.act(THREAD, match.sides["germans"], "resign")
    _, data = await play_fairness.export(matches, GUILD, THREAD)
    assert "tournament" not in json.loads(data)
    _, report = await play_fairness.verify(matches, GUILD, THREAD)
    assert report.ok, report.text()


async def test_in_discord_a_tournament_shows_its_seal_first_and_reveals_it_at_its_end(
    fake_discord: FakeDiscord,  # noqa: F811
    start_bot,  # noqa: F811
    bot: WargamesBot,  # noqa: F811
) -> None:
    fake = fake_discord
    _, club, players = await setup_club(fake, 2)
    await start_bot(bot)
    bot.service.seeded_inputs = False  # the joins' ids, as in production (tests/test_sealed_bot.py)
    bot.service.clock.now = time.time()  # type: ignore[attr-defined]
    created = await fake.slash(
        fake.owner,
        club,
        "tournament",
        "create",
        {"game": GAME, "rounds": 1, "days": 2},
        messages=2,
    )
    sealed, signup = created.messages  # the seal first, in a message of its own, never edited
    # the channel receives the seal before the sign-up list, so no Join button exists before it
    assert [m.id for m in fake.messages_in(club)] == [sealed.id, signup.id] and sealed.id < signup.id
    assert "bw:tjoin:" not in " ".join(sealed.custom_ids) and not sealed.history
    found = re.search(r"sealed: commitment `([0-9a-f]{32})…`", sealed.content)
    assert found is not None
    short = found[1]
    join = next(c for c in signup.custom_ids if c.startswith("bw:tjoin:"))
    for user in players:
        await fake.click(user, signup, join)
    await fake.slash(fake.owner, club, "tournament", "start", messages=2)
    (thread,) = threads_of(fake, club)
    await play_out(fake, bot, thread, "first wins")
    await sweep(bot)
    final = fake.messages_in(club)[-1]
    revealed = re.search(r"dice secret was `([0-9a-f]{64})`", final.content)
    assert revealed is not None and "is over after 1 round" in final.content
    assert chance.commitment(bytes.fromhex(revealed[1])).startswith(short)
    assert all(revealed[1] not in m.content for m in fake.messages_in(club)[:-1])
    verified = await fake.slash(players[1], thread, "wargames", "verify", {})
    assert "Verified" in verified.content and "❌" not in verified.content, verified.content
    assert f"shown by message {sealed.id}" in verified.content
    assert "2 of the 2 players' joins came after it" in verified.content
    assert "✅ The tournament's revealed secret matches its commitment" in verified.content

"""The ninth review from the store and the verifier (docs/fairness.md, "the ninth review"). Each
test of a hole failed before its fix."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from data import Database, PlayerStats, Result, Status
from data.elo import START_RATING
from engine import chance, fairness, registry
from play import fairness as play_fairness
from tests.clock import Clock
from tests.test_fairness import CHANNEL as CHANNEL_F
from tests.test_fairness import GUILD as GUILD_F
from tests.test_fairness import close_databases, finished_game, open_service  # noqa: F401 (closes them)

GUILD, GAME = 900, "blockwars"
FARMER, ALT, FRIEND, RIVAL = 11, 12, 13, 14
DAY = 24 * 3600


async def _won(db: Database, winner: int, loser: int, channel: int = 1, *, ai: str | None = None) -> None:
    """One rated game `winner` won against `loser`, challenged, accepted and resigned at once: what
    a player with a second account can do a hundred times an hour."""
    made = await db.create_challenge(
        guild_id=GUILD,
        channel_id=channel,
        challenger_id=winner,
        opponent_id=loser,
        seed=1,
        turn_seconds=60,
        game=GAME,
        challenge_expires_at=None,
        ai_player_id=loser if ai else None,
        ai_level=ai,
    )
    m = await db.update_match(
        made.id,
        expected_version=made.version,
        status=Status.ACTIVE,
        sides={"germans": winner, "canadians": loser},
        snapshot={"turn": 1},
        turn_player_id=loser,
    )
    await db.finish_match(
        m.id,
        expected_version=m.version,
        result=Result(winner, "resign", ai_rating=START_RATING if ai else None),
    )


async def test_wins_against_a_second_account_climb_a_little_not_without_end(
    store_world: tuple[Database, Clock],
) -> None:
    """A player beat a fresh second account of their own again and again before a tournament: 10
    wins gave +110, 30 wins +201 and 100 wins +308 (Elo against one opponent grows with the log of
    the wins), enough to top a club's seeds, where a draw sends the higher seed on. A rated game
    between two players who finished another together in the 30 days before it now counts 1/n:
    30 such wins in an hour give +54 (100 give +67)."""
    db, clock = store_world
    for _ in range(30):
        clock.now += 60
        await _won(db, FARMER, ALT)
    farmer = await db.player_stats(GUILD, GAME, FARMER)
    assert farmer.wins == 30
    assert START_RATING + 50 < farmer.rating < START_RATING + 60, farmer.rating
    # a month later the pair's next game counts in full again, as a first meeting does
    before = farmer.rating
    clock.now += 31 * DAY
    await _won(db, ALT, FARMER)
    after = (await db.player_stats(GUILD, GAME, FARMER)).rating
    assert before - after > 16  # the alt's upset at full weight: more than an even game's 16


async def test_friends_who_meet_often_still_count_and_everyone_else_in_full(
    store_world: tuple[Database, Clock],
) -> None:
    """The rule is per pair: a player's first game against each other player counts in full
    whatever they played with someone else, a second against one within 30 days half, and the
    AI (its rating is its level's, fixed) is not a pair at all."""
    db, clock = store_world
    await _won(db, FRIEND, RIVAL)
    assert (await db.player_stats(GUILD, GAME, FRIEND)).rating == START_RATING + 16
    clock.now += DAY
    await _won(db, FRIEND, FARMER, channel=2)  # another opponent: full
    friend = (await db.player_stats(GUILD, GAME, FRIEND)).rating
    farmer = (await db.player_stats(GUILD, GAME, FARMER)).rating
    assert friend - START_RATING - 16 == pytest.approx(START_RATING - farmer)  # zero-sum
    assert START_RATING - farmer > 14
    clock.now += DAY
    rival = (await db.player_stats(GUILD, GAME, RIVAL)).rating
    await _won(db, RIVAL, FRIEND)  # the second meeting within 30 days: half
    gained = (await db.player_stats(GUILD, GAME, RIVAL)).rating - rival
    assert 8 < gained < 10, gained  # Elo would give 17.5 for this upset; half is 8.8
    for _ in range(3):  # the AI at 1200, beaten thrice in a day: each counts in full
        clock.now += 60
        before = (await db.player_stats(GUILD, GAME, FARMER)).rating
        await _won(db, FARMER, 99, channel=3, ai="easy")
        assert (await db.player_stats(GUILD, GAME, FARMER)).rating - before > 15


def test_the_rule_is_said_where_a_rating_is_read() -> None:
    """A player reading a rating that moved less than Elo's 16 after a win is told why, in `stats`
    and under the leaderboard."""
    from cogs._format import DISCORD
    from engine import registry
    from play.listings import leaderboard_text, stats_text
    from play.ratings import Standing

    game = registry.game(GAME)
    rule = "counts less: the second counts half, the third a third"
    stats = PlayerStats(GUILD, GAME, FARMER, 3, 0, 0, 1243.7)
    assert rule in stats_text(game, stats, DISCORD)
    assert rule in leaderboard_text(game, [Standing(FARMER, 1243.7, 3, 0, 0)], DISCORD)


async def test_a_record_forged_whole_shows_the_commitment_a_reader_compares_with_the_channel(
    tmp_path: Path,
) -> None:
    """A stranger checks a game's export with scripts/verify_game.py. A record whose secret,
    commitment and end were all replaced together (a new secret, its SHA-256, the end its dice
    give) checks out: the record cannot vouch for what the channel showed. The reader's one defence
    is to compare the commitment with the game's first message, which shows 32 hex digits (128
    bits, so no other secret's begins alike); the check showed only 16 (64 bits, a prefix a
    forger can search for) and did not say the comparison was the reader's to make. It now shows
    the channel's 32 and says so."""
    svc = await open_service(tmp_path / "t.db", Clock(), random.Random(6))
    match_id = await finished_game(svc)
    _, data = await play_fairness.export(svc, GUILD_F, CHANNEL_F, match_id)
    record = json.loads(data)
    honest = str(record["commitment"])
    report = fairness.check(record)
    for n in range(20):  # a forger tries secrets until one gives the challenger the side they played
        forged = json.loads(data)
        secret = bytes([n]) * 32
        forged["secret"], forged["commitment"] = secret.hex(), chance.commitment(secret)
        rules = registry.game(forged["game"])
        state = rules.new_game(dict(forged["options"]), fairness.seed_of(forged))
        for step in forged["actions"]:
            state.apply(rules.parse(step["notation"]), step["side"])
        forged["final"] = state.to_json()
        report = fairness.check(forged)
        if report.ok:
            break
    assert report.ok, report.text()  # the forgery holds together: only the channel's message can tell
    text = report.text()
    assert forged["commitment"][:32] in text and honest[:32] not in text, text
    assert "is for a reader to see there" in text, text
    shown = fairness.check(record).text()
    assert honest[:32] in shown and "is for a reader to see there" in shown, shown


async def test_a_record_without_its_stored_end_says_so(tmp_path: Path) -> None:
    """A record with its stored end (`final`) taken out checked the replay against the recorded
    winner only and said nothing of the end it could not compare: a reader took the missing line
    for nothing missing. It is said now, as a point not checked."""
    svc = await open_service(tmp_path / "t.db", Clock(), random.Random(6))
    match_id = await finished_game(svc)
    _, data = await play_fairness.export(svc, GUILD_F, CHANNEL_F, match_id)
    record = json.loads(data)
    del record["final"]
    text = fairness.check(record).text()
    assert "➖ The record holds no stored end of the game" in text, text

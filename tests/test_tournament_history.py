"""A server's tournaments past and present (play/tournament_history.py): the store's list on both
stores, who sees which, a number's one refusal, the list's words within one message, and the
console's `past` and `tournament:N`. Through the fake Discord: tests/test_tournament_crosstable_bot.py."""

from __future__ import annotations

import random
from collections.abc import Collection
from dataclasses import replace
from pathlib import Path

import pytest

from data import Database
from data.tournaments import Held, Tournament, TournamentStatus
from play import BadRequest, MatchService
from play.markup import PLAIN
from play.tournament import TournamentService
from play.tournament_history import Past, no_such_text, past_text
from tests.clock import Clock
from tests.console_run import fresh_console

GUILD, CHANNEL, OTHER_CHANNEL = 5, 100, 101
_TOURNAMENT = Tournament(
    id=1,
    guild_id=GUILD,
    channel_id=CHANNEL,
    game="blockwars",
    options={},
    name="",
    rounds=3,
    round_seconds=86400,
    status=TournamentStatus.SIGNUP,
    round=0,
    round_ends_at=None,
    announced=0,
    message_id=None,
    created_by=1,
    version=0,
    created_at=1_800_000_000.0,
)


def services(db: Database, clock: Clock) -> TournamentService:
    return TournamentService(db, MatchService(db, clock=clock, rng=random.Random(1)), clock=clock)


async def test_a_servers_tournaments_newest_first_each_dated_and_only_where_one_looks(
    store_world: tuple[Database, Clock],
) -> None:
    """Cancelled before it began, then the channel's next one running, and another channel's taking
    sign-ups; another server's is never listed. Each is dated: a cancel by its own moment, a
    running one by its first game's. A member who cannot view a channel is not told of its
    tournament, by the list or by its number, which answers as another server's and as none."""
    db, clock = store_world
    t = services(db, clock)

    async def create(guild: int, channel: int) -> int:
        made = await t.create(
            guild_id=guild, channel_id=channel, user_id=1, game="blockwars", rounds=1, days=1, organiser=True
        )
        await t.seal_shown(made)
        return made.id

    first = await create(GUILD, CHANNEL)
    clock.now += 3600
    await t.cancel(CHANNEL, organiser=True)
    cancelled_at = clock.now
    second = await create(GUILD, CHANNEL)
    for user in (11, 12):
        await t.join(await t.by_id(second), user)
    clock.now += 3600
    started = await t.start(CHANNEL, organiser=True)
    for board in started.boards:
        await t.start_board(board, 1000 + board.board)
    third = await create(GUILD, OTHER_CHANNEL)
    abroad = await create(GUILD + 1, CHANNEL + 50)

    held = await t.held(GUILD)
    assert [h.tournament.id for h in held] == [third, second, first]
    assert [h.tournament.status for h in held] == [
        TournamentStatus.SIGNUP,
        TournamentStatus.RUNNING,
        TournamentStatus.CANCELLED,
    ]
    assert held[2].changed_at == cancelled_at and held[2].began_at is None
    assert held[1].began_at == clock.now
    said = past_text(*(await t.past(GUILD)), PLAIN, "/tournament")
    assert f"No. {first} Block Wars Swiss in #{CHANNEL}: cancelled before it began on day " in said

    async def sees_one(channels: Collection[int]) -> Collection[int]:
        return {c for c in channels if c == CHANNEL}

    assert [h.tournament.id for h in await t.held(GUILD, sees_one)] == [second, first]
    assert (await t.numbered(second, GUILD, sees_one)).id == second
    for number in (third, abroad, abroad + 1):  # unseen, another server's, none: the same words
        with pytest.raises(BadRequest) as refused:
            await t.numbered(number, GUILD, sees_one)
        assert str(refused.value) == no_such_text(number)


def test_the_list_names_every_first_place_and_fits_one_message() -> None:
    """None yet (or none the member may see: the same words); a shared first place names each
    winner; a list too long for one message stops before Discord's 2,000 characters and counts the
    rest with the older ones, still reachable by number."""

    def held(number: int, name: str) -> Held:
        t = replace(_TOURNAMENT, id=number, name=name, status=TournamentStatus.FINISHED, round=3)
        return Held(t, 1_800_000_000.0, None)

    assert past_text([], 0, PLAIN, "/tournament") == (
        "No tournament to show here yet. An organiser opens one in a channel with `/tournament create`."
    )
    shared = past_text([Past(held(7, "Spring Swiss"), (11, 12, 13))], 0, PLAIN, "/tournament")
    assert (
        "No. 7 Spring Swiss (Block Wars) in #100: @11, @12 and @13 shared first place; ended day " in shared
    )
    long = [
        Past(
            held(n, "A very long name for a club's tournament of the season"),
            tuple(range(10**17, 10**17 + 4)),
        )
        for n in range(40, 28, -1)
    ]
    said = past_text(long, 30, PLAIN, "/tournament")
    assert len(said) <= 2000
    shown = [line for line in said.splitlines() if line.startswith("No. ")]
    assert 0 < len(shown) < 12
    assert f"…and {30 + 12 - len(shown)} older ones: type its name or number in `tournament:`" in said


async def test_the_console_lists_past_tournaments_and_reads_one_by_number(tmp_path: Path) -> None:
    """The console mirrors Discord: `past`, then an earlier tournament's standings and export by
    number once the channel holds the next; a number of none, or no number at all, refused kindly."""
    from console import names

    async with fresh_console(tmp_path) as (console, out):
        for line in (
            "/tournament create game:blockwars rounds:1 days:1 name:Spring",
            "/tournament join",
            "/as bob",
            "/tournament join",
            "/tournament start",
        ):
            await console.handle(line)
        match = await console.service.db.get_channel_match(names.channel_id("t1r1b1"))
        assert match is not None
        loser = names.user_name(match.challenger_id)
        for line in (f"/as {loser}", "/channel t1r1b1", "/blockwars resign", "/channel general"):
            await console.handle(line)
        start = len(out.getvalue())
        for line in (
            "/tournament create game:blockwars rounds:2 days:1",
            "/tournament past",
            "/tournament standings tournament:1",
            "/tournament export tournament:1",
            "/tournament standings tournament:9",
            "/tournament crosstable tournament:first",
            "/tournament round tournament:1",
            "/wargames tournament standings tournament:1",
        ):
            await console.handle(line)
        said = out.getvalue()[start:]
    winner = names.user_name(match.opponent_id)
    assert (
        "This server's tournaments, newest first:\nNo. 2 Block Wars Swiss in #general: taking sign-ups since "
        in said
    )
    assert f"No. 1 Spring (Block Wars, Swiss) in #general: won by @{winner}; ended " in said
    assert "e.g. `/tournament standings tournament:1`." in said
    assert "Spring, the standings after round 1 of 1." in said
    assert (tmp_path / "b" / "tournament-1-round-1.png").exists()
    assert (tmp_path / "b" / "tournament-1-games.csv").exists()
    assert f"✗ {no_such_text(9)}" in said
    assert "✗ 'first' is not a tournament's number: `/tournament past` lists them" in said
    # `round` by number too; and the old place, `/wargames tournament …`, points to the new command
    assert "Spring is over; its last round was round 1 of 1.\n1. @" in said
    assert said.endswith(
        "✗ The tournaments have a command of their own now: type `/tournament standings tournament:1` "
        "(without /wargames).\n"
    )

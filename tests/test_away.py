"""Time away: a player's clocks stop while they are away, within a yearly allowance (RULES.md).

On the match service with a real SQLite file and a hand clock; then through the fake Discord across
a restart, and through the console.
"""

from __future__ import annotations

import io
import logging
import random
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot import WargamesBot
from cogs._format import DISCORD
from cogs.core import Core
from console import Console
from data import Database, Match, Status
from play import BadRequest, MatchService
from play.notices import notice_text
from play.service import AWAY_DAYS_A_YEAR
from tests.botkit import BotKit
from tests.fakediscord import FakeChannel, FakeDiscord
from tests.fakediscord.fixtures import ForwardErrors, HandClock
from tests.pgraces import race

DAY, HOUR = 86400, 3600
GUILD, OTHER_GUILD = 10, 11
ALICE, BOB = 1, 2
GENERAL, TRENCHES = 100, 101


OPENED: list[Database] = []


async def service(store: str, clock: HandClock) -> MatchService:
    """The service on one of the two stores (the `store` fixture runs each test on both)."""
    db = await Database.open(store, clock=clock)
    OPENED.append(db)
    return MatchService(db, clock=clock, rng=random.Random(3))


@pytest.fixture(autouse=True)
async def close_databases() -> AsyncIterator[None]:
    yield
    while OPENED:
        await OPENED.pop().close()


async def block_wars(svc: MatchService, channel: int, alice_side: str, guild: int = GUILD) -> None:
    """Alice and Bob start Block Wars; the Germans set up first, so the Germans' player owes."""
    await svc.challenge(
        guild_id=guild,
        channel_id=channel,
        challenger_id=ALICE,
        opponent_id=BOB,
        game="blockwars",
        side=alice_side,
    )
    await svc.accept(channel, BOB)


async def test_going_away_moves_the_clock_of_a_turn_owed_and_coming_back_moves_it_back(store: str):
    clock = HandClock()
    svc = await service(store, clock)
    await block_wars(svc, GENERAL, "germans")
    before, _ = await svc.current(GENERAL)
    assert before.turn_player_id == ALICE and before.deadline == clock.now + 3 * DAY
    assert before.reminder_at is not None
    clock.now += HOUR
    away = await svc.away(GUILD, ALICE, 5)
    assert away.until == clock.now + 5 * DAY and away.left == AWAY_DAYS_A_YEAR - 5
    (moved,) = away.games
    assert moved.deadline == before.deadline + 5 * DAY  # the clock stood still for the 5 days
    assert moved.reminder_at == before.reminder_at + 5 * DAY and not moved.reminded
    assert moved.version == before.version  # the board's buttons stay current
    stored = await svc.db.get_match(before.id)
    assert (stored.deadline, stored.version) == (moved.deadline, before.version)
    assert await svc.away_until(GUILD, ALICE) == away.until
    clock.now += 2 * DAY
    back = await svc.back(GUILD, ALICE)
    assert back.until is None and await svc.away_until(GUILD, ALICE) is None
    assert back.games[0].deadline == before.deadline + 2 * DAY  # only the days really away count
    assert back.left == AWAY_DAYS_A_YEAR - 2
    with pytest.raises(BadRequest, match="not away"):
        await svc.back(GUILD, ALICE)
    await svc.db.close()


async def test_an_accept_racing_the_challengers_time_away_in_one_process(store: str):
    """Alice goes away (or comes back) as Bob accepts her challenge, the first turn hers, in one
    process: both land, and the first turn's clock starts when she is back (now, once back),
    whichever went first. Before, on SQLite, two rounds in three got it wrong: the start read her
    time away before it was written and was stored after her games were listed (tests/pgraces.py
    races the same between two processes on PostgreSQL)."""
    clock = HandClock()
    svc = await service(store, clock)
    rng = random.Random(21)
    for n in range(30):
        guild, channel = 1000 + n, 5000 + n  # a server of its own: a year's days away each round
        back = rng.random() < 0.5
        if back:
            await svc.away(guild, ALICE, 2)
        await svc.challenge(
            guild_id=guild,
            channel_id=channel,
            challenger_id=ALICE,
            opponent_id=BOB,
            game="blockwars",
            side="germans",
        )
        gone = svc.back(guild, ALICE) if back else svc.away(guild, ALICE, 3)
        away, accepted = await race(rng, gone, svc.accept(channel, BOB))
        assert not isinstance(away, BaseException) and not isinstance(accepted, BaseException)
        match, _ = await svc.current(channel)
        starts = clock.now if away.until is None else away.until
        assert match.turn_player_id == ALICE
        assert match.deadline == starts + match.turn_seconds, ("back" if back else "away", n)
        await svc.cancel(channel, 99, is_admin=True)


async def test_a_turn_that_comes_to_a_player_away_starts_its_clock_when_they_are_back(store: str):
    clock = HandClock()
    svc = await service(store, clock)
    await block_wars(svc, GENERAL, "canadians")  # Bob (Germans) sets up first: his clock runs
    (bobs,) = (await svc.away(GUILD, ALICE, 4)).games
    assert bobs.turn_player_id == BOB and bobs.deadline == clock.now + 3 * DAY  # not Alice's clock
    clock.now += DAY
    played = await svc.act(GENERAL, BOB, "setup std")
    assert played.match.turn_player_id == ALICE
    until = await svc.away_until(GUILD, ALICE)
    assert until is not None and played.match.deadline == until + 3 * DAY  # a whole turn, from her return
    clock.now += DAY
    await svc.back(GUILD, ALICE)
    match, _ = await svc.current(GENERAL)
    assert match.deadline == clock.now + 3 * DAY  # back early: the turn counts from now
    await svc.db.close()


async def test_a_quick_decision_keeps_its_short_clock_and_automatic_answer(store: str):
    """Fix Bayonets: a card played against a player away still gets its quick answer in a few hours,
    so the opponent can finish their turn; the player's own turn then waits for them."""
    clock = HandClock()
    svc = await service(store, clock)
    await svc.challenge(
        guild_id=GUILD,
        channel_id=GENERAL,
        challenger_id=ALICE,
        opponent_id=BOB,
        game="fixbayonets",
        side="americans",
    )
    await svc.accept(GENERAL, BOB)
    await svc.act(GENERAL, ALICE, "setup std")
    await svc.act(GENERAL, BOB, "setup std")
    rng = random.Random(1)
    for _ in range(40):  # Bob (Germans) plays until Alice owes a quick answer to one of his cards
        match, state = await svc.current(GENERAL)
        if match.turn_player_id == ALICE and state.quick_decision():
            break
        legal = await svc.legal(GENERAL, match.turn_player_id or BOB)
        await svc.act(GENERAL, match.turn_player_id or BOB, rng.choice([a for a in legal if a != "fight"]))
    assert match.turn_player_id == ALICE and state.quick_decision()
    (same,) = (await svc.away(GUILD, ALICE, 10)).games
    assert same.deadline == match.deadline and match.deadline is not None
    assert match.deadline - clock.now <= 6 * HOUR
    clock.now = match.deadline + 1
    (notice,) = await svc.sweep()
    assert notice.kind == "default" and notice.played is not None  # answered for her, not lost
    after, _ = await svc.current(GENERAL)
    assert after.status is Status.ACTIVE
    await svc.db.close()


async def test_a_deadline_passed_before_going_away_still_falls(store: str):
    """The bot was down when Alice's deadline passed; she declares time away on its return: the
    sweep still applies what fell due before her time away began."""
    clock = HandClock()
    svc = await service(store, clock)
    await block_wars(svc, GENERAL, "germans")
    match, _ = await svc.current(GENERAL)
    assert match.deadline is not None
    clock.now = match.deadline + HOUR
    (same,) = (await svc.away(GUILD, ALICE, 7)).games
    assert same.deadline == match.deadline
    (notice,) = await svc.sweep()
    assert notice.kind == "forfeit" and f"<@{ALICE}> ran out of time" in notice_text(notice, DISCORD)
    await svc.db.close()


async def test_time_away_is_per_server(store: str):
    clock = HandClock()
    svc = await service(store, clock)
    await block_wars(svc, GENERAL, "germans")
    await block_wars(svc, TRENCHES, "germans", guild=OTHER_GUILD)
    elsewhere, _ = await svc.current(TRENCHES)
    away = await svc.away(GUILD, ALICE, 3)
    assert [m.channel_id for m in away.games] == [GENERAL]
    assert (await svc.current(TRENCHES))[0].deadline == elsewhere.deadline
    assert await svc.away_until(OTHER_GUILD, ALICE) is None
    await svc.db.close()


async def test_the_allowance_is_thirty_days_in_any_365_and_no_cheaper_in_pieces(store: str):
    clock = HandClock()
    svc = await service(store, clock)
    await block_wars(svc, GENERAL, "germans")
    await svc.away(GUILD, ALICE, 1)
    clock.now += 20 * 60
    await svc.back(GUILD, ALICE)  # a mistake undone within the hour costs nothing
    assert await svc.away_taken(GUILD, ALICE) == 0
    for _ in range(3):  # away for a day and two hours, three times: each costs two days
        await svc.away(GUILD, ALICE, 2)
        clock.now += DAY + 2 * HOUR
        await svc.back(GUILD, ALICE)
    assert await svc.away_taken(GUILD, ALICE) == 6
    await svc.away(GUILD, ALICE, 20)
    clock.now += 20 * DAY  # ended by itself
    assert await svc.away_until(GUILD, ALICE) is None and await svc.away_taken(GUILD, ALICE) == 26
    with pytest.raises(BadRequest, match=r"You took 26 days of them, so you can be away for 4 days at most"):
        await svc.away(GUILD, ALICE, 5)
    for bad in (0, 31):
        with pytest.raises(BadRequest, match="1 to 30 days"):
            await svc.away(GUILD, ALICE, bad)
    await svc.away(GUILD, ALICE, 4)
    clock.now += 4 * DAY
    with pytest.raises(BadRequest, match="you have none left now; a day taken comes back 365 days later"):
        await svc.away(GUILD, ALICE, 1)
    clock.now += 365 * DAY
    assert (await svc.away(GUILD, ALICE, 30)).left == 0
    await svc.db.close()


# ---------------------------------------------------------------------- through the fake Discord


@pytest.fixture
async def bot(fake_discord: FakeDiscord, start_bot, tmp_path: Path) -> AsyncIterator[WargamesBot]:
    fake_discord.settle = 0.01
    errors = ForwardErrors(fake_discord)
    logging.getLogger("bot").addHandler(errors)
    made: list[WargamesBot] = []
    try:
        yield made  # type: ignore[misc]  # the test starts (and restarts) the bot itself
    finally:
        logging.getLogger("bot").removeHandler(errors)
        for one in made:
            await one.close()


async def test_time_away_stops_a_clock_across_a_restart_and_the_opponent_is_told_once(
    fake_discord: FakeDiscord, start_bot, botkit: BotKit, bot
):
    fake = fake_discord
    guild = fake.add_guild("Front", channels=("general", "trenches"))
    general, trenches = guild.channel("general"), guild.channel("trenches")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    clock = HandClock()

    async def start() -> tuple[WargamesBot, Core]:
        made = await botkit.build(clock=clock, rng=random.Random(2))
        bot.append(made)
        await start_bot(made)
        return made, made.get_cog("Core")  # type: ignore[return-value]

    running, core = await start()

    async def stored(channel: FakeChannel) -> Match:
        assert running.database is not None
        found = await running.database.list_matches(channel_id=channel.id, limit=1)
        return found[0]

    async def deadline(channel: FakeChannel) -> float:
        found = (await stored(channel)).deadline
        assert found is not None
        return found

    for channel, side in ((general, "germans"), (trenches, "canadians")):
        made = await fake.slash(alice, channel, "blockwars", "challenge", {"opponent": bob, "side": side})
        await fake.click(bob, made.message, f"bw:accept:{(await stored(channel)).id}")
    assert (await stored(general)).turn_player_id == alice.id
    first_deadline = await deadline(general)
    clock.now += HOUR

    said = await fake.slash(alice, general, "wargames", "away", {"days": 5})
    (answer,) = [m.content for m in said.messages if m.ephemeral]  # and a notice per game's channel
    assert "You are away until <t:" in answer and "Time away left: 25 days" in answer
    until = int(re.search(r"<t:(\d+):F>", answer).group(1))  # type: ignore[union-attr]
    await core.idle()
    for channel in (general, trenches):  # each game's channel is told once, the opponent named
        notices = [m for m in fake.messages_in(channel) if "is away until" in m.content]
        assert len(notices) == 1 and not notices[0].ephemeral
        assert notices[0].content.startswith(f"<@{bob.id}>: <@{alice.id}> is away until <t:{until}:F>")
    moved = await deadline(general)
    assert moved == first_deadline + 5 * DAY
    # Bob sets up in #trenches: the turn comes to Alice while she is away, and waits for her return.
    await fake.slash(bob, trenches, "blockwars", "setup", {"layout": "std"})
    assert (await stored(trenches)).turn_player_id == alice.id
    assert await deadline(trenches) == until + 3 * DAY

    # Past the deadline she had before going away; the bot restarts, and the sweep finds nothing due.
    clock.now = first_deadline + HOUR
    await core.idle()
    await botkit.stop(running)
    running, core = await start()
    posts = len(fake.messages_in(general))
    assert await core.run_sweep() == []
    await core.idle()
    assert len(fake.messages_in(general)) == posts  # no reminder, no loss on time
    assert (await stored(general)).status is Status.ACTIVE

    # The moved deadline in #general comes: a reminder before it, the loss on time at it.
    # (#trenches, due an hour later, has its reminder by then too.)
    clock.now = moved - HOUR
    reminders = await core.run_sweep()
    assert sorted((n.kind, n.match.channel_id) for n in reminders) == sorted(
        [("reminder", general.id), ("reminder", trenches.id)]
    )
    clock.now = moved + 1
    forfeits = await core.run_sweep()
    assert [(n.kind, n.match.channel_id) for n in forfeits] == [("forfeit", general.id)]
    await core.idle()
    mygames = await fake.slash(alice, trenches, "wargames", "mygames")
    assert "You are away until" not in mygames.content  # her time away is over
    assert f"**Your move**: Block Wars (you are the Canadians) against <@{bob.id}> in <#{trenches.id}>" in (
        mygames.content
    )


async def test_away_and_back_in_the_console(tmp_path: Path):
    clock = HandClock()
    out = io.StringIO()
    db = await Database.open(tmp_path / "c.db", clock=clock)
    console = Console(MatchService(db, clock=clock, rng=random.Random(5)), boards=tmp_path / "b", out=out)
    script = ["/blockwars challenge @bob side:germans", "/as bob", "/blockwars accept", "/as alice"]
    assert await console.run_lines(script) == 0
    match, _ = await console.service.current(console.channel_id)
    assert await console.run_lines(["/wargames away days:3", "mygames"]) == 0
    text = out.getvalue()
    assert "You are away until " in text and "The clock of your game here stops while it is your move" in text
    assert "[general] @bob: @alice is away until " in text and "Their move here is now due in 6 days" in text
    assert "You are away until " in text.split("mygames\n", 1)[1]
    assert match.deadline is not None
    assert (await console.service.current(console.channel_id))[0].deadline == match.deadline + 3 * DAY
    assert await console.run_lines(["away 31"]) == 1 and "1 to 30 days" in out.getvalue().splitlines()[-1]
    console.refused = 0  # run_lines counts refusals since the start
    assert await console.run_lines(["/wargames back"]) == 0
    assert (
        "[general] @alice is back and their clock runs again: their move here is due in 3 days"
        in out.getvalue()
    )
    assert await console.run_lines(["back"]) == 1 and "You are not away" in out.getvalue()
    await console.close()


async def test_both_players_of_a_set_up_made_at_once_are_told_their_move_is_due(tmp_path: Path):
    """In Fix Bayonets both sides set up at once: the match names the first side's player as the one
    to move, but the second owes a move too, and the channel hears when it is due."""
    clock = HandClock()
    out = io.StringIO()
    db = await Database.open(tmp_path / "c.db", clock=clock)
    console = Console(MatchService(db, clock=clock, rng=random.Random(5)), boards=tmp_path / "b", out=out)
    script = ["/fixbayonets challenge @bob side:americans", "/as bob", "/fixbayonets accept"]
    assert await console.run_lines(script) == 0
    match, state = await console.service.current(console.channel_id)
    assert sorted(state.to_act()) == ["americans", "germans"] and match.turn_player_id != console.my_id
    assert await console.run_lines(["/wargames away days:2", "/wargames back"]) == 0
    text = out.getvalue()
    assert "[general] @alice: @bob is away until " in text and "Their move here is now due in " in text
    assert "[general] @bob is back and their clock runs again: their move here is due in " in text
    await console.close()


async def test_a_set_up_made_at_once_waits_for_whichever_player_is_away(tmp_path: Path):
    """Both sides of Fix Bayonets set up at once. The second side's player is away when the game
    starts: the set-up's clock starts when they are back, as it would for the first side's player
    (a turn that comes to a player away starts its clock at their return, RULES.md)."""
    clock = HandClock()
    svc = await service(str(tmp_path / "a.db"), clock)
    await svc.challenge(
        guild_id=GUILD,
        channel_id=GENERAL,
        challenger_id=ALICE,
        opponent_id=BOB,
        game="fixbayonets",
        side="germans",
    )
    await svc.away(GUILD, ALICE, 2)
    match = await svc.accept(GENERAL, BOB)
    assert match.sides == {"germans": ALICE, "americans": BOB} and match.turn_player_id == BOB
    assert match.deadline == clock.now + 2 * DAY + 3 * DAY
    await svc.db.close()

"""Whole Swiss tournaments through the fake Discord (issue 36), on SQLite and on PostgreSQL: sign-up by
buttons and commands, refusals, threads made by the bot with both players pinged, games played with
the games' own commands, a bye, a round closed by its days running out, a player who left the
server, standings pictures after every round, the final post and the ratings.
"""

from __future__ import annotations

import asyncio
import io
import logging
import random
from collections.abc import AsyncIterator, Callable

import pytest
from PIL import Image

from bot import WargamesBot
from data import Database
from data.tournaments import TournamentStatus, TournamentStore
from tests.botkit import BotKit, store_env
from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import ForwardErrors, HandClock
from tests.fakediscord.records import FakeChannel, FakeGuild, FakeMessage, FakeUser

DAY = 86400
GAME = "blockwars"


@pytest.fixture
async def bot(fake_discord: FakeDiscord, store: str, botkit: BotKit) -> AsyncIterator[WargamesBot]:
    fake_discord.settle = 0.01
    errors = ForwardErrors(fake_discord)
    logging.getLogger("bot").addHandler(errors)
    env = {"AI_BUDGET_SECONDS": "0.02", **store_env(store)}
    made = await botkit.build(env, clock=HandClock(), rng=random.Random(36))
    try:
        yield made
    finally:
        logging.getLogger("bot").removeHandler(errors)
        await botkit.stop(made)


async def until(check: Callable[[], bool], seconds: float = 5.0) -> None:
    """Wait for work the bot does after answering (an edit of the sign-up message)."""
    for _ in range(int(seconds / 0.02)):
        if check():
            return
        await asyncio.sleep(0.02)
    assert check()


def threads_of(fake: FakeDiscord, channel: FakeChannel) -> list[FakeChannel]:
    return [c for c in fake.channels.values() if c.is_thread and c.parent_id == channel.id]


def first_post(fake: FakeDiscord, thread: FakeChannel) -> FakeMessage:
    return fake.messages_in(thread)[0]


def standings_png(message: FakeMessage) -> Image.Image:
    attachment = message.attachment("standings.png")
    assert attachment is not None
    image = Image.open(io.BytesIO(attachment.data))
    image.load()
    return image


async def sweep(bot: WargamesBot) -> None:
    cog = bot.get_cog("Tournaments")
    assert cog is not None
    await cog.run_sweep()  # type: ignore[attr-defined]


async def setup_club(fake: FakeDiscord, n: int) -> tuple[FakeGuild, FakeChannel, list[FakeUser]]:
    guild = fake.add_guild("Club", channels=("club", "other"))
    players = [fake.add_user(name) for name in ("alice", "bob", "carol", "dave", "erin")[:n]]
    return guild, guild.channel("club"), players


async def signed_up(fake: FakeDiscord, club: FakeChannel, players: list[FakeUser], name: str) -> FakeMessage:
    """A one-round tournament of two-day rounds made by the owner, every player in by its Join button:
    its sign-up list."""
    made = await fake.slash(
        fake.owner,
        club,
        "tournament",
        "create",
        {"game": GAME, "rounds": 1, "days": 2, "name": name},
        messages=2,
    )
    listed = made.messages[1]  # after its seal
    join = next(c for c in listed.custom_ids if c.startswith("bw:tjoin:"))
    for user in players:
        await fake.click(user, listed, join)
    return listed


async def create_and_fill(
    fake: FakeDiscord, bot: WargamesBot, club: FakeChannel, players: list[FakeUser], name: str
) -> FakeMessage:
    created = await fake.slash(
        fake.owner,
        club,
        "tournament",
        "create",
        {"game": GAME, "rounds": 3, "days": 2, "name": name},
        messages=2,
    )
    sealed, signup = created.messages  # the tournament's seal, then the sign-up list (docs/fairness.md)
    assert not signup.ephemeral and not sealed.ephemeral
    assert "The dice of every game of this tournament are sealed: commitment `" in sealed.content
    assert f"**{name}**: a Swiss tournament of Block Wars, 3 rounds of 2 days each." in signup.content
    join_id = next(c for c in signup.custom_ids if c.startswith("bw:tjoin:"))
    for user in players[:-1]:  # by the button...
        clicked = await fake.click(user, signup, join_id)
        assert clicked.ephemeral and "You are in" in clicked.content
    joined = await fake.slash(players[-1], club, "tournament", "join")  # ...or the command
    assert joined.ephemeral
    await until(lambda: f"Signed up ({len(players)}):" in signup.content)
    for user in players:
        assert f"<@{user.id}>" in signup.content
    return signup


async def play_out(fake: FakeDiscord, bot: WargamesBot, thread: FakeChannel, outcome: str) -> None:
    """End the thread's game with the games' own commands: the first side resigns, the second
    resigns, or a draw offered and accepted."""
    service = bot.service
    match, _ = await service.current(thread.id)
    first = match.sides[sorted(match.sides, key=lambda s: s != "germans")[0]]
    second = match.other_player(first)
    users = {u.id: u for u in fake.users.values()}
    if outcome == "second wins":
        await fake.slash(users[first], thread, GAME, "resign")
    elif outcome == "first wins":
        await fake.slash(users[second], thread, GAME, "resign")
    else:
        await fake.slash(users[first], thread, GAME, "draw", {"choice": "offer"})
        await fake.slash(users[second], thread, GAME, "draw", {"choice": "accept"})
    await bot.get_cog("Core").idle()  # type: ignore[union-attr]


async def test_a_four_player_tournament_of_three_rounds(
    fake_discord: FakeDiscord, start_bot, bot, store: str
):
    fake = fake_discord
    guild, club, players = await setup_club(fake, 4)
    await start_bot(bot)
    signup = await create_and_fill(fake, bot, club, players, "Club Swiss")

    # refusals, each private, nothing changed
    again = await fake.slash(players[0], club, "tournament", "join")
    assert again.ephemeral and again.content == "You are already signed up for this tournament."
    second = await fake.slash(
        fake.owner, club, "tournament", "create", {"game": GAME, "rounds": 3, "days": 2}
    )
    assert second.ephemeral and "already runs a tournament" in second.content
    nope = await fake.slash(players[0], club, "tournament", "start")
    assert nope.ephemeral and "Only members who can manage the server" in nope.content
    nope = await fake.slash(players[0], club, "tournament", "cancel")
    assert nope.ephemeral and "Only members who can manage the server" in nope.content

    started = await fake.slash(fake.owner, club, "tournament", "start", messages=3)
    assert "has begun: round 1 of 3" in started.messages[0].content
    announced = {1: started.messages[0].id}  # each round's announcement, kept to correct its end
    # begun: a latecomer may still join during round 1 of 3 (RULES.md "Late entry"), with its button
    await until(lambda: "latecomers may still join until round 1 ends: press **Join**" in signup.content)
    assert sorted(c.split(":")[1] for c in signup.custom_ids) == ["tjoin", "tleave"]
    late = await fake.slash(players[0], club, "tournament", "leave")
    # once it runs, leaving is a withdrawal, asked first: unanswered, it changes nothing
    assert late.ephemeral and late.content.startswith("Withdraw from **Club Swiss**?")
    assert sorted(c.split(":")[1] for c in late.message.custom_ids) == ["tstay", "twithdraw"]

    played: set[frozenset[int]] = set()
    outcomes = ["first wins", "draw"]
    for round_no in (1, 2, 3):
        threads = [t for t in threads_of(fake, club) if t.name.startswith(f"R{round_no} ")]
        assert len(threads) == 2, [t.name for t in threads_of(fake, club)]
        for n, thread in enumerate(threads):
            post = first_post(fake, thread)
            match, _ = await bot.service.current(thread.id)
            pair = frozenset(match.players)
            assert pair not in played  # no rematch
            played.add(pair)
            for user in match.players:  # both players pinged in their thread
                assert f"<@{user}>" in post.content
            assert post.attachment("board.png") is not None
            await play_out(fake, bot, thread, outcomes[(n + round_no) % 2])
        before = len(fake.messages_in(club))
        await sweep(bot)
        posts = fake.messages_in(club)[before:]
        assert posts, f"no standings after round {round_no}"
        image = standings_png(posts[0])
        assert image.width == 800 and image.height > 200
        if round_no < 3:
            assert f"round {round_no} of 3 is over" in posts[0].content
            assert f"Round {round_no + 1} ends" in posts[0].content
            announced[round_no + 1] = posts[0].id
        if round_no == 1:  # round 2 of 3 paired: too late to join now, and the list says so
            await until(lambda: "Sign-ups are closed." in signup.content)
            assert not signup.custom_ids
    assert len(played) == 6  # four players, three rounds: everyone met everyone once
    final = fake.messages_in(club)[-1]
    assert "is over after 3 rounds" in final.content and "Congratulations" in final.content
    tournaments = TournamentStore(bot.database)
    done = await tournaments.channel_tournament(club.id, open_only=False)
    assert done is not None and done.status is TournamentStatus.FINISHED and done.announced == 3
    assert {r: await tournaments.round_message(done.id, r) for r in (1, 2, 3)} == announced
    boards = await tournaments.tournament_boards(done.id)  # and each game's first message
    assert sorted(b.message_id for b in boards) == sorted(  # type: ignore[type-var]
        first_post(fake, t).id for t in threads_of(fake, club)
    )
    # every game was rated as usual
    stats = [await bot.service.stats(guild.id, GAME, p.id) for p in players]
    assert sum(s.games for s in stats) == 12 and any(s.rating != 1200 for s in stats)
    # a second sweep posts nothing more (the final standings were posted once)
    count = len(fake.messages_in(club))
    await sweep(bot)
    assert len(fake.messages_in(club)) == count
    shown = await fake.slash(players[1], club, "tournament", "standings")
    assert standings_png(shown.message).width == 800
    # every game began with its round: no round's end was said to move
    assert not [m.content for m in fake.messages_in(club) if "now ends" in m.content]


async def test_a_five_player_tournament_with_byes_a_timeout_and_a_player_who_left(
    fake_discord: FakeDiscord, start_bot, bot, store: str
):
    fake = fake_discord
    guild, club, players = await setup_club(fake, 5)
    await start_bot(bot)
    few = await fake.slash(fake.owner, club, "tournament", "start")
    assert few.ephemeral and "runs no tournament" in few.content
    await create_and_fill(fake, bot, club, players, "Five")
    await fake.slash(fake.owner, club, "tournament", "start", messages=3)
    tournaments = TournamentStore(bot.database)
    tournament = await tournaments.channel_tournament(club.id)
    assert tournament is not None
    byes: list[int] = []
    clock = bot.clock
    for round_no in (1, 2, 3):
        boards = [b for b in await tournaments.tournament_boards(tournament.id) if b.round == round_no]
        bye = [b.first_id for b in boards if b.second_id is None]
        assert len(bye) == (1 if round_no < 3 else 0)  # four players are left for round 3
        byes.extend(bye)
        threads = [t for t in threads_of(fake, club) if t.name.startswith(f"R{round_no} ")]
        assert len(threads) == len(boards) - len(bye)
        if round_no == 1:
            await play_out(fake, bot, threads[0], "first wins")
            await play_out(fake, bot, threads[1], "second wins")
        elif round_no == 2:
            # one game ends in a draw; in the other nobody moves past the round's days: its first
            # turn fell due before the round's end, so that loss on time stands (not the round's draw)
            await play_out(fake, bot, threads[0], "draw")
            clock.now += 2 * DAY + 1
            # and a player leaves the server before round 3 is paired
            leaver = byes[0]
            del guild.members[leaver]
        else:
            for thread in threads:
                await play_out(fake, bot, thread, "first wins")
        before = len(fake.messages_in(club))
        await sweep(bot)
        posts = [
            m
            for m in fake.messages_in(club)[before:]
            if any(a.filename == "standings.png" for a in m.attachments)
        ]
        assert len(posts) == 1, f"round {round_no}"
        assert standings_png(posts[0]).width == 800
    assert len(set(byes)) == 2  # never twice to the same player
    boards = await tournaments.tournament_boards(tournament.id)
    round3 = [b for b in boards if b.round == 3]
    assert byes[0] not in {u for b in round3 for u in (b.first_id, b.second_id)}  # they left: not paired
    played = sorted(b.result or 0.0 for b in boards if b.round == 2 and b.second_id is not None)
    assert played == [0.0, 0.5]  # the first player's loss on time, and the drawn game
    final = fake.messages_in(club)[-1]
    assert "is over after 3 rounds" in final.content


async def test_an_organiser_role_set_by_a_manager_may_run_tournaments(
    fake_discord: FakeDiscord, start_bot, bot
):
    fake = fake_discord
    guild, club, players = await setup_club(fake, 2)
    role = fake.add_role(guild, "Organisers")
    alice, bob = players
    fake.add_member(guild, alice, roles=[role])
    await start_bot(bot)
    refused = await fake.slash(alice, club, "tournament", "create", {"game": GAME, "rounds": 1, "days": 1})
    assert refused.ephemeral and "Only members who can manage the server" in refused.content
    denied = await fake.slash(alice, club, "tournament", "organisers", {"role": role})
    assert denied.ephemeral and "Only members who can manage the server may choose" in denied.content
    granted = await fake.slash(fake.owner, club, "tournament", "organisers", {"role": role})
    assert granted.ephemeral and "Organisers may now run tournaments here" in granted.content
    assert "remove and reinstate players, forfeit a no-show and extend a round." in granted.content
    made = await fake.slash(
        alice, club, "tournament", "create", {"game": GAME, "rounds": 1, "days": 1}, messages=2
    )
    made_signup = made.messages[1]  # after its seal, in a message of its own
    assert (
        not made_signup.ephemeral
        and "a Swiss tournament of Block Wars, 1 round of 1 day each" in made_signup.content
    )
    nope = await fake.slash(bob, club, "tournament", "cancel")
    assert nope.ephemeral and "organiser role" in nope.content
    done = await fake.slash(alice, club, "tournament", "cancel")
    assert not done.ephemeral and "was cancelled by" in done.content
    await until(lambda: "This tournament was cancelled." in made_signup.content)
    assert not made_signup.custom_ids


async def test_a_restart_mid_round_posts_what_was_owed_and_goes_on(
    fake_discord: FakeDiscord, start_bot, store: str, botkit: BotKit
):
    """The bot stops mid-round; meanwhile the round ends and another process's sweep (or this one's,
    cut short by a crash) pairs round 2 without posting anything. The restarted bot posts round 1's
    standings once, makes round 2's threads, and plays on."""
    fake = fake_discord
    fake.settle = 0.01
    _guild, club, players = await setup_club(fake, 4)
    clock = HandClock()
    database = await Database.open(store, clock=clock)
    errors = ForwardErrors(fake)
    logging.getLogger("bot").addHandler(errors)

    async def make() -> WargamesBot:  # on the test's database, which another process's sweep shares
        env = {"AI_BUDGET_SECONDS": "0.02", **store_env(store)}
        return await botkit.build(env, clock=clock, rng=random.Random(7), database=database)

    try:
        first = await make()
        running = await start_bot(first)
        await create_and_fill(fake, first, club, players, "Restart Cup")
        await fake.slash(fake.owner, club, "tournament", "start", messages=3)
        threads = threads_of(fake, club)
        assert len(threads) == 2
        await play_out(fake, first, threads[0], "first wins")
        await running.stop()  # the bot goes down mid-round

        # while it is down, the other game ends and a sweep pairs round 2, then crashes before posting
        from play import MatchService
        from play.tournament import TournamentService

        elsewhere = TournamentService(database, MatchService(database, clock=clock), clock=clock)
        match = await database.get_channel_match(threads[1].id)
        assert match is not None
        await elsewhere.matches.act(threads[1].id, match.opponent_id, "resign")
        await elsewhere.sweep()  # round 1 closed and round 2 paired; nothing posted, nothing started
        tournament = await elsewhere.store.channel_tournament(club.id)
        assert tournament is not None and tournament.round == 2 and tournament.announced == 0

        before = len(fake.messages_in(club))
        second = await make()
        await start_bot(second)
        await sweep(second)
        posts = fake.messages_in(club)[before:]
        standings = [m for m in posts if any(a.filename == "standings.png" for a in m.attachments)]
        assert len(standings) == 1 and "round 1 of 3 is over" in standings[0].content
        round2 = [t for t in threads_of(fake, club) if t.name.startswith("R2 ")]
        assert len(round2) == 2
        for thread in round2:
            assert first_post(fake, thread).attachment("board.png") is not None
        await sweep(second)  # nothing owed twice
        assert len(fake.messages_in(club)) == before + len(posts)
        await second.close()
    finally:
        logging.getLogger("bot").removeHandler(errors)
        await database.close()

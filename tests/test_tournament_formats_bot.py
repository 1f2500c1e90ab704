"""A tournament's own settings through the fake Discord, on the module's one bot: a round-robin made
from the create form's choices, its refusal of `rounds`, its start saying how many rounds; and a cap
on players refusing the next sign-up privately, with a tie-break order chosen from the list."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from data.tournaments import TournamentStore
from play import knockout
from play.roundrobin import scheduled
from play.tournament_formats import entrants
from tests.onebot import ON_THE_BOT, Table, one_bot
from tests.test_tournament_bot import play_out, sweep


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def table(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Table]:
    async with one_bot(tmp_path_factory.mktemp("formats"), "Formats") as world:
        yield world


@ON_THE_BOT
async def test_a_round_robin_made_and_started_on_discord(table: Table) -> None:
    fake, club = table.fake, table.channel()
    refused = await fake.slash(
        fake.owner, club, "tournament", "create",
        {"game": "blockwars", "days": 1, "rounds": 3, "format": "round-robin"},
    )  # fmt: skip
    assert refused.ephemeral and refused.content == (
        "A round-robin's rounds follow from its players (everyone meets everyone once), so leave "
        "`rounds` out; for a set number of rounds choose `format: swiss`."
    )
    made = await fake.slash(
        fake.owner, club, "tournament", "create",
        {"game": "blockwars", "days": 1, "format": "round-robin", "signup_days": 2, "name": "Circle"},
        messages=2,
    )  # fmt: skip
    listed = made.messages[1].content
    assert listed.startswith(
        "**Circle**: a round-robin of Block Wars: everyone plays everyone once, in rounds of 1 day "
        "each; the players at the start set how many rounds. At most 10 players. Level on points: "
        "Sonneborn-Berger (SB), then direct encounter (DE), then wins (W). Sign-ups close at <t:"
    )
    for user in (table.alice, table.bob):
        joined = await fake.slash(user, club, "tournament", "join")
        assert joined.ephemeral and "You are in" in joined.content
    started = await fake.slash(fake.owner, club, "tournament", "start", messages=2)
    await table.idle()
    said = next(m.content for m in started.messages if "has begun" in m.content)
    assert "**Circle** has begun: round 1 of 1" in said
    assert "A round-robin: everyone plays everyone once, with 2 players that is 1 round." in said


@ON_THE_BOT
async def test_a_cap_on_players_and_a_tie_break_order_from_the_form(table: Table) -> None:
    fake, club = table.fake, table.channel()
    made = await fake.slash(
        fake.owner, club, "tournament", "create",
        {"game": "blockwars", "days": 1, "rounds": 1, "max_players": 2, "tiebreaks": "wins", "name": "Pair"},
        messages=2,
    )  # fmt: skip
    assert made.messages[1].content.startswith(
        "**Pair**: a Swiss tournament of Block Wars, 1 round of 1 day each. At most 2 players. Level on "
        "points: wins (W), then Buchholz (Bh), then Sonneborn-Berger (SB)."
    )
    for user in (table.alice, table.bob):
        await fake.slash(user, club, "tournament", "join")
    full = await fake.slash(fake.owner, club, "tournament", "join")
    assert full.ephemeral and full.content == (
        "**Pair** is full: it takes at most 2 players. Ask an organiser if a place comes free."
    )


@ON_THE_BOT
async def test_an_organiser_extends_the_round_and_its_messages_say_the_new_end(table: Table) -> None:
    fake, club = table.fake, table.channel()
    await fake.slash(
        fake.owner, club, "tournament", "create",
        {"game": "blockwars", "days": 1, "rounds": 1, "name": "Slow"},
        messages=2,
    )  # fmt: skip
    early = await fake.slash(fake.owner, club, "tournament", "extend", {"hours": 24})
    assert early.ephemeral and early.content == "**Slow** has not started yet: no game is going on."
    for user in (table.alice, table.bob):
        await fake.slash(user, club, "tournament", "join")
    started = await fake.slash(fake.owner, club, "tournament", "start", messages=2)
    await table.idle()
    announced = next(m for m in started.messages if "has begun" in m.content)
    (thread,) = [c for c in fake.channels.values() if c.is_thread and c.parent_id == club.id]
    first = fake.messages_in(thread)[0]
    player = await fake.slash(table.alice, club, "tournament", "extend", {"hours": 24})
    assert player.ephemeral and player.content.startswith("Only members who can manage the server")
    done = await fake.slash(fake.owner, thread, "tournament", "extend", {"hours": 24})
    # asked in the game's thread: answered there privately, the channel told without a ping
    reply, said = done.messages
    assert reply.ephemeral and said.channel_id == club.id and not said.ephemeral
    end = re.search(r"it now ends (<t:(\d+):R> \(<t:\2:f>\))\.", said.content)
    assert end is not None and said.content == (
        f"<@{fake.owner.id}> extended round 1 of **Slow** by 1 day: it now ends {end[1]}. Both "
        "players of the game still going have 12 hours more on their game clocks. Results already in stand."
    )
    assert said.notified == []
    await table.idle()
    # the round's announcement and the game's first message state the new end
    assert f"round 1 of 1, ends {end[1]}." in announced.content
    assert f"The round ends {end[1]};" in first.content


@ON_THE_BOT
async def test_a_round_robin_forfeit_win_is_said_as_one_in_the_channel_and_by_dm(table: Table) -> None:
    fake, club = table.fake, table.channel()
    carol = fake.add_user("carol")
    trio = {u.id: u for u in (table.alice, table.bob, carol)}
    await fake.slash(
        fake.owner, club, "tournament", "create",
        {"game": "blockwars", "days": 1, "format": "round-robin", "name": "Trio"},
        messages=2,
    )  # fmt: skip
    for user in trio.values():
        await fake.slash(user, club, "wargames", "notify", {"enabled": True})
        await fake.slash(user, club, "tournament", "join")
    await fake.slash(fake.owner, club, "tournament", "start", messages=2)
    await table.idle()
    store = TournamentStore(table.bot.database)
    tournament = await store.channel_tournament(club.id)
    assert tournament is not None
    people = entrants(await store.tournament_entries(tournament.id))
    (game,) = [b for b in await store.tournament_boards(tournament.id) if b.second_id is not None]
    # a player of round 1's game, who meets the round's bye in round 2, is removed: their game of
    # round 1 plays on and counts, so their results stand and their round 2 is lost by forfeit
    assert game.second_id is not None
    gone = next(u for u in (game.first_id, game.second_id) if scheduled(people, 2, u) is not None)
    winner = scheduled(people, 2, gone)
    assert winner is not None
    await fake.slash(fake.owner, club, "tournament", "remove", {"member": trio[gone]}, messages=2)
    (thread,) = [c for c in fake.channels.values() if c.is_thread and c.parent_id == club.id]
    await play_out(fake, table.bot, thread, "first wins")
    cog = table.bot.get_cog("Tournaments")
    marked = cog.service.announced

    async def crashed(_: object) -> None:
        """The bot went down after the round's post and DMs, before the round was marked announced."""

    cog.service.announced = crashed
    await sweep(table.bot)
    await table.idle()
    cog.service.announced = marked  # back up: the round is swept again
    await sweep(table.bot)
    await table.idle()
    posted = [m.content for m in fake.messages_in(club) if "round 1 of 3 is over" in m.content]
    assert len(posted) == 1, posted  # once, though its sweep ran twice
    assert f"<@{winner}> wins by forfeit against <@{gone}>, who has withdrawn." in posted[0]
    assert posted[0].count("has a bye (a win) this round.") == 1  # the player sitting out; it said two
    told = [m.content for m in fake.dms_to(trio[winner]) if "by forfeit" in m.content]
    assert len(told) == 1 and told[0].startswith(
        f"<@{gone}> has withdrawn from **Trio**, so you win your game of round 2 against them by "
        "forfeit: you have no game to play this round. Round 3 is paired once this one ends. https://"
    )


@ON_THE_BOT
async def test_a_knockout_of_three_on_discord_a_drawn_semi_final_and_a_final(table: Table) -> None:
    """Three players, seeded by rating (the module's earlier games may have moved Alice's and
    Bob's): seed 1 has the bye, seeds 2 and 3 draw, so seed 2, the higher, goes on and seed 3 is
    out; the final names the winner and the runner-up; the standings show the bracket; the
    crosstable and the export answer."""
    fake, club = table.fake, table.channel()
    carol = fake.add_user("carol")
    made = await fake.slash(
        fake.owner, club, "tournament", "create",
        {"game": "blockwars", "days": 1, "format": "knockout", "name": "Cup"},
        messages=2,
    )  # fmt: skip
    assert made.messages[1].content.startswith(
        "**Cup**: a knockout of Block Wars: seeded by rating, the winner of each game goes on, in "
        "rounds of 1 day each; the players at the start set how many rounds. A drawn game (or one "
        "still going when its round ends) sends the higher seed on, so a lower seed must win."
    )
    assert "At most" not in made.messages[1].content  # the knockout's own 64 only near it
    alice = table.alice
    for user in (alice, table.bob, carol):
        await fake.slash(user, club, "tournament", "join")
    started = await fake.slash(fake.owner, club, "tournament", "start", messages=2)
    await table.idle()
    store = TournamentStore(table.bot.database)
    cup = await store.channel_tournament(club.id)
    assert cup is not None
    top, second, third = knockout.seeded(entrants(await store.tournament_entries(cup.id)))
    said = next(m.content for m in started.messages if "has begun" in m.content)
    assert "**Cup** has begun: round 1 of 2" in said
    assert f"<@{top}> has a bye (a win) this round." in said
    late = await fake.slash(fake.add_user("dave"), club, "tournament", "join")
    assert late.ephemeral and "is a knockout and has begun" in late.content
    (semi,) = [c for c in fake.channels.values() if c.is_thread and c.parent_id == club.id]
    opening = fake.messages_in(semi)[0].content  # the game's own thread says what a draw does
    assert "stopped and counts as a draw, which sends the higher seed on." in opening, opening
    await play_out(fake, table.bot, semi, "draw")
    # the board with the offer standing names whom the draw sends on (the rule was said days ago)
    offered = [m.content for m in fake.messages_in(semi) if "the draw with the button" in m.content]
    assert offered and all(
        f"In this knockout a draw sends <@{second}> on, as the higher seed." in m for m in offered
    ), offered
    await sweep(table.bot)
    await table.idle()
    (posted,) = [m.content for m in fake.messages_in(club) if "round 1 of 2 is over" in m.content]
    assert f"Out in the semi-finals: <@{third}> is knocked out." in posted
    assert "\nThe final (round 2) ends <t:" in posted and f"<@{top}> v <@{second}>" in posted
    standings = await fake.slash(alice, club, "tournament", "standings")
    drawn = standings.message.attachment("bracket.png").data  # the bracket is its picture
    assert drawn[:8] == b"\x89PNG\r\n\x1a\n"
    assert standings.content.endswith(
        f"The semi-finals: <@{top}> had a bye; <@{second}> drew with <@{third}> and went on "
        f"as the higher seed.\nThe final: <@{top}> v <@{second}>, still playing.\n"
        f"Still in: <@{top}> and <@{second}>."
    )
    (final,) = [c for c in fake.channels.values() if c.is_thread and c.parent_id == club.id and c is not semi]
    await play_out(fake, table.bot, final, "first wins")
    await sweep(table.bot)
    await table.idle()
    (over,) = [m.content for m in fake.messages_in(club) if "is over after 2 rounds" in m.content]
    assert over.startswith(
        f"**Cup** is over after 2 rounds: <@{top}> wins it, beating <@{second}> in the final; "
        f"<@{second}> is the runner-up. Congratulations!"
    )
    cross = (await fake.slash(alice, club, "tournament", "crosstable")).message
    assert not cross.ephemeral and cross.content == "**Cup**, the crosstable after round 2 of 2."
    assert cross.attachment("crosstable.png").data[:8] == b"\x89PNG\r\n\x1a\n"
    export = (await fake.slash(alice, club, "tournament", "export")).message
    assert export.ephemeral
    (ranks,) = [a for a in export.attachments if a.filename.endswith("-standings.csv")]
    ranked = [(r["rank"], r["user_id"]) for r in csv.DictReader(io.StringIO(ranks.data.decode()))]
    assert ranked == [("1", str(top)), ("2", str(second)), ("3", str(third))]


@ON_THE_BOT
async def test_a_player_who_left_the_server_before_the_start_is_not_paired(table: Table) -> None:
    """RULES.md "Leaving": the bot checks the members when it pairs a round, round 1 too; one who
    left the server after signing up is off the list at the start, and nobody waits on them."""
    fake, club = table.fake, table.channel()
    await fake.slash(
        fake.owner, club, "tournament", "create", {"game": "blockwars", "days": 1, "rounds": 1}, messages=2
    )
    dana = fake.add_user("dana", guilds=[table.guild])
    for user in (table.alice, table.bob, dana):
        assert "You are in" in (await fake.slash(user, club, "tournament", "join")).content
    del table.guild.members[dana.id]
    started = await fake.slash(fake.owner, club, "tournament", "start", messages=2)
    await table.idle()
    said = next(m.content for m in started.messages if "has begun" in m.content)
    assert f"<@{dana.id}>" not in said and "bye" not in said
    tournament = await TournamentStore(table.bot.database).channel_tournament(club.id)
    assert tournament is not None
    (board,) = await TournamentStore(table.bot.database).tournament_boards(tournament.id)
    assert {board.first_id, board.second_id} == {table.alice.id, table.bob.id}

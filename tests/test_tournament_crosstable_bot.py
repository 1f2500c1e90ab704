"""`/tournament crosstable` and `export` through the fake Discord, on the module's one bot: a
refusal before the start (private, friendly), then a one-round tournament played to its end: the
crosstable posted in the channel as a picture that decodes at the phone's width, the export given to
the asker alone as two CSV files that parse back. Then a server's past tournaments: `past`, and an
earlier one read by its number, where the member may look."""

from __future__ import annotations

import csv
import io
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from PIL import Image

from render.crosstable import WIDTH
from tests.onebot import ON_THE_BOT, Table, one_bot


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def table(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Table]:
    async with one_bot(tmp_path_factory.mktemp("crosstable"), "Crosstable") as world:
        yield world


@ON_THE_BOT
async def test_the_crosstable_and_the_export_on_discord(table: Table) -> None:
    fake, club = table.fake, table.channel()
    made = await fake.slash(
        fake.owner, club, "tournament", "create",
        {"game": "blockwars", "rounds": 1, "days": 1, "name": "Ladder"}, messages=2,
    )  # fmt: skip
    assert "Ladder" in made.messages[1].content
    early = await fake.slash(table.alice, club, "tournament", "crosstable")
    assert early.ephemeral and early.content == (
        "**Ladder** has not started yet: its crosstable begins with round 1's pairings. "
        "`/tournament standings` shows who has signed up."
    )
    early = await fake.slash(table.bob, club, "tournament", "export")
    assert early.ephemeral and "there is no game to export" in early.content
    for user in (table.alice, table.bob):
        joined = await fake.slash(user, club, "tournament", "join")
        assert joined.ephemeral and "You are in" in joined.content
    await fake.slash(fake.owner, club, "tournament", "start", messages=2)
    await table.idle()
    (thread,) = [c for c in fake.channels.values() if c.is_thread and c.parent_id == club.id]
    match, _ = await table.bot.service.current(thread.id)
    await fake.slash(table.alice, thread, "blockwars", "resign")
    await table.bot.get_cog("Tournaments").run_sweep()  # the round, and the tournament, are over

    shown = await fake.slash(table.bob, club, "tournament", "crosstable")
    post = shown.message
    assert not post.ephemeral and post.content == "**Ladder**, the crosstable after round 1 of 1."
    image = Image.open(io.BytesIO(post.attachment("crosstable.png").data))
    image.load()
    assert image.width == WIDTH and 200 < image.height < image.width

    given = await fake.slash(table.alice, club, "tournament", "export")
    answer = given.message
    assert answer.ephemeral and answer.content.startswith("**Ladder**, the final results: 1 game.")
    games = list(csv.DictReader(io.StringIO(answer.attachment("tournament-1-games.csv").data.decode())))
    standings = list(
        csv.DictReader(io.StringIO(answer.attachment("tournament-1-standings.csv").data.decode()))
    )
    assert [(g["round"], g["ended"], g["reason"]) for g in games] == [("1", "played", "resignation")]
    (game,) = games
    winner = str(table.bob.id)
    assert game["result"] == ("1-0" if game["first_id"] == winner else "0-1")
    assert game["game_no"] == str(match.id)
    assert [(s["rank"], s["user_id"], s["points"]) for s in standings] == [
        ("1", winner, "1"),
        ("2", str(table.alice.id), "0"),
    ]
    assert {s["player"] for s in standings} == {table.alice.global_name, table.bob.global_name}


@ON_THE_BOT
async def test_past_tournaments_are_listed_and_read_by_number_only_where_the_member_can_look(
    table: Table,
) -> None:
    """Once a channel holds its next tournament, the last one's standings, crosstable and export were
    out of reach. `past` lists the server's tournaments with their winners, and a `tournament:`
    number (autocompleted) reads an earlier one. A tournament in a channel closed to the asker is
    neither listed nor offered, and its number answers as one that does not exist, as another
    server's does; a channel the bot can no longer fetch (deleted) counts as unseen by everyone.
    Another channel's tournament is answered to the asker alone."""
    fake, owner = table.fake, table.fake.owner
    carol = fake.add_user("carol", guilds=[table.guild])
    cog = table.bot.get_cog("Tournaments")
    club, lobby = table.channel(), table.guild.channel("lobby")
    made = {"game": "blockwars", "rounds": 1, "days": 1, "name": "Spring Swiss"}
    await fake.slash(owner, club, "tournament", "create", made, messages=2)
    for user in (table.alice, table.bob):
        await fake.slash(user, club, "tournament", "join")
    await fake.slash(owner, club, "tournament", "start", messages=2)
    await table.idle()
    (thread,) = [c for c in fake.channels.values() if c.is_thread and c.parent_id == club.id]
    await fake.slash(table.alice, thread, "blockwars", "resign")
    await cog.run_sweep()  # Bob won; the club's next tournament opens
    spring = await cog.service.latest_in(club.id)
    await fake.slash(owner, club, "tournament", "create", {**made, "name": "Summer"}, messages=2)
    staff = fake.add_channel(table.guild, "staff")
    fake.close_channel(staff, table.alice)
    await fake.slash(owner, staff, "tournament", "create", {**made, "name": "Secret Cup"}, messages=2)
    secret = await cog.service.latest_in(staff.id)
    elsewhere = await cog.service.create(  # another server's, by the service: its number is known
        guild_id=1, channel_id=2, user_id=3, game="blockwars", rounds=1, days=1, organiser=True
    )
    await cog.service.seal_shown(elsewhere)
    await cog.service.set_message(elsewhere, 4)
    await table.idle()

    listed = await fake.slash(carol, lobby, "tournament", "past")
    assert listed.ephemeral, listed.content
    lines = listed.content.splitlines()
    assert lines[0] == "This server's tournaments, newest first:"
    assert lines[1].startswith(f"No. {spring.id + 1} **Summer** (Block Wars, Swiss) in <#{club.id}>: taking")
    assert lines[2].startswith(
        f"No. {spring.id} **Spring Swiss** (Block Wars) in <#{club.id}>: won by <@{table.bob.id}>; ended <t:"
    )
    assert lines[-1] == (  # the module's first test's tournament (No. 1) is listed on line 3
        f"Give a number as `tournament:` to `standings`, `crosstable`, `export` or `round`, e.g. "
        f"`/tournament standings tournament:{spring.id}`."
    )
    assert len(lines) == 5 and "Secret" not in listed.content
    offered = await fake.autocomplete(
        carol, lobby, "tournament", "export", {"tournament": ""}, focused="tournament"
    )
    assert [(c["name"], c["value"]) for c in offered][:2] == [
        (f"No. {spring.id + 1} Summer: taking sign-ups", spring.id + 1),
        (f"No. {spring.id} Spring Swiss: finished", spring.id),
    ]
    assert secret.id not in [c["value"] for c in offered]
    typed = await fake.autocomplete(
        carol, lobby, "tournament", "standings", {"tournament": "spr"}, focused="tournament"
    )
    assert [c["value"] for c in typed] == [spring.id]
    for number in (secret.id, elsewhere.id, 999):  # closed to her, another server's, none: one answer
        refused = await fake.slash(carol, lobby, "tournament", "standings", {"tournament": number})
        assert refused.ephemeral and refused.content == (
            f"There is no tournament with the number {number} here: `/tournament past` lists "
            "this server's tournaments with their numbers."
        )

    # Alice may view the staff channel: its tournament is listed for her
    mine = await fake.slash(table.alice, lobby, "tournament", "past")
    assert (
        f"No. {secret.id} **Secret Cup** (Block Wars, Swiss) in <#{staff.id}>: taking sign-ups"
        in mine.content
    )
    # The club's latest is Summer; Spring's standings by number, in the club for all, elsewhere privately
    latest = await fake.slash(table.alice, club, "tournament", "standings")
    assert latest.content == "**Summer** has not started yet." and not latest.ephemeral
    there = await fake.slash(table.alice, club, "tournament", "standings", {"tournament": spring.id})
    assert not there.ephemeral and there.content == "**Spring Swiss**, the standings after round 1 of 1."
    away = await fake.slash(table.alice, lobby, "tournament", "standings", {"tournament": spring.id})
    assert away.ephemeral and away.content == there.content  # not posted in a channel not the tournament's
    here = await fake.slash(table.alice, lobby, "tournament", "crosstable", {"tournament": spring.id})
    assert here.ephemeral and here.content == "**Spring Swiss**, the crosstable after round 1 of 1."
    assert here.message.attachment("crosstable.png").data.startswith(b"\x89PNG")
    given = await fake.slash(carol, lobby, "tournament", "export", {"tournament": spring.id})
    assert given.ephemeral and given.message.attachment(f"tournament-{spring.id}-games.csv").data
    # `round` takes a number too (it could not, while it was `/wargames tournament round`)
    last = await fake.slash(carol, lobby, "tournament", "round", {"tournament": spring.id})
    assert last.ephemeral and last.content.startswith(
        f"**Spring Swiss** is over; its last round was round 1 of 1.\n"
        f"1. <@{table.bob.id}> v <@{table.alice.id}>"
    ), last.content
    hidden = await fake.slash(carol, lobby, "tournament", "round", {"tournament": secret.id})
    assert hidden.ephemeral and hidden.content.startswith(
        f"There is no tournament with the number {secret.id}"
    )

    del table.guild.channels[staff.id], fake.channels[staff.id]  # deleted: nobody sees it now
    gone = await fake.slash(table.alice, lobby, "tournament", "past")
    assert "Secret" not in gone.content

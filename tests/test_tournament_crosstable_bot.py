"""`/wargames tournament crosstable` and `export` through the fake Discord, on the module's one bot: a
refusal before the start (private, friendly), then a one-round tournament played to its end: the
crosstable posted in the channel as a picture that decodes at the phone's width, the export given to
the asker alone as two CSV files that parse back."""

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
        fake.owner, club, "wargames", "tournament", "create",
        {"game": "blockwars", "rounds": 1, "days": 1, "name": "Ladder"}, messages=2,
    )  # fmt: skip
    assert "Ladder" in made.messages[1].content
    early = await fake.slash(table.alice, club, "wargames", "tournament", "crosstable")
    assert early.ephemeral and early.content == (
        "**Ladder** has not started yet: its crosstable begins with round 1's pairings. "
        "`/wargames tournament standings` shows who has signed up."
    )
    early = await fake.slash(table.bob, club, "wargames", "tournament", "export")
    assert early.ephemeral and "there is no game to export" in early.content
    for user in (table.alice, table.bob):
        joined = await fake.slash(user, club, "wargames", "tournament", "join")
        assert joined.ephemeral and "You are in" in joined.content
    await fake.slash(fake.owner, club, "wargames", "tournament", "start", messages=2)
    await table.idle()
    (thread,) = [c for c in fake.channels.values() if c.is_thread and c.parent_id == club.id]
    match, _ = await table.bot.service.current(thread.id)
    await fake.slash(table.alice, thread, "blockwars", "resign")
    await table.bot.get_cog("Tournaments").run_sweep()  # the round, and the tournament, are over

    shown = await fake.slash(table.bob, club, "wargames", "tournament", "crosstable")
    post = shown.message
    assert not post.ephemeral and post.content == "**Ladder**, the crosstable after round 1 of 1."
    image = Image.open(io.BytesIO(post.attachment("crosstable.png").data))
    image.load()
    assert image.width == WIDTH and 200 < image.height < image.width

    given = await fake.slash(table.alice, club, "wargames", "tournament", "export")
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

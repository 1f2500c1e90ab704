"""A tournament's own settings through the fake Discord, on the module's one bot: a round-robin made
from the create form's choices, its refusal of `rounds`, its start saying how many rounds; and a cap
on players refusing the next sign-up privately, with a tie-break order chosen from the list."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from tests.onebot import ON_THE_BOT, Table, one_bot


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def table(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Table]:
    async with one_bot(tmp_path_factory.mktemp("formats"), "Formats") as world:
        yield world


@ON_THE_BOT
async def test_a_round_robin_made_and_started_on_discord(table: Table) -> None:
    fake, club = table.fake, table.channel()
    refused = await fake.slash(
        fake.owner, club, "wargames", "tournament", "create",
        {"game": "blockwars", "days": 1, "rounds": 3, "format": "round-robin"},
    )  # fmt: skip
    assert refused.ephemeral and refused.content == (
        "A round-robin's rounds follow from its players (everyone meets everyone once), so leave "
        "`rounds` out; for a set number of rounds choose `format: swiss`."
    )
    made = await fake.slash(
        fake.owner, club, "wargames", "tournament", "create",
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
        joined = await fake.slash(user, club, "wargames", "tournament", "join")
        assert joined.ephemeral and "You are in" in joined.content
    started = await fake.slash(fake.owner, club, "wargames", "tournament", "start", messages=2)
    await table.idle()
    said = next(m.content for m in started.messages if "has begun" in m.content)
    assert "**Circle** has begun: round 1 of 1" in said
    assert "A round-robin: everyone plays everyone once, with 2 players that is 1 round." in said


@ON_THE_BOT
async def test_a_cap_on_players_and_a_tie_break_order_from_the_form(table: Table) -> None:
    fake, club = table.fake, table.channel()
    made = await fake.slash(
        fake.owner, club, "wargames", "tournament", "create",
        {"game": "blockwars", "days": 1, "rounds": 1, "max_players": 2, "tiebreaks": "wins", "name": "Pair"},
        messages=2,
    )  # fmt: skip
    assert made.messages[1].content.startswith(
        "**Pair**: a Swiss tournament of Block Wars, 1 round of 1 day each. At most 2 players. Level on "
        "points: wins (W), then Buchholz (Bh), then Sonneborn-Berger (SB)."
    )
    for user in (table.alice, table.bob):
        await fake.slash(user, club, "wargames", "tournament", "join")
    full = await fake.slash(fake.owner, club, "wargames", "tournament", "join")
    assert full.ephemeral and full.content == (
        "**Pair** is full: it takes at most 2 players. Ask an organiser if a place comes free."
    )


@ON_THE_BOT
async def test_an_organiser_extends_the_round_and_its_messages_say_the_new_end(table: Table) -> None:
    fake, club = table.fake, table.channel()
    await fake.slash(
        fake.owner, club, "wargames", "tournament", "create",
        {"game": "blockwars", "days": 1, "rounds": 1, "name": "Slow"},
        messages=2,
    )  # fmt: skip
    early = await fake.slash(fake.owner, club, "wargames", "tournament", "extend", {"hours": 24})
    assert early.ephemeral and early.content == "**Slow** has not started yet: no game is going on."
    for user in (table.alice, table.bob):
        await fake.slash(user, club, "wargames", "tournament", "join")
    started = await fake.slash(fake.owner, club, "wargames", "tournament", "start", messages=2)
    await table.idle()
    announced = next(m for m in started.messages if "has begun" in m.content)
    (thread,) = [c for c in fake.channels.values() if c.is_thread and c.parent_id == club.id]
    first = fake.messages_in(thread)[0]
    player = await fake.slash(table.alice, club, "wargames", "tournament", "extend", {"hours": 24})
    assert player.ephemeral and player.content.startswith("Only members who can manage the server")
    done = await fake.slash(fake.owner, thread, "wargames", "tournament", "extend", {"hours": 24})
    # asked in the game's thread: answered there privately, the channel told without a ping
    reply, said = done.messages
    assert reply.ephemeral and said.channel_id == club.id and not said.ephemeral
    end = re.search(r"it now ends (<t:\d+:R>)\.", said.content)
    assert end is not None and said.content == (
        f"<@{fake.owner.id}> extended round 1 of **Slow** by 1 day: it now ends {end[1]}. Both "
        "players of the game still going have 12 hours more on their game clocks. Results already in stand."
    )
    assert said.notified == []
    await table.idle()
    # the round's announcement and the game's first message state the new end
    assert f"round 1 of 1, ends {end[1]}." in announced.content
    assert f"The round ends {end[1]};" in first.content

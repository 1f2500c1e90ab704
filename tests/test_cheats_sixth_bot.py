"""The sixth review through Discord (docs/fairness.md, "the sixth review"): a member's `stats` and
the leaderboard, asked by a member who cannot view the channel or the private thread a game was
played in, leave that game out; Discord's own permissions (overwrites, a private thread's members)
decide, as the bot reads them. One bot serves the module."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from tests.fakediscord.records import PRIVATE_THREAD
from tests.onebot import ON_THE_BOT, Table, one_bot


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def table(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Table]:
    async with one_bot(tmp_path_factory.mktemp("sixth"), "Sixth") as world:
        world.carol = world.fake.add_user("carol", guilds=[world.guild])  # type: ignore[attr-defined]
        yield world


async def bob_resigns_to_alice(table: Table, channel: Any) -> None:
    """Alice challenges Bob in `channel`, he accepts and resigns: a rated win for her there."""
    await table.fake.slash(table.alice, channel, "blockwars", "challenge", {"opponent": table.bob})
    await table.fake.slash(table.bob, channel, "blockwars", "accept")
    await table.fake.slash(table.bob, channel, "blockwars", "resign")
    await table.idle()


async def said(table: Table, user: Any, *path: Any) -> str:
    lobby = table.guild.channel("lobby")
    answer = await table.fake.slash(user, lobby, *path)
    return str(answer.message.content)


@ON_THE_BOT
async def test_a_game_in_a_channel_or_thread_a_member_cannot_view_is_not_in_their_listings(
    table: Table,
) -> None:
    """Alice beats Bob in a channel closed to all but them, then in a private thread of the lobby.
    Carol, who sees neither, asked Alice's `stats` and the leaderboard and learnt of each game's
    end the moment it came (and whether Alice won). Now both read as before those games, for
    her; Alice reads her own record whole; and once Carol is added to the thread, its game counts
    for her too. A channel since deleted is seen by nobody but its games' players."""
    carol = table.carol  # type: ignore[attr-defined]
    staff = table.fake.add_channel(table.guild, "staff")
    table.fake.close_channel(staff, table.alice, table.bob)
    await bob_resigns_to_alice(table, staff)
    lobby = table.guild.channel("lobby")
    secret = table.fake.add_thread(lobby, "secret", owner=table.alice, thread_type=PRIVATE_THREAD)
    secret.members |= {table.alice.id, table.bob.id, table.fake.bot_user.id}
    await bob_resigns_to_alice(table, secret)

    stats = ("blockwars", "stats", {"member": table.alice})
    mine = await said(table, table.alice, *stats)
    assert "2 won, 0 lost, 0 drawn" in mine, mine
    hers = await said(table, carol, *stats)
    assert "0 won, 0 lost, 0 drawn; rating 1200" in hers, hers
    board = await said(table, carol, "blockwars", "leaderboard")
    assert board == "No finished Block Wars games yet.", board
    full = await said(table, table.bob, "blockwars", "leaderboard")
    assert f"<@{table.alice.id}>" in full and "(2-0-0)" in full, full

    secret.members.add(carol.id)  # added to the thread: its game is hers to see
    hers = await said(table, carol, *stats)
    assert "1 won, 0 lost, 0 drawn" in hers, hers
    secret.archived = True  # out of the bot's cache: asked of Discord, the same answer
    assert await said(table, carol, *stats) == hers

    owner = table.fake.owner  # sees every channel: the whole record, until one is deleted
    assert "2 won, 0 lost" in await said(table, owner, *stats)
    del table.guild.channels[staff.id], table.fake.channels[staff.id]
    assert "1 won, 0 lost" in await said(table, owner, *stats)  # nobody sees a deleted channel
    assert "2 won, 0 lost" in await said(table, table.alice, *stats)  # but its players


def forged(message: Any, old: str, new: str) -> None:
    """What a client that edits custom_ids sends: `message`'s button `old` carrying `new` instead."""
    for comp in message.iter_components():
        if comp.get("custom_id") == old:
            comp["custom_id"] = new


@ON_THE_BOT
async def test_a_tournament_button_forged_with_another_channels_tournament_is_refused(table: Table) -> None:
    """A tournament's buttons carry its id, and ids count up. A member forging a Join with the id of
    a tournament in a channel closed to them (or in another server) signed up to it unseen, and
    Stay in, clicked anywhere, answered with any tournament's name. A button now acts only for the
    tournament of the channel it is clicked in (or of the game thread's channel); another answers as
    no tournament, and nothing changes."""
    fake, owner, carol = table.fake, table.fake.owner, table.carol  # type: ignore[attr-defined]
    hidden = fake.add_channel(table.guild, "council")
    fake.close_channel(hidden, table.alice)
    await fake.slash(
        owner,
        hidden,
        "tournament",
        "create",
        {"game": "blockwars", "rounds": 1, "days": 2, "name": "Secret Cup"},
    )
    club = fake.add_channel(table.guild, "club")
    await fake.slash(owner, club, "tournament", "create", {"game": "blockwars", "rounds": 1, "days": 2})
    await table.idle()
    core = table.bot.get_cog("Tournaments")
    secret = await core.service.open_in(hidden.id)
    ours = await core.service.open_in(club.id)
    (listed,) = [m for m in fake.messages_in(club) if any(c.startswith("bw:tjoin:") for c in m.custom_ids)]
    for verb in ("join", "stay"):
        forged(listed, f"bw:t{'join' if verb == 'join' else 'leave'}:{ours.id}", f"bw:t{verb}:{secret.id}")
        answer = await fake.click(carol, listed, f"bw:t{verb}:{secret.id}")
        assert answer.ephemeral and answer.content == "This button belongs to no tournament of this channel."
        assert "Secret Cup" not in answer.content
    assert await core.service.entries(secret) == []

"""An organiser's evening through the fake Discord, on SQLite and on PostgreSQL (RULES.md "Late
entry", "A no-show", "Leaving"): a latecomer presses Join after the start and plays from round 2;
the organiser ends a no-show's game (both players told in its thread, the organiser privately),
removes a player by mistake and puts them back; round 2 pairs the latecomer."""

from __future__ import annotations

from bot import WargamesBot
from data.tournaments import TournamentStore
from tests.fakediscord import FakeDiscord
from tests.test_tournament_bot import (  # noqa: F401 (the `bot` fixture)
    bot,
    create_and_fill,
    play_out,
    setup_club,
    sweep,
    threads_of,
    until,
)


async def test_late_entry_a_no_show_ended_and_a_removal_undone(
    fake_discord: FakeDiscord,
    start_bot,
    bot: WargamesBot,  # noqa: F811
):
    fake = fake_discord
    guild, club, players = await setup_club(fake, 5)
    late = players[-1]
    await start_bot(bot)
    signup = await create_and_fill(fake, bot, club, players[:-1], "Club")
    # two players asked for DMs; one of them has closed their DMs since
    for user in players[:2]:
        await fake.slash(user, club, "wargames", "notify", {"enabled": True})
    fake.dms_closed.add(players[1].id)
    await fake.slash(fake.owner, club, "tournament", "start", messages=3)
    assert bot.database is not None
    tournaments = TournamentStore(bot.database)
    tournament = await tournaments.channel_tournament(club.id)
    assert tournament is not None
    await until(lambda: len(threads_of(fake, club)) == 2)
    # a DM to whoever asked for them, with a link to their game's first message; closed DMs: nothing
    await until(lambda: bool(fake.dms_to(players[0])))
    (ready,) = fake.dms_to(players[0])
    mine = next(
        b
        for b in await tournaments.tournament_boards(tournament.id)
        if players[0].id in (b.first_id, b.second_id)
    )
    other = mine.second_id if mine.first_id == players[0].id else mine.first_id
    side = "Germans" if mine.first_id == players[0].id else "Canadians"
    assert ready.content.startswith(
        f"Your game of round 1 of **Club** is ready: you play the {side} against <@{other}>, and "
    )
    assert f"https://discord.com/channels/{guild.id}/{mine.thread_id}/" in ready.content
    assert not fake.dms_to(players[1]) and not fake.dms_to(players[2])

    # a latecomer presses Join on the sign-up list: told privately from when they play, the channel
    # in one line (nobody pinged)
    join_id = next(c for c in signup.custom_ids if c.startswith("bw:tjoin:"))
    joined = await fake.click(late, signup, join_id)
    reply, said = joined.messages
    assert reply.ephemeral and reply.content.startswith(
        "You are in **Club** from round 2 of 3. You missed round 1"
    )
    assert not said.ephemeral and said.channel_id == club.id
    assert said.content == (
        f"<@{late.id}> joined **Club** late: they play from round 2, and round 1, which they missed, "
        "counts 0 points."
    )
    await until(lambda: "Players (5):" in signup.content)

    # the organiser ends a no-show's game: privately answered, both players told in the thread
    boards = [b for b in await tournaments.tournament_boards(tournament.id) if b.round == 1]
    first, second = boards
    match, state = await bot.service.current(first.thread_id or 0)
    assert state is not None
    absent = match.sides[sorted(state.to_act())[0]]
    present = match.other_player(absent)
    users = {u.id: u for u in players}
    thread = next(c for c in threads_of(fake, club) if c.id == first.thread_id)
    nope = await fake.slash(users[present], club, "tournament", "forfeit", {"member": users[absent]})
    assert nope.ephemeral and "Only members who can manage the server" in nope.content
    ended = await fake.slash(fake.owner, club, "tournament", "forfeit", {"member": users[absent]})
    reply, told, going = ended.messages
    assert reply.ephemeral
    assert reply.content.startswith(f"<@{present}> wins their game of round 1 against <@{absent}>")
    assert told.channel_id == going.channel_id == thread.id and not told.ephemeral
    assert told.content.startswith(
        f"<@{fake.owner.id}>, an organiser, ended this game: <@{absent}> has made no move in it, so "
        f"<@{present}> wins, as on time"
    )
    assert told.attachment("board.png") is not None
    assert set(told.notified) == {absent, present}  # the players; the organiser is named, not pinged
    assert "1 game is still going in round 1 of 3" in going.content  # the sweep ran at once
    again = await fake.slash(fake.owner, thread, "tournament", "forfeit", {"member": users[absent]})
    assert again.ephemeral and "is over already" in again.content

    # a removal by mistake, undone: the channel is told they are back and their game plays on
    target = users[second.first_id]
    removed = await fake.slash(fake.owner, club, "tournament", "remove", {"member": target})
    said, hint = removed.messages
    assert not said.ephemeral and said.content.startswith(f"<@{fake.owner.id}> removed <@{target.id}>")
    assert hint.ephemeral and hint.content.startswith(
        f"Removed <@{target.id}> by mistake? `/tournament reinstate`"
    )
    back = await fake.slash(fake.owner, club, "tournament", "reinstate", {"member": target})
    assert not back.ephemeral and back.content == (
        f"<@{fake.owner.id}> put <@{target.id}> back into **Club**: they are paired again from round 2. "
        f"Their game of round 1 with <@{second.second_id}> plays on in <#{second.thread_id}>."
    )
    entries = {e.user_id: e for e in await tournaments.tournament_entries(tournament.id)}
    assert not entries[target.id].withdrawn and entries[late.id].joined_round == 1

    # the last game ends: round 2 pairs all five, the latecomer among them
    last = next(c for c in threads_of(fake, club) if c.id == second.thread_id)
    await play_out(fake, bot, last, "first wins")
    await sweep(bot)
    round2 = [b for b in await tournaments.tournament_boards(tournament.id) if b.round == 2]
    assert late.id in {u for b in round2 for u in (b.first_id, b.second_id)}
    assert guild is not None

"""Managing a running tournament through the fake Discord, on SQLite and on PostgreSQL: the round's
view, a player withdrawing (asked privately with buttons, then the channel told), an organiser
removing a player and the refusals, the next round paired without them, and the standings picture
that marks them."""

from __future__ import annotations

from bot import WargamesBot
from data.tournaments import TournamentStore
from tests.fakediscord import FakeDiscord
from tests.test_tournament_bot import (  # noqa: F401 (the `bot` fixture)
    bot,
    create_and_fill,
    play_out,
    setup_club,
    standings_png,
    sweep,
    threads_of,
    until,
)


async def test_withdraw_remove_and_the_round_view(
    fake_discord: FakeDiscord,
    start_bot,
    bot: WargamesBot,  # noqa: F811
):
    fake = fake_discord
    guild, club, players = await setup_club(fake, 5)
    alice, bob, carol, _dave, _erin = players
    outsider = fake.add_user("zed")
    await start_bot(bot)
    early = await fake.slash(carol, club, "tournament", "round")
    assert early.ephemeral and "This channel has had no tournament" in early.content
    signup = await create_and_fill(fake, bot, club, players, "Five")
    await fake.slash(fake.owner, club, "tournament", "start", messages=3)
    assert bot.database is not None
    tournaments = TournamentStore(bot.database)
    tournament = await tournaments.channel_tournament(club.id)
    assert tournament is not None
    boards = [b for b in await tournaments.tournament_boards(tournament.id) if b.round == 1]
    await until(lambda: len(threads_of(fake, club)) == 2)

    # anyone sees the round privately, nobody pinged
    seen = await fake.slash(outsider, club, "tournament", "round")
    assert seen.ephemeral
    lines = seen.content.splitlines()
    assert lines[0].startswith("**Five**, round 1 of 3: 0 of 2 games over; the round ends <t:")
    assert lines[0].endswith("The first named plays the Germans.")
    for board in boards:
        if board.second_id is None:
            assert f"{board.board}. <@{board.first_id}> has the bye (a win)." in lines
        else:
            line = lines[board.board]
            assert f"<@{board.first_id}> v <@{board.second_id}> in <#{board.thread_id}>: " in line
            # each player's clock for the game: half the round's 2 days (the hand clock stands still)
            clocks = f" to move; clocks: 1 day left for <@{board.first_id}>, 1 day for "
            assert clocks in line and line.endswith(f"<@{board.second_id}>.")

    # a player in a game withdraws (asking in their game's thread): asked privately first, and
    # "Stay in" changes nothing
    mine = next(b for b in boards if b.second_id is not None)
    leaver = next(u for u in players if u.id == mine.first_id)
    thread = next(c for c in threads_of(fake, club) if c.id == mine.thread_id)
    there = await fake.slash(leaver, thread, "tournament", "round")
    assert there.ephemeral and there.content == seen.content
    asked = await fake.slash(leaver, thread, "tournament", "leave")
    assert asked.ephemeral and asked.content.startswith("Withdraw from **Five**?")
    assert f"plays on in <#{mine.thread_id}>" in asked.content
    stay = next(c for c in asked.message.custom_ids if c.startswith("bw:tstay:"))
    await fake.click(leaver, asked.message, stay)
    assert "You are still in **Five**" in asked.message.content and not asked.message.custom_ids
    assert not any(e.withdrawn for e in await tournaments.tournament_entries(tournament.id))
    asked = await fake.slash(leaver, club, "tournament", "leave")
    go = next(c for c in asked.message.custom_ids if c.startswith("bw:twithdraw:"))
    before = len(fake.messages_in(club))
    await fake.click(leaver, asked.message, go)
    assert asked.message.content.startswith("You have withdrawn from **Five**: you will not be paired again.")
    await until(lambda: len(fake.messages_in(club)) > before)
    notice = fake.messages_in(club)[before]
    assert notice.content == (
        f"<@{leaver.id}> has withdrawn from **Five**: they will not be paired again, and their results "
        "stand; their game of this round plays on."
    )
    await until(lambda: f"<@{leaver.id}> (withdrawn)" in signup.content)
    again = await fake.slash(leaver, club, "tournament", "leave")
    assert again.ephemeral and again.content == (
        "You have already withdrawn from this tournament: you will not be paired again."
    )

    # an organiser removes someone; the refusals are private and change nothing
    target = next(u for u in (alice, bob, carol) if u.id != leaver.id)
    nope = await fake.slash(carol, club, "tournament", "remove", {"member": target})
    assert nope.ephemeral and "Only members who can manage the server" in nope.content
    stranger = await fake.slash(fake.owner, club, "tournament", "remove", {"member": outsider})
    assert stranger.ephemeral and stranger.content == f"<@{outsider.id}> is not playing in this tournament."
    removed = await fake.slash(fake.owner, club, "tournament", "remove", {"member": target})
    said, hint = removed.messages  # the channel's line, then the organiser's own way back
    assert not said.ephemeral and hint.ephemeral and "/tournament reinstate" in hint.content
    assert said.content.startswith(f"<@{fake.owner.id}> removed <@{target.id}> from **Five**: ")
    twice = await fake.slash(fake.owner, club, "tournament", "remove", {"member": leaver})
    assert twice.ephemeral and "has already withdrawn, left the server or been removed" in twice.content
    shown = await fake.slash(carol, club, "tournament", "round")
    assert f"<@{leaver.id}> (withdrawn)" in shown.content and f"<@{target.id}> (withdrawn)" in shown.content

    # their games play on and count; round 2 pairs the three left: one game and a bye
    for thread in threads_of(fake, club):
        await play_out(fake, bot, thread, "first wins")
    await sweep(bot)
    round2 = [b for b in await tournaments.tournament_boards(tournament.id) if b.round == 2]
    assert {leaver.id, target.id}.isdisjoint({u for b in round2 for u in (b.first_id, b.second_id)})
    assert len(round2) == 2 and [b.second_id for b in round2].count(None) == 1
    round1 = [b for b in await tournaments.tournament_boards(tournament.id) if b.round == 1]
    assert next(b for b in round1 if b == mine or b.board == mine.board).result == 1.0  # the leaver won
    posted = fake.messages_in(club)[-1]
    assert standings_png(posted).width == 800
    assert guild is not None

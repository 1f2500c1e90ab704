"""The third red team (2026-11-28): a cheating player and a dishonest operator against what landed
that night: the tournament's seal first and the join rule, the round's end corrected in its
messages, and a draw answered off turn with Accept alone (docs/fairness.md, "What a cheater tried:
the third review"). Each hole found has a test here that failed before its fix; each probe that
held has one too."""

from __future__ import annotations

import json
from typing import Any

import discord
import pytest

from bot import WargamesBot
from console.names import GUILD_ID
from data import Database
from data.tournaments import TournamentStore
from engine import fairness
from play import fairness as play_fairness
from play.errors import BadRequest, ServiceError
from play.service import MatchService
from play.tournament import TournamentService
from tests.clock import Clock
from tests.console_run import fresh_console
from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import fake_discord, start_bot  # noqa: F401 (pytest fixtures)
from tests.fakediscord.records import FakeMessage
from tests.ids import button_id
from tests.test_bot import World, battlefronts_accepted, world  # noqa: F401 (pytest fixtures)
from tests.test_cheats_sealed import finished_tournament_game
from tests.test_sealed import snowflake
from tests.test_sealed_tournament import one_round, services
from tests.test_tournament_bot import GAME, bot, setup_club  # noqa: F401 (pytest fixtures)

ALICE, BOB = 11, 12


# ------------------------------------------------------------------ the seal first, and the join rule


async def test_a_sign_up_not_after_the_seal_message_counts_through_no_process(store_world) -> None:
    """A sign-up whose interaction id is not later than the seal's message (a slash command typed
    before the seal came, the same id, one from a second process on the same store) is refused, as
    is one while the seal is owed; nothing of it is stored. A second showing of the seal (a second
    process posting it too, or an operator posting it again once the joins are in) does not replace
    the first: the joins are held against the first, which is the one verify names."""
    db, clock = store_world
    _, t = services(db, clock)
    other = TournamentService(db, services(db, clock)[0], clock=clock)  # a second process
    made = await one_round(t)
    for service in (t, other):  # owed: no sign-up counts, whatever its id
        with pytest.raises(BadRequest, match="count only once its dice seal is shown"):
            await service.join(made, ALICE, entropy=snowflake(clock.now + 3600, 5))
    seal = snowflake(clock.now, 1)
    assert await t.seal_shown(made, seal)
    for service, entropy in ((t, seal - 1), (other, seal), (other, snowflake(clock.now - 1, 9))):
        with pytest.raises(BadRequest, match="came before the dice seal"):
            await service.join(made, ALICE, entropy=entropy)
    assert await t.store.tournament_entries(made.id) == []
    clock.now += 60
    again = snowflake(clock.now, 2)
    assert not await other.seal_shown(made, again)  # shown again later: the first showing counts
    assert (await t.by_id(made.id)).seal_message_id == seal
    between = snowflake(clock.now - 30, 3)  # after the first showing, before the second
    await other.join(made, ALICE, entropy=between)
    (entry,) = await t.store.tournament_entries(made.id)
    assert entry.join_input == str(between)


# ------------------------------------------------------------------ verify, against the operator


@pytest.mark.parametrize("kept", ["nothing", "time"])
async def test_a_tournament_game_whose_discord_joins_no_seal_message_preceded_fails(
    store_world, kept: str
) -> None:
    """The operator draws the tournament's secret once every sign-up is in (it then knows every
    game's dice) and leaves out the seal's message from the record, or the message and its time.
    The bot shows the seal before it counts any sign-up from Discord and records that message's id
    (nothing else), so a game whose joins are Discord's ids and whose seal no message showed broke
    that rule: verify said ✅ ("never recorded as shown", or "as the bot records it"), and must fail."""
    db, clock = store_world
    matches, t = services(db, clock)
    _, record = await finished_tournament_game(t, matches, clock, show=True)
    assert fairness.check(record).ok
    record["tournament"]["message_id"] = None
    if kept == "nothing":
        record["tournament"]["shown_at"] = None
    report = fairness.check(record)
    assert not report.ok, report.text()
    assert "no message that showed the tournament's commitment" in report.text()


async def test_a_console_tournament_game_still_verifies_without_message_ids(tmp_path) -> None:
    """The console has no message ids and its sign-ups no ids either (`join:-`): its record, with the
    seal's time and no message, still verifies, saying what the record alone cannot show."""
    clock = Clock()
    db = await Database.open(tmp_path / "w.db", clock=clock)
    try:
        matches, t = services(db, clock)
        made = await one_round(t)
        assert await t.seal_shown(made)
        for user in (ALICE, BOB):
            await t.join(made, user)
        await t.start(100, organiser=True)
        (board,) = await t.pending_starts(await t.open_in(100))
        match = await t.start_board(board, 1001)
        await matches.act(1001, match.sides["germans"], "resign")
        _, data = await play_fairness.export(matches, 5, 1001)
        report = fairness.check(json.loads(data))
        assert report.ok, report.text()
        assert "without a message id the record alone cannot order them" in report.text()
    finally:
        await db.close()


# ------------------------------------------------------------------ Accept alone, off turn


ACCEPT_NOW = "accept the draw with the button (or the `draw` command), or decline it once it is your turn."


async def hand_off(w: World, service: MatchService, user: Any) -> None:
    """`user` plays their Battlefronts turn to its end through the bot: its steps, then `end`."""
    for _ in range(60):
        match, state = await service.current(w.general.id)
        side = sorted(state.to_act())[0]
        if match.sides[side] != user.id or state.is_over():
            return
        legal = [str(a) for a in state.legal_actions(side) if not a.anytime]
        action = "end" if "end" in legal else legal[0]
        await w.fake.slash(user, w.general, "battlefronts", "play", {"action": action})
        await w.cog.idle()
    raise AssertionError("the turn never ended")


async def test_an_answerer_off_turn_declines_by_no_path_and_learns_nothing(world: World) -> None:  # noqa: F811
    """Battlefronts: an offer stands until answered. Bob had Decline on his own turn's board and
    let it be; on Alice's turn he tries every other way to decline: that old button, the `draw`
    command, the service with the channel's version (a forged custom_id behind Discord's check),
    before and after her private step. Each is refused in the same words, nothing is stored, and
    the board anyone asks for is the same bytes and custom_ids; a spectator can neither accept nor
    decline. Every board meanwhile still shows the offer, with Accept alone; at her hand-off both
    answers show again, and his Accept goes through."""
    w = world
    service = await battlefronts_accepted(w)
    match, state = await service.current(w.general.id)
    side = sorted(state.to_act())[0]
    on, off = (w.alice, w.bob) if match.sides[side] == w.alice.id else (w.bob, w.alice)
    await w.fake.slash(on, w.general, "battlefronts", "draw", {"choice": "offer"})
    await hand_off(w, service, on)
    own = await w.match()
    decline = button_id("dec", own, "decline draw")
    mine = await w.fake.slash(off, w.general, "battlefronts", "board", {})
    assert decline in mine.message.custom_ids, mine.message.custom_ids  # his turn: both answers
    await hand_off(w, service, off)  # he plays on without answering
    seen = await w.match()
    assert seen.version > own.version
    posted = [m for m in w.fake.messages_in(w.general) if not m.ephemeral and m.attachments][-1]
    eve_board = await w.fake.slash(w.eve, w.general, "battlefronts", "board", {})
    assert posted.custom_ids == eve_board.message.custom_ids, posted  # his hand-off's board: the same
    # the offer stands (Battlefronts): the board after its answerer played on still asks him, with
    # what he may do now: Accept (Decline waits for his own turn)
    ids = eve_board.message.custom_ids
    assert button_id("dec", seen, "accept draw") in ids, ids
    assert button_id("dec", seen, "decline draw") not in ids, ids
    assert eve_board.content.endswith(f"<@{off.id}>: {ACCEPT_NOW}"), eve_board.content

    async def tries() -> list[str]:
        said = [(await w.fake.click(off, mine.message, decline)).content]
        said.append(
            (await w.fake.slash(off, w.general, "battlefronts", "draw", {"choice": "decline"})).content
        )
        for who, notation in ((off, "decline draw"), (w.eve, "decline draw"), (w.eve, "accept draw")):
            with pytest.raises(ServiceError) as refused:
                await service.act(
                    w.general.id, who.id, notation, expected_version=seen.version, match_id=seen.id
                )
            said.append(str(refused.value))
        return said

    before = await tries()
    assert "on your own turn" in before[1], before
    assert (await w.match()).version == seen.version  # nothing stored
    match, state = await service.current(w.general.id)
    side = sorted(state.to_act())[0]
    step = next(str(a) for a in state.legal_actions(side) if not a.anytime and str(a) not in ("end", "pass"))
    taken = await w.fake.slash(on, w.general, "battlefronts", "play", {"action": step})
    assert all(m.ephemeral for m in taken.messages), taken  # her turn, private
    await w.cog.idle()
    stepped = (await w.match()).version
    assert stepped > seen.version
    assert await tries() == before  # the same words: nothing tells whether she has begun
    assert (await w.match()).version == stepped
    again = await w.fake.slash(w.eve, w.general, "battlefronts", "board", {})
    assert again.content == eve_board.content and again.message.custom_ids == eve_board.message.custom_ids
    assert again.message.attachments[0].data == eve_board.message.attachments[0].data
    await hand_off(w, service, on)  # her turn handed over: his own again, and both answers show
    now = await w.match()
    shown = await w.fake.slash(w.eve, w.general, "battlefronts", "board", {})
    for answer in ("accept draw", "decline draw"):
        assert button_id("dec", now, answer) in shown.message.custom_ids, shown.message.custom_ids
    accepted = await w.fake.click(off, shown.message, button_id("dec", now, "accept draw"))
    assert "Game over: a draw" in accepted.message.content, accepted.message.content


# ------------------------------------------------------------------ the round's end, corrected


async def test_correcting_the_rounds_end_edits_no_message_but_the_bots_own_in_that_channel(
    fake_discord: FakeDiscord,  # noqa: F811
    start_bot,  # noqa: F811
    bot: WargamesBot,  # noqa: F811
) -> None:
    """The correction edits a stored message id in the tournament's channel. Given a player's message
    that states a round's end in the same words, or the bot's own message in another channel (an id
    kept from the wrong message), it changes neither: Discord refuses the first, the second is not
    in that channel; the round goes on (logged, not raised). The bot's own message there is edited
    in its time alone, every other character kept."""
    fake = fake_discord
    guild, club, (alice,) = await setup_club(fake, 1)
    await start_bot(bot)
    cog = bot.get_cog("Tournaments")
    assert cog is not None
    theirs = await fake.say(alice, club, "Round 1 ends <t:5:R>, trust me.")
    channel = bot.get_channel(club.id)
    elsewhere = bot.get_channel(guild.channel("other").id)
    assert isinstance(channel, discord.TextChannel) and isinstance(elsewhere, discord.TextChannel)
    far = await elsewhere.send("**Cup**: round 1 of 3, ends <t:5:R>.")
    ours = await channel.send("**Cup ends <t:7:R>** has begun: round 1 of 3, ends <t:5:R>.")
    for message_id in (theirs.id, far.id, ours.id):
        await cog.correct_end(channel, message_id, "<t:9:R>")  # type: ignore[attr-defined]
    assert fake.messages[theirs.id].content == "Round 1 ends <t:5:R>, trust me."
    assert fake.messages[far.id].content == "**Cup**: round 1 of 3, ends <t:5:R>."
    # every time after "ends" is the round's end as worded: a name that words one too is the
    # organiser's own text, and nothing else is touched
    assert fake.messages[ours.id].content == "**Cup ends <t:9:R>** has begun: round 1 of 3, ends <t:9:R>."


async def test_a_console_tournament_whose_seal_a_crash_kept_back_prints_it_at_the_next_sign_up(
    tmp_path,
) -> None:
    """The console died between storing a tournament and printing its seal. Every `join` after the
    restart said "try again in a minute", which nothing would ever make true (the console has no
    sweep that shows what is owed): the tournament could never be played. The next sign-up now
    prints the seal first, as Discord posts an owed seal at a sign-up, and counts (the console's
    sign-ups have no ids, so the order printed is all there is)."""
    async with fresh_console(tmp_path) as (console, out):
        made = await console.tournaments.service.create(
            guild_id=GUILD_ID,
            channel_id=console.channel_id,
            user_id=console.my_id,
            game="blockwars",
            rounds=1,
            days=1,
            name="Crash Cup",
            organiser=True,
        )  # and the console died before printing anything
        assert made.seal_commitment is not None
        await console.handle("/tournament join")
        text = out.getvalue()
        assert "try again" not in text, text
        sealed = text.index(f"sealed: commitment `{made.seal_commitment[:32]}")
        assert sealed < text.index("Signed up (1): @alice."), text
        shown = await console.tournaments.service.by_id(made.id)
        assert shown.sealed_at is not None and shown.seal_message_id is None
        assert len(await console.tournaments.service.entries(shown)) == 1
        await console.handle("/as bob")
        await console.handle("/tournament join")
        assert out.getvalue().count("sealed: commitment") == 1  # printed once


async def test_a_sign_up_counts_only_in_its_own_tournament_and_channel(
    fake_discord: FakeDiscord,  # noqa: F811
    start_bot,  # noqa: F811
    bot: WargamesBot,  # noqa: F811
) -> None:
    """Alice joins Cup A; it is cancelled (its secret told) and Cup B is made in the same channel,
    with a seal of its own. Her sign-up to A is not one to B, a second tournament cannot be made
    there while B takes sign-ups, and a join typed in another channel or in a DM finds no
    tournament. Her join to B counts once she gives it, after B's seal."""
    fake = fake_discord
    guild, club, (alice, bob) = await setup_club(fake, 2)
    await start_bot(bot)
    bot.service.seeded_inputs = False  # the joins' ids are their inputs, as in production
    store = TournamentStore(bot.database)

    async def make(name: str) -> tuple[FakeMessage, FakeMessage]:
        made = await fake.slash(
            fake.owner,
            club,
            "tournament",
            "create",
            {"game": GAME, "rounds": 1, "days": 2, "name": name},
            messages=2,
        )
        sealed, listed = made.messages
        return sealed, listed

    _, listed_a = await make("Cup A")
    joined = await fake.click(
        alice, listed_a, next(c for c in listed_a.custom_ids if c.startswith("bw:tjoin:"))
    )
    assert "You are in **Cup A**" in joined.content
    a = await store.channel_tournament(club.id)
    assert a is not None
    done = await fake.slash(fake.owner, club, "tournament", "cancel")
    assert "was cancelled by" in done.content
    sealed_b, _ = await make("Cup B")
    b = await store.channel_tournament(club.id)
    assert b is not None and b.id != a.id and b.seal_commitment != a.seal_commitment
    assert b.seal_message_id == sealed_b.id
    assert await store.tournament_entries(b.id) == []  # her sign-up was to A
    again = await fake.slash(
        fake.owner,
        club,
        "tournament",
        "create",
        {"game": GAME, "rounds": 1, "days": 2, "name": "Cup C"},
    )
    assert again.ephemeral and "already runs a tournament" in again.content
    elsewhere = await fake.slash(bob, guild.channel("other"), "tournament", "join")
    assert elsewhere.ephemeral and "runs no tournament" in elsewhere.content
    dm = await fake.slash(alice, fake.dm_channel(alice), "tournament", "join")
    assert dm.ephemeral and "runs no tournament" in dm.content
    mine = await fake.slash(alice, club, "tournament", "join")
    assert "You are in **Cup B**" in mine.content
    (entry,) = await store.tournament_entries(b.id)
    assert entry.user_id == alice.id and int(entry.join_input or 0) > sealed_b.id

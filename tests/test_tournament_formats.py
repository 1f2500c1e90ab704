"""A tournament's own settings (play/tournament_formats.py) on both stores: a round-robin from its
sign-up to its last round (its tie-breaks named in the standings, the crosstable and the export), its
withdrawals, its limit and no latecomer; a cap on players and a sign-up deadline; the console's words."""

from __future__ import annotations

import asyncio
import csv
import io
from pathlib import Path

import pytest

from cogs._format import DISCORD as MARKUP
from data.tournaments import TournamentStatus
from play import BadRequest
from play.tournament import DAY, TournamentService
from play.tournament_crosstable import crosstable
from play.tournament_crosstable_text import crosstable_key, export_said
from play.tournament_export import games_csv, standings_csv
from play.tournament_formats import signup_closed_text
from play.tournament_leaving_text import withdraw_question, withdrawal_notice
from play.tournament_round import round_now
from play.tournament_round_text import round_now_text
from play.tournament_text import round_text, signup_text, standings_subtitle, started_text
from render.standings import Row, standings_png
from tests.console_run import console_said
from tests.test_tournament import CHANNEL, GUILD, ORGANISER, services, thread_ids

PLAYERS = [21, 22, 23, 24, 25]


async def round_robin(t: TournamentService, players: list[int], **more: object) -> None:
    made = await t.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=ORGANISER,
        game="blockwars",
        rounds=None,
        days=2,
        organiser=True,
        format="round-robin",
        **more,  # type: ignore[arg-type]
    )
    await t.seal_shown(made)
    for user in players:
        await t.join(made, user)


async def finish_round(t: TournamentService, counter: list[int]) -> None:
    """Start the round's games and have each first player resign; the sweep closes the round."""
    await thread_ids(t, counter)
    tournament = await t.open_in(CHANNEL)
    for board in await t.store.tournament_boards(tournament.id):
        if board.round == tournament.round and board.thread_id is not None and board.result is None:
            await t.matches.act(board.thread_id, board.first_id, "resign")
    await t.sweep()


async def test_a_round_robin_of_three_meets_everyone_once_with_a_bye_each(store_world):
    db, clock = store_world
    t = services(db, clock)
    await round_robin(t, PLAYERS[:3])
    made = await t.open_in(CHANNEL)
    assert made.format == "round-robin" and made.name == "Block Wars Round-robin"
    said = signup_text(_game(), made, [], MARKUP)
    assert said.startswith(
        "**Block Wars Round-robin**: a round-robin of Block Wars: everyone plays everyone once, in "
        "rounds of 2 days each; the players at the start set how many rounds. At most 10 players."
    )
    listed = signup_text(_game(), made, await t.entries(made), MARKUP)
    assert "(with 3 players that is 3 rounds, each player sitting out one round so far)" in listed
    started = await t.start(CHANNEL, organiser=True)
    assert started.tournament.rounds == 3
    boards = await t.store.tournament_boards(started.tournament.id)
    text = started_text(_game(), started.tournament, boards, MARKUP)
    assert "round 1 of 3" in text
    assert "A round-robin: everyone plays everyone once, with 3 players that is 3 rounds" in text
    counter = [0]
    for _ in range(3):
        await finish_round(t, counter)
    done = await t.store.get_tournament(started.tournament.id)
    assert done is not None and done.status is TournamentStatus.FINISHED and done.round == 3
    boards = await t.store.tournament_boards(done.id)
    pairs = sorted(tuple(sorted((b.first_id, b.second_id))) for b in boards if b.second_id is not None)
    assert pairs == [(21, 22), (21, 23), (22, 23)]
    byes = sorted(b.first_id for b in boards if b.second_id is None)
    assert byes == [21, 22, 23]
    table = await t.table(done)
    assert table.final and sum(line.points for line in table.lines) == 6  # 3 games, 3 byes
    # a round-robin's usual tie-breaks, named wherever the standings are shown
    said = "Level on points: Sonneborn-Berger (SB), then direct encounter (DE), then wins (W)."
    assert table.heads == ("SB", "DE") and standings_subtitle(table) == f"Final standings. {said}"
    assert said in signup_text(_game(), made, [], MARKUP)
    final = round_text(table, [], MARKUP)
    assert "on points, Sonneborn-Berger (SB: the points of the opponents they beat" in final
    assert table.winners == [21, 22, 23]  # each won one game and had a bye: all level on everything
    assert "over after 3 rounds: <@21>, <@22> and <@23> share first place in it with 2 points." in final
    cross = await crosstable(db, t.store, table)
    assert crosstable_key(cross).startswith(f"{said} W5 beat no. 5")
    standings = list(csv.DictReader(io.StringIO(standings_csv(cross, str).decode())))
    assert list(standings[0])[-2:] == ["direct_encounter", "wins"]
    assert [float(row["sonneborn_berger"]) for row in standings] == [x.tiebreaks[0] for x in table.lines]
    rows = [
        Row(x.rank, str(x.user_id), x.points, *table.shown(x), x.change, x.withdrawn) for x in table.lines
    ]
    assert standings_png("Circle", standings_subtitle(table), rows, table.heads)[:8] == b"\x89PNG\r\n\x1a\n"


def _game():
    from engine import registry

    return registry.game("blockwars")


async def test_the_format_and_its_rounds_are_checked_and_nothing_is_made(store_world):
    db, clock = store_world
    t = services(db, clock)
    base = dict(guild_id=GUILD, channel_id=CHANNEL, user_id=ORGANISER, game="blockwars", days=2)
    with pytest.raises(BadRequest, match="leave `rounds` out"):
        await t.create(**base, rounds=3, format="round-robin", organiser=True)  # type: ignore[arg-type]
    with pytest.raises(BadRequest, match="A Swiss tournament needs its number of rounds"):
        await t.create(**base, rounds=None, organiser=True)  # type: ignore[arg-type]
    with pytest.raises(BadRequest, match="not a tournament format"):
        await t.create(**base, rounds=3, format="ladder", organiser=True)  # type: ignore[arg-type]
    with pytest.raises(BadRequest, match="A knockout's cap on players is 2 to 64"):
        await t.create(**base, rounds=None, format="knockout", max_players=65, organiser=True)  # type: ignore[arg-type]
    with pytest.raises(BadRequest, match="A round-robin's cap on players is 2 to 10"):
        await t.create(**base, rounds=None, format="round-robin", max_players=12, organiser=True)  # type: ignore[arg-type]
    with pytest.raises(BadRequest, match="cap on players is 2 to 100"):
        await t.create(**base, rounds=3, max_players=1, organiser=True)  # type: ignore[arg-type]
    with pytest.raises(
        BadRequest, match="`coin` is not a tie-break order: choose one of `buchholz`, `median`"
    ):
        await t.create(**base, rounds=3, tiebreaks="coin", organiser=True)  # type: ignore[arg-type]
    assert await t.store.channel_tournament(CHANNEL) is None
    swiss = await t.create(**base, rounds=3, tiebreaks="median", organiser=True)  # type: ignore[arg-type]
    assert (swiss.format, swiss.max_players, swiss.tiebreaks) == ("swiss", None, "median")
    assert (
        "Level on points: median Buchholz (MBh), then Buchholz (Bh), then Sonneborn-Berger (SB)."
        in signup_text(_game(), swiss, [], MARKUP)
    )


async def test_a_round_robin_takes_ten_players_and_says_what_to_do_for_more(store_world):
    db, clock = store_world
    t = services(db, clock)
    ten = list(range(31, 41))
    await round_robin(t, ten)
    made = await t.open_in(CHANNEL)
    with pytest.raises(BadRequest, match="is full: a round-robin takes at most 10 players") as refused:
        await t.join(made, 41)
    assert "open a Swiss tournament for more players" in str(refused.value)
    assert len(await t.entries(made)) == 10
    started = await t.start(CHANNEL, organiser=True)
    assert started.tournament.rounds == 9 and len(started.boards) == 5


async def test_a_cap_refuses_the_next_sign_up_and_a_leave_frees_a_place(store_world):
    db, clock = store_world
    t = services(db, clock)
    made = await t.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=ORGANISER,
        game="blockwars",
        rounds=2,
        days=2,
        organiser=True,
        max_players=2,
    )
    await t.seal_shown(made)
    await t.join(made, 21)
    await t.join(made, 22)
    with pytest.raises(BadRequest, match=r"Block Wars Swiss.* is full: it takes at most 2 players"):
        await t.join(made, 23)
    with pytest.raises(BadRequest, match="already signed up"):
        await t.join(made, 22)  # the right refusal for who is in, full or not
    await t.leave(made, 22)
    await t.join(made, 23)
    assert [e.user_id for e in await t.entries(made)] == [21, 23]
    assert "At most 2 players." in signup_text(_game(), made, [], MARKUP)


async def test_a_round_robin_withdrawal_before_half_strikes_the_games_out(store_world):
    """Four players, three games each: one who leaves after one game has it struck out, for both."""
    db, clock = store_world
    t = services(db, clock)
    await round_robin(t, PLAYERS[:4])
    started = await t.start(CHANNEL, organiser=True)
    counter = [0]
    await thread_ids(t, counter)  # round 1 is under way: their game of it plays on, and counts
    ahead = await t.withdrawal(await t.open_in(CHANNEL), 24)
    asked = withdraw_question(ahead, MARKUP)
    assert "cannot be undone; with 1 game of 3 played, fewer than half, your results are struck out" in asked
    done = await t.withdraw_from(started.tournament.id, 24)
    assert (
        "and with 1 game of 3 played, fewer than half, their results are struck out for everyone; their game"
        in (withdrawal_notice(done, None, MARKUP))
    )
    for _ in range(3):
        await finish_round(t, counter)
    boards = await t.store.tournament_boards(started.tournament.id)
    later = [b for b in boards if b.round > 1]
    assert all(24 not in (b.first_id, b.second_id) for b in later)
    assert all(b.second_id is not None for b in later)  # no forfeit win: struck out
    # each round after it, the player who was to meet them is told why they have no game
    for r in (2, 3):
        said = round_text(
            await t.table(started.tournament, r - 1), [b for b in later if b.round == r], MARKUP
        )
        seated = {u for b in later if b.round == r for u in (b.first_id, b.second_id)}
        (idle,) = [u for u in PLAYERS[:4] if u != 24 and u not in seated]
        assert (
            f"<@{idle}> has no game this round: their opponent, <@24>, withdrew early, and a round-robin "
            "strikes out the games of a player who withdraws before playing half."
        ) in said  # they were left out without a word
        if r == 3:  # and so does the view of the round (the last: the tournament is over now)
            last = await t.store.get_tournament(started.tournament.id)
            assert last is not None
            shown = round_now_text(await round_now(t.store, last, clock()), MARKUP)
            assert (
                f"No game this round for <@{idle}>: their opponent, <@24>, withdrew early and those games "
                "are struck out."
            ) in shown
    table = await t.table(await t.store.get_tournament(started.tournament.id))  # type: ignore[arg-type]
    assert table.final
    line = next(x for x in table.lines if x.user_id == 24)
    assert line.withdrawn and line.points == 0
    assert sum(x.points for x in table.lines) == 3 + 0  # four games played among the three, one struck
    assert len([b for b in boards if b.second_id is not None]) == 4
    # the crosstable and the export show the game, struck out, and count it nowhere
    cross = await crosstable(db, t.store, table)
    (first,) = [b for b in boards if b.round == 1 and 24 in (b.first_id, b.second_id)]
    rival = first.first_id if first.second_id == 24 else first.second_id
    cells = {p.line.user_id: p.cells[0].text for p in cross.players}
    assert cells[24].startswith("×") and cells[rival].startswith("×")  # type: ignore[index]
    assert "×5 a game with no. 5 struck out (a withdrawal before half the games)" in crosstable_key(cross)
    rows = list(csv.DictReader(io.StringIO(games_csv(cross, _game(), str).decode())))
    said = export_said(cross, MARKUP, "g.csv", "s.csv")
    assert "how it ended: played, time, forfeit, bye, stopped, or struck out by a withdrawal)" in said
    assert "in standing order: by points, then Sonneborn-Berger (SB), then direct encounter (DE)" in said
    (gone,) = [r for r in rows if r["ended"] == "struck"]
    assert gone["result"] in ("1-0", "0-1") and (gone["first_points"], gone["second_points"]) == ("", "")


async def test_a_round_robin_withdrawal_after_half_forfeits_the_rest(store_world):
    db, clock = store_world
    t = services(db, clock)
    await round_robin(t, PLAYERS[:4])
    started = await t.start(CHANNEL, organiser=True)
    counter = [0]
    await finish_round(t, counter)
    asked = withdraw_question(await t.withdrawal(await t.open_in(CHANNEL), 24), MARKUP)
    assert "your results so far stand; your 1 game still to be paired counts as lost by forfeit." in asked
    await t.withdraw_from(started.tournament.id, 24)  # during round 2: two games of three, played
    for _ in range(2):
        await finish_round(t, counter)
    boards = await t.store.tournament_boards(started.tournament.id)
    last = [b for b in boards if b.round == 3]
    assert [b for b in last if b.second_id is None and b.result == 1.0]  # the forfeit, a win
    assert all(24 not in (b.first_id, b.second_id) for b in last)
    (won,) = [b for b in last if b.second_id is None]
    before = await t.table(started.tournament, 2)
    said = round_text(before, last, MARKUP)  # it said "has a bye (a win) this round"
    assert f"<@{won.first_id}> wins by forfeit against <@24>, who has withdrawn." in said
    assert "bye" not in said
    table = await t.table(await t.store.get_tournament(started.tournament.id))  # type: ignore[arg-type]
    assert table.final and sum(x.points for x in table.lines) == 6  # 5 games and a forfeit
    now = round_now_text(await round_now(t.store, table.tournament, clock()), MARKUP)
    assert f"<@{won.first_id}> wins by forfeit against <@24> (withdrawn)." in now
    cross = await crosstable(db, t.store, table)
    number = {p.line.user_id: p.number for p in cross.players}
    row = {p.line.user_id: p.cells for p in cross.players}
    assert row[won.first_id][2].text == f"+{number[24]}"  # it said "B1"
    assert row[24][2].text == f"-{number[won.first_id]}"  # it said "—", as if never scheduled
    assert "+5 and -5 won and lost by forfeit" in crosstable_key(cross)
    rows = list(csv.DictReader(io.StringIO(games_csv(cross, table.game, str).decode())))
    (sheet,) = [r for r in rows if r["round"] == "3" and r["first_id"] == str(won.first_id)]
    assert (sheet["second_id"], sheet["result"], sheet["ended"]) == ("24", "1-0", "forfeit")
    assert (sheet["first_points"], sheet["second_points"]) == ("1", "0")


async def test_the_console_makes_a_round_robin(tmp_path: Path):
    text = await console_said(
        tmp_path,
        (
            "/tournament create game:blockwars days:1",
            "/tournament create game:blockwars days:1 format:round-robin signup_days:3 name:Club",
            "/tournament join",
            "/as bob",
            "/tournament join",
            "/tournament start",
            "/tournament extend hours:24",  # bob plays in round 1: not his to extend
            "/as referee",  # an organiser who does not play
            "/tournament extend hours:many",
            "/tournament extend hours:24",
        ),
    )
    assert "✗ Type the hours as a number: `/tournament extend hours:24`." in text
    assert "✗ You cannot extend round 1 of Club while your own game of it is still going" in text
    assert "@referee extended round 1 of Club by 1 day: it now ends " in text
    assert "✗ A Swiss tournament needs its number of rounds (1 to 12), e.g. `rounds:3`" in text
    assert "Club: a round-robin of Block Wars: everyone plays everyone once" in text
    assert "Sign-ups close at " in text
    assert "Club has begun: round 1 of 1" in text
    assert "with 2 players that is 1 round." in text


async def test_two_sign_ups_for_the_last_place_take_it_once(store_world):
    """The cap is counted in the join's own transaction, after the tournament's row is locked."""
    db, clock = store_world
    t = services(db, clock)
    made = await t.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=ORGANISER,
        game="blockwars",
        rounds=1,
        days=2,
        organiser=True,
        max_players=2,
    )
    await t.seal_shown(made)
    await t.join(made, 21)
    other = services(db, clock, 2)  # a second process over the same store
    done = await asyncio.gather(t.join(made, 22), other.join(made, 23), return_exceptions=True)
    refused = [d for d in done if isinstance(d, BadRequest)]
    assert len(refused) == 1 and "is full" in str(refused[0])
    assert len(await t.entries(made)) == 2


async def test_sign_ups_close_at_their_deadline_and_the_start_is_unchanged(store_world):
    db, clock = store_world
    t = services(db, clock)
    base = dict(guild_id=GUILD, channel_id=CHANNEL, user_id=ORGANISER, game="blockwars", rounds=1, days=2)
    with pytest.raises(BadRequest, match="Sign-ups stay open 1 to 30 days"):
        await t.create(**base, signup_days=0, organiser=True)  # type: ignore[arg-type]
    made = await t.create(**base, signup_days=2, organiser=True)  # type: ignore[arg-type]
    assert made.signup_closes_at == clock.now + 2 * DAY
    assert f"Sign-ups close at <t:{int(clock.now + 2 * DAY)}:F>." in signup_text(_game(), made, [], MARKUP)
    await t.seal_shown(made)
    await t.join(made, 21)
    clock.now += 2 * DAY - 1
    await t.join(made, 22)  # a second before the deadline
    clock.now += 1
    with pytest.raises(BadRequest, match=r"Sign-ups to .*Block Wars Swiss.* closed") as late:
        await t.join(made, 23)
    assert "Ask an organiser if you still hope to play." in str(late.value)
    closes = int(clock.now)  # on Discord, the date beside the countdown: the exact moment it closed
    said = signup_closed_text(made, clock.now, MARKUP)
    assert said is not None and said.startswith(
        f"Sign-ups to **Block Wars Swiss** closed <t:{closes}:R> (<t:{closes}:f>); it starts when"
    )
    with pytest.raises(BadRequest, match="You are already signed up"):
        await t.join(made, 22)
    assert [e.user_id for e in await t.entries(made)] == [21, 22]
    started = await t.start(CHANNEL, organiser=True)  # the organiser's start, as ever
    assert started.tournament.status is TournamentStatus.RUNNING


async def test_a_round_robin_cancelled_before_its_start_names_no_number_of_rounds(store_world):
    db, clock = store_world
    t = services(db, clock)
    await round_robin(t, PLAYERS[:2])
    done = await t.cancel(CHANNEL, organiser=True)
    said = signup_text(_game(), done, await t.entries(done), MARKUP)
    assert "the players at the start set how many rounds" in said and "1 round" not in said
    assert said.endswith("This tournament was cancelled.")


async def test_a_round_robin_takes_no_latecomer_and_a_swiss_latecomer_meets_the_cap(store_world):
    db, clock = store_world
    t = services(db, clock)
    await round_robin(t, PLAYERS[:2])
    await t.start(CHANNEL, organiser=True)
    running = await t.open_in(CHANNEL)
    with pytest.raises(BadRequest, match="is a round-robin and has begun: its table of who meets whom"):
        await t.join(running, 23)
    assert "latecomers may still join" not in signup_text(_game(), running, await t.entries(running), MARKUP)
    await t.cancel(CHANNEL, organiser=True)
    swiss = await t.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=ORGANISER,
        game="blockwars",
        rounds=4,
        days=2,
        organiser=True,
        max_players=2,
    )
    await t.seal_shown(swiss)
    for user in (21, 22):
        await t.join(swiss, user)
    await t.start(CHANNEL, organiser=True)
    with pytest.raises(BadRequest, match="is full: it takes at most 2 players"):
        await t.join(await t.open_in(CHANNEL), 23)  # late entry is open, but the cap holds
    assert len(await t.entries(swiss)) == 2

"""The eighth review from the store, the service and the console (docs/fairness.md, "the eighth
review"). Each test of a hole failed before its fix."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cogs import limits
from data import Database, Status
from data.tournaments import TournamentStatus
from play.tournament import TournamentService, turn_seconds
from play.tournament_sweep import Started
from tests.clock import Clock
from tests.console_run import console_said
from tests.test_game_clock import CHANNEL, DAY, GUILD, QUICK, STALLER, THREAD, services

HOUR = 3600


async def test_a_staller_who_waits_out_every_quick_decision_runs_out_of_clock_not_the_round(
    store_world: tuple[Database, Clock],
) -> None:
    """Fix Bayonets asks the opponent after each card played whether to cancel it (its default
    standing order), a quick decision with a short deadline and an automatic answer; it ran no game
    clock. A player in a lost position (or the higher seed of a knockout, who goes on at a draw)
    let every one of them run to its deadline: dozens of hours a game that cost their clock
    nothing, until the round's end stopped the game as a draw. A quick decision now runs the clock
    of the player who owes it: the staller runs out of clock, and loses on time, before the round
    ends."""
    db, clock = store_world
    t = services(db, clock)
    svc = t.matches
    made = await t.create(
        guild_id=GUILD, channel_id=CHANNEL, user_id=1, game="fixbayonets", rounds=1, days=2, organiser=True
    )
    await t.seal_shown(made)
    for user in (QUICK, STALLER):
        await t.join(made, user)
    (board,) = (await t.start(CHANNEL, organiser=True)).boards
    await t.start_board(board, THREAD)
    ends = (await t.by_id(made.id)).round_ends_at
    assert ends is not None
    quick_deadline = turn_seconds(2 * DAY) // 4  # 4 hours; each clock holds 24
    rng = random.Random(2)
    waited = 0
    match, state = await svc.current(THREAD)
    for _ in range(400):
        match = await db.get_match(match.id)
        if match.status is not Status.ACTIVE:
            break
        match, state = await svc.current(THREAD)
        (side,) = sorted(state.to_act())[:1]
        user = match.sides[side]
        if user == STALLER and state.quick_decision():  # waited out: the bot answers for them
            assert match.deadline is not None and match.deadline - clock.now <= quick_deadline
            clock.now = match.deadline + 1
            await svc.sweep()  # the bot's two sweeps: the games' deadlines, then the rounds
            await t.sweep()
            waited += 1
            continue
        legal = await svc.legal(THREAD, user)
        clock.now += 60
        choices = [a for a in legal if a not in ("fight", "resign", "offer draw")] or legal
        await svc.act(THREAD, user, "setup std" if "setup std" in legal else rng.choice(choices))
    over = await db.get_match(match.id)
    assert over.status is Status.FINISHED and over.winner_id == QUICK, (over.status, waited)
    assert over.game_clock is not None and over.game_clock.left[STALLER] == 0
    assert 5 <= waited <= 7  # 24 hours of clock in 4-hour waits, not the round's 48 hours
    assert clock.now < ends  # lost on time within the round: its result counts, not a draw
    assert (await t.by_id(made.id)).status is TournamentStatus.FINISHED


async def test_the_console_answers_a_number_too_large_for_any_store_as_one_that_names_nothing(
    tmp_path: Path,
) -> None:
    """The console takes `tournament:N` and `game:N` as typed: a number past what a store's integer
    holds (2**63) reached SQLite and came back as an internal error ("Something went wrong; the game
    is unchanged"). It is now answered as any number that names nothing. So did a superscript two,
    which Python counts a digit (`isdigit`) but not a number (`int`): the console now takes only
    decimal digits, and refuses the rest as it refuses a word."""
    huge = "9" * 20
    said = await console_said(
        tmp_path,
        [
            f"/tournament standings tournament:{huge}",
            f"/tournament round tournament:{huge}",
            f"/wargames verify game:{huge}",
            f"/wargames export game:{huge}",
            "/tournament standings tournament:\u00b2",
            "/wargames verify game:\u00b2",
            "/history \u00b2",
            "/wargames away days:\u00b2",
        ],
    )
    assert "went wrong" not in said and "internal error" not in said, said
    assert said.count(f"There is no tournament with the number {huge} here") == 2, said
    assert said.count(f"There is no game #{huge} in this channel") == 2, said


def test_two_forfeit_wins_of_one_round_are_dmed_with_nonces_of_their_own() -> None:
    """Discord documents a message's nonce as unique per author within a few minutes, not per
    channel, and the bot is the author of every post. Every nonce names what it is for (a game, a
    tournament's round), so none repeats across channels, but a round-robin's forfeit-win DM was
    "t7r3w" for each winner of round 3: the second winner's DM could come back as the first's, never
    sent. It now names its recipient. Nobody else can post as the bot, so nobody can use a nonce,
    however guessable, to suppress one of its posts."""
    one, two = limits.forfeit_nonce(7, 3, 10**18), limits.forfeit_nonce(7, 3, 10**18 + 1)
    assert one != two and len(one) <= limits.NONCE and len(two) <= limits.NONCE
    kinds = {limits.nonce("t", 7, "r", 3), limits.board_nonce(7, 3), limits.start_nonce(7), one}
    assert len(kinds) == 4


async def organiser_in_a_knockout(
    store_world: tuple[Database, Clock], players: tuple[int, ...]
) -> tuple[TournamentService, Started]:
    """A Block Wars knockout started with `players`, the first of them its organiser (seed 1: the
    ratings are equal, so the lower id seeds higher)."""
    from tests.test_tournament import CHANNEL as ROOM
    from tests.test_tournament import GUILD as SERVER

    db, clock = store_world
    t = services(db, clock)
    made = await t.create(
        guild_id=SERVER, channel_id=ROOM, user_id=players[0], game="blockwars",
        rounds=None, days=1, organiser=True, format="knockout",
    )  # fmt: skip
    await t.seal_shown(made)
    for user in players:
        await t.join(made, user)
    return t, await t.start(ROOM, organiser=True)


async def test_an_organiser_still_in_a_knockout_may_not_extend_a_round_that_picks_their_next_opponent(
    store_world: tuple[Database, Clock],
) -> None:
    """Seed 1 of three, an organiser too, has round 1's bye and so no game going: the seventh
    review's refusal (while their own game goes on) let them extend. In a knockout the tie still
    going decides whom they meet next, and the hours save whichever of its players is short of
    time: a choice of opponent. Refused while they are still in the knockout; another organiser
    extends as before."""
    from play import NotAPlayer
    from tests.test_tournament import CHANNEL as ROOM
    from tests.test_tournament import ORGANISER, thread_ids

    t, started = await organiser_in_a_knockout(store_world, (21, 22, 23))
    boards = await t.store.tournament_boards(started.tournament.id)
    assert sorted((b.first_id, b.second_id or 0) for b in boards) == [(21, 0), (22, 23)]
    await thread_ids(t, [0])
    with pytest.raises(NotAPlayer) as refused:
        await t.extend(ROOM, 24, organiser=True, by=21)
    assert str(refused.value) == (
        "You cannot extend round 1 of Block Wars Knockout while you are still in the knockout: "
        "the games still going decide whom you meet next, and the time would save whichever player "
        "of a game is running short. Ask another organiser, or a member who can manage the server."
    )
    before = (await t.open_in(ROOM)).round_ends_at
    done = await t.extend(ROOM, 24, organiser=True, by=ORGANISER)
    assert before is not None and done.tournament.round_ends_at == before + 24 * HOUR and done.games == 1


async def test_a_backup_is_readable_by_its_owner_alone(tmp_path: Path) -> None:
    """`python bot.py --backup FILE` wrote the copy readable by every account on the machine (the
    usual umask), and docs/deploy.md suggests the home folder: the copy holds every game's secret
    seed, the dice and cards to come. It is now made readable and writable by its owner alone."""
    from data.backup import backup_sqlite

    live = tmp_path / "wargames.db"
    async with Database.open(live, clock=lambda: 1_800_000_000.0):
        pass
    target = tmp_path / "copy.db"
    backup_sqlite(live, target)
    assert target.stat().st_mode & 0o777 == 0o600


async def test_an_organiser_knocked_out_of_their_knockout_judges_the_rest_again(
    store_world: tuple[Database, Clock],
) -> None:
    """An organiser who plays may not end a rival's game as a no-show, remove a player or cancel
    while they are still in it. In a knockout, once they are knocked out no result or place of
    theirs hangs on the ties still going (the ranks go by the round each went out in), as the
    extension's rule already said: they judge the rest again, as any organiser."""
    from play import NotAPlayer
    from tests.test_tournament import CHANNEL as ROOM
    from tests.test_tournament import thread_ids

    t, started = await organiser_in_a_knockout(store_world, (21, 22, 23, 24))
    await thread_ids(t, [0])
    boards = {
        frozenset((b.first_id, b.second_id)): b
        for b in await t.store.tournament_boards(started.tournament.id)
    }
    assert set(boards) == {frozenset((21, 24)), frozenset((22, 23))}
    other = boards[frozenset((22, 23))]
    assert other.thread_id is not None
    match, state = await t.matches.current(other.thread_id)
    (absent,) = [match.sides[side] for side in state.to_act()]  # on turn, and no move made yet
    with pytest.raises(NotAPlayer, match="you play in this tournament"):
        await t.forfeit(ROOM, absent, organiser=True, by=21)  # still in: refused
    own = boards[frozenset((21, 24))]
    assert own.thread_id is not None
    await t.matches.act(own.thread_id, 21, "resign")
    await t.sweep()  # the round's sweep records 24 going on
    assert 21 not in await t._in_the_bracket(await t.open_in(ROOM))
    done = await t.forfeit(ROOM, absent, organiser=True, by=21)  # out: they judge it again
    assert {done.board.first_id, done.board.second_id} == {
        22,
        23,
    } and done.notice.match.status is Status.FINISHED


async def test_a_new_database_is_readable_by_its_owner_alone(tmp_path: Path) -> None:
    """The live SQLite file holds what the backup does, and was made with the usual umask, readable
    by every account on the machine, its -wal (the latest moves) too. A new one is now its owner's
    alone; one that exists keeps the permissions its admin gave it."""
    live = tmp_path / "wargames.db"
    async with Database.open(live, clock=lambda: 1_800_000_000.0):
        wal = tmp_path / "wargames.db-wal"
        assert wal.exists() and wal.stat().st_mode & 0o777 == 0o600
    assert live.stat().st_mode & 0o777 == 0o600
    live.chmod(0o640)  # an admin's choice, e.g. for a backup account's group
    async with Database.open(live, clock=lambda: 1_800_000_000.0):
        pass
    assert live.stat().st_mode & 0o777 == 0o640


async def test_an_extension_gives_a_quick_decision_no_more_than_its_own_short_deadline(
    store_world: tuple[Database, Clock],
) -> None:
    """Now that a quick decision runs its player's clock, a clock nearly out sets its deadline. An
    extension then moved that deadline to the new end of the clock, bounded only by a whole turn's
    time (a day here): a quick decision due in 12 hours, twice its own 6. It is bounded by the quick
    decision's own deadline, as a turn's is by the turn's."""
    from play.service import MatchService
    from tests.test_game_clock import clocked_game

    db, clock = store_world
    svc = MatchService(db, clock=clock, rng=random.Random(3))
    await clocked_game(svc, game_seconds=2 * HOUR)  # turns of a day: quick decisions of 6 hours
    await svc.act(THREAD, QUICK, "setup std")
    await svc.act(THREAD, STALLER, "setup std")
    rng = random.Random(1)
    for _ in range(60):
        match, state = await svc.current(THREAD)
        if state.quick_decision():
            break
        user = match.turn_player_id or STALLER
        legal = await svc.legal(THREAD, user)
        clock.now += 60
        await svc.act(THREAD, user, rng.choice([a for a in legal if a != "fight"]))
    assert state.quick_decision() and match.game_clock is not None and match.deadline is not None
    since = match.game_clock.since
    assert since is not None and match.deadline < since + 2 * HOUR  # the clock's end, not 6 hours
    given = await svc.give_time(match.id, 10 * HOUR)
    assert given is not None and given.deadline == since + 6 * HOUR

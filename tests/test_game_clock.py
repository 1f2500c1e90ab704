"""A clock for the whole game (RULES.md, "Tournaments": Games): a tournament game's players each have
half the round's time for all their turns, so a player cannot stall a lost game into the round's
draw by taking nearly every turn's whole deadline. On both stores, with the hand-moved clock."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from data import Database, Match, Status
from engine import registry
from play import BadRequest, MatchService
from play.listings import away_notice, away_text, back_notice, my_games_text
from play.markup import PLAIN
from play.notices import notice_text
from play.present import status_text, turn_dm_text
from play.results import Notice, Played, clock_limits, game_clock_left
from play.tournament import DAY, RoundDone, TournamentService, began_late, turn_seconds
from play.tournament_text import game_text, round_moved_text, round_now_text
from play.words import duration_text
from tests.clock import Clock
from tests.round_end import going_at_the_round_end
from tests.test_cheats import to_a_private_formality
from tests.test_tournament import open_one

HOUR = 3600
GUILD, CHANNEL, THREAD = 5, 100, 1001
QUICK, STALLER = 11, 12  # the first named plays the Germans, who set up first
ROUND = 7 * DAY
TURN = turn_seconds(ROUND)  # 2 days 8 hours: a third of the round
HALF = ROUND // 2  # each player's clock: half the round


def services(db: Database, clock: Clock) -> TournamentService:
    return TournamentService(db, MatchService(db, clock=clock, rng=random.Random(1)), clock=clock)


async def one_game(t: TournamentService, clock: Clock | None = None, late: float = 0.0) -> None:
    """A tournament of two (7-day rounds), started, its one game begun in THREAD (`late` seconds
    after the pairing, on `clock`)."""
    await open_one(t, [QUICK, STALLER], rounds=1, days=ROUND // DAY)
    started = await t.start(CHANNEL, organiser=True)
    (board,) = started.boards
    assert (board.first_id, board.second_id) == (QUICK, STALLER)
    if late:
        assert clock is not None
        clock.now += late
    await t.start_board(board, THREAD)


async def whole_turn(svc: MatchService, user: int) -> Played:
    """`user` plays their whole turn (set-up, or both moves of a Block Wars turn) at once."""
    played = None
    while True:
        match, _ = await svc.current(THREAD)
        if match.turn_player_id != user or match.status is not Status.ACTIVE:
            assert played is not None
            return played
        legal = await svc.legal(THREAD, user)
        played = await svc.act(THREAD, user, "setup std" if "setup std" in legal else legal[0])


async def clocked_game(
    svc: MatchService, game: str = "fixbayonets", side: str = "americans", game_seconds: int = 5 * DAY
) -> Match:
    """A game in THREAD with turns of a day and a game clock each (5 days unless told; QUICK plays
    `side`, by default Fix Bayonets' Americans), accepted."""
    await svc.challenge(
        guild_id=GUILD,
        channel_id=THREAD,
        challenger_id=QUICK,
        opponent_id=STALLER,
        game=game,
        side=side,
        turn_seconds=DAY,
        game_seconds=game_seconds,
    )
    return await svc.accept(THREAD, STALLER)


async def test_a_staller_loses_on_time_though_every_turn_kept_its_own_deadline(store: str):
    clock = Clock()
    db = await Database.open(store, clock=clock)
    t = services(db, clock)
    try:
        await one_game(t)
        svc = t.matches
        begun, _ = await svc.current(THREAD)
        assert begun.game_clock is not None and begun.game_clock.total == HALF
        # the quick player's first turn: a whole turn's deadline (their clock holds more)
        assert begun.deadline == clock.now + TURN

        clock.now += HOUR
        await whole_turn(svc, QUICK)
        turn = await svc.current(THREAD)
        match, state = turn
        assert match.game_clock is not None
        assert match.game_clock.left == {QUICK: HALF - HOUR, STALLER: HALF}
        assert match.game_clock.running == (STALLER,) and match.game_clock.since == clock.now
        assert match.deadline == clock.now + TURN  # 3 days 12 hours left: the turn's own deadline
        assert "clock" not in status_text(match, state, PLAIN)

        # the staller takes 2 days, within the turn's 2 days 8 hours; the quick player's clock stood still
        clock.now += 2 * DAY
        assert game_clock_left(match, QUICK, clock.now) == HALF - HOUR
        assert game_clock_left(match, STALLER, clock.now) == HALF - 2 * DAY
        await whole_turn(svc, STALLER)
        clock.now += HOUR
        played = await whole_turn(svc, QUICK)

        # now the staller's clock (1 day 12 hours) is shorter than a turn: it sets the deadline
        match = played.match
        assert match.game_clock is not None
        assert match.game_clock.left == {QUICK: HALF - 2 * HOUR, STALLER: HALF - 2 * DAY}
        assert match.deadline == clock.now + 36 * HOUR < clock.now + TURN
        assert status_text(match, played.state, PLAIN).endswith(
            f"Due at {int(clock.now + 36 * HOUR)}, when their clock for this game runs out (1 day 12 "
            "hours left on it as this turn began)."
        )
        assert turn_dm_text(match, played, STALLER, PLAIN).startswith(
            f"Your move in Block Wars in #{THREAD}, due at {int(clock.now + 36 * HOUR)}, when your clock "
            "for this game runs out (1 day 12 hours left on it as this turn began)."
        )
        # the round view shows both clocks, the staller's counting down
        clock.now += 6 * HOUR
        line = round_now_text(await t.round_of(CHANNEL), PLAIN).splitlines()[1]
        assert line == (
            f"1. @{QUICK} v @{STALLER} in #{THREAD}: @{STALLER} to move; clocks: 3 days 10 hours left "
            f"for @{QUICK}, 1 day 6 hours for @{STALLER}."
        )
        # the reminder comes a quarter of the time left before the clock runs out, and names the clock
        assert match.reminder_at == match.deadline - 9 * HOUR
        clock.now = match.reminder_at
        (reminder,) = await svc.sweep()
        assert reminder.kind == "reminder" and reminder.user_id == STALLER
        assert notice_text(reminder, PLAIN) == (
            f"@{STALLER}, your move in Block Wars is due at {int(match.deadline)}, when your clock for "
            "this game runs out (1 day 12 hours left on it as this turn began)."
        )
        # a minute before it runs out the staller moves: in time again
        clock.now = match.deadline - 60
        await whole_turn(svc, STALLER)
        clock.now += HOUR
        played = await whole_turn(svc, QUICK)
        match = played.match
        assert match.game_clock is not None and match.game_clock.left[STALLER] == 60
        assert match.deadline == clock.now + 60

        # ... and a minute later their clock is out: a loss on time, days before the round ends
        clock.now = match.deadline + 1
        (lost,) = await svc.sweep()
        assert lost.kind == "forfeit" and lost.user_id == STALLER and lost.clock_out
        assert notice_text(lost, PLAIN) == (
            f"@{STALLER} has no time left on their clock for this game and loses on time."
        )
        over = await db.get_match(match.id)
        assert over.status is Status.FINISHED and over.winner_id == QUICK
        assert over.game_clock is not None and over.game_clock.left[STALLER] == 0
        assert over.game_clock.running == ()
        tournament = await t.open_in(CHANNEL)
        assert tournament.round_ends_at is not None and clock.now < tournament.round_ends_at - 3 * DAY
        await t.sweep()
        (board,) = await t.store.tournament_boards(tournament.id)
        assert board.result == 1.0  # the quick player's win, not the round's draw
    finally:
        await db.close()


async def test_the_clock_is_stored_and_survives_a_restart(store: str):
    clock = Clock()
    db = await Database.open(store, clock=clock)
    try:
        t = services(db, clock)
        await one_game(t)
        clock.now += 2 * DAY
        await whole_turn(t.matches, QUICK)  # 2 days of the quick player's 3 days 12 hours
        before, _ = await t.matches.current(THREAD)
    finally:
        await db.close()
    # another process, or the bot restarted: it reads the clock the match stored
    db = await Database.open(store, clock=clock)
    try:
        t = services(db, clock)
        after, _ = await t.matches.current(THREAD)
        assert after.game_clock == before.game_clock
        assert after.game_clock is not None and after.game_clock.left[QUICK] == HALF - 2 * DAY
        clock.now += HOUR
        await whole_turn(t.matches, STALLER)
        match, _ = await t.matches.current(THREAD)
        # the quick player's clock (1 day 12 hours) now sets their deadline
        assert match.deadline == clock.now + HALF - 2 * DAY
        clock.now = match.deadline + 1
        (lost,) = await t.matches.sweep()
        assert lost.kind == "forfeit" and lost.user_id == QUICK and lost.clock_out
    finally:
        await db.close()


async def test_time_away_does_not_stop_the_clock_a_staller_away_loses_on_time(
    store_world: tuple[Database, Clock],
):
    """A round does not wait (RULES.md, "The game clock"): a player in a lost game who goes away
    keeps spending their clock and loses on time when it runs out, days before the round ends."""
    db, clock = store_world
    t = services(db, clock)
    svc = t.matches
    await one_game(t)
    await whole_turn(svc, QUICK)  # at once: nothing used
    turn_began = clock.now
    # the staller's turn: an hour, then away for 5 days, longer than their clock's 3 days 12 hours
    clock.now += HOUR
    away = await svc.away(GUILD, STALLER, 5)
    match, _ = await svc.current(THREAD)
    assert away.clocks == {match.id: HALF - HOUR}
    assert away_text(away, PLAIN) == (
        f"You are away until at {int(away.until or 0)} (at {int(away.until or 0)}). Your tournament "
        f"game in #{THREAD} does not wait: your clock for the whole game keeps running on your turns "
        "while you are away (3 days 11 hours left on it), and you lose on time if it runs out. Your "
        "opponent is told. Time away left: 25 days (at most 30 in any 365). `/wargames back` ends "
        "it early."
    )
    mine = my_games_text(await svc.open_games(GUILD, STALLER), STALLER, PLAIN, away.until)
    assert mine.startswith(
        f"You are away until at {int(away.until or 0)}: your clocks are stopped, except your "
        "tournament games' clocks, which keep running (`/wargames back` ends it)."
    )
    told = away_notice(match, STALLER, away.until or 0, True, PLAIN)
    assert "This tournament game does not wait: their clock for the whole game keeps running" in told
    assert "no loss on time" not in told
    # the clock ran on from the turn's start; the turn's own deadline moved 5 days, past the clock
    assert match.game_clock is not None and match.game_clock.since == turn_began
    assert match.deadline == turn_began + HALF < turn_began + TURN + 5 * DAY
    assert match.reminder_at == match.deadline - 12 * HOUR
    clock.now += DAY
    assert game_clock_left(match, STALLER, clock.now) == HALF - HOUR - DAY
    assert status_text(match, (await svc.current(THREAD))[1], PLAIN).endswith(
        f"Due at {int(match.deadline)}, when their clock for this game runs out (3 days 12 hours left "
        "on it as this turn began)."
    )

    # still away when the clock runs out: a loss on time, as for anyone, days before the round ends
    clock.now = match.deadline + 1
    assert await svc.away_until(GUILD, STALLER) is not None
    (lost,) = await svc.sweep()
    assert lost.kind == "forfeit" and lost.user_id == STALLER and lost.clock_out
    over = await db.get_match(match.id)
    assert over.status is Status.FINISHED and over.winner_id == QUICK
    tournament = await t.open_in(CHANNEL)
    assert tournament.round_ends_at is not None and clock.now < tournament.round_ends_at - 3 * DAY
    await t.sweep()
    (board,) = await t.store.tournament_boards(tournament.id)
    assert board.result == 1.0  # the quick player's win, not the round's draw
    table = await t.standings_of(CHANNEL)
    assert [(line.user_id, line.points) for line in table.lines] == [(QUICK, 1.0), (STALLER, 0.0)]


async def test_a_turn_that_comes_while_away_starts_the_clock_at_once(store_world: tuple[Database, Clock]):
    db, clock = store_world
    t = services(db, clock)
    svc = t.matches
    await one_game(t)
    # the staller goes away for 2 days before their turn; the turn comes to them an hour later
    await svc.away(GUILD, STALLER, 2)
    back_at = clock.now + 2 * DAY
    clock.now += HOUR
    played = await whole_turn(svc, QUICK)
    match = played.match
    assert match.game_clock is not None and match.game_clock.running == (STALLER,)
    assert match.game_clock.since == clock.now  # from now, not from their return
    # the turn's own deadline counts from their return, but the clock ends first
    assert back_at + TURN > clock.now + HALF
    assert match.deadline == clock.now + HALF
    assert clock_limits(match, STALLER) == HALF
    reached = clock.now
    # back a day early: the turn's own deadline moves back, the clock never stopped
    clock.now += DAY
    back = await svc.back(GUILD, STALLER)
    (match,) = back.games
    assert match.deadline == clock.now + TURN < reached + HALF
    assert match.game_clock is not None and match.game_clock.since == reached
    assert (
        back_notice(match, STALLER, True, PLAIN)
        == f"@{STALLER} is back: their move here is due at {int(match.deadline)}."
    )
    clock.now += HOUR
    played = await whole_turn(svc, STALLER)
    assert played.match.game_clock is not None
    assert played.match.game_clock.left == {QUICK: HALF - HOUR, STALLER: HALF - DAY - HOUR}


async def test_back_early_a_tournament_turn_has_what_it_had_left_not_a_whole_new_turn(
    store_world: tuple[Database, Clock],
):
    """RULES.md, "Time away": a turn owed when the absence began gets back, at an early return,
    the time it had left then. Here the game clock had set the deadline while away (the turn's
    own, moved by the absence, fell after it), so the turn's own deadline was not kept: it is
    worked out from the turn's start and the absences, not handed out afresh as a whole turn."""
    db, clock = store_world
    t = services(db, clock)
    svc = t.matches
    await one_game(t)
    await whole_turn(svc, QUICK)
    began = clock.now  # the staller's turn: 2 days 8 hours of its own, 3 days 12 hours of clock
    clock.now += 6 * HOUR
    await svc.away(GUILD, STALLER, 2)
    match, _ = await svc.current(THREAD)
    assert began + TURN + 2 * DAY > began + HALF == match.deadline  # the clock sets it while away
    clock.now += 6 * HOUR
    (match,) = (await svc.back(GUILD, STALLER)).games
    assert match.deadline == clock.now + TURN - 6 * HOUR  # not clock.now + TURN, as it once was
    assert match.game_clock is not None and match.game_clock.since == began  # it never stopped
    # away again in the same turn, and back early again: the 6 hours used since count too
    clock.now += 6 * HOUR
    await svc.away(GUILD, STALLER, 3)
    clock.now += 6 * HOUR
    (match,) = (await svc.back(GUILD, STALLER)).games
    assert match.deadline == clock.now + TURN - 12 * HOUR < began + HALF
    assert match.reminder_at is not None and match.reminder_at < match.deadline
    assert game_clock_left(match, STALLER, clock.now) == HALF - DAY  # the clock ran all along


async def test_back_early_an_ordinary_turn_has_what_it_had_left_not_a_whole_new_turn(
    store_world: tuple[Database, Clock],
):
    """The same rule without a game clock: the turn's deadline moved by the days away, and moves
    back by those not taken, twice in one turn."""
    db, clock = store_world
    svc = MatchService(db, clock=clock, rng=random.Random(1))
    await svc.challenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger_id=QUICK,
        opponent_id=STALLER,
        game="blockwars",
        side="canadians",  # the staller plays the Germans, who set up first
        turn_seconds=DAY,
    )
    began = (await svc.accept(CHANNEL, STALLER)).deadline
    assert began is not None
    began -= DAY
    clock.now += 6 * HOUR
    await svc.away(GUILD, STALLER, 3)
    clock.now += 6 * HOUR
    (match,) = (await svc.back(GUILD, STALLER)).games
    assert match.game_clock is None and match.deadline == clock.now + DAY - 6 * HOUR
    clock.now += 6 * HOUR
    await svc.away(GUILD, STALLER, 3)
    clock.now += 6 * HOUR
    (match,) = (await svc.back(GUILD, STALLER)).games
    assert match.deadline == clock.now + DAY - 12 * HOUR == began + DAY + 12 * HOUR


async def test_a_quick_decision_runs_the_clock_of_the_player_who_owes_it(store: str):
    """A quick answer (a retreat square, a card's reply) keeps its own short deadline and automatic
    answer, and runs the clock of the player who owes it, theirs alone: it ran none, and a staller
    let each one run to its deadline on nobody's clock (tests/test_cheats_eighth.py)."""
    clock = Clock()
    db = await Database.open(store, clock=clock)
    svc = MatchService(db, clock=clock, rng=random.Random(3))
    try:
        await clocked_game(svc)
        await svc.act(THREAD, QUICK, "setup std")
        await svc.act(THREAD, STALLER, "setup std")
        rng = random.Random(1)
        for _ in range(60):  # the Germans play until the Americans owe a quick answer
            match, state = await svc.current(THREAD)
            if match.turn_player_id == QUICK and state.quick_decision():
                break
            legal = await svc.legal(THREAD, match.turn_player_id or STALLER)
            clock.now += 60
            await svc.act(
                THREAD, match.turn_player_id or STALLER, rng.choice([a for a in legal if a != "fight"])
            )
        assert match.turn_player_id == QUICK and state.quick_decision()
        assert match.game_clock is not None and match.game_clock.running == (QUICK,)
        left = dict(match.game_clock.left)
        assert match.deadline is not None and match.deadline - clock.now <= 6 * HOUR  # its own short deadline
        assert clock_limits(match, QUICK) is None  # not the clock's end: no "when your clock runs out"
        clock.now += 5 * HOUR
        assert game_clock_left(match, QUICK, clock.now) == left[QUICK] - 5 * HOUR
        assert game_clock_left(match, STALLER, clock.now) == left[STALLER]
        legal = await svc.legal(THREAD, QUICK)
        played = await svc.act(THREAD, QUICK, legal[0])
        assert played.match.game_clock is not None
        assert played.match.game_clock.left == {QUICK: left[QUICK] - 5 * HOUR, STALLER: left[STALLER]}
    finally:
        await db.close()


async def test_a_game_without_a_clock_is_as_before(store: str):
    clock = Clock()
    db = await Database.open(store, clock=clock)
    svc = MatchService(db, clock=clock, rng=random.Random(3))
    try:
        await svc.challenge(
            guild_id=GUILD, channel_id=THREAD, challenger_id=QUICK, opponent_id=STALLER, game="blockwars"
        )
        with pytest.raises(BadRequest, match="at least a minute"):
            await svc.challenge(
                guild_id=GUILD,
                channel_id=THREAD + 1,
                challenger_id=QUICK,
                opponent_id=STALLER,
                game="blockwars",
                game_seconds=30,
            )
        await svc.accept(THREAD, STALLER)
        for _ in range(4):
            clock.now += 2 * DAY
            match, _ = await svc.current(THREAD)
            played = await whole_turn(svc, match.turn_player_id or 0)
            assert played.match.game_clock is None
            assert played.match.deadline == clock.now + 3 * DAY  # every turn its whole 3 days
            assert "clock" not in status_text(played.match, played.state, PLAIN)
        assert (await db.get_match(played.match.id)).game_clock is None
    finally:
        await db.close()


def test_the_clock_in_words():
    assert duration_text(36 * HOUR) == "1 day 12 hours"
    assert duration_text(2 * DAY + 59) == "2 days"
    assert duration_text(3 * HOUR + 20 * 60 + 59) == "3 hours 20 minutes"
    assert duration_text(60) == "1 minute"
    assert duration_text(59) == "less than a minute"


async def test_the_thread_states_the_clock(store_world: tuple[Database, Clock]):
    db, clock = store_world
    t = services(db, clock)
    await one_game(t)
    tournament = await t.open_in(CHANNEL)
    (board,) = await t.store.tournament_boards(tournament.id)
    match, _ = await t.matches.current(THREAD)
    assert match.game_clock is not None
    text = game_text(registry.game("blockwars"), tournament, board, PLAIN, match.game_clock.total)
    assert text == (
        f"{tournament.name}, round 1: @{QUICK} (Germans) v @{STALLER} (Canadians). Each of you has 3 "
        "days 12 hours on a clock for the whole game: it runs only while the game waits on you (your "
        "turns, and any quick answer you owe), also while you are away; whoever runs out loses on "
        "time. The round ends at "
        f"{int(tournament.round_ends_at or 0)}; a game still going then is stopped and counts as a draw."
    )


async def test_two_players_setting_up_at_once_each_pay_their_own_time(store: str):
    clock = Clock()
    db = await Database.open(store, clock=clock)
    svc = MatchService(db, clock=clock, rng=random.Random(3))
    try:
        begun = await clocked_game(svc)
        assert begun.game_clock is not None and set(begun.game_clock.running) == {QUICK, STALLER}
        clock.now += HOUR
        done = await svc.act(THREAD, QUICK, "setup std")  # their clock stops; the other's runs on
        assert done.match.game_clock is not None and done.match.game_clock.running == (STALLER,)
        clock.now += 2 * HOUR
        done = await svc.act(THREAD, STALLER, "setup std")
        match = done.match
        assert match.turn_player_id == STALLER  # the Germans move first: their clock runs on
        assert game_clock_left(match, QUICK, clock.now) == 5 * DAY - HOUR
        assert game_clock_left(match, STALLER, clock.now) == 5 * DAY - 3 * HOUR
        clock.now += HOUR
        played = await whole_turn(svc, STALLER)
        assert played.match.game_clock is not None
        assert played.match.game_clock.left == {QUICK: 5 * DAY - HOUR, STALLER: 5 * DAY - 4 * HOUR}
    finally:
        await db.close()


async def test_a_loss_on_time_while_the_bot_was_down_stands_at_the_rounds_end(
    store_world: tuple[Database, Clock],
):
    """The bot was down from before the staller's clock ran out until after the round's end: the
    round's close applies the loss on time first (its notice first), so the standings have the win,
    not the draw; whichever sweep comes first."""
    db, clock = store_world
    t = services(db, clock)
    svc = t.matches
    await one_game(t)
    await whole_turn(svc, QUICK)
    clock.now += 2 * DAY
    await whole_turn(svc, STALLER)
    played = await whole_turn(svc, QUICK)
    match = played.match
    assert match.deadline == clock.now + HALF - 2 * DAY  # the staller's clock sets it
    tournament = await t.open_in(CHANNEL)
    ends = tournament.round_ends_at
    assert ends is not None and match.deadline < ends

    clock.now = ends + DAY  # back up a day after the round's end; the tournament sweeps first
    timed_out, done = await t.sweep()
    assert isinstance(timed_out, Notice) and isinstance(done, RoundDone)
    assert timed_out.kind == "forfeit" and timed_out.user_id == STALLER and timed_out.clock_out
    assert [(line.user_id, line.points) for line in done.table.lines] == [(QUICK, 1.0), (STALLER, 0.0)]
    over = await db.get_match(match.id)
    assert over.status is Status.FINISHED and over.winner_id == QUICK  # rated, not cancelled
    assert await svc.sweep() == []  # the deadline sweep finds nothing left to do


async def test_a_deadline_after_the_rounds_end_came_too_late(store_world: tuple[Database, Clock]):
    """A game still within its turn's deadline at the round's end is stopped as a draw, also when
    the bot was down until after that deadline too and the deadline sweep runs first: the round
    ended first."""
    db, clock = store_world
    t = services(db, clock)
    await one_game(t)
    tournament = await t.open_in(CHANNEL)
    (board,) = await t.store.tournament_boards(tournament.id)
    assert board.match_id is not None and tournament.round_ends_at is not None
    await going_at_the_round_end(t, tournament.id, board.match_id, clock)  # a game begun before clocks
    match = await db.get_match(board.match_id)
    assert match.deadline is not None and match.deadline > tournament.round_ends_at
    clock.now = match.deadline + HOUR
    assert await t.matches.sweep() == []  # the deadline sweep, first after the restart, leaves it
    assert (await db.get_match(board.match_id)).status is Status.ACTIVE
    (done,) = await t.sweep()
    assert isinstance(done, RoundDone)
    assert [line.points for line in done.table.lines] == [0.5, 0.5]
    assert (await db.get_match(board.match_id)).status is Status.CANCELLED


async def test_the_away_answer_tells_apart_an_ordinary_game_and_a_tournament_game(
    store_world: tuple[Database, Clock],
):
    db, clock = store_world
    t = services(db, clock)
    svc = t.matches
    await one_game(t)
    other = THREAD + 1
    await svc.challenge(
        guild_id=GUILD, channel_id=other, challenger_id=STALLER, opponent_id=QUICK, game="blockwars"
    )
    await svc.accept(other, QUICK)
    clock.now += HOUR
    away = await svc.away(GUILD, STALLER, 2)
    assert away.until is not None
    assert away_text(away, PLAIN) == (
        f"You are away until at {int(away.until)} (at {int(away.until)}). The clock of your other game "
        "here stops while it is your move: no reminder and no loss on time until you are back, and "
        f"your opponents are told. Your tournament game in #{THREAD} does not wait: your clock for the "
        "whole game keeps running on your turns while you are away (3 days 12 hours left on it), and "
        "you lose on time if it runs out. Time away left: 28 days (at most 30 in any 365). "
        "`/wargames back` ends it early."
    )
    ordinary = next(m for m in away.games if m.channel_id == other)
    said = away_notice(ordinary, STALLER, away.until, True, PLAIN)
    assert "While it is their move, their clock here stops: no reminder and no loss on time" in said
    assert ordinary.deadline == clock.now - HOUR + 3 * DAY + 2 * DAY  # the ordinary game waits


async def test_a_quick_decision_owed_across_downtime_gets_its_answer_then_the_rounds_draw(
    store_world: tuple[Database, Clock],
):
    """The bot was down across a quick decision's short deadline and the round's end: its automatic
    answer is played (and told), but the turn after it starts only when the bot is back, past the
    round's end, so the game is the round's draw."""
    db, clock = store_world
    t = services(db, clock)
    svc = t.matches
    made = await t.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=1,
        game="fixbayonets",
        rounds=1,
        days=7,
        organiser=True,
    )
    await t.seal_shown(made)  # as the adapter shows it, before anyone may join
    for user in (QUICK, STALLER):
        await t.join(made, user)
    (board,) = (await t.start(CHANNEL, organiser=True)).boards
    await t.start_board(board, THREAD)
    rng = random.Random(1)
    for _ in range(80):  # play on until someone owes a quick answer
        match, state = await svc.current(THREAD)
        if state.quick_decision():
            break
        user = match.turn_player_id or QUICK
        legal = await svc.legal(THREAD, user)
        clock.now += 60
        choices = [a for a in legal if a != "fight"] or legal
        await svc.act(THREAD, user, "setup std" if "setup std" in legal else rng.choice(choices))
    assert state.quick_decision() and match.deadline is not None
    tournament = await t.open_in(CHANNEL)
    ends = tournament.round_ends_at
    assert ends is not None and match.deadline < ends

    clock.now = ends + HOUR
    answered, done = await t.sweep()
    assert isinstance(answered, Notice) and answered.kind == "default"
    assert isinstance(done, RoundDone)
    assert [line.points for line in done.table.lines] == [0.5, 0.5]
    assert (await db.get_match(match.id)).status is Status.CANCELLED


async def test_a_clock_stopped_for_time_away_under_the_old_rule_runs_again_at_the_return(
    store_world: tuple[Database, Clock],
):
    """A game whose clock was set to wait for a player's return before this rule (it stopped while
    away) runs again from when they come back early, as it would have then."""
    db, clock = store_world
    t = services(db, clock)
    svc = t.matches
    await one_game(t)
    await whole_turn(svc, QUICK)
    away = await svc.away(GUILD, STALLER, 3)
    assert away.until is not None
    match, _ = await svc.current(THREAD)
    assert match.game_clock is not None
    # as the old rule left it: the clock waiting for the return, the turn's deadline a turn after
    old = replace(match.game_clock, since=away.until)
    await db.update_match(
        match.id,
        expected_version=match.version,
        game_clock=old,
        deadline=away.until + TURN,
        reminder_at=away.until,
    )
    svc.forget(THREAD)
    clock.now += DAY
    back = await svc.back(GUILD, STALLER)
    (match,) = back.games
    assert match.game_clock is not None and match.game_clock.since == clock.now
    assert match.deadline == clock.now + TURN
    assert game_clock_left(match, STALLER, clock.now + HOUR) == HALF - HOUR


async def test_a_loss_on_the_game_clock_in_the_middle_of_a_private_turn(store_world: tuple[Database, Clock]):
    """The game clock runs out while its player is in the middle of a turn still theirs alone (one of
    Block Wars' two actions taken): they lose on time, their clock reads nothing left and stops, and
    the step they had taken stands and is told, as when a turn's own deadline passes."""
    db, clock = store_world
    svc = MatchService(db, clock=clock, rng=random.Random(3))
    await clocked_game(svc, "blockwars", "germans", game_seconds=2 * HOUR)
    for user in (QUICK, STALLER):
        await svc.act(THREAD, user, "setup std")
    clock.now += HOUR
    step = await svc.act(THREAD, QUICK, "a6-a5")
    assert step.mid_turn
    match = step.match
    assert match.game_clock is not None and match.game_clock.running == (QUICK,)
    assert (
        match.game_clock.since is not None and match.deadline == match.game_clock.since + 2 * HOUR
    )  # the clock's end, not the turn's day
    assert await svc.channel_view(match) is not None  # the channel has not seen the step
    clock.now = match.deadline + 1
    (lost,) = await svc.sweep()
    assert lost.kind == "forfeit" and lost.user_id == QUICK and lost.clock_out and lost.whole_turn
    assert lost.played is not None and [s.notation for s in lost.played.steps] == ["a6-a5", "timeout"]
    text = notice_text(lost, PLAIN)
    assert text.startswith(
        f"@{QUICK} has no time left on their clock for this game and loses on time. The steps of the "
        "turn they had begun stand:\n"
    ), text
    assert "a6-a5" in text and text.count("time") == 2, text
    over = await db.get_match(match.id)
    assert over.status is Status.FINISHED and over.winner_id == STALLER
    assert over.game_clock is not None and over.game_clock.left == {QUICK: 0, STALLER: 2 * HOUR}
    assert over.game_clock.running == ()
    assert [r.notation for r in await db.actions(match.id)][-2:] == ["a6-a5", "timeout"]
    assert await svc.sweep() == []  # told once


async def test_a_game_clock_run_out_when_only_a_formality_was_left_is_a_loss_on_time(
    store_world: tuple[Database, Clock],
):
    """Battlefronts: a private step left its player only the formal `pass`, and their game clock (not
    the turn's deadline) then ran out. The sweep played the `pass` for them, as at a turn's deadline,
    and the game went on with their clock at nothing: the loss came a turn later, after the opponent
    had played for nothing (or the pass ended the game, perhaps as their win). A clock run out is a
    loss on time, the steps standing and told (RULES.md, "The game clock")."""
    db, clock = store_world
    svc = MatchService(db, clock=clock, rng=random.Random(3))
    await clocked_game(svc, "battlefronts", "red", game_seconds=3 * HOUR)
    _, step = await to_a_private_formality(svc, THREAD)
    match, state = await svc.current(THREAD)
    assert state.quick_decision() and match.game_clock is not None
    late = match.game_clock.running[0]
    assert match.deadline is not None and match.deadline < clock.now + DAY  # the clock's end
    clock.now = match.deadline + 1
    (lost,) = await svc.sweep()
    assert lost.kind == "forfeit" and lost.user_id == late and lost.clock_out and lost.whole_turn
    assert not lost.by_default
    assert lost.played is not None and [s.notation for s in lost.played.steps][-2:] == [
        step.notation,
        "timeout",
    ]
    assert notice_text(lost, PLAIN).startswith(
        f"@{late} has no time left on their clock for this game and loses on time. The steps of the "
        "turn they had begun stand:\n"
    )
    over = await db.get_match(match.id)
    assert over.status is Status.FINISHED and over.winner_id == match.other_player(late)
    assert over.game_clock is not None and over.game_clock.left[late] == 0


async def test_a_game_begun_late_is_told_as_late_and_one_begun_with_its_round_is_not(
    store_world: tuple[Database, Clock],
):
    """Every game moves its round's end by the moment it took to start (no news); one begun late
    moves it by its delay, and the channel is told in one line (cogs/tournament.py)."""
    db, clock = store_world
    t = services(db, clock)
    paired = clock.now
    await one_game(t, clock, late=20)  # the thread took a moment to open
    prompt = await t.open_in(CHANNEL)
    assert prompt.round_ends_at == paired + 20 + ROUND  # moved, by that moment
    assert not began_late(paired + ROUND, prompt.round_ends_at)
    assert began_late(paired + ROUND, paired + HOUR + ROUND)
    assert not began_late(None, paired + ROUND)
    ends = int(prompt.round_ends_at or 0)
    name = prompt.name
    assert round_moved_text(prompt, [1], 1, PLAIN) == (
        f"{name}: round 1 of 1 now ends at {ends}, because its games began late and each has the whole round."
    )
    assert round_moved_text(prompt, [2], 4, PLAIN) == (
        f"{name}: round 1 of 1 now ends at {ends}, because board 2 began late and has the whole round; "
        "the other games may go on until then, on the clocks they have."
    )
    assert "because boards 1, 2 and 4 began late and have the whole round; " in round_moved_text(
        prompt, [1, 2, 4], 8, PLAIN
    )
    assert "because 5 of its games began late and have" in round_moved_text(prompt, [1, 2, 3, 4, 5], 8, PLAIN)


async def test_a_game_begun_late_has_the_whole_round_and_the_round_waits_for_it(
    store_world: tuple[Database, Clock],
):
    """The bot could not start the game until three days into its seven-day round. Its players got
    half the time left each (2 days, where a game begun with the round has 3 days 12 hours), and the
    round's end stopped it as a draw while both still had time. Now it has the whole round: full
    clocks, and the round's end moves to its start plus seven days (RULES.md, a game begun late)."""
    db, clock = store_world
    t = services(db, clock)
    paired = clock.now
    await one_game(t, clock, late=3 * DAY)
    begun, _ = await t.matches.current(THREAD)
    assert begun.game_clock is not None and begun.game_clock.total == HALF
    tournament = await t.open_in(CHANNEL)
    assert tournament.round_ends_at == paired + 3 * DAY + ROUND
    # both play on, a turn every six hours, past the round's first end
    while clock.now <= paired + ROUND:
        clock.now += 6 * HOUR
        match, _ = await t.matches.current(THREAD)
        await whole_turn(t.matches, match.turn_player_id or 0)
    assert await t.sweep() == []  # the round waits for it
    match, _ = await t.matches.current(THREAD)
    assert match.status is Status.ACTIVE and match.game_clock is not None
    # then the player to move lets their clock run out: the win counts, the round closes
    late = match.turn_player_id
    assert match.deadline is not None and match.deadline < (tournament.round_ends_at or 0)
    clock.now = match.deadline + 1
    (lost,) = await t.matches.sweep()
    assert lost.kind == "forfeit" and lost.user_id == late
    (done,) = await t.sweep()
    assert isinstance(done, RoundDone)
    assert sorted(line.points for line in done.table.lines) == [0.0, 1.0]


async def test_of_two_setting_up_at_once_the_one_who_finishes_first_stops_their_clock(tmp_path):
    """Both sides of Fix Bayonets set up at once, so both clocks run; the one who finishes first
    stops theirs then, though the game still waits on the other (RULES.md, "The game clock": both
    run "until each has finished"). The Germans' player, not the one the match names as on turn,
    finishes first here: no new turn begins, and only the clocks that run change."""
    clock = Clock()
    db = await Database.open(tmp_path / "g.db", clock=clock)
    svc = MatchService(db, clock=clock, rng=random.Random(3))
    try:
        match = await clocked_game(svc)  # QUICK plays the Americans
        assert match.turn_player_id == QUICK and match.game_clock is not None
        assert set(match.game_clock.running) == {QUICK, STALLER}
        clock.now += HOUR
        played = await svc.act(THREAD, STALLER, "setup std")
        assert played.match.game_clock is not None and played.match.game_clock.running == (QUICK,)
        clock.now += 2 * HOUR
        played = await svc.act(THREAD, QUICK, "setup std")
        assert played.match.game_clock is not None
        assert played.match.game_clock.left == {QUICK: 5 * DAY - 3 * HOUR, STALLER: 5 * DAY - HOUR}
    finally:
        await db.close()

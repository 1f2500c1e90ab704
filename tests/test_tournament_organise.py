"""An organiser's tools on a running tournament (play/tournament_organise.py, RULES.md "A no-show",
"Leaving"), on both stores: ending a no-show's game now as a loss on time (refused once the player
has moved, or before their turn), the round closing when that was its last game; undoing a
removal until the next round is paired, saying what the player missed; a removed player's bye."""

from __future__ import annotations

from itertools import islice
from pathlib import Path

import pytest

from data import Status
from engine import registry
from engine.protocol import EndReason
from play import BadRequest, NotAPlayer
from play.markup import PLAIN
from play.notices import notice_text
from play.swiss import Entrant, Pairing, pair
from play.tournament import TournamentService
from play.tournament_crosstable import Ended, ending
from play.tournament_leaving_text import undo_hint
from play.tournament_organise import forfeited_text, reinstated_text
from tests.console_run import fresh_console
from tests.random_play import random_steps
from tests.test_tournament import CHANNEL, services
from tests.test_tournament_manage import ORGANISER, begin, board_of, boards_of, one_board, start_games


async def owing(t: TournamentService, thread: int) -> tuple[int, int]:
    """(who must move in the game in `thread`, the other player)."""
    match, state = await t.matches.current(thread)
    assert state is not None
    (side,) = sorted(state.to_act())
    mover = match.sides[side]
    return mover, next(u for u in match.players if u != mover)


async def test_an_organiser_ends_a_no_shows_game_and_the_round_closes_with_it(store_world):
    db, clock = store_world
    t = services(db, clock)
    tournament = await begin(t, [11, 12, 13, 14])
    first, second = await boards_of(t, tournament.id, 1)
    assert first.thread_id is not None and second.thread_id is not None
    absent, present = await owing(t, first.thread_id)

    with pytest.raises(NotAPlayer, match="may end a no-show's game"):
        await t.forfeit(CHANNEL, absent, organiser=False, by=present)
    with pytest.raises(
        BadRequest, match=f"It is @{absent}'s move in this game, so @{present} has not yet had"
    ):
        await t.forfeit(CHANNEL, present, organiser=True, by=ORGANISER)
    with pytest.raises(BadRequest, match="@99 has no game in round 1: there is nothing to end"):
        await t.forfeit(CHANNEL, 99, organiser=True, by=ORGANISER)
    # a player who has moved is playing: refused, the game unchanged
    mover, _ = await owing(t, second.thread_id)
    legal = await t.matches.legal(second.thread_id, mover)
    await t.matches.act(second.thread_id, mover, str(legal[0]))
    with pytest.raises(BadRequest, match=f"@{mover} has moved in this game, so it is a game, not a no-show"):
        await t.forfeit(CHANNEL, mover, organiser=True, by=ORGANISER)
    assert (await db.get_match(second.match_id or 0)).status is Status.ACTIVE

    rating = (await db.player_stats(5, "blockwars", present)).rating
    done = await t.forfeit(CHANNEL, absent, organiser=True, by=ORGANISER)
    match = await db.get_match(first.match_id or 0)
    assert match.status is Status.FINISHED and match.winner_id == present
    state = registry.game("blockwars").from_json(match.snapshot or {})
    outcome = state.outcome()
    assert outcome is not None and outcome.reason is EndReason.TIMEOUT  # as on time, and rated so
    assert (await db.player_stats(5, "blockwars", present)).rating > rating
    assert notice_text(done.notice, PLAIN) == (
        f"@{ORGANISER}, an organiser, ended this game: @{absent} has made no move in it, so @{present} "
        "wins, as on time (rated as a loss on time)."
    )
    assert forfeited_text(done, PLAIN) == (
        f"@{present} wins their game of round 1 against @{absent}, who made no move in it, as on time; "
        f"both were told in #{first.thread_id}. The round ends as soon as its last game does."
    )
    with pytest.raises(BadRequest, match=f"@{absent}'s game of round 1 is over already"):
        await t.forfeit(CHANNEL, absent, organiser=True, by=ORGANISER)

    # the other game ends too: the sweep records both and pairs round 2 at once
    await t.matches.act(second.thread_id, mover, "resign")
    await t.sweep()
    assert board_of(await boards_of(t, tournament.id, 1), absent).result in (0.0, 1.0)
    assert len(await boards_of(t, tournament.id, 2)) == 2


async def test_an_organiser_undoes_a_removal_until_the_next_round_is_paired(store_world):
    db, clock = store_world
    t = services(db, clock)
    tournament = await begin(t, [11, 12, 13, 14, 15])
    boards = await boards_of(t, tournament.id, 1)
    game = next(b for b in boards if b.second_id is not None)
    removed, other = game.first_id, game.second_id
    assert other is not None and game.thread_id is not None

    gone = await t.remove(CHANNEL, removed, organiser=True, by=ORGANISER)
    assert undo_hint(gone, PLAIN) == (
        f"Removed @{removed} by mistake? `/tournament reinstate` puts them back until round 2 is paired."
    )
    entry = next(e for e in await t.entries(tournament) if e.user_id == removed)
    assert (entry.withdrawn, entry.withdrawn_round, entry.withdrawn_by) == (True, 1, ORGANISER)
    with pytest.raises(NotAPlayer, match="may put a removed player back"):
        await t.reinstate(CHANNEL, removed, organiser=False)
    with pytest.raises(
        BadRequest, match=f"@{other} is still in this tournament: there is no removal to undo"
    ):
        await t.reinstate(CHANNEL, other, organiser=True)
    # a latecomer's join is not a way back: only an organiser can undo it
    with pytest.raises(BadRequest, match="Only an organiser can put you back"):
        await t.join(tournament, removed)
    back = await t.reinstate(CHANNEL, removed, organiser=True)
    assert back.tournament.version > tournament.version  # a sweep that read the players before loses
    assert not next(e for e in await t.entries(tournament) if e.user_id == removed).withdrawn
    assert reinstated_text(back, ORGANISER, PLAIN) == (
        f"@{ORGANISER} put @{removed} back into {tournament.name}: they are paired again from round 2. "
        f"Their game of round 1 with @{other} plays on in #{game.thread_id}."
    )

    # removed again; they lose their game meanwhile: put back, the loss stands and is said
    await t.remove(CHANNEL, removed, organiser=True, by=ORGANISER)
    await t.matches.act(game.thread_id, removed, "resign")
    back = await t.reinstate(CHANNEL, removed, organiser=True)
    assert reinstated_text(back, ORGANISER, PLAIN).endswith(
        f"Their game of round 1 with @{other} ended while they were out (they lost it), and that result "
        "stands."
    )

    # a player's own withdrawal is theirs: not undone by an organiser
    bye = next(b for b in boards if b.second_id is None)
    await t.withdraw_from(tournament.id, bye.first_id)
    with pytest.raises(BadRequest, match=f"@{bye.first_id} withdrew themselves .* cannot be undone"):
        await t.reinstate(CHANNEL, bye.first_id, organiser=True)
    # their bye, paired before they withdrew, keeps its point (RULES.md "Leaving")
    line = next(x for x in (await t.table(tournament)).lines if x.user_id == bye.first_id)
    assert (line.points, line.withdrawn) == (1.0, True)

    # removed, then the round ends and round 2 is paired without them: too late to undo
    await t.remove(CHANNEL, removed, organiser=True, by=ORGANISER)
    for board in boards:
        if board.second_id is not None and board is not game:
            assert board.thread_id is not None
            await t.matches.act(board.thread_id, board.second_id, "resign")
    await t.sweep()
    await start_games(t)
    assert removed not in {u for b in await boards_of(t, tournament.id, 2) for u in (b.first_id, b.second_id)}
    with pytest.raises(
        BadRequest, match=f"@{removed} was removed in round 1, and round 2 has been paired since"
    ):
        await t.reinstate(CHANNEL, removed, organiser=True)


async def test_the_next_bye_passes_over_a_player_who_lost_without_a_move(store_world):
    """RULES.md "Pairing": round 1's no-show and the player who resigned both have 0 points and no
    bye; the bye goes to the one who played, though the no-show ranks lower or not."""
    db, clock = store_world
    t = services(db, clock)
    tournament = await begin(t, [11, 12, 13, 14, 15])
    games = [b for b in await boards_of(t, tournament.id, 1) if b.second_id is not None]
    assert len(games) == 2 and games[0].thread_id is not None and games[1].thread_id is not None
    # the mover with the larger id is the no-show: at equal points and ratings they rank lower
    movers = sorted([((await owing(t, b.thread_id or 0))[0], b.thread_id or 0) for b in games])
    (resigner, there), (absent, _) = movers
    await t.forfeit(CHANNEL, absent, organiser=True, by=ORGANISER)
    await t.matches.act(there, resigner, "resign")
    await t.sweep()
    (bye,) = [b for b in await boards_of(t, tournament.id, 2) if b.second_id is None]
    assert bye.first_id == resigner
    # without the rule the no-show would have had it
    boards = await t.store.tournament_boards(tournament.id)
    entrants = [Entrant(e.user_id, e.rating or 0.0) for e in await t.entries(tournament)]
    games1 = [Pairing(b.round, b.first_id, b.second_id, b.result) for b in boards if b.round == 1]
    assert pair(entrants, games1, 2)[-1] == Pairing(2, absent, None)


async def test_the_console_takes_a_latecomer_ends_a_no_show_and_undoes_a_removal(tmp_path: Path):
    """The same three in the console's plain words: `join` after the start, `forfeit` (the notice
    printed under the game's thread), `remove` then `reinstate`."""
    from console import names

    async with fresh_console(tmp_path) as (console, out):
        me = names.user_name(console.my_id)
        for line in (
            "/tournament create game:blockwars rounds:2 days:1 name:Club",
            "/tournament join",
            "/as bob",
            "/tournament join",
            f"/as {me}",
            "/tournament start",
            "/as carol",
            "/tournament join",
        ):
            await console.handle(line)
        text = out.getvalue()
        assert "You are in Club from round 2 of 2. You missed round 1" in text
        assert "@carol joined Club late: they play from round 2" in text
        service = console.tournaments.service
        tournament = await service.open_in(names.channel_id("general"))
        (game,) = await boards_of(service, tournament.id, 1)
        absent, present = await owing(service, names.channel_id("t1r1b1"))
        await console.handle("/as referee")  # an organiser who plays may not (the seventh review)
        await console.handle(f"/tournament remove member:{names.user_name(present)}")
        await console.handle(f"/tournament reinstate member:{names.user_name(present)}")
        text = out.getvalue()
        assert (
            f"@referee put @{names.user_name(present)} back into Club: they are paired again from round 2."
            in text
        )
        await console.handle(f"/tournament forfeit member:{names.user_name(absent)}")
        text = out.getvalue()
        assert (
            f"@{names.user_name(present)} wins their game of round 1 against @{names.user_name(absent)}"
            in text
        )
        assert (
            f"[t1r1b1] @referee, an organiser, ended this game: @{names.user_name(absent)} has made no move"
            in text
        )
        # its round's last game: the round closes at once, round 2 pairs the latecomer
        assert "round 1 of 2 is over" in text
        round2 = await boards_of(service, tournament.id, 2)
        assert names.user_id("carol") in {u for b in round2 for u in (b.first_id, b.second_id)}
        assert game.match_id is not None and console.refused == 0


async def test_a_quick_decisions_automatic_answer_is_not_the_absent_players_move(store_world):
    """RULES.md "A no-show": the bot's automatic answer to a quick decision (Fix Bayonets' cancel or
    let stand) is stored in the absent player's name, but is not their act: it counted as their
    move, so their game could not be forfeited by an organiser and their loss read `time`."""
    db, clock = store_world
    t = services(db, clock)
    made, board = await one_board(t, "fixbayonets")
    assert board.thread_id is not None and board.match_id is not None
    rules = registry.game("fixbayonets")
    state, _, _ = next(islice(random_steps(rules, 0), 9, None))  # seed 0: the Germans' cancel-or-stand
    assert state.quick_decision() and state.to_act() == {"germans"}
    match = await db.get_match(board.match_id)
    absent, present = match.sides["germans"], match.sides["americans"]
    await db.update_match(
        match.id,
        expected_version=match.version,
        snapshot=state.to_json(),
        turn_player_id=absent,
        deadline=clock.now,
    )
    t.matches.forget(board.thread_id)  # written behind the service's back
    clock.now += 1
    (answered,) = await t.matches.sweep()
    assert answered.kind == "default" and answered.user_id == absent  # the bot let it stand for them
    for _ in range(40):  # the present player plays on until the absent player owes their turn
        match, state = await t.matches.current(board.thread_id)
        if "germans" in state.to_act() and not state.quick_decision():
            break
        await t.matches.act(
            board.thread_id, present, str((await t.matches.legal(board.thread_id, present))[0])
        )
    assert "germans" in state.to_act()
    done = await t.forfeit(CHANNEL, absent, organiser=True, by=ORGANISER)  # it said "has moved"
    assert done.notice.kind == "no-show"
    over = await db.get_match(board.match_id)
    assert over.status is Status.FINISHED and over.winner_id == present
    await t.sweep()  # the result recorded
    record = await ending(db, (await boards_of(t, made.id, 1))[0], over)
    assert record.ended is Ended.FORFEIT  # not `time`: a game never played


async def test_a_no_show_in_a_simultaneous_set_up_tells_the_other_army(store_world):
    """Combined Arms' armies are chosen at once, kept secret until both are in: when an organiser
    ends the game of a player who never chose, the notice tells the army the other had chosen."""
    db, clock = store_world
    t = services(db, clock)
    _, board = await one_board(t, "combinedarms")
    assert board.thread_id is not None and board.second_id is not None
    await t.matches.act(board.thread_id, board.first_id, "army balanced")
    done = await t.forfeit(CHANNEL, board.second_id, organiser=True, by=ORGANISER)
    text = notice_text(done.notice, PLAIN)
    assert (
        f"wins, as on time (rated as a loss on time).\nWhat @{board.first_id} had done, hidden until now:\n"
        in text
    )
    assert "have chosen their army: 8 Infantry" in text, text

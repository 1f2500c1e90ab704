"""The seventh review from the store and the engine (docs/fairness.md, "the seventh review")."""

from __future__ import annotations

import random

import pytest

from data import Database, Status
from data.tournaments import TournamentStatus
from engine import registry
from play import NotAPlayer
from tests.clock import Clock
from tests.test_fair_chance import twin_moments
from tests.test_game_clock import CHANNEL, QUICK, STALLER, one_game, services

ORGANISER = 1  # made the tournament, and does not play in it


@pytest.mark.parametrize("name", ["battlefronts", "companycommander"])
def test_what_a_board_shows_greyed_depends_only_on_public_facts(name: str) -> None:
    """Battlefronts' End turn and Company Commander's Done deploying are shown disabled until they
    are legal. The channel's menu, greyed buttons included, is the same in twins that differ only in
    what the player to act may not see and in chance to come, so a greyed button tells nothing."""
    game = registry.game(name)
    greyed = compared = 0
    for rng, state, side in twin_moments(name, 31, steps=80, every=2):
        twin = game.chance_twin(state, side, random.Random(rng.random()))
        menu = game.menu(state.view(None))
        assert menu == game.menu(twin.view(None))
        compared += 1
        greyed += any(c.disabled for c in menu.buttons)
    assert compared > 20 and greyed > 0, (compared, greyed)


async def test_an_organiser_who_plays_may_not_extend_their_round_forfeit_or_remove_a_rival(
    store_world: tuple[Database, Clock],
) -> None:
    """Any member who can manage the server is an organiser, and may play. One short of time on
    their own clock extended the round and took half of it (the same for their opponent, whose clock
    was not running); one ended their own opponent's game as a no-show a minute into it, for the
    win; one removed their closest rival, never paired again. An organiser still in the tournament
    is now refused all three (an extension once their own game is over is theirs again), nothing
    changes, and another organiser does each as before."""
    db, clock = store_world
    t = services(db, clock)
    await one_game(t)  # QUICK against STALLER, QUICK to set up first; STALLER also organises
    before = await t.open_in(CHANNEL)
    with pytest.raises(NotAPlayer) as refused:
        await t.extend(CHANNEL, 24, organiser=True, by=STALLER)
    assert str(refused.value) == (
        "You cannot extend round 1 of Block Wars Swiss while your own game of it is still going: "
        "the time would go on your own clock as well. Ask another organiser, or a member who can "
        "manage the server; once your game is over, you may."
    )
    clock.now += 60
    with pytest.raises(NotAPlayer) as refused:
        await t.forfeit(CHANNEL, QUICK, organiser=True, by=STALLER)
    assert str(refused.value) == (
        "You cannot end a player's game as a no-show: you play in this tournament, and its result "
        "counts in the standings you play for. Ask another organiser, or a member who can manage "
        "the server."
    )
    with pytest.raises(NotAPlayer, match="You cannot remove a player: you play in this tournament"):
        await t.remove(CHANNEL, QUICK, organiser=True, by=STALLER)
    now = await t.open_in(CHANNEL)
    assert now.round_ends_at == before.round_ends_at
    assert all(not e.withdrawn for e in await t.entries(now))
    (board,) = await t.store.tournament_boards(now.id)
    assert board.match_id is not None and (await db.get_match(board.match_id)).status is Status.ACTIVE

    done = await t.extend(CHANNEL, 24, organiser=True, by=ORGANISER)  # one who does not play
    assert done.games == 1
    ended = await t.forfeit(CHANNEL, QUICK, organiser=True, by=ORGANISER)
    assert ended.notice.match.winner_id == STALLER


async def test_an_organiser_taken_off_by_another_may_not_put_themselves_back(
    store_world: tuple[Database, Clock],
) -> None:
    """`reinstate` undoes an organiser's removal; it did so for the removed player themselves when
    they organise too, so another organiser's removal of them (a disruptive player, a no-show) was
    one command from undone. They are refused, named who took them off; another organiser may put
    them back, as before."""
    db, clock = store_world
    t = services(db, clock)
    await one_game(t)
    await t.remove(CHANNEL, STALLER, organiser=True, by=ORGANISER)
    with pytest.raises(NotAPlayer) as refused:
        await t.reinstate(CHANNEL, STALLER, organiser=True, by=STALLER)
    assert str(refused.value) == (
        f"You cannot put yourself back: @{ORGANISER} took you off, and undoing it is for another "
        "organiser, or a member who can manage the server."
    )
    tournament = await t.open_in(CHANNEL)
    assert [e.user_id for e in await t.entries(tournament) if e.withdrawn] == [STALLER]
    back = await t.reinstate(CHANNEL, STALLER, organiser=True, by=ORGANISER)
    assert back.user_id == STALLER


async def test_an_organiser_who_plays_may_not_cancel_the_running_tournament(
    store_world: tuple[Database, Clock],
) -> None:
    """A cancel stops every game still going without a result: an organiser losing their own game
    cancelled the tournament and their loss (and its rating change) never came. Refused to one
    still in it once it runs; another organiser cancels as before."""
    db, clock = store_world
    t = services(db, clock)
    await one_game(t)
    with pytest.raises(NotAPlayer, match="You cannot cancel it: you play in this tournament"):
        await t.cancel(CHANNEL, organiser=True, by=QUICK)
    tournament = await t.open_in(CHANNEL)
    (board,) = await t.store.tournament_boards(tournament.id)
    assert board.match_id is not None and (await db.get_match(board.match_id)).status is Status.ACTIVE
    done = await t.cancel(CHANNEL, organiser=True, by=ORGANISER)
    assert done.status is TournamentStatus.CANCELLED

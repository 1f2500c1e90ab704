"""A tournament game still within its turn's deadline when its round ends, for the tests of the
round's draw. With the game clock (RULES.md) that cannot happen by moving alone: the two clocks
together hold the round's time left, so by its end one of them has run out. It happens to a game
begun before games had clocks, which plays on under its turns' own deadlines: that is the game made
here."""

from __future__ import annotations

from data import Status
from play.tournament import TournamentService
from tests.clock import Clock

HOUR = 3600


async def going_at_the_round_end(
    t: TournamentService, tournament_id: int, match_id: int, clock: Clock
) -> None:
    """Take the clock off `match_id` (a game of the tournament's current round) and play it, each
    turn an hour before its deadline, until the turn owed runs past the round's end."""
    match = await t.db.get_match(match_id)
    await t.db.update_match(match_id, expected_version=match.version, game_clock=None)
    t.matches.forget(match.channel_id)
    ends = (await t.by_id(tournament_id)).round_ends_at
    assert ends is not None
    while True:
        match, _ = await t.matches.current(match.channel_id)
        assert match.status is Status.ACTIVE and match.deadline is not None and match.game_clock is None
        if match.deadline > ends:
            return
        clock.now = match.deadline - HOUR
        user = match.turn_player_id or 0
        while match.turn_player_id == user and match.status is Status.ACTIVE:
            legal = await t.matches.legal(match.channel_id, user)
            played = await t.matches.act(
                match.channel_id, user, "setup std" if "setup std" in legal else legal[0]
            )
            match = played.match

"""The tournament rules' edges that the break test (a one-line change to a rule, run against the
tests) found no test held: the largest settings an organiser may choose, and the cases named in
each test's docstring. Pure functions where the rule is one; the service on SQLite otherwise."""

from __future__ import annotations

import pytest

from play import BadRequest
from play.tournament_formats import MAX_CAP, MAX_SIGNUP_DAYS, Settings

SWISS_ROUNDS = (1, 12)


def test_the_largest_settings_are_taken_and_one_more_is_refused() -> None:
    """RULES.md gives each bound as "1 to 12 rounds", "2 to 100 players" and so on: the top of
    each range is the organiser's to choose (a `<` for a `<=` refused it, and no test asked for the
    top itself)."""
    most = Settings.chosen("swiss", 12, MAX_CAP, None, SWISS_ROUNDS, MAX_SIGNUP_DAYS)
    assert (most.rounds, most.max_players, most.signup_days) == (12, 100, 30)
    assert Settings.chosen("round-robin", None, 10, None, SWISS_ROUNDS).max_players == 10
    assert Settings.chosen("knockout", None, 64, None, SWISS_ROUNDS).max_players == 64
    refused = [
        (("swiss", 13, None, None, SWISS_ROUNDS), "A tournament has 1 to 12 rounds."),
        (("swiss", 3, 101, None, SWISS_ROUNDS), "A tournament's cap on players is 2 to 100."),
        (("round-robin", None, 11, None, SWISS_ROUNDS), "A round-robin's cap on players is 2 to 10."),
        (("knockout", None, 65, None, SWISS_ROUNDS), "A knockout's cap on players is 2 to 64."),
        (("swiss", 3, None, None, SWISS_ROUNDS, 31), "Sign-ups stay open 1 to 30 days."),
    ]
    for args, said in refused:
        with pytest.raises(BadRequest) as why:
            Settings.chosen(*args)  # type: ignore[arg-type]
        assert str(why.value) == said

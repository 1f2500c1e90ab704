"""Elo ratings: simple, explainable to players, and stable enough for a handful of games per server.

K = 32 and a start of 1200 (the classic club defaults). Glicko would track uncertainty better,
but needs rating periods that a casual Discord server does not have.
"""

from __future__ import annotations

K_FACTOR = 32.0
START_RATING = 1200.0
REPEAT_DAYS = 30  # a game against an opponent met in a rated game this recently counts less


def expected_score(rating: float, opponent: float) -> float:
    """The score the rating gap predicts, in [0, 1]."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def updated(rating_a: float, rating_b: float, score_a: float, k: float = K_FACTOR) -> tuple[float, float]:
    """New (a, b) ratings after one game; score_a is 1 (a won), 0.5 (draw) or 0 (a lost).

    The update is zero-sum, so the total rating of a server never drifts.
    """
    delta = k * (score_a - expected_score(rating_a, rating_b))
    return rating_a + delta, rating_b - delta


def repeat_weight(earlier: int) -> float:
    """How much of Elo's change a rated game between two players makes when they finished `earlier`
    rated games together in the `REPEAT_DAYS` before it: all of it for the first, then a half, a
    third, and so on (RULES.md, "Ratings"). Why: beating a second account of one's own again and
    again would otherwise climb without end (10 wins gave +110, 100 wins +308), and with it a
    tournament's seed; now 10 such wins in a month give +42, and 100 give +67. Friends who meet
    often still move each other's ratings, only more slowly, and their games against everyone else
    count in full."""
    return 1.0 / (1 + max(0, earlier))

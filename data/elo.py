"""Elo ratings: simple, explainable to players, and stable enough for a handful of games per server.

K = 32 and a start of 1200 (the classic club defaults). Glicko would track uncertainty better,
but needs rating periods that a casual Discord server does not have.
"""

from __future__ import annotations

K_FACTOR = 32.0
START_RATING = 1200.0


def expected_score(rating: float, opponent: float) -> float:
    """The score the rating gap predicts, in [0, 1]."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def updated(rating_a: float, rating_b: float, score_a: float, k: float = K_FACTOR) -> tuple[float, float]:
    """New (a, b) ratings after one game; score_a is 1 (a won), 0.5 (draw) or 0 (a lost).

    The update is zero-sum, so the total rating of a server never drifts.
    """
    delta = k * (score_a - expected_score(rating_a, rating_b))
    return rating_a + delta, rating_b - delta

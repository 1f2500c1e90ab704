"""The AI's levels on the players' rating scale, so a rating earned against the bot means what one
earned against people means.

`bench/ladder.py` measures each level's Elo against the others, with `random` at 0 (a game's
`AiLevels.ratings`). Those are differences only; where they sit on the players' scale is one
assumption: a newcomer starts at `data.elo.START_RATING` (1200), and we take a newcomer who knows
the rules to play about as well as `easy`, which takes whatever looks best right now. So a
game's `easy` is rated 1200 and every other level sits its measured distance from it. The bot's
rating at a level is fixed: a result against it moves the player's rating only, as a result against
a person of that rating would, and the bot appears in the leaderboard once per level it played, at
that level's rating, with its record there. docs/ai.md says why and what it implies.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from data import PlayerStats
from data.elo import START_RATING
from engine.protocol import Game

ANCHOR_LEVEL = "easy"  # the level a newcomer is taken to match, rated START_RATING


def level_rating(game: Game, level: str) -> float | None:
    """`level`'s rating on the players' scale; None if the ladder never measured it."""
    ratings = game.ai.ratings
    if level not in ratings:
        return None
    anchor = ratings.get(ANCHOR_LEVEL, min(ratings.values()))
    return START_RATING + ratings[level] - anchor


def about(rating: float) -> str:
    """A rating as players read one from a ladder of 40-game matches: to the nearest 50."""
    return f"{int(round(rating / 50.0) * 50):,}"


def level_label(game: Game, level: str) -> str:
    """ "hard, about 1,450" (just "hard" for a level never measured)."""
    rating = level_rating(game, level)
    return level if rating is None else f"{level}, about {about(rating)}"


def level_choice(game: Game, level: str, most: int = 100) -> str:
    """A level as the challenge offers it: its name, its rating and what it does."""
    said = game.ai.descriptions.get(level, "")
    text = f"{level_label(game, level)}: {said}" if said else level_label(game, level)
    if len(text) <= most:
        return text
    cut = text[: most - 1]
    return (cut[: cut.rfind(" ")] if " " in cut else cut).rstrip(" ,;:") + "…"  # never half a word


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of a leaderboard: a player, or the AI at one level (`level` set, its rating fixed)."""

    user_id: int
    rating: float
    wins: int
    losses: int
    draws: int
    level: str | None = None


def standings(
    game: Game,
    players: Sequence[PlayerStats],
    ai_user_id: int | None,
    ai_records: Sequence[tuple[str, int, int, int]],
    limit: int,
) -> list[Standing]:
    """The best `limit` players (the AI's own row left out: its rating is per level), with the AI at
    each level it played here placed among them by its level's rating."""
    people = [
        Standing(p.user_id, p.rating, p.wins, p.losses, p.draws) for p in players if p.user_id != ai_user_id
    ][:limit]
    bots = []
    if ai_user_id is not None:
        for level, wins, losses, draws in ai_records:
            rating = level_rating(game, level)
            if rating is not None:
                bots.append(Standing(ai_user_id, rating, wins, losses, draws, level))
    floor = people[-1].rating if len(people) >= limit else float("-inf")
    shown = people + [b for b in bots if b.rating >= floor]
    return sorted(shown, key=lambda s: (-s.rating, s.level is not None, s.user_id, s.level or ""))


__all__ = ["ANCHOR_LEVEL", "Standing", "about", "level_choice", "level_label", "level_rating", "standings"]

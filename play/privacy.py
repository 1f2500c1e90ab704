"""What a member may learn of games played where they cannot look (RULES.md, "What is private").

A game is private from a member when it was played in a channel or thread they cannot view now (a
channel closed to them, a private thread they are not in, a channel deleted) and they did not play
in it. Its end changes its players' records and ratings, so a record or a leaderboard that counted
it would tell that member that it ended, when, and how. The listings about other members (`stats`,
`leaderboard`, the AI's record) therefore count, for each asker, only the games they may see: the
record less each private game, the rating less what each one moved it (recorded since migration
0008). Only the adapter knows who sees what (Discord's permissions), so it hands the service a
`Sees`; without one (the console, the tests of the service) nothing is private.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Iterable, Sequence
from dataclasses import replace

from data import AiRecord, PlayerStats, RatedResult

Sees = Callable[[Collection[int]], Awaitable[Collection[int]]]
"""Of these channel ids, those the member asking can view now (the adapter's answer)."""


def private_to(results: Iterable[RatedResult], asker: int) -> list[RatedResult]:
    """Of the games played in channels the asker cannot view, those private to them: all but their
    own (a player's own game is never hidden from them, wherever it was played)."""
    return [r for r in results if asker not in r.players]


def _less(record: tuple[int, int, int], winner: int | None, player: int) -> tuple[int, int, int]:
    """(wins, losses, draws) with one hidden game of `player`'s taken out."""
    wins, losses, draws = record
    if winner is None:
        return wins, losses, draws - 1
    return (wins - 1, losses, draws) if winner == player else (wins, losses - 1, draws)


def record_without(stats: PlayerStats, hidden: Sequence[RatedResult]) -> PlayerStats:
    """A player's record as a member who may not see the `hidden` games reads it: each one taken
    out, its result and what it did to the rating."""
    wins, losses, draws, rating = stats.wins, stats.losses, stats.draws, stats.rating
    for result in hidden:
        if stats.user_id not in result.players:
            continue
        wins, losses, draws = _less((wins, losses, draws), result.winner_id, stats.user_id)
        before, after = result.changes.get(stats.user_id, (0.0, 0.0))
        rating -= after - before
    return replace(stats, wins=max(0, wins), losses=max(0, losses), draws=max(0, draws), rating=rating)


def ai_without(records: Sequence[AiRecord], hidden: Sequence[RatedResult]) -> list[AiRecord]:
    """The AI's record per level with the `hidden` games taken out; a level left with no game is
    not listed (it played none the asker may see)."""
    out = []
    for record in records:
        wins, losses, draws = record.wins, record.losses, record.draws
        for result in hidden:
            if result.ai_player_id is None or result.ai_level != record.level:
                continue
            wins, losses, draws = _less((wins, losses, draws), result.winner_id, result.ai_player_id)
        kept = AiRecord(record.level, max(0, wins), max(0, losses), max(0, draws))
        if kept.wins + kept.losses + kept.draws:
            out.append(kept)
    return out


__all__ = ["Sees", "ai_without", "private_to", "record_without"]

"""What the AI's decisions need to be replayed by anyone (migration 0012, docs/fairness.md "Checking
the AI"): per decision, its level, the budget it was given and its clock. A file of its own, as the
tournaments' queries are: one idea, kept out of the match queries."""

from __future__ import annotations

from dataclasses import dataclass

from data.db import Database, Transaction, count


@dataclass(frozen=True, slots=True)
class AiDecision:
    """One decision of the AI: for action `n` of the game's log."""

    n: int
    kind: str  # "move" or "draw"
    level: str
    budget_s: float | None
    clock: str | None  # JSON [[tick, reads], ...] (engine/tape.py); None for a draw answer


_WRITE = """
INSERT INTO ai_decisions (match_id, n, kind, level, budget_s, clock) VALUES (?, ?, ?, ?, ?, ?)
ON CONFLICT (match_id, n) DO UPDATE SET kind = excluded.kind, level = excluded.level,
    budget_s = excluded.budget_s, clock = excluded.clock
"""
_READ = "SELECT n, kind, level, budget_s, clock FROM ai_decisions WHERE match_id = ? ORDER BY n"


class AiDecisionStore:
    """The AI decisions' queries, run by the store `db` (SQLite or PostgreSQL)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def write(self, match_id: int, decision: AiDecision) -> None:
        """Keep a decision before its action is stored (a later one at the same number replaces it)."""
        d = decision
        params = (match_id, d.n, d.kind, d.level, d.budget_s, d.clock)

        def write() -> Transaction[None]:
            yield count(_WRITE, params)

        await self.db._transact(write)

    async def decisions(self, match_id: int) -> list[AiDecision]:
        rows = await self.db._query(_READ, (match_id,))
        return [
            AiDecision(
                int(r["n"]),
                str(r["kind"]),
                str(r["level"]),
                None if r["budget_s"] is None else float(r["budget_s"]),
                None if r["clock"] is None else str(r["clock"]),
            )
            for r in rows
        ]


__all__ = ["AiDecision", "AiDecisionStore"]

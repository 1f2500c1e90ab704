"""What the AI's decisions need to be replayed by anyone (migrations 0012 to 0014, docs/fairness.md
"Checking the AI"): per decision, its level, the budget it was given, its clock and the program that
made it. A file of its own, as the tournaments' queries are: one idea, kept out of the match queries."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from data.db import Database, Transaction, count, one

LEGACY = 0  # the interaction id of a decision written before migration 0013


@dataclass(frozen=True, slots=True)
class AiDecision:
    """One decision of the AI: for action `n` of the game's log."""

    n: int
    kind: str  # "move" or "draw"
    level: str
    budget_s: float | None
    clock: str | None  # JSON [[tick, reads], ...] (engine/tape.py); None for a draw answer
    # The id its command is stored under (`actions.interaction_id`), which ties the action that was
    # played to the decision that made it when two processes decided the same action (`new_id`).
    interaction_id: int
    # The program its AI process ran, as JSON {"commit": ..., "changed": ...} (engine/program.py);
    # None for a decision made before migration 0014.
    program: str | None = None


def new_id() -> int:
    """A decision's interaction id: negative, so never a Discord interaction's (a snowflake is
    positive), and random, so two processes deciding at once never draw the same one (62 bits)."""
    return -1 - secrets.randbits(62)


_WRITE = """
INSERT INTO ai_decisions (match_id, n, interaction_id, kind, level, budget_s, clock, program)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)
"""
# Whether the game is open, its row held against an end until this transaction commits (PostgreSQL;
# SQLite's writers take turns): a decision made while its game ended could never be played, and
# the end drops the decisions no action carries (data/db.py), so none is written after it.
_OPEN = "SELECT status FROM matches WHERE id = ? AND status IN ('challenged', 'active')"
_OPEN_LOCKED = _OPEN + " FOR SHARE"
_READ = """
SELECT n, interaction_id, kind, level, budget_s, clock, program FROM ai_decisions WHERE match_id = ?
ORDER BY n, interaction_id
"""


class AiDecisionStore:
    """The AI decisions' queries, run by the store `db` (SQLite or PostgreSQL)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def write(self, match_id: int, decision: AiDecision) -> bool:
        """Keep a decision before its action is stored: every one, whichever process made it (the
        record takes the one whose id the stored action carries), while its game is open (False:
        it is over, and nothing was written)."""
        d = decision
        if d.interaction_id >= LEGACY:
            raise ValueError("a decision needs its own negative interaction id (new_id)")
        params = (match_id, d.n, d.interaction_id, d.kind, d.level, d.budget_s, d.clock, d.program)

        def write() -> Transaction[bool]:
            if (yield one(_OPEN, (match_id,), postgres=_OPEN_LOCKED)) is None:
                return False
            yield count(_WRITE, params)
            return True

        return await self.db._transact(write)

    async def decisions(self, match_id: int) -> list[AiDecision]:
        """Every decision kept for the match, those whose action never came included."""
        rows = await self.db._query(_READ, (match_id,))
        return [
            AiDecision(
                int(r["n"]),
                str(r["kind"]),
                str(r["level"]),
                None if r["budget_s"] is None else float(r["budget_s"]),
                None if r["clock"] is None else str(r["clock"]),
                int(r["interaction_id"]),
                None if r["program"] is None else str(r["program"]),
            )
            for r in rows
        ]


__all__ = ["LEGACY", "AiDecision", "AiDecisionStore", "new_id"]

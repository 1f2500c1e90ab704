"""The AI's turns, played through the same path as a player's (`Moves.act`)."""

from __future__ import annotations

from dataclasses import replace

from data import (
    Match,
    MatchNotFound,
    Status,
)
from engine.protocol import State
from play.errors import (
    IllegalMove,
    MatchOver,
    NoMatch,
    NotYourTurn,
    StalePrompt,
)
from play.moves import Moves
from play.results import (
    Played,
    game_of,
)


class AiTurns(Moves):
    """The AI's turns: it plays what it owes through the same path as a player."""

    async def ai_turns(self, channel_id: int, *, budget_s: float | None = None) -> list[Played]:
        """Let the AI play every action it owes now (its turn and the decisions it owes), in the
        channel's game as it was when it began. If that game ends while the AI thinks (its opponent
        resigned, an admin cancelled it), the AI stops there, quietly: what it stored before is
        returned, for the channel must still see it (`ended`)."""
        played: list[Played] = []
        pinned: int | None = None
        for _ in range(256):
            try:
                match, state = await self.current(channel_id)
            except NoMatch:
                break
            if pinned is not None and match.id != pinned:
                break  # its game ended and another began meanwhile: that one schedules its own AI
            pinned = match.id
            ai_id = match.ai_player_id
            side = match.side_of(ai_id) if ai_id is not None else None
            if ai_id is None or side is None or side not in state.to_act():
                break
            rules = game_of(match)
            view = state.view(side)  # the AI sees what its side may know, nothing more
            seed = match.seed ^ (match.version * 7919)
            level = match.ai_level or rules.ai.default
            notation = await self.thinker.choose(match.game, view, level, seed, budget_s)
            try:
                played.append(
                    await self.act(
                        channel_id, ai_id, notation, expected_version=match.version, match_id=match.id
                    )
                )
            except StalePrompt:
                continue  # the game moved on (or ended, or is another) while it thought: look again
            except (NoMatch, MatchOver):
                break  # the game ended while the AI thought
        return played

    async def ai_answers_draw(self, channel_id: int) -> Played | None:
        """The AI's answer to a draw offer made to it: it accepts when its judgement of the position
        (`Game.accepts_draw`, from its own view) says it is not ahead."""
        try:
            match, state = await self.current(channel_id)
        except NoMatch:
            return None
        ai_id = match.ai_player_id
        side = match.side_of(ai_id) if ai_id is not None else None
        if ai_id is None or side is None or state.is_over():
            return None
        accept = await self.thinker.accepts_draw(match.game, state.view(side), match.seed ^ match.version)
        if not accept and await self.channel_view(match) is not None:
            # Its offerer went on with their turn in private: a decline's board would show it. The
            # offer lapses when the AI plays on instead, as any offer does (RULES.md).
            return None
        try:
            return await self.act(
                channel_id,
                ai_id,
                "accept draw" if accept else "decline draw",
                expected_version=match.version,
                match_id=match.id,
            )
        except (StalePrompt, IllegalMove, NotYourTurn, NoMatch, MatchOver):
            return None  # the offer was withdrawn or answered meanwhile, or the game ended

    async def ended(self, match: Match) -> tuple[Match, State | None] | None:
        """If `match` ended after this row of it was read (resigned, cancelled, lost on time while a
        background job worked on it): its final row and position (None for a game cancelled before
        it began); None while it goes on. A job that outlives its game uses this to tell the
        channel what it did as something played before the end, not as the game's current board."""
        live = self._live.get(match.channel_id)
        if live is not None and live[0].id == match.id:
            return None  # kept in memory only while open
        try:
            fresh = await self.db.get_match(match.id)
        except MatchNotFound:
            return replace(match, status=Status.CANCELLED), None
        if fresh.status.is_open:
            return None
        state = game_of(fresh).from_json(fresh.snapshot) if fresh.snapshot is not None else None
        return fresh, state

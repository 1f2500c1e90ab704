"""The AI's turns, played through the same path as a player's (`Moves.act`)."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from typing import Any

from data import (
    Match,
    MatchNotFound,
    Status,
)
from data.ai_decisions import AiDecision, AiDecisionStore, new_id
from engine import program
from engine.ai_check import DRAW, MOVE, ai_seed, offered_to
from engine.protocol import State
from play.errors import (
    AwayBusy,
    IllegalMove,
    MatchOver,
    NoMatch,
    NotYourTurn,
    StalePrompt,
)
from play.fairness import engine_seed
from play.moves import Moves
from play.results import (
    Played,
    game_of,
)


def answering_draw(played: Played) -> list[int]:
    """The players who may now answer a draw offer standing after `played`, read from the game
    (however it was offered: alone, in a chain, before private steps, by a button or by the AI):
    those its board's answer buttons are for. Its mover too, if they played on without answering an
    offer that stands (a game where it does not lapse): it still asks them. Not the AI (it answers
    by itself), and nobody while the turn is still private (none but its mover sees that board) or
    once the game is over."""
    match = played.match
    if played.mid_turn or played.over:
        return []
    rules = game_of(match)
    return [
        user
        for side, user in sorted(match.sides.items())
        if user != match.ai_player_id and offered_to(rules, played.state, side)
    ]


def memory_scope(match: Match) -> str:
    """The name under which the AI keeps what it remembers between decisions of this game
    (`search.remembering`): the game's commitment, public from its start and in its record, so that
    the check replays the decisions under the same name (`ai_check.check_ai`); a game played before
    dice were committed has none, and its number instead (it is not checked)."""
    return (match.seed_commitment or f"game {match.id}").lower()


# How long the AI waits before sending its choice again when a time away held it up (`AwayBusy`):
# a time away is written in milliseconds, so a lock held longer than all this is a stuck process.
AWAY_WAITS = (0.05, 0.1, 0.2, 0.4, 0.8, 1.6, 3.2)


class AiTurns(Moves):
    """The AI's turns: it plays what it owes through the same path as a player."""

    async def ai_turns(self, channel_id: int, *, budget_s: float | None = None) -> list[Played]:
        """Let the AI play every action it owes now (its turn and the decisions it owes), in the
        channel's game as it was when it began; a draw offered to it and still standing is answered
        first (`ai_answers_draw`), so its answer comes with its play. If that game ends while the AI
        thinks (its opponent resigned, an admin cancelled it), the AI stops there, quietly: what it
        stored before is returned, for the channel must still see it (`ended`)."""
        played: list[Played] = []
        pinned: int | None = None
        weighed: set[int] = set()  # the versions at which it weighed a standing offer
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
            if ai_id is None or side is None:
                break
            rules = game_of(match)
            if (
                match.version not in weighed
                and offered_to(rules, state, side)
                and (side in state.to_act() or await self.channel_view(match) is None)
            ):
                # (not weighed again after each private step of its offerer: it was at the offer)
                weighed.add(match.version)
                answer = await self._answer_offer(channel_id, match, state, side, ai_id)
                if answer is not None:
                    played.append(answer)
                continue  # look again: the game moved on, or ended if it accepted
            if side not in state.to_act():
                break
            view = state.view(side)  # the AI sees what its side may know, nothing more
            level = match.ai_level or rules.ai.default
            n = await self._ai_decision(match)
            seed = match.seed ^ (match.version * 7919) if n is None else ai_seed(engine_seed(match), n)
            clock: list[list[int]] = []
            ran: dict[str, Any] = {}
            notation = await self.thinker.choose(
                match.game, view, level, seed, budget_s, clock=clock, match=memory_scope(match), ran=ran
            )
            decided: int | None = None  # the id its command is stored under, naming this decision
            if n is not None:  # kept before the action, so that every action of the AI has its own
                decided = new_id()
                tape = json.dumps(clock, separators=(",", ":"))
                source = json.dumps(ran, separators=(",", ":")) if ran else None
                decision = AiDecision(n, MOVE, level, budget_s, tape, decided, source)
                await AiDecisionStore(self.db).write(match.id, decision)
            try:
                played.append(await self._act_through_away(channel_id, ai_id, notation, decided, match))
            except StalePrompt:
                continue  # the game moved on (or ended, or is another) while it thought: look again
            except (NoMatch, MatchOver):
                break  # the game ended while the AI thought
        return played

    async def _act_through_away(
        self, channel_id: int, ai_id: int, notation: str, decided: int | None, match: Match
    ) -> Played:
        """Play the AI's choice; held up by a time away another process is writing (`AwayBusy`), the
        same choice is sent again a moment later: the game did not move, so thinking again would
        choose the same at a cost (20 s of CPU at the correspondence level), and up to 256 times."""
        waits = iter(AWAY_WAITS)
        while True:
            try:
                return await self.act(
                    channel_id,
                    ai_id,
                    notation,
                    interaction_id=decided,
                    expected_version=match.version,
                    match_id=match.id,
                )
            except AwayBusy:
                wait = next(waits, None)
                if wait is None:
                    raise
                await asyncio.sleep(wait)

    async def ai_answers_draw(self, channel_id: int) -> Played | None:
        """The AI's answer to a draw offer made to it and still standing (None: there is none, or
        the answer must wait): it accepts when its judgement of the position (`Game.accepts_draw`,
        from its own view) says it is clearly losing."""
        try:
            match, state = await self.current(channel_id)
        except NoMatch:
            return None
        ai_id = match.ai_player_id
        side = match.side_of(ai_id) if ai_id is not None else None
        if ai_id is None or side is None or not offered_to(game_of(match), state, side):
            return None
        return await self._answer_offer(channel_id, match, state, side, ai_id)

    def offered_to_ai(self, played: Played) -> bool:
        """Whether, after its opponent's command `played`, a draw offer to the AI stands: the signal
        for its answer, however the offer came (alone, as the last link of a chain, by a button)."""
        match = played.match
        ai_id = match.ai_player_id
        side = match.side_of(ai_id) if ai_id is not None else None
        if side is None or played.actor_id == ai_id:
            return False
        return offered_to(game_of(match), played.state, side)

    async def _answer_offer(
        self, channel_id: int, match: Match, state: State, side: str, ai_id: int
    ) -> Played | None:
        """Weigh the offer standing to the AI and store its answer. A decline waits while its
        offerer goes on with a turn in private (its board would show their steps): the AI gives it
        once the turn is handed over, before its own play (`ai_turns`; RULES.md, draws with the AI).
        Accepting ends the game, which is never kept back."""
        n = await self._ai_decision(match)
        seed = match.seed ^ match.version if n is None else ai_seed(engine_seed(match), n)
        accept = await self.thinker.accepts_draw(match.game, state.view(side), seed)
        if not accept and await self.channel_view(match) is not None:
            return None
        decided: int | None = None
        if n is not None:
            level = match.ai_level or game_of(match).ai.default
            decided = new_id()
            source = json.dumps(program.running().to_json(), separators=(",", ":"))
            await AiDecisionStore(self.db).write(
                match.id, AiDecision(n, DRAW, level, None, None, decided, source)
            )
        try:
            return await self.act(
                channel_id,
                ai_id,
                "accept draw" if accept else "decline draw",
                interaction_id=decided,
                expected_version=match.version,
                match_id=match.id,
            )
        except (StalePrompt, IllegalMove, NotYourTurn, NoMatch, MatchOver):
            return None  # the offer was withdrawn or answered meanwhile, or the game ended

    async def _ai_decision(self, match: Match) -> int | None:
        """The number the AI's next action will have in the game's log (its decision's seed and
        record are keyed by it: docs/fairness.md, "Checking the AI"); None for a game played before
        dice were committed, whose AI keeps the seed it always had (`match.seed`)."""
        if match.chance_version != 2 or match.seed_secret is None:
            return None
        return len(await self.log(match, upto=match.version)) + 1

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

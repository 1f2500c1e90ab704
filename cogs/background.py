"""Background work after a move: the AI's turns (one at a time per channel) and the players told."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from play import Played
from play.ai_turns import offered_to
from play.service import game_of, merged, waiting_ids

if TYPE_CHECKING:
    pass

from cogs.outbox import Outbox


class Background(Outbox):
    """What follows a move without the player: the AI's turns, the draw answered, the players told."""

    def after_action(self, played: Played, stretch: Played | None = None, *, actor_told: bool = True) -> None:
        """What follows a move: the AI answers (a draw offered to it too), and the players hear what
        concerns them (`tell_players`); `stretch` is what the board showed at a hand-off."""
        match = played.match
        if played.over:
            return
        if match.ai_player_id is not None and match.ai_player_id in played.waiting:
            self.schedule_ai(match.channel_id)  # a draw offered to it is answered first (`ai_turns`)
        elif not played.mid_turn and self.service.offered_to_ai(played):
            # offered alone, as the last link of a chain or by a button, or left standing by a turn
            # now handed over: the AI answers, whoever is to act
            self.spawn(self.ai_draw_answer(match.channel_id), f"bw-ai-draw-{match.id}")
        if played.mid_turn:
            return  # the turn goes on: the players hear of it at the hand-off, without any step undone
        self.spawn(self.tell_players(played, stretch or played, actor_told=actor_told), f"bw-dm-{match.id}")

    # ------------------------------------------------------------------ AI

    def schedule_ai(self, channel_id: int) -> None:
        self._ai_busy[channel_id] += 1

        async def run() -> None:
            try:
                await self.run_ai(channel_id)
            finally:
                self._ai_busy[channel_id] -= 1
                if not self._ai_busy[channel_id]:
                    del self._ai_busy[channel_id]

        self.spawn(run(), f"bw-ai-{channel_id}")

    async def run_ai(self, channel_id: int) -> None:
        """Let the AI play all it owes in this channel, then post one board for the whole stretch
        (one board per hand-off: its turn of 25 actions is one picture, not 25)."""
        lock = self._ai_locks.setdefault(channel_id, asyncio.Lock())
        async with lock:
            played = await self.service.ai_turns(channel_id, budget_s=self.settings.ai_budget_seconds)
            if played:
                whole = await self.service.stretch(merged(played))  # with any of it before a restart
                ended = None if whole.over else await self.service.ended(whole.match)
                if ended is not None:  # its opponent resigned (or an admin cancelled) while it thought
                    await self.post_ended(channel_id, whole, *ended)
                    return
                await self.post_board(channel_id, whole, after=False)
                if not whole.over:
                    await self.tell_players(whole, whole)

    async def ai_draw_answer(self, channel_id: int) -> None:
        lock = self._ai_locks.setdefault(channel_id, asyncio.Lock())
        async with lock:
            answer = await self.service.ai_answers_draw(channel_id)
        if answer is not None:
            await self.post_board(channel_id, answer)

    async def resume_ai_games(self) -> None:
        """At start-up: games where the AI owes a move (the bot was down when the human moved)."""
        for match in await self.service.active_matches():
            if match.ai_player_id is None or match.snapshot is None:
                continue
            if not self.service.serves(match.guild_id):  # another process's shard
                continue
            state = game_of(match).from_json(match.snapshot)
            if match.ai_player_id in waiting_ids(match, state):
                self.schedule_ai(match.channel_id)  # a standing offer to it is answered first
            elif (side := match.side_of(match.ai_player_id)) and offered_to(game_of(match), state, side):
                self.spawn(self.ai_draw_answer(match.channel_id), f"bw-ai-draw-{match.id}")

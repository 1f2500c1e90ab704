"""The AI thinks in worker processes: the same choice as in the bot's own process, at a lower
priority, and a dead worker is replaced."""

from __future__ import annotations

import multiprocessing
import os
import signal

from engine import registry
from engine.protocol import Game, State
from play.thinking import Thinker
from tests.random_play import random_steps

BUDGET = 60.0  # never binds: the choices below are decided by the levels' iteration budgets


def a_position(game: Game, seed: int = 3, steps: int = 30) -> State:
    """A seeded position some way into a random game, with someone to act."""
    state, _, _ = list(random_steps(game, seed, steps))[-1]
    assert not state.is_over()
    return state


def _new_children(before: set[int | None]) -> list[multiprocessing.process.BaseProcess]:
    return [p for p in multiprocessing.active_children() if p.pid not in before]


async def test_a_thinker_process_chooses_what_the_engine_chooses_in_every_game():
    thinker = Thinker(1)
    threads = Thinker(0)
    try:
        await thinker.start()
        for game in registry.games():
            state = a_position(game)
            side = min(state.to_act())
            view = state.view(side)
            expected = str(game.choose(view, "easy", 5, BUDGET))
            assert await thinker.choose(game.name, view, "easy", 5, BUDGET) == expected, game.name
            assert await threads.choose(game.name, view, "easy", 5, BUDGET) == expected, game.name
            assert await thinker.accepts_draw(game.name, view, 5) == game.accepts_draw(view, 5)
    finally:
        thinker.close()


async def test_thinker_processes_run_below_the_bot_and_a_killed_one_is_replaced():
    game = registry.default()
    state = a_position(game)
    side = min(state.to_act())
    expected = str(game.choose(state.view(side), "easy", 9, BUDGET))
    before = {p.pid for p in multiprocessing.active_children()}
    thinker = Thinker(1)
    try:
        await thinker.start()
        (worker,) = _new_children(before)
        assert worker.pid is not None
        # the event loop and the board painters get the cores first
        assert os.getpriority(os.PRIO_PROCESS, worker.pid) > os.getpriority(os.PRIO_PROCESS, 0)
        os.kill(worker.pid, signal.SIGKILL)  # out of memory, an admin's kill
        worker.join(5)
        assert await thinker.choose(game.name, state.view(side), "easy", 9, BUDGET) == expected
        assert thinker.restarts == 1
        assert await thinker.choose(game.name, state.view(side), "easy", 9, BUDGET) == expected
        assert thinker.restarts == 1
    finally:
        thinker.close()


async def test_a_thinker_starts_its_process_with_the_first_decision_not_before():
    # a bot nobody plays the AI on does not pay for a worker that imports every game (~40 MB)
    game = registry.default()
    state = a_position(game)
    side = min(state.to_act())
    before = {p.pid for p in multiprocessing.active_children()}
    thinker = Thinker(1)
    try:
        assert not thinker.started and _new_children(before) == []
        expected = str(game.choose(state.view(side), "easy", 4, BUDGET))
        assert await thinker.choose(game.name, state.view(side), "easy", 4, BUDGET) == expected
        assert thinker.started and len(_new_children(before)) == 1
    finally:
        thinker.close()

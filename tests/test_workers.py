"""Boards drawn in worker processes: the same picture, and a dead worker is replaced."""

from __future__ import annotations

import multiprocessing
import os
import signal

from engine.blockwars import Options, new_game, parse
from engine.blockwars.model import Side
from render.blockwars import render_board
from render.workers import Painter


def a_position():
    state = new_game(Options(crosses=True), 11)
    events = state.apply(parse("setup std"), Side.GERMANS)
    return state, events


async def test_a_painter_process_draws_exactly_what_the_renderer_draws():
    state, events = a_position()
    expected = render_board(state, events)
    painter = Painter(1)
    try:
        await painter.start()
        assert await painter.board("blockwars", state.view(None), events) == expected
        assert await painter.board("blockwars", state.view(None), events, "e7") == render_board(
            state, events, None, "e7"
        )
    finally:
        painter.close()
    threads = Painter(0)  # one-core machines and tests: the same board from a thread
    assert await threads.board("blockwars", state.view(None), events) == expected


async def test_a_killed_painter_is_replaced_and_no_board_is_lost():
    state, events = a_position()
    expected = render_board(state, events)
    before = {p.pid for p in multiprocessing.active_children()}
    painter = Painter(1)
    try:
        await painter.start()
        (worker,) = [p for p in multiprocessing.active_children() if p.pid not in before]
        assert worker.pid is not None  # started
        os.kill(worker.pid, signal.SIGKILL)  # out of memory, an admin's kill
        worker.join(5)
        assert (
            await painter.board("blockwars", state.view(None), events) == expected
        )  # drawn in a thread meanwhile
        assert painter.restarts == 1
        assert (
            await painter.board("blockwars", state.view(None), events) == expected
        )  # and by the new process
        assert painter.restarts == 1
    finally:
        painter.close()

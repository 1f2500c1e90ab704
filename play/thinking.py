"""Where the AI thinks: in worker processes beside the bot, never in the bot's own interpreter.

A search is pure Python for up to a few seconds a decision. In a thread of the bot it held the
interpreter lock the event loop needs, so every AI game made every human game answer slower. Here
the search runs in `processes` spawned workers (as boards are drawn, `render.workers`): the bot
sends the game's name and the AI's `View` as JSON text (the game's `view_from_json` rebuilds it
there), and gets back the action's notation, which it parses and plays through the service as any
move. The workers run at a lower priority (`nice`), so on a busy machine the bot and its board
drawing get the cores first and the AI takes what is left: its answer comes a little later, the
players' answers do not. With 0 processes the AI thinks in a thread (tests, the console, one-core
machines). Reviews of finished games (`engine.review`) run in the same workers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from engine import program, registry, search, tape
from engine.protocol import View
from engine.review import Review, review_game

log = logging.getLogger("wargames.thinking")

# How much lower than the bot the workers run: the event loop and the board painters first.
WORKER_NICE = 10
T = TypeVar("T")


def _start_worker(parent: int, nice: int) -> None:
    """In each worker: a lower priority, every game imported once, and exit when the bot is gone
    (even SIGKILLed: a worker would otherwise finish its search and block on a dead pipe)."""
    if nice:
        with contextlib.suppress(OSError):  # not allowed here: it thinks at the bot's priority
            os.nice(nice)
    registry.games()
    program.running()  # the source it imported: learnt now, before anyone can change the files

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="orphan-watch", daemon=True).start()


def _view(game: str, view_json: str) -> View:
    return registry.game(game).view_from_json(json.loads(view_json))


def choose_taped(
    game: str, view_json: str, level: str, seed: int, budget_s: float | None, match: str | None = None
) -> tuple[str, list[list[int]], dict[str, Any]]:
    """In a worker (or a thread): the AI's action, as notation, for the view sent as JSON text,
    with the clock its thinking read (engine/tape.py) and the program that thought (this process's
    source: engine/program.py), so that anyone can replay the decision. What the AI keeps between
    decisions is kept under `match` (`search.remembering`), so that no other game's memory reaches
    this one's."""
    view = _view(game, view_json)
    with tape.running(tape.Tape()) as clock, search.remembering(match):
        action = registry.game(game).choose(view, level, seed, budget_s)
    return str(action), clock.marks, program.running().to_json()


def draw_text(game: str, view_json: str, seed: int) -> bool:
    """In a worker: whether the AI accepts a draw offered to it."""
    return registry.game(game).accepts_draw(_view(game, view_json), seed)


def review_text(
    game: str, options: dict[str, Any], seed: int, log_rows: list[tuple[str, str]], side: str, budget_s: float
) -> Review:
    """In a worker: the look back at a finished game for `side` (see `engine.review`)."""
    return review_game(registry.game(game), options, seed, log_rows, side, budget_s=budget_s)


class Thinker:
    """Runs the AI's decisions and the reviews off the event loop (and, with processes, off its GIL)."""

    def __init__(self, processes: int = 0, *, nice: int = WORKER_NICE) -> None:
        self.processes = max(0, processes)
        self.nice = nice
        # Made on the first decision (or `start`), not here: a worker that imports every game costs
        # about 40 MB, which a bot nobody plays the AI on should not pay (docs/performance.md).
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False
        self.restarts = 0  # pools replaced after a worker died

    def _new_pool(self) -> ProcessPoolExecutor:
        # spawn, not fork: forking a process that runs an event loop and threads is unsafe.
        return ProcessPoolExecutor(
            self.processes,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker,
            initargs=(os.getpid(), self.nice),
        )

    @property
    def started(self) -> bool:
        """Whether the worker processes exist (they start with the first decision)."""
        return self._pool is not None

    def _workers(self) -> ProcessPoolExecutor | None:
        """The pool, made now if this is the first work for it; None when thinking in a thread."""
        if self._pool is None and self.processes and not self._closed:
            self._pool = self._new_pool()
        return self._pool

    async def start(self) -> None:
        """Start the workers now (each imports every game once) rather than on the first AI move."""
        pool = self._workers()
        if pool is not None:
            loop = asyncio.get_running_loop()
            await asyncio.gather(*(loop.run_in_executor(pool, registry.names) for _ in range(self.processes)))

    async def choose(
        self,
        game: str,
        view: View,
        level: str,
        seed: int,
        budget_s: float | None = None,
        *,
        clock: list[list[int]] | None = None,
        match: str | None = None,
        ran: dict[str, Any] | None = None,
    ) -> str:
        """The notation of the AI's action for `view.viewer` (who must be owed an action); the
        clock its thinking read is put in `clock`, and the program that thought in `ran`, if given
        (the record's, for replaying it). `match` names the game (its public commitment) for what
        the AI keeps between decisions."""
        args = (game, _json(view), level, seed, budget_s, match)
        if self._workers() is None:  # the view as a worker reads it, so every way of thinking is one
            notation, marks, source = await asyncio.to_thread(choose_taped, *args)
        else:
            notation, marks, source = await self._run(choose_taped, args)
        if clock is not None:
            clock[:] = marks
        if ran is not None:
            ran.clear()
            ran.update(source)
        return notation

    async def accepts_draw(self, game: str, view: View, seed: int) -> bool:
        if self._workers() is None:
            return await asyncio.to_thread(registry.game(game).accepts_draw, view, seed)
        return await self._run(draw_text, (game, _json(view), seed))

    async def review(
        self,
        game: str,
        options: dict[str, Any],
        seed: int,
        log_rows: Sequence[tuple[str, str]],
        side: str,
        budget_s: float,
    ) -> Review:
        """The look back at a finished game for the player of `side`."""
        args = (game, dict(options), seed, [tuple(r) for r in log_rows], side, budget_s)
        if self._workers() is None:
            return await asyncio.to_thread(review_text, *args)  # type: ignore[arg-type]
        return await self._run(review_text, args)

    async def _run(self, fn: Callable[..., T], args: tuple[Any, ...]) -> T:
        pool = self._pool
        assert pool is not None
        try:
            return await _submit(pool, fn, args)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): the pool refuses all work from then on. Games
            # run for days, so start a fresh pool and ask it once more.
            if self._pool is pool:
                log.warning("An AI process died; starting a new one")
                pool.shutdown(wait=False, cancel_futures=True)
                self._pool = self._new_pool()
                self.restarts += 1
            assert self._pool is not None
            return await _submit(self._pool, fn, args)

    def close(self) -> None:
        """Stop the workers (searches under way are dropped)."""
        self._closed = True
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


async def _submit(pool: Executor, fn: Callable[..., T], args: tuple[Any, ...]) -> T:
    # submit() itself runs in a thread: it writes to the pool's wake-up pipe, which blocks while
    # the pool's manager thread is busy, and the event loop must never wait on it.
    job = await asyncio.to_thread(pool.submit, fn, *args)
    return await asyncio.wrap_future(job)


def _json(view: View) -> str:
    """The view as compact JSON text: pickling a str is nearly free, a state is not."""
    return json.dumps(view.to_json(), separators=(",", ":"))


__all__ = ["WORKER_NICE", "Thinker", "choose_taped", "draw_text", "review_text"]

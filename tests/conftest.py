"""Shared fixtures: the fake Discord (see tests/fakediscord/README.md) for the bot's tests."""

import gc
import threading

import aiosqlite
import pytest

from tests.fakediscord.fixtures import fake_discord, start_bot  # noqa: F401 (pytest fixtures)


def pytest_unconfigure(config: pytest.Config) -> None:
    """A test that fails before closing its database keeps the connection alive in the failure's
    traceback, and aiosqlite's worker thread is not a daemon: the run would hang at exit instead
    of ending with its report. Stop whatever such threads are left, also those whose connection
    object is already gone (the thread waits on its queue for ever)."""
    for found in gc.get_objects():
        if isinstance(found, aiosqlite.Connection) and found._thread.is_alive():
            found.stop()
    for thread in threading.enumerate():
        target = getattr(thread, "_target", None)
        if target is aiosqlite.core._connection_worker_thread and thread.is_alive():
            queue = thread._args[0]  # type: ignore[attr-defined]
            queue.put_nowait((None, lambda: aiosqlite.core._STOP_RUNNING_SENTINEL))

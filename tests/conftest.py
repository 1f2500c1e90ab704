"""Shared fixtures: the fake Discord (see tests/fakediscord/README.md) for the bot's tests."""

import gc

import aiosqlite
import pytest

from tests.fakediscord.fixtures import fake_discord, start_bot  # noqa: F401 (pytest fixtures)


def pytest_unconfigure(config: pytest.Config) -> None:
    """A test that fails before closing its database keeps the connection alive in the failure's
    traceback, and aiosqlite's worker thread is not a daemon: the run would hang at exit instead
    of ending with its report. Stop whatever such threads are left."""
    for found in gc.get_objects():
        if isinstance(found, aiosqlite.Connection) and found._thread.is_alive():
            found.stop()

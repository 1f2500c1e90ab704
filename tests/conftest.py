"""Shared fixtures: the fake Discord (see tests/fakediscord/README.md) for the bot's tests."""

from tests.fakediscord.fixtures import fake_discord, start_bot  # noqa: F401 (pytest fixtures)

"""A fake Discord (gateway + REST) on 127.0.0.1 for driving a real discord.py client in tests.

Start with `FakeDiscord().start()`, point discord.py at it with `fake.patch(monkeypatch)`, run a client
with `tests.fakediscord.fixtures.start_client`, then act as users with `slash`, `autocomplete`, `click`,
`select` and `say`. The pytest fixtures live in `tests.fakediscord.fixtures`.
"""

from .records import (
    ADMINISTRATOR,
    EPHEMERAL,
    MANAGE_CHANNELS,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    InteractionResult,
    RequestLog,
)
from .server import FakeDiscord, FakeDiscordError

__all__ = [
    "ADMINISTRATOR",
    "EPHEMERAL",
    "MANAGE_CHANNELS",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeDiscordError",
    "FakeGuild",
    "FakeMember",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "InteractionResult",
    "RequestLog",
]

"""Every game's adapter is built from declared parts (issue 33): its words module is the one place
its words are forwarded from, and `BaseGame.choose` the one place its AI levels are checked."""

from __future__ import annotations

import inspect

import pytest

from engine import registry
from engine.base import BaseGame
from engine.protocol import Words

WORDS = [name for name in dir(Words) if not name.startswith("_")]


@pytest.mark.parametrize("name", registry.names())
def test_words_are_a_declared_part(name: str) -> None:
    game = registry.game(name)
    assert isinstance(game, BaseGame)
    assert game.words is not None, f"{name} declares no words"
    for function in WORDS:
        words = getattr(game.words, function)
        assert next(iter(inspect.signature(words).parameters)) == "view", (name, function)
        assert getattr(type(game), function) is getattr(BaseGame, function), f"{name} forwards {function}"


@pytest.mark.parametrize("name", registry.names())
def test_one_choose(name: str) -> None:
    game = registry.game(name)
    assert isinstance(game, BaseGame)
    assert type(game).choose is BaseGame.choose
    assert set(game.own_levels) <= set(game.ai.names)
    view = game.new_game({}, 1).view(game.sides[0].name)
    with pytest.raises(ValueError, match="Unknown AI level 'grandmaster'"):
        game.choose(view, "grandmaster", 1)


def test_words_functions() -> None:
    assert WORDS == ["describe", "group_label", "group_of", "private_text", "status", "verb_of"]

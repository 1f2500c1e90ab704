"""A refusal's examples and legal actions are typed fields of the engine's errors (issue 33, item 6).

The platform reads `InvalidNotation.examples` and `IllegalAction.legal` instead of pulling them back
out of the words; these tests hold the fields to the words players read, and the service to one
parse of each action of a command.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine import registry
from engine.base import BaseGame
from engine.errors import IllegalAction, InvalidNotation
from play.errors import IllegalMove
from play.service import MatchService

TICKED = re.compile(r"`([^`]+)`")
BAD = (
    "pass", "barrage", "fly", "dogfight", "setup", "setup xx", "R@", "recon A2", "play artillery",
    "play medic", "play surprise C", "army", "army zz", "deploy", "deploy zz", "autoretreat maybe",
    "march", "zzz", "e2-", "move", "call",
    "e2e4", "Ra8-a7", "rifle Rd6xd1", "call T1", "attack F2", "deploy A1", "move A1", "A1 C", "d3 d5",
)  # fmt: skip


@pytest.mark.parametrize("name", registry.names())
def test_the_examples_a_refusal_carries_are_those_its_words_show(name: str):
    game = registry.game(name)
    state = game.new_game({}, 11)
    side = sorted(state.to_act())[0]
    seen = 0
    for text in ("", *BAD):
        for parse in (game.parse, lambda t: game.parse_in(t, state, side)):
            if not text and parse == game.parse:
                continue  # a blank command is the position's to word (parse_in)
            try:
                parse(text)
            except InvalidNotation as exc:
                shown = tuple(TICKED.findall(str(exc)))
                if "is not an action you can play now" in str(exc):
                    shown = shown[len(shown) - len(exc.examples) :]  # it quotes the example refused first
                assert exc.examples == shown, (text, str(exc))
                seen += bool(shown)
    assert seen > 0


@pytest.mark.parametrize("name", registry.names())
def test_illegal_actions_carry_legal_actions_not_their_notation(name: str):
    game = registry.game(name)
    state = game.new_game({}, 5)
    side = sorted(state.to_act())[0]
    other = next(s.name for s in game.sides if s.name != side)
    refused = 0
    for action in [*state.legal_actions(side)[:3], *state.legal_actions(other)[:3]]:
        for who in (side, other):
            try:
                state.clone().apply(action, who)
            except IllegalAction as exc:
                refused += 1
                legal = {str(a) for a in state.legal_actions(who)}
                for hint in exc.legal:
                    assert not isinstance(hint, str), exc.legal
                    assert str(game.parse(str(hint))) == str(hint)
                    assert str(hint) in legal or who not in state.to_act()
    assert refused or len(state.to_act()) == 2


@pytest.mark.parametrize("name", registry.names())
def test_the_service_parses_each_action_of_a_command_once(name: str, monkeypatch: pytest.MonkeyPatch):
    game: Any = registry.game(name)  # a BaseGame: its own parser is `parse_action`
    state = game.new_game({}, 3)
    side = sorted(state.to_act())[0]
    first = str(state.legal_actions(side)[0])
    texts = [first, "zzz nonsense"]
    calls: list[str] = []  # the game's own parser, reading text
    steps: list[str] = []  # the service asking for one action of the command
    real, real_in = game.parse_action, game.parse_in

    def counted(text: str) -> Any:
        calls.append(text)
        return real(text)

    def counted_in(text: str, state: Any, side: str) -> Any:
        steps.append(text)
        return real_in(text, state, side)

    monkeypatch.setattr(game, "parse_action", counted)
    monkeypatch.setattr(game, "parse_in", counted_in)
    with pytest.raises(IllegalMove) as refused:
        MatchService.parse_command(game, state, side, texts)
    assert "Action 2 of 2" in refused.value.message
    assert steps == texts
    if type(game).parse_in is BaseGame.parse_in:  # Combined Arms parses in its own parse_in
        ours = [c for c in calls if c in texts]
        assert sorted(ours) == sorted(texts), calls  # examples a refusal checks are parsed, not the command
    assert MatchService.parse_command(game, state, side, [first]) == [game.parse(first)]

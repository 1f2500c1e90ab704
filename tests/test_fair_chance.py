"""Chance is never shown before it is drawn (issue 30), for every registered game.

The engine side: each state marks the chance it has drawn (`State.chance_drawn`) and events say
when they bring a secret into the open (`Event.reveals`); `drew_or_revealed` tells the platform
which step of a command committed its player.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from dataclasses import replace

import pytest

from cogs import _format as fmt
from data import Match, Status
from engine import registry
from engine.errors import IllegalAction
from engine.protocol import Game, State, drew_or_revealed
from play.errors import ServiceError
from play.present import standing_actions
from play.service import MatchService, split_actions
from tests.test_conformance import bad_inputs, playout

GAMES = registry.names()


@pytest.mark.parametrize("name", GAMES)
def test_the_chance_mark_only_grows_and_survives_storage(name: str) -> None:
    """Along seeded random playouts the mark never goes back, a clone and a stored copy keep it,
    and it moves in a game of chance (every game but the Combined Arms ones draws after set-up)."""
    game = registry.game(name)
    moved = 0
    for seed in (1, 2):
        last = game.new_game({}, seed).chance_drawn()
        for state, _log in playout(name, seed, deep_every=1000, steps=250):
            mark = state.chance_drawn()
            assert mark >= last, f"{name}: the chance mark went back from {last} to {mark}"
            moved += mark != last
            last = mark
            assert state.clone().chance_drawn() == mark
            assert game.from_json(state.to_json()).chance_drawn() == mark
    if not name.startswith("combinedarms"):
        assert moved > 5, f"{name}: random play drew chance only {moved} times"


@pytest.mark.parametrize("name", GAMES)
def test_a_step_drew_or_revealed_exactly_when_the_mark_moved_or_an_event_reveals(name: str) -> None:
    """`drew_or_revealed` over real steps: a step that drew chance is told apart from one that did
    not, and a step whose mark did not move is committing only through a revealing event."""
    game = registry.game(name)
    rng = random.Random(3)
    state = game.new_game({}, 3)
    kinds = {True: 0, False: 0}
    for _ in range(200):
        if state.is_over():
            break
        side = rng.choice(sorted(state.to_act()))
        before = state.chance_drawn()
        events = state.apply(rng.choice(state.legal_actions(side)), side)
        said = drew_or_revealed(before, state.chance_drawn(), events)
        kinds[said] += 1
        if state.chance_drawn() == before:
            assert said == any(getattr(e, "reveals", False) for e in events)
        else:
            assert said
    assert kinds[False] > 0, f"{name}: some step must draw nothing"


# ------------------------------------------------------------------ twins that differ in chance alone

MATCH = Match(
    id=1,
    guild_id=1,
    channel_id=1,
    game="",
    options={},
    seed=0,
    challenger_id=101,
    opponent_id=202,
    challenger_side="random",
    sides={},
    status=Status.ACTIVE,
    turn_player_id=None,
    deadline=None,
    reminder_at=None,
    reminded=False,
    turn_seconds=3 * 24 * 3600,
    version=1,
    snapshot=None,
    winner_id=None,
    result_reason=None,
    challenge_expires_at=None,
    ai_player_id=None,
    ai_level=None,
    created_at=0.0,
    updated_at=0.0,
)


def match_of(game: Game) -> Match:
    a, b = game.sides
    return replace(MATCH, game=game.name, sides={a.name: 101, b.name: 202})


def answer(game: Game, match: Match, state: State, side: str, text: str) -> tuple:
    """What the platform answers `side` for the command `text` in `state`, as `MatchService.act`
    finds it (parse every step, word a bad one, play the chain), without the database: a refusal
    as ("refused", kind, words, examples in order), else ("played", whether a step stood because it
    drew chance or showed a secret, the steps made)."""
    texts = split_actions(text)
    try:
        actions = MatchService.parse_command(game, state, side, texts)
    except ServiceError as exc:
        return ("refused", type(exc).__name__, exc.message, tuple(exc.legal))
    try:
        chain = MatchService.run_chain(match, game, state, side, actions)
    except ServiceError as exc:
        return ("refused", type(exc).__name__, exc.message, tuple(exc.legal))
    return ("played", chain.stood[0] > 0, tuple(t for t, _ in chain.steps))


def menu_of(game: Game, state: State, side: str) -> list[tuple[str, str, str]]:
    """The legal list and what autocomplete shows of it (`cogs._format`): notation, label, verb."""
    view = state.view(side)
    return [
        (str(a), fmt.choice_name(game, view, a), game.verb_of(view, a)) for a in state.legal_actions(side)
    ]


def commands(game: Game, state: State, side: str, rng: random.Random) -> list[str]:
    """What a player might send: single actions legal now, mangled ones, and chains of two or three
    whose later steps are legal after the first in this twin (so they may not be in the other),
    legal now, mangled, or the first again (`Txf6; Txf6; Txf6`)."""
    legal = [str(a) for a in state.legal_actions(side)]
    out = rng.sample(legal, min(3, len(legal)))
    out += sorted(bad_inputs(rng.choice(legal), rng))[:2]
    for first in rng.sample(legal, min(4, len(legal))):
        after = state.clone()
        after.apply(game.parse(first), side)
        later = [str(a) for a in after.legal_actions(side)] if side in after.to_act() else []
        nxt = rng.choice(later) if later else rng.choice(legal)
        out += [f"{first}; {nxt}", f"{first}; {rng.choice(legal)}", f"{first}; {first}; {first}"]
        out += [f"{first}; {bad}" for bad in sorted(bad_inputs(nxt, rng))[:2]]
    return out


def standing_orders(game: Game, state: State, rng: random.Random) -> None:
    """Random standing orders for both sides (a hidden card answered automatically), where the game
    has any: random play never gives them, since `legal_actions` lists no any-time action."""
    orders = standing_actions(game)
    for info in game.sides:
        for action in rng.sample(orders, min(2, len(orders))):
            with contextlib.suppress(IllegalAction):  # an order already in force
                state.apply(action, info.name)


def twin_moments(name: str, seed: int, steps: int, every: int) -> Iterator[tuple[random.Random, State, str]]:
    """Every `every`-th position along a seeded random playout (standing orders given at random
    first), for each side owed an action."""
    game = registry.game(name)
    rng = random.Random(seed)
    state = game.new_game({}, seed)
    standing_orders(game, state, rng)
    for step in range(steps):
        if state.is_over():
            return
        if step % every == 0:
            for side in sorted(state.to_act()):
                yield rng, state.clone(), side
        side = rng.choice(sorted(state.to_act()))
        state.apply(rng.choice(state.legal_actions(side)), side)


@pytest.mark.parametrize("name", GAMES)
def test_twins_differing_in_chance_alone_get_the_same_answer(name: str) -> None:
    """Issue 30, the conformance property: two positions alike in all the acting player may see,
    differing only in chance not yet drawn and in what they may not see (`BaseGame.chance_twin`),
    get for the same command (single actions and `;` chains, mistyped later steps included) the
    same refusal, word for word, examples in the same order, or a step that stood because it drew
    chance or showed a secret in both; and the same legal list and autocomplete."""
    game = registry.game(name)
    match = match_of(game)
    probed = committed = refused = differ = 0
    for seed in (21, 22, 23):
        for rng, state, side in twin_moments(name, seed, steps=160, every=4):
            twin = game.chance_twin(state, side, random.Random(rng.random()))
            assert twin.view(side).to_json() == state.view(side).to_json(), "a twin must look the same"
            differ += twin.to_json() != state.to_json()
            assert menu_of(game, state, side) == menu_of(game, twin, side)
            for text in commands(game, state, side, rng):
                one, two = answer(game, match, state, side, text), answer(game, match, twin, side, text)
                probed += 1
                if one[0] == "refused" or two[0] == "refused":
                    assert one == two, f"{name}: `{text}` answered differently by twins:\n{one}\n{two}"
                    refused += 1
                elif one[1] or two[1]:
                    assert one[1] and two[1], f"{name}: `{text}` drew chance in one twin only:\n{one}\n{two}"
                    committed += 1
                else:
                    assert one == two, f"{name}: `{text}` played differently by twins:\n{one}\n{two}"
    assert probed > 100 and refused > 10
    if not name.startswith("combinedarms"):  # their only chance, the map, is dealt before play
        assert differ > 10, f"{name}: only {differ} twins differ from their original at all"
        assert committed > 5, f"{name}: only {committed} commands drew chance"

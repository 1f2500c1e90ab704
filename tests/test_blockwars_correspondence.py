"""Block Wars' correspondence level (issue 32): hard's best plans judged after hard's own reply.

It plays only legal actions, is deterministic for a seed, never reads the deck order, keeps to its
time cap, solves every puzzle, and shows its rating and think time where a player picks a level.
"""

from __future__ import annotations

import functools

import pytest

from engine import registry, search
from engine.base import CORRESPONDENCE
from engine.blockwars import Options, State, ai, correspondence, new_game
from play.ratings import level_choice, level_label, level_rating
from tests.test_ai import FakeClock, _reshuffled  # _reshuffled: the deck reordered, the rest alike

OPTS = Options(crosses=True, fighter_aces=True)


def _positions(seed: int, steps: int, every: int) -> list[State]:
    """Positions in play, our move proper, along one seeded game of `normal` against itself."""
    s = new_game(OPTS, seed)
    out = []
    for n in range(steps):
        if s.is_over():
            break
        side = s.current_player()
        assert side is not None
        if n % every == every - 1 and s.phase == "play" and s.pending is None:
            out.append(s.clone())
        s.apply(ai.choose(s.view(side), "normal", n), side)
    return out


@functools.cache
def positions() -> list[State]:
    """The positions the tests below ask about, worked out once, by the first test that needs them
    (at import they cost every xdist worker its share, whether it runs these tests or not)."""
    return _positions(3, 120, 17)


def test_legal_deterministic_and_blind_to_the_deck_order() -> None:
    assert len(positions()) >= 5
    for i, s in enumerate(positions()):
        side = s.current_player()
        assert side is not None
        picks = [str(correspondence.choose(_reshuffled(s, k).view(side), i, budget_s=60.0)) for k in range(2)]
        picks.append(str(correspondence.choose(s.view(side), i, budget_s=60.0)))
        assert len(set(picks)) == 1, picks
        assert picks[0] in {str(a) for a in s.legal_actions()}


def test_the_time_cap_ends_the_thinking(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a clock that moves a second a read, a 2 s cap leaves hard's first plan and its reply."""
    s = positions()[1]
    side = s.current_player()
    assert side is not None
    fake = FakeClock(1.0)
    monkeypatch.setattr(search, "clock", fake)
    a = correspondence.choose(s.view(side), 1, budget_s=2.0)
    assert a in s.legal_actions()
    assert fake.reads <= 12, fake.reads


def test_hards_first_choice_stands_within_the_margin() -> None:
    """Hard's first choice gives way only to a candidate worth `margin` more after the reply."""
    s = positions()[2]
    side = s.current_player()
    assert side is not None
    first = correspondence.choose(s.view(side), 5, budget_s=60.0, config=correspondence.Config(candidates=1))
    huge = correspondence.Config(margin=1e6)
    assert correspondence.choose(s.view(side), 5, budget_s=60.0, config=huge) == first


def test_answers_decisions_through_the_game_as_every_level_does() -> None:
    game = registry.game("blockwars")
    s = new_game(OPTS, 4)
    side = s.current_player()
    assert side is not None and s.phase == "setup"
    action = game.choose(s.view(side), CORRESPONDENCE, 1)
    assert action in s.legal_actions()


def test_rated_and_shown_with_its_think_time() -> None:
    game = registry.game("blockwars")
    rating, hard = level_rating(game, CORRESPONDENCE), level_rating(game, "hard")
    assert rating is not None and hard is not None and rating >= hard  # measured level with hard
    assert level_label(game, CORRESPONDENCE).startswith("correspondence, about ")
    choice = level_choice(game, CORRESPONDENCE)
    assert "second" in choice and len(choice) <= 100 and not choice.endswith("…"), choice

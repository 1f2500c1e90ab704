"""The Block Wars cheaters of bench/bw_oracle.py see what the game will really do, and no part of the
bot can reach them (they read the deck order no player may know)."""

from __future__ import annotations

import ast
import random
from collections import Counter
from pathlib import Path

from bench.bw_oracle import (
    TrueView,
    _pair_result,
    cheat_choose,
    half_outcomes,
    hard_reply,
    oracle_outcomes,
    prophet_choose,
    same_state,
)
from engine.blockwars import actions as A
from engine.blockwars import ai, new_game
from engine.blockwars.events import Combat
from engine.blockwars.model import Options, Side
from engine.blockwars.state import PLAY, State, View

ROOT = Path(__file__).resolve().parent.parent
BOT = ("engine", "play", "data", "cogs", "render", "console")


def positions(seed: int, every: int, count: int) -> list[State]:
    """Turn starts of a seeded game of `normal` against itself (a quick, varied source of fights)."""
    s = new_game(Options(), seed)
    found: list[State] = []
    n = 0
    while not s.is_over() and len(found) < count and n < 600:
        side = s.current_player()
        assert side is not None
        if s.phase == PLAY and s.pending is None and n % every == 0:
            found.append(s.clone())
        s.apply(ai.choose(s.view(side), ai.NORMAL, n, 100.0), side)
        n += 1
    return found


def fights(s: State) -> list[A.Action]:
    side = s.current_player()
    assert side is not None
    return [a for a in s.legal_actions() if ai.fight_need(s, side, a)]


def as_played(s: State, action: A.Action) -> tuple[State, list[Combat]]:
    """`action` in the real game, then every decision it raises answered by `hard` as in a game."""
    side = s.current_player()
    assert side is not None
    s = s.clone()
    events = s.apply(action, side)
    n = 0
    while s.phase == PLAY and s.pending is not None:
        who = s.current_player()
        assert who is not None
        events += s.apply(ai.choose(s.view(who), ai.HARD, n, 100.0), who)
        n += 1
    return s, [e for e in events if isinstance(e, Combat)]


def test_the_oracle_predicts_every_fight_as_the_game_plays_it() -> None:
    """Every fight of seeded positions (King, Ace and Jack included, with their decisions): the
    state the oracle judges is the one the game reaches."""
    checked = Counter[str]()
    for seed in (3, 11, 27):
        for s in positions(seed, 7, 12):
            side = s.current_player()
            assert side is not None
            for a in fights(s):
                [(p, want)] = oracle_outcomes(TrueView(s.clone(), side), side, a, random.Random(0), [])
                got, combats = as_played(s, a)
                assert p == 1.0 and same_state(want, got), (seed, s.turn, str(a))
                checked[combats[0].result] += 1
                checked["special"] += any(c.kind in ("dogfight", "strafe") for c in combats)
    assert sum(checked[r] for r in ("win", "tie", "loss")) >= 100, checked
    assert checked["win"] and checked["loss"] and checked["tie"], checked
    assert checked["special"] >= 10, checked  # air battles raised by a Jack, answered on both sides


def test_the_seer_reads_the_opponents_next_fight_right() -> None:
    """The seer charges a plan for the opponent's fights judged by the cards on top of the decks:
    that is the result the engine gives."""
    checked = 0
    for s in positions(5, 5, 16):
        side = s.current_player()
        assert side is not None
        for a in fights(s):
            need = ai.fight_need(s, side, a)
            want = _pair_result(s, side, 0, need)
            if want is None:
                continue
            _, combats = as_played(s, a)
            assert combats[0].result == want, (s.turn, str(a))
            checked += 1
    assert checked >= 40


def test_the_half_oracle_keeps_each_decks_cards_and_weighs_the_split() -> None:
    """The half-oracle knows which cards lie in which deck, not their order: its samples keep every
    deck's cards, its results add up to one, and the drawn cards come from the right decks."""
    for s in positions(9, 9, 6):
        side = s.current_player()
        assert side is not None
        for a in fights(s)[:4]:
            outs = half_outcomes(TrueView(s.clone(), side), side, a, random.Random(1), ai._rank_counts(s))
            assert abs(sum(p for p, _ in outs) - 1.0) < 1e-9
            if len(s.decks[side]) < 3 or len(s.decks[side.other]) < 3:
                continue  # a reshuffle may come in the middle of the fight
            for _, t in outs:
                for who in Side:
                    drawn = t.discards[who][len(s.discards[who]) :]
                    assert all(c in s.decks[who] for c in drawn), (str(a), who)


def test_a_cheater_plays_legal_moves_and_leaves_the_game_untouched() -> None:
    s = positions(4, 11, 3)[-1]
    side = s.current_player()
    assert side is not None
    before = s.clone()
    action = cheat_choose(s, side, "seer", 1)
    assert action in s.legal_actions()
    assert same_state(before, s) and vars(ai)["View"] is View and ai.outcomes is not oracle_outcomes
    assert prophet_choose(s, side, 1) in s.legal_actions() and same_state(before, s)


def test_the_prophets_reply_is_hards_whole_turn() -> None:
    """The prophet plays hard's reply on the true cards until it is its own turn again."""
    s = positions(6, 13, 2)[-1]
    side = s.current_player()
    assert side is not None
    e = s.clone()
    e.apply(A.END, side)
    f = hard_reply(e, side, 7)
    assert f.phase != PLAY or (f.current_player() is side and f.pending is None and f.turn == s.turn + 2)


def test_no_module_of_the_bot_imports_the_cheaters() -> None:
    """The oracle reads the deck order: only bench/ and these tests may name it."""
    offenders = []
    files = [ROOT / "bot.py", *(p for d in BOT for p in (ROOT / d).rglob("*.py"))]
    for path in files:
        if not path.exists():
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            if any(n == "bench" or n.startswith("bench.") for n in names):
                offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []
    assert len(files) > 50

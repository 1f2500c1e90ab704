"""The premises of Block Wars' evaluation tools in bench/: the fit's counts and the special-card odds."""

from __future__ import annotations

from dataclasses import replace

from bench.bw_fit import LINEAR, NAMES, counts
from bench.bw_variants import card_classes
from engine.blockwars import ai, new_game
from engine.blockwars.model import Options


def test_the_fit_counts_are_what_the_evaluation_weighs() -> None:
    """bw_fit fits weights to counts, so the score must be exactly the weights times the counts: a
    new term that is not linear in its weight would make the fit quietly wrong."""
    w = replace(ai.HARD_WEIGHTS, adv=(0.0, *ai.HARD_WEIGHTS.adv[1:]))
    vec = [w.adv[int(n[3:])] for n in NAMES if n.startswith("adv")] + [getattr(w, n) for n in LINEAR]
    s = new_game(Options(), 7)
    checked = 0
    for n in range(120):
        side = s.current_player()
        assert side is not None
        if n % 10 == 0 and s.phase == "play":
            want = ai._side_score(s, side, w) - ai._side_score(s, side.other, w)
            got = sum(a * b for a, b in zip(vec, counts(s, side), strict=True))
            assert abs(want - got) < 1e-9, (n, want, got)
            checked += 1
        s.apply(ai.choose(s.view(side), ai.NORMAL, n, 100.0), side)
        if s.is_over():
            break
    assert checked >= 8


def test_the_card_classes_add_up_to_the_fight_odds() -> None:
    """The specials variant splits each fight by King, Ace and Jack; grouped back by result, its
    chances must be the plain fight odds hard uses."""
    many = [0, 0, *[4] * 13]
    few = [0, 0, 1, 3, 0, 2, 4, 1, 0, 0, 2, 1, 3, 0, 2]  # a deck part-way through: some ranks gone
    for deck in (many, few):
        for need in (1, 2):
            classes = card_classes(deck, need)
            by_result = {"win": 0.0, "tie": 0.0, "loss": 0.0}
            for p, (a, d) in classes:
                by_result["win" if a - d >= need else "loss" if d > a else "tie"] += p
            win, tie, loss = ai.fight_odds(deck, need)
            assert abs(by_result["win"] - win) < 1e-12
            assert abs(by_result["tie"] - tie) < 1e-12
            assert abs(by_result["loss"] - loss) < 1e-12
            assert all(deck[a] and deck[d] - (a == d) > 0 for _, (a, d) in classes)

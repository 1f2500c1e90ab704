"""Block Wars against a second reading of the rules, written apart from the engine (the rules audit of
2026-11-28): in random games, every legal action of a turn, the margin each ground fight needs and the
breakthrough win are worked out again from rules/blockwars.md with plain file and rank arithmetic,
none of the engine's tables, and must agree with the engine at every step."""

from __future__ import annotations

import random

import pytest

from engine.blockwars import Options, Side, State, new_game
from engine.blockwars import actions as A
from engine.blockwars.events import Combat
from engine.blockwars.state import PLAY, TANK_ID

FILES = "abcdefgh"
STEPS = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if df or dr]


def name(f: int, r: int) -> str:
    return f"{FILES[f]}{r + 1}"


def on_board(f: int, r: int) -> bool:
    return 0 <= f < 8 and 0 <= r < 8


def passed_over(df: int, dr: int) -> list[tuple[int, int]]:
    """The squares a shot two squares long crosses (R6): the middle one of a straight or diagonal shot;
    both squares beside the line of a knight-like shot."""
    if max(abs(df), abs(dr)) < 2:
        return []
    sf, sr = (df > 0) - (df < 0), (dr > 0) - (dr < 0)
    if abs(df) == 1:
        return [(0, sr), (sf, sr)]
    if abs(dr) == 1:
        return [(sf, 0), (sf, sr)]
    return [(sf, sr)]  # straight or diagonal: one step along it


def expected_actions(s: State) -> set[str]:
    """Every action the side to move may take, from the rules page alone."""
    side, board = s.active, s.board
    own = "G" if side is Side.GERMANS else "C"
    ahead = 1 if side is Side.CANADIANS else -1

    def at(f: int, r: int) -> str | None:
        return board[r * 8 + f]

    def enemy(f: int, r: int) -> bool:
        u = at(f, r)
        return u is not None and u[0] != own

    out = {"end"}
    tank = sorted(i for i in range(64) if board[i] == TANK_ID)
    for i, u in enumerate(board):
        if u is None or u[0] != own or u == TANK_ID:
            continue
        f, r = i % 8, i // 8
        if u[1] == "I" and u not in s.moved:  # one move or move-and-attack a turn
            may_attack = u not in s.entered  # (R14)
            for df, dr in STEPS:
                if not on_board(f + df, r + dr):
                    continue
                if at(f + df, r + dr) is None:
                    out.add(f"{name(f, r)}-{name(f + df, r + dr)}")
                    for ef, er in STEPS if may_attack else []:
                        tf, tr = f + df + ef, r + dr + er
                        if on_board(tf, tr) and (tf, tr) != (f, r) and enemy(tf, tr):
                            out.add(f"{name(f, r)}-{name(f + df, r + dr)}x{name(tf, tr)}")
                elif may_attack and enemy(f + df, r + dr):  # (R4): attacking without the step
                    out.add(f"{name(f, r)}x{name(f + df, r + dr)}")
        elif u[1] == "M" and u not in s.entered:
            for dr in (1, 2):  # (R6): two ranks ahead, 45 degrees either side
                for df in range(-dr, dr + 1):
                    tf, tr = f + df, r + dr * ahead
                    if not on_board(tf, tr) or not enemy(tf, tr) or at(tf, tr) == TANK_ID:
                        continue
                    if all(at(f + bf, r + br) is None for bf, br in passed_over(df, dr * ahead)):
                        out.add(f"{name(f, r)}x{name(tf, tr)}")
    if tank and own == "C":
        if s.actions_left == 2:  # moving the tank takes both actions
            for step, word in ((8, "T+"), (-8, "T-")):
                new = [q + step for q in tank]
                if all(0 <= q < 64 and board[q] in (None, TANK_ID) for q in new):
                    out.add(word)
        if TANK_ID not in s.entered:  # (R7): all round, from any of its squares
            for q in tank:
                f, r = q % 8, q // 8
                for df in range(-2, 3):
                    for dr in range(-2, 3):
                        if (df or dr) and on_board(f + df, r + dr) and enemy(f + df, r + dr):
                            crossed = [(f + bf) + 8 * (r + br) for bf, br in passed_over(df, dr)]
                            if all(board[c] is None or c in tank for c in crossed):
                                out.add(f"Tx{name(f + df, r + dr)}")
    if s.actions_left == 2:  # a reinforcement takes both actions, from the reserve only (R13)
        back = 7 if side is Side.GERMANS else 0
        if any(u[1] == "I" for u in s.reserves[side]):
            out |= {f"R@{name(f, back)}" for f in range(8) if at(f, back) is None}
        if TANK_ID in s.reserves[side]:
            out |= {
                f"T@{name(f, 0)}" for f in range(7) if all(board[q] is None for q in (f, f + 1, f + 8, f + 9))
            }
    return out


def expected_margin(before: State, fight: Combat) -> int:
    """What the attacker must win by: 2 against the tank or across the wire into the enemy trench (R5,
    R8), else 1; strafes and guns ignore the wire."""
    if fight.kind == "strafe":
        return 1
    target = FILES.index(fight.defender[0]) + 8 * (int(fight.defender[1:]) - 1)
    if before.board[target] == TANK_ID:
        return 2
    if fight.kind != "attack":
        return 1
    ranks = (int(fight.attacker[1:]), int(fight.defender[1:]))
    return 2 if ranks == ((5, 6) if fight.side is Side.CANADIANS else (4, 3)) else 1


def breakthrough(s: State) -> Side | None:
    """The side with two units (the tank once) on the enemy back row."""
    for side, prefix, back in ((Side.GERMANS, "G", 0), (Side.CANADIANS, "C", 7)):
        if len({u for u in s.board[back * 8 : back * 8 + 8] if u is not None and u[0] == prefix}) >= 2:
            return side
    return None


def weight(s: State, action: A.Action) -> float:
    """Random play that pushes forward, so that games end in breakthroughs as well as in wipe-outs."""
    if isinstance(action, A.Move):
        ahead = (action.dst // 8 - action.src // 8) * (1 if s.active is Side.CANADIANS else -1)
        return 6.0 if ahead > 0 else 1.0
    return 0.2 if isinstance(action, A.EndTurn) else 2.0


@pytest.mark.parametrize("seed", range(16))
def test_random_games_agree_with_a_second_reading_of_the_rules(seed: int) -> None:
    rng = random.Random(seed)
    s = new_game(Options(crosses=seed % 2 == 0, fighter_aces=seed % 3 == 0), seed)
    for _ in range(1500):
        if s.is_over():
            break
        legal = s.legal_actions()
        if s.phase == PLAY and s.pending is None:
            assert {str(a) for a in legal} == expected_actions(s)
        before = s.clone()
        for e in s.apply(rng.choices(legal, [weight(s, a) for a in legal])[0]):
            if isinstance(e, Combat) and e.kind != "dogfight":
                assert e.need == expected_margin(before, e), e
                won = e.attacker_value - e.defender_value >= e.need
                assert e.result == (
                    "win" if won else "loss" if e.defender_value > e.attacker_value else "tie"
                )
        winner = breakthrough(s)
        if winner is not None:  # (R17): the win comes the moment the second unit arrives
            outcome = s.outcome()
            assert outcome is not None and outcome.winner is winner
    assert s.is_over()

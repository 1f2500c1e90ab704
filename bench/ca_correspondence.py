"""Combined Arms' correspondence level against `hard`, turn by turn (issue 32).

    .venv/bin/python bench/ca_correspondence.py                    # WWI and WWII, 2 positions each
    .venv/bin/python bench/ca_correspondence.py --positions 4      # the suite's former four (about 1 min)
    .venv/bin/python bench/ca_correspondence.py --seeds 1,2,3,4,5,6,7,8 --game wwii

From positions a few turns into games between two `easy` sides (most with a Headquarters left open),
each level plays its whole turn as the bot plays it, then the enemy replies by `hard`'s planner, and
the position is judged by `hard`'s judgement. The figures per game: positions, in how many the
correspondence level stands clearly better than `hard` (by more than one Infantry), clearly worse,
and its worst shortfall; the default seeds are those the suite asked before (it held "clearly better
in at least two of four, never more than one Infantry worse"). It moved here from the suite: the
correspondence level weighs as many lines as its CPU budget allows, so on a loaded machine it
weighed fewer and the claim failed for want of time, not of play. The last line printed is one JSON
object.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.base import CORRESPONDENCE
from engine.combinedarms import plan
from engine.combinedarms.game import PLANNED, WWI_GAME, WWII_GAME
from engine.combinedarms.state import State
from tests.combinedarms.test_correspondence import _position as position
from tests.combinedarms.test_plan import _turn

GAMES = {"wwi": WWI_GAME, "wwii": WWII_GAME}
SEEDS = {"wwi": (1, 2, 4, 6), "wwii": (2, 6, 8, 15)}


def after_reply(s: State, level: str, game: object) -> tuple[float, int]:
    """Our whole turn at `level` as the bot plays it, then the enemy's by `hard`'s planner: the
    position we then face, judged by `hard`'s judgement, and the lines the level weighed."""
    assert game is WWI_GAME or game is WWII_GAME
    hard = PLANNED[game.era.key]["hard"]
    me = s.active
    _turn(s, s.sides[me], level, game=game)
    lines = plan.LAST_LINES
    if not s.is_over():
        plan._play_turn(s, 1 - me, hard, "bench-reply", None)
    return plan.judge(s, me, hard), lines


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", choices=sorted(GAMES), action="append", help="default: both eras")
    parser.add_argument("--seeds", help="comma-separated seeds (default: the suite's former ones per era)")
    parser.add_argument("--positions", type=int, default=2, help="how many of the default seeds (at most 4)")
    args = parser.parse_args()
    figures: dict[str, object] = {"bench": "ca_correspondence"}
    started = time.process_time()
    for key in args.game or sorted(GAMES):
        game = GAMES[key]
        seeds = [int(x) for x in args.seeds.split(",")] if args.seeds else SEEDS[key][: args.positions]
        better = worse = 0
        shortfall = 0.0
        for seed in seeds:
            s = position(game, seed)
            hard, _ = after_reply(s.clone(), "hard", game)
            corr, lines = after_reply(s.clone(), CORRESPONDENCE, game)
            better += corr > hard + 1.0
            worse += corr < hard - 1.0
            shortfall = max(shortfall, hard - corr)
            print(f"{key} seed {seed}: hard {hard:+.2f}, correspondence {corr:+.2f} ({lines} lines weighed)")
        figures[f"{key}_positions"] = len(seeds)
        figures[f"{key}_better"] = better
        figures[f"{key}_worse"] = worse
        figures[f"{key}_worst_shortfall_infantry"] = round(shortfall, 2)
    figures["cpu_s"] = round(time.process_time() - started, 1)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()

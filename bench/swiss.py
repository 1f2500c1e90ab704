"""How long a Swiss round takes to pair (play/swiss.py, networkx's blossom matching), in CPU time.

Plays `--rounds` rounds of `--players` players with seeded random results and times each round's
pairing with the process's CPU clock (`time.process_time`), so a busy shared machine does not
inflate the figure. The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from play.swiss import Entrant, Pairing, pair


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=64, help="players in the tournament (default 64)")
    parser.add_argument("--rounds", type=int, default=7, help="rounds to pair (default 7)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random results")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    players = [Entrant(i, 1200.0 + rng.uniform(-300, 300)) for i in range(1, args.players + 1)]
    games: list[Pairing] = []
    times: list[float] = []
    for round_no in range(1, args.rounds + 1):
        start = time.process_time()
        made = pair(players, games, round_no)
        times.append((time.process_time() - start) * 1000)
        for p in made:
            games.append(
                Pairing(round_no, p.first, p.second, None if p.second is None else rng.choice([0, 0.5, 1]))
            )
    result = {
        "bench": "swiss",
        "players": args.players,
        "rounds": args.rounds,
        "median_cpu_ms": round(statistics.median(times), 1),
        "max_cpu_ms": round(max(times), 1),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()

"""Pigeon Race speed: complete seeded random games per second on one core.

Run: .venv/bin/python benchmarks/bench_pigeon_race.py  -> one JSON object per line.
"""

from __future__ import annotations

import json
import time

from rulepress.games.pigeon_race.rules import random_game

GAMES = 500
ROUNDS = 5  # best of several rounds over the same seeds: steady on a busy machine
# CPU time of this process, not wall time: "per second on one core" even on a shared machine.
CLOCK = time.process_time


def main() -> None:
    best = 0.0
    moves = 0
    for _ in range(ROUNDS):
        start = CLOCK()
        moves = sum(len(random_game(seed).moves) for seed in range(GAMES))
        best = max(best, GAMES / (CLOCK() - start))
    result = {
        "name": "pigeon_race_games_per_s",
        "value": round(best, 1),
        "unit": "games/s",
        "games": GAMES,
        "moves_per_game": round(moves / GAMES, 2),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()

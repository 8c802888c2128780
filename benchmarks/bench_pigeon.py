"""Pigeon (the card game): complete random games per second on one core.

Run: .venv/bin/python benchmarks/bench_pigeon.py  -> one JSON object per line.
"""

from __future__ import annotations

import json
import time

from rulepress.games.pigeon.rules import random_game

GAMES = 500
ROUNDS = 5  # best of several rounds: the figure should not depend on a busy neighbour
# CPU time of this process, not wall time: "per second on one core" even on a shared machine.
CLOCK = time.process_time


def games_per_second() -> tuple[float, float]:
    best = 0.0
    moves = 0
    for r in range(ROUNDS):
        start = CLOCK()
        moves = sum(len(random_game(r * GAMES + s).moves) for s in range(GAMES))
        best = max(best, GAMES / (CLOCK() - start))
    return best, moves / GAMES


def main() -> None:
    rate, mean_moves = games_per_second()
    print(json.dumps({"name": "pigeon_games_per_s", "value": round(rate, 1), "unit": "games/s"}))
    mean = {"name": "pigeon_moves_per_game", "value": round(mean_moves, 2), "unit": "moves"}
    print(json.dumps(mean))


if __name__ == "__main__":
    main()

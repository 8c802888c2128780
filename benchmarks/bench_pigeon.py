"""Pigeon (the card game): complete random games per second on one core, played through the
rules protocol (``Rules.new_game``, then ``play_out``: legal_moves, a uniform pick, apply).

Run: .venv/bin/python benchmarks/bench_pigeon.py  -> one JSON object per line.
"""

from __future__ import annotations

import json
import random
import time

from rulepress.games.base import GameState, play_out
from rulepress.games.pigeon.rules import RULES

GAMES = 500
ROUNDS = 5  # best of several rounds: the figure should not depend on a busy neighbour
# CPU time of this process, not wall time: "per second on one core" even on a shared machine.
CLOCK = time.process_time


def random_game(seed: int) -> GameState[object]:
    return play_out(RULES.new_game(2, seed), random.Random(seed))


def games_per_second() -> float:
    best = 0.0
    for r in range(ROUNDS):
        start = CLOCK()
        for s in range(GAMES):
            random_game(r * GAMES + s)
        best = max(best, GAMES / (CLOCK() - start))
    return best


def moves_per_game() -> float:
    """Over the games timed, counted apart from the timing: the count would slow the loop."""
    moves = 0

    def count(state: object, move: object) -> None:
        nonlocal moves
        moves += 1

    for seed in range(ROUNDS * GAMES):
        play_out(RULES.new_game(2, seed), random.Random(seed), on_move=count)
    return moves / (ROUNDS * GAMES)


def main() -> None:
    rate = games_per_second()
    print(json.dumps({"name": "pigeon_games_per_s", "value": round(rate, 1), "unit": "games/s"}))
    mean = {"name": "pigeon_moves_per_game", "value": round(moves_per_game(), 2), "unit": "moves"}
    print(json.dumps(mean))


if __name__ == "__main__":
    main()

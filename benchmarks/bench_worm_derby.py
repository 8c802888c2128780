"""Worm Derby: complete seeded 2-player games per second with the goal-directed player, and
random play through the rules protocol (what a search's playouts cost).

Each goal game is ``RULES.new_game(2, seed)`` (the basic race on the standard three-foot course: 36
cells to the pylon, 21 obstacle tiles) played to its end by ``base.play_out``, both seats the
"goal" agent, die rolls drawn as chance outcomes. Timed in CPU seconds of this one process, so
that other work on a shared machine does not count.

Random play: ``RANDOM_GAMES`` seeded basic games from their first set-up move, every choice
uniformly random (``base.random_agent``), to the end (random worms rarely finish: most games run
to the turn limit, some 900 moves). ``worm_derby_random_moves_per_s`` counts every move,
chance rolls included; ``worm_derby_random_playouts_per_s`` whole games.

Run: .venv/bin/python benchmarks/bench_worm_derby.py  -> one JSON object per line.
"""

from __future__ import annotations

import json
import random
import time

from rulepress.games.base import play_out
from rulepress.games.worm_derby import ENGINE
from rulepress.games.worm_derby.rules import RULES

GAMES = 200
RANDOM_GAMES = 10
GOAL = ENGINE.agents()["goal"][1]


def play(seed: int) -> int:
    """One game; the race turns it took."""
    return play_out(RULES.new_game(2, seed), random.Random(seed), (GOAL, GOAL)).turn()


def random_game(seed: int) -> int:
    """One random game; the moves it took, rolls included."""
    moves = 0

    def count(_state: object, _move: object) -> None:
        nonlocal moves
        moves += 1

    play_out(RULES.new_game(2, seed), random.Random(seed), on_move=count)
    return moves


def main() -> None:
    play(0)  # warm the caches shared by every game (grid neighbours)
    start = time.process_time()
    turns = sum(play(seed) for seed in range(1, GAMES + 1))
    elapsed = time.process_time() - start
    print(json.dumps({"name": "worm_derby_games_per_s", "value": round(GAMES / elapsed, 1),
                      "unit": "games/s", "games": GAMES, "course_cells": 36,
                      "mean_turns": round(turns / GAMES, 1)}))
    start = time.process_time()
    moves = sum(random_game(seed) for seed in range(1, RANDOM_GAMES + 1))
    elapsed = time.process_time() - start
    print(json.dumps({"name": "worm_derby_random_moves_per_s", "value": round(moves / elapsed),
                      "unit": "moves/s", "games": RANDOM_GAMES,
                      "mean_moves": round(moves / RANDOM_GAMES)}))
    print(json.dumps({"name": "worm_derby_random_playouts_per_s",
                      "value": round(RANDOM_GAMES / elapsed, 2), "unit": "playouts/s",
                      "games": RANDOM_GAMES}))


if __name__ == "__main__":
    main()

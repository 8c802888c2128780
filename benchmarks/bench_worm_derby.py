"""Worm Derby: complete seeded 2-player games per second with the goal-directed player.

Timed in CPU seconds of this one process, so that other work on a shared machine does not
count; the course is the standard three-foot one (36 cells to the pylon, 21 obstacle tiles).
"""

from __future__ import annotations

import json
import time

from rulepress.games.worm_derby.player import play_game

GAMES = 200


def main() -> None:
    play_game(0)  # warm the caches shared by every game (grid neighbours)
    start = time.process_time()
    turns = 0
    for seed in range(1, GAMES + 1):
        game = play_game(seed)
        assert game.final.over
        turns += game.turns
    elapsed = time.process_time() - start
    print(json.dumps({"name": "worm_derby_games_per_s", "value": round(GAMES / elapsed, 1),
                      "unit": "games/s", "games": GAMES, "course_cells": 36,
                      "mean_turns": round(turns / GAMES, 1)}))


if __name__ == "__main__":
    main()

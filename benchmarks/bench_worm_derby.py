"""Worm Derby: complete seeded 2-player games per second with the goal-directed player."""

from __future__ import annotations

import json
import time

from rulepress.games.worm_derby.player import play_game

GAMES = 200


def main() -> None:
    play_game(0)  # warm the caches shared by every game (grid neighbours)
    start = time.perf_counter()
    turns = 0
    for seed in range(1, GAMES + 1):
        game = play_game(seed)
        assert game.final.over
        turns += game.turns
    elapsed = time.perf_counter() - start
    print(json.dumps({"name": "worm_derby_games_per_s", "value": round(GAMES / elapsed, 1),
                      "unit": "games/s", "games": GAMES, "course_cells": 36,
                      "mean_turns": round(turns / GAMES, 1)}))


if __name__ == "__main__":
    main()

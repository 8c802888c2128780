"""Pigeon Race speed: complete seeded random games per second on one core."""

from __future__ import annotations

import json
import time

from rulepress.games.pigeon_race.rules import random_game


def main() -> None:
    games = 0
    moves = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < 2.0 or games < 500:
        moves += len(random_game(seed).moves)
        games += 1
        seed += 1
    elapsed = time.perf_counter() - start
    print(
        json.dumps(
            {
                "name": "pigeon_race_games_per_s",
                "value": round(games / elapsed, 1),
                "unit": "games/s",
                "games": games,
                "moves_per_game": round(moves / games, 2),
            }
        )
    )


if __name__ == "__main__":
    main()

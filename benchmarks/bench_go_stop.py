"""Go-Stop engine speed: complete seeded 2-player games with uniformly random legal decisions."""

from __future__ import annotations

import json
import time

from rulepress.games.go_stop import random_game

GAMES = 2000
ROUNDS = 5


def games_per_second(players: int) -> float:
    best = float("inf")
    for r in range(ROUNDS):
        start = time.perf_counter()
        for seed in range(r * GAMES, (r + 1) * GAMES):
            random_game(seed, players)
        best = min(best, time.perf_counter() - start)
    return GAMES / best


def main() -> None:
    print(
        json.dumps(
            {
                "name": "go_stop_games_per_s",
                "value": round(games_per_second(2), 1),
                "unit": "games/s",
                "players": 2,
                "games": GAMES,
                "best_of": ROUNDS,
            }
        )
    )
    print(
        json.dumps(
            {
                "name": "go_stop_games_per_s_3p",
                "value": round(games_per_second(3), 1),
                "unit": "games/s",
                "players": 3,
                "games": GAMES,
                "best_of": ROUNDS,
            }
        )
    )


if __name__ == "__main__":
    main()

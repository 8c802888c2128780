"""Go-Stop engine speed: complete seeded games with uniformly random legal decisions, one core.

Timed in CPU time of this process (best of several rounds), so other work on the machine does
not count against the engine; wall-clock figures are printed alongside.
"""

from __future__ import annotations

import json
import time

from rulepress.games.go_stop import random_game

GAMES = 2000
ROUNDS = 5


def games_per_second(players: int) -> tuple[float, float]:
    best_cpu = best_wall = float("inf")
    for r in range(ROUNDS):
        cpu, wall = time.process_time(), time.perf_counter()
        for seed in range(r * GAMES, (r + 1) * GAMES):
            random_game(seed, players)
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
    return GAMES / best_cpu, GAMES / best_wall


def main() -> None:
    for players, name in ((2, "go_stop_games_per_s"), (3, "go_stop_games_per_s_3p")):
        cpu, wall = games_per_second(players)
        print(
            json.dumps(
                {
                    "name": name,
                    "value": round(cpu, 1),
                    "unit": "games/s",
                    "wall": round(wall, 1),
                    "players": players,
                    "games": GAMES,
                    "best_of": ROUNDS,
                }
            )
        )


if __name__ == "__main__":
    main()

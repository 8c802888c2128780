"""Go-Stop engine speed: complete seeded games with uniformly random legal decisions, one core.

Best of several rounds. go_stop_games_per_s is wall-clock time; go_stop_games_per_cpu_s is the
CPU time of this process, which other work on a busy machine does not inflate.
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
    cpu, wall = games_per_second(2)
    print(json.dumps({"name": "go_stop_games_per_s", "value": round(wall, 1), "unit": "games/s"}))
    print(
        json.dumps({"name": "go_stop_games_per_cpu_s", "value": round(cpu, 1), "unit": "games/s"})
    )
    cpu, wall = games_per_second(3)
    print(
        json.dumps({"name": "go_stop_3p_games_per_s", "value": round(wall, 1), "unit": "games/s"})
    )


if __name__ == "__main__":
    main()

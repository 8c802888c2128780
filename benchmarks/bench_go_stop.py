"""Go-Stop: complete seeded games per second, played at random through the rules protocol.

Each game is ``RULES.new_game(players, seed)`` played to its end by ``base.play_out``, every
seat choosing uniformly among the legal moves, on one core; best of several rounds.
go_stop_games_per_s is wall-clock time; go_stop_games_per_cpu_s is the CPU time of this process,
which other work on a busy machine does not inflate.

The seats choose with ``int(random() * len(moves))``, as the benchmark did before the protocol,
so that the figure measures the engine and the protocol rather than ``random.randrange``;
go_stop_games_per_cpu_s_random_agent is the same games with ``base.random_agent`` (randrange).
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

from rulepress.games.base import Agent, GameState, play_out, random_agent
from rulepress.games.go_stop.rules import RULES

GAMES = 2000
ROUNDS = 5


def uniform(state: GameState[Any], rng: random.Random) -> Any:
    moves = state.legal_moves()
    return moves[int(rng.random() * len(moves))]


def games_per_second(players: int, agent: Agent = uniform) -> tuple[float, float]:
    best_cpu = best_wall = float("inf")
    seats = (agent,) * players
    for r in range(ROUNDS):
        choices = random.Random(r)  # the seats' choices; each deal comes from its game's seed
        cpu, wall = time.process_time(), time.perf_counter()
        for seed in range(r * GAMES, (r + 1) * GAMES):
            play_out(RULES.new_game(players, seed), choices, seats)
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
    return GAMES / best_cpu, GAMES / best_wall


def report(name: str, value: float) -> None:
    print(json.dumps({"name": name, "value": round(value, 1), "unit": "games/s"}))


def main() -> None:
    cpu, wall = games_per_second(2)
    report("go_stop_games_per_s", wall)
    report("go_stop_games_per_cpu_s", cpu)
    report("go_stop_games_per_cpu_s_random_agent", games_per_second(2, random_agent)[0])
    cpu, wall = games_per_second(3)
    report("go_stop_3p_games_per_s", wall)
    report("go_stop_3p_games_per_cpu_s", cpu)


if __name__ == "__main__":
    main()

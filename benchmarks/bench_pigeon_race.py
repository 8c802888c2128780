"""Pigeon Race speed: complete seeded random games per second on one core, played through the
rules protocol (``Rules.new_game``, then ``play_out``: legal_moves, a uniform pick, apply).

Run: .venv/bin/python benchmarks/bench_pigeon_race.py  -> one JSON object per line.
"""

from __future__ import annotations

import json
import random
import time

from rulepress.games.base import GameState, play_out
from rulepress.games.pigeon_race.rules import MAX_PLAYERS, MIN_PLAYERS, RULES

GAMES = 500
ROUNDS = 5  # best of several rounds over the same seeds: steady on a busy machine
# CPU time of this process, not wall time: "per second on one core" even on a shared machine.
CLOCK = time.process_time


def random_game(seed: int) -> GameState[object]:
    """The game of ``seed``, with 2 to 6 players as the seed draws them."""
    players = random.Random(seed).randint(MIN_PLAYERS, MAX_PLAYERS)
    return play_out(RULES.new_game(players, seed), random.Random(seed))


def main() -> None:
    best = 0.0
    turns = 0
    for _ in range(ROUNDS):
        start = CLOCK()
        turns = sum(random_game(seed).turn() for seed in range(GAMES))
        best = max(best, GAMES / (CLOCK() - start))
    result = {
        "name": "pigeon_race_games_per_s",
        "value": round(best, 1),
        "unit": "games/s",
        "games": GAMES,
        "moves_per_game": round(turns / GAMES, 2),  # one move is one turn
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()

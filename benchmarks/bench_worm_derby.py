"""Worm Derby: complete seeded 2-player games per second with the goal-directed player.

Each game is ``RULES.new_game(2, seed)`` (the basic race on the standard three-foot course: 36
cells to the pylon, 21 obstacle tiles) played to its end by ``base.play_out``, both seats the
"goal" agent, die rolls drawn as chance outcomes. Timed in CPU seconds of this one process, so
that other work on a shared machine does not count.
"""

from __future__ import annotations

import json
import random
import time

from rulepress.games.base import play_out
from rulepress.games.worm_derby import ENGINE
from rulepress.games.worm_derby.rules import RULES

GAMES = 200
GOAL = ENGINE.agents()["goal"][1]


def play(seed: int) -> int:
    """One game; the race turns it took."""
    return play_out(RULES.new_game(2, seed), random.Random(seed), (GOAL, GOAL)).turn()


def main() -> None:
    play(0)  # warm the caches shared by every game (grid neighbours)
    start = time.process_time()
    turns = sum(play(seed) for seed in range(1, GAMES + 1))
    elapsed = time.process_time() - start
    print(json.dumps({"name": "worm_derby_games_per_s", "value": round(GAMES / elapsed, 1),
                      "unit": "games/s", "games": GAMES, "course_cells": 36,
                      "mean_turns": round(turns / GAMES, 1)}))


if __name__ == "__main__":
    main()

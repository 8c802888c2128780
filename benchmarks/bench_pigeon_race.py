"""Pigeon Race speed on one core: complete seeded random games per second, played through the
rules protocol (``Rules.new_game``, then ``play_out``: legal_moves, a uniform pick, apply);
two-player races played by ``greedy`` in both seats (what a guided playout costs: greedy weighs
every legal move); and the rollouts a second inside ``closer``'s search of a race's last turns.

Run: .venv/bin/python benchmarks/bench_pigeon_race.py  -> one JSON object per line.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from rulepress.games.base import GameState, play_out
from rulepress.games.pigeon_race.agents import closer, greedy
from rulepress.games.pigeon_race.rules import MAX_PLAYERS, MIN_PLAYERS, RULES, State

T = TypeVar("T")
GAMES = 500
GREEDY_GAMES = 40
DECISIONS = 12
ROUNDS = 5  # best of several rounds over the same seeds: steady on a busy machine
# CPU time of this process, not wall time: "per second on one core" even on a shared machine.
CLOCK = time.process_time


def random_game(seed: int) -> GameState[object]:
    """The game of ``seed``, with 2 to 6 players as the seed draws them."""
    players = random.Random(seed).randint(MIN_PLAYERS, MAX_PLAYERS)
    return play_out(RULES.new_game(players, seed), random.Random(seed))


def greedy_race(seed: int) -> State:
    state, rng = RULES.new_game(2, seed), random.Random(seed)
    while not state.is_over():
        state = state.apply(greedy(state, rng))
    return state


def late_decisions(count: int) -> list[State]:
    """Two-player states with 3 cards left to draw, where closer searches: one a race."""
    found = []
    for seed in range(count):
        state, rng = RULES.new_game(2, seed), random.Random(seed)
        while not state.is_over() and len(state.deck) > 3:
            state = state.apply(greedy(state, rng))
        if not state.is_over():
            found.append(state)
    return found


def best_rate(work: Sequence[T], run: Callable[[T], object]) -> float:
    """Items of ``work`` done by ``run`` per CPU second, best of ROUNDS."""
    best = 0.0
    for _ in range(ROUNDS):
        start = CLOCK()
        for item in work:
            run(item)
        best = max(best, len(work) / (CLOCK() - start))
    return best


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
    print(json.dumps(result), flush=True)
    rate = best_rate(list(range(GREEDY_GAMES)), greedy_race)
    print(json.dumps({"name": "pigeon_race_greedy_races_per_s", "value": round(rate, 1),
                      "unit": "races/s", "games": GREEDY_GAMES}), flush=True)
    late = late_decisions(DECISIONS)
    rate = best_rate(late, lambda state: closer(state, random.Random(0)))
    print(json.dumps({"name": "pigeon_race_closer_rollouts_per_s",
                      "value": round(rate * rollouts_per_decision(late)),
                      "unit": "rollouts/s", "decisions": len(late)}), flush=True)


def rollouts_per_decision(late: list[State]) -> float:
    """Each rollout ends in one call of ``winners`` (counted on an untimed pass)."""
    count = [0]
    winners = State.winners

    def counted(state: State) -> tuple[int, ...]:
        count[0] += 1
        return winners(state)

    State.winners = counted  # type: ignore[method-assign, assignment]
    try:
        for state in late:
            closer(state, random.Random(0))
    finally:
        State.winners = winners  # type: ignore[method-assign]
    return count[0] / len(late)


if __name__ == "__main__":
    main()

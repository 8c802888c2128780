"""The searching agents (simulate/search.py): playouts per second on one core for each bundled
engine, two ways:

- ``<game>_playouts_per_s``: what a search's budget buys at the start of a two-player game: a
  state sampled from seat 0's view, played to its end by random moves (the sampling included);
- ``<game>_policy_playouts_per_s``: the same, played as a search's playouts are by default:
  by the game's own player (greedy), one move in ten at random;
- ``<game>_judged_playouts_per_s``: for a game whose player judges a position (Pigeon), the
  same cut off at that player's horizon and judged there, as its searches' playouts are;
- ``<game>_ismcts_playouts_per_s``: the same inside a whole IS-MCTS decision (``ismcts:200``; 10
  for Worm Derby) at the game's first choice, the tree's selection, its hints from the game's
  player and bookkeeping included;
- ``<game>_flat_playouts_per_s``: the same inside a whole ``flat:200`` decision (10 for Worm
  Derby): the candidates compared on common samples, each rollout from a fresh random source.

CPU time of this process, best of a few rounds, each sized to about SECONDS.

Run: .venv/bin/python benchmarks/bench_search.py  -> one JSON object per line.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

from rulepress.games import load_engine
from rulepress.games.base import CHANCE, GameState, Rules, chance_move, sample_of, view_of
from rulepress.simulate.search import Search, playout, search_agent

ENGINES = ("pigeon_race", "pigeon", "go_stop", "worm_derby")
SECONDS = 2.0
ROUNDS = 3
BUDGET = {"worm_derby": 10}  # its random games take some 900 moves: a smaller decision
DEFAULT_BUDGET = 200
CLOCK = time.process_time


def emit(name: str, value: float, unit: str) -> None:
    print(json.dumps({"name": name, "value": round(value, 1), "unit": unit}), flush=True)


def first_choice(rules: Rules, seed: int) -> GameState[Any]:
    state, rng = rules.new_game(2, seed), random.Random(seed)
    while state.current_player() == CHANCE or len(state.legal_moves()) < 2:
        state = state.apply(chance_move(state, rng) if state.current_player() == CHANCE
                            else state.legal_moves()[0])
    return state


def rate(work: Callable[[int], int]) -> float:
    """Units of ``work(k)`` (its return) per CPU second, best of ROUNDS of about SECONDS."""
    start = CLOCK()
    done = work(0)
    per = done / max(CLOCK() - start, 1e-6)
    best = 0.0
    for r in range(ROUNDS):
        start, done, k = CLOCK(), 0, 1 + r * 10_000
        while CLOCK() - start < SECONDS or done == 0:
            done += work(k)
            k += 1
        best = max(best, done / (CLOCK() - start))
    return max(best, per)


def measure(name: str) -> None:
    rules = load_engine(name).rules()
    assert rules is not None
    start = rules.new_game(2, 1, rules.variants()[0].name)
    view = view_of(rules, start, 0)

    def one_playout(k: int) -> int:
        rng = random.Random(k)
        playout(sample_of(rules, view, rng), rng)
        return 1

    emit(f"{name}_playouts_per_s", rate(one_playout), "playouts/s")
    players = {n: agent for n, (_, agent) in load_engine(name).agents().items()}
    budget = BUDGET.get(name, DEFAULT_BUDGET)
    agent = search_agent(f"ismcts:{budget}", rules, players)

    def policy_playout(k: int) -> int:
        rng = random.Random(k)
        Search(rules, agent.policy, rng).playout(sample_of(rules, view, rng))
        return 1

    emit(f"{name}_policy_playouts_per_s", rate(policy_playout), "playouts/s")
    if hasattr(agent.policy, "evaluate"):  # its searches play on to a horizon and judge there

        def judged_playout(k: int) -> int:
            rng = random.Random(k)
            Search(rules, agent.policy, rng).score(sample_of(rules, view, rng))
            return 1

        emit(f"{name}_judged_playouts_per_s", rate(judged_playout), "playouts/s")
    choice = first_choice(rules, 1)

    def decision(k: int) -> int:
        agent(choice, random.Random(k))
        return budget

    emit(f"{name}_ismcts_playouts_per_s", rate(decision), "playouts/s")
    flat = search_agent(f"flat:{budget}", rules, players)

    def flat_decision(k: int) -> int:
        flat(choice, random.Random(k))
        return budget

    emit(f"{name}_flat_playouts_per_s", rate(flat_decision), "playouts/s")


def main() -> None:
    for name in ENGINES:
        measure(name)


if __name__ == "__main__":
    main()

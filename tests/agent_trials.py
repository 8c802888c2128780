"""A heuristic agent against uniform random play, through the rules protocol only: the share of
games it wins, every move it plays checked to be legal."""

from __future__ import annotations

import random
from typing import Any

from rulepress.games.base import Agent, GameState, Rules, play_out, random_agent


def checked(agent: Agent) -> Agent:
    """The agent, asserting that each move it returns is one of the legal moves."""

    def play(state: GameState[Any], rng: random.Random) -> Any:
        move = agent(state, rng)
        assert move in state.legal_moves(), f"{move!r} is not legal"
        return move

    return play


def win_rate(rules: Rules, agent: Agent, players: int, games: int) -> float:
    """The agent's share of wins over the seeds 0 to ``games - 1`` (fixed, so the figure is the
    same on every run), taking each seat in turn among random players; a shared win counts
    its share."""
    wins = 0.0
    for seed in range(games):
        seat = seed % players
        agents = [random_agent] * players
        agents[seat] = checked(agent)
        outcome = play_out(rules.new_game(players, seed), random.Random(seed), agents).outcome()
        assert outcome is not None
        if seat in outcome.winners:
            wins += 1 / len(outcome.winners)
    return wins / games

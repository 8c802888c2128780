"""Worm Derby's heuristic agents: each plays only legal moves and beats uniform random play."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rulepress.games.base import Agent, GameState, play_out, random_agent
from rulepress.games.worm_derby import ENGINE
from rulepress.games.worm_derby.rules import RULES

AGENTS = ENGINE.agents()
GAMES = 240


def test_every_agent_says_how_it_plays() -> None:
    assert "goal" in AGENTS
    assert all(line and callable(agent) for line, agent in AGENTS.values())


@pytest.mark.slow  # whole races in every variant
@pytest.mark.parametrize("name", sorted(AGENTS))
@pytest.mark.parametrize("variant", ["basic", "slalom", "cannibal", "slalom+cannibal"])
def test_agent_plays_legal_moves_only(name: str, variant: str) -> None:
    agent = AGENTS[name][1]

    def checked(state: GameState[Any], rng: random.Random) -> Any:
        move = agent(state, rng)
        assert move in state.legal_moves()
        return move

    for seed in range(2):
        players = 2 + seed
        play_out(RULES.new_game(players, seed, variant), random.Random(seed), [checked] * players)


def wins(agent: Agent) -> tuple[int, int]:
    """Races won by the agent and by a random worm, the agent taking each seat in turn. Slalom
    courses, Cannibal or not: no obstacles to lay, which random play makes slow."""
    mine = theirs = 0
    for seed in range(GAMES):
        seat = seed % 2
        seats = [random_agent, random_agent]
        seats[seat] = agent
        variant = ("slalom", "slalom+cannibal")[seed // 2 % 2]
        final = play_out(RULES.new_game(2, seed, variant), random.Random(seed), seats)
        outcome = final.outcome()
        assert outcome is not None
        mine += seat in outcome.winners
        theirs += bool(outcome.winners) and seat not in outcome.winners
    return mine, theirs


@pytest.mark.slow  # enough whole games to tell strength
@pytest.mark.parametrize("name", sorted(AGENTS))
def test_agent_beats_random_play(name: str) -> None:
    mine, theirs = wins(AGENTS[name][1])
    # Measured: the goal player won every one of these races. A random worm rarely finishes
    # at all: random against random ends at the turn limit.
    assert mine >= 0.9 * GAMES and theirs <= 0.05 * GAMES, (mine, theirs)

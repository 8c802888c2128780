"""Pigeon Race's players (games/pigeon_race/agents.py): greedy's fast look at each move agrees
with the engine."""

from __future__ import annotations

import random
from typing import Any

from rulepress.games.pigeon_race.agents import greedy
from rulepress.games.pigeon_race.rules import (
    PIGEONS,
    RULES,
    State,
    landing,
    places_after,
)


def states(games: int, players: int = 2) -> list[State]:
    """Every state of ``games`` races played by greedy players."""
    found = []
    for seed in range(games):
        state, rng = RULES.new_game(players, seed), random.Random(seed)
        while not state.is_over():
            found.append(state)
            state = state.apply(greedy(state, rng))
    return found


def late(games: int) -> list[State]:
    """One state a race where closer searches: few cards left to draw, a choice to make."""
    found = []
    for state in states(games):
        if len(state.deck) == 3 and len({m.card for m in state.legal_moves()}) > 1:
            found.append(state)
    return found


class Spy:
    """A state that notes what is asked of it."""

    def __init__(self, state: State) -> None:
        self._state = state
        self.asked: set[str] = set()

    def __getattr__(self, name: str) -> Any:
        self.asked.add(name)
        return getattr(self._state, name)


def test_the_fast_look_at_a_move_agrees_with_playing_it() -> None:
    checked = 0
    for state in states(6, players=3)[::7]:
        for move in state.legal_moves():
            after = state.apply(move)
            assert landing(state, move) == (after.positions, after.finished)
            assert places_after(state, move) == tuple(after.places()[p] for p in PIGEONS)
            checked += 1
    assert checked > 1000

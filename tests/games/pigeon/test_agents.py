"""Pigeon agents: each plays only legal moves and beats uniform random play."""

from __future__ import annotations

import pytest
from agent_trials import win_rate

from rulepress.games.pigeon import ENGINE


@pytest.mark.slow  # enough whole games to tell strength
@pytest.mark.parametrize("name", sorted(ENGINE.agents()))
def test_agent_plays_legal_moves_and_beats_random_play(name: str) -> None:
    description, agent = ENGINE.agents()[name]
    assert description and "\n" not in description
    # A random player wins about half the games; the greedy agent won 0.92 of these 300 when
    # written.
    assert win_rate(ENGINE.rules(), agent, players=2, games=300) > 0.7

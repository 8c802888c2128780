"""Pigeon (the card game): a property of seeded random games that the shared protocol test does
not cover (it checks the invariants, the move order, the notation and that a seed replays the
same game): no game can lock up in Forceplays."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rulepress.games.base import GameState, random_agent
from rulepress.games.pigeon.rules import (
    DRAW,
    HAND_LIMIT,
    MAX_TURNS,
    PIGEON,
    RULES,
    Move,
    Phase,
    Play,
)

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def forcer(state: GameState[Any], rng: random.Random) -> Move:
    """Plays for the longest game: discards the Pigeon whenever it may (the limit back at five)
    and forces a single card whenever it may (a turn without a draw)."""
    moves = list(state.legal_moves())
    if PIGEON in moves:
        return PIGEON
    singles = [m for m in moves if isinstance(m, Play) and m.force and len(m.cards) == 1]
    return rng.choice(singles or moves)


@settings(max_examples=150, deadline=None)
@given(SEEDS, st.booleans())
def test_no_game_locks_up_in_forceplays(seed: int, forcing: bool) -> None:
    """The rules module's argument, turn by turn: a turn that draws no card is a one-card
    Forceplay from a full hand at limit 5; so every game ends within MAX_TURNS turns."""
    agent = forcer if forcing else random_agent
    rng = random.Random(seed)
    state = start = RULES.new_game(2, seed)
    action: Move | None = None
    while not state.is_over():
        move = agent(state, rng)
        if move not in (PIGEON, DRAW):
            action = move
        after = state.apply(move)
        if after.turn() > state.turn():
            seat = start.seats[start.to_move]
            drew = len(after.seats[start.to_move].deck) < len(seat.deck)
            if start.phase is not Phase.OPENING and not drew:
                assert isinstance(action, Play) and action.force and len(action.cards) == 1
                assert seat.limit == len(seat.hand) == HAND_LIMIT
            start, action = after, None
        state = after
    assert state.turn() <= MAX_TURNS


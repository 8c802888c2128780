"""Heuristic players for simulating Pigeon Race: agents of the rules protocol.

Each picks one of ``state.legal_moves()`` and looks ahead only through the rules' own account
of a move (``places_after``); what it knows beyond the protocol is its own secret order, which
a player at the table knows too.
"""

from __future__ import annotations

import random
from typing import Any

from rulepress.games.pigeon_race.rules import SCORE_TABLE, Move, State, places_after
from rulepress.plugin import GameState


def greedy(state: GameState[Any], rng: random.Random) -> Move:
    """The move after which the player's own pigeons would score most if the race ended at
    once (by the player's secret order); a tie is broken at random."""
    if not isinstance(state, State):
        raise TypeError(f"not a Pigeon Race state: {type(state).__name__}")
    order = state.orders[state.current_player()]
    best: list[Move] = []
    top = -1.0
    for move in state.legal_moves():
        value = _value(places_after(state, move), order)
        if value > top:
            best, top = [move], value
        elif value == top:
            best.append(move)
    return best[rng.randrange(len(best))]


def _value(places: tuple[int, ...], order: tuple[int, ...]) -> float:
    return float(sum([SCORE_TABLE[i][places[p - 1] - 1] for i, p in enumerate(order)]))


AGENTS = {
    "greedy": (
        "plays the card and pigeons that would score its own secret order best if the race "
        "ended now",
        greedy,
    ),
}

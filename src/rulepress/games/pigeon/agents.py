"""Heuristic players for simulating Pigeon: agents of the rules protocol.

Each picks one of ``state.legal_moves()`` by what the move itself shows, so it sees no more
than the player at the table: its own cards and the piles.
"""

from __future__ import annotations

import random
from typing import Any

from rulepress.games.pigeon.cards import ACE, KING
from rulepress.games.pigeon.rules import HAND_LIMIT, DiscardPigeon, Move, MoveList, Play, Sweep
from rulepress.plugin import GameState

# A card played is a card drawn back: the race to the bottom of one's deck. Finishing a pile
# wins the Pigeon, a spare limit of five; a Forceplay costs a card a turn until it is undone.
PER_CARD = 10
FINISH = 5
FORCE = -100
assert HAND_LIMIT * PER_CARD + FORCE < 0  # a Forceplay gains less than any other move
DISCARD = 1_000  # the limit back at five at once: more cards drawn, and Forceplay again


def gain(move: Move) -> int:
    """What ``move`` gains at once, by the weights above (a draw that keeps the Pigeon, 0)."""
    if isinstance(move, DiscardPigeon):
        return DISCARD
    if isinstance(move, Sweep):
        return PER_CARD * len(move.cards)
    if isinstance(move, Play):
        value = PER_CARD * len(move.cards)
        if move.force:
            return value + FORCE
        finishes = move.pile is not None and move.cards[-1].rank in (ACE, KING)
        return value + FINISH * finishes
    return 0


class Greedy:
    """The move of most immediate gain; a tie is broken at random. ``value`` is that gain, by
    which a search shortlists the moves worth its playouts."""

    def __call__(self, state: GameState[Any], rng: random.Random) -> Move:
        legal = state.legal_moves()
        # A Forceplay gains at most 5 * PER_CARD + FORCE < 0, below every other move: they are
        # made only when nothing else is legal (the choice, and the draws, stay the same).
        moves = (legal.unforced() or legal) if isinstance(legal, MoveList) else legal
        best: list[Move] = []
        top = FORCE * 2
        for move in moves:
            value = gain(move)
            if value > top:
                best, top = [move], value
            elif value == top:
                best.append(move)
        return best[rng.randrange(len(best))]

    def value(self, state: GameState[Any], move: Move) -> float:
        return gain(move)


greedy = Greedy()


AGENTS = {
    "greedy": (
        "plays the most cards it can, finishing piles when it may; discards the Pigeon to get "
        "its limit back; forces only when nothing else is legal",
        greedy,
    ),
}

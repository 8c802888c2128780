"""Heuristic players for simulating Pigeon: agents of the rules protocol.

Each picks one of ``state.legal_moves()`` by what the move itself shows, so it sees no more
than the player at the table: its own cards and the piles.
"""

from __future__ import annotations

import math
import random
from typing import Any

from rulepress.games.pigeon.cards import ACE, KING
from rulepress.games.pigeon.rules import (
    HAND_LIMIT,
    DiscardPigeon,
    Move,
    MoveList,
    Play,
    State,
    Sweep,
)
from rulepress.plugin import GameState

# A card played is a card drawn back: the race to the bottom of one's deck. Finishing a pile
# wins the Pigeon, a spare limit of five; a Forceplay costs a card a turn until it is undone.
PER_CARD = 10
FINISH = 5
FORCE = -100
assert HAND_LIMIT * PER_CARD + FORCE < 0  # a Forceplay gains less than any other move
DISCARD = 1_000  # the limit back at five at once: more cards drawn, and Forceplay again

# A search's look-ahead (simulate/search.py): its playouts stop HORIZON turns on and are judged
# by the race, each seat's cards still to draw; a lowered limit draws one card fewer a turn.
# Whole games from one move are mostly luck: with this, flat:100 beat greedy 58% [51, 65] of
# 200 duplicate games, against 45-55% with playouts to the end (docs/authoring.md: the horizon).
HORIZON = 4
SPREAD = 3.0  # cards behind in the race that turn a 50% game into 73%
LOWERED = 1.5  # a limit of four, in cards behind


def behind(state: State, seat: int) -> float:
    """How far ``seat`` is from winning: cards left in its deck, a lowered limit counted as
    :data:`LOWERED` more. Public: deck sizes and limits are on the table."""
    mine = state.seats[seat]
    return len(mine.deck) + LOWERED * (mine.limit < HAND_LIMIT)


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

    horizon = HORIZON

    def evaluate(self, state: GameState[Any]) -> tuple[float, float]:
        """Each seat's chance of winning an unfinished game, guessed from the race alone."""
        assert isinstance(state, State)
        first = 1 / (1 + math.exp((behind(state, 0) - behind(state, 1)) / SPREAD))
        return first, 1 - first


greedy = Greedy()


AGENTS = {
    "greedy": (
        "plays the most cards it can, finishing piles when it may; discards the Pigeon to get "
        "its limit back; forces only when nothing else is legal",
        greedy,
    ),
}

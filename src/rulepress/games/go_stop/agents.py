"""Heuristic Go-Stop players for simulation, written against the rules protocol.

An agent sees what its seat may see (its hand, the row, every storage) and never the stock's
order, which the deal fixed: it judges a card by what the card itself takes, not by the draw.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rulepress.games.go_stop.cards import MONTH_MASK, VALUES, card_points, value_of
from rulepress.games.go_stop.rules import DECIDE, DRAW, Move, State
from rulepress.plugin import Agent

# A card given up to the row: junk first, brights last.
_KEEP = {v: i for i, v in enumerate(reversed(VALUES))}
# Opponents within this many points of the threshold may stop soon: do not go on.
_CLOSE = 3


def _taken(s: State, move: Move) -> int:
    """The cards the move itself takes from the row, with the played cards (the draw aside)."""
    here = s.row & MONTH_MASK[move.month - 1 if move.kind == "bomb" else move.card >> 2]
    if move.kind == "bomb":
        return here | (s.hands[s.to_move] & MONTH_MASK[move.month - 1])
    if move.target >= 0:
        return 1 << move.target | 1 << move.card
    return here | 1 << move.card if here else 0


def _value(s: State, move: Move) -> tuple[int, int, int]:
    """How good a move is now: card points gained, cards taken, then the card given up."""
    if move.kind == "shake":  # a reserve card for nothing: always worth it
        return (1 << 10, 0, 0)
    if move.kind == "pass":  # keeps the hand, takes nothing
        return (-1, 0, 0)
    store = s.stores[s.to_move]
    taken = _taken(s, move)
    gain = card_points(store | taken) - card_points(store)
    kept = 0 if taken or move.kind != "card" else _KEEP[value_of(move.card)]
    return (gain, taken.bit_count(), -kept)


def greedy(state: Any, rng: random.Random) -> Any:
    """Take the most card points now; go on only while no opponent is near the threshold."""
    s: State = state
    moves = s.legal_moves()
    if s.phase == DECIDE:
        p = s.to_move
        near = max(s.current_points(q) for q in range(s.players) if q != p)
        go = moves[0].kind == "go" and near < s.threshold - _CLOSE
        return moves[0] if go else moves[-1]
    if len(moves) == 1:
        return moves[0]
    if s.phase == DRAW:  # the drawn card pairs with one of two row cards: the better one
        return max(moves, key=lambda m: card_points(s.stores[s.to_move] | _taken(s, m)))
    return max(moves, key=lambda m: _value(s, m))


AGENTS: Mapping[str, tuple[str, Agent]] = {
    "greedy": (
        "plays the card that takes the most card points now (shakes when it can, gives up junk "
        "first); says go while every opponent is more than three points short of the "
        "threshold, else stops",
        greedy,
    ),
}

"""What simulation asks of every game of Pigeon: how often the Forceplay is forced on a player."""

from __future__ import annotations

from typing import Any

from rulepress.games.pigeon.rules import Phase, Play, State
from rulepress.plugin import GameState, History, Question


def _only_forceplays(state: GameState[Any]) -> bool:
    """Whether every move ``state`` offers its player is a Forceplay (the action, not yet done)."""
    assert isinstance(state, State)
    if state.phase is not Phase.PLAY:
        return False
    moves = state.legal_moves()
    return len(moves) > 0 and all(isinstance(m, Play) and m.force for m in moves)


def _forced(moves: History, end: GameState[Any]) -> bool:
    return any(_only_forceplays(state) for state, _ in moves)


def _forced_turns(moves: History, end: GameState[Any]) -> float:
    return sum(_only_forceplays(state) for state, _ in moves)


def _forceplays(moves: History, end: GameState[Any]) -> float:
    return sum(isinstance(move, Play) and move.force for _, move in moves)


QUESTIONS = (
    Question("forced", "How often is a player left with nothing but Forceplays at least once "
             "in a game?", _forced),
    Question("forced_turns", "In how many turns of a game is the Forceplay the only action "
             "left?", _forced_turns, kind="mean"),
    Question("forceplays", "How many Forceplays does a game see, forced or chosen?",
             _forceplays, kind="mean"),
)

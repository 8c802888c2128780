"""What simulation asks of every hand of Go-Stop: how often saying "go" pays off."""

from __future__ import annotations

from typing import Any

from rulepress.plugin import GameState, History, Question


def _callers(moves: History) -> list[int]:
    """The seat of each "go", in order."""
    return [state.current_player() for state, move in moves if getattr(move, "kind", "") == "go"]


def _go_paid(moves: History, end: GameState[Any]) -> bool | None:
    callers = _callers(moves)
    outcome = end.outcome()
    if not callers or outcome is None:
        return None
    return callers[0] in outcome.winners


def _gos(moves: History, end: GameState[Any]) -> float:
    return len(_callers(moves))


def _redealt(moves: History, end: GameState[Any]) -> bool:
    return bool(getattr(end, "redeals", 0))


QUESTIONS = (
    Question("go_paid", "When a player says go, do they win the hand? (the first go of each "
             "hand that has one)", _go_paid),
    Question("gos", "How many times is go said in a hand?", _gos, kind="mean"),
    Question("redealt", "How often is a deal void (four of a number in the row) and dealt "
             "again?", _redealt),
)

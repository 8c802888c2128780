"""What simulation asks of every Pigeon Race: questions the designer's rules leave open."""

from __future__ import annotations

from typing import Any

from rulepress.games.pigeon_race.rules import END_DECK_EMPTY, State, tie_broken
from rulepress.plugin import GameState, History, Question


def _tie_break(moves: History, end: GameState[Any]) -> bool:
    assert isinstance(end, State)
    return tie_broken(end)


def _home_at_deck_end(moves: History, end: GameState[Any]) -> float | None:
    assert isinstance(end, State)
    return len(end.finished) if end.end == END_DECK_EMPTY else None


def _last_card_won(moves: History, end: GameState[Any]) -> bool | None:
    assert isinstance(end, State)
    if end.end != END_DECK_EMPTY or not moves:
        return None
    return moves[-1][0].current_player() in end.winners()


QUESTIONS = (
    Question("tie_break", "How often do two players tie on points, so that the best-placed "
             "pigeons decide?", _tie_break),
    Question("home_at_deck_end", "When the deck runs out, how many pigeons are home?",
             _home_at_deck_end, kind="mean"),
    Question("last_card_won", "When the deck runs out, does the player who played the last "
             "card win?", _last_card_won),
)

"""Go-Stop on a custom 48-card deck (seed 004): engine, examples, diagrams, print-and-play."""

from rulepress.games.go_stop.rules import Move, State, apply, deal, legal_moves, random_game

__all__ = ["Move", "State", "apply", "deal", "legal_moves", "random_game"]

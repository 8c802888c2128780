"""Worm Derby (piecepack): a race of worms round a pylon, on a grid model of the table."""

from __future__ import annotations

from rulepress.games.worm_derby.player import GoalPlayer, play_game, random_game
from rulepress.games.worm_derby.rules import IllegalMove, Options, Phase, State

__all__ = ["GoalPlayer", "IllegalMove", "Options", "Phase", "State", "play_game", "random_game"]

"""Go-Stop on a custom 48-card deck (seed 004): engine, examples, diagrams, print-and-play.

``ENGINE`` is what the compiler uses; the rules themselves live in :mod:`.rules`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulepress.games.base import Drawer, Figure
from rulepress.games.go_stop.cards import CARDS
from rulepress.games.go_stop.rules import (
    Move,
    State,
    View,
    apply,
    deal,
    legal_moves,
    random_game,
    view,
)


class GoStopEngine:
    name = "go_stop"

    def evaluate(self, example: Mapping[str, Any]) -> Mapping[str, Any]:
        from rulepress.games.go_stop.examples import evaluate

        return evaluate(example)

    def diagrams(self, example: Mapping[str, Any]) -> Sequence[Figure]:
        from rulepress.games.go_stop.diagrams import figures
        from rulepress.games.go_stop.examples import replay

        return figures(replay(example))

    def component_counts(self) -> Mapping[str, int]:
        return {
            "player-cards": CARDS,
            "reserve-cards": 6,
            "additional-point-cards": 6,
            "player-tokens": 3,
            "reference-cards": 3,
        }

    def drawers(self) -> Mapping[str, Drawer]:
        from rulepress.games.go_stop.pnp import DRAWERS

        return DRAWERS


ENGINE = GoStopEngine()

__all__ = [
    "ENGINE",
    "GoStopEngine",
    "Move",
    "State",
    "View",
    "apply",
    "deal",
    "legal_moves",
    "random_game",
    "view",
]

"""Go-Stop on a custom 48-card deck (seed 004): engine, examples, diagrams, print-and-play.

``ENGINE`` is what the compiler uses. Its ``rules()`` is :data:`.rules.RULES`, the shared rules
protocol of :mod:`rulepress.games.base` (``RULES.new_game(players, seed)``, then
``state.legal_moves()`` and ``state.apply(move)``); :mod:`.agents` holds heuristic players,
:mod:`.examples` replays the worked examples, :mod:`.diagrams` and :mod:`.pnp` draw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulepress.games.base import Agent, Drawer, Engine, Figure, Question
from rulepress.games.go_stop.cards import CARDS
from rulepress.games.go_stop.rules import RULES, GoStopRules, Move, State, View, step, view


class GoStopEngine(Engine):
    name = "go_stop"

    def rules(self) -> GoStopRules:
        return RULES

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

    def tables(self) -> Mapping[str, Sequence[Mapping[str, Any]]]:
        """What the reserve and additional point cards print large, as the engine scores
        them: a reserve card multiplies a final score by ``×2``, an additional point card adds
        ``+1`` to the points (each measured on a fresh game with one go said)."""
        from rulepress.games.base import derive

        fresh = RULES.new_game(2, seed=0)
        one_go = derive(fresh, gos=(1, 0))
        added = one_go.current_points(0) - fresh.current_points(0)
        times = derive(one_go, reserves=(1, 0)).final_score(0) // one_go.final_score(0)
        return {"markers": [{"component": "reserve-cards", "mark": f"\u00d7{times}"},
                            {"component": "additional-point-cards", "mark": f"+{added}"}]}

    def drawers(self) -> Mapping[str, Drawer]:
        from rulepress.games.go_stop.pnp import DRAWERS

        return DRAWERS

    def agents(self) -> Mapping[str, tuple[str, Agent]]:
        from rulepress.games.go_stop.agents import AGENTS

        return AGENTS

    def questions(self) -> Sequence[Question]:
        from rulepress.games.go_stop.questions import QUESTIONS

        return QUESTIONS


ENGINE = GoStopEngine()

__all__ = ["ENGINE", "RULES", "GoStopEngine", "Move", "State", "View", "step", "view"]

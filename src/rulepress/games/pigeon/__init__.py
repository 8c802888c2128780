"""Pigeon, the two-player card game (Zumzu.dev, CC BY-NC-SA 4.0).

``ENGINE`` is what rulepress uses: the rules (:mod:`.rules`, following the protocol of
:mod:`rulepress.games.base`), the example schema and replay (:mod:`.examples`), the diagrams
(:mod:`.diagrams`), the print-and-play art (:mod:`.pnp`) and heuristic players (:mod:`.agents`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulepress.games.base import Agent, Drawer, Engine, Figure, Question
from rulepress.games.pigeon.cards import DECK
from rulepress.games.pigeon.rules import HAND_LIMIT, PENALTY_LIMIT, RULES, PigeonRules

# Component ids as sources/pigeon/rules.md declares them.
COMPONENTS = {
    "deck": len(DECK),
    "pigeon-card": 1,  # the Pigeon: one token, offered in two shapes
    "pigeon-coin": 1,
    "reference": 2,  # one quick-reference card per player
}


class PigeonEngine(Engine):
    name = "pigeon"

    def rules(self) -> PigeonRules:
        return RULES

    def evaluate(self, example: Mapping[str, Any]) -> Mapping[str, Any]:
        from rulepress.games.pigeon.examples import evaluate

        return evaluate(example)

    def diagrams(self, example: Mapping[str, Any]) -> Sequence[Figure]:
        from rulepress.games.pigeon.diagrams import figures
        from rulepress.games.pigeon.examples import replay

        return figures(replay(example))

    def component_counts(self) -> Mapping[str, int]:
        return dict(COMPONENTS)

    def drawers(self) -> Mapping[str, Drawer]:
        from rulepress.games.pigeon.pnp import DRAWERS

        return DRAWERS

    def tables(self) -> Mapping[str, Sequence[Mapping[str, Any]]]:
        """The hand limits the reference card shows (it marks each player's limit)."""
        return {"hand_limit": [{"usual": HAND_LIMIT, "lowered": PENALTY_LIMIT}]}

    def agents(self) -> Mapping[str, tuple[str, Agent]]:
        from rulepress.games.pigeon.agents import AGENTS

        return AGENTS

    def questions(self) -> Sequence[Question]:
        from rulepress.games.pigeon.questions import QUESTIONS

        return QUESTIONS


ENGINE = PigeonEngine()

__all__ = ["ENGINE", "PigeonEngine"]

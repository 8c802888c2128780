"""Pigeon, the two-player card game (Zumzu.dev, CC BY-NC-SA 4.0).

``ENGINE`` is what the compiler uses; the rules themselves live in :mod:`.rules`, the example
schema in :mod:`.examples`, the diagrams in :mod:`.diagrams` and the print-and-play art in
:mod:`.pnp`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulepress.games.base import Drawer, Figure
from rulepress.games.pigeon.cards import DECK

# Component ids as sources/pigeon/rules.md declares them.
COMPONENTS = {
    "deck": len(DECK),
    "pigeon-card": 1,  # the Pigeon: one token, offered in two shapes
    "pigeon-coin": 1,
    "reference": 2,  # one quick-reference card per player
}


class PigeonEngine:
    name = "pigeon"

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


ENGINE = PigeonEngine()

__all__ = ["ENGINE", "PigeonEngine"]

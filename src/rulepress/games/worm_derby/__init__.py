"""Worm Derby (piecepack, Mark A. Biggar): a race of worms round a pylon, on a grid model.

``ENGINE`` is what the compiler uses. Its ``rules()`` is :data:`.rules.RULES`, the shared rules
protocol of :mod:`rulepress.games.base`: die rolls are chance outcomes (``roll 4``) applied like
moves. The grid model is in :mod:`.grid`, the course in :mod:`.course`, moves and their
notation in :mod:`.moves`, the goal-directed agent in :mod:`.player`, examples in
:mod:`.examples`, drawing in :mod:`.diagrams` and :mod:`.pnp`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulepress.games.base import Agent, Drawer, Engine, Figure
from rulepress.games.worm_derby.rules import RULES, Options, Phase, State, WormDerbyRules

TILES = 24  # 4 suits x 6 ranks: 21 obstacles, 2 start-line tiles and the pylon
COINS = 24  # six disks per worm, four suits
DICE = 4
PAWNS = 4


class WormDerbyEngine(Engine):
    name = "worm_derby"

    def rules(self) -> WormDerbyRules:
        return RULES

    def evaluate(self, example: Mapping[str, Any]) -> Mapping[str, Any]:
        from rulepress.games.worm_derby.examples import evaluate

        return evaluate(example)

    def diagrams(self, example: Mapping[str, Any]) -> Sequence[Figure]:
        from rulepress.games.worm_derby.diagrams import figures
        from rulepress.games.worm_derby.examples import replay

        if "setup" not in example:
            return []
        setup = example["setup"]
        whole = isinstance(setup, Mapping) and "standard" in setup
        return figures(replay(example), whole=whole)

    def component_counts(self) -> Mapping[str, int]:
        return {"tiles": TILES, "coins": COINS, "dice": DICE, "pawns": PAWNS}

    def drawers(self) -> Mapping[str, Drawer]:
        from rulepress.games.worm_derby.pnp import DRAWERS

        return DRAWERS

    def agents(self) -> Mapping[str, tuple[str, Agent]]:
        from rulepress.games.worm_derby.player import AGENTS

        return AGENTS


ENGINE = WormDerbyEngine()

__all__ = ["ENGINE", "RULES", "Options", "Phase", "State", "WormDerbyEngine"]

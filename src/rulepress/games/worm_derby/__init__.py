"""Worm Derby (piecepack, Mark A. Biggar): a race of worms round a pylon, on a grid model.

``ENGINE`` is what the compiler uses, declared as data. Its rules are :data:`.rules.RULES`, the
rules protocol of :mod:`rulepress.plugin`: die rolls are chance outcomes (``roll 4``) applied
like moves. The grid model is in :mod:`.grid`, the course in :mod:`.course`, moves and their
notation in :mod:`.moves`, the goal-directed agent in :mod:`.player`, examples in
:mod:`.examples`, drawing in :mod:`.diagrams` and :mod:`.pnp`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulepress.games.worm_derby.moves import ACE, FACES, NULL, face_name
from rulepress.games.worm_derby.rules import RULES, SUITS, Options, Phase, State, WormDerbyRules
from rulepress.plugin import Agent, Drawer, Engine, Figure

TILES = 24  # 4 suits x 6 ranks: 21 obstacles, 2 start-line tiles and the pylon
COINS = 24  # six disks per worm, four suits
DICE = 4
PAWNS = 4


def _rules() -> WormDerbyRules:
    return RULES


# Each part below is imported when rulepress first asks for it: a game played (simulate) loads
# no examples, diagrams or drawing (ReportLab), and a check loads no agents.


def _replay(example: Mapping[str, Any]) -> Any:
    # on demand: a game played loads no examples
    from rulepress.games.worm_derby.examples import replay

    return replay(example)


def _facts(replayed: Any) -> Mapping[str, Any]:
    # on demand: a game played loads no examples
    from rulepress.games.worm_derby.examples import facts

    return facts(replayed)


def _figures(replayed: Any, example: Mapping[str, Any]) -> Sequence[Figure]:
    # on demand: a game played draws no diagrams
    from rulepress.games.worm_derby.diagrams import figures

    if "setup" not in example:
        return []
    return figures(replayed, example.get("moves") or [])


def _counts() -> Mapping[str, int]:
    return {"tiles": TILES, "coins": COINS, "dice": DICE, "pawns": PAWNS}


def _tables() -> Mapping[str, Sequence[Mapping[str, Any]]]:
    """The coins, as the rules count them: one for each suit and die face (null, ace, 2 to
    5), in piecepack order; ``value`` is what the coin shows (nothing for the null)."""
    shown = {NULL: "", ACE: "A"}
    return {"coins": [{"suit": suit, "face": face_name(f), "value": shown.get(f, str(f))}
                      for suit in SUITS for f in FACES]}


def _drawers() -> Mapping[str, Drawer]:
    from rulepress.games.worm_derby.pnp import DRAWERS  # ReportLab: only a kit draws

    return DRAWERS


def _agents() -> Mapping[str, tuple[str, Agent]]:
    from rulepress.games.worm_derby.player import AGENTS  # on demand: a check loads no agents

    return AGENTS


ENGINE = Engine(
    name="worm_derby", rules=_rules, replay=_replay, facts=_facts, figures=_figures,
    component_counts=_counts, tables=_tables, drawers=_drawers, agents=_agents,
)

__all__ = ["ENGINE", "RULES", "Options", "Phase", "State"]

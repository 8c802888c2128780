"""Pigeon, the two-player card game (Zumzu.dev, CC BY-NC-SA 4.0).

``ENGINE`` is what rulepress uses, declared as data: the rules (:mod:`.rules`, following the
protocol of :mod:`rulepress.plugin`), the example schema and replay (:mod:`.examples`), the
diagrams (:mod:`.diagrams`), the print-and-play art (:mod:`.pnp`) and heuristic players
(:mod:`.agents`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulepress.games.pigeon.cards import DECK
from rulepress.games.pigeon.rules import HAND_LIMIT, PENALTY_LIMIT, RULES, PigeonRules
from rulepress.plugin import Agent, Drawer, Engine, Figure, Question

# Component ids as sources/pigeon/rules.md declares them.
COMPONENTS = {
    "deck": len(DECK),
    "pigeon-card": 1,  # the Pigeon: one token, offered in two shapes
    "pigeon-coin": 1,
    "reference": 2,  # one quick-reference card per player
}


def _rules() -> PigeonRules:
    return RULES


# Each part below is imported when rulepress first asks for it: a game played (simulate) loads
# no examples, diagrams or drawing (ReportLab), and a check loads no agents.


def _replay(example: Mapping[str, Any]) -> Any:
    # on demand: a game played loads no examples
    from rulepress.games.pigeon.examples import checked_replay

    return checked_replay(example)


def _facts(replayed: Any) -> Mapping[str, Any]:
    from rulepress.games.pigeon.examples import facts  # on demand: a game played loads no examples

    return facts(replayed)


def _figures(replayed: Any, example: Mapping[str, Any]) -> Sequence[Figure]:
    # on demand: a game played draws no diagrams
    from rulepress.games.pigeon.diagrams import figures

    return figures(replayed)


def _counts() -> Mapping[str, int]:
    return dict(COMPONENTS)


def _drawers() -> Mapping[str, Drawer]:
    from rulepress.games.pigeon.pnp import DRAWERS  # ReportLab: only a kit draws

    return DRAWERS


def _tables() -> Mapping[str, Sequence[Mapping[str, Any]]]:
    """The hand limits the reference card shows (it marks each player's limit)."""
    return {"hand_limit": [{"usual": HAND_LIMIT, "lowered": PENALTY_LIMIT}]}


def _agents() -> Mapping[str, tuple[str, Agent]]:
    from rulepress.games.pigeon.agents import AGENTS  # on demand: a check loads no agents

    return AGENTS


def _questions() -> Sequence[Question]:
    from rulepress.games.pigeon.questions import QUESTIONS  # on demand: simulate alone asks them

    return QUESTIONS


ENGINE = Engine(
    name="pigeon", rules=_rules, replay=_replay, facts=_facts, figures=_figures,
    component_counts=_counts, drawers=_drawers, tables=_tables, agents=_agents,
    questions=_questions,
)

__all__ = ["ENGINE"]

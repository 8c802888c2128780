"""Go-Stop on a custom 48-card deck (seed 004): engine, examples, diagrams, print-and-play.

``ENGINE`` is what the compiler uses, declared as data. Its rules are :data:`.rules.RULES`, the
rules protocol of :mod:`rulepress.plugin` (``RULES.new_game(players, seed)``, then
``state.legal_moves()`` and ``state.apply(move)``); :mod:`.agents` holds heuristic players,
:mod:`.examples` replays the worked examples, :mod:`.diagrams` and :mod:`.pnp` draw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulepress.games.go_stop.cards import CARDS
from rulepress.games.go_stop.rules import RULES, GoStopRules, Move, State, View, step, view
from rulepress.plugin import Agent, Drawer, Engine, Figure, Question, derive


def _rules() -> GoStopRules:
    return RULES


# Each part below is imported when rulepress first asks for it: a game played (simulate) loads
# no examples, diagrams or drawing (ReportLab), and a check loads no agents.


def _replay(example: Mapping[str, Any]) -> Any:
    # on demand: a game played loads no examples
    from rulepress.games.go_stop.examples import replay

    return replay(example)


def _facts(replayed: Any) -> Mapping[str, Any]:
    from rulepress.games.go_stop.examples import facts  # on demand: a game played loads no examples

    return facts(replayed)


def _figures(replayed: Any, example: Mapping[str, Any]) -> Sequence[Figure]:
    # on demand: a game played draws no diagrams
    from rulepress.games.go_stop.diagrams import figures

    return figures(replayed)


def _counts() -> Mapping[str, int]:
    return {
        "player-cards": CARDS,
        "reserve-cards": 6,
        "additional-point-cards": 6,
        "player-tokens": 3,
        "reference-cards": 3,
    }


def _tables() -> Mapping[str, Sequence[Mapping[str, Any]]]:
    """What the reserve and additional point cards print large, as the engine scores
    them: a reserve card multiplies a final score by ``×2``, an additional point card adds
    ``+1`` to the points (each measured on a fresh game with one go said)."""
    fresh = RULES.new_game(2, seed=0)
    one_go = derive(fresh, gos=(1, 0))
    added = one_go.current_points(0) - fresh.current_points(0)
    times = derive(one_go, reserves=(1, 0)).final_score(0) // one_go.final_score(0)
    return {"markers": [{"component": "reserve-cards", "mark": f"\u00d7{times}"},
                        {"component": "additional-point-cards", "mark": f"+{added}"}]}


def _drawers() -> Mapping[str, Drawer]:
    from rulepress.games.go_stop.pnp import DRAWERS  # ReportLab: only a kit draws

    return DRAWERS


def _agents() -> Mapping[str, tuple[str, Agent]]:
    from rulepress.games.go_stop.agents import AGENTS  # on demand: a check loads no agents

    return AGENTS


def _questions() -> Sequence[Question]:
    from rulepress.games.go_stop.questions import QUESTIONS  # on demand: simulate alone asks them

    return QUESTIONS


ENGINE = Engine(
    name="go_stop", rules=_rules, replay=_replay, facts=_facts, figures=_figures,
    component_counts=_counts, tables=_tables, drawers=_drawers, agents=_agents,
    questions=_questions,
)

__all__ = ["ENGINE", "RULES", "Move", "State", "View", "step", "view"]

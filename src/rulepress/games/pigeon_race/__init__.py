"""Pigeon Race (Panu Kinnari): a card-driven race of six pigeons for 2 to 6 players.

``ENGINE`` is what rulepress uses, declared as data: the rules (:mod:`.rules`, following the
protocol of :mod:`rulepress.plugin`), the examples' replay (:mod:`.examples`), their diagrams
(:mod:`.diagrams`), the print-and-play art (:mod:`.pnp`) and heuristic players (:mod:`.agents`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulepress.games.pigeon_race import rules
from rulepress.games.pigeon_race.cards import DECK
from rulepress.games.pigeon_race.rules import (
    ALLOTMENT,
    MAX_PLAYERS,
    PIGEONS,
    RULES,
    SCORE_TABLE,
    PigeonRaceRules,
)
from rulepress.games.pigeon_race.style import PIGEON_STYLES
from rulepress.plugin import (
    CARD_NAME,
    FACE_WORDS,
    SUIT_NAMES,
    Agent,
    Drawer,
    Engine,
    Figure,
    Question,
)
from rulepress.plugin import ordinal as place


def _rules() -> PigeonRaceRules:
    return RULES


# Each part below is imported when rulepress first asks for it: a game played (simulate) loads
# no examples, diagrams or drawing (ReportLab), and a check loads no agents.


def _replay(example: Mapping[str, Any]) -> Any:
    # on demand: a game played loads no examples
    from rulepress.games.pigeon_race.examples import replay_example

    return replay_example(example)


def _facts(replayed: Any) -> Mapping[str, Any]:
    # on demand: a game played loads no examples
    from rulepress.games.pigeon_race.examples import played_facts

    return played_facts(replayed)


def _figures(replayed: Any, example: Mapping[str, Any]) -> Sequence[Figure]:
    # on demand: a game played draws no diagrams
    from rulepress.games.pigeon_race.diagrams import figures

    return figures(replayed.race) if replayed.race is not None else []


def _counts() -> Mapping[str, int]:
    return {
        "board": 1,
        "pigeons": len(PIGEONS),
        "deck": len(DECK),
        "order-slips": MAX_PLAYERS,
    }


def _drawers() -> Mapping[str, Drawer]:
    from rulepress.games.pigeon_race.pnp import DRAWERS  # ReportLab: only a kit draws

    return DRAWERS


def _tables() -> Mapping[str, Sequence[Mapping[str, Any]]]:
    """What the printed parts show, from the rules themselves: the scoring table (a row per
    place written on a slip, a column per place finished), how many pigeons each player
    writes down, and the six pigeons' colours."""
    scores = [{"place": place(t), **{place(a): SCORE_TABLE[t - 1][a - 1] for a in PIGEONS}}
              for t in PIGEONS]
    allotment = [{"players": n, "dealt": dealt, "chosen": chosen, "write": dealt + chosen}
                 for n, (dealt, chosen) in ALLOTMENT.items()]
    pigeons = [{"number": p, "colour": PIGEON_STYLES[p].fill, "ink": PIGEON_STYLES[p].ink,
                "name": PIGEON_STYLES[p].name} for p in PIGEONS]
    return {"scores": scores, "allotment": allotment, "pigeons": pigeons}


def _agents() -> Mapping[str, tuple[str, Agent]]:
    from rulepress.games.pigeon_race.agents import AGENTS  # on demand: a check loads no agents

    return AGENTS


def _questions() -> Sequence[Question]:
    # on demand: simulate alone asks them
    from rulepress.games.pigeon_race.questions import QUESTIONS

    return QUESTIONS


def _words() -> Sequence[str]:
    """What the diagrams print and the facts say in words, for translators."""
    # on demand: for translators
    from rulepress.games.pigeon_race.diagrams import HOME_LABEL, START_LABEL, TITLE_WORDS

    # on demand: for translators
    from rulepress.games.pigeon_race.examples import BACKWARD, FORWARD, HOME_WORD

    reasons = [v for k, v in vars(rules).items() if k.startswith(("R_", "END_"))
               and isinstance(v, str)]
    cards = [CARD_NAME, *FACE_WORDS, *SUIT_NAMES.values()]  # a board's title names its card
    labels = [s.name.upper() for s in PIGEON_STYLES.values()]  # each standee's colour: RED
    return [START_LABEL, HOME_LABEL, HOME_WORD, FORWARD, BACKWARD, *reasons, *TITLE_WORDS,
            *cards, *labels]


ENGINE = Engine(
    name="pigeon_race", rules=_rules, replay=_replay, facts=_facts, figures=_figures,
    component_counts=_counts, drawers=_drawers, tables=_tables, agents=_agents,
    questions=_questions, words=_words,
)

__all__ = ["ENGINE"]

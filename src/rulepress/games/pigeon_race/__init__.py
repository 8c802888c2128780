"""Pigeon Race (Panu Kinnari): a card-driven race of six pigeons for 2 to 6 players.

``ENGINE`` is what rulepress uses: the rules (:mod:`.rules`, following the protocol of
:mod:`rulepress.games.base`), the examples' replay (:mod:`.examples`), their diagrams
(:mod:`.diagrams`), the print-and-play art (:mod:`.pnp`) and heuristic players (:mod:`.agents`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulepress.games.base import Agent, Drawer, Engine, Figure, Question
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
from rulepress.pnp.faces.templates import ordinal as place


class PigeonRaceEngine(Engine):
    name = "pigeon_race"

    def rules(self) -> PigeonRaceRules:
        return RULES

    def evaluate(self, example: Mapping[str, Any]) -> Mapping[str, Any]:
        from rulepress.games.pigeon_race.examples import evaluate

        return evaluate(example)

    def diagrams(self, example: Mapping[str, Any]) -> Sequence[Figure]:
        from rulepress.games.pigeon_race.diagrams import figures
        from rulepress.games.pigeon_race.examples import replay

        if "setup" not in example:
            return []
        return figures(replay(example))

    def component_counts(self) -> Mapping[str, int]:
        return {
            "board": 1,
            "pigeons": len(PIGEONS),
            "deck": len(DECK),
            "order-slips": MAX_PLAYERS,
        }

    def drawers(self) -> Mapping[str, Drawer]:
        from rulepress.games.pigeon_race.pnp import DRAWERS

        return DRAWERS

    def tables(self) -> Mapping[str, Sequence[Mapping[str, Any]]]:
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

    def agents(self) -> Mapping[str, tuple[str, Agent]]:
        from rulepress.games.pigeon_race.agents import AGENTS

        return AGENTS

    def questions(self) -> Sequence[Question]:
        from rulepress.games.pigeon_race.questions import QUESTIONS

        return QUESTIONS


ENGINE = PigeonRaceEngine()

__all__ = ["ENGINE", "PigeonRaceEngine"]

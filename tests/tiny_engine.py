"""A tiny rules engine for testing the compiler: a one-track race to 10.

Moves are "+N" with 1 <= N <= 3; a move past 10 is illegal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulepress.plugin import Drawer, ExampleDataError, Figure

GOAL = 10


class TinyRace:
    name = "tiny_race"

    def replay(self, example: Mapping[str, Any]) -> Mapping[str, Any]:
        setup = example.get("setup", {})
        if not isinstance(setup, dict) or not isinstance(setup.get("at"), int):
            raise ExampleDataError("setup needs 'at', a square number", ("setup",))
        at = setup["at"]
        for i, move in enumerate(example.get("moves", [])):
            text = str(move)
            if not text.startswith("+") or not text[1:].isdigit():
                raise ExampleDataError(f"'{text}' is not a move; write +1, +2 or +3", ("moves", i))
            step = int(text[1:])
            if not 1 <= step <= 3:
                return {"at": at, "legal": False, "reason": "a move is 1 to 3 squares"}
            if at + step > GOAL:
                return {"at": at, "legal": False, "reason": "a move may not pass the goal"}
            at += step
        return {"at": at, "legal": True, "won": at == GOAL, "track": {"start": 0, "goal": GOAL}}

    def figures(self, replay: Any, example: Mapping[str, Any]) -> Sequence[Figure]:
        svg = (
            '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="20" '
            'viewBox="0 0 100 20"><rect width="100" height="20" fill="#ddd"/></svg>'
        )
        return [Figure("the track", svg)]

    def component_counts(self) -> Mapping[str, int]:
        return {"pawn": 1}

    def drawers(self) -> Mapping[str, Drawer]:
        return {}


ENGINE = TinyRace()


class TinyKit(TinyRace):
    """The race with the fixture kit's drawers, for print-and-play tests through the CLI."""

    name = "tiny_kit"

    def component_counts(self) -> Mapping[str, int]:
        return {}

    def drawers(self) -> Mapping[str, Drawer]:
        from fixtures.pnp.fixture_game import DRAWERS

        return DRAWERS


KIT_ENGINE = TinyKit()

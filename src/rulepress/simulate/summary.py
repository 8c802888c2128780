"""What a simulation run is, as the command gave it and as checked (Options, Plan), and how
its summary.json is written (FORMAT, SUMMARY, dumps): shared by one run (run.py), a ladder
(ladder.py), a handicap search (compensate.py) and the figures recomputed from records
(refigure.py), which import it rather than one another."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rulepress.simulate.spec import (
    DEFAULT_MAX_TURNS,
    DEFAULT_SECONDS_PER_TURN,
    DEFAULT_SEED,
    RunSpec,
)

FORMAT = 1  # summary.json's layout; a report refuses a summary of another format
SUMMARY = "summary.json"


@dataclass(frozen=True)
class Options:
    """The command line as given (None: the default)."""

    games: int
    players: str | None = None
    variants: str | None = None
    agents: str | None = None
    seed: int = DEFAULT_SEED
    max_turns: int = DEFAULT_MAX_TURNS
    seconds_per_turn: float = DEFAULT_SECONDS_PER_TURN
    check: bool = False
    duplicate: bool = False
    ladder: str | None = None  # agents to rank head to head (simulate/ladder.py)
    until: str | None = None  # "±1%": stop once the first player's interval is this narrow
    handicap: int | None = None  # the rules' numeric handicap at this value
    compensate: bool = False  # look for the handicap that evens the seats (compensate.py)
    tension: bool = False  # lead changes and comebacks (tension.py)
    adaptive: bool = False  # a ladder's decided pairs stop early (ladder.py, which plans it)


@dataclass(frozen=True)
class Posed:
    """A question of the engine's (games.base.Question) as the summary states it; its ``ask``
    stays with the engine, so a plan pickles (made in the engine host's worker)."""

    name: str
    text: str
    kind: str


@dataclass(frozen=True)
class Plan:
    """A checked run: what it plays, and what the summary says about the game."""

    spec: RunSpec
    title: str
    agents: dict[str, str]  # the agents playing, with their lines
    questions: tuple[Posed, ...]


def dumps(value: Any, indent: str = "") -> str:
    """JSON with mappings one key a line and lists of numbers on one line (histograms stay
    readable); keys in the order given, so the same summary is the same bytes."""
    inner = indent + "  "
    if isinstance(value, Mapping) and value:
        items = [f"{inner}{json.dumps(str(k), ensure_ascii=False)}: {dumps(v, inner)}"
                 for k, v in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{indent}}}"
    if isinstance(value, list | tuple) and any(isinstance(v, Mapping) for v in value):
        return "[\n" + ",\n".join(inner + dumps(v, inner) for v in value) + f"\n{indent}]"
    return json.dumps(value, ensure_ascii=False)

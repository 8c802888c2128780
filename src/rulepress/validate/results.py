"""What the check phase hands the renderer for each example."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from rulepress.games.base import Figure


class Status(enum.Enum):
    PROVEN = "proven"
    FAILED = "failed"  # only rendered in --draft builds
    NOT_CHECKABLE = "not checkable"  # the game has no engine
    SIMULATED = "simulated"  # a playtest report, its summary checked against the engine


@dataclass(frozen=True)
class RenderedExample:
    id: str
    title: str
    prose: str  # Markdown, its Jinja expressions already filled from the data and claims
    moves: tuple[str, ...]  # the moves, as written, for the compact summary
    claims: tuple[tuple[str, str], ...]  # (claim path, value) pairs as display strings
    figures: Sequence[Figure]
    status: Status

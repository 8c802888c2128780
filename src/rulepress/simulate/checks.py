"""The playtest report's part of the check: its run's first games played in the engine's
worker, then its summary checked against them (report.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulepress.diagnostics import Diagnostic
from rulepress.document.model import Document, Example
from rulepress.simulate.play import SimulationFailure
from rulepress.simulate.report import check_simulation, sample_lines
from rulepress.validate.hooks import ReportHook
from rulepress.validate.results import RenderedExample
from rulepress.write import Kept


def played(doc: Document, block: Example, project: Path | None) -> Any:
    """The block's sample, or the SimulationFailure a game raised (an answer, not an error of
    the worker: the report says which game failed)."""
    try:
        return sample_lines(doc, block, project)
    except SimulationFailure as exc:
        return exc


def checked(doc: Document, block: Example, project: Path | None, *, draw: bool,
            kept: Kept | None, sampled: Any) -> tuple[list[Diagnostic], RenderedExample]:
    return check_simulation(doc, block, project, draw=draw, kept=kept, sampled=sampled)


PLAYTEST = ReportHook("playtest", played, checked)

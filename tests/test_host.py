"""The engine host (host.py): an engine job's value, or its diagnostics at the engine's lines."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulepress.diagnostics import Severity, SourceLoc
from rulepress.host import EngineJob, engine_job, engine_jobs

AT = SourceLoc(Path("sources/g/rules.md"), 6, 1)  # the front matter's engine: line


@dataclass(frozen=True)
class _Engine:
    name: str = "toy"


def _divides() -> int:
    return 1 // 0


def _job(work: Any, doing: str = "drawing its kit", engine: Any = _Engine()) -> EngineJob[Any]:
    return EngineJob(work, engine, doing, AT)


def test_a_job_runs_in_a_worker_and_its_value_comes_back() -> None:
    assert engine_job(_job(os.getpid)) != os.getpid()


def test_a_game_without_an_engine_runs_here() -> None:
    assert engine_job(_job(os.getpid, engine=None)) == os.getpid()


def test_the_engine_s_exception_is_an_error_at_the_line_that_raised_it() -> None:
    (found,) = engine_job(_job(_divides, "dividing"))
    line = Path(__file__).read_text().splitlines().index("    return 1 // 0") + 1
    assert found.severity is Severity.ERROR
    assert (found.loc.path, found.loc.line) == (Path(__file__), line)
    assert found.message == (f"the toy engine raised ZeroDivisionError: integer division or "
                             f"modulo by zero while dividing ({AT})")


def test_a_worker_that_ends_its_process_is_an_error_at_the_engine_line() -> None:
    (found,) = engine_job(_job(lambda: os._exit(0)))
    assert found.loc == AT
    assert found.message == ("the toy engine ended its process (exit status 0) while drawing "
                             "its kit")


def test_jobs_on_two_workers_come_back_in_order_each_on_its_own() -> None:
    found = engine_jobs([_job(lambda: 1), _job(lambda: os._exit(3)), _job(lambda: 3)], count=2)
    assert found[0] == 1 and found[2] == 3
    assert [d.message for d in found[1]] == [
        "the toy engine ended its process (exit status 3) while drawing its kit"]

"""Games done so far, told to the command's one progress reporter (diagnostics.Reporter) as Steps:
a bar on a terminal, a line per batch otherwise (logs, CI); nothing without a reporter."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from rulepress.diagnostics import Reporter
from rulepress.pipeline import Step
from rulepress.simulate.execute import GamesDone


@contextmanager
def game_steps(reporter: Reporter | None, label: str, total: int) -> Iterator[GamesDone]:
    """What the run calls with each batch's games: 'go-stop: 300/1000 games' to ``reporter``
    (the reporter clears its bar as the command ends)."""
    done = 0

    def finished(games: int) -> None:
        nonlocal done
        done += games
        if reporter is not None:
            reporter.progress(Step(f"{label}: {done}/{total} games", done, total))

    yield finished

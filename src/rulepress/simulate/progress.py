"""Games done so far: a bar on a terminal, a line per batch otherwise (logs, CI), or nothing."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import click

from rulepress.simulate.execute import Progress


@contextmanager
def progress_bar(label: str, total: int, *, quiet: bool = False) -> Iterator[Progress]:
    if quiet:
        yield lambda n: None
    elif sys.stderr.isatty() and not os.environ.get("CI"):
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                   TextColumn("games"), TimeRemainingColumn())
        with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task(label, total=total)
            yield lambda n: bar.advance(task, n)
    else:
        done = 0

        def line(n: int) -> None:
            nonlocal done
            done += n
            click.echo(f"{label}: {done}/{total} games", err=True)

        yield line

"""Rebuilds for the preview server, each in a fresh process.

The processes come from a fork server started before any thread, with the build pipeline and
WeasyPrint already imported, so a rebuild starts at once; every rebuild runs in a new process,
so it imports the game's engine as it is on disk now and starts with no cached template.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.pool import Pool
from pathlib import Path

from rulepress.diagnostics import Diagnostic, RulepressError

# Imported by the fork server once, so each rebuild process has them already.
PRELOAD = ["rulepress.serve.preload"]


@dataclass(frozen=True)
class Settings:
    """What every rebuild of one server shares."""

    sources: Path
    out: Path
    project: Path
    papers: tuple[str, ...]
    editions: tuple[str, ...]
    title: str


@dataclass
class Outcome:
    """One game's rebuild: whether it passed the check, its diagnostics as text (file:line:
    severity: message, paths relative to the project), and the files written."""

    game: str
    ok: bool
    problems: list[str] = field(default_factory=list)
    written: list[str] = field(default_factory=list)
    seconds: float = 0.0


class _Silent:
    def __init__(self) -> None:
        self.shown: list[Diagnostic] = []

    def progress(self, message: str) -> None:
        pass

    def diagnostics(self, diagnostics: list[Diagnostic]) -> None:
        self.shown += diagnostics


def _text(diagnostics: Sequence[Diagnostic], project: Path) -> list[str]:
    prefix = f"{project}{os.sep}"
    return [str(d).replace(prefix, "") for d in diagnostics]


def build_game(settings: Settings, game: str, only: frozenset[str] | None = None) -> Outcome:
    """Build ``game``'s pages (``only`` None), or the outputs ``only`` names; never raises for
    what the user caused."""
    import time

    from rulepress.build import build_rulebooks

    start = time.perf_counter()
    reporter = _Silent()
    try:
        built = build_rulebooks(
            settings.sources, settings.out, games=[game], papers=settings.papers,
            editions=settings.editions, project=settings.project, title=settings.title,
            reporter=reporter, pdf=only is not None, only=only, jobs=1)
    except RulepressError as exc:
        return Outcome(game, False, _text(exc.diagnostics, settings.project),
                       seconds=time.perf_counter() - start)
    return Outcome(game, True, _text(reporter.shown, settings.project),
                   [p.relative_to(settings.out).as_posix() for p in built.written],
                   time.perf_counter() - start)


def _worker_started() -> None:
    """Ctrl-C is the server's to handle; a worker dies with the fork server (Linux)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform == "linux":
        import ctypes

        ctypes.CDLL(None).prctl(1, int(signal.SIGTERM))  # PR_SET_PDEATHSIG


def start_pool(workers: int = 2) -> Pool:
    """A pool whose every task runs in a new process forked from the preloaded fork server."""
    import multiprocessing

    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    return context.Pool(workers, initializer=_worker_started, maxtasksperchild=1)


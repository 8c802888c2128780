"""Rebuilds for the preview server, each in a fresh process.

The processes are the one pool's (workers.Workers, one job a process), started from a fork
server with the build pipeline and WeasyPrint already imported and warmed (serve/preload.py),
and one waits for work ahead of each job, so a rebuild starts at once (and what the check
keeps in memo.py spares it replaying examples whose data a save left alone); every rebuild runs
in a new process, so it imports the game's engine as it is on disk now. A process that dies
(killed for lack of memory, a crash in the PDF library) fails its own job, saying so, and the
next job runs as usual.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import traceback
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulepress.diagnostics import Diagnostic, RulepressError, error
from rulepress.host import rebuild_processes
from rulepress.signals import deferred
from rulepress.workers import Budget, Workers, WorkerStopped, set_budget

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
    kits: Path | None = None  # the project's kits' folder, which the books link to
    languages: tuple[str, ...] = ()  # the project's: the source's first, then translations
    budget: Budget = Budget()  # the engine's, rulepress.toml's [limits]


@dataclass
class Outcome:
    """One game's rebuild: whether it passed the check, its diagnostics as text (file:line:
    severity: message, paths relative to the project), and the files written."""

    game: str
    ok: bool
    problems: list[str] = field(default_factory=list)
    written: list[str] = field(default_factory=list)
    seconds: float = 0.0
    died: bool = False  # its process died before it was done: the problems say how


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


SOURCE, TRANSLATIONS = "source", "translations"  # a rebuild of the pages: one or the other


def build_game(settings: Settings, game: str, only: frozenset[str] | None = None,
               part: str | None = None) -> Outcome:
    """Build ``game``'s pages (``only`` None), or the outputs ``only`` names; never raises for
    what the user caused. ``part``: the source language's pages and the faces page (SOURCE)
    or the translations' pages (TRANSLATIONS) alone, each on the same check, so that the
    first is served without waiting for the second; None: both."""
    import time

    from rulepress.build import build_rulebooks  # ReportLab, PIL: a build's alone

    start = time.perf_counter()
    reporter = _Silent()
    try:
        also = _translations(settings, only) if part != SOURCE else []
        if only is None and part != SOURCE and len(settings.languages) > 1:
            from rulepress.i18n.faces import TranslatedFaces  # each translation's faces page
            from rulepress.serve.faces import FaceOptions  # ReportLab: the faces page's alone

            also += [TranslatedFaces(FaceOptions(editions=settings.editions), settings.out,
                                     settings.project, lang, settings.languages[0])
                     for lang in settings.languages[1:]]
        if only is None and part != TRANSLATIONS:  # the kit's faces page too (serve/faces.py)
            from rulepress.serve.faces import generator  # ReportLab: the faces page's alone

            also.append(generator(settings.out, settings.editions, settings.project))
        built = build_rulebooks(
            settings.sources, settings.out, games=[game], papers=settings.papers,
            editions=settings.editions, project=settings.project, title=settings.title,
            reporter=reporter, pdf=only is not None, only=only, jobs=1, also=also,
            source=part != TRANSLATIONS)
    except RulepressError as exc:
        return Outcome(game, False, _text(exc.diagnostics, settings.project),
                       seconds=time.perf_counter() - start)
    return Outcome(game, True, _text(reporter.shown, settings.project),
                   [p.relative_to(settings.out).as_posix() for p in built.written],
                   time.perf_counter() - start)


def _translations(settings: Settings, only: frozenset[str] | None) -> list[Any]:
    """The translated books' generator, for a project with more than one language."""
    if len(settings.languages) < 2:
        return []
    # Babel: a translation's alone
    from rulepress.i18n.books import TranslatedBooks, TranslationOptions

    options = TranslationOptions(settings.languages[1:], settings.languages[0],
                                 settings.papers, settings.editions)
    return [TranslatedBooks(options, pdf=only is not None, only=only)]


_Job = tuple[Settings, str, frozenset[str] | None, str | None]


def _worker_started(parent: int | None = None) -> None:
    """Ctrl-C is the server's to handle; a worker dies with the fork server (Linux), which is
    its parent (not the server, ``parent``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform == "linux":
        import ctypes

        ctypes.CDLL(None).prctl(1, int(signal.SIGTERM))  # PR_SET_PDEATHSIG
        # A worker started as the server was killed may have lost the fork server before the
        # line above: it would wait for work forever, holding its queue's pipe open.
        preload = sys.modules.get("rulepress.serve.preload")
        if preload is not None and os.getppid() != preload.FORK_SERVER:
            os._exit(128 + signal.SIGTERM)


def _rebuild(job: _Job) -> tuple[str, Any]:
    """In a rebuild process: its one job, ("ok", Outcome), or ("raised", the traceback) of a
    bug, which the server shows."""
    if job[3] == TRANSLATIONS:  # on a busy machine the source's pages, read first, go first
        with contextlib.suppress(OSError):
            os.nice(5)
    set_budget(job[0].budget)  # the fork server's is the default, not the project's
    try:
        return "ok", build_game(*job)
    except BaseException:  # noqa: BLE001 - a bug: its traceback goes to the server
        return "raised", traceback.format_exc()


class ServerStopping(Exception):
    """A rebuild was not done, or not started: the server is stopping."""


class Rebuilds:
    """Runs build_game, each job in a new process from the preloaded fork server, up to
    ``workers`` jobs of one game at a time: the one pool (workers.Workers) with one job a
    process, a process started ahead of each next job (so a rebuild starts at once). A game's
    jobs past that wait for its own; the pool grows so that every job handed to it starts at
    once, so a slow game's jobs never hold up another game's.

    A process that dies fails its own job and no other; one found dead while it waited for
    work is replaced unseen. Thread-safe: rebuilds come from the watcher, PDF renders from the
    requests' threads."""

    def __init__(self, workers: int = 2) -> None:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(PRELOAD)
        self._pool: Workers[_Job] = rebuild_processes(_rebuild, workers, _worker_started,
                                                      context)
        self._waiting: dict[int, tuple[Future[Outcome], float | None]] = {}
        self._per_game = workers
        self._running: dict[str, int] = {}  # each game's jobs in the pool
        self._held: dict[str, list[tuple[_Job, float | None]]] = {}  # past its per_game
        self._changed = threading.Condition()
        self._started = self._stopped = False

    def submit(self, settings: Settings, game: str, only: frozenset[str] | None = None,
               seconds: float | None = None, part: str | None = None) -> Future[Outcome]:
        """Start build_game(settings, game, only, part) once a worker is free: its Outcome, a
        failed one if its process dies or is still at work ``seconds`` after it started (it is
        killed then, freeing its worker); ServerStopping once stop() is called."""
        job: _Job = (settings, game, only, part)
        outcome: Future[Outcome] = Future()
        outcome.set_running_or_notify_cancel()
        with self._changed:
            if self._stopped:
                raise ServerStopping
            if not self._started:
                # Ctrl-C waits until the processes being started are known to stop(): else,
                # the server gone, they printed a traceback as they could not read their job.
                with deferred():
                    self._pool.__enter__()
                    self._started = True
                threading.Thread(target=self._deliver, name="rulepress-rebuilds",
                                 daemon=True).start()
            self._waiting[id(job)] = (outcome, seconds)
            if self._running.get(game, 0) < self._per_game:
                self._hand(job, seconds)
            else:
                self._held.setdefault(game, []).append((job, seconds))
            self._changed.notify_all()
        return outcome

    def _hand(self, job: _Job, seconds: float | None) -> None:
        """To the pool, made big enough that it starts at once (holding the lock)."""
        self._running[job[1]] = self._running.get(job[1], 0) + 1
        self._pool.resize(max(self._per_game, sum(self._running.values())))
        self._pool.submit(job, seconds=seconds)

    def _done(self, job: _Job) -> None:
        """``job`` answered: its game's next job, if one waits, takes its place."""
        game = job[1]
        self._running[game] -= 1
        held = self._held.get(game)
        if held:
            self._hand(*held.pop(0))
        else:
            self._pool.resize(max(self._per_game, sum(self._running.values())))

    def _deliver(self) -> None:
        """Each job's outcome to its future, as it comes."""
        while True:
            with self._changed:
                self._changed.wait_for(lambda: bool(self._waiting) or self._stopped)
                if self._stopped:
                    return
            try:
                for job, answer in self._pool.results():
                    with self._changed:
                        waiting = self._waiting.pop(id(job), None)
                        if not self._stopped:
                            self._done(job)
                    if waiting is not None:  # None: stop() has answered it
                        _settle(waiting[0], job, answer, waiting[1])
            except Exception as exc:  # noqa: BLE001 - an answer that did not pickle: a bug
                with self._changed:
                    waiting_now, self._waiting = list(self._waiting.values()), {}
                for outcome, _ in waiting_now:
                    outcome.set_exception(exc)

    def stop(self) -> None:
        """Stop every process now, a job under way too (Ctrl-C must not wait for a render);
        the jobs under way end in ServerStopping."""
        with self._changed:
            self._stopped = True
            self._changed.notify_all()
            waiting, self._waiting = list(self._waiting.values()), {}
        if self._started:
            self._pool.__exit__(None, None, None)
        for outcome, _ in waiting:
            if not outcome.done():
                outcome.set_exception(ServerStopping())


def _settle(outcome: Future[Outcome], job: _Job, answer: Any, seconds: float | None) -> None:
    _, game, only, _ = job
    if isinstance(answer, WorkerStopped):
        outcome.set_result(_late(game, only, seconds) if answer.code is None
                           and seconds is not None else _died(game, only, answer.code))
    elif answer[0] == "raised":  # a bug: its traceback in the caller
        outcome.set_exception(RuntimeError(f"a rebuild of {game} raised:\n{answer[1]}"))
    else:
        outcome.set_result(answer[1])


def _late(game: str, only: frozenset[str] | None, seconds: float) -> Outcome:
    """The failed Outcome of a job killed for taking longer than ``seconds``."""
    took = (f"ran past {seconds:g} s (RENDER_SECONDS, see Limits in docs/authoring.md) and "
            "was stopped")
    if only is None:
        line = f"the rebuild of {game} {took}; save a file to try again"
    else:
        line = (f"{', '.join(sorted(only))} was not rendered: its render {took}; its page or "
                "print.css may hold what the typesetter cannot finish; reload it to try again")
    return Outcome(game, False, [str(error(None, line))], died=True)


def _died(game: str, only: frozenset[str] | None, code: int | None) -> Outcome:
    """The failed Outcome of a job whose process died; the line says how and what to do."""
    if code is not None and code < 0:
        how = f"was killed by signal {-code}"
        if -code == signal.SIGKILL:
            how += ", perhaps for lack of memory"
    elif code is not None:
        how = f"exited with status {code}"
    else:
        how = "stopped"
    if only is None:
        line = f"the rebuild of {game} stopped: its process {how}; save a file to try again"
    else:
        line = (f"{', '.join(sorted(only))} was not rendered: its process {how}; "
                "reload it to try again")
    return Outcome(game, False, [str(error(None, line))], died=True)

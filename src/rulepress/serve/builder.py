"""Rebuilds for the preview server, each in a fresh process.

The processes come from a fork server with the build pipeline and WeasyPrint already imported,
and one waits for work ahead of each job, so a rebuild starts at once; every rebuild runs in a
new process, so it imports the game's engine as it is on disk now and starts with no cached
template. A process that dies (killed for lack of memory, a crash in the PDF library) fails its
own job, saying so, and the next job runs as usual.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulepress.diagnostics import Diagnostic, RulepressError, error
from rulepress.signals import deferred

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


def build_game(settings: Settings, game: str, only: frozenset[str] | None = None) -> Outcome:
    """Build ``game``'s pages (``only`` None), or the outputs ``only`` names; never raises for
    what the user caused."""
    import time

    from rulepress.build import build_rulebooks

    start = time.perf_counter()
    reporter = _Silent()
    try:
        also = _translations(settings, only)
        if only is None:  # the pages: the kit's faces page too (serve/faces.py)
            from rulepress.serve.faces import generator

            also.append(generator(settings.out, settings.editions))
        built = build_rulebooks(
            settings.sources, settings.out, games=[game], papers=settings.papers,
            editions=settings.editions, project=settings.project, title=settings.title,
            reporter=reporter, pdf=only is not None, only=only, jobs=1, also=also)
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
    from rulepress.i18n.books import TranslatedBooks, TranslationOptions

    options = TranslationOptions(settings.languages[1:], settings.languages[0],
                                 settings.papers, settings.editions)
    return [TranslatedBooks(options, pdf=only is not None, only=only)]


def _worker_started() -> None:
    """Ctrl-C is the server's to handle; a worker dies with the fork server (Linux)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform == "linux":
        import ctypes

        ctypes.CDLL(None).prctl(1, int(signal.SIGTERM))  # PR_SET_PDEATHSIG
        # A worker started as the server was killed may have lost the fork server before the
        # line above: it would wait for work forever, holding its queue's pipe open.
        preload = sys.modules.get("rulepress.serve.preload")
        if preload is not None and os.getppid() != preload.FORK_SERVER:
            os._exit(128 + signal.SIGTERM)


class Stopped(Exception):
    """The job was not done: the server is stopping."""


class Rebuilds:
    """Runs build_game, each job in a new process from the preloaded fork server, ``workers``
    jobs at a time.

    Each job has an executor of one process to itself, so a process that dies fails its own
    job and no other; a multiprocessing Pool would wait for its result forever. An executor
    whose process died, working or idle, is replaced by a fresh one. Thread-safe: rebuilds come
    from the watcher, PDF renders from the requests' threads."""

    def __init__(self, workers: int = 2) -> None:
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(PRELOAD)
        self._executors: list[ProcessPoolExecutor | None] = [None] * workers
        self._free = list(range(workers))
        self._changed = threading.Condition()
        self._stopped = False
        self._late: set[Future[Outcome]] = set()  # jobs whose process was killed for overtime

    def submit(self, settings: Settings, game: str, only: frozenset[str] | None = None,
               seconds: float | None = None) -> Future[Outcome]:
        """Start build_game(settings, game, only) once a worker is free: its Outcome, a failed
        one if its process dies or is still at work ``seconds`` after it started (it is killed
        then, freeing its worker); Stopped once stop() is called."""
        with self._changed:
            self._changed.wait_for(lambda: bool(self._free) or self._stopped)
            if self._stopped:
                raise Stopped
            slot = self._free.pop(0)  # the lowest: the one most likely to have a process ready
            submitted = False
            try:
                # Ctrl-C waits until a process being started is known to stop(): else, the
                # server gone, it printed a traceback as it could not read its job.
                with deferred():
                    job, executor = self._submit(slot, settings, game, only)
                    submitted = True
            finally:
                if not submitted:
                    self._free.insert(0, slot)
                    self._changed.notify()
        outcome: Future[Outcome] = Future()
        outcome.set_running_or_notify_cancel()
        timer = None
        if seconds is not None:
            timer = threading.Timer(seconds, self._overtime, (executor, job))
            timer.daemon = True
            timer.start()
        job.add_done_callback(lambda done: self._finished(slot, executor, done, outcome,
                                                          game, only, timer, seconds))
        return outcome

    def _overtime(self, executor: ProcessPoolExecutor, job: Future[Outcome]) -> None:
        """Kill the process of a job that has run too long: its executor breaks, and
        _finished reports the job as late."""
        with self._changed:
            if job.done() or self._stopped:
                return
            self._late.add(job)
        for process in list((getattr(executor, "_processes", None) or {}).values()):
            process.kill()  # a render stuck in the PDF library's C code dies too

    def _submit(self, slot: int, settings: Settings, game: str, only: frozenset[str] | None
                ) -> tuple[Future[Outcome], ProcessPoolExecutor]:
        """Hand the job to the slot's executor, or to a fresh one if it has none or its process
        died waiting for work (called holding the lock)."""
        executor = self._executors[slot]
        if executor is not None:
            try:
                return executor.submit(build_game, settings, game, only), executor
            except BrokenProcessPool:
                executor.shutdown(wait=False)
        executor = self._executors[slot] = ProcessPoolExecutor(
            1, mp_context=self._context, initializer=_worker_started, max_tasks_per_child=1)
        return executor.submit(build_game, settings, game, only), executor

    def _finished(self, slot: int, executor: ProcessPoolExecutor, job: Future[Outcome],
                  outcome: Future[Outcome], game: str, only: frozenset[str] | None,
                  timer: threading.Timer | None, seconds: float | None) -> None:
        # In the executor's own thread (or in submit's, the job done already). The caller's
        # future is set whatever happens here: an exception in a callback is only logged.
        try:
            if timer is not None:
                timer.cancel()
            died = not job.cancelled() and isinstance(job.exception(), BrokenProcessPool)
            with self._changed:
                late = job in self._late
                self._late.discard(job)
                if died and self._executors[slot] is executor:
                    self._executors[slot] = None  # broken: its thread has ended it
                self._free.append(slot)
                self._free.sort()
                self._changed.notify()
                stopped = self._stopped
            if stopped and (died or job.cancelled()):
                raise Stopped
            # job.result() raises what the job raised: a bug, its traceback in the caller.
            if died and late and seconds is not None:
                outcome.set_result(_late(game, only, seconds))
            else:
                outcome.set_result(_died(game, only, _exit_code(executor)) if died
                                   else job.result())
        except BaseException as exc:
            outcome.set_exception(exc)

    def stop(self) -> None:
        """Stop every process now, a job under way too (Ctrl-C must not wait for a render);
        the jobs under way end in Stopped."""
        with self._changed:
            self._stopped = True
            self._changed.notify_all()
            executors = [e for e in self._executors if e is not None]
            self._executors = [None] * len(self._executors)
        ends: list[tuple[threading.Thread | None, dict[int, multiprocessing.Process]]] = []
        for executor in executors:
            # Read before shutdown(), which forgets them; the dict stays the executor's
            # thread's, which adds to it a process it starts meanwhile.
            ends.append((getattr(executor, "_executor_manager_thread", None),
                         getattr(executor, "_processes", None) or {}))
            executor.shutdown(wait=False, cancel_futures=True)
        for _, processes in ends:
            for process in list(processes.values()):
                process.terminate()
        for thread, processes in ends:
            if thread is not None:
                thread.join(timeout=5)  # it ends once its process is gone
            for process in list(processes.values()):
                process.terminate()  # one started as the executor stopped, if any
                process.join(timeout=5)


def _exit_code(executor: ProcessPoolExecutor) -> int | None:
    """How the process of a broken executor ended (None if unknown): the executor keeps it."""
    processes = getattr(executor, "_processes", None) or {}
    codes = [p.exitcode for p in list(processes.values()) if p.exitcode is not None]
    return codes[0] if codes else None


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

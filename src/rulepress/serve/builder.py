"""Rebuilds for the preview server, each in a fresh process.

The processes come from a fork server with the build pipeline and WeasyPrint already imported,
and one waits for work ahead of each job, so a rebuild starts at once (and what the check
keeps in memo.py spares it replaying examples whose data a save left alone); every rebuild runs
in a new process, so it imports the game's engine as it is on disk now and starts with no
cached template. A process that dies (killed for lack of memory, a crash in the PDF library)
fails its own job, saying so, and the next job runs as usual.
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
from multiprocessing.connection import Connection, wait
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


SOURCE, TRANSLATIONS = "source", "translations"  # a rebuild of the pages: one or the other


def build_game(settings: Settings, game: str, only: frozenset[str] | None = None,
               part: str | None = None) -> Outcome:
    """Build ``game``'s pages (``only`` None), or the outputs ``only`` names; never raises for
    what the user caused. ``part``: the source language's pages and the faces page (SOURCE)
    or the translations' pages (TRANSLATIONS) alone, each on the same check, so that the
    first is served without waiting for the second; None: both."""
    import time

    from rulepress.build import build_rulebooks

    start = time.perf_counter()
    reporter = _Silent()
    try:
        also = _translations(settings, only) if part != SOURCE else []
        if only is None and part != TRANSLATIONS:  # the kit's faces page too (serve/faces.py)
            from rulepress.serve.faces import generator

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


class _Process:
    """A rebuild process from the fork server, started ahead of its one job, which it waits
    for on its pipe. Its handle is ours: killed for overtime or at stop, its exit code read,
    with no executor's private state."""

    def __init__(self, context: Any) -> None:
        self.conn, theirs = context.Pipe()
        self.process = context.Process(target=_serve_one, args=(theirs,),
                                       name="rulepress-rebuild")
        self.process.start()
        theirs.close()

    def answer(self) -> tuple[str, Any] | None:
        """What the job gave ("ok", Outcome) or ("raised", traceback), None if the process
        ended first (killed, crashed, stopped)."""
        try:
            wait([self.conn, self.process.sentinel])
            found: tuple[str, Any] | None = self.conn.recv() if self.conn.poll() else None
        except (EOFError, OSError):
            found = None
        self.process.join(5)
        return found

    def close(self) -> None:
        self.conn.close()


def _serve_one(conn: Connection) -> None:
    """In a rebuild process: its one job, then its answer."""
    _worker_started()
    try:
        settings, game, only, part = conn.recv()
    except (EOFError, OSError):
        return  # the server stopped before it had work
    try:
        answer: tuple[str, Any] = ("ok", build_game(settings, game, only, part))
    except BaseException:  # noqa: BLE001 - a bug: its traceback goes to the server
        answer = ("raised", traceback.format_exc())
    conn.send(answer)


class Rebuilds:
    """Runs build_game, each job in a new process from the preloaded fork server, ``workers``
    jobs at a time, with a process started ahead of each slot's next job (so a rebuild starts
    at once).

    A process that dies fails its own job and no other; one found dead while it waited for
    work is replaced unseen. Thread-safe: rebuilds come from the watcher, PDF renders from the
    requests' threads."""

    def __init__(self, workers: int = 2) -> None:
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(PRELOAD)
        self._ready: list[_Process | None] = [None] * workers
        self._running: dict[int, _Process] = {}
        self._free = list(range(workers))
        self._changed = threading.Condition()
        self._stopped = False

    def submit(self, settings: Settings, game: str, only: frozenset[str] | None = None,
               seconds: float | None = None, part: str | None = None) -> Future[Outcome]:
        """Start build_game(settings, game, only, part) once a worker is free: its Outcome, a
        failed one if its process dies or is still at work ``seconds`` after it started (it is
        killed then, freeing its worker); Stopped once stop() is called."""
        with self._changed:
            self._changed.wait_for(lambda: bool(self._free) or self._stopped)
            if self._stopped:
                raise Stopped
            slot = self._free.pop(0)  # the lowest: the one most likely to have a process ready
            try:
                # Ctrl-C waits until a process being started is known to stop(): else, the
                # server gone, it printed a traceback as it could not read its job.
                with deferred():
                    self._running[slot] = process = self._started(
                        slot, (settings, game, only, part))
            except BaseException:
                self._free.insert(0, slot)
                self._changed.notify()
                raise
        outcome: Future[Outcome] = Future()
        outcome.set_running_or_notify_cancel()
        late = threading.Event()
        timer = None
        if seconds is not None:
            timer = threading.Timer(seconds, self._overtime, (slot, process, late))
            timer.daemon = True
            timer.start()
        threading.Thread(target=self._finish, name="rulepress-rebuild-wait", daemon=True,
                         args=(slot, process, outcome, game, only, timer, late, seconds)).start()
        return outcome

    def _started(self, slot: int,
                 job: tuple[Settings, str, frozenset[str] | None, str | None]) -> _Process:
        """The slot's waiting process (a fresh one if it has none or it died), given ``job``
        (called holding the lock)."""
        process, self._ready[slot] = self._ready[slot], None
        for _ in range(2):
            if process is None or not process.process.is_alive():
                if process is not None:
                    process.close()
                process = _Process(self._context)
            try:
                process.conn.send(job)
                return process
            except OSError:  # it died between the look and the send
                process.process.join(5)
        raise RulepressError.at(None, "no rebuild process could be started")

    def _overtime(self, slot: int, process: _Process, late: threading.Event) -> None:
        """Kill the process of a job that has run too long; _finish reports it as late."""
        with self._changed:
            if self._stopped or self._running.get(slot) is not process:
                return
            late.set()
        process.process.kill()  # a render stuck in the PDF library's C code dies too

    def _finish(self, slot: int, process: _Process, outcome: Future[Outcome], game: str,
                only: frozenset[str] | None, timer: threading.Timer | None,
                late: threading.Event, seconds: float | None) -> None:
        # In the job's own thread. The caller's future is set whatever happens here.
        try:
            answer = process.answer()
            if timer is not None:
                timer.cancel()
            code = process.process.exitcode
            process.close()
            with self._changed:
                self._running.pop(slot, None)
                stopped = self._stopped
            ahead = None
            if not stopped:
                with contextlib.suppress(OSError):  # none now: the next job starts one
                    ahead = _Process(self._context)
            with self._changed:
                if self._stopped and ahead is not None:  # stop() came meanwhile
                    ahead.process.terminate()
                    ahead.process.join(5)
                else:
                    self._ready[slot] = ahead
                self._free.append(slot)
                self._free.sort()
                self._changed.notify()
            if stopped and answer is None:
                raise Stopped
            if answer is None:
                outcome.set_result(_late(game, only, seconds) if late.is_set()
                                   and seconds is not None else _died(game, only, code))
            elif answer[0] == "raised":  # a bug: its traceback in the caller
                raise RuntimeError(f"a rebuild of {game} raised:\n{answer[1]}")
            else:
                outcome.set_result(answer[1])
        except BaseException as exc:
            outcome.set_exception(exc)

    def stop(self) -> None:
        """Stop every process now, a job under way too (Ctrl-C must not wait for a render);
        the jobs under way end in Stopped."""
        with self._changed:
            self._stopped = True
            self._changed.notify_all()
            processes = [p for p in self._ready if p is not None] + list(self._running.values())
            self._ready = [None] * len(self._ready)
        for process in processes:
            process.process.terminate()
        for process in processes:
            process.process.join(timeout=5)


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

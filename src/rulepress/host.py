"""The engine host: every pool of worker processes rulepress starts, and what running a game's
engine code in one means to the user.

``workers.py`` is the mechanism (forked workers, the CPU and memory budgets, a stopped worker
as a :class:`~rulepress.workers.WorkerStopped`); this module is the one that uses it: each kind
of pool a command needs has a constructor here (the engine's workers, the typesetters, serve's
rebuild processes, a Dask task's child), and one engine job, or a few, run here and come back
as their value or as diagnostics at the engine's lines: an exception the engine raised, at the
line that raised it (:func:`engine_raised`), a worker that stopped, at the front matter's
``engine:`` line (:func:`stopped_error`). No other module constructs a pool.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from rulepress.diagnostics import Diagnostic, RulepressError, SourceLoc, error
from rulepress.games.base import GameEngine
from rulepress.games.contract import Malformed
from rulepress.games.fault import blamed, library_raised
from rulepress.signals import Interrupted, worker_started
from rulepress.workers import (
    Budget,
    Workers,
    WorkerStopped,
    daemon_fork,
    set_budget,
)
from rulepress.workers import one as one  # one item in a worker of its own; lives below games

Item = TypeVar("Item")
Answer = TypeVar("Answer")
T = TypeVar("T")


def engine_workers(run: Callable[[Item], Any], count: int = 1) -> Workers[Item]:
    """``count`` workers for engine code, each item within the engine's budget (a check's
    examples, simulated games, a generator's guarded units)."""
    return Workers(run, count)


def typesetters(run: Callable[[Item], Any], count: int,
                start: Callable[[int], None] = worker_started) -> Workers[Item]:
    """``count`` workers for work that runs no engine code (the build's PDFs): no budget, all
    started at once (``start``: each one's set-up, such as importing WeasyPrint)."""
    return Workers(run, count, warm=True, guard=False, start=start)


def rebuild_processes(run: Callable[[Item], Any], count: int, start: Callable[[int], None],
                      context: multiprocessing.context.BaseContext) -> Workers[Item]:
    """serve's rebuilds: each item in a fresh process of ``context`` (a preloaded fork
    server's), one waiting ahead of each next item; the engine's budget is each job's own
    (it starts workers of its own from here)."""
    return Workers(run, count, warm=True, guard=False, start=start, once=True,
                   context=context)


def guarded(run: Callable[[Item], Answer], item: Item, chosen: Budget) -> Answer | WorkerStopped:
    """As :func:`one`, from any thread of any process (a task on a Dask worker, a daemon that
    multiprocessing would not let fork), within ``chosen``'s budgets, which become this
    process's too (the wall-time watch and the words use them)."""
    set_budget(chosen)
    with Workers(run, context=daemon_fork()) as pool:
        pool.submit(item)
        for _, value in pool.results():
            answer: Answer | WorkerStopped = value
            return answer
    raise AssertionError("a guarded item gave no answer")


@dataclass(frozen=True)
class EngineJob(Generic[T]):
    """Engine code to run: ``work()`` with ``engine`` (None: the game has none, and the work
    runs here), ``doing`` what, in words after 'while' ('drawing its export'), for the source
    line ``at`` (the front matter's ``engine:``)."""

    work: Callable[[], T]
    engine: GameEngine | None
    doing: str
    at: SourceLoc | None


def engine_jobs(jobs: Sequence[EngineJob[T]], count: int = 1) -> list[T | list[Diagnostic]]:
    """Each job's value, or the diagnostics that stop it, in order: on ``count`` workers (two
    printings' games at once), each within the engine's budget."""
    found: dict[int, T | list[Diagnostic]] = {}

    def run(n: int) -> T | list[Diagnostic]:
        return caught(jobs[n])

    with Workers(run, count) as pool:
        for n, job in enumerate(jobs):
            if job.engine is None:
                found[n] = run(n)
            else:
                pool.submit(n)
        for n, value in pool.results():
            job = jobs[n]
            found[n] = [stopped_error(job.engine, value.how, job.doing, job.at)] \
                if isinstance(value, WorkerStopped) else value
    return [found[n] for n in range(len(jobs))]


def engine_job(job: EngineJob[T]) -> T | list[Diagnostic]:
    """One job's value, or the diagnostics that stop it (:func:`engine_jobs`)."""
    return engine_jobs([job])[0]


def caught(job: EngineJob[T]) -> T | list[Diagnostic]:
    """``job.work()`` here (in a worker already, or a game without an engine): its value, the
    diagnostics of the bad input it raised, or the engine's own error at its line."""
    try:
        return job.work()
    except Malformed as exc:
        return [engine_raised(exc, job.engine, job.doing, job.at)]
    except RulepressError as exc:
        return exc.diagnostics
    except BaseException as exc:  # noqa: BLE001 - the engine's own error (an exit too)
        return [engine_raised(exc, job.engine, job.doing, job.at)]


def stopped_error(engine: GameEngine | None, how: str, doing: str,
                  at: SourceLoc | None) -> Diagnostic:
    """A worker running ``engine``'s code stopped (``how``: WorkerStopped.how) while
    ``doing``: an error at ``at``, the game's ``engine:`` line."""
    name = f"the {engine.name} engine" if engine is not None else "the engine"
    return error(at, f"{name} {how} while {doing}")


def on_stop(engine: GameEngine | None, doing: str,
            at: SourceLoc | None) -> Callable[[str], list[Diagnostic]]:
    """What a pipeline unit running ``engine``'s code in a worker says if the worker stops
    while ``doing`` (``Unit.stopped``, given WorkerStopped.how)."""
    return lambda how: [stopped_error(engine, how, doing, at)]


def engine_raised(exc: BaseException, engine: GameEngine | None, doing: str,
                  source: SourceLoc | None) -> Diagnostic:
    """An engine's exception as an error at the line of its code that raised it (a malformed
    value: at the method that returned it), naming what it was doing and for which line of the
    source; rulepress's own exceptions are re-raised."""
    if isinstance(exc, Interrupted):  # Ctrl-C or SIGTERM, wherever it arrived
        raise exc
    at = f" ({source})" if source is not None else ""
    if isinstance(exc, Malformed):
        return error(exc.loc or source, exc.said(f"{doing}{at}"))
    library = library_raised(exc)
    if library is not None:  # rulepress called it directly: no engine code ran
        return error(source, f"{library} failed ({type(exc).__name__}) while {doing}")
    loc, raised = blamed(exc)
    name = f"the {engine.name} engine" if engine is not None else "the engine"
    return error(loc, f"{name} raised {raised} while {doing}{at}")

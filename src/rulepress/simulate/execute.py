"""Where the games are played: in this process, in local worker processes, or on a Dask cluster.

The work is the same everywhere: batches of games whose size depends on the run alone (never
on the number of workers), each returning a :class:`Tally`; a table's tallies merge exactly in
any order. Only a few batches per worker are in flight at a time, so memory stays flat however
many games the run plays.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

from rulepress.games import contract
from rulepress.simulate.play import SimulationFailure, engine_of, play_batch, stopped
from rulepress.simulate.spec import RunSpec
from rulepress.simulate.stats import Tally
from rulepress.workers import Stopped, Workers

MAX_BATCH = 250  # games a task plays at most: big enough to hide the task's cost
IN_FLIGHT = 4  # batches queued per worker
CONNECT_SECONDS = 5

Progress = Callable[[int], None]  # told how many more games are done


class SchedulerError(Exception):
    """The Dask scheduler cannot be used (not installed, not reachable)."""


@dataclass(frozen=True)
class Batch:
    table: int  # index into spec.tables
    start: int
    stop: int


def batch_size(games: int) -> int:
    """At least sixteen batches a table when there are that many games, at most MAX_BATCH."""
    return max(1, min(MAX_BATCH, math.ceil(games / 16)))


def batches(spec: RunSpec) -> Iterator[Batch]:
    """Whole deals a batch: duplicate play tallies a deal's rotations together."""
    for t, table in enumerate(spec.tables):
        size = batch_size(spec.games) * spec.rotations(table.players)
        total = spec.plays(table.players)
        for start in range(0, total, size):
            yield Batch(t, start, min(start + size, total))


def _play(spec: RunSpec, batch: Batch) -> Tally:
    return play_batch(spec, spec.tables[batch.table], batch.start, batch.stop)


def _played(spec: RunSpec, batch: Batch) -> Tally | SimulationFailure:
    """In a local worker: the failure returned, so the collector can pick the earliest."""
    try:
        return _play(spec, batch)
    except SimulationFailure as exc:
        return exc


class _Collector:
    """Merges finished batches into the totals, whichever order they finish in. On a failure it
    hands out no more batches and keeps the earliest game's, so the error names the same game
    whatever finished first."""

    def __init__(self, spec: RunSpec, progress: Progress) -> None:
        kinds = {q.name: q.kind for q in contract.questions(engine_of(spec))}
        self.totals = [Tally.empty(t.players, kinds) for t in spec.tables]
        self.todo = batches(spec)
        self.progress = progress
        self.failure: SimulationFailure | None = None

    def next(self) -> Batch | None:
        return None if self.failure else next(self.todo, None)

    def done(self, batch: Batch, result: Callable[[], Tally]) -> None:
        try:
            tally = result()
        except SimulationFailure as exc:
            if self.failure is None or exc.order < self.failure.order:
                self.failure = exc
            return
        self.totals[batch.table].merge(tally)
        self.progress(batch.stop - batch.start)

    def finish(self) -> list[Tally]:
        if self.failure is not None:
            raise self.failure
        return self.totals


def run_local(spec: RunSpec, jobs: int, progress: Progress) -> list[Tally]:
    """On ``jobs`` worker processes (0: one per core), each game within the engine's budget
    (workers.py): even one job plays in a worker, so an engine that exits or crashes is
    reported, never taken for the end of the run."""
    jobs = jobs or os.cpu_count() or 1
    collector = _Collector(spec, progress)
    with Workers(partial(_played, spec), jobs) as pool:

        def submit(count: int) -> None:
            for _ in range(count):
                batch = collector.next()
                if batch is None:
                    return
                pool.submit(batch)

        submit(jobs)  # the next is sent as one finishes: none waits once the run has failed
        for batch, value in pool.results():
            collector.done(batch, partial(_outcome, spec, batch, value))
            submit(1)
    return collector.finish()


def _outcome(spec: RunSpec, batch: Batch, value: Tally | Stopped | SimulationFailure) -> Tally:
    if isinstance(value, Stopped):
        raise stopped(spec, spec.tables[batch.table], batch.start, value)
    if isinstance(value, SimulationFailure):
        raise value
    return value


def run_dask(spec: RunSpec, address: str, progress: Progress) -> list[Tally]:
    """On the Dask cluster whose scheduler is at ``address``; the same batches as locally."""
    client = connect(address)
    try:
        from distributed import as_completed

        collector = _Collector(spec, progress)
        pending: dict[str, Batch] = {}
        queue = as_completed(loop=client.loop)  # type: ignore[no-untyped-call]

        def submit(count: int) -> None:
            for _ in range(count):
                batch = collector.next()
                if batch is None:
                    return
                future = client.submit(_play, spec, batch, pure=False)
                pending[future.key] = batch
                queue.add(future)  # type: ignore[no-untyped-call]

        submit((sum(client.nthreads().values()) or 1) * IN_FLIGHT)
        for future in queue:
            collector.done(pending.pop(future.key), future.result)
            future.release()
            submit(1)
        return collector.finish()
    finally:
        client.close()


def connect(address: str) -> Any:
    """A client of the scheduler at ``address``; SchedulerError in a sentence when there is
    none to reach."""
    try:
        from distributed import Client
        from distributed.comm.addressing import parse_address, parse_host_port
    except ImportError:
        raise SchedulerError("--scheduler needs Dask: pip install 'rulepress[dask]'") from None
    try:
        parse_host_port(parse_address(address)[1])
    except ValueError as exc:
        raise SchedulerError(f"--scheduler {address}: not a scheduler's address ({exc}); "
                             "write tcp://HOST:PORT") from None
    try:
        return Client(  # type: ignore[no-untyped-call]
            address, timeout=f"{CONNECT_SECONDS}s", set_as_default=False)
    except (OSError, ValueError, TimeoutError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise SchedulerError(f"--scheduler {address}: cannot reach a Dask scheduler there "
                             f"({reason})") from None

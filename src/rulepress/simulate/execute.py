"""Where the games are played: in this process, in local worker processes, or on a Dask cluster.

The work is the same everywhere: batches of games whose size depends on the run alone (never
on the number of workers), each returning a :class:`Tally`; a table's tallies merge exactly in
any order. Only a few batches per worker are in flight at a time, so memory stays flat however
many games the run plays.
"""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any

from rulepress.games import contract
from rulepress.host import engine_workers, guarded
from rulepress.simulate.play import SimulationFailure, engine_of, play_batch, stopped
from rulepress.simulate.spec import RunSpec
from rulepress.simulate.stats import Tally
from rulepress.workers import Budget, Workers, WorkerStopped, budget, unit

MAX_BATCH = 250  # games a task plays at most: big enough to hide the task's cost
IN_FLIGHT = 4  # batches queued per worker
CONNECT_SECONDS = 5

GamesDone = Callable[[int], None]  # told how many more games are done


class SchedulerError(Exception):
    """The Dask scheduler cannot be used (not installed, not reachable)."""


@dataclass(frozen=True)
class Batch:
    table: int  # index into spec.tables
    start: int
    stop: int
    run: int = 0  # index into the runs played together (a ladder's pairs)
    round: int = 0  # a run that may stop early (StopRule) stops between rounds only


@dataclass(frozen=True)
class StopRule:
    """Stop a run early: after each round of ``rounds`` batches a table, in order, ``enough``
    is asked about the totals of the rounds done; a batch of a later round that finished
    meanwhile is dropped, so where the run stops depends on the run alone."""

    enough: Callable[[list[Tally]], bool]
    rounds: int = 16


def batch_size(games: int) -> int:
    """At least sixteen batches a table when there are that many games, at most MAX_BATCH."""
    return max(1, min(MAX_BATCH, math.ceil(games / 16)))


def batches(spec: RunSpec, run: int = 0, rounds: int = 0) -> Iterator[Batch]:
    """Whole deals a batch: duplicate play tallies a deal's rotations together. ``rounds``:
    the batches of every table go in that many rounds, round by round (0: table by table).
    Made as they are asked for: ``-n 10**12`` must not list every batch before the first."""
    sizes = [batch_size(spec.games) * spec.rotations(table.players) for table in spec.tables]
    totals = [spec.plays(table.players) for table in spec.tables]
    counts = [math.ceil(total / size) for size, total in zip(sizes, totals, strict=True)]

    def made(t: int, i: int, r: int = 0) -> Batch:
        return Batch(t, i * sizes[t], min((i + 1) * sizes[t], totals[t]), run, r)

    if not rounds:
        yield from (made(t, i) for t, n in enumerate(counts) for i in range(n))
        return
    per = max(1, math.ceil(max(counts) / rounds))
    for r in range(rounds):
        for t, n in enumerate(counts):
            for i in range(r * per, min((r + 1) * per, n)):
                yield made(t, i, r)


def _play(spec: RunSpec, batch: Batch) -> Tally:
    return play_batch(spec, spec.tables[batch.table], batch.start, batch.stop)


def _guarded(spec: RunSpec, batch: Batch,
             chosen: Budget) -> Tally | SimulationFailure | WorkerStopped:
    """A task on a Dask worker: the batch in a child process of its own, within the budgets of
    the command's project (host.guarded), as a local worker plays it; the worker's own
    process runs no engine code, so nothing the engine does can hold or end it."""
    return guarded(_loaded_and_played, (spec, batch), chosen)


def _loaded_and_played(job: tuple[RunSpec, Batch]) -> Tally | SimulationFailure:
    """In a Dask task's child: the engine imported there, within the budget (as one of the
    batch's games: a stop there is reported at its first game), then the batch played."""
    with unit(job[1].start):
        engine_of(job[0])
    return _played(job)


def _played(job: tuple[RunSpec, Batch]) -> Tally | SimulationFailure:
    """In a local worker: the failure returned, so the collector can pick the earliest. A job
    carries its run, so that one pool plays any run (a ladder's pairs, then its seats)."""
    try:
        return _play(*job)
    except SimulationFailure as exc:
        return exc


class _Collector:
    """Merges finished batches into the totals, whichever order they finish in. On a failure it
    hands out no more batches and keeps the earliest game's, so the error names the same game
    whatever finished first."""

    def __init__(self, specs: tuple[RunSpec, ...], progress: GamesDone,
                 stop: StopRule | None = None) -> None:
        kinds = {q.name: q.kind for q in contract.questions(engine_of(specs[0]))}
        self.totals = [[Tally.empty(t.players, kinds) for t in spec.tables] for spec in specs]
        rounds = stop.rounds if stop else 0
        self.todo = (b for r, spec in enumerate(specs) for b in batches(spec, r, rounds))
        self.progress = progress
        self.failure: SimulationFailure | None = None
        self.stop = stop
        # a stopping run: batches sent per round, and each round's finished tallies
        self.sent: Counter[int] = Counter()
        self.held: dict[int, list[Batch | Tally]] = {}
        self.folded = 0  # rounds merged into the totals
        self.stopped = False
        self.exhausted = False
        assert stop is None or len(specs) == 1, "one run stops early at a time"

    def next(self) -> Batch | None:
        if self.failure or self.stopped:
            return None
        batch = next(self.todo, None)
        if batch is None:
            self.exhausted = True
            if self.stop is not None:
                self._fold(self.stop)  # the last round may be whole already
        else:
            self.sent[batch.round] += 1
        return batch

    def done(self, batch: Batch, result: Callable[[], Tally]) -> None:
        try:
            tally = result()
        except SimulationFailure as exc:
            if self.failure is None or exc.order < self.failure.order:
                self.failure = exc
            return
        if self.stop is None:
            self.totals[batch.run][batch.table].merge(tally)
            self.progress(batch.stop - batch.start)
            return
        self.held.setdefault(batch.round, []).extend((batch, tally))
        self._fold(self.stop)

    def _fold(self, stop: StopRule) -> None:
        """Merge each round as it and those before it are whole, and ask whether to stop."""
        while not self.stopped and self.held.get(self.folded) is not None \
                and len(self.held[self.folded]) == 2 * self.sent[self.folded] \
                and (self.folded + 1 in self.sent or self.exhausted):
            done = self.held.pop(self.folded)
            for batch, tally in zip(done[::2], done[1::2], strict=True):
                assert isinstance(batch, Batch) and isinstance(tally, Tally)
                self.totals[batch.run][batch.table].merge(tally)
                self.progress(batch.stop - batch.start)
            self.folded += 1
            self.stopped = stop.enough([t for run in self.totals for t in run])

    def finish(self) -> list[list[Tally]]:
        if self.failure is not None:
            raise self.failure
        return self.totals


# Plays runs together (their batches interleaved) and returns each run's tallies, by table.
Play = Callable[[Sequence[RunSpec], GamesDone, "StopRule | None"], list[list[Tally]]]


@contextmanager
def local(jobs: int) -> Iterator[Play]:
    """``jobs`` worker processes (0: one per core) for runs played one after another (an
    adaptive ladder's pairs, each stopping on its own, then its seats): forked once. Runs given
    together share the pool (a ladder's pairs): no core waits for the last batch of one run
    while the next has batches to play. Even one job plays in a worker, each game within the
    engine's budget (workers.py), so an engine that exits or crashes is reported, never taken
    for the end of the run."""
    jobs = jobs or os.cpu_count() or 1
    with engine_workers(_played, jobs) as pool:
        yield partial(_run_on, pool, jobs)


def _run_on(pool: Workers[tuple[RunSpec, Batch]], jobs: int, specs: Sequence[RunSpec],
            progress: GamesDone, stop: StopRule | None) -> list[list[Tally]]:
    runs = tuple(specs)
    collector = _Collector(runs, progress, stop)

    def submit(count: int) -> None:
        for _ in range(count):
            batch = collector.next()
            if batch is None:
                return
            pool.submit((runs[batch.run], batch))

    submit(jobs)  # the next is sent as one finishes: none waits once the run has failed
    for (_, batch), value in pool.results():  # every batch sent comes back: the pool is idle
        collector.done(batch, partial(_outcome, runs, batch, value))
        submit(1)
    return collector.finish()


def _outcome(specs: tuple[RunSpec, ...], batch: Batch,
             value: Tally | WorkerStopped | SimulationFailure) -> Tally:
    if isinstance(value, WorkerStopped):
        spec = specs[batch.run]
        raise stopped(spec, spec.tables[batch.table], batch.start, value)
    if isinstance(value, SimulationFailure):
        raise value
    return value


@contextmanager
def dask(address: str) -> Iterator[Play]:
    """The Dask cluster whose scheduler is at ``address``, connected once for runs played one
    after another; the same batches as locally."""
    client = connect(address)
    try:
        yield partial(_run_on_dask, client)
    finally:
        client.close()


def _run_on_dask(client: Any, specs: Sequence[RunSpec], progress: GamesDone,
                 stop: StopRule | None) -> list[list[Tally]]:
    from distributed import as_completed

    runs = tuple(specs)
    collector = _Collector(runs, progress, stop)
    pending: dict[str, Batch] = {}
    queue = as_completed(loop=client.loop)  # type: ignore[no-untyped-call]

    def submit(count: int) -> None:
        for _ in range(count):
            batch = collector.next()
            if batch is None:
                return
            future = client.submit(_guarded, runs[batch.run], batch, budget(), pure=False)
            pending[future.key] = batch
            queue.add(future)  # type: ignore[no-untyped-call]

    submit((sum(client.nthreads().values()) or 1) * IN_FLIGHT)
    for future in queue:
        batch = pending.pop(future.key)
        collector.done(batch, partial(_answered, runs, batch, future))
        future.release()
        submit(1)
    return collector.finish()


def _answered(specs: tuple[RunSpec, ...], batch: Batch, future: Any) -> Tally:
    return _outcome(specs, batch, future.result())


def players(jobs: int, scheduler: str | None) -> AbstractContextManager[Play]:
    """Where runs played one after another are played: the Dask cluster at ``scheduler``, or
    ``jobs`` local processes."""
    return dask(scheduler) if scheduler is not None else local(jobs)


def connect(address: str) -> Any:
    """A client of the scheduler at ``address``; SchedulerError in a sentence when there is
    none to reach."""
    try:
        from distributed import Client
        from distributed.comm.addressing import parse_address, parse_host_port
    except ImportError:
        raise SchedulerError("--scheduler needs Dask: pip install 'rulepress[dask]'") from None
    try:
        scheme, where = parse_address(address)
        parse_host_port(where)
    except ValueError as exc:
        raise SchedulerError(f"--scheduler {address}: not a scheduler's address ({exc}); "
                             "write tcp://HOST:PORT") from None
    if scheme != "tcp":  # tls:// needs Dask's security settings (certificates) passed in
        raise SchedulerError(f"--scheduler {address}: rulepress connects to a scheduler over "
                             f"tcp:// only, not {scheme}://; write tcp://HOST:PORT")
    try:
        return Client(  # type: ignore[no-untyped-call]
            address, timeout=f"{CONNECT_SECONDS}s", set_as_default=False)
    except (OSError, ValueError, TimeoutError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise SchedulerError(f"--scheduler {address}: cannot reach a Dask scheduler there "
                             f"({reason})") from None

"""Engine code in worker processes, within a time and a memory budget: the mechanism, which
rulepress.host alone uses to make its pools.

A game's engine is code its designer chose to run, so rulepress runs it, but not in its own
process: an engine that exits (``os._exit(0)``), crashes (a segmentation fault), loops forever or
fills the memory would otherwise end or hang the command with an exit code that says something
else (0 reads as a pass). On a Dask worker, a task runs its engine code the same way, in a child
of its own (:func:`daemon_fork`). Each worker is forked from this process (so it has the engine
already loaded and the work's inputs, nothing is pickled on the way in) and runs one item at a
time; engine code inside it runs in ``unit()``s (an example, a simulated game, a kit's face),
each within ``engine_seconds`` of CPU time (the kernel stops the worker past it, wherever it
loops), the worker within ``engine_memory_mb`` more than it started with (past it, allocation
fails). Every command's worker processes come from this one pool: the check's, the build's
typesetting (unguarded: it runs no engine code), simulate's and the kits' drawing.
A worker that stops is reported as :class:`WorkerStopped`, naming the unit it was in.
"""

from __future__ import annotations

import contextlib
import faulthandler
import gc
import multiprocessing
import os
import queue
import resource
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.context import ForkContext, ForkProcess
from types import TracebackType
from typing import Any, Generic, TypeVar

from rulepress.limits import ENGINE_MEMORY_MB, ENGINE_SECONDS
from rulepress.signals import deferred, worker_started

Item = TypeVar("Item")
Answer = TypeVar("Answer")
WALL = 3.0  # a unit waiting (asleep, not computing) is stopped past this many times its budget
POLL = 0.2  # seconds between looks at the workers' clocks


@dataclass(frozen=True)
class Budget:
    seconds: float = ENGINE_SECONDS  # CPU time of one unit
    memory_mb: int = ENGINE_MEMORY_MB  # memory a worker may add to what it started with


_budget = Budget()
_slot: Any = None  # in a worker: [unit number, its start time] shared with the parent


def set_budget(budget: Budget) -> None:
    """The budget of every worker started from now on (a command sets its project's)."""
    global _budget
    _budget = budget


def budget() -> Budget:
    return _budget


def in_worker() -> bool:
    return _slot is not None


def in_unit() -> bool:
    """Whether this is a worker inside a unit (on its budget)."""
    return _slot is not None and bool(_slot[1])


def can_fork() -> bool:
    """Whether this process may start workers: not one multiprocessing made a daemon (a Dask
    worker's), which it forbids."""
    return not multiprocessing.current_process().daemon


@contextmanager
def unit(number: int) -> Iterator[None]:
    """In a worker, one unit of engine work, within the CPU budget; ``number`` names it to the
    parent should the worker stop inside it. Elsewhere (a Dask worker, this process) nothing."""
    if _slot is None:
        yield
        return
    _slot[0], _slot[1] = number, time.monotonic()
    signal.setitimer(signal.ITIMER_PROF, _budget.seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        _slot[0], _slot[1] = -1.0, 0.0


def tick() -> None:
    """In a unit, its budget starts again: a searching agent's next playout (a whole random
    game), so a search of any size is never taken for an engine that loops."""
    if _slot is not None and _slot[1]:
        signal.setitimer(signal.ITIMER_PROF, _budget.seconds)
        _slot[1] = time.monotonic()


class WorkerStopped(Exception):
    """A worker stopped while it worked on ``item`` (in ``unit``, when it was in one): ``how``
    says what happened, as a phrase after the engine's name ('ended its process (exit status
    0)'); ``code`` is its exit status (negative: the signal), None if it was stopped waiting."""

    def __init__(self, item: object, unit: int | None, how: str, code: int | None = None) -> None:
        super().__init__(how)
        self.item, self.unit, self.how, self.code = item, unit, how, code

    def __reduce__(self) -> tuple[type[WorkerStopped], tuple[object, int | None, str, int | None]]:
        # whole, so that a Dask task can return it to the command
        return WorkerStopped, (self.item, self.unit, self.how, self.code)




def memory_note() -> str:
    """What a MemoryError means in a worker: its budget ran out."""
    return (f"it used more than its memory budget (engine_memory_mb = {_budget.memory_mb} in "
            "rulepress.toml's [limits])")


def ended(code: int | None) -> str:
    """How a process running engine code ended, in words after the engine's name, from its
    exit status (negative: the signal; None: stopped waiting)."""
    return _how(code)


def _how(code: int | None) -> str:
    if code is None:
        return f"did not return within {WALL * _budget.seconds:g} s (it was waiting, not computing)"
    if code >= 0:
        return f"ended its process (exit status {code})"
    if -code == signal.SIGPROF:
        return (f"ran past its time budget ({_budget.seconds:g} s of CPU time; engine_seconds "
                "in rulepress.toml's [limits])")
    if -code == signal.SIGSEGV:
        return "crashed its process (SIGSEGV, a segmentation fault)"
    if -code == signal.SIGKILL:
        return "had its process killed (SIGKILL: perhaps the machine ran out of memory)"
    try:
        name = signal.Signals(-code).name
    except ValueError:
        name = f"signal {-code}"
    return f"had its process stopped by {name}"


def _serve(conn: Connection, run: Callable[[Any], Any], parent: int, slot: Any,
           chosen: Budget | None, start: Callable[[int], None], once: bool = False) -> None:
    """A worker's life: answer each item sent with ('ok', value) or ('raised', exception);
    ``once``: the first item only, as a process of its own (it may start workers itself)."""
    global _slot, _budget
    start(parent)
    faulthandler.disable()  # a crash is reported by the parent, in one line
    signal.signal(signal.SIGPROF, signal.SIG_DFL)  # past the budget the kernel ends the worker
    _slot = None if once else slot
    if chosen is not None:
        _budget = chosen
        _limit_memory(chosen.memory_mb * 2**20)
    while True:
        try:
            item = conn.recv()
        except (EOFError, OSError):
            os._exit(0)
        try:
            answer: tuple[str, Any] = ("ok", run(item))
        except MemoryError:
            answer = ("memory", None)
        except ImportError as exc:  # a library's code that cannot be mapped within the budget
            answer = ("memory", None) if _MAP_FAILED in str(exc) else ("raised", exc)
        except BaseException as exc:  # noqa: BLE001 - the parent decides what it means
            answer = ("raised", exc)
        try:
            conn.send(answer)
        except MemoryError:
            conn.send(("memory", None))
        except Exception as exc:  # noqa: BLE001 - an answer that does not pickle
            conn.send(("raised", RuntimeError(f"a worker's answer cannot be sent: {exc!r}")))
        if once:
            return


_MAP_FAILED = "failed to map segment"  # the loader's words when an extension's mmap is refused


def _limit_memory(extra: int) -> None:
    if sys.platform != "linux":
        return
    try:
        with open(f"/proc/{os.getpid()}/statm") as fh:
            used = int(fh.read().split()[0]) * resource.getpagesize()
    except OSError:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    ceiling = used + extra
    for limit in (soft, hard):
        if limit != resource.RLIM_INFINITY:
            ceiling = min(ceiling, limit)
    resource.setrlimit(resource.RLIMIT_AS, (ceiling, hard))


class _Worker:
    def __init__(self, run: Callable[[Any], Any], budget: Budget | None,
                 start: Callable[[int], None], context: Any = None, once: bool = False) -> None:
        context = context or multiprocessing.get_context("fork")
        self.conn, child = context.Pipe()
        self.slot = context.RawArray("d", 2)
        self.slot[0] = -1.0
        self.deadline: float | None = None  # its item's, in monotonic time
        self.process = context.Process(
            target=_serve, daemon=not once,  # once: a process of its own, which may fork
            args=(child, run, os.getpid(), self.slot, budget, start, once))
        # The worker's collector leaves alone what exists now: scanning it would copy every
        # page of the heap the fork shares (most of a check's cost in a worker).
        gc.freeze()
        try:
            self.process.start()
        finally:
            gc.unfreeze()
        child.close()
        self.item: Any = None

    def late(self) -> bool:
        """Whether its item has run past the wall time it was given."""
        return self.deadline is not None and time.monotonic() > self.deadline

    def overdue(self) -> bool:
        """Whether it has waited (not computed) in a unit past WALL times its budget: one that
        computes is on the CPU clock, however slowly a busy machine lets it run."""
        started = self.slot[1]
        if not started or time.monotonic() - started <= WALL * _budget.seconds:
            return False
        try:
            with open(f"/proc/{self.process.pid}/stat") as fh:
                state = fh.read().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            return True
        return state != "R"

    def unit(self) -> int | None:
        return int(self.slot[0]) if self.slot[0] >= 0 else None

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.conn.close()


class _ChildOfDaemon(ForkProcess):
    """A worker a daemonic process (a Dask worker's) may fork: multiprocessing forbids it lest
    it outlive its parent, which this one cannot (worker_started: it ends with the thread
    that forked it, and its work is on the budget)."""

    def start(self) -> None:
        config: dict[str, Any] = multiprocessing.current_process()._config  # type: ignore[attr-defined]
        daemon = config.pop("daemon", None)
        try:
            super().start()
        finally:
            if daemon is not None:
                config["daemon"] = daemon


class _DaemonFork(ForkContext):
    Process = _ChildOfDaemon


def daemon_fork() -> ForkContext:
    """A context whose workers any thread of any process may fork, a daemon's too (a Dask
    worker's thread)."""
    return _DaemonFork()


class Workers(Generic[Item]):
    """The one pool: up to ``count`` forked workers, each calling ``run(item)`` for the items
    submitted, one at a time, the heaviest waiting item first. ``results()`` yields (item,
    value), or (item, WorkerStopped) for an item whose worker stopped (a new worker takes the
    next items); an exception ``run`` raised is raised here. Leaving the block stops every worker.
    Where no worker may be started (can_fork), the items are run here, unguarded.

    ``guard``: each worker within the budget (set_budget); off for work that runs no engine
    code (typesetting), which gets no memory ceiling;
    ``start(parent)``: how a worker sets itself up (Ctrl-C left to ``parent``; the build's
    PDF workers also import WeasyPrint). ``warm``: every worker starts as the block is entered
    (they set up while this process does other work), and a thread hands each finished
    worker its next item at once, not when ``results()`` is next asked (the build checks the
    next game meanwhile). ``once``: each worker runs one item, as a process of its own (no
    budget, and it may start workers itself), and a fresh one takes its place; with
    ``warm``, at once, so that the next item starts without waiting for a process.
    ``context``: the multiprocessing context workers start from (default: a fork of this
    process); a fork server's may start them from any thread. Leaving the block ends
    ``results()``."""

    def __init__(self, run: Callable[[Item], Any], count: int = 1, *, warm: bool = False,
                 guard: bool = True, start: Callable[[int], None] = worker_started,
                 once: bool = False, context: Any = None) -> None:
        self._run, self._count = run, max(1, count)
        self._guard, self._start, self._warm = guard, start, warm
        self._once, self._context = once, context
        self._idle: list[_Worker] = []
        self._busy: list[_Worker] = []
        self._queue: list[tuple[int, Item]] = []
        self._pending = 0  # submitted, not yet given back by results()
        self._inline = not can_fork() and not isinstance(context, _DaemonFork)
        self._lock = threading.RLock()
        self._done: queue.SimpleQueue[tuple[Item, str, Any]] = queue.SimpleQueue()
        self._feeder: threading.Thread | None = None
        self._closing = threading.Event()
        self._seconds: dict[int, float] = {}  # an item's wall-time limit, by its id

    def __enter__(self) -> Workers[Item]:
        if self._warm and not self._inline:
            # A stop signal waits until the pool is whole (stopped half-made, its workers were
            # left to die with this process), then stops every worker.
            try:
                with deferred():
                    while len(self._idle) < self._count:
                        self._idle.append(self._new())
            except BaseException:
                self._stop_all()
                raise
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._closing.set()
        if self._feeder is not None:
            self._feeder.join()
        self._stop_all()

    def _new(self) -> _Worker:
        return _Worker(self._run, _budget if self._guard and not self._once else None,
                       self._start, self._context, self._once)

    def _stop_all(self) -> None:
        with self._lock:
            workers, self._idle, self._busy = self._idle + self._busy, [], []
        for worker in workers:
            worker.stop()

    def resize(self, count: int) -> None:
        """Up to ``count`` workers from now on (serve's pool grows with the games at work);
        idle ones past it are left to end as they are used."""
        with self._lock:
            self._count = max(1, count)
            self._top_up()
            self._dispatch()

    def workers(self) -> list[int]:
        """The process ids of the workers alive now."""
        with self._lock:
            return [w.process.pid for w in self._idle + self._busy if w.process.pid is not None]

    def submit(self, item: Item, weight: int = 0, seconds: float | None = None) -> None:
        """Run ``item``; ``seconds``: its worker is stopped if still at it that long after it
        started (wall time), and the item reported as a WorkerStopped whose ``code`` is None."""
        with self._lock:
            if seconds is not None:
                self._seconds[id(item)] = seconds
            self._queue.append((weight, item))
            self._pending += 1
            self._dispatch()
        if self._warm and self._feeder is None and not self._inline:
            self._feeder = threading.Thread(target=self._feed, name="rulepress-workers",
                                            daemon=True)
            self._feeder.start()

    def _dispatch(self) -> None:
        """Hand waiting items to idle workers, starting new ones up to ``count`` (from a thread
        that may start them: _may_start)."""
        fork = self._may_start()
        while not self._inline and self._queue and (
                self._idle or (fork and len(self._busy) < self._count)):
            worker = self._idle.pop() if self._idle else self._new()
            if self._once and not worker.process.is_alive():  # it died waiting: unseen
                worker.stop()
                continue
            heaviest = max(range(len(self._queue)), key=lambda i: self._queue[i][0])
            worker.item = self._queue.pop(heaviest)[1]
            seconds = self._seconds.pop(id(worker.item), None)
            worker.deadline = None if seconds is None else time.monotonic() + seconds
            worker.slot[0], worker.slot[1] = -1.0, 0.0
            self._busy.append(worker)
            with contextlib.suppress(OSError):  # it died waiting: its item is reported stopped
                worker.conn.send(worker.item)

    def _collect(self, timeout: float) -> list[tuple[Item, str, Any]]:
        """The answers of the workers that are done (or stopped); each freed worker is handed
        its next item."""
        with self._lock:
            busy = list(self._busy)
        if not busy:
            return []
        ready = wait([w.conn for w in busy] + [w.process.sentinel for w in busy], timeout)
        found = []
        with self._lock:
            for worker in busy:
                answer = self._answer(worker, ready)
                if answer is not None:
                    self._busy.remove(worker)
                    found.append((worker.item, *answer))
            self._top_up()
            self._dispatch()
        return found

    def _may_start(self) -> bool:
        """Whether this thread may start a worker: a fork from another thread than the main
        one may copy a lock some thread holds; a fork server's process copies none."""
        return self._context is not None or threading.current_thread() is threading.main_thread()

    def _top_up(self) -> None:
        """With ``once`` and ``warm``: a fresh worker waits for each next item (called holding
        the lock)."""
        if self._once and self._warm and not self._closing.is_set() and self._may_start():
            while len(self._idle) + len(self._busy) < self._count:
                self._idle.append(self._new())

    def _feed(self) -> None:
        """The warm pool's thread: answers collected as they come, next items sent at once."""
        while not self._closing.is_set():
            if not self._busy:
                self._closing.wait(0.01)
                continue
            for done in self._collect(POLL):
                self._done.put(done)

    def results(self) -> Iterator[tuple[Item, Any]]:
        while self._inline and self._queue:
            self._pending -= 1
            yield (item := self._queue.pop(0)[1]), self._run(item)
        while self._pending and not self._closing.is_set():
            if self._feeder is None:
                found = self._collect(POLL)
            else:
                with self._lock:
                    self._dispatch()  # a worker the thread could not start
                try:  # with a timeout, so that a signal is handled while waiting
                    found = [self._done.get(timeout=POLL)]
                except queue.Empty:
                    continue
            for item, kind, value in found:
                with self._lock:
                    self._pending -= 1
                    self._top_up()  # here, should the thread that collected it not start one
                if kind == "raised":
                    raise value
                yield item, value

    def _answer(self, worker: _Worker, ready: list[Any]) -> tuple[str, Any] | None:
        """What ``worker`` answered, ('stopped', WorkerStopped) if it stopped, None while it
        works."""
        if worker.conn in ready or worker.conn.poll():
            try:
                kind, value = worker.conn.recv()
            except (EOFError, OSError):
                pass  # it died as it answered: said below
            else:
                if self._once:  # its one item done: it ends
                    worker.stop()
                else:
                    self._idle.append(worker)
                if kind == "memory":
                    return "stopped", WorkerStopped(worker.item, worker.unit(),
                                              "ran out of memory: " + memory_note())
                return kind, value
        if worker.process.sentinel in ready or not worker.process.is_alive():
            worker.process.join()
            code = worker.process.exitcode
        elif worker.overdue() or worker.late():
            code = None
        else:
            return None
        stopped = WorkerStopped(worker.item, worker.unit(), _how(code), code)
        worker.stop()
        return "stopped", stopped


def one(run: Callable[[Item], Answer], item: Item) -> Answer | WorkerStopped:
    """``run(item)`` in a worker of its own, within the engine's budget: its value, or how the
    worker stopped; what it raised is raised here."""
    with Workers(run) as pool:
        pool.submit(item)
        for _, value in pool.results():
            answer: Answer | WorkerStopped = value
            return answer
    raise AssertionError("an engine job gave no answer")


def trial(load: Callable[[], object]) -> str | None:
    """How ``load()`` ends or hangs a worker's process within the engine's budget (an engine's
    import), else None; what it raises is left to the real import, which says it at its line."""
    if not can_fork():  # a Dask worker: the run's own process loaded it first
        return None

    def tried(_: None) -> None:
        with unit(0), suppress(BaseException):
            load()

    stopped = one(tried, None)
    return stopped.how if isinstance(stopped, WorkerStopped) else None

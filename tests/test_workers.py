"""workers.Workers' one-job-a-process mode (serve's rebuilds): each item in a fresh process,
the next started ahead, a wall-time limit per item, a killed worker reported, processes that
may start workers of their own."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time

from rulepress.workers import Workers, WorkerStopped, can_fork, in_worker

_seen: list[str] = []  # what earlier items in this process left behind


def _job(item: str) -> tuple[int, list[str], bool, bool]:
    """Its process, what earlier items left here, and whether it may fork as a command."""
    if item == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    if item == "sleep":
        time.sleep(30)
    _seen.append(item)
    return os.getpid(), list(_seen[:-1]), can_fork(), in_worker()


def _nested(item: int) -> list[int]:
    """A pool inside a one-job process, as a rebuild's check starts one."""
    with Workers(lambda n: n * 2, 1) as inner:
        inner.submit(item)
        return [value for _, value in inner.results()]


def _started(parent: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def test_each_item_runs_in_a_fresh_process_and_the_next_waits_ahead() -> None:
    with Workers(_job, 1, warm=True, guard=False, once=True, start=_started) as pool:
        ahead = pool.workers()
        assert len(ahead) == 1
        answers = []
        for item in ("a", "b", "c"):
            pool.submit(item)
            answers += [value for _, value in pool.results()]
        pids = [pid for pid, _, _, _ in answers]
        assert pids[0] == ahead[0] and len(set(pids)) == 3
        assert [left for _, left, _, _ in answers] == [[], [], []]  # nothing carried over
        assert all(fork and not worker for _, _, fork, worker in answers)  # commands of their own
        deadline = time.monotonic() + 10
        while len(pool.workers()) != 1 or pool.workers()[0] in pids:
            assert time.monotonic() < deadline, "no process was started ahead of the next item"
            time.sleep(0.02)
    assert _seen == []  # nothing ran here


def test_a_killed_or_late_item_is_stopped_and_the_next_runs() -> None:
    with Workers(_job, 1, warm=True, guard=False, once=True, start=_started) as pool:
        pool.submit("kill")
        [(_, killed)] = list(pool.results())
        assert isinstance(killed, WorkerStopped) and killed.code == -signal.SIGKILL
        start = time.monotonic()
        pool.submit("sleep", seconds=0.5)
        [(_, late)] = list(pool.results())
        assert isinstance(late, WorkerStopped) and late.code is None
        assert time.monotonic() - start < 10
        pool.submit("after")
        [(_, answer)] = list(pool.results())
        assert answer[1] == []


def test_a_one_job_process_may_start_workers_of_its_own() -> None:
    with Workers(_nested, 1, guard=False, once=True, start=_started) as pool:
        pool.submit(21)
        assert [value for _, value in pool.results()] == [[42]]


def test_from_a_fork_server_items_may_come_from_any_thread() -> None:
    """serve's server is threaded: its rebuilds start from a fork server, never a fork of it,
    so a request's thread may submit, and leaving the block ends results()."""
    context = multiprocessing.get_context("forkserver")
    with Workers(_job, 2, warm=True, guard=False, once=True, start=_started,
                 context=context) as pool:
        threads = [threading.Thread(target=pool.submit, args=(name,)) for name in "xy"]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        answers = dict(pool.results())
        assert sorted(answers) == ["x", "y"]
        assert answers["x"][0] != answers["y"][0] != os.getpid()
        pool.submit("sleep")
        ended: list[object] = []
        waiting = threading.Thread(target=lambda: ended.extend(pool.results()))
        waiting.start()
        time.sleep(0.3)
    waiting.join(10)
    assert not waiting.is_alive() and ended == []


def _fill_then_import(module: str) -> str:
    """The worker's budget filled to its last megabyte, then a library loaded (lxml.objectify:
    a 2.8 MB extension rulepress never loads) whose code cannot be mapped in what is left."""
    import importlib

    held = []
    try:
        while True:
            held.append(bytearray(2**20))
    except MemoryError:
        held.pop()
    importlib.import_module(module)
    return "imported"


def test_a_library_that_cannot_be_loaded_within_the_budget_is_out_of_memory() -> None:
    from rulepress.workers import Budget, budget, set_budget

    was = budget()
    set_budget(Budget(memory_mb=16))  # the documented minimum
    try:
        with Workers(_fill_then_import, 1) as pool:
            pool.submit("lxml.objectify")
            ((_, value),) = list(pool.results())
    finally:
        set_budget(was)
    assert isinstance(value, WorkerStopped) and str(value) == (
        "ran out of memory: it used more than its memory budget (engine_memory_mb = 16 in "
        "rulepress.toml's [limits])")

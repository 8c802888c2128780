"""rulepress simulate --ladder: what a ladder's pairs cost on the shared pool.

- ``ladder_jobs2_over_jobs1``: wall time of a small Pigeon Race ladder (random, greedy,
  ismcts:20; every pair on the same deals, duplicate) on one worker over two, best of ROUNDS
  each, alternating; with ``ladder_jobs2_cpu_over_jobs1_cpu`` (the work the second worker adds)
  and the load average, since on a busy machine two jobs cannot show their speed-up;
- ``ladder_task_overhead``: the CPU time the pool adds to playing the same batches in this
  process (forking, pickling each batch's tally, the collector), as a share of the play
  itself: batching keeps it under 5%.

Run: .venv/bin/python benchmarks/bench_ladder.py  -> one JSON object per line.
"""

from __future__ import annotations

import json
import os
import resource
import time
from pathlib import Path

from rulepress.simulate.execute import batches, local
from rulepress.simulate.ladder import pair_specs
from rulepress.simulate.play import play_batch
from rulepress.simulate.run import plan
from rulepress.simulate.spec import RunSpec
from rulepress.simulate.summary import Options

ROOT = Path(__file__).resolve().parents[1]
AGENTS = ("random", "greedy", "ismcts:20")
DEALS = 48
ROUNDS = 2


def emit(name: str, value: float, unit: str) -> None:
    print(json.dumps({"name": name, "value": round(value, 3), "unit": unit}), flush=True)


def _cpu() -> float:
    own, workers = (resource.getrusage(who) for who in (resource.RUSAGE_SELF,
                                                       resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def specs() -> list[RunSpec]:
    base = plan("pigeon-race", ROOT / "sources", ROOT,
                Options(DEALS, "2", None, ",".join(AGENTS))).spec
    return pair_specs(base, AGENTS)


def main() -> None:
    runs = specs()
    wall = {1: float("inf"), 2: float("inf")}
    cpu = {1: float("inf"), 2: float("inf")}
    for _ in range(ROUNDS):
        for jobs in (1, 2):
            start, used = time.perf_counter(), _cpu()
            with local(jobs) as played:
                played(runs, lambda n: None, None)
            wall[jobs] = min(wall[jobs], time.perf_counter() - start)
            cpu[jobs] = min(cpu[jobs], _cpu() - used)
    direct = float("inf")
    for _ in range(ROUNDS):
        start = time.process_time()
        for r, spec in enumerate(runs):
            for b in batches(spec, r):
                play_batch(spec, spec.tables[b.table], b.start, b.stop)
        direct = min(direct, time.process_time() - start)
    emit("ladder_jobs2_over_jobs1", wall[1] / wall[2], "x")
    emit("ladder_jobs2_cpu_over_jobs1_cpu", cpu[2] / cpu[1], "x")
    emit("ladder_task_overhead", cpu[1] / direct - 1, "share")
    emit("ladder_games_per_s_one_job", sum(s.plays(2) for s in runs) / wall[1], "games/s")
    emit("load_average_1min", os.getloadavg()[0], "processes")


if __name__ == "__main__":
    main()

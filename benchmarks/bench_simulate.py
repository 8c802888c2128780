"""rulepress simulate: games per second per core for each bundled engine and agent, the speed-up
of two worker processes over one, and peak memory for 10^4 against 10^5 games.

- games/s per core: one process plays the run's batches (``--jobs 1``), timed by its CPU time,
  best of a few rounds, so a busy neighbour on a shared machine does not lower the figure;
- speed-up: wall time of ``--jobs 1`` over ``--jobs 2`` for the same run, alternating, best of
  each (a ratio measured in one run), with the CPU time the two workers take over one job's
  (the work parallel play adds) and the load average (on a busy machine two jobs cannot show
  their speed-up);
- scheduler: wall time of the same run on a Dask LocalCluster of two worker processes over
  the local pool's two jobs, alternating, best of each (the cluster started before timing);
  its tallies must equal the local pool's (the same results whatever plays them);
- memory: peak RSS of a process running ``rulepress simulate pigeon-race --jobs 1`` for 10^4
  and for 10^5 games.

Run: .venv/bin/python benchmarks/bench_simulate.py  -> one JSON object per line.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

from rulepress.diagnostics import RulepressError
from rulepress.simulate.play import engine_of
from rulepress.simulate.run import plan, play
from rulepress.simulate.spec import agent_lines
from rulepress.simulate.summary import Options, Plan

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "sources"
GAMES = {"pigeon-race": 4, "pigeon": 2, "go-stop": 2, "worm-derby": 2}  # game -> players
SECONDS = 2.0  # CPU time a measurement aims at
ROUNDS = 3
SPEEDUP_GAMES = 20000  # Pigeon Race random games for the --jobs ratio (about 5 s on one core)
MEMORY_GAMES = (10_000, 100_000)


def emit(name: str, value: float, unit: str) -> None:
    print(json.dumps({"name": name, "value": round(value, 2), "unit": unit}), flush=True)


def planned(game: str, games: int, players: int, agent: str) -> Plan:
    return plan(game, SOURCES, ROOT, Options(games, str(players), None, agent))


def per_core(game: str, players: int, agent: str) -> float:
    """Games per CPU second in one process, best of ROUNDS, the run sized to about SECONDS."""
    probe = planned(game, 20, players, agent)
    start = time.process_time()
    play(probe, jobs=1)
    rate = 20 / max(time.process_time() - start, 1e-6)
    chosen = planned(game, max(20, int(rate * SECONDS)), players, agent)
    best = 0.0
    for _ in range(ROUNDS):
        start = time.process_time()
        play(chosen, jobs=1)
        best = max(best, chosen.spec.games / (time.process_time() - start))
    return best


def speedup() -> tuple[float, float]:
    """Wall time of --jobs 1 over --jobs 2, and CPU time (this process and its workers) of
    --jobs 2 over --jobs 1: the second is the work the workers add, whatever else the machine
    runs, so it tells what the first would be on two idle cores."""
    chosen = planned("pigeon-race", SPEEDUP_GAMES, 4, "random")
    wall = {1: float("inf"), 2: float("inf")}
    cpu = {1: float("inf"), 2: float("inf")}
    for _ in range(ROUNDS):
        for jobs in (1, 2):
            start, used = time.perf_counter(), _cpu()
            play(chosen, jobs=jobs)
            wall[jobs] = min(wall[jobs], time.perf_counter() - start)
            cpu[jobs] = min(cpu[jobs], _cpu() - used)
    return wall[1] / wall[2], cpu[2] / cpu[1]


def dask_over_local() -> float:
    """Wall time on a two-process LocalCluster over the local pool's --jobs 2, best of each."""
    from distributed import LocalCluster

    chosen = planned("pigeon-race", SPEEDUP_GAMES, 4, "random")
    wall = {"local": float("inf"), "dask": float("inf")}
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster:
        play(chosen, scheduler=cluster.scheduler_address)  # workers warm
        for _ in range(ROUNDS):
            for where in wall:
                start = time.perf_counter()
                tallies = (play(chosen, jobs=2) if where == "local" else
                           play(chosen, scheduler=cluster.scheduler_address))
                wall[where] = min(wall[where], time.perf_counter() - start)
                if where == "local":
                    expected = tallies
                elif tallies != expected:
                    raise SystemExit("the Dask run's tallies differ from the local pool's")
    return wall["dask"] / wall["local"]


def _cpu() -> float:
    own, workers = (resource.getrusage(who) for who in (resource.RUSAGE_SELF,
                                                       resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


PEAK = (
    "import resource, sys\n"
    "from click.testing import CliRunner\n"
    "from rulepress.cli import main\n"
    "r = CliRunner().invoke(main, sys.argv[1:])\n"
    "assert r.exit_code == 0, r.output\n"
    "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
)


def peak_rss_kib(games: int, out: Path) -> int:
    args = ["simulate", "pigeon-race", "-n", str(games), "-j", "1", "-q", "--out", str(out)]
    done = subprocess.run([sys.executable, "-c", PEAK, *args], capture_output=True, text=True,
                          check=True, cwd=ROOT)
    return int(done.stdout)


def main() -> None:
    import tempfile

    for game, players in GAMES.items():
        try:
            engine = engine_of(planned(game, 1, players, "random").spec)
        except RulepressError as exc:  # an engine not on the protocol yet: say so
            print(json.dumps({"name": f"simulate_{game}", "skipped": str(exc)}), flush=True)
            continue
        for agent in agent_lines(engine):
            rate = per_core(game, players, agent)
            emit(f"simulate_{game}_{players}p_{agent}_games_per_s_per_core", rate, "games/s")
    ratio, work = speedup()
    emit("simulate_jobs2_over_jobs1", ratio, "x")
    emit("simulate_jobs2_cpu_over_jobs1_cpu", work, "x")
    emit("simulate_dask_over_local", dask_over_local(), "x")
    emit("load_average_1min", os.getloadavg()[0], "processes")
    with tempfile.TemporaryDirectory() as tmp:
        for games in MEMORY_GAMES:
            emit(f"simulate_peak_rss_{games}_games", peak_rss_kib(games, Path(tmp)) / 1024,
                 "MiB")


if __name__ == "__main__":
    main()

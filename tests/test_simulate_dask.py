"""simulate --scheduler: the same batches on a Dask cluster give the same bytes as local
processes (a LocalCluster of two worker processes stands in for a real cluster)."""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from distributed import Client, LocalCluster

from rulepress.cli import main

pytestmark = pytest.mark.slow  # a Dask cluster

FIXTURE = Path(__file__).parent / "fixtures" / "simulate"
RUN = ["simulate", "coin-race", "--project", str(FIXTURE), "-n", "400", "-p", "2-4",
       "-a", "random,cautious", "--seed", "11", "-q"]


def test_a_dask_cluster_gives_the_local_run_byte_for_byte(tmp_path: Path) -> None:
    local = CliRunner().invoke(main, [*RUN, "--out", str(tmp_path / "local")])
    assert local.exit_code == 0, local.output
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster:
        remote = CliRunner().invoke(main, [*RUN, "--out", str(tmp_path / "dask"),
                                           "--scheduler", cluster.scheduler_address])
    assert remote.exit_code == 0, remote.output
    assert f"on {cluster.scheduler_address}" in remote.stderr
    names = sorted(p.name for p in (tmp_path / "local").iterdir() if p.is_file())
    assert names == sorted(p.name for p in (tmp_path / "dask").iterdir() if p.is_file())
    assert len(names) == 7
    for name in names:
        assert (tmp_path / "dask" / name).read_bytes() == (tmp_path / "local" / name).read_bytes()


def test_a_scheduler_address_of_another_protocol_is_a_clear_error(tmp_path: Path) -> None:
    for address, scheme in (("tls://127.0.0.1:8786", "tls"), ("ucx://10.0.0.5:8786", "ucx")):
        result = CliRunner().invoke(main, [*RUN, "--out", str(tmp_path / "out"),
                                           "--scheduler", address])
        assert result.exception is None or isinstance(result.exception, SystemExit)
        assert (result.exit_code, result.stderr.strip().splitlines()) == (2, [
            f"rulepress: error: --scheduler {address}: rulepress connects to a scheduler over "
            f"tcp:// only, not {scheme}://; write tcp://HOST:PORT"])
        assert not (tmp_path / "out").exists()


HOSTILE = Path(__file__).parent / "hostile"


def test_an_engine_looping_on_a_dask_worker_is_stopped_and_named_and_frees_the_worker(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same diagnostic as the local run's (tests/hostile/engine-endless-legal-moves), and
    the worker's one thread is free again afterwards: the loop ran in a child it stopped."""
    case = HOSTILE / "engine-endless-legal-moves"
    project = tmp_path / "p"
    shutil.copytree(case, project, ignore=shutil.ignore_patterns("expected.txt"))
    expected = (case / "expected.txt").read_text().splitlines()[-1]
    monkeypatch.chdir(project)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster:
        started = time.monotonic()
        result = CliRunner().invoke(main, ["simulate", "g", "-n", "4", "-q",
                                           "--scheduler", cluster.scheduler_address])
        took = time.monotonic() - started
        with Client(cluster.scheduler_address, set_as_default=False) as client:
            assert client.submit(sum, [1, 2], pure=False).result(timeout=10) == 3
    assert "Traceback" not in result.stderr, result.stderr
    shown = [ln for ln in result.stderr.splitlines() if ": error: " in ln]
    assert (result.exit_code, shown) == (2, [expected]), result.stderr
    assert took < 30, took

"""`simulate --ladder` and `--compensate` are the Simulation generator on pipeline.run, as a
plain run is: one write_set with the output folder's manifest, the earlier run's files that
this one does not write deleted, nothing written when a run is refused. Played on Coin Race
(tests/fixtures/simulate)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from rulepress import pipeline
from rulepress.cli import main
from rulepress.simulate import generator

pytestmark = pytest.mark.slow  # simulate and build end to end

FIXTURE = Path(__file__).parent / "fixtures" / "simulate"


def simulate(out: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["simulate", "coin-race", "--project", str(FIXTURE), "-q",
                                     "--out", str(out), *args])


def test_a_ladder_then_a_search_then_a_run_each_write_through_the_pipeline(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    runs: list[list[str]] = []
    real = pipeline.run

    def counted(*args: Any, **kwargs: Any) -> pipeline.Built:
        runs.append([g.name for g in args[1]])
        return real(*args, **kwargs)

    monkeypatch.setattr(generator, "run", counted)
    out = tmp_path / "out"
    manifest = out / ".rulepress" / "manifest.json"
    ladder = simulate(out, "-n", "20", "--ladder", "random,cautious")
    assert ladder.exit_code == 0, ladder.output
    assert sorted(p.name for p in out.iterdir()) == [".rulepress", "ladder.svg", "summary.json"]
    kept = json.loads(manifest.read_text())
    assert sorted(kept["units"]["simulation"]["files"]) == ["ladder.svg", "summary.json"]
    assert kept["games"]["coin-race"]["simulation"]["units"] == ["simulation"]
    assert "wrote 2 files to" in ladder.stderr

    search = simulate(out, "-n", "20", "--compensate")
    assert search.exit_code == 0, search.output
    names = sorted(p.name for p in out.iterdir())
    assert "ladder.svg" not in names and "summary.json" in names  # the ladder's plot went
    assert json.loads((out / "summary.json").read_text())["compensation"]["suggested"] >= 0
    assert sorted(json.loads(manifest.read_text())["units"]["simulation"]["files"]) == names[1:]

    assert simulate(out, "-n", "4").exit_code == 0
    assert runs == [["simulation"]] * 3


@pytest.mark.parametrize(("args", "said"), [
    (("-p", "3", "--ladder", "random,cautious"), "it needs two-player games"),
    (("--ladder", "random,cautious", "--duplicate"), "leave out --agent and --duplicate"),
    (("--compensate", "--handicap", "1"), "leave out --handicap and --ladder"),
    (("--compensate", "--variant", "circle,short"), "--compensate evens one table"),
])
def test_a_refused_ladder_or_search_is_bad_input_and_writes_nothing(
        tmp_path: Path, args: tuple[str, ...], said: str) -> None:
    result = simulate(tmp_path / "out", "-n", "4", *args)
    assert result.exit_code == 2, result.output
    assert said in result.stderr and "Traceback" not in result.output
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("args", [("-n", "100000"), ("-n", "40", "--ladder", "random,cautious")])
def test_a_summary_rulepress_did_not_write_stops_the_run_before_any_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...]) -> None:
    """A report's summary.json committed without its manifest: the run says so at once, not
    after playing every game (a ladder can take an hour)."""
    def played(*_: Any, **__: Any) -> None:
        pytest.fail("games were played before the output folder was looked at")

    monkeypatch.setattr(generator, "play", played)
    monkeypatch.setattr("rulepress.simulate.ladder.ladder_files", played)
    out = tmp_path / "out"
    out.mkdir()
    (out / "summary.json").write_text("{}\n")
    result = simulate(out, *args)
    assert result.exit_code == 2, result.output
    assert "holds files rulepress did not write" in result.stderr
    assert "summary.json; move them away" in result.stderr
    assert (out / "summary.json").read_text() == "{}\n"
    assert sorted(p.name for p in out.iterdir()) == ["summary.json"]

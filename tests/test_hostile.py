"""The hostile-input corpus: each case under tests/hostile/ is a sources folder and the exact
diagnostics and exit code rulepress must give for it, without a traceback and, when it fails,
without writing anything.

expected.txt: comment lines (``#``), then ``$ <command>`` (check, build or pnp), ``exit <code>``
and the diagnostic lines, with the sources folder written ROOT. A file named ``<name>.mkfifo``
in a case becomes a FIFO named ``<name>`` (git cannot hold one).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulepress.cli import main

HOSTILE = Path(__file__).parent / "hostile"
CASES = sorted(p.name for p in HOSTILE.iterdir() if (p / "expected.txt").exists())


def prepare(case: Path, into: Path) -> Path:
    src = into / "src"
    shutil.copytree(case, src, symlinks=True, ignore=shutil.ignore_patterns("expected.txt"))
    for marker in src.rglob("*.mkfifo"):
        marker.unlink()
        os.mkfifo(marker.with_suffix(""))
    return src


def expectation(case: Path) -> tuple[str, int, list[str]]:
    lines = [ln for ln in (case / "expected.txt").read_text().splitlines()
             if ln and not ln.startswith("#")]
    command = lines[0].removeprefix("$ ")
    status = int(lines[1].removeprefix("exit "))
    return command, status, lines[2:]


@pytest.mark.parametrize("case", CASES)
def test_hostile_input_gets_its_exact_diagnostics(case: str, tmp_path: Path) -> None:
    command, status, expected = expectation(HOSTILE / case)
    src = prepare(HOSTILE / case, tmp_path)
    out = tmp_path / "out"
    args = [command, "--sources", str(src)]
    if command != "check":
        args += ["--out", str(out)] + (["--jobs", "1"] if command == "build" else [])
    result = CliRunner().invoke(main, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    err = result.stderr.replace(str(src), "ROOT")
    assert "Traceback" not in err
    shown = [ln for ln in err.splitlines() if ": error: " in ln or ": warning: " in ln]
    assert (result.exit_code, shown) == (status, expected), err
    if status != 0 and command != "check":
        assert not out.exists(), "a failed run wrote output"


def test_every_case_says_what_it_tries() -> None:
    for case in CASES:
        first = (HOSTILE / case / "expected.txt").read_text().splitlines()[0]
        assert first.startswith("# "), f"{case}: expected.txt starts with '# <what it tries>'"

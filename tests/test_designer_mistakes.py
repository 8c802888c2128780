"""The designer-mistake corpus: the mistakes a designer makes with a game of her own (a CSV deck,
layouts, an engine, examples), each with the exact diagnostics rulepress must give, one true
message per mistake.

tests/designer/base/ is a whole project (``rulepress new`` grown into a 16-card deck with an
engine that reads its data from rulepress); it checks clean. Each case folder holds the files it
changes, as they are after the mistake (a file ``<name>.deleted`` removes ``<name>``;
``<name>.unparsed`` becomes ``<name>``: an engine with a syntax error, kept from ruff), and
expected.txt as tests/hostile/ writes it (test_hostile.py): the command, its exit code, and the
diagnostics with the project's folder written ROOT. The run must give exactly those, print no
traceback, never point into an installed library (no ``site-packages`` path), and, failing,
leave the project as it was.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_hostile import expectation, matches, snapshot

from rulepress.cli import main
from rulepress.games import _entry_points

pytestmark = pytest.mark.slow  # the CLI on each project of the designer corpus

CORPUS = Path(__file__).parent / "designer"
BASE = CORPUS / "base"
CASES = sorted(p.name for p in CORPUS.iterdir() if (p / "expected.txt").exists())


def assemble(case: Path, root: Path) -> None:
    """The base project with the case's files over it."""
    shutil.copytree(BASE, root)
    for f in case.rglob("*"):
        rel = f.relative_to(case)
        if f.is_dir() or rel.as_posix() == "expected.txt":
            continue
        if f.name.endswith(".deleted"):
            (root / rel).with_suffix("").unlink()
            continue
        rel = rel.with_suffix("") if f.name.endswith(".unparsed") else rel
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(f, root / rel)


def run_case(case: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    command, status, expected = expectation(case)
    root = tmp_path / "project"
    assemble(case, root)
    before = snapshot(root)
    monkeypatch.chdir(root)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # a failed run writes nothing
    _entry_points.cache_clear()
    try:
        result = CliRunner().invoke(main, command.split())
    finally:
        _entry_points.cache_clear()
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    err = result.stderr.replace(str(root.resolve()), "ROOT")
    assert "Traceback" not in err, err
    shown = [ln for ln in err.splitlines() if ": error: " in ln or ": warning: " in ln]
    assert not [ln for ln in shown if "site-packages" in ln], "a diagnostic in a library"
    shown = [want if matches(want, got) else got
             for want, got in zip(expected, shown, strict=False)] + shown[len(expected):]
    assert (result.exit_code, shown) == (status, expected), err
    if status != 0:
        assert snapshot(root) == before, "a failed run wrote or removed something"


def test_the_base_project_checks_clean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(BASE, tmp_path / "project")
    monkeypatch.chdir(tmp_path / "project")
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    result = CliRunner().invoke(main, ["check"])
    assert (result.exit_code, result.stderr) == (0, "2 proven, 0 failed, 0 not checkable\n")


def test_the_corpus_holds_at_least_forty_mistakes() -> None:
    assert len(CASES) >= 40, CASES


@pytest.mark.parametrize("case", CASES)
def test_a_designer_mistake_gets_one_true_message(case: str, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    run_case(CORPUS / case, tmp_path, monkeypatch)

"""Every bad input gets its exact diagnostic, the right exit code and no traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from support import run

from rulepress.cli import main

pytestmark = pytest.mark.slow  # the CLI in subprocesses

ROOTS = Path(__file__).parent / "fixtures" / "roots"
CASES = sorted(p.name for p in ROOTS.iterdir() if (p / "expected.txt").exists())



@pytest.mark.parametrize("case", CASES)
def test_fixture_tree_gives_its_exact_diagnostics(case: str) -> None:
    root = ROOTS / case
    expected = (root / "expected.txt").read_text().splitlines()
    status = int(expected[0].removeprefix("exit "))
    code, err = run("check", "--sources", str(root))
    lines = [line.replace(str(root), "ROOT") for line in err.splitlines() if line]
    assert code == status
    assert lines == expected[1:]
    assert "Traceback" not in err


def test_good_tree_is_proven() -> None:
    code, err = run("check", "--sources", str(ROOTS / "good"))
    assert code == 0
    assert err.strip() == "2 proven, 0 failed, 0 not checkable"


def test_unknown_game_is_usage_error() -> None:
    code, err = run("check", "nope", "--sources", str(ROOTS / "good"))
    assert code == 2
    assert err.strip() == (
        f"rulepress: error: unknown game 'nope'; '{ROOTS / 'good'}' has: tiny"
    )


def test_missing_sources_folder(tmp_path: Path) -> None:
    code, err = run("check", "--sources", str(tmp_path / "absent"))
    assert code == 2
    assert "does not exist" in err


def test_help_answers() -> None:
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    assert "check" in result.output and "build" in result.output and "pnp" in result.output


def test_help_imports_nothing_heavy() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from rulepress.cli import main\n"
        "CliRunner().invoke(main, ['build', '--help'])\n"
        "heavy = [m for m in ('weasyprint', 'reportlab', 'markdown_it', 'jinja2', 'rich')"
        " if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_python_dash_m_rulepress_is_the_command_line() -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "rulepress", "check", "--help"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Usage: rulepress check")

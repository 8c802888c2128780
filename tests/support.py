"""What many tests share: running the command line in-process, and a reporter that says
nothing."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from rulepress.cli import main


def run(*args: str) -> tuple[int, str]:
    """``rulepress ARGS`` in this process: its exit code and what it wrote to stderr. An
    exception other than the exit itself fails the test."""
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stderr


class Quiet:
    """A reporter for build functions called directly: no progress, no diagnostics."""

    def progress(self, message: str) -> None: ...
    def diagnostics(self, diagnostics: object) -> None: ...


CHROMIUM = Path("/usr/bin/chromium")  # Debian's package; `make test` installs it when missing
# Headless as root on a machine without a network: no sandbox, GPU or background requests.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]

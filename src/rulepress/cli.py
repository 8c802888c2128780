"""Command line: thin commands, each calling one function. Heavy imports stay lazy."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from rulepress.diagnostics import Diagnostic, ExitStatus, RulepressError

if TYPE_CHECKING:
    from rich.console import Console
    from rich.status import Status

PAPERS = {"a4": ("a4",), "letter": ("letter",), "both": ("a4", "letter")}

sources_option = click.option(
    "--sources", type=click.Path(path_type=Path), default=Path("sources"), show_default=True,
    help="Folder holding <game>/rules.md sources.",
)


def out_option(default: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    return click.option(
        "--out", type=click.Path(path_type=Path), default=Path(default), show_default=True,
        help="Output folder.",
    )


paper_option = click.option(
    "--paper", type=click.Choice(list(PAPERS)), default="both", show_default=True,
    help="Paper size of the PDFs.",
)


class Reporter:
    """Diagnostics to stderr; a live status line on a terminal, plain lines otherwise (or in CI)."""

    def __init__(self) -> None:
        self._status: Status | None = None
        self._console: Console | None = None
        if sys.stderr.isatty() and not os.environ.get("CI"):
            from rich.console import Console

            self._console = Console(stderr=True, highlight=False)

    def diagnostics(self, diagnostics: list[Diagnostic]) -> None:
        for d in diagnostics:
            if self._console is not None:
                self._console.print(str(d), markup=False)
            else:
                click.echo(str(d), err=True)

    def progress(self, message: str) -> None:
        if self._console is None:
            click.echo(message, err=True)
        elif self._status is None:
            self._status = self._console.status(message)
            self._status.start()
        else:
            self._status.update(message)

    def clear(self) -> None:
        if self._status is not None:
            self._status.stop()
            self._status = None

    def done(self, message: str) -> None:
        self.clear()
        click.echo(message, err=True)


def _run(action: Callable[[Reporter], ExitStatus]) -> None:
    from rulepress.signals import Interrupted, stop_on_signals

    reporter = Reporter()
    try:
        with stop_on_signals():
            status = action(reporter)
    except RulepressError as exc:
        reporter.clear()
        reporter.diagnostics(exc.diagnostics)
        status = exc.status
    except Interrupted as exc:
        reporter.clear()
        click.echo(f"rulepress: stopped by {exc.name}", err=True)
        sys.exit(128 + exc.signum)
    sys.exit(int(status))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulepress")
def main() -> None:
    """Compile rule texts into proven rulebooks and print-and-play kits."""


@main.command()
@click.argument("games", nargs=-1)
@sources_option
def check(games: tuple[str, ...], sources: Path) -> None:
    """Prove every worked example against its game's engine."""

    def action(reporter: Reporter) -> ExitStatus:
        from rulepress.document.reader import read_sources
        from rulepress.validate.check import check_documents

        docs = read_sources(sources, games)
        report = check_documents(docs)
        reporter.diagnostics(report.diagnostics)
        reporter.done(report.summary())
        return ExitStatus.CHECK_FAILED if report.failed else ExitStatus.OK

    _run(action)


@main.command()
@click.argument("games", nargs=-1)
@sources_option
@out_option("build")
@paper_option
@click.option("--draft", is_flag=True, help="Build even when examples fail (as warnings).")
@click.option("--jobs", "-j", type=int, default=0, help="Worker processes (0: one per core).")
def build(
    games: tuple[str, ...], sources: Path, out: Path, paper: str, draft: bool, jobs: int
) -> None:
    """Build HTML and PDF rulebooks into the output folder."""

    def action(reporter: Reporter) -> ExitStatus:
        from rulepress.build import build_rulebooks

        written = build_rulebooks(
            sources, out, games=games, papers=PAPERS[paper], draft=draft, jobs=jobs,
            reporter=reporter,
        )
        reporter.done(f"wrote {len(written)} files to {out}")
        return ExitStatus.OK

    _run(action)


@main.command()
@click.argument("games", nargs=-1)
@sources_option
@out_option("pnp")
@paper_option
@click.option(
    "--duplex", type=click.Choice(["long", "short"]), default="long", show_default=True,
    help="The edge your printer flips double-sided pages on.",
)
@click.option("--bleed", type=float, default=3.0, show_default=True, help="Bleed in mm.")
def pnp(
    games: tuple[str, ...], sources: Path, out: Path, paper: str, duplex: str, bleed: float
) -> None:
    """Draw the print-and-play kits."""

    def action(reporter: Reporter) -> ExitStatus:
        from rulepress.build import build_kits

        written = build_kits(
            sources, out, games=games, papers=PAPERS[paper], duplex=duplex, bleed_mm=bleed,
            reporter=reporter,
        )
        reporter.done(f"wrote {len(written)} files to {out}")
        return ExitStatus.OK

    _run(action)


if __name__ == "__main__":
    main()

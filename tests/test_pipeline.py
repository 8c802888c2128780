"""pipeline.run with a toy generator: plan, freshness, one write set, errors before writing."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from rulepress.diagnostics import Diagnostic, RulepressError, error, warning
from rulepress.pipeline import Base, Files, Paths, RunOptions, Unit, run
from rulepress.validate.check import DocumentCheck

ROOT = Path(__file__).parent / "fixtures" / "roots" / "good"


@dataclass(frozen=True)
class Shout:
    upper: bool = True


class Echo(Base):
    """Writes each game's title, shouted or not; counts what it makes."""

    name = "echo"

    def __init__(self, options: Shout = Shout(), refuse: bool = False) -> None:
        self.options = options
        self.refuse = refuse
        self.made: list[str] = []

    def check(self, game: DocumentCheck) -> list[Diagnostic]:
        return [error(None, f"{game.doc.slug}: refused")] if self.refuse else []

    def units(self, game: DocumentCheck, key: str) -> list[Unit]:
        slug, title = game.doc.slug, game.doc.meta.title

        def make() -> Files:
            self.made.append(slug)
            return {f"{slug}/echo.txt": title.upper() if self.options.upper else title}

        return [Unit(f"{slug}/echo", key, make, f"{slug} echo")]


class Quiet:
    def __init__(self) -> None:
        self.said: list[Diagnostic] = []

    def progress(self, message: str) -> None:
        pass

    def diagnostics(self, diagnostics: list[Diagnostic]) -> None:
        self.said += diagnostics


class Cautious(Echo):
    """Echo whose check finds only a warning (a preflight's)."""

    def check(self, game: DocumentCheck) -> list[Diagnostic]:
        return [warning(None, f"{game.doc.slug}: close to the edge")]


@pytest.fixture()
def paths(tmp_path: Path) -> Paths:
    shutil.copytree(ROOT, tmp_path / "sources")
    return Paths(tmp_path / "sources", tmp_path / "out")


def test_makes_then_skips_unchanged_games_unread(paths: Paths) -> None:
    echo = Echo()
    built = run(paths, [echo], Quiet())
    text = (paths.out / "tiny" / "echo.txt").read_text()
    assert text == text.upper() and text.strip() and echo.made == ["tiny"]
    again = Echo()
    built = run(paths, [again], Quiet())
    assert again.made == [] and built.skipped == ("tiny",) and built.unchanged == 1


def test_options_and_sources_are_in_the_key(paths: Paths) -> None:
    run(paths, [Echo()], Quiet())
    lower = Echo(Shout(upper=False))
    run(paths, [lower], Quiet())
    assert lower.made == ["tiny"]
    rules = paths.sources / "tiny" / "rules.md"
    rules.write_text(rules.read_text() + "\nOne more line.\n")
    edited = Echo(Shout(upper=False))
    run(paths, [edited], Quiet())
    assert edited.made == ["tiny"]


def test_a_file_changed_on_disk_is_made_again(paths: Paths) -> None:
    run(paths, [Echo()], Quiet())
    (paths.out / "tiny" / "echo.txt").write_text("tampered")
    echo = Echo()
    run(paths, [echo], Quiet())
    assert echo.made == ["tiny"] and (paths.out / "tiny" / "echo.txt").read_text() != "tampered"


def test_a_generator_check_stops_everything_before_writing(paths: Paths) -> None:
    with pytest.raises(RulepressError, match="tiny: refused"):
        run(paths, [Echo(), Echo(refuse=True)], Quiet())
    assert not (paths.out / "tiny").exists()


def test_force_makes_fresh_units(paths: Paths) -> None:
    run(paths, [Echo()], Quiet())
    echo = Echo()
    run(paths, [echo], Quiet(), RunOptions(force=True))
    assert echo.made == ["tiny"]


def test_a_generators_warnings_are_said_and_counted_and_the_run_goes_on(paths: Paths) -> None:
    quiet = Quiet()
    built = run(paths, [Cautious()], quiet)
    assert (paths.out / "tiny" / "echo.txt").is_file()
    assert [d.message for d in quiet.said] == ["tiny: close to the edge"]
    assert "1 warning" in built.summary()


class Played(Echo):
    """A simulation's shape: needs no shared check, made again on every run."""

    checked = False
    remakes = True


def test_a_generator_that_needs_no_check_runs_where_an_example_is_disproved(
        tmp_path: Path) -> None:
    shutil.copytree(ROOT.parent / "disproved", tmp_path / "sources")
    paths = Paths(tmp_path / "sources", tmp_path / "out")
    with pytest.raises(RulepressError) as checked:
        run(paths, [Echo()], Quiet())
    assert checked.value.status == 1 and not paths.out.exists()
    played = Played()
    run(paths, [played], Quiet())
    assert played.made == ["tiny"] and (paths.out / "tiny" / "echo.txt").is_file()
    with pytest.raises(RulepressError, match="tiny: refused"):  # its own check still stops it
        run(paths, [Played(refuse=True)], Quiet())


def test_a_generator_that_remakes_is_never_fresh(paths: Paths) -> None:
    run(paths, [Played()], Quiet())
    again = Played()
    built = run(paths, [again], Quiet())
    assert again.made == ["tiny"] and built.skipped == ()

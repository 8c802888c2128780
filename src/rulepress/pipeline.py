"""One pipeline for every command that writes: read → plan → check → make → write.

A command names its generators (books, kits, exports ...) and calls :func:`run`. The run loop
knows no generator by name: it asks each for the units it makes of a game (output files and the
key they are made from), skips the games whose units are all fresh in the output folder's
manifest without reading them, checks the rest once (the shared check, then each generator's
own), makes every unit that is not fresh, and writes them all as one set.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

from rulepress.cache import GameInputs, Manifest, Record, game_inputs
from rulepress.diagnostics import Diagnostic, RulepressError, counted
from rulepress.document.reader import read_sources, source_games
from rulepress.validate.check import CheckReport, DocumentCheck
from rulepress.validate.results import Status
from rulepress.write import write_set

Files = Mapping[str, "bytes | str"]  # names inside the output folder -> content


class Progress(Protocol):
    """Where a command says what it does: ``progress`` gets a plain message, or a Step."""

    def progress(self, message: str) -> None: ...
    def diagnostics(self, diagnostics: list[Diagnostic]) -> None: ...


@dataclass(frozen=True)
class Unit:
    """What a generator makes of one game, made together and recorded as one manifest unit:
    ``make`` returns its files. A unit whose ``key`` the manifest recorded, with every file it
    wrote still on disk as written, is not made again."""

    name: str  # the manifest's name for it, e.g. 'pigeon/tts'
    key: str
    make: Callable[[], Files]
    label: str = ""  # what progress calls it: 'pigeon tts export'


@dataclass(frozen=True)
class Paths:
    sources: Path
    out: Path
    project: Path | None = None


class Generator(Protocol):
    """One kind of output. ``options`` is a frozen dataclass: every field goes in the key of
    the generator's units (never a function's locals)."""

    name: str

    @property
    def options(self) -> Any: ...

    def check(self, game: DocumentCheck) -> list[Diagnostic]:
        """The generator's own checks of a game that passed the shared check (preflight)."""
        ...

    def units(self, game: DocumentCheck, key: str) -> list[Unit]:
        """What it makes of ``game``; ``key`` digests the game's inputs and these options."""
        ...


@dataclass
class Built:
    """What a run did: files written, files left as they were (their inputs unchanged), the
    games it checked and those it skipped."""

    out: Path
    written: list[Path]
    unchanged: int
    report: CheckReport
    skipped: tuple[str, ...] = ()

    def summary(self) -> str:
        s = "" if len(self.written) == 1 else "s"
        wrote = f"wrote {len(self.written)} file{s} to {self.out}"
        if self.unchanged:
            wrote += f", {self.unchanged} unchanged"
        if self.skipped:
            wrote += f" (inputs unchanged: {', '.join(self.skipped)})"
        return f"{wrote}; {counted(self.report.diagnostics, self.report.count(Status.PROVEN))}"


@dataclass(frozen=True)
class RunOptions:
    games: tuple[str, ...] = ()
    force: bool = False  # make every unit, fresh or not


@dataclass
class _Plan:
    inputs: dict[str, GameInputs] = field(default_factory=dict)
    skipped: tuple[str, ...] = ()


def generator_key(inputs: GameInputs, generator: Generator, engine: str | None,
                  project: Path | None) -> str:
    return inputs.key(engine, project, {"generator": generator.name, **asdict(generator.options)})


def run(paths: Paths, generators: Sequence[Generator], reporter: Progress,
        options: RunOptions = RunOptions()) -> Built:
    """Read, check and make every game's units for ``generators``, then write them at once. On
    any error nothing is written and every diagnostic is raised together."""
    from rulepress.build import check_phase

    slugs = source_games(paths.sources, options.games)
    manifest = Manifest(paths.out) if options.force else Manifest.load(paths.out)
    plan = _Plan({slug: game_inputs(paths.sources / slug, (paths.out,)) for slug in slugs})
    plan.skipped = tuple(s for s in slugs if _fresh(manifest, plan.inputs[s], generators, paths))
    if plan.skipped:
        reporter.progress(f"unchanged: {', '.join(plan.skipped)}")
    stale = [s for s in slugs if s not in plan.skipped]
    docs = read_sources(paths.sources, stale) if stale else []  # none: it would read them all
    report = check_phase(docs, paths.project, reporter)
    problems = [d for g in generators for result in report.documents for d in g.check(result)]
    if problems:
        raise RulepressError(problems)
    record = Record()
    outputs: dict[Path, bytes | str] = {}
    unchanged = sum(len(manifest.units[u]["files"]) for slug in plan.skipped
                    for u in _units(manifest, slug, generators))
    for result in report.documents:
        slug, engine = result.doc.slug, result.doc.meta.engine
        # Games are recorded whole: a run of some generators keeps what the others recorded.
        game = record.games[slug] = {**(manifest.game(slug) or {}), "engine": engine}
        for generator in generators:
            key = generator_key(plan.inputs[slug], generator, engine, paths.project)
            units = generator.units(result, key)
            game[generator.name] = {"key": key, "units": sorted(u.name for u in units)}
            for unit in units:
                if manifest.fresh(unit.name, unit.key):
                    unchanged += len(manifest.units[unit.name]["files"])
                    continue
                if unit.label:
                    reporter.progress(f"making {unit.label}")
                files = unit.make()
                outputs |= {paths.out / name: data for name, data in files.items()}
                record.unit(unit.name, unit.key, files)
    written = write_set(paths.out, outputs, record)
    return Built(paths.out, written, unchanged, report, plan.skipped)


def _fresh(manifest: Manifest, inputs: GameInputs, generators: Sequence[Generator],
           paths: Paths) -> bool:
    """Whether the manifest recorded this game's current key for every generator (the engine
    the game named then stands for the one it names now: the folder is hashed whole)."""
    built = manifest.game(inputs.slug)
    if built is None:
        return False
    engine = built.get("engine")
    for g in generators:
        made = built.get(g.name)
        if not isinstance(made, dict) or made.get("key") != generator_key(
                inputs, g, engine, paths.project):
            return False
    return all(manifest.fresh(u, manifest.units[u]["key"])
               for u in _units(manifest, inputs.slug, generators))


def _units(manifest: Manifest, slug: str, generators: Sequence[Generator]) -> list[str]:
    """The units the manifest says ``generators`` made of ``slug`` (that it still holds)."""
    built = manifest.game(slug) or {}
    return [u for g in generators if isinstance(built.get(g.name), dict)
            for u in built[g.name].get("units", []) if u in manifest.units]

"""One pipeline for every command that writes: read → plan → check → make → write.

A command names its generators (books, kits, exports ...) and calls :func:`run`. The run loop
knows no generator by name. It skips, unread, each game whose units every generator finds
fresh in the output folder's manifest; reads and checks the rest (the shared check, then each
generator's own); makes each unit that is not fresh; and writes everything as one set. A unit
whose make is a typesetting (``pooled``) starts in the worker pool as soon as its game has
passed its check, while the next game is checked, in workers of the one pool (workers.py); a
unit that runs engine code (``guarded``) runs in a guarded worker once the check is over.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from rulepress.cache import GameInputs, file_key, game_inputs
from rulepress.diagnostics import (
    Diagnostic,
    ExitStatus,
    Reporter,
    RulepressError,
    Severity,
    counted,
    exit_status,
)
from rulepress.document.model import Document
from rulepress.document.reader import read_sources, source_games
from rulepress.host import engine_workers, typesetters
from rulepress.signals import worker_started
from rulepress.validate.check import CheckedPrinting, DocumentCheck
from rulepress.validate.hooks import Hooks
from rulepress.validate.printing import check_printing, checking, hand_on, passing
from rulepress.validate.results import Status
from rulepress.workers import Workers, WorkerStopped
from rulepress.write import (
    Kept,
    Manifest,
    Record,
    clear_stale_scratch,
    file_digest,
    scratch_folder,
    write_set,
)

Files = Mapping[str, "bytes | str"]  # names inside the output folder -> content
T = TypeVar("T")


class Deferred(Generic[T]):
    """What units' makes need (a rendered page), computed once, when the first of them is made
    (never as units are planned), and shared by them. It pickles as its value: a pooled make
    takes the page to its worker, not what renders it."""

    def __init__(self, compute: Callable[[], T]) -> None:
        self._compute: Callable[[], T] | None = compute
        self._value: list[T] = []

    def __call__(self) -> T:
        if self._compute is not None:
            self._value, self._compute = [self._compute()], None
        return self._value[0]

    def __getstate__(self) -> dict[str, Any]:
        return {"_compute": None, "_value": [self()]}


class Warned(dict[str, "bytes | str"]):
    """A unit's files, with what it found to warn of in them (a typeset page's make-up): the
    files are written, the warnings said once, however many units find the same."""

    def __init__(self, files: Files, warnings: Sequence[Diagnostic]) -> None:
        super().__init__(files)
        self.warnings = tuple(warnings)


class Step(str):
    """A progress message that also says how far its task is: 'rendering 4/16 PDFs (go-stop
    reference a4, letter)' with done=4, total=16. A str, so a reporter may show it as any
    message."""

    done: int
    total: int

    def __new__(cls, text: str, done: int, total: int) -> Step:
        step = super().__new__(cls, text)
        step.done, step.total = done, total
        return step


@dataclass(frozen=True)
class Unit:
    """What a generator makes of one game, made together. ``make`` returns its files, or the
    diagnostics that stop it. Recorded in the manifest under ``name`` with ``key``; with
    ``files`` (known before it is made), each file is a unit of its own instead, keyed by
    file_key(key, file). Either way a unit whose keys the manifest recorded, with every file it
    wrote still on disk as written, is not made again.

    ``pooled``: a long make (typesetting) started in the pool while later games are checked;
    its ``make`` must pickle (a module-level function, or a partial of one); ``ready``, if
    any, runs here as it goes to the pool (renders the page its make typesets) and says its
    weight. ``guarded``: it
    runs engine code, in a worker within the engine's budget; ``stopped`` says what a worker
    that stopped means. ``wanted=False``: listed (so the manifest keeps it) but not made."""

    name: str
    key: str
    make: Callable[[], Files | list[Diagnostic]]
    label: str = ""
    files: tuple[str, ...] | None = None
    pooled: bool = False
    weight: int = 0
    ready: Callable[[], int] | None = None
    guarded: bool = False
    stopped: Callable[[str], list[Diagnostic]] | None = None
    wanted: bool = True

    def records(self) -> dict[str, str]:
        """Manifest unit -> key."""
        if self.files is None:
            return {self.name: self.key}
        return {f: file_key(self.key, f) for f in self.files}


@dataclass(frozen=True)
class Paths:
    sources: Path
    out: Path
    project: Path | None = None


class Generator(Protocol):
    """One kind of output. ``options`` is a frozen dataclass: every field goes in the key of
    the generator's units (never a function's locals); what only selects among the units
    (--no-pdf, serve's pages) is not an option."""

    name: str
    # Every selected game is read, fresh or not (the kits check --only against them all).
    reads_every_game: bool
    # The names of its hooks in the shared check (validate/hooks.py: validate imports no
    # generator).
    checks: tuple[str, ...]
    # Whether its units need the shared check (every example proven ...); False: the game read
    # (its front matter valid) and the generator's own prepare() and check() are enough.
    checked: bool
    # Its units are made on every run, never fresh: what they hold is the run's (a simulation
    # plays again), not a function of their inputs.
    remakes: bool

    @property
    def options(self) -> Any: ...

    def planned(self, slug: str) -> list[str] | None:
        """The manifest units it would make of ``slug``, without reading it; None: those it
        recorded last time."""
        ...

    def replaces(self, slug: str, unit: str) -> bool:
        """Whether this run's units of ``slug`` stand in for ``unit``, one it made before: if
        it makes ``unit`` no more, its files are deleted. False for another variant's unit
        (a low-ink kit, a booklet), which stays beside this run's."""
        ...

    def prepare(self, docs: Sequence[Document]) -> None:
        """Sees the games read (every selected one, with ``reads_every_game``) before the
        check: options that name a game's parts are checked against them here."""
        ...

    def check(self, game: DocumentCheck) -> list[Diagnostic]:
        """Its own checks of a game that passed the shared check (preflight)."""
        ...

    def units(self, game: DocumentCheck, key: str) -> list[Unit]:
        """What it makes of ``game``; ``key`` digests the game's inputs and the options."""
        ...

    def recorded(self, slug: str) -> dict[str, Any]:
        """What to keep in the manifest about ``slug`` besides its key and units."""
        ...

    def pooled(self, doc: Document, key: str, manifest: Manifest) -> int:
        """How many pooled units it will make of ``doc`` (the pool's size is chosen by it)."""
        ...

    def finish(self, games: Mapping[str, Mapping[str, Any]]) -> Files:
        """Files of the whole output folder (an index), from every game's record (its own
        part of each: ``recorded`` and more), written when their content changed."""
        ...


class Base:
    """Defaults for a generator's optional parts."""

    reads_every_game = False
    checks: tuple[str, ...] = ()
    checked = True
    remakes = False

    def planned(self, slug: str) -> list[str] | None:
        return None

    def replaces(self, slug: str, unit: str) -> bool:
        return True

    def prepare(self, docs: Sequence[Document]) -> None:
        pass

    def check(self, game: DocumentCheck) -> list[Diagnostic]:
        return []

    def recorded(self, slug: str) -> dict[str, Any]:
        return {}

    def pooled(self, doc: Document, key: str, manifest: Manifest) -> int:
        return 0

    def finish(self, games: Mapping[str, Mapping[str, Any]]) -> Files:
        return {}


@dataclass
class Built:
    """What a run did: files written, files left as they were (their inputs unchanged), the
    games it checked and those it skipped."""

    out: Path
    written: list[Path]
    unchanged: int
    report: CheckedPrinting
    skipped: tuple[str, ...] = ()
    warnings: list[Diagnostic] = field(default_factory=list)  # found in what was made

    def summary(self) -> str:
        wrote = f"wrote {len(self.written)} file{_s(len(self.written))} to {self.out}"
        if self.unchanged:
            wrote += f", {self.unchanged} unchanged"
        if self.skipped:
            wrote += f" (inputs unchanged: {', '.join(self.skipped)})"
        found = [*self.report.diagnostics, *self.warnings]
        return f"{wrote}; {counted(found, self.report.count(Status.PROVEN))}"


def _s(n: int) -> str:
    return "" if n == 1 else "s"


@dataclass(frozen=True)
class RunOptions:
    games: tuple[str, ...] = ()
    force: bool = False  # make every unit, fresh or not
    draft: bool = False  # examples the rules disprove are warnings (bad input still stops)
    draw: bool = False  # draw each proven example's figures (the books need them)
    jobs: int = 0  # pool workers; 0: one per core


def generator_key(inputs: GameInputs, generator: Generator, engine: str | None,
                  project: Path | None) -> str:
    return inputs.key(engine, project, {"generator": generator.name, **asdict(generator.options)})


@dataclass
class _Run:
    """One run's state, shared by its phases."""

    paths: Paths
    generators: Sequence[Generator]
    reporter: Reporter
    options: RunOptions
    manifest: Manifest
    inputs: dict[str, GameInputs]
    record: Record
    outputs: dict[Path, bytes | str] = field(default_factory=dict)
    unchanged: int = 0
    guarded: list[Unit] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)

    def plan(self, result: DocumentCheck, pool: _Making) -> None:
        """Record ``result``'s game and start making its units (it has passed its check)."""
        doc = result.doc
        game = self.record.games[doc.slug] = {**(self.manifest.game(doc.slug) or {}),
                                              "engine": doc.meta.engine}
        for generator in self.generators:
            key = generator_key(self.inputs[doc.slug], generator, doc.meta.engine,
                                self.paths.project)
            units = generator.units(result, key)
            names = [name for u in units for name in u.records()]
            old = game.get(generator.name)
            before = [u for u in old.get("units", ()) if u not in names] if isinstance(
                old, dict) else []
            # Units of this run's variant it makes no more are deleted; other variants' stay
            # listed, so a later run of their variant still finds them.
            self.record.dropped |= {u for u in before if generator.replaces(doc.slug, u)}
            others = [u for u in before if not generator.replaces(doc.slug, u)]
            game[generator.name] = {"key": key, "units": names + others,
                                    **generator.recorded(doc.slug)}
            for unit in units:
                if not unit.wanted:
                    continue
                if not generator.remakes and all(self.manifest.fresh(n, k)
                                                 for n, k in unit.records().items()):
                    self.unchanged += len(unit.files or self.manifest.units[unit.name]["files"])
                elif unit.guarded:
                    self.guarded.append(unit)
                elif unit.pooled:
                    pool.add([unit])
                else:
                    self.keep(unit, unit.make())

    def keep(self, unit: Unit, made: Files | list[Diagnostic]) -> None:
        if isinstance(made, list):  # one paper's kit and another's stop alike: said once
            self.problems += [d for d in made if d not in self.problems]
            return
        if isinstance(made, Warned):
            new = [w for w in dict.fromkeys(made.warnings) if w not in self.warnings]
            self.warnings += new
            if new:
                self.reporter.diagnostics(new)
        self.outputs |= {self.paths.out / name: data for name, data in made.items()}
        if unit.files is None:
            self.record.unit(unit.name, unit.key, made)
        else:
            for name, key in unit.records().items():
                self.record.unit(name, key, {name: made[name]})


@dataclass(frozen=True)
class Checked:
    """A printing checked before its run (a command compares it with another first): the games
    as read, their check, and the plots it took from the output folder's earlier run."""

    docs: tuple[Document, ...]
    printing: CheckedPrinting
    kept: Kept


def check(paths: Paths, reporter: Reporter, options: RunOptions, checks: Sequence[str]
          ) -> Checked:
    """The printing :func:`run` would check, checked now, every selected game (fresh or not),
    for a command to use before its run and then hand to it (``run(..., checked=)``), so it
    is checked once; ``checks``: the hooks the run would run (its generators' and those it
    names). Nothing is raised or said of its diagnostics: the run does that."""
    slugs = source_games(paths.sources, options.games)
    manifest = Manifest(paths.out) if options.force else Manifest.load(paths.out)
    docs = tuple(read_sources(paths.sources, slugs)) if slugs else ()
    checking(docs, reporter)
    kept = Kept(manifest)
    printing = check_printing(docs, project=paths.project, draw=options.draw, kept=kept,
                              hooks=Hooks.named(checks))
    return Checked(docs, printing, kept)


def run(paths: Paths, generators: Sequence[Generator], reporter: Reporter,
        options: RunOptions = RunOptions(), checks: Sequence[str] = (),
        checked: Checked | None = None) -> Built:
    """Read, check and make every game's units for ``generators``, then write them at once. On
    any error nothing is written and every diagnostic is raised together. The check is the
    shared one with every generator's hooks and those named in ``checks`` (a command that
    makes one output still reports what would stop the others: validate.hooks.EVERY); with
    ``checked`` (:func:`check`'s, with the same generators and options) it is that printing,
    not checked again."""
    if options.jobs < 0:  # as simulate says: it would pass for one process, unlike -j -1 elsewhere
        raise RulepressError.at(None, f"--jobs {options.jobs}: give a number of processes, or 0 "
                                      "for one per core")
    slugs = source_games(paths.sources, options.games)
    manifest = Manifest(paths.out) if options.force else Manifest.load(paths.out)
    inputs = {slug: game_inputs(paths.sources / slug, (paths.out,)) for slug in slugs}
    skipped = tuple(s for s in slugs if _fresh(manifest, inputs[s], generators, paths))
    if skipped:
        reporter.progress(f"unchanged: {', '.join(skipped)}")
    every = any(g.reads_every_game for g in generators)
    read = [s for s in slugs if every or s not in skipped]
    if checked is not None:
        docs = [d for d in checked.docs if d.slug in read]
    else:
        docs = read_sources(paths.sources, read) if read else []  # none: it would read them all
    for generator in generators:
        generator.prepare(docs)
    docs = [d for d in docs if d.slug not in skipped]
    state = _Run(paths, generators, reporter, options, manifest, inputs,
                 Record(keep_games=frozenset(source_games(paths.sources))))
    state.unchanged = sum(_files(manifest, u) for slug in skipped
                          for u in _units(manifest, slug, generators))
    kept = Kept(manifest) if checked is None else checked.kept
    pooled = sum(g.pooled(doc, generator_key(inputs[doc.slug], g, doc.meta.engine,
                                             paths.project), manifest)
                 for doc in docs for g in generators)
    if not all(g.checked for g in generators):  # the games as read, and the generators' checks
        report = _unchecked(docs, state)
    else:
        with _pool(options.jobs, pooled) as pool:
            extra = [g.check for g in generators]
            report = CheckedPrinting([])
            if checked is None:
                games = passing(docs, report, said=reporter, project=paths.project,
                                hooks=Hooks.named(checks, *(g.checks for g in generators)),
                                draw=options.draw, draft=options.draft, kept=kept, extra=extra)
            else:
                games = hand_on((g for g in checked.printing.documents
                                 if g.doc.slug not in skipped), said=reporter, into=report,
                                draft=options.draft, extra=extra)
            failed: RulepressError | None = None  # said after the check's own diagnostics
            for game in games:  # each as it passes: its units start while the next is checked
                if failed is None:
                    try:
                        state.plan(game, pool)
                    except RulepressError as exc:
                        failed = exc
            if failed is not None:
                raise failed
            for unit_name, (key, text) in kept.made.items():
                state.outputs[paths.out / unit_name] = text
                state.record.unit(unit_name, key, {unit_name: text})
            for unit, made in pool.results(reporter):
                state.keep(unit, made)
    _make_guarded(state)
    if state.problems:  # every unit made first: all problems at once, nothing written
        raise RulepressError(state.problems)
    _finish(state)
    written = write_set(paths.out, state.outputs, state.record)
    return Built(paths.out, written, state.unchanged, report, skipped, state.warnings)


def _unchecked(docs: Sequence[Document], state: _Run) -> CheckedPrinting:
    """For generators that need no shared check: each game as read (its front matter valid),
    each generator's own check of it, then its units made here."""
    report = CheckedPrinting([])
    for doc in docs:
        result = DocumentCheck(doc, None)
        for generator in state.generators:
            result.diagnostics += generator.check(result)
        report.documents.append(result)
    status = exit_status(report.diagnostics)
    if status is not ExitStatus.OK:
        raise RulepressError(report.diagnostics, status)
    if report.diagnostics:
        state.reporter.diagnostics(report.diagnostics)
    making = _Making(None)
    for result in report.documents:
        state.plan(result, making)
    for unit, made in making.results(state.reporter):
        state.keep(unit, made)
    return report


def _make_guarded(state: _Run) -> None:
    """Units that run engine code, each in a worker (a drawer that ends its process or crashes
    is reported, not the end of the run)."""
    units = state.guarded

    def made(n: int) -> Files | list[Diagnostic]:
        return units[n].make()

    with engine_workers(made) as pool:
        for n, unit in enumerate(units):
            if unit.label:
                state.reporter.progress(unit.label)
            pool.submit(n)
            _, value = next(pool.results())
            if isinstance(value, WorkerStopped):
                value = unit.stopped(value.how) if unit.stopped is not None else [
                    Diagnostic(None, Severity.ERROR, f"{unit.name}: a worker {value.how}")]
            state.keep(unit, value)


def _finish(state: _Run) -> None:
    """Each generator's files of the whole folder, from the games as recorded after this run."""
    games = {**state.manifest.games, **state.record.games}
    keep = state.record.keep_games
    games = {slug: g for slug, g in games.items() if keep is None or slug in keep}
    for generator in state.generators:
        part = {slug: g[generator.name] for slug, g in sorted(games.items())
                if isinstance(g.get(generator.name), dict)}
        for name, data in generator.finish(part).items():
            key = file_digest(data.encode("utf-8") if isinstance(data, str) else data)
            if state.manifest.fresh(name, key):
                state.unchanged += 1
            else:
                state.outputs[state.paths.out / name] = data
                state.record.unit(name, key, {name: data})


def _fresh(manifest: Manifest, inputs: GameInputs, generators: Sequence[Generator],
           paths: Paths) -> bool:
    """Whether the manifest recorded this game's current key for every generator, and every
    unit each would make is fresh (the engine the game named then stands for the one it names
    now: the folder is hashed whole, so if the name changed, so did the key)."""
    built = manifest.game(inputs.slug)
    if built is None or any(g.remakes for g in generators):
        return False
    engine = built.get("engine")
    for g in generators:
        made = built.get(g.name)
        if not isinstance(made, dict) or made.get("key") != generator_key(
                inputs, g, engine, paths.project):
            return False
        names = g.planned(inputs.slug)
        for name in made.get("units", []) if names is None else names:
            if not g.replaces(inputs.slug, name):
                continue  # another variant's: not this run's to make
            unit = manifest.units.get(name)
            if not isinstance(unit, dict) or not manifest.fresh(name, unit.get("key", "")):
                return False
    return True


def _units(manifest: Manifest, slug: str, generators: Sequence[Generator]) -> list[str]:
    """The units the manifest says ``generators`` would make of ``slug``."""
    built = manifest.game(slug) or {}
    names: list[str] = []
    for g in generators:
        planned = g.planned(slug)
        made = built.get(g.name)
        names += planned if planned is not None else [
            n for n in (made.get("units", []) if isinstance(made, dict) else [])
            if g.replaces(slug, n)]
    return [n for n in names if n in manifest.units]


def _files(manifest: Manifest, unit: str) -> int:
    return len(manifest.units[unit].get("files", ()))


# Pooled units: made by the one pool's workers (workers.py) as soon as their game has passed its
# check, while the next game is checked.

class _Making:
    """Pooled units, made by ``pool``'s workers, the heaviest waiting one first, or here one
    after the other once the check has passed (``pool`` None: one process would do)."""

    def __init__(self, pool: Workers[tuple[int, Callable[[], Any]]] | None) -> None:
        self.units: list[Unit] = []
        self._pool = pool

    def add(self, units: Sequence[Unit]) -> None:
        for unit in units:
            if self._pool is not None:
                weight = unit.ready() if unit.ready is not None else unit.weight
                self._pool.submit((len(self.units), unit.make), weight)
            self.units.append(unit)

    def results(self, reporter: Reporter) -> Iterator[tuple[Unit, Files | list[Diagnostic]]]:
        counter = _Counter(self.units, reporter)
        if self._pool is None:
            made: Any
            for unit in self.units:
                made = unit.make()
                counter.finished(unit)
                yield unit, made
            return
        for (index, _), made in self._pool.results():
            if isinstance(made, WorkerStopped):
                # A pool would replace a worker the kernel killed (out of memory) and wait for
                # its unit forever: the run fails instead.
                code = made.code
                how = (f"killed by signal {-code}" if code is not None and code < 0
                       else f"exit status {code}")
                raise RulepressError.at(None, f"a PDF worker process stopped ({how}), perhaps "
                                              "for lack of memory: nothing was written")
            counter.finished(self.units[index])
            yield self.units[index], made


def _worker_ready(parent: int) -> None:
    """A worker imports WeasyPrint itself (a third of a second) while this process checks."""
    worker_started(parent)
    # Loading its libraries, cffi asks ctypes.util.find_library, which writes temporary files:
    # in the worker's scratch folder, which the run clears if it stops the worker meanwhile.
    with scratch_folder():
        import weasyprint  # noqa: F401


def _make(item: tuple[int, Callable[[], Any]]) -> Any:
    return item[1]()


class _Counter:
    """Progress as pooled units are made: 'rendering 4/16 PDFs (go-stop reference a4, letter)'
    (a unit counts as its files)."""

    def __init__(self, units: Sequence[Unit], reporter: Reporter) -> None:
        self.total = sum(len(u.files or (u.name,)) for u in units)
        self.noun = "PDFs" if all(f.endswith(".pdf") for u in units
                                  for f in u.files or (u.name,)) else "files"
        self.done = 0
        self.reporter = reporter
        if units:
            reporter.progress(Step(f"rendering {self.total} {self.noun}", 0, self.total))

    def finished(self, unit: Unit) -> None:
        self.done += len(unit.files or (unit.name,))
        self.reporter.progress(Step(
            f"rendering {self.done}/{self.total} {self.noun} ({unit.label})",
            self.done, self.total))


@contextmanager
def _pool(workers: int, units: int) -> Iterator[_Making]:
    """Where pooled units go: the pool's workers (``workers``, 0: one per core; started at once,
    so each imports WeasyPrint while the check runs) when more than one would work, else this
    process after the check. A failure, Ctrl-C or SIGTERM stops every worker at once."""
    workers = min(workers or os.cpu_count() or 1, units)
    if workers <= 1:
        yield _Making(None)
        return
    try:
        with typesetters(_make, workers, start=_worker_ready) as pool:
            yield _Making(pool)
    finally:
        clear_stale_scratch()  # what workers stopped in a render left

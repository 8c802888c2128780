"""The pipeline: read everything, check everything, render, then write every file atomically."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import queue
import signal
import threading
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol

from rulepress import limits
from rulepress.cache import (
    GameInputs,
    Kept,
    Manifest,
    Record,
    digest,
    file_digest,
    game_inputs,
)
from rulepress.diagnostics import (
    Diagnostic,
    ExitStatus,
    RulepressError,
    Severity,
    SourceLoc,
    counted,
    error,
    exit_status,
)
from rulepress.document.editions import EDITIONS, PLAYER, REFERENCE
from rulepress.document.model import Document
from rulepress.document.reader import read_sources, source_games
from rulepress.games import contract
from rulepress.project import DEFAULT_TITLE
from rulepress.render import (
    FALLBACK_EPOCH,
    FONTS,
    PAPER_NAMES,
    IndexEntry,
    render_html,
    render_index,
    templates_dir,
)
from rulepress.sandbox import Timeout, deadline
from rulepress.signals import deferred, worker_started
from rulepress.validate.check import (
    CheckReport,
    DocumentCheck,
    EngineChecks,
    check_document,
    check_kit,
    engine_raised,
)
from rulepress.validate.results import RenderedExample, Status
from rulepress.workers import Stopped, Workers
from rulepress.write import clear_stale_scratch, scratch_folder, write_set


class Progress(Protocol):
    """Where a command says what it does: ``progress`` gets a plain message, or a Step."""

    def progress(self, message: str) -> None: ...
    def diagnostics(self, diagnostics: list[Diagnostic]) -> None: ...


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
class PdfJob:
    """One typesetting of a page and the PDFs written from it: one per paper (render_pdfs), or
    a booklet's."""

    slug: str
    html: str
    base_url: Path
    roots: tuple[Path, ...]
    files: tuple[BookFile, ...]  # its PDFs, by their names inside the output folder
    key: str  # the key of the game's inputs, from which each file's is digested

    @property
    def label(self) -> str:
        """What progress calls it: 'go-stop reference a4, letter'."""
        first, *others = self.files
        return ", ".join([first.label, *(f.paper or "" for f in others)])


def check_phase(
    docs: Sequence[Document],
    project: Path | None,
    reporter: Progress,
    *,
    draw: bool = False,
    draft: bool = False,
    passed: Callable[[DocumentCheck], None] | None = None,
    kept: Kept | None = None,
) -> CheckReport:
    """The check every command runs before writing anything: on any error, raise with every
    diagnostic and the exit status of the worst one. ``draft`` lets examples the rules disprove
    through as warnings (bad input still stops). ``passed`` is given each game as soon as it
    and every game before it have passed, so its rendering can start while the next is checked
    (and while its own kit is: the last part of the check, which no page depends on).
    """
    if docs:
        reporter.progress(f"checking {len(docs)} game{_s(len(docs))}")
    report = CheckReport([])
    failed: RulepressError | None = None  # by ``passed``: reported after the check's own

    def shown() -> list[Diagnostic]:
        return [Diagnostic(d.loc, Severity.WARNING, d.message) if draft and d.disproved else d
                for d in report.diagnostics]

    with EngineChecks(docs, project, draw) as engines:
        for doc in docs:
            result = check_document(doc, project=project, draw=draw, kit=passed is None,
                                    kept=kept, engines=engines)
            report.documents.append(result)
            if passed is not None:
                if failed is None and exit_status(shown()) is ExitStatus.OK:
                    try:
                        passed(result)
                    except RulepressError as exc:
                        failed = exc
                result.add_kit(check_kit(result, engines))
    status = exit_status(shown())
    if status is not ExitStatus.OK:
        raise RulepressError(shown(), status)
    reporter.diagnostics(shown())
    if failed is not None:
        raise failed
    return report


@dataclass(frozen=True)
class BookFile:
    """One file of a game's rulebooks: its path inside the output folder and what it holds."""

    name: str
    edition: str
    paper: str | None = None  # None: the HTML page
    booklet: bool = False

    @property
    def label(self) -> str:
        """'go-stop letter', 'go-stop reference a4', 'go-stop a4 booklet'."""
        slug = self.name.split("/")[0]
        parts = [slug, *([self.edition] if self.edition != PLAYER else []), self.paper or "html"]
        return " ".join(parts + (["booklet"] if self.booklet else []))


def book_files(slug: str, editions: Sequence[str], papers: Sequence[str],
               booklet: bool) -> list[BookFile]:
    files = []
    for edition in editions:
        files.append(BookFile(f"{slug}/{book_name(slug, edition)}", edition))
        files += [BookFile(f"{slug}/{book_name(slug, edition, p)}", edition, p) for p in papers]
        if booklet and edition == PLAYER:
            files += [BookFile(f"{slug}/{booklet_name(slug, p)}", edition, p, booklet=True)
                      for p in papers]
    return files


@dataclass
class Built:
    """What a build or pnp run did: files written, files left as they were (their inputs
    unchanged), the games it checked and those it skipped."""

    out: Path
    written: list[Path]
    unchanged: int
    report: CheckReport
    skipped: tuple[str, ...] = ()

    def summary(self) -> str:
        wrote = f"wrote {len(self.written)} file{_s(len(self.written))} to {self.out}"
        if self.unchanged:
            wrote += f", {self.unchanged} unchanged"
        if self.skipped:
            wrote += f" (inputs unchanged: {', '.join(self.skipped)})"
        return f"{wrote}; {counted(self.report.diagnostics, self.report.count(Status.PROVEN))}"


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def build_rulebooks(
    sources: Path,
    out: Path,
    *,
    games: Sequence[str] = (),
    papers: Sequence[str] = ("a4", "letter"),
    draft: bool = False,
    jobs: int = 0,
    editions: Sequence[str] = EDITIONS,
    project: Path | None = None,
    title: str = DEFAULT_TITLE,
    booklet: bool = False,
    reporter: Progress,
    pdf: bool = True,
    only: Collection[str] | None = None,
    force: bool = False,
) -> Built:
    """Check, then write for each game and edition an HTML page and a PDF per paper, and
    out/index.html linking every game built into ``out`` (with the kits `pnp` writes).
    ``booklet`` adds the player edition imposed as a booklet per paper.

    Outputs whose inputs are unchanged (cache.py) are neither rendered nor rewritten; a game
    whose outputs are all unchanged is not even read. ``force``: rebuild everything.
    ``pdf=False``: the HTML pages only (their links to the PDFs stay). ``only``: the outputs,
    by path inside ``out``, to make; the others are left as they are."""
    if booklet and PLAYER not in editions:
        raise RulepressError.at(None, "--booklet imposes the player edition: build it too "
                                      "(--edition player or both)")
    if jobs < 0:  # as simulate says: it would pass for one process, unlike -j -1 elsewhere
        raise RulepressError.at(None, f"--jobs {jobs}: give a number of processes, or 0 for "
                                "one per core")

    # A fixed default keeps bytes (and the PDFs' dates) identical when the caller sets no epoch.
    os.environ.setdefault("SOURCE_DATE_EPOCH", FALLBACK_EPOCH)
    options = {"papers": list(papers), "editions": list(editions), "booklet": booklet,
               "draft": draft, "epoch": os.environ["SOURCE_DATE_EPOCH"]}
    slugs = source_games(sources, games)
    manifest = Manifest(out) if force else Manifest.load(out)
    wanted = {slug: [f for f in book_files(slug, editions, papers, booklet)
                     if (pdf or f.paper is None) and (only is None or f.name in only)]
              for slug in slugs}
    inputs = {slug: game_inputs(sources / slug, (out,)) for slug in slugs}
    skipped = tuple(slug for slug in slugs
                    if _game_fresh(manifest, inputs[slug], wanted[slug], project, options))
    if skipped:
        reporter.progress(f"unchanged: {', '.join(skipped)}")

    stale = [slug for slug in slugs if slug not in skipped]
    docs = read_sources(sources, stale) if stale else []
    available = frozenset(source_games(sources))
    record = Record(keep_games=available)
    outputs: dict[Path, bytes | str] = {}
    unchanged = sum(len(wanted[slug]) for slug in skipped)
    keys = {doc.slug: inputs[doc.slug].key(doc.meta.engine, project, options) for doc in docs}
    todo = {doc.slug: [f for f in wanted[doc.slug]
                       if not manifest.fresh(f.name, digest(keys[doc.slug], f.name))]
            for doc in docs}

    def passed(result: DocumentCheck) -> None:
        """Write a checked game's pages into ``outputs``; hand its PDFs to the typesetters."""
        nonlocal unchanged
        doc = result.doc
        key = keys[doc.slug]
        unchanged += len(wanted[doc.slug]) - len(todo[doc.slug])
        pages, entry = _render_pages(doc, result.examples, editions, papers, booklet)
        record.games[doc.slug] = {"engine": doc.meta.engine, "key": key, "entry": asdict(entry)}
        for f in todo[doc.slug]:
            if f.paper is None:
                outputs[out / f.name] = pages[f.edition]
                record.unit(f.name, digest(key, f.name), {f.name: pages[f.edition]})
        typesetters.add([PdfJob(doc.slug, pages[files[0].edition], doc.folder,
                                (doc.folder.resolve(), templates_dir()), tuple(files), key)
                         for files in _typesettings(todo[doc.slug])])

    pdf_jobs = sum(len(_typesettings(files)) for files in todo.values())
    kept = Kept(manifest)
    with _typesetters(jobs, pdf_jobs) as typesetters:
        report = check_phase(docs, project, reporter, draw=True, draft=draft, passed=passed,
                             kept=kept)
        for unit, (unit_key, made) in kept.made.items():
            outputs[out / unit] = made
            record.unit(unit, unit_key, {unit: made})
        for job, pdfs in typesetters.results(reporter):
            for f, data in zip(job.files, pdfs, strict=True):
                outputs[out / f.name] = data
                record.unit(f.name, digest(job.key, f.name), {f.name: data})
    games_built = {**manifest.games, **record.games}
    entries = [_entry(games_built[slug]["entry"]) for slug in sorted(games_built)
               if slug in available and "entry" in games_built[slug]]
    content: dict[str, bytes | str] = {"index.html": render_index(entries, title=title)}
    # The HTML pages use the same bundled fonts as the PDFs.
    for font in sorted((templates_dir() / "fonts").iterdir()):
        content[f"{FONTS}/{font.name}"] = font.read_bytes()
    for name, text in content.items():
        key = file_digest(text.encode("utf-8") if isinstance(text, str) else text)
        if manifest.fresh(name, key):
            unchanged += 1
        else:
            outputs[out / name] = text
            record.unit(name, key, {name: text})
    written = write_set(out, outputs, record)
    return Built(out, written, unchanged, report, skipped)


def _typesettings(files: Sequence[BookFile]) -> list[list[BookFile]]:
    """The PDFs among ``files``, by typesetting: an edition's papers share one (render_pdfs),
    a booklet is typeset on its own."""
    groups: dict[tuple[str, str | None], list[BookFile]] = {}
    for f in files:
        if f.paper is not None:
            groups.setdefault((f.edition, f.paper if f.booklet else None), []).append(f)
    return list(groups.values())


def _game_fresh(manifest: Manifest, inputs: GameInputs, files: Sequence[BookFile],
                project: Path | None, options: Mapping[str, Any]) -> bool:
    """Whether every file ``files`` lists was made from the game's inputs as they are now."""
    key = _recorded_key(manifest, inputs, project, options)
    return key is not None and all(manifest.fresh(f.name, digest(key, f.name)) for f in files)


def _recorded_key(manifest: Manifest, inputs: GameInputs, project: Path | None,
                  options: Mapping[str, Any]) -> str | None:
    """The game's key now, if the manifest recorded the same one for it (else None). The
    engine the game named when it was built stands for the one it names now: the folder is
    hashed whole, so if the name changed, so did the key."""
    built = manifest.game(inputs.slug)
    if built is None:
        return None
    key = inputs.key(built.get("engine"), project, options)
    return key if built.get("key") == key else None


def _render_pages(doc: Document, examples: Mapping[str, RenderedExample],
                  editions: Sequence[str], papers: Sequence[str],
                  booklet: bool) -> tuple[dict[str, str], IndexEntry]:
    """Each edition's HTML page of ``doc``, and its entry on the index."""
    kits = kit_links(doc, papers)
    pages: dict[str, str] = {}
    index_links: list[tuple[str, str]] = []
    for edition in editions:
        pdfs = {paper: book_name(doc.slug, edition, paper) for paper in papers}
        booklets = ({paper: booklet_name(doc.slug, paper) for paper in papers}
                    if booklet and edition == PLAYER else {})
        links = {f"PDF ({paper_name(p)})": name for p, name in pdfs.items()}
        links |= {f"Booklet ({paper_name(p)})": name for p, name in booklets.items()}
        links |= {f"{EDITION_NAMES[other]} (HTML)": book_name(doc.slug, other)
                  for other in editions if other != edition}
        links |= {f"Print-and-play ({k})": f"../{v}" for k, v in kits.items()}
        pages[edition] = render_html(doc, examples, edition=edition, links=links,
                                     fonts_href=f"../{FONTS}")
        index_links.append((f"{EDITION_NAMES[edition]} (HTML)",
                            f"{doc.slug}/{book_name(doc.slug, edition)}"))
        index_links += [(f"{EDITION_NAMES[edition]}, PDF ({paper_name(p)})",
                         f"{doc.slug}/{name}") for p, name in pdfs.items()]
        index_links += [(f"{EDITION_NAMES[edition]}, booklet ({paper_name(p)})",
                         f"{doc.slug}/{name}") for p, name in booklets.items()]
    index_links += [(f"Print-and-play kit ({k})", v) for k, v in kits.items()]
    entry = IndexEntry(
        title=doc.meta.title,
        subtitle=doc.meta.subtitle,
        players=doc.meta.players,
        duration=doc.meta.duration,
        html=index_links[0][1],
        links=tuple(index_links),
    )
    return pages, entry


def _entry(data: Mapping[str, Any]) -> IndexEntry:
    """An index entry as the manifest keeps it (JSON: lists for tuples)."""
    return IndexEntry(**{**data, "links": tuple((k, v) for k, v in data["links"])})


def kit_links(doc: Document, papers: Sequence[str]) -> dict[str, str]:
    """Label -> href, relative to build/, of the kits `rulepress pnp` writes into pnp/."""
    if not any(c.in_kit for c in doc.meta.components):
        return {}
    from rulepress.pnp.kit import kit_path, variant_names

    links = {}
    for variant in ["", *variant_names(doc)]:
        for paper in papers:
            label = paper_name(paper) + (f", {variant}" if variant else "")
            links[label] = kit_path(Path("../pnp"), doc.slug, paper, variant).as_posix()
    return links


EDITION_NAMES = {PLAYER: "Rulebook", REFERENCE: "Reference edition"}


def book_name(slug: str, edition: str, paper: str | None = None) -> str:
    """pigeon.html, pigeon-a4.pdf; pigeon-reference.html, pigeon-reference-a4.pdf."""
    stem = slug if edition == PLAYER else f"{slug}-{edition}"
    return f"{stem}.html" if paper is None else f"{stem}-{paper}.pdf"


def booklet_name(slug: str, paper: str) -> str:
    """pigeon-a4-booklet.pdf: the player edition, imposed for saddle stitching."""
    return f"{slug}-{paper}-booklet.pdf"


def paper_name(paper: str) -> str:
    return PAPER_NAMES[paper]


def _render_pdf(job: PdfJob) -> tuple[bytes, ...]:
    from rulepress.render.booklet import render_booklet
    from rulepress.render.pdf import render_pdfs

    papers = [f.paper for f in job.files if f.paper is not None]
    try:
        with scratch_folder(), deadline(limits.RENDER_SECONDS):
            if job.files[0].booklet:
                return (render_booklet(job.html, papers[0], base_url=job.base_url,
                                       allowed_roots=job.roots),)
            pdfs = render_pdfs(job.html, papers, base_url=job.base_url, allowed_roots=job.roots)
            return tuple(pdfs[p] for p in papers)
    except OSError as exc:  # a full or unwritable temporary folder
        where = f" ({exc.filename})" if exc.filename else ""
        raise RulepressError.at(None, f"cannot render {Path(job.files[0].name).name}: "
                                      f"{exc.strerror or exc}{where}") from None
    except Timeout:
        # Nothing else bounds typesetting: a few lines of CSS (flex boxes nested in one another)
        # can make its work grow without end. The game's print.css is the likely cause.
        css = job.base_url / "templates" / "print.css"
        raise RulepressError.at(
            SourceLoc(css, 1) if css.is_file() else None,
            f"cannot render {Path(job.files[0].name).name}: typesetting took more than "
            f"{limits.RENDER_SECONDS:g} s of CPU time (RENDER_SECONDS, see Limits in "
            "docs/authoring.md)") from None


def _weight(job: PdfJob) -> int:
    """What a job's typesetting time is taken to be: its page's length, and its papers."""
    return len(job.html) * (1 + len(job.files))


class _Serial:
    """PDF jobs typeset one after the other once the check has passed."""

    def __init__(self) -> None:
        self.jobs: list[PdfJob] = []

    def add(self, jobs: Sequence[PdfJob]) -> None:
        self.jobs += jobs

    def results(self, reporter: Progress) -> Iterator[tuple[PdfJob, tuple[bytes, ...]]]:
        counter = _Counter(self.jobs, reporter)
        for job in self.jobs:
            pdfs = _render_pdf(job)
            counter.finished(job)
            yield job, pdfs


class _Pool:
    """PDF jobs typeset by forked worker processes as soon as their game has passed its check,
    the largest waiting job first, while this process checks the next game."""

    def __init__(self, workers: int) -> None:
        self.jobs: list[PdfJob] = []
        self._workers = workers
        self._waiting: list[int] = []
        self._busy = 0
        self._lock = threading.Lock()
        self._done: queue.SimpleQueue[tuple[int, tuple[bytes, ...] | BaseException]] = (
            queue.SimpleQueue())
        before = set(multiprocessing.active_children())
        self._pool = multiprocessing.get_context("fork").Pool(
            workers, initializer=_worker_ready, initargs=(os.getpid(),))
        # A pool quietly replaces a worker that dies, and its job never returns: watched, so a
        # worker the kernel kills (out of memory) fails the build instead of hanging it.
        self._processes = [p for p in multiprocessing.active_children() if p not in before]

    def add(self, jobs: Sequence[PdfJob]) -> None:
        with self._lock:
            self._waiting += range(len(self.jobs), len(self.jobs) + len(jobs))
            self.jobs += jobs
            self._start()

    def _start(self) -> None:
        """Hand the largest waiting jobs to idle workers (called holding the lock)."""
        while self._busy < self._workers and self._waiting:
            index = max(self._waiting, key=lambda i: _weight(self.jobs[i]))
            self._waiting.remove(index)
            self._busy += 1
            self._pool.apply_async(_render_indexed, (index, self.jobs[index]),
                                   callback=self._finished, error_callback=self._failed)

    def _finished(self, result: tuple[int, tuple[bytes, ...]]) -> None:
        # In the pool's result thread: the next job starts now, not when the check is done.
        self._done.put(result)
        with self._lock:
            self._busy -= 1
            self._start()

    def _failed(self, exc: BaseException) -> None:
        self._done.put((-1, exc))

    def results(self, reporter: Progress) -> Iterator[tuple[PdfJob, tuple[bytes, ...]]]:
        counter = _Counter(self.jobs, reporter)
        for _ in self.jobs:
            while True:
                try:  # with a timeout, so that a signal is handled while waiting
                    index, pdfs = self._done.get(timeout=0.2)
                    break
                except queue.Empty:
                    self._check_workers()
            if isinstance(pdfs, BaseException):
                raise pdfs
            counter.finished(self.jobs[index])
            yield self.jobs[index], pdfs
        self._pool.close()
        self._pool.join()

    def _check_workers(self) -> None:
        for process in self._processes:
            if not process.is_alive():
                code = process.exitcode
                how = (f"killed by signal {-code}" if code is not None and code < 0
                       else f"exit status {code}")
                raise RulepressError.at(None, f"a PDF worker process stopped ({how}), perhaps "
                                              "for lack of memory: nothing was written")

    def stop(self) -> None:
        # A SIGTERM that reaches a worker as it is being forked is lost (Python clears the
        # signals pending in a new child), and terminate() then waits for that worker forever:
        # while it runs, every worker still alive is sent SIGTERM again.
        stopping = threading.Thread(target=self._pool.terminate, name="rulepress-stop")
        stopping.start()
        while stopping.is_alive():
            stopping.join(0.2)
            for process in self._processes:
                if process.is_alive() and process.pid is not None:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(process.pid, signal.SIGTERM)
        self._pool.join()
        clear_stale_scratch()


def _worker_ready(parent: int) -> None:
    """A worker imports WeasyPrint itself (a third of a second) while this process checks."""
    worker_started(parent)
    # Loading its libraries, cffi asks ctypes.util.find_library, which writes temporary files:
    # in the worker's scratch folder, which the build clears if it stops the worker meanwhile.
    with scratch_folder():
        import weasyprint  # noqa: F401


def _render_indexed(index: int, job: PdfJob) -> tuple[int, tuple[bytes, ...]]:
    return index, _render_pdf(job)


class _Counter:
    """Progress as PDFs are finished: 'rendering 4/16 PDFs (go-stop reference a4, letter)'."""

    def __init__(self, jobs: Sequence[PdfJob], reporter: Progress) -> None:
        self.total = sum(len(job.files) for job in jobs)
        self.done = 0
        self.reporter = reporter
        if jobs:
            reporter.progress(Step(f"rendering {self.total} PDFs", 0, self.total))

    def finished(self, job: PdfJob) -> None:
        self.done += len(job.files)
        self.reporter.progress(Step(f"rendering {self.done}/{self.total} PDFs ({job.label})",
                                    self.done, self.total))


@contextmanager
def _typesetters(workers: int, jobs: int) -> Iterator[_Serial | _Pool]:
    """Where PDF jobs go: worker processes (``workers``, 0: one per core) when more than one
    would work, else this process after the check. A failure, Ctrl-C or SIGTERM stops every
    worker at once."""
    workers = min(workers or os.cpu_count() or 1, jobs)
    if workers <= 1:
        yield _Serial()
        return
    pool: _Pool | None = None
    try:
        # A stop signal waits until the pool is whole: stopped half-made, its workers were left
        # to die with this process, and their scratch folders stayed.
        with deferred():
            pool = _Pool(workers)
        yield pool
    except BaseException:
        if pool is not None:
            pool.stop()
        raise


def build_kits(
    sources: Path,
    out: Path,
    *,
    games: Sequence[str] = (),
    papers: Sequence[str] = ("a4", "letter"),
    duplex: str = "long",
    bleed_mm: float = 3.0,
    project: Path | None = None,
    reporter: Progress,
    proof: bool = False,
    sides: str = "two",
    ink: str = "normal",
    only: Sequence[str] | None = None,
    force: bool = False,
) -> Built:
    """Check every game as build does, draw every kit, and only then write them all.
    ``proof``: instead of the kits, one page per game showing each distinct face at 1:1
    (out/<game>/<game>-proof.pdf). ``sides``, ``ink``, ``only``: see pnp.kit.Options. A game
    whose kit's inputs (and these options) are unchanged is skipped; ``force``: draw every kit."""
    # Every keyword but where to read and write is an option of the kits: all go in their key.
    options = {name: value for name, value in locals().items()
               if name not in ("sources", "out", "games", "project", "reporter", "force")}
    from rulepress.pnp.kit import draw_kits, kit_options
    from rulepress.pnp.proof import proof as proof_page

    if not 0 <= bleed_mm <= 10:
        raise RulepressError.at(None, f"--bleed {bleed_mm} mm is out of range (0 to 10)")

    slugs = source_games(sources, games)
    manifest = Manifest(out) if force else Manifest.load(out)
    inputs = {slug: game_inputs(sources / slug, (out,)) for slug in slugs}
    docs = read_sources(sources, slugs)
    kit_opts = kit_options(docs, sides=sides, ink=ink, duplex=duplex, bleed_mm=bleed_mm,
                           only=only)
    skipped = tuple(slug for slug in slugs if _kit_fresh(manifest, inputs[slug], project, options))
    if skipped:
        reporter.progress(f"unchanged: {', '.join(skipped)}")
    report = check_phase([d for d in docs if d.slug not in skipped], project, reporter)
    record = Record()
    outputs: dict[Path, bytes | str] = {}
    problems: list[Diagnostic] = []
    todo: list[DocumentCheck] = []
    for result in report.documents:
        doc = result.doc
        record.games[doc.slug] = {"engine": doc.meta.engine,
                                  "key": inputs[doc.slug].key(doc.meta.engine, project, options)}
        if any(c.in_kit and (kit_opts.only is None or c.id in kit_opts.only)
               for c in doc.meta.components):
            todo.append(result)
        else:
            record.dropped.add(doc.slug)

    def drawn(n: int) -> Mapping[Path, bytes | str] | list[Diagnostic]:
        """Game ``n``'s kit (or proof), or what stops it; in a worker when its engine draws
        (workers.py), so a drawer that ends its process or crashes is reported."""
        doc, engine = todo[n].doc, todo[n].engine
        try:
            drawers, tables = contract.drawers(engine), contract.tables(engine)
            if proof:
                return {out / doc.slug / f"{doc.slug}-proof.pdf":
                        proof_page(doc, drawers, tables, bleed_mm=bleed_mm)}
            return draw_kits(doc, drawers, papers, out, tables=tables, options=kit_opts)
        except RulepressError as exc:
            return exc.diagnostics
        except BaseException as exc:  # noqa: BLE001 - the engine's own error (an exit too)
            return [engine_raised(exc, engine, "drawing its kit", doc.meta.engine_loc)]

    with Workers(drawn) as pool:
        for n, result in enumerate(todo):
            doc = result.doc
            reporter.progress(f"drawing the {doc.slug} {'proof' if proof else 'kit'}")
            if result.engine is None:
                kit = drawn(n)
            else:
                pool.submit(n)
                _, kit = next(pool.results())
                if isinstance(kit, Stopped):
                    kit = [error(doc.meta.engine_loc, f"the {result.engine.name} engine "
                                                      f"{kit.how} while drawing its kit")]
            if isinstance(kit, list):
                problems += kit
                continue
            outputs |= kit
            record.unit(doc.slug, record.games[doc.slug]["key"],
                        {p.relative_to(out).as_posix(): d for p, d in kit.items()})
    if problems:  # every game drawn first: all problems at once, nothing written
        raise RulepressError(problems)
    unchanged = sum(len(manifest.units.get(slug, {}).get("files", ())) for slug in skipped)
    return Built(out, write_set(out, outputs, record), unchanged, report, skipped)


def _kit_fresh(manifest: Manifest, inputs: GameInputs, project: Path | None,
               options: Mapping[str, Any]) -> bool:
    """Whether the game's kit on disk was drawn from its inputs as they are now (a game with
    no kit counts as fresh once checked: it has nothing to draw)."""
    key = _recorded_key(manifest, inputs, project, options)
    return key is not None and (inputs.slug not in manifest.units
                                or manifest.fresh(inputs.slug, key))

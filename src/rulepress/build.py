"""The pipeline: read everything, check everything, render, then write every file atomically."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from rulepress.diagnostics import Diagnostic, ExitStatus, RulepressError, Severity, exit_status
from rulepress.document.editions import EDITIONS, PLAYER, REFERENCE
from rulepress.document.model import Document
from rulepress.document.reader import read_sources
from rulepress.project import DEFAULT_TITLE
from rulepress.signals import worker_started
from rulepress.validate.check import CheckReport, check_documents
from rulepress.write import clear_stale_scratch, scratch_folder, write_set


class Progress(Protocol):
    def progress(self, message: str) -> None: ...
    def diagnostics(self, diagnostics: list[Diagnostic]) -> None: ...


@dataclass(frozen=True)
class PdfJob:
    slug: str
    paper: str
    html: str
    base_url: Path
    roots: tuple[Path, ...]
    target: Path
    booklet: bool = False  # typeset on half sheets and imposed as a saddle-stitched booklet


def check_phase(
    docs: Sequence[Document],
    project: Path | None,
    reporter: Progress,
    *,
    draw: bool = False,
    draft: bool = False,
) -> CheckReport:
    """The check every command runs before writing anything: on any error, raise with every
    diagnostic and the exit status of the worst one. ``draft`` lets examples the rules disprove
    through as warnings (bad input still stops)."""
    reporter.progress(f"checking {len(docs)} game{'s' if len(docs) != 1 else ''}")
    report = check_documents(docs, project=project, draw=draw)
    shown = [
        Diagnostic(d.loc, Severity.WARNING, d.message) if draft and d.disproved else d
        for d in report.diagnostics
    ]
    status = exit_status(shown)
    if status is not ExitStatus.OK:
        raise RulepressError(shown, status)
    reporter.diagnostics(shown)
    return report


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
) -> list[Path]:
    """Check, then write for each game and edition an HTML page and a PDF per paper, and
    out/index.html linking them all (with the kits `pnp` writes). ``booklet`` adds the player
    edition imposed as a booklet per paper."""
    from rulepress.render import IndexEntry, render_html, render_index, templates_dir
    from rulepress.render.pdf import FALLBACK_EPOCH

    if booklet and PLAYER not in editions:
        raise RulepressError.at(None, "--booklet imposes the player edition: build it too "
                                      "(--edition player or both)")

    # A fixed default keeps bytes (and the PDFs' dates) identical when the caller sets no epoch.
    os.environ.setdefault("SOURCE_DATE_EPOCH", FALLBACK_EPOCH)

    docs = read_sources(sources, games)
    report = check_phase(docs, project, reporter, draw=True, draft=draft)

    outputs: dict[Path, bytes | str] = {}
    jobs_list: list[PdfJob] = []
    entries = []
    for result in report.documents:
        doc = result.doc
        folder = out / doc.slug
        source_folder = doc.folder.resolve()
        roots = (source_folder, templates_dir())
        kits = kit_links(doc, papers)
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
            html = render_html(doc, result.examples, edition=edition, links=links,
                               fonts_href="../fonts")
            outputs[folder / book_name(doc.slug, edition)] = html
            jobs_list += [PdfJob(doc.slug, paper, html, doc.folder, roots,
                                 folder / name) for paper, name in pdfs.items()]
            jobs_list += [PdfJob(doc.slug, paper, html, doc.folder, roots, folder / name,
                                 booklet=True) for paper, name in booklets.items()]
            index_links.append((f"{EDITION_NAMES[edition]} (HTML)",
                                f"{doc.slug}/{book_name(doc.slug, edition)}"))
            index_links += [(f"{EDITION_NAMES[edition]}, PDF ({paper_name(p)})",
                             f"{doc.slug}/{name}") for p, name in pdfs.items()]
            index_links += [(f"{EDITION_NAMES[edition]}, booklet ({paper_name(p)})",
                             f"{doc.slug}/{name}") for p, name in booklets.items()]
        index_links += [(f"Print-and-play kit ({k})", v) for k, v in kits.items()]
        entries.append(IndexEntry(
            title=doc.meta.title,
            subtitle=doc.meta.subtitle,
            players=doc.meta.players,
            duration=doc.meta.duration,
            html=index_links[0][1],
            links=tuple(index_links),
        ))

    for job, pdf in zip(jobs_list, _render_pdfs(jobs_list, jobs, reporter), strict=True):
        outputs[job.target] = pdf
    outputs[out / "index.html"] = render_index(entries, title=title)
    # The HTML pages use the same bundled fonts as the PDFs.
    for font in sorted((templates_dir() / "fonts").iterdir()):
        outputs[out / "fonts" / font.name] = font.read_bytes()
    return write_set(out, outputs)


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
    return {"a4": "A4", "letter": "US Letter"}[paper]


def _render_pdf(job: PdfJob) -> bytes:
    from rulepress.render.booklet import render_booklet
    from rulepress.render.pdf import render_pdf

    render = render_booklet if job.booklet else render_pdf
    try:
        with scratch_folder():
            return render(job.html, job.paper, base_url=job.base_url, allowed_roots=job.roots)
    except OSError as exc:  # a full or unwritable temporary folder
        where = f" ({exc.filename})" if exc.filename else ""
        raise RulepressError.at(None, f"cannot render {job.target.name}: "
                                      f"{exc.strerror or exc}{where}") from None


# The jobs forked workers render, by index: each page is inherited through fork instead of
# crossing a pipe, so a stopped build never leaves a pipe half-written with its reader gone.
_FORKED_JOBS: list[PdfJob] = []


def _render_forked(index: int) -> bytes:
    return _render_pdf(_FORKED_JOBS[index])


def _render_pdfs(jobs: list[PdfJob], workers: int, reporter: Progress) -> list[bytes]:
    workers = min(workers or os.cpu_count() or 1, len(jobs))
    if workers <= 1:
        results = []
        for job in jobs:
            reporter.progress(f"rendering {job.target.name}")
            results.append(_render_pdf(job))
        return results
    import weasyprint  # noqa: F401 - imported once here so forked workers inherit it

    reporter.progress(f"rendering {len(jobs)} PDFs on {workers} processes")
    _FORKED_JOBS[:] = jobs
    pool = multiprocessing.get_context("fork").Pool(
        workers, initializer=worker_started, initargs=(os.getpid(),))
    try:
        results = pool.map(_render_forked, range(len(jobs)), chunksize=1)
    except BaseException:  # a failed job, Ctrl-C, SIGTERM: the other workers stop now
        pool.terminate()
        pool.join()
        clear_stale_scratch()
        raise
    finally:
        _FORKED_JOBS.clear()
    pool.close()
    pool.join()
    return results


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
) -> list[Path]:
    """Check every game as build does, draw every kit, and only then write them all.
    ``proof``: instead of the kits, one page per game showing each distinct face at 1:1
    (out/<game>/<game>-proof.pdf)."""
    from rulepress.pnp.faces import engine_tables
    from rulepress.pnp.kit import draw_kits
    from rulepress.pnp.proof import proof as proof_page

    if not 0 <= bleed_mm <= 10:
        raise RulepressError.at(None, f"--bleed {bleed_mm} mm is out of range (0 to 10)")

    docs = read_sources(sources, games)
    report = check_phase(docs, project, reporter)
    outputs: dict[Path, bytes | str] = {}
    for result in report.documents:
        doc = result.doc
        if not any(c.in_kit for c in doc.meta.components):
            continue
        drawers = result.engine.drawers() if result.engine is not None else {}
        tables = engine_tables(result.engine)
        if proof:
            reporter.progress(f"drawing the {doc.slug} proof")
            page = proof_page(doc, drawers, tables, bleed_mm=bleed_mm)
            outputs[out / doc.slug / f"{doc.slug}-proof.pdf"] = page
            continue
        reporter.progress(f"drawing the {doc.slug} kit")
        outputs |= draw_kits(doc, drawers, papers, out, bleed_mm=bleed_mm, duplex=duplex,
                             tables=tables)
    return write_set(out, outputs) if outputs else []

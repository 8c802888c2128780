"""The pipeline: read everything, check everything, render, then write the whole set at once."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from rulepress.diagnostics import Diagnostic, ExitStatus, RulepressError, Severity
from rulepress.document.model import Document
from rulepress.document.reader import read_sources
from rulepress.signals import worker_started
from rulepress.validate.check import CheckReport, check_documents
from rulepress.write import clear_stale_scratch, scratch_folder, write_set

if TYPE_CHECKING:
    from rulepress.games.base import Drawer


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


def check_or_fail(docs: Sequence[Document], draft: bool, reporter: Progress) -> CheckReport:
    report = check_documents(docs, draw=True)
    if report.failed and not draft:
        raise RulepressError(report.diagnostics, ExitStatus.CHECK_FAILED)
    shown = [
        Diagnostic(d.loc, Severity.WARNING, d.message) if draft else d for d in report.diagnostics
    ]
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
    reporter: Progress,
) -> list[Path]:
    from rulepress.render import (
        IndexEntry,
        check_glyphs,
        check_references,
        render_html,
        render_index,
        templates_dir,
    )
    from rulepress.render.pdf import FALLBACK_EPOCH

    # A fixed default keeps bytes (and the PDFs' dates) identical when the caller sets no epoch.
    os.environ.setdefault("SOURCE_DATE_EPOCH", FALLBACK_EPOCH)

    docs = read_sources(sources, games)
    reporter.progress(f"checking {len(docs)} rulebooks")
    report = check_or_fail(docs, draft, reporter)
    refused = [d for doc in docs for d in check_references(doc)]
    if refused:
        raise RulepressError(refused)
    reporter.diagnostics([d for r in report.documents for d in check_glyphs(r.doc, r.examples)])

    outputs: dict[Path, bytes | str] = {}
    jobs_list: list[PdfJob] = []
    entries = []
    for result in report.documents:
        doc = result.doc
        folder = out / doc.slug
        pdfs = {paper: f"{doc.slug}-{paper}.pdf" for paper in papers}
        kits = kit_links(doc, papers)
        links = {f"PDF ({paper_name(p)})": name for p, name in pdfs.items()}
        links |= {f"Print-and-play ({k})": f"../{v}" for k, v in kits.items()}
        html = render_html(doc, result.examples, links=links, fonts_href="../fonts")
        outputs[folder / f"{doc.slug}.html"] = html
        source_folder = doc.path.parent.resolve()
        roots = (source_folder, templates_dir())
        jobs_list += [PdfJob(doc.slug, paper, html, doc.path.parent, roots) for paper in papers]
        entries.append(IndexEntry(
            title=doc.meta.title,
            subtitle=doc.meta.subtitle,
            players=doc.meta.players,
            duration=doc.meta.duration,
            html=f"{doc.slug}/{doc.slug}.html",
            pdfs={paper_name(p): f"{doc.slug}/{name}" for p, name in pdfs.items()},
            kits=kits,
        ))

    for job, pdf in zip(jobs_list, _render_pdfs(jobs_list, jobs, reporter), strict=True):
        outputs[out / job.slug / f"{job.slug}-{job.paper}.pdf"] = pdf
    outputs[out / "index.html"] = render_index(entries)
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


def paper_name(paper: str) -> str:
    return {"a4": "A4", "letter": "US Letter"}[paper]


def _render_pdf(job: PdfJob) -> bytes:
    from rulepress.render import render_pdf

    try:
        with scratch_folder():
            return render_pdf(job.html, job.paper, base_url=job.base_url, allowed_roots=job.roots)
    except OSError as exc:  # a full or unwritable temporary folder
        where = f" ({exc.filename})" if exc.filename else ""
        raise RulepressError.at(None, f"cannot render {job.slug} ({job.paper}): "
                                      f"{exc.strerror or exc}{where}") from None


def _render_pdfs(jobs: list[PdfJob], workers: int, reporter: Progress) -> list[bytes]:
    workers = min(workers or os.cpu_count() or 1, len(jobs))
    if workers <= 1:
        results = []
        for job in jobs:
            reporter.progress(f"rendering {job.slug} ({job.paper})")
            results.append(_render_pdf(job))
        return results
    import weasyprint  # noqa: F401 - imported once here so forked workers inherit it

    reporter.progress(f"rendering {len(jobs)} PDFs on {workers} processes")
    context = multiprocessing.get_context("fork")
    others = set(multiprocessing.active_children())
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context,
                               initializer=worker_started, initargs=(os.getpid(),))
    try:
        return list(pool.map(_render_pdf, jobs))
    except BaseException:  # a failed job, Ctrl-C, SIGTERM: the other workers stop now
        _stop(set(multiprocessing.active_children()) - others)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _stop(workers: set[multiprocessing.process.BaseProcess]) -> None:
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.join()
    clear_stale_scratch()


def build_kits(
    sources: Path,
    out: Path,
    *,
    games: Sequence[str] = (),
    papers: Sequence[str] = ("a4", "letter"),
    duplex: str = "long",
    bleed_mm: float = 3.0,
    reporter: Progress,
) -> list[Path]:
    from rulepress.pnp.kit import kit_outputs

    if not 0 <= bleed_mm <= 10:
        raise RulepressError.at(None, f"--bleed {bleed_mm} mm is out of range (0 to 10)")

    docs = read_sources(sources, games)
    outputs: dict[Path, bytes | str] = {}
    for doc in docs:
        if not any(c.in_kit for c in doc.meta.components):
            continue
        reporter.progress(f"drawing the {doc.slug} kit")
        outputs |= kit_outputs(doc, drawers_for(doc), papers, out, bleed_mm=bleed_mm,
                               duplex=duplex)
    return write_set(out, outputs) if outputs else []


def drawers_for(doc: Document) -> dict[str, Drawer]:
    from rulepress.games import UnknownEngine, load_engine

    if doc.meta.engine is None:
        return {}
    try:
        return dict(load_engine(doc.meta.engine).drawers())
    except UnknownEngine as exc:
        raise RulepressError.at(doc.meta.engine_loc, str(exc)) from None

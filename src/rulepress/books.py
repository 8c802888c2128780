"""The books generator: each game's rulebooks, an HTML page and a PDF per paper for each
edition (and booklets), and the output folder's index linking every game built."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path, PurePosixPath
from typing import Any

from rulepress import limits
from rulepress.cache import file_key
from rulepress.diagnostics import Diagnostic, RulepressError, SourceLoc, warning
from rulepress.document.changelog import with_changes
from rulepress.document.editions import EDITION_NAMES, EDITIONS, PLAYER
from rulepress.document.model import Document
from rulepress.media import PAPER_KEYS
from rulepress.pipeline import Base, Deferred, Files, Unit, Warned
from rulepress.render import (
    FONTS,
    PAPER_NAMES,
    IndexEntry,
    render_html,
    render_index,
    templates_dir,
)
from rulepress.render.booklet import render_booklet
from rulepress.render.makeup import Fault
from rulepress.render.readback import Sources, read_back_html, read_back_pdf, sources_of
from rulepress.render.references import example_anchor
from rulepress.sandbox import Timeout, deadline
from rulepress.validate.check import DocumentCheck
from rulepress.validate.results import RenderedExample
from rulepress.write import Manifest, scratch_folder


@dataclass(frozen=True)
class BookOptions:
    """What the books are made with: all of it goes in their key."""

    papers: tuple[str, ...]
    editions: tuple[str, ...]
    booklet: bool
    draft: bool
    epoch: str
    # build --changelog-since: the old printing and, by game, what changed since, in plain words
    changes: tuple[str, tuple[tuple[str, tuple[str, ...]], ...]] | None = None
    press: bool = False  # build --press: each edition also as PDF/X-1a per paper (press.convert)


@dataclass(frozen=True)
class BookFile:
    """One file of a game's rulebooks: its path inside the output folder and what it holds."""

    name: str
    edition: str
    paper: str | None = None  # None: the HTML page
    booklet: bool = False
    press: bool = False

    @property
    def label(self) -> str:
        """'go-stop letter', 'go-stop reference a4', 'go-stop a4 booklet', 'go-stop a4 press'."""
        slug = self.name.split("/")[0]
        parts = [slug, *([self.edition] if self.edition != PLAYER else []), self.paper or "html"]
        return " ".join(parts + (["booklet"] if self.booklet else [])
                        + (["press"] if self.press else []))


@dataclass(frozen=True)
class PdfJob:
    """One typesetting of a page and the PDFs written from it: one per paper (render_pdfs), or
    a booklet's."""

    page: Deferred[str]  # rendered in the main process before the job goes to a worker
    base_url: Path
    roots: tuple[Path, ...]
    files: tuple[BookFile, ...]  # its PDFs, by their names inside the output folder
    sources: Sources | None = None  # where its text comes from, to read the PDFs back
    # where its headings and examples are in the source (by id), for page make-up faults, and
    # the ids of the chapters the source starts on a new page
    places: tuple[tuple[str, SourceLoc], ...] = ()
    asked: frozenset[str] = frozenset()

    @property
    def html(self) -> str:
        return self.page()

    def weight(self) -> int:
        """Its page rendered (here, as the job goes to the pool): how long it is to typeset."""
        return len(self.html) * (1 + len(self.files))

    @property
    def label(self) -> str:
        """What progress calls it: 'go-stop reference a4, letter'."""
        first, *others = self.files
        return ", ".join([first.label, *(f.paper or "" for f in others)])


class Books(Base):
    """``pdf=False``: the HTML pages only (their links to the PDFs stay); ``only``: the files,
    by path inside the output folder, to make (serve's). Neither is an option of the books:
    they select among them."""

    name = "books"
    # Its part of every check (validate/hooks.py): references, glyphs, glossary, the player
    # edition's teaching order, the playtest reports.
    checks: tuple[str, ...] = ("references", "glyphs", "glossary", "teaching", "hyphenation",
                               "playtest")

    def __init__(self, options: BookOptions, *, pdf: bool = True,
                 only: Collection[str] | None = None, title: str) -> None:
        self.options = options
        self.pdf, self.only, self.title = pdf, only, title
        self._entries: dict[str, IndexEntry] = {}

    def files(self, slug: str) -> list[BookFile]:
        o = self.options
        return book_files(slug, o.editions, o.papers, o.booklet, o.press)

    def _wanted(self, f: BookFile) -> bool:
        return (self.pdf or f.paper is None) and (self.only is None or f.name in self.only)

    def planned(self, slug: str) -> list[str]:
        return [f.name for f in self.files(slug) if self._wanted(f)]

    def replaces(self, slug: str, unit: str) -> bool:
        o = self.options
        return replaced(unit, slug, o.editions, o.papers, o.booklet)

    def pooled(self, doc: Document, key: str, manifest: Manifest) -> int:
        todo = [f for f in self.files(doc.slug)
                if self._wanted(f) and not manifest.fresh(f.name, file_key(key, f.name))]
        return len(_typesettings(todo))

    def units(self, game: DocumentCheck, key: str) -> list[Unit]:
        doc, o = game.doc, self.options
        if o.changes is not None and doc.slug in dict(o.changes[1]):
            doc = with_changes(doc, o.changes[0], dict(o.changes[1])[doc.slug])
        pages, self._entries[doc.slug] = _book_pages(doc, game.examples, o.editions, o.papers,
                                                     o.booklet)
        # Each page is rendered as the first unit that needs it is made: an edition nothing is
        # asked of (serve asks for one page at a time) is listed, never rendered.
        sources = sources_of(doc)
        units = [Unit(f.name, key, partial(_page, f.name, pages[f.edition], sources)
                      if self._wanted(f) else _unwanted, files=(f.name,), wanted=self._wanted(f))
                 for f in self.files(doc.slug) if f.paper is None]
        # The wanted PDFs typeset apart from the others: serve asks for one paper at a time.
        for chosen in (True, False):
            group = [f for f in self.files(doc.slug) if self._wanted(f) is chosen]
            for files in _typesettings(group):
                names = tuple(f.name for f in files)
                if not chosen:
                    units.append(Unit(names[0], key, _unwanted, files=names, wanted=False))
                    continue
                job = PdfJob(pages[files[0].edition], doc.folder,
                             (doc.folder.resolve(), templates_dir()), tuple(files), sources,
                             *makeup_places(doc))
                units.append(Unit(job.label, key, partial(_render_pdf, job), job.label,
                                  files=names, pooled=True, ready=job.weight))
        return units

    def recorded(self, slug: str) -> dict[str, Any]:
        return {"entry": asdict(self._entries[slug])}

    def finish(self, games: Mapping[str, Mapping[str, Any]]) -> Files:
        entries = [_entry(g["entry"]) for g in games.values() if "entry" in g]
        content: dict[str, bytes | str] = {"index.html": render_index(entries, title=self.title)}
        # The HTML pages use the same bundled fonts as the PDFs.
        for font in sorted((templates_dir() / "fonts").iterdir()):
            content[f"{FONTS}/{font.name}"] = font.read_bytes()
        return content


def _page(name: str, page: Deferred[str], sources: Sources | None = None
          ) -> Files | list[Diagnostic]:
    """The page, once its printed text is read back: source markup in it stops the build."""
    html = page()
    problems = read_back_html(name, html, sources) if sources is not None else []
    return problems or {name: html}


def _read_pdfs(job: PdfJob, pdfs: Mapping[str, bytes]) -> list[Diagnostic]:
    """Each PDF's text read back, page by page (what the HTML shows as code may be markup)."""
    if job.sources is None:
        return []
    return [d for name, data in pdfs.items()
            for d in read_back_pdf(name, data, job.sources, job.html)]


def makeup_places(doc: Document) -> tuple[tuple[tuple[str, SourceLoc], ...], frozenset[str]]:
    """Where each heading and example box of ``doc`` is in its source, by the id it has on the
    page; and the chapters (## headings) the source starts on a new page ({.new-page})."""
    places = [(h.anchor, h.loc) for h in doc.headings]
    places += [(example_anchor(e.id), e.loc) for e in doc.boxes]
    return tuple(places), frozenset(h.anchor for h in doc.headings if h.new_page and h.level == 2)


def makeup_warnings(job: PdfJob, faults: Sequence[Fault]) -> list[Diagnostic]:
    """Each page make-up fault as a warning at its heading's or example's source line (else the
    rules' first line), naming the first of the PDFs (a translation's with its folder: every
    paper has the same pages)."""
    places = dict(job.places)
    first = job.sources.first if job.sources is not None else None
    name = job.files[0].name.split("/", 1)[-1]
    found = []
    for f in faults:
        loc = next((places[a] for a in f.anchors if a in places),
                   SourceLoc(first, 1) if first is not None else None)
        found.append(warning(loc, f"{name} p. {f.page}: {f.message}"))
    return found


def _unwanted() -> Files:
    raise AssertionError("a unit not asked for is never made")


def book_files(slug: str, editions: Sequence[str], papers: Sequence[str],
               booklet: bool, press: bool = False) -> list[BookFile]:
    files = []
    for edition in editions:
        files.append(BookFile(f"{slug}/{book_name(slug, edition)}", edition))
        files += [BookFile(f"{slug}/{book_name(slug, edition, p)}", edition, p) for p in papers]
        if press:
            files += [BookFile(f"{slug}/{press_name(slug, edition, p)}", edition, p, press=True)
                      for p in papers]
        if booklet and edition == PLAYER:
            files += [BookFile(f"{slug}/{booklet_name(slug, p)}", edition, p, booklet=True)
                      for p in papers]
    return files


def replaced(name: str, slug: str, editions: Sequence[str], papers: Sequence[str],
             booklet: bool) -> bool:
    """Whether a run making ``editions`` on ``papers`` (and booklets, with ``booklet``) stands
    in for ``name``, a book file of ``slug`` (``slug/file`` or ``slug/lang/file``) an earlier
    run wrote: another paper's PDF, another edition's files or a booklet this run does not
    make stay beside its own."""
    parts = name.split("/")
    if len(parts) not in (2, 3) or parts[0] != slug:
        return True
    known = {PurePosixPath(f.name).name: f
             for f in book_files(slug, EDITIONS, PAPER_KEYS, True)}
    f = known.get(parts[-1])
    if f is None:
        return True  # not a book's file name: made no more, deleted as before
    return f.edition in editions and (f.paper is None or f.paper in papers) and (
        booklet or not f.booklet)


def _typesettings(files: Sequence[BookFile]) -> list[list[BookFile]]:
    """The PDFs among ``files``, by typesetting: an edition's papers share one (render_pdfs),
    a booklet and a press book are typeset on their own."""
    groups: dict[tuple[str, str | None, bool, bool], list[BookFile]] = {}
    for f in files:
        if f.paper is not None:
            alone = f.booklet or f.press
            groups.setdefault((f.edition, f.paper if alone else None, f.booklet, f.press),
                              []).append(f)
    return list(groups.values())


def _book_pages(doc: Document, examples: Mapping[str, RenderedExample],
                editions: Sequence[str], papers: Sequence[str], booklet: bool,
                ) -> tuple[dict[str, Deferred[str]], IndexEntry]:
    """The HTML page of each edition of ``doc``, to be rendered when first made, and its entry
    on the index."""
    kits = kit_links(doc, papers)
    pages: dict[str, Deferred[str]] = {}
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
        pages[edition] = Deferred(partial(_render_page, doc, examples, edition, links))
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


def _render_page(doc: Document, examples: Mapping[str, RenderedExample], edition: str,
                 links: dict[str, str]) -> str:
    return render_html(doc, examples, edition=edition, links=links, fonts_href=f"../{FONTS}")


def _entry(data: Mapping[str, Any]) -> IndexEntry:
    """An index entry as the manifest keeps it (JSON: lists for tuples)."""
    return IndexEntry(**{**data, "links": tuple((k, v) for k, v in data["links"])})


def kit_links(doc: Document, papers: Sequence[str]) -> dict[str, str]:
    """Label -> href, relative to build/, of the kits `rulepress pnp` writes into pnp/."""
    if not any(c.in_kit for c in doc.meta.components):
        return {}
    from rulepress.pnp.kit import kit_path, variant_names  # ReportLab: only for a kit's links

    links = {}
    for variant in ["", *variant_names(doc)]:
        for paper in papers:
            label = paper_name(paper) + (f", {variant}" if variant else "")
            links[label] = kit_path(Path("../pnp"), doc.slug, paper, variant).as_posix()
    return links


def book_name(slug: str, edition: str, paper: str | None = None) -> str:
    """pigeon.html, pigeon-a4.pdf; pigeon-reference.html, pigeon-reference-a4.pdf."""
    stem = slug if edition == PLAYER else f"{slug}-{edition}"
    return f"{stem}.html" if paper is None else f"{stem}-{paper}.pdf"


def press_name(slug: str, edition: str, paper: str) -> str:
    """pigeon-a4-press.pdf, pigeon-reference-a4-press.pdf: for a manufacturer (PDF/X-1a)."""
    return book_name(slug, edition, paper).removesuffix(".pdf") + "-press.pdf"


def booklet_name(slug: str, paper: str) -> str:
    """pigeon-a4-booklet.pdf: the player edition, imposed for saddle stitching."""
    return f"{slug}-{paper}-booklet.pdf"


def paper_name(paper: str) -> str:
    return PAPER_NAMES[paper]


def _render_pdf(job: PdfJob) -> Files | list[Diagnostic]:
    """The PDFs of ``job``, read back: markup in them stops the build, a page make-up fault is
    a warning beside them."""
    # In the typesetting worker: WeasyPrint and pypdf are slow imports the HTML never needs.
    from rulepress.render.pdf import render_pdfs

    papers = [f.paper for f in job.files if f.paper is not None]
    first = job.files[0]
    faults: list[Fault] = []
    try:
        with scratch_folder(), deadline(limits.RENDER_SECONDS):
            if first.booklet:
                made = {first.name: render_booklet(job.html, papers[0], base_url=job.base_url,
                                                   allowed_roots=job.roots)}
            elif first.press:
                made = {first.name: render_pdfs(job.html, papers[:1], base_url=job.base_url,
                                                allowed_roots=job.roots, press=True)[papers[0]]}
            else:
                pdfs = render_pdfs(job.html, papers, base_url=job.base_url,
                                   allowed_roots=job.roots, faults=faults, asked=job.asked)
                made = {f.name: pdfs[f.paper] for f in job.files if f.paper is not None}
        problems = _read_pdfs(job, made)
        if problems:
            return problems
        return Warned(made, makeup_warnings(job, faults)) if faults else made
    except OSError as exc:  # a full or unwritable temporary folder
        where = f" ({exc.filename})" if exc.filename else ""
        raise RulepressError.at(None, f"cannot render {Path(first.name).name}: "
                                      f"{exc.strerror or exc}{where}") from None
    except Timeout:
        # Nothing else bounds typesetting: a few lines of CSS (flex boxes nested in one another)
        # can make its work grow without end. The game's print.css is the likely cause.
        css = job.base_url / "templates" / "print.css"
        raise RulepressError.at(
            SourceLoc(css, 1) if css.is_file() else None,
            f"cannot render {Path(first.name).name}: typesetting took more than "
            f"{limits.RENDER_SECONDS:g} s of CPU time (RENDER_SECONDS, see Limits in "
            "docs/authoring.md)") from None

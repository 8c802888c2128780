"""HTML rulebook -> PDF (A4 or US Letter) through WeasyPrint and the jailed fetcher."""

from __future__ import annotations

import base64
import io
import os
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import cache
from html import escape as html_escape
from html import unescape
from pathlib import Path
from typing import Any

from markupsafe import Markup

from rulepress.diagnostics import RulepressError, SourceLoc, error
from rulepress.hyphenation import with_breaks
from rulepress.media import FALLBACK_EPOCH, PAPER_NAMES, PAPERS
from rulepress.paths import templates_dir
from rulepress.render.fetcher import JailedFetcher, RefusedFetch
from rulepress.render.html import FONT_FACES, game_environment, run_templates, template_path
from rulepress.render.makeup import Fault, measure
from rulepress.render.offline import refusal_loc
from rulepress.units import POINTS_PER_MM
from rulepress.words import css_content, theme_words

PAPERS_MM = {key: (p.width_mm, p.height_mm) for key, p in PAPERS.items()}
# Every book is typeset once, on the page that fits both papers (A4's width, Letter's height),
# and written once per paper, the difference added as margin: typesetting is the costlier half
# of a PDF, and A4 and Letter readers find the same things on the same pages.
COMMON_PAGE_MM = (min(w for w, _ in PAPERS_MM.values()), min(h for _, h in PAPERS_MM.values()))
COMMON_PAGE = f"{COMMON_PAGE_MM[0]:g}mm {COMMON_PAGE_MM[1]:g}mm"
# Tagged PDF for screen readers; PDF/UA-1 also writes XMP metadata (title, language), no dates.
PDF_OPTIONS: dict[str, Any] = {"pdf_variant": "pdf/ua-1", "pdf_tags": True, "pdf_version": "1.7"}


@cache
def print_css(game_folder: Path, page_size: str = COMMON_PAGE, booklet: bool = False,
              lang: str | None = None) -> str:
    """The print stylesheet for pages of ``page_size`` (a CSS size), those of a booklet with
    ``booklet`` (a game's templates/print.css may replace the theme's), its words in ``lang``."""
    env = game_environment(game_folder)
    fonts_url = (templates_dir() / "fonts").as_uri()
    _ = theme_words(lang, game_folder)
    page = "target-counter(attr(href url), page)"
    return run_templates(env, "print.css", lambda: env.get_template("print.css").render(
        page_size=page_size, booklet=booklet, font_faces=FONT_FACES, fonts_url=fonts_url, _=_,
        page_of=Markup(css_content(_("page {page} of {pages}"),
                            {"page": "counter(page)", "pages": "counter(pages)"})),
        page_ref=Markup(css_content(" " + _("(p.\u00a0{page})"), {"page": page}))))


def page_lang(html: str) -> str | None:
    """The language a page from render_html says it is in (``<html lang="de">``)."""
    found = _HTML_LANG.search(html[:2000])
    return found.group(1).replace("-", "_") if found else None


def with_print_css(html: str, css: str) -> str:
    """Add the print stylesheet after the page's own, as an author stylesheet, so it wins."""
    head_end = html.find("</head>")
    if head_end < 0:
        raise ValueError("render_pdf needs a page from render_html (no </head> found)")
    return f"{html[:head_end]}<style>\n{css}</style>\n{html[head_end:]}"


_HTML_LANG = re.compile(r"<html\b[^>]*\blang=\"([A-Za-z_-]+)\"", re.I)
_SVG_TAG = re.compile(r"<(/?)svg\b[^>]*?(/?)>", re.I)
_FIGURE_SVG = re.compile(r"<figure\b[^>]*>\s*(?:<div\b[^>]*>\s*)?(?=<svg\b)", re.I)
SVG_NS = "http://www.w3.org/2000/svg"


def _svg_end(html: str, start: int) -> int:
    """Index just past the </svg> closing the <svg> at ``start`` (nested svg elements counted)."""
    depth = 0
    for m in _SVG_TAG.finditer(html, start):
        if m.group(1):
            depth -= 1
        elif not m.group(2):
            depth += 1
        if depth == 0:
            return m.end()
    return -1


def figures_as_images(html: str) -> str:
    """Inline figure SVGs -> <img src="data:image/svg+xml...">, for WeasyPrint only.

    Inline SVG elements go through the HTML parser and the CSS cascade one by one, which costs
    more than the rest of a rulebook; as images they are parsed once as XML and drawn.
    A figure that is not well-formed XML stays inline.
    """
    from xml.etree import ElementTree

    out: list[str] = []
    pos = 0
    for m in _FIGURE_SVG.finditer(html):
        start = m.end()
        if start < pos:
            continue
        end = _svg_end(html, start)
        if end < 0:
            break
        svg = html[start:end]
        if "xmlns=" not in svg[:svg.find(">")]:
            svg = svg.replace("<svg", f'<svg xmlns="{SVG_NS}"', 1)
        try:
            ElementTree.fromstring(svg)
        except ElementTree.ParseError:
            continue
        alt = html_escape(_figure_name(svg, html[end:max(end, html.find("</figure>", end))]))
        data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
        out += [html[pos:start], f'<img alt="{alt}" src="data:image/svg+xml;base64,{data}">']
        pos = end
        if html.startswith('<svg class="figure-narrow"', end):  # a phone's copy: not printed
            pos = max(pos, _svg_end(html, end))
    out.append(html[pos:])
    return "".join(out)


def _figure_name(svg: str, rest: str) -> str:
    """What a figure's image is called, for its alt text (a tagged PDF needs one): its caption,
    else the SVG's aria-label, else its <title>."""
    caption = re.search(r"<figcaption>(.*?)</figcaption>", rest, re.S)
    label = re.search(r'\baria-label="([^"]*)"', svg[:svg.find(">") + 1])
    title = re.search(r"<title>(.*?)</title>", svg, re.S)
    found = caption or label or title
    return unescape(re.sub(r"<[^>]+>", "", found.group(1))).strip() if found else ""


# Without HarfBuzz's subsetter WeasyPrint subsets fonts with fontTools, which stamps each font
# with SOURCE_DATE_EPOCH, or the clock when it is unset: pin it (FALLBACK_EPOCH) while rendering.


@contextmanager
def _pinned_epoch() -> Iterator[None]:
    if os.environ.get("SOURCE_DATE_EPOCH"):
        yield
        return
    os.environ["SOURCE_DATE_EPOCH"] = FALLBACK_EPOCH
    try:
        yield
    finally:
        os.environ.pop("SOURCE_DATE_EPOCH", None)


def _epoch_date() -> str | None:
    """SOURCE_DATE_EPOCH as a W3C date, so dated metadata is still reproducible."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not epoch.isdigit():
        return None
    return datetime.fromtimestamp(int(epoch), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def attachment_href(html: Any) -> str | None:
    """The target of the first element asking WeasyPrint to embed a file in the PDF, judged on
    WeasyPrint's own parse of the page (entities decoded, rel tokens as it reads them)."""
    from weasyprint.html import element_has_link_type

    for element in html.etree_element.iter():
        if element_has_link_type(element, "attachment"):
            return str(element.get("href", ""))
    return None


def theme_fonts(folder: Path) -> Any:
    """A WeasyPrint font configuration that knows the fonts in ``folder`` (the theme's) and
    nothing installed on the machine: a print.css naming 'DejaVu Serif' or local(...) would
    otherwise embed a file from /usr/share/fonts in the PDF. A game's own fonts come in by
    @font-face url(), through the jailed fetcher."""
    from weasyprint.text.ffi import ffi, fontconfig, pangoft2
    from weasyprint.text.fonts import FontConfiguration

    if not hasattr(fontconfig, "FcConfigCreate"):  # WeasyPrint declares only what it calls
        ffi.cdef("FcConfig * FcConfigCreate (void);")
    config = FontConfiguration()
    own = fontconfig.FcConfigCreate()  # empty: no configuration file, no font folders
    for font in sorted(folder.iterdir()):
        if font.suffix.lower() in (".ttf", ".otf", ".woff", ".woff2"):
            fontconfig.FcConfigAppFontAddFile(own, os.fsencode(font))
    pangoft2.pango_fc_font_map_set_config(ffi.cast("PangoFcFontMap *", config.font_map), own)
    fontconfig.FcConfigDestroy(own)  # the font map keeps its own reference, as WeasyPrint's
    config._config = own  # where WeasyPrint adds a stylesheet's @font-face fonts
    return config


def render_pdf(html: str, paper: str, *, base_url: Path, allowed_roots: Sequence[Path],
               booklet: bool = False) -> bytes:
    """Typeset ``html`` (from render_html) as a PDF on ``paper`` ("a4" or "letter"), or with
    ``booklet`` on the half-sheet pages that render.booklet imposes on it.

    ``base_url``: the game's source folder (relative references resolve there, and a game's
    templates/print.css overrides the theme's). Only files under ``allowed_roots`` (plus the
    bundled fonts) are read; anything else fails the render with a RulepressError.
    The same input gives the same bytes, whether the paper is written alone or with others.
    """
    return render_pdfs(html, (paper,), base_url=base_url, allowed_roots=allowed_roots,
                       booklet=booklet)[paper]


def render_pdfs(html: str, papers: Sequence[str], *, base_url: Path,
                allowed_roots: Sequence[Path], booklet: bool = False,
                press: bool = False, faults: list[Fault] | None = None,
                asked: frozenset[str] = frozenset()) -> dict[str, bytes]:
    """``html`` as a PDF per paper in ``papers``, from one typesetting (see COMMON_PAGE_MM).
    ``press``: for one paper, PDF/X-1a on that paper's page with bleed and crop marks
    (press.convert), checked as read back. ``faults``: given, the page make-up faults of the
    typesetting are added to it (render.makeup; ``asked``: the ids of the chapters the source
    starts on a new page)."""
    # Imported here: WeasyPrint takes a while to import and `rulepress --help` must be quick.
    from weasyprint import HTML

    unknown = [p for p in papers if p not in PAPERS_MM]
    if unknown or not papers:
        raise ValueError(f"paper must be one of {', '.join(PAPERS_MM)}, not {unknown!r}")
    if (booklet or press) and len(papers) > 1:
        raise ValueError("a booklet or press book is typeset for one paper at a time")
    folder = Path(base_url).resolve()
    fonts = templates_dir() / "fonts"
    fetcher = JailedFetcher([*allowed_roots, fonts])
    date = _epoch_date()  # read before pinning: no dates unless the caller gives an epoch
    size = PAPERS[papers[0]].booklet_page_css if booklet else COMMON_PAGE
    options = PDF_OPTIONS
    if press:
        # Loaded for --press alone: they bring pypdf.
        from rulepress.press.convert import press_css
        from rulepress.press.pdfx import profile_path  # pypdf: for --press alone

        fetcher = JailedFetcher([*allowed_roots, fonts, profile_path().parent])
        size, options = PAPERS[papers[0]].page_css, {"pdf_variant": "pdf/x-1a"}
    css = print_css(Path(base_url), size, booklet, page_lang(html))
    if press:
        css += press_css(papers[0], profile_path().as_uri())
    # A translation's words broken where its language breaks them, not only by its patterns.
    page = with_print_css(with_breaks(figures_as_images(html), page_lang(html), folder), css)
    source = HTML(string=page, base_url=folder.as_uri() + "/", url_fetcher=fetcher)
    href = attachment_href(source)
    if href is not None:
        raise RulepressError.at(refusal_loc(href, Path(base_url)),
                                f"refused attachment '{href}': rulebooks embed no files")
    pdfs: dict[str, bytes] = {}
    first, *others = papers
    painted: list[tuple[Any, list[Any], dict[int, Box]]] = []

    def on_paper(_: Any, pdf: Any) -> None:
        pages = _typeset_pages(pdf)
        painted.append((pdf, list(pdf.objects), pages))  # the objects before writing adds some
        if not press:  # the press book keeps WeasyPrint's boxes: trim, bleed, marks
            _on_paper(pdf, pages, None if booklet else first)

    try:
        with _pinned_epoch():
            document = source.render(font_config=theme_fonts(fonts), **options)
            parted = _parted_stages(document)
            if parted:  # a box taller than a page: its title again where it goes on
                again = _continued(html, parted, Path(base_url))
                # its words given their breaks again: this page replaces the first
                page = with_print_css(with_breaks(figures_as_images(again), page_lang(html),
                                                  folder), css)
                source = HTML(string=page, base_url=folder.as_uri() + "/", url_fetcher=fetcher)
                document = source.render(font_config=theme_fonts(fonts), **options)
            document.metadata.created = document.metadata.modified = date
            if faults is not None:  # every paper has the same pages: measured once
                faults += measure(document, asked)
            pdfs[first] = document.write_pdf(finisher=on_paper, **options)
            # The pages are painted once: another paper differs only in its page boxes, so
            # the finished PDF is written again with those.
            (pdf, objects, pages), = painted
            for paper in others:
                pdf.objects, pdf.current_position, pdf.xref_position = list(objects), 0, None
                pdfs[paper] = _written(_on_paper(pdf, pages, paper))
    except RefusedFetch:
        pass  # remembered by the fetcher, reported below
    if fetcher.refused:  # also those refused inside an SVG, where WeasyPrint only logs
        refused = fetcher.refused[0]
        raise RulepressError.at(refusal_loc(refused.url, Path(base_url)), str(refused))
    if not booklet and not press:
        _check_fits(painted[0][2], papers, Path(base_url))
    if press:
        pdfs[first] = _pressed(pdfs[first], Path(base_url))
    return pdfs


def _pressed(data: bytes, game_folder: Path) -> bytes:
    """WeasyPrint's PDF/X-1a made so (press.convert, press.pdfx) and checked: a rule broken
    is an error at the game's print.css (the theme's when the game has none)."""
    # Loaded for --press alone: pypdf is a slow import.
    from pypdf import PdfReader

    from rulepress.press import pdfx  # pypdf: for --press alone
    from rulepress.press.convert import to_press  # numpy, pypdf: for --press alone

    info = PdfReader(io.BytesIO(data)).metadata
    made = pdfx.make(to_press(data), str(info.get("/Title", "")) if info is not None else "")
    problems = pdfx.check(made)
    if problems:
        css = template_path(game_environment(game_folder), "print.css")
        raise RulepressError([error(SourceLoc(css, 1), (
            f"press: page {p.page}: " if p.page else "press: ") + f"not PDF/X-1a: {p.text}")
            for p in problems])
    return made


def _parted_stages(document: Any) -> list[str]:
    """The stages (an example box's figures, by data-stage) that start a page after the one
    their box starts on, the first of each such page: a box taller than what was left."""
    first: dict[str, int] = {}
    for n, page in enumerate(document.pages):
        for box in page._page_box.descendants():
            element = getattr(box, "element", None)
            tag = getattr(box, "element_tag", "")
            key = None if element is None else (element.get("data-stage") if tag == "figure"
                                                else element.get("id") if tag == "aside"
                                                else None)
            if key and key not in first:
                first[key] = n
    parted: dict[tuple[str, int], str] = {}
    for key, n in first.items():
        owner = key.rpartition("-fig")[0]
        if owner in first and n > first[owner]:
            parted.setdefault((owner, n), key)
    return list(parted.values())


def _continued(html: str, stages: Sequence[str], game_folder: Path) -> str:
    """``html`` with "<title> (continued)" above each of ``stages`` (see _parted_stages)."""
    _ = theme_words(page_lang(html), game_folder)
    for key in stages:
        owner = key.rpartition("-fig")[0]
        title = re.search(rf'id="{re.escape(owner)}--title">(.*?)</p>', html, re.S)
        at = html.find(f'<figure data-stage="{key}"')
        if title is None or at < 0:
            continue
        said = _("{title} (continued)", title=title.group(1))
        html = (f'{html[:at]}<p class="stage-continued">{said}</p>'
                f"{html[at:]}")
    return html


def _check_fits(pages: dict[int, Box], papers: Sequence[str], game_folder: Path) -> None:
    """Every page fits every paper: a print.css override that sets its own @page size (not
    ``page_size``) would otherwise give the other paper pages larger than itself."""
    too_large = next(((paper, box) for paper in papers for box in pages.values()
                      if box[2] - box[0] > PAPERS_MM[paper][0] * POINTS_PER_MM + 0.5
                      or box[3] - box[1] > PAPERS_MM[paper][1] * POINTS_PER_MM + 0.5), None)
    if too_large is None:
        return
    paper, (left, bottom, right, top) = too_large
    css = template_path(game_environment(game_folder), "print.css")
    text = css.read_text(encoding="utf-8", errors="replace").splitlines()
    line = next((n for n, ln in enumerate(text, 1) if re.search(r"(?<![\w-])size\s*:", ln)), 1)
    size = f"{(right - left) / POINTS_PER_MM:.1f} x {(top - bottom) / POINTS_PER_MM:.1f}"
    raise RulepressError.at(SourceLoc(css, line), (
        f"print.css sets pages of {size} mm, larger than {PAPER_NAMES[paper]} "
        f"({PAPERS_MM[paper][0]:g} x {PAPERS_MM[paper][1]:g} mm): use "
        f"@page {{ size: {{{{ page_size }}}} }}, the page every paper holds"))


Box = tuple[float, float, float, float]  # left, bottom, right, top, in points


def _typeset_pages(pdf: Any) -> dict[int, Box]:
    """Each page object's number -> its page box as typeset: WeasyPrint's TrimBox, as its
    MediaBox also holds any bleed (the cover's colour runs into the margin a paper adds)."""
    import pydyf

    pages: dict[int, Box] = {}
    for obj in pdf.objects:
        if isinstance(obj, pydyf.Dictionary) and obj.get("Type") == "/Page":
            left, bottom, right, top = (float(v) for v in obj.get("TrimBox", obj["MediaBox"]))
            pages[obj.number] = (left, bottom, right, top)
    return pages


def _on_paper(pdf: Any, pages: dict[int, Box], paper: str | None) -> Any:
    """``pdf`` (pydyf's, before it is written) with each of its ``pages`` put on ``paper``:
    the paper's extra width and height go equally to opposite margins (None: the page as
    typeset). The paper is the page: no trim or bleed box for a print shop to cut to."""
    import pydyf

    width, height = (mm * POINTS_PER_MM for mm in PAPERS_MM[paper]) if paper else (0.0, 0.0)
    for obj in pdf.objects:
        if obj.number not in pages:
            continue
        left, bottom, right, top = pages[obj.number]
        dx = max(0.0, width - right + left) / 2
        dy = max(0.0, height - top + bottom) / 2
        obj["MediaBox"] = pydyf.Array([left - dx, bottom - dy, right + dx, top + dy])
        obj.pop("TrimBox", None)
        obj.pop("BleedBox", None)
    return pdf


def _written(pdf: Any) -> bytes:
    """``pdf`` written as WeasyPrint writes it (the same options, so the same bytes)."""
    from weasyprint import DEFAULT_OPTIONS

    options = {**DEFAULT_OPTIONS, **PDF_OPTIONS}
    out = io.BytesIO()
    pdf.write(out, options["pdf_version"], options["pdf_identifier"],
              not options["uncompressed_pdf"])
    return out.getvalue()

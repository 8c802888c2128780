"""HTML rulebook -> PDF (A4 or US Letter) through WeasyPrint and the jailed fetcher."""

from __future__ import annotations

import base64
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

from rulepress.diagnostics import RulepressError
from rulepress.paths import templates_dir
from rulepress.render.fetcher import JailedFetcher, RefusedFetch
from rulepress.render.html import FONT_FACES, game_environment, run_templates
from rulepress.render.offline import refusal_loc

PAGE_SIZES = {"a4": "A4", "letter": "letter"}
BOOKLET_PAGE_SIZES = {"a4": "A5", "letter": "5.5in 8.5in"}  # half a sheet, typeset at that size
# Tagged PDF for screen readers; PDF/UA-1 also writes XMP metadata (title, language), no dates.
PDF_OPTIONS: dict[str, Any] = {"pdf_variant": "pdf/ua-1", "pdf_tags": True, "pdf_version": "1.7"}


@cache
def print_css(game_folder: Path, paper: str, booklet: bool = False) -> str:
    """The print stylesheet for ``paper``, or for the pages of a booklet printed on it (a game's
    templates/print.css may replace the theme's)."""
    env = game_environment(game_folder)
    fonts_url = (templates_dir() / "fonts").as_uri()
    page_size = (BOOKLET_PAGE_SIZES if booklet else PAGE_SIZES)[paper]
    return run_templates(env, "print.css", lambda: env.get_template("print.css").render(
        page_size=page_size, booklet=booklet, font_faces=FONT_FACES, fonts_url=fonts_url))


def with_print_css(html: str, css: str) -> str:
    """Add the print stylesheet after the page's own, as an author stylesheet, so it wins."""
    head_end = html.find("</head>")
    if head_end < 0:
        raise ValueError("render_pdf needs a page from render_html (no </head> found)")
    return f"{html[:head_end]}<style>\n{css}</style>\n{html[head_end:]}"


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
        caption = re.search(r"<figcaption>(.*?)</figcaption>", html[end:end + 2000], re.S)
        alt = html_escape(unescape(re.sub(r"<[^>]+>", "", caption.group(1))) if caption else "")
        data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
        out += [html[pos:start], f'<img alt="{alt}" src="data:image/svg+xml;base64,{data}">']
        pos = end
    out.append(html[pos:])
    return "".join(out)


# Without HarfBuzz's subsetter WeasyPrint subsets fonts with fontTools, which stamps each font
# with SOURCE_DATE_EPOCH, or the clock when it is unset: pin it while rendering.
FALLBACK_EPOCH = "1767225600"  # 2026-01-01T00:00:00Z


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


def render_pdf(html: str, paper: str, *, base_url: Path, allowed_roots: Sequence[Path],
               booklet: bool = False) -> bytes:
    """Typeset ``html`` (from render_html) as a PDF on ``paper`` ("a4" or "letter"), or with
    ``booklet`` on the half-sheet pages that render.booklet imposes on it.

    ``base_url``: the game's source folder (relative references resolve there, and a game's
    templates/print.css overrides the theme's). Only files under ``allowed_roots`` (plus the
    bundled fonts) are read; anything else fails the render with a RulepressError.
    The same input gives the same bytes.
    """
    # Imported here: WeasyPrint takes a while to import and `rulepress --help` must be quick.
    from weasyprint import HTML
    from weasyprint.text.fonts import FontConfiguration

    if paper not in PAGE_SIZES:
        raise ValueError(f"paper must be one of {', '.join(PAGE_SIZES)}, not {paper!r}")
    folder = Path(base_url).resolve()
    fonts = templates_dir() / "fonts"
    fetcher = JailedFetcher([*allowed_roots, fonts])
    font_config = FontConfiguration()
    date = _epoch_date()  # read before pinning: no dates unless the caller gives an epoch
    page = with_print_css(figures_as_images(html), print_css(Path(base_url), paper, booklet))
    source = HTML(string=page, base_url=folder.as_uri() + "/", url_fetcher=fetcher)
    href = attachment_href(source)
    if href is not None:
        raise RulepressError.at(refusal_loc(href, Path(base_url)),
                                f"refused attachment '{href}': rulebooks embed no files")
    try:
        with _pinned_epoch():
            document = source.render(font_config=font_config, **PDF_OPTIONS)
            document.metadata.created = document.metadata.modified = date
            data: bytes = document.write_pdf(**PDF_OPTIONS)
    except RefusedFetch:
        pass  # remembered by the fetcher, reported below
    if fetcher.refused:  # also those refused inside an SVG, where WeasyPrint only logs
        refused = fetcher.refused[0]
        raise RulepressError.at(refusal_loc(refused.url, Path(base_url)), str(refused))
    return data


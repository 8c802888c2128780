"""HTML rulebook -> PDF (A4 or US Letter) through WeasyPrint and the jailed fetcher."""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

from rulepress.diagnostics import RulepressError
from rulepress.render.fetcher import JailedFetcher, RefusedFetch
from rulepress.render.html import FONT_FACES, game_environment, templates_dir

PAGE_SIZES = {"a4": "A4", "letter": "letter"}
# Tagged PDF for screen readers; PDF/UA-1 also writes XMP metadata (title, language), no dates.
PDF_OPTIONS: dict[str, Any] = {"pdf_variant": "pdf/ua-1", "pdf_tags": True, "pdf_version": "1.7"}
_ATTACHMENT = re.compile(r"""<[^>]*\brel\s*=\s*["']?[^"'>]*\battachment\b""", re.I)


@cache
def print_css(game_folder: Path, paper: str) -> str:
    """The print stylesheet for ``paper`` (a game's templates/print.css may replace the theme's)."""
    env = game_environment(game_folder)
    fonts_url = (templates_dir() / "fonts").as_uri()
    return env.get_template("print.css").render(
        page_size=PAGE_SIZES[paper], font_faces=FONT_FACES, fonts_url=fonts_url)


def with_print_css(html: str, css: str) -> str:
    """Add the print stylesheet after the page's own, as an author stylesheet, so it wins."""
    head_end = html.find("</head>")
    if head_end < 0:
        raise ValueError("render_pdf needs a page from render_html (no </head> found)")
    return f"{html[:head_end]}<style>\n{css}</style>\n{html[head_end:]}"


def _epoch_date() -> str | None:
    """SOURCE_DATE_EPOCH as a W3C date, so dated metadata is still reproducible."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not epoch.isdigit():
        return None
    return datetime.fromtimestamp(int(epoch), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def render_pdf(html: str, paper: str, *, base_url: Path, allowed_roots: Sequence[Path]) -> bytes:
    """Typeset ``html`` (from render_html) as a PDF on ``paper`` ("a4" or "letter").

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
    attachment = _ATTACHMENT.search(html)
    if attachment:
        raise RulepressError.at(None, f"refused attachment {attachment.group(0)!r}: "
                                      "rulebooks embed no files")
    folder = Path(base_url).resolve()
    fonts = templates_dir() / "fonts"
    fetcher = JailedFetcher([*allowed_roots, fonts])
    font_config = FontConfiguration()
    try:
        page = with_print_css(html, print_css(folder, paper))
        document = HTML(string=page, base_url=folder.as_uri() + "/", url_fetcher=fetcher).render(
            font_config=font_config, **PDF_OPTIONS)
        date = _epoch_date()
        document.metadata.created = document.metadata.modified = date
        data: bytes = document.write_pdf(**PDF_OPTIONS)
    except RefusedFetch as refused:
        raise RulepressError.at(None, str(refused)) from None
    if fetcher.refused:  # refused inside an SVG, where WeasyPrint only logs
        raise RulepressError.at(None, str(fetcher.refused[0]))
    return data


def quiet_weasyprint() -> None:
    """WeasyPrint logs CSS it ignores at WARNING; the build reports its own diagnostics."""
    logging.getLogger("weasyprint").setLevel(logging.ERROR)

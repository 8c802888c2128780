"""Render phase: Document + proven examples -> HTML page, PDF rulebooks, build/index.html.

``render_pdf`` is imported on first use: it brings WeasyPrint, which ``rulepress check`` and
the HTML-only paths do not need.
"""

from typing import Any

from rulepress.media import FALLBACK_EPOCH, PAPER_NAMES
from rulepress.paths import templates_dir
from rulepress.render.glyphs import check_glyphs
from rulepress.render.html import FONTS, IndexEntry, render_html, render_index
from rulepress.render.references import RESERVED_IDS, check_references

__all__ = [
    "FALLBACK_EPOCH",
    "FONTS",
    "PAPER_NAMES",
    "RESERVED_IDS",
    "IndexEntry",
    "check_glyphs",
    "check_references",
    "render_html",
    "render_index",
    "render_pdf",
    "templates_dir",
]


def __getattr__(name: str) -> Any:
    if name == "render_pdf":
        from rulepress.render.pdf import render_pdf  # WeasyPrint: only a PDF needs it

        return render_pdf
    raise AttributeError(name)

"""Render phase: Document + proven examples -> HTML page, PDF rulebooks, build/index.html."""

from rulepress.paths import templates_dir
from rulepress.render.glyphs import check_glyphs
from rulepress.render.html import IndexEntry, render_html, render_index
from rulepress.render.pdf import render_pdf
from rulepress.render.references import RESERVED_IDS, check_references

__all__ = [
    "RESERVED_IDS",
    "IndexEntry",
    "check_glyphs",
    "check_references",
    "render_html",
    "render_index",
    "render_pdf",
    "templates_dir",
]

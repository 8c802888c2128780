"""The one Markdown dialect rulepress reads: CommonMark plus tables and ``:::`` blocks."""

from __future__ import annotations

from markdown_it import MarkdownIt
from mdit_py_plugins.container import container_plugin

from rulepress.document.editions import CONTAINER


def make_parser(*, detect_html: bool = False) -> MarkdownIt:
    """Raw HTML is never rendered: the reader parses with ``detect_html`` to report it.

    ``::: name`` ... ``:::`` blocks are parsed whatever the name; the reader judges the name.
    """
    md = MarkdownIt("commonmark", {"html": detect_html, "typographer": True}).enable(
        ["table", "replacements", "smartquotes"]
    )
    container_plugin(md, CONTAINER, validate=lambda params, *rest: True)
    return md

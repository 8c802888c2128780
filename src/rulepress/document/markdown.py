"""The one Markdown dialect rulepress reads: CommonMark plus tables."""

from __future__ import annotations

from markdown_it import MarkdownIt


def make_parser(*, detect_html: bool = False) -> MarkdownIt:
    """Raw HTML is never rendered: the reader parses with ``detect_html`` to report it."""
    return MarkdownIt("commonmark", {"html": detect_html, "typographer": True}).enable(
        ["table", "replacements", "smartquotes"]
    )

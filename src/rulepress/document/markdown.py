"""The one Markdown dialect rulepress reads: CommonMark plus tables, raw HTML disabled."""

from __future__ import annotations

from markdown_it import MarkdownIt


def make_parser() -> MarkdownIt:
    # html=False: raw HTML is never passed through; the reader reports it as an error.
    return MarkdownIt("commonmark", {"html": False, "typographer": True}).enable(
        ["table", "replacements", "smartquotes"]
    )

"""The one Markdown dialect rulepress reads: CommonMark plus tables and ``:::`` blocks."""

from __future__ import annotations

from collections.abc import Iterable

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.container import container_plugin

from rulepress.document.editions import CONTAINER
from rulepress.limits import MAX_MARKDOWN_NESTING


def make_parser(*, detect_html: bool = False) -> MarkdownIt:
    """Raw HTML is never rendered: the reader parses with ``detect_html`` to report it.

    ``::: name`` ... ``:::`` blocks are parsed whatever the name; the reader judges the name.
    """
    md = MarkdownIt("commonmark", {"html": detect_html, "typographer": True}).enable(
        ["table", "replacements", "smartquotes"]
    )
    container_plugin(md, CONTAINER, validate=lambda params, *rest: True)
    return md


def too_deep(tokens: Iterable[Token]) -> int | None:
    """The 0-based line of the first inline run nested deeper than the limit (emphasis in
    emphasis ...), or None. Blocks stop nesting at markdown-it's own maxNesting."""
    for token in tokens:
        depth = 0
        for child in token.children or ():
            depth += child.nesting
            if depth > MAX_MARKDOWN_NESTING:
                return token.map[0] if token.map else 0
    return None


TOO_DEEP = f"Markdown nested more than {MAX_MARKDOWN_NESTING} levels deep (emphasis in emphasis)"

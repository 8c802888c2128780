"""The one Markdown dialect rulepress reads: CommonMark plus tables and ``:::`` blocks."""

from __future__ import annotations

import re
from collections.abc import Iterable

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
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
    # markdown-it silently drops what nests past its maxNesting (20 in the commonmark preset):
    # ours is checked first (too_deep), so the parser must go just past it.
    md.options["maxNesting"] = MAX_MARKDOWN_NESTING + 2
    container_plugin(md, CONTAINER, validate=lambda params, *rest: True)
    md.inline.ruler.before("link", DFN, _dfn)
    md.inline.ruler.before("link", "rp_icon", _icon)
    return md


_ICON_OPEN = ":icon["
ICON_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*\Z")


def _icon(state: StateInline, silent: bool) -> bool:
    """``:icon[shell]``: the game's icon images/shell.svg (or .png), an image token marked
    ``icon`` whose file the renderer picks (it knows the game's folder)."""
    start = state.pos
    if not state.src.startswith(_ICON_OPEN, start):
        return False
    end = state.src.find("]", start)
    name = state.src[start + len(_ICON_OPEN):end] if end > 0 else ""
    if not ICON_NAME.match(name):
        return False
    if not silent:
        token = state.push("image", "img", 0)
        token.attrs = {"src": name, "alt": "", "class": "icon"}
        token.children = [Token("text", "", 0, content=name)]  # its alt text: the name
        token.meta["icon"] = name
    state.pos = end + 1
    return True


DFN = "dfn"  # ``:dfn[three-card column]`` marks where a term is defined (a token of this type)
_DFN_OPEN = ":dfn["


_DFN_ATTRS = re.compile(r'\{((?:\s*[A-Za-z_][\w-]*\s*=\s*"[^"]*")*)\s*\}')
DFN_ATTR = re.compile(r'([A-Za-z_][\w-]*)\s*=\s*"([^"]*)"')


def _dfn(state: StateInline, silent: bool) -> bool:
    """``:dfn[term]``: the term, without brackets, code or emphasis inside; then, if the
    author gives them, its attributes: ``{def="A bomb is ..." also="hand size; hand"}``,
    kept in ``meta["attrs"]`` (with ``meta["breaks"]``: the line breaks inside them)."""
    start = state.pos
    if not state.src.startswith(_DFN_OPEN, start):
        return False
    end = state.src.find("]", start)
    term = state.src[start + len(_DFN_OPEN):end] if end > 0 else ""
    if not term.strip() or any(c in term for c in "[`*_"):
        return False
    attrs = _DFN_ATTRS.match(state.src, end + 1)
    if not silent:
        token = state.push(DFN, "dfn", 0)
        token.content = " ".join(term.split())
        token.markup = _DFN_OPEN
        if attrs is not None:
            token.meta["attrs"] = {k: " ".join(v.split())
                                   for k, v in DFN_ATTR.findall(attrs[1])}
            token.meta["breaks"] = attrs[0].count("\n")
    state.pos = attrs.end() if attrs is not None else end + 1
    return True


def too_deep(tokens: Iterable[Token]) -> tuple[int, str] | None:
    """The 0-based line of the first block (quotes, lists) or inline run (emphasis in emphasis
    ...) nested deeper than the limit, and what to say; None if there is none."""
    for token in tokens:
        if token.nesting == 1 and token.level > MAX_MARKDOWN_NESTING:  # a list item counts 2
            return (token.map[0] if token.map else 0), _TOO_DEEP.format(
                "quotes, lists or ::: blocks in one another")
        depth = 0
        for child in token.children or ():
            depth += child.nesting
            if depth > MAX_MARKDOWN_NESTING:
                return (token.map[0] if token.map else 0), _TOO_DEEP.format("emphasis in emphasis")
    return None


_TOO_DEEP = f"Markdown nested more than {MAX_MARKDOWN_NESTING} levels deep ({{}})"

"""The rule text's Markdown body -> HTML, with anchors on headings and example boxes in place."""

from __future__ import annotations

import base64
import html
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import OptionsDict

from rulepress.diagnostics import RulepressError, SourceLoc
from rulepress.document.editions import BOX, CONTAINER, REFERENCE, heading_marker
from rulepress.document.markdown import DFN, make_parser, too_deep
from rulepress.document.model import Document, Example
from rulepress.document.numbers import fill
from rulepress.document.reader import EXAMPLE_INFO, SIMULATION_INFO
from rulepress.document.slug import slugify, unique
from rulepress.images import BadImage, icon_file, unknown_icon
from rulepress.jail import PathRefused
from rulepress.render.lookup import Lookup, annotate, link_inline, render_dfn
from rulepress.render.references import known_anchors, load_image

# A section with one of these titles is where the components table goes (at its end) ...
COMPONENT_SECTIONS = frozenset({
    "components", "component list", "what you need", "materials", "equipment", "contents",
    "in the box", "what's in the box", "what’s in the box", "game contents",
})
# ... else a "Components" section of its own goes before the first of these (or the first section).
SETUP_SECTIONS = ("setup", "set-up", "set up", "setting up", "preparation", "getting ready")
# Matched against a heading's anchor, made from the source's words: a translation's heading
# text ("Mise en place") never moves the table.
_COMPONENT_ANCHORS = frozenset(slugify(s) for s in COMPONENT_SECTIONS) | {"components"}
_SETUP_ANCHORS = tuple(slugify(s) for s in SETUP_SECTIONS)
COMPONENTS_ID = "rp-components"


@dataclass(frozen=True)
class TocEntry:
    rank: int  # 1 = top-level section of the body, 2 = its subsection ...
    text: str
    anchor: str


@dataclass(frozen=True)
class Body:
    html: str
    toc: tuple[TocEntry, ...]
    title_anchor: str | None  # anchor of a leading "# <title>" heading folded into the cover
    rows: tuple[tuple[str, str], ...] = ()  # each table row's heading and the row's anchor


ExampleBox = Callable[[Example], str]


def _escape_html(self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict,
                 env: MutableMapping[str, Any]) -> str:
    # The reader refuses raw HTML; if any ever reaches us it is shown as text, never passed on.
    return html.escape(tokens[idx].content)


def _fence(self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict,
           env: MutableMapping[str, Any]) -> str:
    token = tokens[idx]
    if token.info.strip() in (EXAMPLE_INFO, SIMULATION_INFO) and "example_box" in env:
        box: Callable[[Token], str] = env["example_box"]
        return box(token)
    return RendererHTML.fence(self, tokens, idx, options, env)


def _table_open(self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict,
                env: MutableMapping[str, Any]) -> str:
    # A wrapper lets a wide table scroll sideways on a phone instead of widening the page.
    return '<div class="table-wrap">' + self.renderToken(tokens, idx, options, env)


def _table_close(self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict,
                 env: MutableMapping[str, Any]) -> str:
    return self.renderToken(tokens, idx, options, env) + "</div>\n"


def _container_open(self: RendererHTML, tokens: Sequence[Token], idx: int,
                    options: OptionsDict, env: MutableMapping[str, Any]) -> str:
    # A ::: edition block that is kept prints its content and nothing of its own; a box frames.
    box = tokens[idx].info.strip() == BOX
    env.setdefault("rp_blocks", []).append(box)
    return '<div class="box" role="note">\n' if box else ""


def _container_close(self: RendererHTML, tokens: Sequence[Token], idx: int,
                     options: OptionsDict, env: MutableMapping[str, Any]) -> str:
    blocks = env.get("rp_blocks") or [False]
    return "</div>\n" if blocks.pop() else ""


def _raw(self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict,
         env: MutableMapping[str, Any]) -> str:
    return tokens[idx].content  # our own pre-rendered HTML (components table)


@cache
def render_parser() -> MarkdownIt:
    md = make_parser()
    md.add_render_rule("html_block", _escape_html)
    md.add_render_rule("html_inline", _escape_html)
    md.add_render_rule("fence", _fence)
    md.add_render_rule("table_open", _table_open)
    md.add_render_rule("table_close", _table_close)
    md.add_render_rule("rp_raw", _raw)
    md.add_render_rule(DFN, render_dfn)
    md.add_render_rule(f"container_{CONTAINER}_open", _container_open)
    md.add_render_rule(f"container_{CONTAINER}_close", _container_close)
    return md


def plain_text(inline: Token) -> str:
    parts: list[str] = []
    for child in inline.children or ():
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type == "image":
            parts.append(child.content)
    return "".join(parts).strip()


def inline_image(src: str, folder: Path, loc: SourceLoc) -> str:
    """A local image as a data: URL, so the page needs no file beside it."""
    try:
        media_type, data = load_image(src, folder)
    except (PathRefused, BadImage) as exc:
        raise RulepressError.at(loc, f"refused image '{src}': {exc}") from None
    except OSError as exc:
        raise RulepressError.at(
            loc, f"refused image '{src}': cannot read it: {exc.strerror}") from None
    return f"data:{media_type};base64,{base64.b64encode(data).decode('ascii')}"


def _inline_images(tokens: Sequence[Token], folder: Path, path: Path, first_line: int) -> None:
    for token in tokens:
        if token.type != "inline":
            continue
        line = (token.map[0] if token.map else 0) + first_line
        for child in token.children or ():
            if child.type == "image" and "icon" in child.meta:
                src = icon_file(child.meta["icon"], folder)
                if src is None:  # check said so first; a template's own page may not have
                    raise RulepressError.at(SourceLoc(path, line), f"refused icon '"
                                            f"{child.meta['icon']}': "
                                            f"{unknown_icon(child.meta['icon'], folder)}")
                child.attrSet("src", inline_image(src, folder, SourceLoc(path, line)))
            elif child.type == "image":
                child.attrSet("src", inline_image(str(child.attrGet("src")), folder,
                                                  SourceLoc(path, line)))
            elif child.type in ("softbreak", "hardbreak"):
                line += 1
            elif child.type == DFN:
                line += child.meta.get("breaks", 0)


def render_markdown(markdown: str, folder: Path, path: Path, first_line: int,
                    found: Lookup | None = None) -> str:
    """Markdown (an example's prose) to HTML, images inlined; headings get no anchors.
    ``found``: the page's terms and cross-references, linked as in the body."""
    md = render_parser()
    tokens = md.parse(markdown)
    deep = too_deep(tokens)
    if deep is not None:
        raise RulepressError.at(SourceLoc(path, first_line + deep[0]), deep[1])
    _inline_images(tokens, folder, path, first_line)
    for token in tokens:
        if token.type == "inline" and found is not None:
            link_inline(token, found)
    return str(md.renderer.render(tokens, md.options, {}))


def _heading(level: int, text: str, anchor: str, rank: int) -> list[Token]:
    opening = Token("heading_open", f"h{level}", 1, block=True)
    opening.attrs = {"id": anchor, "class": f"rank-{rank}"}
    inline = Token("inline", "", 0, content=text, block=True)
    inline.children = [Token("text", "", 0, content=text)]
    return [opening, inline, Token("heading_close", f"h{level}", -1, block=True)]


def _raw_token(content: str) -> Token:
    return Token("rp_raw", "", 0, content=content, block=True)


def parse_parts(doc: Document, edition: str) -> list[Token]:
    """The tokens of every part of the body that ``edition`` prints, in order, images inlined;
    each block token that starts a source line carries its SourceLoc in ``meta["loc"]``."""
    md = render_parser()
    tokens: list[Token] = []
    for part in doc.parts:
        if doc.language is None:
            found = md.parse(fill(doc, part.text))  # engine numbers in, rule marks off
        else:  # a translation: looked up by the text as written, then filled
            from rulepress.i18n.apply import (  # Babel: a translation's alone
                translate_tokens,  # Babel comes with it: a translation's alone
            )

            found = md.parse(part.text)
            translate_tokens(md, found, doc.language, lambda text: fill(doc, text))
        for token in found:
            if token.map is not None:
                token.meta["loc"] = part.loc(token.map[0])
        kept = _in_edition(doc, found, edition)
        _inline_images(kept, doc.folder, part.path, part.first_line)
        tokens += kept
    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            _drop_marker(tokens[i + 1])
    return tokens


def _in_edition(doc: Document, tokens: Sequence[Token], edition: str) -> list[Token]:
    """The tokens ``edition`` prints: a block whose first line it leaves out goes whole."""
    kept: list[Token] = []
    skip = 0  # nesting depth of the block being left out
    for token in tokens:
        if skip:
            skip += token.nesting
            continue
        loc = token.meta.get("loc")
        if loc is not None and not doc.keeps(edition, loc):
            skip = max(token.nesting, 0)
            continue
        kept.append(token)
    return kept


def _drop_marker(inline: Token) -> None:
    """'Clarifications {.reference}' prints as 'Clarifications'."""
    children = inline.children or []
    if children and children[-1].type == "text":
        children[-1].content = heading_marker(children[-1].content)[0]
        inline.content = heading_marker(inline.content)[0]


def _source_words(anchor: str) -> str:
    """A heading's anchor without the number that keeps it unique ("setup-2")."""
    stem, sep, n = anchor.rpartition("-")
    return stem if sep and n.isdigit() else anchor


def render_body(
    doc: Document, example_box: ExampleBox, components_html: str, edition: str = REFERENCE,
    components_title: str = "Components",
) -> Body:
    """Render the body: anchors from the reader's headings, example fences as boxes, the
    components table at the end of a "Components" section (or as its own section before the
    first one), and a leading ``# <title>`` dropped in favour of the cover."""
    md = render_parser()
    tokens = parse_parts(doc, edition)
    annotate(doc, tokens, edition)
    by_loc = {h.loc: h for h in doc.headings}
    examples_at: Mapping[SourceLoc, Example] = {e.loc: e for e in doc.boxes}

    # Which headings are there: (index of heading_open, level, text, anchor)
    heads: list[tuple[int, int, str, str]] = []
    taken = set(known_anchors(doc))
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and "loc" in token.meta:
            text = plain_text(tokens[i + 1])
            known = by_loc.get(token.meta["loc"])
            # The reader's anchor; without one (a hand-built fixture) slug it the reader's way.
            anchor = known.anchor if known is not None else unique(slugify(text), taken)
            heads.append((i, int(token.tag[1]), text, anchor))
            if known is not None and known.new_page:
                token.meta["new_page"] = True

    title_anchor: str | None = None
    drop: set[int] = set()
    if heads and heads[0][1] == 1 and heads[0][2].casefold() == doc.meta.title.casefold():
        title_anchor = heads[0][3]
        drop = {heads[0][0], heads[0][0] + 1, heads[0][0] + 2}
        heads = heads[1:]
    top = min((level for _, level, _, _ in heads), default=2)

    # Where the components table goes.
    comp_at: int | None = None  # insert before this token index (len(tokens) = at the end)
    synthetic = False
    if components_html:
        for n, (_, level, _text, anchor) in enumerate(heads):
            if level == top and _source_words(anchor) in _COMPONENT_ANCHORS:
                later = [j for j, lv, _, _ in heads[n + 1 :] if lv <= level]
                comp_at = later[0] if later else len(tokens)
                break
        else:
            firsts = [i for i, level, _, _ in heads if level == top]
            setups = [i for i, level, _, anchor in heads
                      if level == top and _source_words(anchor).startswith(_SETUP_ANCHORS)]
            comp_at = (setups or firsts or [len(tokens)])[0]
            synthetic = True

    out: list[Token] = []
    toc: list[TocEntry] = []
    head_at = {i: (level, text, anchor) for i, level, text, anchor in heads}
    for i in range(len(tokens) + 1):
        if i == comp_at:
            if synthetic:
                out.extend(_heading(top, components_title, COMPONENTS_ID, 1))
                toc.append(TocEntry(1, components_title, COMPONENTS_ID))
            out.append(_raw_token(components_html))
        if i == len(tokens):
            break
        if i in drop:
            continue
        token = tokens[i]
        if i in head_at:
            level, text, anchor = head_at[i]
            rank = level - top + 1
            token.attrSet("id", anchor)
            token.attrSet("class", f"rank-{rank}" + (" new-page" if token.meta.get("new_page")
                                                    else ""))
            toc.append(TocEntry(rank, text, anchor))
        out.append(token)

    def box(token: Token) -> str:
        example = examples_at.get(token.meta["loc"])
        if example is None:
            raise RulepressError.at(token.meta["loc"], "example block not read")
        return example_box(example) if doc.has_example(example, edition) else ""

    rows = _row_heads(out, taken)  # before rendering: each row named gets its anchor
    rendered = md.renderer.render(out, md.options, {"example_box": box})
    return Body(str(rendered), tuple(toc), title_anchor, rows)


ROW_PREFIX = "row-"
QUOTES = frozenset("“”„‘’'\"«»")
MAX_ROW_HEAD_WORDS = 8  # a row heading longer than this is a sentence, not a name to look up


def _row_heads(tokens: Sequence[Token], taken: set[str]) -> tuple[tuple[str, str], ...]:
    """The first cell of each table body row: the index lists them ("Brights (A)"), each
    once, pointing at the row, which gets the anchor row-<slug>."""
    found: dict[str, tuple[str, str]] = {}
    row: Token | None = None
    for n, token in enumerate(tokens):
        if token.type == "tr_open":
            row = token
        elif token.type == "th_open":
            row = None  # the table's head row names columns
        elif token.type == "td_open" and row is not None:
            text = plain_text(tokens[n + 1]) if n + 1 < len(tokens) else ""
            # a name to look up: some letters, a few words, not a quotation
            if (any(c.isalpha() for c in text) and len(text.split()) <= MAX_ROW_HEAD_WORDS
                    and text[:1] not in QUOTES and text.casefold() not in found):
                anchor = unique(ROW_PREFIX + slugify(text), taken)
                row.attrSet("id", anchor)
                found[text.casefold()] = (text, anchor)
            row = None
    return tuple(found.values())

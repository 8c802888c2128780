"""What a translator translates: the segments of a game's rules, cut along Markdown's structure.

A segment is the inline text of one block (a heading, a paragraph, a list item's paragraph, a
table cell), an example's title or prose, or a text of the front matter. Its text is the
Markdown as written, soft line breaks joined by a space, so a translator sees the markup and
re-wrapping a source paragraph changes nothing. Numbers alone (a table cell "3") are no segment.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from rulepress.diagnostics import SourceLoc
from rulepress.document import yamlines
from rulepress.document.editions import heading_marker
from rulepress.document.markdown import make_parser
from rulepress.document.model import Document
from rulepress.jail import PathRefused, read_regular
from rulepress.limits import MAX_LAYOUT_BYTES

_BREAK = re.compile(r"[ \t]*\n[ \t]*")
_FENCE = re.compile(r"^---\s*$", re.M)


@dataclass(frozen=True)
class Segment:
    text: str  # the msgid
    loc: SourceLoc
    kind: str  # what a translator is told it is: 'heading', 'paragraph', 'example prose' ...
    example: str | None = None  # the example whose prose (or title) it is
    context: str | None = None  # the msgctxt: a card's field, "deck.text" (component.column)

    @property
    def key(self) -> str:
        """Its key in a catalog, as gettext's: the text, after its context and EOT if any."""
        return catalog_key(self.text, self.context)


def catalog_key(text: str, context: str | None) -> str:
    return f"{context}\x04{text}" if context else text


def normal(text: str) -> str:
    """A block's inline Markdown as one line: the segment's text and its lookup key."""
    return _BREAK.sub(" ", text.strip())


def translatable(text: str) -> bool:
    """Whether there is a word to translate outside the {{ placeholders }}."""
    return any(c.isalpha() for c in re.sub(r"\{\{.*?\}\}|\{%.*?%\}", "", text))


@cache
def _parser() -> MarkdownIt:
    return make_parser()


_KINDS = {"heading_open": "heading", "th_open": "table heading", "td_open": "table cell",
          "paragraph_open": "paragraph"}


def block_key(tokens: list[Token], i: int) -> str | None:
    """The segment text of the inline token ``tokens[i]`` (None: nothing to translate)."""
    text = tokens[i].content
    if i and tokens[i - 1].type == "heading_open":
        text = heading_marker(text.strip())[0]
    key = normal(text)
    return key if translatable(key) else None


def body_segments(doc: Document) -> list[Segment]:
    found: list[Segment] = []
    for part in doc.parts:
        tokens = _parser().parse(part.text)
        for i, tok in enumerate(tokens):
            if tok.type != "inline" or tok.map is None:
                continue
            key = block_key(tokens, i)
            if key is None:
                continue
            kind = _KINDS.get(tokens[i - 1].type, "text") if i else "text"
            if kind == "paragraph" and i > 1 and tokens[i - 2].type == "list_item_open":
                kind = "list item"
            found.append(Segment(key, part.loc(tok.map[0]), kind))
    return found


def front_matter_segments(doc: Document) -> list[Segment]:
    """The front matter's texts a reader sees: title, subtitle, duration, credits, the
    licence's name and notice, the sources' titles and notes, the versions' notes (the
    changelog's "First rulepress printing") and the components' names and notes."""
    text = read_regular(doc.path).decode("utf-8", "replace").replace("\r\n", "\n")
    fences = list(_FENCE.finditer(text))
    lines: dict[yamlines.KeyPath, int] = {}
    if len(fences) >= 2:
        _, lines = yamlines.load(text[fences[0].end():fences[1].start()], first_line=1)
    meta = doc.meta

    def at(*path: str | int) -> SourceLoc:
        return SourceLoc(doc.path, yamlines.closest_line(lines, path) or 1)

    pairs: list[tuple[str, SourceLoc, str]] = [
        (meta.title, at("title"), "title"), (meta.subtitle, at("subtitle"), "subtitle"),
        (meta.duration, at("duration"), "duration"), (meta.ages, at("ages"), "ages")]
    pairs += [(c, at("credits", i), "credit") for i, c in enumerate(meta.credits)]
    pairs += [(v.summary, at("versions", i, "summary"), "version note")
              for i, v in enumerate(meta.versions)]
    # The credits page's prose; a licence's own full text stays as its authors wrote it.
    pairs += [(meta.licence.name, at("licence", "name"), "licence name"),
              (meta.licence.notice, at("licence", "notice"), "licence notice")]
    for i, p in enumerate(meta.provenance):
        pairs += [(p.title, at("provenance", i, "title"), "source title"),
                  (p.source, at("provenance", i, "source"), "source"),
                  (p.note, at("provenance", i, "note"), "source note")]
    for i, comp in enumerate(meta.components):
        pairs += [(comp.name, at("components", i, "name"), "component name"),
                  (comp.note, at("components", i, "note"), "component note")]
    return [Segment(normal(t), loc, kind) for t, loc, kind in pairs if translatable(t)]


def example_segments(doc: Document) -> list[Segment]:
    found: list[Segment] = []
    for ex in doc.boxes:
        found.append(Segment(normal(ex.title), ex.line_of(("title",)), "example title", ex.id))
        found.append(Segment(ex.text.strip(), ex.line_of(("text",)), "example prose", ex.id))
    return found


Layout = tuple[Path, dict[str, Any], dict[yamlines.KeyPath, int]]


def _layouts(doc: Document, names: list[str]) -> list[Layout]:
    """The layout files ``names`` and those they extend, each once, read with the YAML reader
    alone (the kit's drawing code is slow to import); a layout that does not read is the kit's
    check's to report."""
    found: list[Layout] = []
    todo = [name for name in names if name.endswith((".yml", ".yaml"))]
    seen: set[Path] = set()
    folder = doc.folder.resolve()
    while todo and len(seen) < 100:
        path = (folder / todo.pop(0)).resolve()
        if path in seen or not path.is_relative_to(folder) or not path.is_file():
            continue
        seen.add(path)
        try:
            text = read_regular(path, MAX_LAYOUT_BYTES).decode("utf-8")
            data, lines = yamlines.load(text, first_line=1)
        except (OSError, PathRefused, UnicodeDecodeError, yamlines.YamlError):
            continue
        if not isinstance(data, dict):
            continue
        if isinstance(data.get("extends"), str):
            todo.append(data["extends"])
        found.append((path, data, lines))
    return found


def layout_segments(doc: Document) -> list[Segment]:
    """The words the kit's layouts print: each text element's text and each table's titles,
    in every layout file a component names and those they extend."""
    found: list[Segment] = []
    folder = doc.folder.resolve()
    names = [name for c in doc.meta.components for name in (c.front, c.back) if name]
    for path, data, lines in _layouts(doc, names):
        elements = data.get("elements")
        for name, element in (elements.items() if isinstance(elements, dict) else ()):
            if not isinstance(element, dict):
                continue
            for key in ("text", "titles"):
                values = element.get(key)
                for n, value in enumerate(values if isinstance(values, list) else [values]):
                    if key == "titles" and not isinstance(values, list):
                        break
                    if isinstance(value, str) and translatable(value):
                        where = ("elements", name, key) + ((n,) if key == "titles" else ())
                        line = yamlines.closest_line(lines, where) or 1
                        where_file = doc.folder / path.relative_to(folder)
                        found.append(Segment(value.strip(), SourceLoc(where_file, line),
                                             "kit text"))
    return found


# What an element prints of its values (the rest are colours, images, sizes ...).
_PRINTED = ("text", "char", "value", "symbol")


@cache
def _names(template: str) -> frozenset[str]:
    """The names a layout's template reads: its row's fields (``{{ text }}``, ``row.text``)."""
    from jinja2 import Environment, TemplateSyntaxError, meta

    try:
        parsed = Environment().parse(template)
    except TemplateSyntaxError:
        return frozenset()  # the kit's check says where
    return frozenset(meta.find_undeclared_variables(parsed)) | frozenset(
        re.findall(r"\brow\.(\w+)", template))


def printed_fields(doc: Document, names: list[str]) -> set[str]:
    """The fields of a row the layouts ``names`` print as text."""
    fields: set[str] = set()
    for _, data, _ in _layouts(doc, names):
        elements = data.get("elements")
        for element in elements.values() if isinstance(elements, dict) else ():
            if isinstance(element, dict):
                for key in _PRINTED:
                    if isinstance(element.get(key), str) and "{" in element[key]:
                        fields |= _names(element[key])
    return fields


def data_segments(doc: Document) -> list[Segment]:
    """The texts of the components' data rows (a CSV's cells, the front matter's rows) that
    their layouts print, each at its row with the component and column as its context
    (``deck.text``): "Minnow" the card's name and "Minnow" a suit may be translated apart."""
    found: list[Segment] = []
    for comp in doc.meta.components:
        if comp.data is None or comp.data.engine is not None:
            continue  # an engine's tables print the engine's words (engine_segments)
        fields = printed_fields(doc, [n for n in (comp.front, comp.back) if n])
        for row in comp.data.rows:
            for column, value in row.fields.items():
                if column in fields and isinstance(value, str) and translatable(value):
                    found.append(Segment(normal(value), row.loc, "card data",
                                         context=f"{comp.id}.{column}"))
    return found


def segments(doc: Document) -> list[Segment]:
    """Every segment of ``doc``, in the order a reader meets them (front matter first)."""
    order = {part.path: n for n, part in enumerate(doc.parts)}
    body = sorted(body_segments(doc) + example_segments(doc),
                  key=lambda s: (order.get(s.loc.path, 0), s.loc.line))
    return front_matter_segments(doc) + body + layout_segments(doc) + data_segments(doc)


def reference(seg: Segment, folder: Path) -> tuple[str, int]:
    """The gettext reference of ``seg``: its file relative to the game's folder, and line."""
    path = seg.loc.path
    rel = path.relative_to(folder) if path.is_relative_to(folder) else Path(path.name)
    return rel.as_posix(), seg.loc.line

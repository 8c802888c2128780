"""Two readings of one game compared by structure, not by lines of text.

Sections are matched by their headings' anchors; inside a section, its blocks (paragraphs,
list items such as rulings, tables, quotes) are aligned as a sequence, so one inserted ruling
shifts nothing after it. Examples are matched by id, components by id and their faces by the
rows (or copies) they draw. A change to a block's words keeps its place: old and new side by
side, the words that changed marked.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulepress.document.markdown import make_parser
from rulepress.document.model import Component, Document, Example
from rulepress.document.numbers import fill
from rulepress.document.reader import EXAMPLE_INFO, SIMULATION_INFO

CHANGED, ADDED, REMOVED = "changed", "added", "removed"
_SPACE = re.compile(r"\s+")
_LEAD = re.compile(r"^\s*(?:[-*+]|\d+[.)])?\s*\*\*(.+?)\*\*")


@dataclass(frozen=True)
class Block:
    """One block of a section's text: its Markdown, flattened to one line, and where it is."""

    section: str  # its heading's text ('' before the first heading)
    anchor: str
    text: str
    line: int
    file: str  # the file's name inside the game's folder

    @property
    def label(self) -> str:
        """What a reader calls it: a ruling's bold lead-in, else its first words."""
        lead = _LEAD.match(self.text)
        if lead:
            return lead[1].rstrip(".:")
        words = _plain(self.text).split()
        return " ".join(words[:8]) + (" ..." if len(words) > 8 else "")


@dataclass(frozen=True)
class TextChange:
    kind: str  # changed, added, removed
    old: Block | None
    new: Block | None

    @property
    def block(self) -> Block:
        found = self.new or self.old
        assert found is not None
        return found


@dataclass(frozen=True)
class ExampleChange:
    kind: str
    id: str
    title: str
    old: Example | None
    new: Example | None
    fields: tuple[str, ...] = ()  # what changed: claims, data, text, title


@dataclass(frozen=True)
class FaceChange:
    """One face (a side of a row or copy) whose drawing differs."""

    kind: str
    label: str  # 'front of the row at data/cards.csv:7', 'back of copy 3'
    key: tuple[bool, int]  # (back?, row or copy index in the new side; old side if removed)


@dataclass(frozen=True)
class ComponentChange:
    kind: str
    id: str
    name: str
    fields: tuple[tuple[str, str, str], ...] = ()  # (key, old, new) of its declaration
    faces: tuple[FaceChange, ...] = ()


@dataclass(frozen=True)
class Difference:
    texts: tuple[TextChange, ...] = ()
    examples: tuple[ExampleChange, ...] = ()
    components: tuple[ComponentChange, ...] = ()
    meta: tuple[tuple[str, str, str], ...] = ()  # (key, old, new) of the front matter

    @property
    def empty(self) -> bool:
        return not (self.texts or self.examples or self.components or self.meta)


def blocks(doc: Document) -> list[Block]:
    """Every block of ``doc``'s body, in reading order (examples and playtest reports apart)."""
    parser = make_parser()
    headings = iter(doc.headings)
    section, anchor = "", ""
    out: list[Block] = []
    for part in doc.parts:
        lines = part.text.split("\n")
        taking: int | None = None  # the level of a block taken whole (a list item's paragraphs)
        for tok in parser.parse(part.text):
            if tok.type == "heading_open":  # every heading, as the reader counted them
                heading = next(headings)
                section, anchor = heading.text, heading.anchor
            if taking is not None:
                if tok.type in _TAKEN_CLOSE and tok.level == taking:
                    taking = None
                continue
            if tok.map is None or tok.type == "fence" and tok.info.strip() in (
                    EXAMPLE_INFO, SIMULATION_INFO):
                continue
            if tok.type in _TAKEN_OPEN or tok.type in ("paragraph_open", "fence", "code_block"):
                first, last = tok.map
                # as printed: the engine's numbers in, rule marks off
                text = _SPACE.sub(" ", fill(doc, " ".join(lines[first:last]))).strip()
                if tok.type in _TAKEN_OPEN:
                    taking = tok.level
                if text:
                    out.append(Block(section, anchor, text, part.first_line + first,
                                     part.path.name))
    return out


_TAKEN_OPEN = {"list_item_open", "table_open", "blockquote_open"}
_TAKEN_CLOSE = {"list_item_close", "table_close", "blockquote_close"}


def _plain(markdown: str) -> str:
    """A block's words without Markdown's marks, for labels and the player summary: as the
    book prints them, never its markup (a term's :dfn[...], an :icon[...], attributes)."""
    text = re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", markdown)
    text = _DFN.sub(r"\1", text)
    text = _ICON.sub("", text)
    text = re.sub(r"[*_`]+", "", text)
    text = re.sub(r"\[([^\]]*)\]\{[^}]*\}", r"\1", text)
    return _SPACE.sub(" ", re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)).strip()


_DFN = re.compile(r":dfn\[([^\]]*)\](?:\{[^}]*\})?")
_ICON = re.compile(r":icon\[[^\]]*\]\s?")


def compare_text(old: Sequence[Block], new: Sequence[Block]) -> list[TextChange]:
    """Blocks changed, added or removed: sections by anchor, blocks aligned within each."""
    changes: list[TextChange] = []
    old_by = _by_section(old)
    new_by = _by_section(new)
    for anchor in dict.fromkeys([*new_by, *old_by]):
        a, b = old_by.get(anchor, []), new_by.get(anchor, [])
        matcher = difflib.SequenceMatcher(None, [x.text for x in a], [x.text for x in b],
                                          autojunk=False)
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            if op == "equal":
                continue
            olds, news = a[i1:i2], b[j1:j2]
            for k in range(max(len(olds), len(news))):
                o = olds[k] if k < len(olds) else None
                n = news[k] if k < len(news) else None
                changes.append(TextChange(CHANGED if o and n else ADDED if n else REMOVED, o, n))
    return changes


def _by_section(found: Sequence[Block]) -> dict[str, list[Block]]:
    out: dict[str, list[Block]] = {}
    for b in found:
        out.setdefault(b.anchor, []).append(b)
    return out


def words(old: str, new: str) -> Iterator[tuple[str, str]]:
    """The two texts as runs of (kind, words): 'same', 'old' (only in the old), 'new'."""
    a, b = old.split(" "), new.split(" ")
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            yield "same", " ".join(a[i1:i2])
            continue
        if i2 > i1:
            yield "old", " ".join(a[i1:i2])
        if j2 > j1:
            yield "new", " ".join(b[j1:j2])


def compare_examples(old: Document, new: Document) -> list[ExampleChange]:
    before = {e.id: e for e in old.boxes}
    after = {e.id: e for e in new.boxes}
    out = []
    for ex_id in dict.fromkeys([*after, *before]):
        o, n = before.get(ex_id), after.get(ex_id)
        if o is None or n is None:
            kind = ADDED if o is None else REMOVED
            shown = n or o
            assert shown is not None
            out.append(ExampleChange(kind, ex_id, shown.title, o, n))
            continue
        fields = tuple(name for name, x, y in (
            ("claims", o.claims, n.claims), ("data", o.data, n.data), ("text", o.text, n.text),
            ("title", o.title, n.title)) if x != y)
        if fields:
            out.append(ExampleChange(CHANGED, ex_id, n.title, o, n, fields))
    return out


_DECLARED = ("name", "count", "size", "front", "back", "back_varies", "tileable", "note")


def compare_components(old: Document, new: Document,
                       faces: Mapping[str, tuple[FaceChange, ...]]) -> list[ComponentChange]:
    """Components by id: their declarations, and (``faces``, by id) the faces that differ."""
    before = {c.id: c for c in old.meta.components}
    after = {c.id: c for c in new.meta.components}
    out = []
    for cid in dict.fromkeys([*after, *before]):
        o, n = before.get(cid), after.get(cid)
        if o is None or n is None:
            shown = n or o
            assert shown is not None
            out.append(ComponentChange(ADDED if o is None else REMOVED, cid, shown.name))
            continue
        fields = tuple((k, _shown(o, k), _shown(n, k)) for k in _DECLARED
                       if _shown(o, k) != _shown(n, k))
        if fields or faces.get(cid):
            out.append(ComponentChange(CHANGED, cid, n.name, fields, faces.get(cid, ())))
    return out


def _shown(comp: Component, key: str) -> str:
    value: Any = getattr(comp, key)
    return "" if value is None else str(value)


_META = ("title", "subtitle", "designer", "players", "duration", "ages")


def compare_meta(old: Document, new: Document) -> list[tuple[str, str, str]]:
    """What a player sees of the front matter: the version and dates are the errata's own."""
    return [(k, str(getattr(old.meta, k)), str(getattr(new.meta, k))) for k in _META
            if getattr(old.meta, k) != getattr(new.meta, k)]


def compare(old: Document, new: Document,
            faces: Mapping[str, tuple[FaceChange, ...]]) -> Difference:
    return Difference(tuple(compare_text(blocks(old), blocks(new))),
                      tuple(compare_examples(old, new)),
                      tuple(compare_components(old, new, faces)),
                      tuple(compare_meta(old, new)))

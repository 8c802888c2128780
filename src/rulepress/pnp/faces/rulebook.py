"""The rulebook as layouts see it: ``rules.section('quick-reference')`` is the Markdown of that
chapter, so the rules a card prints are the ones the book states, never a second copy.

A section's parts are its paragraphs that open with a bold lead (``**Scoring.** ...``): each
part runs to the next such paragraph, and ``.part('Scoring')`` gives it without the lead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar

from rulepress.document.markdown import make_parser
from rulepress.document.model import Document
from rulepress.document.numbers import Tables, constants, fill
from rulepress.suggest import suggest

_LEAD = re.compile(r"^\*\*(.+?)\.?\*\*[.:]?\s*")




@dataclass(frozen=True)
class Section:
    anchor: str
    title: str
    text: str  # Markdown, without its heading
    source: str = ""  # the text as written, when ``text`` is its translation

    TEMPLATE_METHODS: ClassVar[frozenset[str]] = frozenset({"table", "part"})

    def __str__(self) -> str:
        return self.text

    @cached_property
    def _tokens(self) -> list[Any]:
        return list(make_parser().parse(self.text))

    @cached_property
    def tables(self) -> list[list[dict[str, str]]]:
        """Every table of the section: one mapping per body row, by header cell."""
        found: list[list[dict[str, str]]] = []
        header: list[str] = []
        cells: list[str] = []
        head = False
        for i, tok in enumerate(self._tokens):
            if tok.type == "table_open":
                found.append([])
                header = []
            elif tok.type in ("thead_open", "thead_close"):
                head = tok.type == "thead_open"
            elif tok.type == "tr_open":
                cells = []
            elif tok.type == "inline" and self._tokens[i - 1].type in ("th_open", "td_open"):
                cells.append(tok.content.strip())
            elif tok.type == "tr_close":
                if head:
                    header = cells
                else:
                    found[-1].append(dict(zip(header, cells, strict=False)))
        return found

    def table(self, n: int = 1) -> list[dict[str, str]]:
        """The n-th table (from 1) of the section."""
        if not 1 <= n <= len(self.tables):
            raise LookupError(f"section '{self.anchor}' has {len(self.tables)} table(s), no "
                              f"table {n}")
        return self.tables[n - 1]

    @cached_property
    def parts(self) -> dict[str, str]:
        """Each bold-led part by its lead; a translation's by the source's leads, in order."""
        mine = _parts(self.text, self._tokens)
        if not self.source:
            return mine
        leads = list(_parts(self.source, list(make_parser().parse(self.source))))
        return dict(zip(leads, mine.values(), strict=False)) if len(leads) == len(mine) else mine

    def part(self, lead: str) -> str:
        if lead not in self.parts:
            known = ", ".join(self.parts) or "none"
            raise LookupError(f"section '{self.anchor}' has no part '{lead}'"
                              f"{suggest(lead, list(self.parts))}; its bold-led parts: {known}")
        return self.parts[lead]


def _parts(text: str, tokens: list[Any]) -> dict[str, str]:
    """The bold-led parts of ``text`` (parsed as ``tokens``), by lead, in order."""
    lines = text.split("\n")
    starts: list[tuple[str, int]] = []
    for i, tok in enumerate(tokens):
        if tok.type == "paragraph_open" and tok.level == 0 and tok.map:
            m = _LEAD.match(tokens[i + 1].content)
            if m:
                starts.append((m.group(1).strip(), tok.map[0]))
    out = {}
    for k, (lead, start) in enumerate(starts):
        end = starts[k + 1][1] if k + 1 < len(starts) else len(lines)
        body = "\n".join(lines[start:end]).strip()
        out[lead] = _LEAD.sub("", body, count=1)
    return out


class RuleBook:
    """The sections of one document, by heading anchor."""

    TEMPLATE_METHODS: ClassVar[frozenset[str]] = frozenset({"section"})  # a layout may call

    def __init__(self, doc: Document, tables: Tables | None = None) -> None:
        self._doc = doc
        self._named = constants(tables or {})  # the rules' numbers from the engine, as the book
        self._cache: dict[str, Section] = {}

    def section(self, anchor: str) -> Section:
        if anchor not in self._cache:
            self._cache[anchor] = self._find(anchor)
        return self._cache[anchor]

    def _find(self, anchor: str) -> Section:
        heads = self._doc.headings
        anchors = [h.anchor for h in heads]
        if anchor not in anchors:
            raise LookupError(f"the rulebook has no section '{anchor}'{suggest(anchor, anchors)}")
        k = anchors.index(anchor)
        head = heads[k]
        part = next(p for p in self._doc.parts if p.path == head.loc.path)
        end_line = part.first_line + part.text.count("\n") + 1
        for later in heads[k + 1:]:
            if later.loc.path != head.loc.path:
                break
            if later.level <= head.level:
                end_line = later.loc.line
                break
        lines = part.text.split("\n")
        first = head.loc.line - part.first_line + 1
        body = "\n".join(lines[first:end_line - part.first_line]).strip("\n")
        if self._doc.language is not None:  # translated as written, then filled
            from rulepress.i18n.apply import (  # Babel: a translation's alone
                translate_markdown,  # Babel comes with it: a translation's alone
            )

            text = translate_markdown(body, self._doc.language)
            return Section(anchor, head.text, fill(self._doc, text, self._named),
                           fill(self._doc, body, self._named))
        return Section(anchor, head.text, fill(self._doc, body, self._named))

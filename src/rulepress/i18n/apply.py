"""A game's Document in another language: its catalog read, each segment replaced by its
translation, and a segment without one (untranslated, or fuzzy: its source changed since)
printed in the source language, marked so (``lang`` and ``data-untranslated`` on its block)."""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from rulepress.diagnostics import Diagnostic, SourceLoc, error, warning
from rulepress.document.lookup import dfns
from rulepress.document.markdown import make_parser
from rulepress.document.model import Component, Document, Example, Language, Ruling, Term
from rulepress.i18n.catalog import load, po_path
from rulepress.i18n.segments import Segment, block_key, catalog_key, normal, segments
from rulepress.words import ordinal

# Quotation marks as the typographer prints them ("..." in the source): primary, then inner.
QUOTES = {"de": "„“‚‘", "en": "“”‘’", "fr": "«»‹›", "es": "«»“”", "it": "«»“”", "nl": "“”‘’",
          "pl": "„”‚’", "pt": "“”‘’", "sv": "””’’", "da": "»«›‹", "cs": "„“‚‘", "fi": "””’’"}


@dataclass(frozen=True)
class Entry:
    """One message of a catalog as the build reads it."""

    text: str  # the msgid: the segment's source text
    string: str  # the msgstr ('' untranslated)
    fuzzy: bool
    loc: SourceLoc  # the msgid's line in the PO file

    @property
    def used(self) -> bool:
        return bool(self.string) and not self.fuzzy


@dataclass(frozen=True)
class Catalogued:
    """A language's catalog of one game, against the game's segments as they are now."""

    lang: str
    path: Path
    # by msgid (``context\x04msgid`` with a context), the current (not obsolete) messages
    entries: Mapping[str, Entry]
    segments: tuple[Segment, ...]
    # The engine's words (None: not known here, every entry is used, as for a check of the
    # catalog's own errors alone).
    words: frozenset[str] | None = None
    warnings: tuple[Diagnostic, ...] = ()  # the catalog's own, as read (its header's charset)

    def strings(self) -> dict[str, str]:
        """The translations used: of a segment or an engine's word only, so that an entry
        that is neither (``msgid "roll 4"``) cannot translate an example's data."""
        known = self.known()
        return {k: e.string for k, e in self.entries.items()
                if e.used and (known is None or k in known)}

    def known(self) -> set[str] | None:
        """What an entry may translate: the segments' texts and the engine's words."""
        if self.words is None:
            return None
        return {s.key for s in self.segments} | self.words

    def strays(self) -> list[Entry]:
        """The entries that are no segment nor engine word: ignored (a warning each)."""
        known = self.known()
        return [] if known is None else [e for k, e in self.entries.items() if k not in known]

    def counts(self) -> tuple[int, int, int]:
        """(segments, translated, fuzzy), each segment text once."""
        texts = {s.key for s in self.segments}
        used = sum(1 for t in texts if t in self.entries and self.entries[t].used)
        fuzzy = sum(1 for t in texts if t in self.entries and self.entries[t].fuzzy)
        return len(texts), used, fuzzy

    def summary(self) -> str:
        total, used, fuzzy = self.counts()
        return f"{self.lang}: {used}/{total} segments translated, {fuzzy} fuzzy"

    def missing(self) -> list[Diagnostic]:
        """An error for each segment printed in the source language (--strict)."""
        found: list[Diagnostic] = []
        seen: set[str] = set()
        for seg in self.segments:
            if seg.key in seen:
                continue
            seen.add(seg.key)
            entry = self.entries.get(seg.key)
            if entry is None:
                found.append(error(seg.loc, f"{self.lang}: this {seg.kind} is not in "
                                            f"{self.path.name}: run rulepress translate"))
            elif not entry.used:
                why = "fuzzy (its source changed)" if entry.fuzzy else "untranslated"
                found.append(error(entry.loc, f"{self.lang}: {why}: {seg.kind} at "
                                              f"{seg.loc.path.name}:{seg.loc.line}"))
        return found


def read_catalog(doc: Document, lang: str, found: Sequence[Segment] | None = None,
                 words: frozenset[str] | None = None) -> Catalogued:
    """``lang``'s catalog of ``doc`` (no file: every segment untranslated); ``words``: its
    engine's (engine_words). RulepressError at the PO file's line when it is not one."""
    path = po_path(doc, lang)
    segs = tuple(segments(doc) if found is None else found)
    contexts = {s.key for s in segs if s.context is not None}
    entries: dict[str, Entry] = {}
    said: list[Diagnostic] = []
    if path.exists() or path.is_symlink():
        for m in load(path, lang, said):
            key = catalog_key(m.id, m.context) if isinstance(m.id, str) else ""
            if m.context is not None and key not in contexts:  # it would replace a segment's
                said.append(warning(SourceLoc(path, m.lineno or 1), (
                    f"msgctxt {m.context!r}: no segment of the game has this context with this "
                    "msgid, so this entry is ignored")))
                continue
            if m.id and isinstance(m.id, str) and isinstance(m.string, str):
                entries[key] = Entry(m.id, m.string, m.fuzzy, SourceLoc(path, m.lineno or 1))
    return Catalogued(lang, path, entries, segs, words, tuple(said))


def translated(doc: Document, catalog: Catalogued, source: str) -> Document:
    """``doc`` in the catalog's language: headings, examples and front matter replaced here;
    the body's blocks when they are rendered (translate_tokens)."""
    strings = catalog.strings()

    def tr(text: str) -> str:
        return strings.get(normal(text), text) if text else text

    def component(c: Component) -> Component:
        data = c.data
        if data is not None and data.rows:  # the fields its layouts print, by their context
            data = replace(data, rows=tuple(replace(r, fields={
                k: strings.get(catalog_key(normal(v), f"{c.id}.{k}"), v)
                if isinstance(v, str) else v for k, v in r.fields.items()}) for r in data.rows))
        return replace(c, name=tr(c.name), note=tr(c.note), data=data)

    def example(e: Example) -> Example:
        return replace(e, title=tr(e.title), text=strings.get(e.text.strip(), e.text))

    meta = replace(doc.meta, title=tr(doc.meta.title), subtitle=tr(doc.meta.subtitle),
                   duration=tr(doc.meta.duration), ages=tr(doc.meta.ages),
                   credits=tuple(tr(c) for c in doc.meta.credits),
                   licence=replace(doc.meta.licence, name=tr(doc.meta.licence.name),
                                   notice=tr(doc.meta.licence.notice)),
                   provenance=tuple(replace(p, title=tr(p.title), source=tr(p.source),
                                            note=tr(p.note)) for p in doc.meta.provenance),
                   versions=tuple(replace(v, summary=tr(v.summary)) for v in doc.meta.versions),
                   components=tuple(component(c) for c in doc.meta.components))
    headings = tuple(replace(h, text=tr(h.text)) for h in doc.headings)
    return replace(doc, meta=meta, headings=headings, terms=_terms(doc, catalog),
                   rulings=_rulings(doc, catalog),
                   examples=tuple(example(e) for e in doc.examples),
                   reports=tuple(example(e) for e in doc.reports),
                   language=Language(catalog.lang, source, strings))


def _terms(doc: Document, catalog: Catalogued) -> tuple[Term, ...]:
    """Each defined term as the translation marks it: the :dfn[...] at the same place among
    its block's definitions, the sentence around it as the glossary's line (the source's
    where the block is not translated)."""
    strings = catalog.strings()
    blocks = sorted((s.loc.path, s.loc.line, s.text) for s in catalog.segments
                    if s.example is None and s.context is None and s.loc.path.suffix == ".md")
    out = []
    for term in doc.terms:
        at = bisect.bisect_right(blocks, (term.loc.path, term.loc.line, "\uffff")) - 1
        block = blocks[at] if at >= 0 and blocks[at][0] == term.loc.path else None
        said = strings.get(block[2]) if block is not None else None
        if block is None or said is None:
            out.append(term)
            continue
        source = [text for text, *_ in dfns(block[2])]
        found = dfns(said, ordinal(6, catalog.lang, doc.folder) == "6.")
        n = source.index(term.text) if term.text in source else -1
        if 0 <= n < len(found) and len(found) == len(source):
            # its sort key the translation's own: the source's sorts the source's words
            out.append(replace(term, text=found[n][0], definition=found[n][1],
                               also=found[n][2], sort=found[n][3]))
        else:
            out.append(term)
    return tuple(out)


def _rulings(doc: Document, catalog: Catalogued) -> tuple[Ruling, ...]:
    """Each ruling titled by its translation's bold lead (the index lists it so); its number
    and anchor stay, and so does its title where the item is not translated or has no lead."""
    strings = catalog.strings()
    by_line = {(s.loc.path, s.loc.line): s.text for s in catalog.segments
               if s.example is None and s.context is None}
    out = []
    for ruling in doc.rulings:
        source = by_line.get((ruling.loc.path, ruling.loc.line))
        said = strings.get(source) if source is not None else None
        lead = _LEAD.match(said) if said else None
        title = " ".join(lead.group(1).split()).rstrip(".:;, ") if lead else ""
        out.append(replace(ruling, title=title) if title else ruling)
    return tuple(out)


_LEAD = re.compile(r"\*\*(.+?)\*\*", re.S)


def translate_tokens(md: MarkdownIt, tokens: list[Token], language: Language,
                     fill: Callable[[str], str] | None = None) -> None:
    """Replace each block's inline text by its translation, parsed as Markdown with the
    language's quotation marks; mark a block left in the source language. ``fill``: what the
    book does to every text after (the engine's numbers in, rule marks off)."""
    quotes = md.options.get("quotes")
    md.options["quotes"] = QUOTES.get(language.code.split("_")[0], quotes)
    try:
        for i, tok in enumerate(tokens):
            if tok.type != "inline" or tok.map is None:
                continue
            key = block_key(tokens, i)
            string = language.strings.get(key) if key is not None else None
            if key is not None and string is None:
                _mark(tokens, i, language.source)
            # As written (the source's own line breaks) when it is the source's text.
            text = string if string is not None and string != key else tok.content
            text = fill(text) if fill is not None else text
            if text != tok.content:
                parsed = md.parseInline(text)
                tok.content = text
                tok.children = parsed[0].children if parsed else []
    finally:
        md.options["quotes"] = quotes


def _mark(tokens: list[Token], i: int, source: str) -> None:
    for j in range(i - 1, -1, -1):
        opening = tokens[j]
        if opening.nesting == 1 and not opening.hidden:
            opening.attrSet("lang", source)
            opening.attrSet("data-untranslated", "")
            return


def translate_markdown(text: str, language: Language, keep_lines: bool = False) -> str:
    """``text`` (Markdown of the source) with each translated block's lines replaced by its
    translation (a list item keeps its marker): what a kit prints of a section. ``keep_lines``:
    a block's later lines left blank, not removed, so each block stays at its source line."""
    tokens = _block_parser().parse(text)
    lines: list[str | None] = list(text.split("\n"))
    for i, tok in enumerate(tokens):
        if tok.type != "inline" or tok.map is None or tokens[i - 1].type in ("th_open", "td_open"):
            continue
        key = block_key(tokens, i)
        string = language.strings.get(key) if key is not None else None
        start, end = tok.map
        first = lines[start]
        if string is None or first is None:
            continue
        head = tok.content.split("\n")[0].strip()
        at = first.find(head)
        if at < 0:
            continue
        lines[start] = first[:at] + string
        for n in range(start + 1, end):
            lines[n] = "" if keep_lines else None
    return "\n".join(line for line in lines if line is not None)


def translate_layout(raw: Any, language: Language) -> None:
    """A kit layout's texts and table titles in the language, as its catalog gives them."""
    def tr(value: Any) -> Any:
        return language.strings.get(value.strip(), value) if isinstance(value, str) else value

    for element in raw.elements.values():
        for key, prop in list(element.props.items()):
            if key == "text":
                element.props[key] = replace(prop, value=tr(prop.value))
            elif key == "titles" and isinstance(prop.value, list):
                element.props[key] = replace(prop, value=[tr(v) for v in prop.value])


def _block_parser() -> MarkdownIt:
    return make_parser()

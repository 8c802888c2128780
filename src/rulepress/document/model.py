"""The immutable document model every later phase reads. Every node keeps its SourceLoc."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulepress.diagnostics import SourceLoc
from rulepress.document.editions import Span, keeps
from rulepress.document.yamlines import KeyPath, closest_line
from rulepress.units import Size


@dataclass(frozen=True)
class Row:
    """One distinct face of a component drawn from data: its fields, and how many copies."""

    fields: Mapping[str, Any]
    qty: int
    loc: SourceLoc  # the CSV line or the front matter line of the row


@dataclass(frozen=True)
class Data:
    """Where a component's faces take their content: rows read with the source (a CSV file in
    the game's folder or a list in the front matter), or a table of the game's engine."""

    loc: SourceLoc  # the component's ``data`` key
    source: str  # as the user wrote it, for messages: "data/cards.csv", "the front matter"
    rows: tuple[Row, ...] = ()
    engine: str | None = None  # the engine table's name; its rows are known at check time


@dataclass(frozen=True)
class Component:
    """One declared component: the single source for the components table, kit and cross-check."""

    id: str
    name: str
    count: int
    loc: SourceLoc
    size: Size | None = None
    front: str | None = None  # drawer name or layout file; None: not in the kit
    back: str | None = None  # drawer name or layout file; None: single-sided
    back_varies: bool = False  # False: one back art shared by every copy
    tileable: bool = False  # may be split across sheets (boards)
    note: str = ""
    variants: Mapping[str, Size] = field(default_factory=dict)  # kit name -> another size
    data: Data | None = None  # rows of a data-driven face (front and back may be layout files)
    keys: Mapping[str, SourceLoc] = field(default_factory=dict)  # each key's own line

    @property
    def in_kit(self) -> bool:
        return self.front is not None


@dataclass(frozen=True)
class Licence:
    name: str
    url: str
    notice: str = ""
    text: str = ""  # the licence in full, when it asks to travel with every copy (GNU FDL)


@dataclass(frozen=True)
class GameFont:
    """A font of the game's own (front matter ``fonts:``): its faces' files, checked, and
    where the books use it (``body``, ``headings`` or ``none``: only layouts name it)."""

    family: str
    faces: tuple[tuple[str, Path], ...]  # ("regular" | "bold" | "italic", the file)
    book: str
    loc: SourceLoc

    def face(self, style: str) -> Path | None:
        return dict(self.faces).get(style)


@dataclass(frozen=True)
class Provenance:
    title: str
    source: str
    author: str = ""
    note: str = ""


@dataclass(frozen=True)
class Version:
    """One printing the designer lists in ``versions``: what its changelog line says."""

    version: str
    summary: str
    loc: SourceLoc
    date: str = ""  # ISO 8601, e.g. 2026-11-27
    changes: tuple[str, ...] = ()  # computed, in plain words (build --changelog-since)


@dataclass(frozen=True)
class Meta:
    title: str
    designer: str
    players_min: int
    players_max: int
    duration: str
    licence: Licence
    provenance: tuple[Provenance, ...]
    components: tuple[Component, ...]
    credits: tuple[str, ...] = ()
    subtitle: str = ""
    ages: str = ""
    engine: str | None = None  # an installed engine's name, or a module of the project
    engine_loc: SourceLoc | None = None
    players_loc: SourceLoc | None = None  # the front matter's players: line
    files: tuple[str, ...] = ()  # further Markdown files of the body, in order
    version: str = ""  # this printing, e.g. "1.1": on covers, footers and every component
    date: str = ""  # its date, ISO 8601
    versions: tuple[Version, ...] = ()  # the printings so far, oldest first: the changelog
    fonts: tuple[GameFont, ...] = ()  # the game's own fonts, for its layouts and books

    @property
    def printing(self) -> str:
        """'Version 1.1, 2026-11-27' (or less), as covers and footers say it; '' for none."""
        said = f"Version {self.version}" if self.version else ""
        return ", ".join(p for p in (said, self.date) if p)

    @property
    def players(self) -> str:
        if self.players_min == self.players_max:
            return f"{self.players_min}"
        return f"{self.players_min}–{self.players_max}"


@dataclass(frozen=True)
class Example:
    """A worked example: data replayed by the engine, with claims and prose drawn from them.

    A ``simulation`` block (a playtest report) is read the same way: its data names a run and
    its summary, and its prose draws its numbers from the summary's figures."""

    id: str
    title: str
    loc: SourceLoc
    data: Mapping[str, Any]  # everything but claims and text: what the engine replays
    claims: Mapping[str, Any]
    text: str  # Markdown; Jinja {{ expressions }} over the data and claims fill in the numbers
    lines: Mapping[KeyPath, int] = field(default_factory=dict)  # key path -> line
    edition: str | None = None  # the one edition it belongs to; None: both
    kind: str = "example"  # the fence's info: "example", or "simulation" for a playtest report

    def line_of(self, path: KeyPath) -> SourceLoc:
        """The source line of a key inside the example (the closest enclosing key known)."""
        line = closest_line(self.lines, path)
        return self.loc if line is None else SourceLoc(self.loc.path, line)


@dataclass(frozen=True)
class Heading:
    level: int
    text: str  # without its edition marker
    anchor: str
    loc: SourceLoc
    edition: str | None = None  # the one edition its section belongs to; None: both
    new_page: bool = False  # its section starts on a fresh page in print


@dataclass(frozen=True)
class Term:
    """A term, marked ``:dfn[term]`` where the rules define it."""

    text: str  # as marked
    anchor: str  # term-<slug>
    definition: str  # the sentence that defines it, as plain text (the glossary's line)
    loc: SourceLoc
    given: bool = False  # the author gave the definition: :dfn[term]{def="..."}
    also: tuple[str, ...] = ()  # the words players look it up by: {also="hand size; hand"}
    sort: str = ""  # what the index and glossary sort it by, if not its words: {sort="..."}


@dataclass(frozen=True)
class Ruling:
    """An item of the Rulings chapter's list: numbered in order, anchored by its bold lead."""

    number: int
    title: str  # the bold lead, without its closing punctuation
    anchor: str  # ruling-<slug of the title>
    loc: SourceLoc


@dataclass(frozen=True)
class Part:
    """One Markdown file of a rulebook's body: rules.md after its front matter, then each file
    its ``files:`` key names, in that order."""

    path: Path
    text: str  # Markdown as written (front matter removed)
    first_line: int  # the file line of the text's first line

    def loc(self, offset: int, col: int = 1) -> SourceLoc:
        """The location of line ``offset`` (0-based) of the text."""
        return SourceLoc(self.path, self.first_line + offset, col)


@dataclass(frozen=True)
class Language:
    """The language a Document is printed in, when it is a translation of its source."""

    code: str  # 'de'
    source: str  # the language the rules are written in: 'en'
    strings: Mapping[str, str]  # segment text -> its translation; one missing prints as written


@dataclass(frozen=True)
class Document:
    """One game's rulebook, read and parsed."""

    slug: str  # the folder name under sources/
    path: Path  # rules.md: the front matter's file
    meta: Meta
    parts: tuple[Part, ...]
    headings: tuple[Heading, ...]
    examples: tuple[Example, ...]
    spans: tuple[Span, ...] = ()  # what belongs to one edition only
    reports: tuple[Example, ...] = ()  # playtest reports (```simulation blocks)
    language: Language | None = None  # None: as written
    terms: tuple[Term, ...] = ()  # in reading order
    rulings: tuple[Ruling, ...] = ()

    @property
    def boxes(self) -> tuple[Example, ...]:
        """Everything printed as a box: the worked examples, then the playtest reports."""
        return self.examples + self.reports

    @property
    def folder(self) -> Path:
        return self.path.parent

    def keeps(self, edition: str, loc: SourceLoc) -> bool:
        """Whether the source line at ``loc`` is printed in ``edition``."""
        return keeps(self.spans, edition, loc)

    def has_example(self, example: Example, edition: str) -> bool:
        return example.edition in (None, edition) and self.keeps(edition, example.loc)

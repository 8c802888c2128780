"""PO catalogs (Babel): the template of a game's segments, a language's catalog merged with it
as msgmerge does, and a catalog read back as untrusted input, its errors at its own lines."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog
from babel.messages.pofile import PoFileError, PoFileParser, denormalize, normalize, write_po

from rulepress.diagnostics import Diagnostic, RulepressError, SourceLoc, error, not_utf8, warning
from rulepress.document.model import Document
from rulepress.i18n.segments import Segment, reference, segments
from rulepress.jail import PathRefused, read_regular
from rulepress.limits import MAX_CATALOG_ENTRIES, MAX_FUZZY_PAIRS, MAX_PLURAL_FORMS

LOCALES = "locales"
# A keyword or continuation line whose string does not end in an unescaped quote.
_UNCLOSED = re.compile(r'^(?:#~\s*)?(?:[a-z_]+(?:\[\d+\])?\s+)?"(?:[^"\\]|\\.)*$')
_LANG = re.compile(r"^[a-z]{2,3}(_[A-Z]{2})?$")


def lang_problem(lang: str) -> str | None:
    """What is wrong with a language code, or None ('de', 'pt_BR')."""
    if not _LANG.match(lang):
        return f"'{lang}' is not a language code like de or pt_BR"
    try:
        Locale.parse(lang)
    except (UnknownLocaleError, ValueError):
        return f"'{lang}' is a language Babel does not know"
    return None


def pot_path(doc: Document) -> Path:
    return doc.folder / LOCALES / f"{doc.slug}.pot"


def po_path(doc: Document, lang: str) -> Path:
    return doc.folder / LOCALES / f"{lang}.po"


HEADER = """\
# The rules of PROJECT, segment by segment, for translators.
# Made and merged by `rulepress translate`: translate each msgstr, keeping its {{ placeholders }},
# markup and numbers. A fuzzy entry's source changed since it was translated (#| the old text)."""


def _date() -> datetime:
    """A fixed date: the catalogs are made from the sources alone, so a run on another day
    writes the same bytes (a translator's tool sets PO-Revision-Date when it saves)."""
    return datetime.fromtimestamp(0, UTC)


def template(doc: Document, found: list[Segment] | None = None) -> Catalog:
    """The game's template: every segment once, with all its references and what it is."""
    pot = Catalog(project=doc.meta.title, version="", creation_date=_date(),
                  revision_date=_date(), fuzzy=False, header_comment=HEADER)
    for seg in segments(doc) if found is None else found:
        known = pot.get(seg.text, context=seg.context)
        where = reference(seg, doc.folder)
        if known is not None:
            known.locations.append(where)
            continue
        pot.add(seg.text, locations=[where], auto_comments=[seg.kind], context=seg.context)
    return pot


WIDTH = 100


def dump(catalog: Catalog) -> bytes:
    """The catalog as a PO file. A fuzzy entry's old text is written as msgmerge does, one
    '#|' line per line of it (Babel would wrap the quoted lines as one comment)."""
    marks: dict[str, str] = {}
    for n, message in enumerate(catalog):
        # Babel guesses these from a brace or a percent sign; a PO tool would then check the
        # translation as Python's format strings, which a rule text is not.
        message.flags -= {"python-format", "python-brace-format"}
        if message.previous_id:
            marks[f"@@previous-{n}@@"] = message.previous_id[0]
            message.previous_id = [f"@@previous-{n}@@"]
    buf = io.BytesIO()
    try:
        write_po(buf, catalog, width=WIDTH, include_previous=True)
    finally:
        for message in catalog:
            if message.previous_id and message.previous_id[0] in marks:
                message.previous_id = [marks[message.previous_id[0]]]
    text = buf.getvalue().decode("utf-8")
    for mark, previous in marks.items():
        lines = f"msgid {normalize(previous, width=WIDTH)}".split("\n")
        text = text.replace(f'#| msgid "{mark}"', "\n".join(f"#| {ln}" for ln in lines))
    return text.encode("utf-8")


def _previous(catalog: Catalog) -> Catalog:
    """Babel reads a fuzzy entry's '#|' lines as comments: make them its old text again."""
    for message in catalog:
        kept = [c[1:].strip() for c in message.user_comments if c.startswith("|")]
        if kept and kept[0].startswith("msgid "):
            message.user_comments = [c for c in message.user_comments if not c.startswith("|")]
            quoted = [kept[0].removeprefix("msgid ").strip()]
            quoted += [q for q in kept[1:] if q.startswith('"')]
            try:
                message.previous_id = [denormalize("\n".join(quoted))]
            except ValueError:
                message.previous_id = []
    return catalog


def merged(pot: Catalog, old: Catalog | None, lang: str,
           warnings: list[Diagnostic] | None = None, path: Path | None = None) -> Catalog:
    """``old`` updated to ``pot`` as msgmerge does: an unchanged segment keeps its translation,
    a changed one is fuzzy with its old text kept (#| msgid), a gone one obsolete (#~). Past
    MAX_FUZZY_PAIRS, no fuzzy matching (a warning in ``warnings``, at ``path``)."""
    if old is None:
        old = Catalog(locale=lang, project=pot.project, version="",
                      creation_date=pot.creation_date, revision_date=pot.creation_date,
                      fuzzy=False, header_comment=HEADER)
    previous = {m.id: m.previous_id for m in old if m.id and m.fuzzy and m.previous_id}
    # Babel compares each new segment with every translated entry (difflib): count first.
    new = sum(1 for m in pot if m.id and old.get(m.id) is None)
    candidates = sum(1 for m in old if m.id and m.string)
    matching = new * candidates <= MAX_FUZZY_PAIRS
    if not matching and warnings is not None:
        warnings.append(warning(SourceLoc(path, 1) if path else None, (
            f"{new} new segments against {candidates} translated entries is more than the "
            f"limit of {MAX_FUZZY_PAIRS} pairs for fuzzy matching: merged without it (each "
            "changed segment untranslated, its old entry obsolete)")))
    old.update(pot, update_creation_date=False, no_fuzzy_matching=not matching)
    for message in old:  # still fuzzy, unchanged since: keep the old text it was made from
        if message.fuzzy and not message.previous_id and message.id in previous:
            message.previous_id = previous[message.id]
    return old


class _Parser(PoFileParser):
    """Babel's parser, noting each msgid met twice (Babel keeps the last, silently)."""

    def __init__(self, catalog: Catalog) -> None:
        super().__init__(catalog, abort_invalid=True)
        self.twice: list[tuple[int, str, int]] = []  # (line, msgid, its first line)

    def _add_message(self) -> None:
        if not self.obsolete:
            msgid = (tuple(m.denormalize() for m in self.messages) if len(self.messages) > 1
                     else self.messages[0].denormalize())
            context = self.context.denormalize() if self.context else None
            first = self.catalog.get(msgid, context)
            if first is not None:
                self.twice.append((self.offset + 1, str(msgid), first.lineno or 0))
        super()._add_message()


_NPLURALS = re.compile(r"nplurals\s*=\s*(\d+)")
_CHARSET = re.compile(r"charset=([^\\\s\"]*)", re.I)


def load(path: Path, lang: str, warnings: list[Diagnostic] | None = None) -> Catalog:
    """The catalog at ``path``, read (and so written again) in UTF-8 whatever its header says,
    a header naming another charset a warning in ``warnings``; a RulepressError at its line if
    it is not a PO file or names a message twice."""
    game = path.parent.parent
    if not path.resolve().is_relative_to(game.resolve()):
        raise RulepressError.at(SourceLoc(path, 1), "a link to a file outside the game's "
                                                    "folder: a catalog is read from inside it")
    try:
        raw = read_regular(path)
    except OSError as exc:
        raise RulepressError.at(SourceLoc(path, 1), f"cannot read: {exc.strerror}") from None
    except PathRefused as exc:
        raise RulepressError.at(SourceLoc(path, 1), f"cannot read: {exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RulepressError.at(*not_utf8(path, exc)) from None
    if "\0" in text:
        raise RulepressError.at(SourceLoc(path, text[:text.index("\0")].count("\n") + 1),
                                "a PO file holds text: this one holds a NUL byte")
    plurals = _NPLURALS.search(text)  # Babel would make a list this long for each entry
    if plurals and int(plurals.group(1)[:9]) > MAX_PLURAL_FORMS:
        raise RulepressError.at(SourceLoc(path, text[:plurals.start()].count("\n") + 1), (
            f"Plural-Forms: nplurals={plurals.group(1)[:12]} is more than the limit of "
            f"{MAX_PLURAL_FORMS} plural forms"))
    for n, line in enumerate(text.split("\n"), 1):
        if _UNCLOSED.match(line):  # Babel would take the line as if it were closed
            raise RulepressError.at(SourceLoc(path, n), "not a PO file: a quoted string is not "
                                                        "closed on its line")
    try:
        # Decoded by us (UTF-8, whatever its header says), so Babel gets it as text.
        catalog = Catalog(locale=lang)
        parser = _Parser(catalog)
        parser.parse(io.StringIO(text.removeprefix("\ufeff")))
    except PoFileError as exc:
        why = str(exc).rsplit(" on ", 1)[0]
        raise RulepressError.at(SourceLoc(path, exc.lineno + 1),
                                f"not a PO file: {why.lower()}") from None
    except (ValueError, UnknownLocaleError) as exc:
        raise RulepressError.at(SourceLoc(path, 1), f"not a PO file: {exc}") from None
    if len(catalog) > MAX_CATALOG_ENTRIES:
        raise RulepressError.at(SourceLoc(path, 1), (
            f"{len(catalog)} entries is more than the limit of {MAX_CATALOG_ENTRIES} for a "
            "catalog"))
    if parser.twice:
        raise RulepressError([error(SourceLoc(path, n), f"msgid {_short(msgid)} is at line "
                                    f"{first} already: one entry a message (which translation "
                                    "is meant?)") for n, msgid, first in parser.twice])
    said = _CHARSET.search(text)
    if catalog.charset.lower().replace("_", "-") not in ("utf-8", "utf8"):
        at = text[:said.start()].count("\n") + 1 if said else 1
        if warnings is not None:
            warnings.append(warning(SourceLoc(path, at), (
                f"the header says charset={catalog.charset}: a catalog is read and written "
                "in UTF-8 (its header is written so)")))
        catalog.charset = "utf-8"
    return _previous(catalog)


def _short(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:39] + "…")


@dataclass(frozen=True)
class Updated:
    pot: bytes
    po: bytes
    total: int
    translated: int
    fuzzy: int
    obsolete: int
    warnings: tuple[Diagnostic, ...] = ()  # the catalog's, as read


def update(doc: Document, lang: str, extra: list[Segment] | None = None) -> Updated:
    """The template and ``lang``'s catalog, merged; nothing written. ``extra``: segments not
    of the sources (the engine's words)."""
    pot = template(doc, segments(doc) + (extra or []))
    path = po_path(doc, lang)
    said: list[Diagnostic] = []
    old = load(path, lang, said) if path.exists() or path.is_symlink() else None
    po = merged(pot, old, lang, said, path)
    messages = [m for m in po if m.id]
    fuzzy = sum(m.fuzzy for m in messages)
    translated = sum(bool(m.string) and not m.fuzzy for m in messages)
    return Updated(dump(pot), dump(po), len(messages), translated, fuzzy, len(po.obsolete),
                   tuple(said))

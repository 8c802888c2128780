"""``rulepress translate``: write a game's template and update its languages' catalogs.

The catalogs live in the sources (a translator edits them), so they are not an output folder's
set: each file is written beside itself and renamed over the old one, after every catalog has
been read and merged, so a bad catalog leaves every file as it was."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from babel.messages.pofile import read_po

from rulepress.diagnostics import RulepressError, SourceLoc, error
from rulepress.document.model import Document
from rulepress.i18n.catalog import (
    LOCALES,
    Updated,
    dump,
    lang_problem,
    load,
    merged,
    po_path,
    pot_path,
    template,
    update,
)
from rulepress.i18n.engine import engine_segments
from rulepress.i18n.segments import Segment, segments
from rulepress.jail import PathRefused, read_regular
from rulepress.media import DEFAULT_LANGUAGE
from rulepress.paths import templates_dir
from rulepress.words import own_theme_path, theme_catalog_path


@dataclass(frozen=True)
class Translated:
    doc: Document
    lang: str
    updated: Updated

    def line(self) -> str:
        u = self.updated
        return (f"{self.doc.slug} {self.lang}: {u.translated}/{u.total} segments translated, "
                f"{u.fuzzy} fuzzy, {u.obsolete} obsolete ({po_path(self.doc, self.lang)})")


def translate(doc: Document, langs: Sequence[str], source_lang: str = DEFAULT_LANGUAGE,
              project: Path | None = None) -> list[Translated]:
    """Merge every language's catalog with the game's segments and its engine's words, then
    write them all."""
    problems = [error(None, f"--lang {lang}: {lang_problem(lang)}") for lang in langs
                if lang_problem(lang)]
    problems += [error(None, f"--lang {lang}: {lang} is the language the rules are written in")
                 for lang in langs if lang == source_lang]
    if problems:
        raise RulepressError(problems)
    extra = engine_segments(doc, project)
    done = [Translated(doc, lang, update(doc, lang, extra)) for lang in langs]
    folder = doc.folder / LOCALES
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise RulepressError.at(SourceLoc(folder, 1), "locales must be a folder of the game's "
                                                      "own, not a link or a file")
    themes = [(lang, theme) for lang in langs if (theme := _theme(doc, lang)) is not None]
    folder.mkdir(exist_ok=True)
    _replace(pot_path(doc), done[0].updated.pot if done else _pot(doc, extra))
    for t in done:
        _replace(po_path(doc, t.lang), t.updated.po)
    for lang, (data, _, _) in themes:
        _replace(own_theme_path(doc.folder, lang), data)
    return done


def theme_line(doc: Document, lang: str) -> str | None:
    """What translate says of the game's own theme catalog of ``lang``, if it has one."""
    path = own_theme_path(doc.folder, lang)
    if not path.is_file():
        return None
    catalog = load(path, lang)
    total = sum(1 for m in catalog if m.id)
    used = sum(1 for m in catalog if m.id and m.string and all(m.string) and not m.fuzzy)
    own = f"{LOCALES}/{path.name}"
    shipped = theme_catalog_path(lang)
    if shipped.is_file():  # the game's own words override rulepress's, which has the rest
        return (f"{doc.slug} {lang}: the theme's words: {used} of the game's own ({own}), "
                f"the rest from rulepress's {shipped.name}")
    return f"{doc.slug} {lang}: the theme's words: {used}/{total} translated ({own})"


def _theme(doc: Document, lang: str) -> tuple[bytes, int, int] | None:
    """The game's own catalog of the theme's words in ``lang`` merged with the theme's template
    as the rules' is: made for a language rulepress ships no theme catalog of, kept up to date
    where the game has one (its words override rulepress's)."""
    path = own_theme_path(doc.folder, lang)
    if theme_catalog_path(lang).is_file() and not (path.exists() or path.is_symlink()):
        return None
    with (templates_dir() / "locales" / "theme.pot").open("rb") as fh:
        pot = read_po(fh)
    old = load(path, lang) if path.exists() or path.is_symlink() else None
    po = merged(pot, old, lang)
    if old is None:
        po.header_comment = THEME_HEADER.replace("PROJECT", doc.meta.title)
    messages = [m for m in po if m.id]
    return dump(po), len(messages), sum(bool(m.string) for m in messages)


THEME_HEADER = """\
# The words rulepress prints around the rules of PROJECT (contents, page numbers, the kit's
# instructions), for a language rulepress ships none for. Made and merged by `rulepress
# translate`; each word translated here replaces rulepress's. Keep each {placeholder}."""


def _pot(doc: Document, extra: list[Segment]) -> bytes:
    return dump(template(doc, segments(doc) + extra))


def _replace(path: Path, data: bytes) -> None:
    """Write ``path`` whole or not at all (a link in its place is replaced, never followed)."""
    try:
        if not path.is_symlink() and path.is_file() and read_regular(path) == data:
            return
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except PathRefused as exc:
        raise RulepressError.at(SourceLoc(path, 1), f"cannot write: {exc}") from None
    except OSError as exc:
        raise RulepressError.at(SourceLoc(path, 1), f"cannot write: {exc.strerror}") from None

"""A build of the translations: the pipeline with the translated books' generator."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rulepress.diagnostics import counted
from rulepress.i18n.books import BookOptions, TranslatedBooks
from rulepress.pipeline import Paths, Progress, RunOptions, run
from rulepress.validate.results import Status

if TYPE_CHECKING:
    from rulepress.cli import Where


def precheck(where: Where, options: BookOptions) -> None:
    """The catalogs read and checked before any book is written: a bad one stops the build
    before the source language's books are written too."""
    from rulepress.diagnostics import RulepressError, Severity
    from rulepress.document.reader import read_sources
    from rulepress.i18n.apply import read_catalog
    from rulepress.i18n.books import languages_of
    from rulepress.i18n.checks import check_catalog

    problems = []
    for doc in read_sources(where.sources, where.games):
        for lang in languages_of(doc, options.langs):
            try:
                catalog = read_catalog(doc, lang)
            except RulepressError as exc:
                problems += exc.diagnostics
                continue
            problems += [d for d in check_catalog(doc, catalog) if d.severity is Severity.ERROR]
            if options.strict:
                problems += catalog.missing()
    if problems:
        raise RulepressError(problems)


def build_translations(where: Where, out: Path, options: BookOptions, reporter: Progress,
                       force: bool = False) -> str:
    """Write the books of ``options.langs`` into ``out/<game>/<lang>/``; return the summary:
    what was written, and each language's count of translated segments."""
    return translate_books(where.sources, out, options, reporter, project=where.project.root,
                           games=where.games, force=force)


def translate_books(sources: Path, out: Path, options: BookOptions, reporter: Progress, *,
                    project: Path | None = None, games: tuple[str, ...] = (),
                    force: bool = False) -> str:
    """build_translations for a sources folder of one's own (the tests)."""
    books = TranslatedBooks(options, reporter=reporter)
    built = run(Paths(sources, out, project), [books], reporter,
                RunOptions(games, force, draw=True))
    reporter.diagnostics(books.warnings)
    diags = built.report.diagnostics + books.warnings
    wrote = f"wrote {len(built.written)} file{'' if len(built.written) == 1 else 's'} to {out}"
    if built.unchanged:
        wrote += f", {built.unchanged} unchanged"
    lines = [f"{wrote}; {counted(diags, built.report.count(Status.PROVEN))}", *books.notes]
    return "\n".join(lines)

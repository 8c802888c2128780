"""What build, pnp and check add for the project's languages besides its source's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulepress.diagnostics import RulepressError, Severity
from rulepress.i18n.books import TranslationOptions, languages_of, theme_problems

if TYPE_CHECKING:
    from rulepress.cli import Where


def precheck(where: Where, options: TranslationOptions) -> None:
    """The catalogs read and checked before anything is made: a bad one stops the command at
    its line, whatever else it was to write."""
    from rulepress.document.reader import read_sources
    from rulepress.i18n.apply import read_catalog
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
            problems += theme_problems(doc, lang, options.strict)
            if options.strict:
                problems += catalog.missing()
    if problems:
        raise RulepressError(problems)

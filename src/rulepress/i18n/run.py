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


def build_translations(where: Where, out: Path, options: BookOptions, reporter: Progress,
                       force: bool = False) -> str:
    """Write the books of ``options.langs`` into ``out/<game>/<lang>/``; return the summary:
    what was written, and each language's count of translated segments."""
    books = TranslatedBooks(options)
    built = run(Paths(where.sources, out, where.project.root), [books], reporter,
                RunOptions(where.games, force))
    reporter.diagnostics(books.warnings)
    diags = built.report.diagnostics + books.warnings
    wrote = f"wrote {len(built.written)} file{'' if len(built.written) == 1 else 's'} to {out}"
    if built.unchanged:
        wrote += f", {built.unchanged} unchanged"
    lines = [f"{wrote}; {counted(diags, built.report.count(Status.PROVEN))}", *books.notes]
    return "\n".join(lines)

"""``export --lang``: an export's files in every language but the source's, the kit's faces
translated as ``pnp --lang`` draws them, into ``<game>/<lang>/<target>/`` beside the source's
``<game>/<target>/``. The game is checked once; each language's preflight and files are its
own (German words are longer: a text that no longer fits is found there)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rulepress.diagnostics import Diagnostic, RulepressError
from rulepress.document.model import Document
from rulepress.export.generator import Exporter, ExportOptions
from rulepress.i18n.apply import read_catalog, translated
from rulepress.i18n.books import languages_of, stop_on_catalogs
from rulepress.i18n.engine import engine_words
from rulepress.media import DEFAULT_LANGUAGE
from rulepress.pipeline import Base, Unit
from rulepress.validate.check import DocumentCheck


class TranslatedExporter(Base):
    """One target's export in each of ``langs`` the game has a catalog of."""

    def __init__(self, options: ExportOptions, langs: tuple[str, ...],
                 source: str = DEFAULT_LANGUAGE) -> None:
        self.options = options
        self.exporter = Exporter(options)  # the target checked here, as the source's is
        self.name = f"translated-export-{options.target}"
        self.langs, self.source = langs, source

    def prepare(self, docs: Sequence[Document]) -> None:
        stop_on_catalogs(docs, self.langs, False)

    def _games(self, game: DocumentCheck) -> list[tuple[str, DocumentCheck]]:
        words = engine_words(game.engine)
        return [(lang, replace(game, doc=translated(
                    game.doc, read_catalog(game.doc, lang, words=words), self.source)))
                for lang in languages_of(game.doc, self.langs)]

    def check(self, game: DocumentCheck) -> list[Diagnostic]:
        try:
            games = self._games(game)
        except RulepressError as exc:
            return exc.diagnostics
        found: list[Diagnostic] = []
        for _, each in games:
            found += self.exporter.check(each)
        return found

    def units(self, game: DocumentCheck, key: str) -> list[Unit]:
        made = []
        for lang, each in self._games(game):
            slug, target = game.doc.slug, self.options.target
            # Its images are uploaded beside the source's: --base-url's folder, then LANG/.
            url = self.options.base_url and f"{self.options.base_url}{lang}/"
            own = Exporter(replace(self.options, base_url=url))
            for unit in own.units(each, key, f"{lang}/"):
                made.append(replace(unit, name=f"{slug}/{lang}/{target}",
                                    label=f"{unit.label} ({lang})"))
        return made

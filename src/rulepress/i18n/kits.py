"""The print-and-play kits in every language but the source's: the kits generator, each game's
document translated before it is drawn (layout texts, the sections a card prints), its files
in ``<game>/<lang>/``. Drawn where the source's kit is (in the engine's worker)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial

from rulepress.diagnostics import Diagnostic, RulepressError
from rulepress.document.model import Document
from rulepress.i18n.apply import read_catalog, translated
from rulepress.i18n.books import languages_of, stop_on_catalogs
from rulepress.i18n.engine import engine_words
from rulepress.media import DEFAULT_LANGUAGE
from rulepress.pipeline import Files, Unit
from rulepress.pnp.generator import KitOptions, Kits
from rulepress.validate.check import DocumentCheck


@dataclass(frozen=True)
class TranslatedKitOptions(KitOptions):
    langs: tuple[str, ...] = ()
    source: str = DEFAULT_LANGUAGE


class TranslatedKits(Kits):
    name = "translated-kits"
    options: TranslatedKitOptions

    def __init__(self, options: TranslatedKitOptions, *, strict: bool = False) -> None:
        super().__init__(options)
        self.strict = strict  # its catalogs checked so (not in its key: it makes the same kits)

    def prepare(self, docs: Sequence[Document]) -> None:
        stop_on_catalogs(docs, self.options.langs, self.strict)
        super().prepare(docs)

    def check(self, game: DocumentCheck) -> list[Diagnostic]:
        found: list[Diagnostic] = []
        for lang in languages_of(game.doc, self.options.langs):
            try:
                read_catalog(game.doc, lang, words=engine_words(game.engine))
            except RulepressError as exc:
                found += exc.diagnostics
        return found

    def unchanged(self, doc: Document) -> bool:
        return all(self.changed(f"{doc.slug}/{lang}") == set()
                   for lang in languages_of(doc, self.options.langs))

    def units(self, game: DocumentCheck, key: str) -> list[Unit]:
        made: list[Unit] = []
        if not super().units(game, key):
            return made
        for papers in self._parts():
            unit = self._unit(game, key, papers)
            for lang in languages_of(game.doc, self.options.langs):
                if self.changed(f"{game.doc.slug}/{lang}") == set():
                    continue  # --changed-since: nothing of it changed in this language
                made.append(replace(unit, name=f"{unit.name}/{lang}",
                                    make=partial(self._translated, game, lang, papers),
                                    label=f"{unit.label} ({lang})"))
        return made

    def _translated(self, game: DocumentCheck, lang: str,
                    papers: tuple[str, ...]) -> Files | list[Diagnostic]:
        catalog = read_catalog(game.doc, lang, words=engine_words(game.engine))
        doc = translated(game.doc, catalog, self.options.source)
        files = self._draw(replace(game, doc=doc), papers, f"{game.doc.slug}/{lang}")
        if isinstance(files, list):
            return files
        return {f"{name.split('/', 1)[0]}/{lang}/{name.split('/', 1)[1]}": data
                for name, data in files.items()}

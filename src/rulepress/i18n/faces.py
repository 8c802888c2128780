"""serve's faces page in each language of the project: the kit's faces drawn from the game
translated (its cards' texts, its layouts' words), written to ``<game>/<lang>/faces/`` beside
the translated books, the page's own words from the theme's catalogs of the language."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from rulepress.diagnostics import Diagnostic, RulepressError
from rulepress.document.model import Document
from rulepress.i18n.apply import read_catalog, translated
from rulepress.i18n.books import languages_of
from rulepress.pipeline import Files, Unit
from rulepress.serve.faces import FaceOptions, Faces
from rulepress.serve.site import FACES_FOLDER
from rulepress.validate.check import DocumentCheck
from rulepress.words import Words


class TranslatedFaces(Faces):
    """The faces page of one translation, for the games with its catalog."""

    def __init__(self, options: FaceOptions, out: Path, project: Path | None, lang: str,
                 source: str) -> None:
        super().__init__(options, out, project)
        self.lang, self.source = lang, source
        self.name = f"faces-{lang}"
        self.home = "../../../index.html"  # from <game>/<lang>/faces/

    def words(self, doc: Document) -> Words:
        return Words(self.lang, doc.folder)

    def units(self, game: DocumentCheck, key: str) -> list[Unit]:
        doc = game.doc
        if not languages_of(doc, (self.lang,)):
            return []
        try:
            mine = replace(game, doc=translated(doc, read_catalog(doc, self.lang), self.source))
        except RulepressError:
            return []  # the translated books' check says where
        old, new = f"{doc.slug}/{FACES_FOLDER}/", f"{doc.slug}/{self.lang}/{FACES_FOLDER}/"
        return [replace(u, name=new, label=f"{u.label} ({self.lang})")
                for u in super().units(mine, key) if u.name == old]

    def _draw(self, game: DocumentCheck) -> Files | list[Diagnostic]:
        found = super()._draw(game)
        if isinstance(found, list):
            return found
        old = f"{game.doc.slug}/{FACES_FOLDER}/"
        return {f"{game.doc.slug}/{self.lang}/{FACES_FOLDER}/{name.removeprefix(old)}": data
                for name, data in found.items()}

"""The books' parts of every check (validate/hooks.py names them): references, glyphs, the
glossary, the player edition's teaching order and
the game's hyphenation exceptions. Each imports what it runs when it runs: a
check whose answers are kept (memo.py) loads neither the renderer nor its fonts."""

from __future__ import annotations

from collections.abc import Mapping

from rulepress.diagnostics import Diagnostic
from rulepress.document.lookup import check_glossary
from rulepress.document.model import Document
from rulepress.document.teaching import check_teaching
from rulepress.hyphenation import check_exceptions
from rulepress.validate.hooks import DocumentHook
from rulepress.validate.results import RenderedExample


def _references(doc: Document, examples: Mapping[str, RenderedExample]) -> list[Diagnostic]:
    from rulepress.render.references import check_references  # the renderer: Jinja, CSS

    return check_references(doc)


def _glyphs(doc: Document, examples: Mapping[str, RenderedExample]) -> list[Diagnostic]:
    from rulepress.render.glyphs import check_glyphs  # the renderer and its fonts

    return check_glyphs(doc, examples)


def _glossary(doc: Document, examples: Mapping[str, RenderedExample]) -> list[Diagnostic]:
    return check_glossary(doc.terms)


def _teaching(doc: Document, examples: Mapping[str, RenderedExample]) -> list[Diagnostic]:
    return check_teaching(doc)


def _hyphenation(doc: Document, examples: Mapping[str, RenderedExample]) -> list[Diagnostic]:
    return check_exceptions(doc.folder)


REFERENCES = DocumentHook("references", _references)
GLYPHS = DocumentHook("glyphs", _glyphs)
GLOSSARY = DocumentHook("glossary", _glossary)
TEACHING = DocumentHook("teaching", _teaching)
HYPHENATION = DocumentHook("hyphenation", _hyphenation)

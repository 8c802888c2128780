"""The books' parts of every check (validate/hooks.py names them): references, glyphs, the
glossary and the player edition's teaching order."""

from __future__ import annotations

from collections.abc import Mapping

from rulepress.diagnostics import Diagnostic
from rulepress.document.lookup import check_glossary
from rulepress.document.model import Document
from rulepress.document.teaching import check_teaching
from rulepress.render.glyphs import check_glyphs
from rulepress.render.references import check_references
from rulepress.validate.hooks import DocumentHook
from rulepress.validate.results import RenderedExample


def _references(doc: Document, examples: Mapping[str, RenderedExample]) -> list[Diagnostic]:
    return check_references(doc)


def _glossary(doc: Document, examples: Mapping[str, RenderedExample]) -> list[Diagnostic]:
    return check_glossary(doc.terms)


def _teaching(doc: Document, examples: Mapping[str, RenderedExample]) -> list[Diagnostic]:
    return check_teaching(doc)


REFERENCES = DocumentHook("references", _references)
GLYPHS = DocumentHook("glyphs", check_glyphs)
GLOSSARY = DocumentHook("glossary", _glossary)
TEACHING = DocumentHook("teaching", _teaching)

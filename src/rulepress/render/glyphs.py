"""Characters the bundled font cannot draw: WeasyPrint would take them from whatever font the
machine has, and the PDF would differ from machine to machine. Reported as warnings."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from html import unescape

from rulepress.diagnostics import Diagnostic, SourceLoc, warning
from rulepress.document.model import Document
from rulepress.emoji import is_emoji
from rulepress.paths import templates_dir
from rulepress.render.html import FONT_FACES, SYMBOLS_FONT
from rulepress.validate.results import RenderedExample

_TAG = re.compile(r"<[^>]*>")


@cache
def covered() -> frozenset[int]:
    """Code points every Carlito face draws, plus the bundled symbol fallback's."""
    from fontTools.ttLib import TTFont

    fonts = templates_dir() / "fonts"
    faces = [TTFont(fonts / face.file, lazy=True) for face in FONT_FACES]
    sets = [set(face.getBestCmap()) for face in faces]
    symbols = set(TTFont(fonts / SYMBOLS_FONT, lazy=True).getBestCmap())
    return frozenset(set.intersection(*sets) | symbols)


def uncovered(text: str) -> list[str]:
    """The distinct characters of ``text`` the font lacks (whitespace and controls ignored)."""
    have = covered()
    return sorted({ch for ch in text if ord(ch) not in have and ch.isprintable()
                   and not ch.isspace()})


def _describe(chars: list[str]) -> str:
    said = ", ".join(f"'{ch}' (U+{ord(ch):04X})" for ch in chars)
    if any(is_emoji(ch) for ch in chars):  # no emoji font is bundled: say what to do instead
        said += (" (an emoji: the books have no emoji font; save it as images/NAME.svg and "
                 "write :icon[NAME])")
    return said


def check_glyphs(doc: Document, examples: Mapping[str, RenderedExample]) -> list[Diagnostic]:
    """Warnings for characters Carlito lacks: in the body at their line, in an example's
    prose or figures at the example."""
    found: list[Diagnostic] = []
    for part in doc.parts:
        for n, line in enumerate(part.text.split("\n")):
            missing = uncovered(line)
            if missing:
                found.append(warning(part.loc(n), f"the font has no {_describe(missing)}; "
                                     "the PDF would borrow another font from this machine"))
    meta = doc.meta
    missing = uncovered(" ".join([meta.title, meta.subtitle, meta.designer, *meta.credits,
                                  *(c.name + c.note for c in meta.components)]))
    if missing:
        found.append(warning(SourceLoc(doc.path, 1), f"front matter: the font has no "
                                                     f"{_describe(missing)}"))
    for example in doc.boxes:
        rendered = examples.get(example.id)
        if rendered is None:
            continue
        figures = " ".join(unescape(_TAG.sub(" ", f.svg)) for f in rendered.figures)
        missing = uncovered(" ".join([rendered.title, rendered.prose, figures,
                                      *rendered.moves, *(k + v for k, v in rendered.claims)]))
        if missing:
            found.append(warning(example.loc, f"example '{example.id}': the font has no "
                                              f"{_describe(missing)} (in its text or figures)"))
    return found

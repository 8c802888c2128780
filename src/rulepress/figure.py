"""The SVG figure kit games draw their example diagrams with.

WeasyPrint lays out every text node on its own and anchors a text only as a whole, so a figure
places each letter itself, from the advance widths of the bundled font read from its TTF (the
same file the book embeds), and gathers marks of a kind into one element: a figure of many cards
stays a few nodes.
"""

from __future__ import annotations

import struct
from collections import defaultdict
from collections.abc import Mapping
from functools import cache
from html import escape

from rulepress.paths import fonts_dir

# The font stack diagrams name: the bundled Carlito, then the bundled symbol fallback, so a PDF
# never borrows a glyph from whatever fonts the machine has.
DIAGRAM_FONT = "Carlito, RPSymbols, sans-serif"
UNKNOWN_ADVANCE = 0.55  # em, for a character the font lacks (the fallback font draws it)


@cache
def advances(bold: bool = False) -> Mapping[str, float]:
    """Advance widths, in em, of the bundled Carlito (regular or bold), by character."""
    from fontTools.ttLib import TTFont

    font = TTFont(fonts_dir() / f"Carlito-{'Bold' if bold else 'Regular'}.ttf", lazy=True)
    # unitsPerEm, read raw: decoding the head table warns about Carlito's creation date.
    (per_em,) = struct.unpack(">H", font.reader["head"][18:20])
    metrics = font["hmtx"]
    return {chr(code): metrics[glyph][0] / per_em for code, glyph in font.getBestCmap().items()}


def text_width(text: str, size: float, bold: bool = False) -> float:
    """How wide ``text`` sets in Carlito at ``size`` px."""
    table = advances(bold)
    return sum(table.get(ch, UNKNOWN_ADVANCE) for ch in text) * size


class Lettering:
    """Runs of text in one style, written as one ``<text>`` with a position per letter."""

    def __init__(self, size: float, bold: bool = False, places: int = 1) -> None:
        self.size, self.bold, self.places = size, bold, places
        self.xs: list[str] = []
        self.ys: list[str] = []
        self.letters: list[str] = []

    def add(self, x: float, y: float, text: str, *, centre: bool = False,
            size: float | None = None) -> float:
        """Write ``text`` with its baseline at ``y``, starting at ``x`` (or centred on it), its
        letters spaced for ``size`` (default: the lettering's own); spaces only move on.
        Returns its width."""
        table, em = advances(self.bold), size or self.size
        width = sum(table.get(ch, UNKNOWN_ADVANCE) for ch in text) * em
        if centre:
            x -= width / 2
        for ch in text:
            if not ch.isspace():
                self.xs.append(f"{x:.{self.places}f}")
                self.ys.append(f"{y:.{self.places}f}")
                self.letters.append(ch)
            x += table.get(ch, UNKNOWN_ADVANCE) * em
        return width

    def __bool__(self) -> bool:
        return bool(self.letters)

    def svg(self, attributes: str) -> str:
        """The ``<text>`` element, with ``attributes`` (font, size, fill) after its positions."""
        return (f'<text x="{" ".join(self.xs)}" y="{" ".join(self.ys)}" {attributes}>'
                f"{escape(''.join(self.letters))}</text>")


class Marks:
    """A figure's path data gathered by kind: each kind becomes one ``<path>``."""

    def __init__(self) -> None:
        self.paths: dict[str, list[str]] = defaultdict(list)

    def path(self, kind: str, d: str) -> None:
        self.paths[kind].append(d)

    def elements(self, styles: Mapping[str, str]) -> list[str]:
        """One ``<path>`` per kind that has marks, in the order of ``styles`` (kind: its
        attributes)."""
        return [f'<path d="{" ".join(self.paths[k])}" {a}/>' for k, a in styles.items()
                if self.paths[k]]

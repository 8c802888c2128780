"""A small toolkit for component drawers: fonts, colours, canvas state and the bleed.

Game packages draw their own art; what every drawer needs the same way lives here.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from reportlab.lib.colors import Color, HexColor
from reportlab.pdfgen.canvas import Canvas

from rulepress.pnp.api import Face
from rulepress.pnp.fonts import register_fonts

REGULAR = "Carlito"
BOLD = "Carlito-Bold"


def fonts() -> tuple[str, str]:
    """(regular, bold) ReportLab font names of the project font, registered on first use.

    A missing font raises register_fonts()'s RulepressError: that is a broken install, and a
    kit quietly printed in another face would hide it.
    """
    register_fonts()  # idempotent: a cheap check once the faces are registered
    return REGULAR, BOLD


@contextmanager
def saved(c: Canvas) -> Iterator[None]:
    """Run the block between saveState() and restoreState(), even if it raises."""
    c.saveState()
    try:
        yield
    finally:
        c.restoreState()


def colour(hex_code: str) -> Color:
    """A ReportLab colour from "#rrggbb"."""
    return HexColor(hex_code)


def tint(hex_code: str, amount: float) -> Color:
    """The colour mixed with white: amount 0 is the colour itself, 1 is white."""
    base = HexColor(hex_code)
    return Color(
        base.red + (1 - base.red) * amount,
        base.green + (1 - base.green) * amount,
        base.blue + (1 - base.blue) * amount,
    )


def shade(hex_code: str, amount: float) -> Color:
    """The colour mixed with black: amount 0 is the colour itself, 1 is black."""
    base = HexColor(hex_code)
    return Color(base.red * (1 - amount), base.green * (1 - amount), base.blue * (1 - amount))


def fill_bleed(c: Canvas, face: Face, fill: Color) -> None:
    """Paint the whole face, trim and bleed, in one colour (sets the fill colour)."""
    b = face.bleed
    c.setFillColor(fill)
    c.rect(-b, -b, face.width + 2 * b, face.height + 2 * b, stroke=0, fill=1)


def fit_text(c: Canvas, text: str, font: str, size: float, width: float) -> float:
    """The font size, at most ``size``, at which ``text`` is no wider than ``width``."""
    w = c.stringWidth(text, font, size)
    return size if w <= width else size * width / w

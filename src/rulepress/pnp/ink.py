"""Low ink: the kit's canvas redraws whatever a drawer or a layout paints with outlines and light
tints, so every engine's art (and any plug-in's) saves ink without code of its own.

While a face is drawn in low ink:

- a fill covering the whole face (a full-bleed background) is left out: the paper shows;
- a small fill (a pip, a symbol: at most ``SMALL`` of the face and 7 mm) keeps its colour, so
  what colour tells apart stays apart, in greyscale too;
- any other fill darker than ``LIGHT`` is mixed with white up to ``LIGHT`` (the hue stays) and
  outlined thinly in its own colour, so shapes and bands keep their edges;
- lines are lightened to mid tones (patterns stay visible), white lines meant for a dark ground
  turn grey, and text drawn light on a dark ground turns dark; text stays in its fonts.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from reportlab.lib.colors import Color, toColor
from reportlab.pdfgen.canvas import Canvas

INKS = ("normal", "low")
LIGHT = 0.97  # the darkest a filled area may be in low ink (luminance, 0 black - 1 white)
LINE_LIGHT = 0.6  # the darkest a thin line may be (the outlines low ink adds excepted)
WIDE = 1.0  # points: lines this wide or wider (patterns, hatching) are lighter still
WIDE_LIGHT = 0.82
OUTLINE = 0.45  # points
SMALL = 0.04  # fills within this share of the face keep their colour (pips, symbols)
SMALL_SIDE = 20.0  # points (7 mm): and no longer than this (a table cell is no pip)
TEXT_DARK = Color(0.16, 0.16, 0.16)
MIN_TEXT = 6.0  # points: no printed part of a kit sets text smaller (layouts and drawers alike)
_RGB = re.compile(r"(?<![\w.])(-?[\d.]+) (-?[\d.]+) (-?[\d.]+) rg")
_GRAY = re.compile(r"(?<![\w.])(-?[\d.]+) g(?![\w])")


def luminance(c: Color) -> float:
    return float(0.299 * c.red + 0.587 * c.green + 0.114 * c.blue)


def lightened(c: Color, floor: float) -> Color:
    """The colour mixed with white until its luminance is at least ``floor``."""
    lum = luminance(c)
    if lum >= floor:
        return c
    t = (floor - lum) / (1 - lum)
    return Color(c.red + (1 - c.red) * t, c.green + (1 - c.green) * t, c.blue + (1 - c.blue) * t)


def text_colour(c: Color) -> Color:
    """Light text (meant for a dark ground the low-ink face leaves out) drawn dark."""
    return TEXT_DARK if luminance(c) > 0.6 else c


def _colour(value: Any) -> Color:
    if isinstance(value, Color):
        return value
    if isinstance(value, tuple | list) and len(value) == 3:
        return Color(*value)
    return toColor(value)


class SmallText(ValueError):
    """Text a drawer or layout would set below MIN_TEXT (its caller blames the drawer's or the
    layout's line)."""


_TEXT_CALLS = ("drawString", "drawCentredString", "drawRightString")


@contextmanager
def speaking(c: Canvas, words: Callable[[str], str | None] | None) -> Iterator[None]:
    """Each text drawn on ``c`` inside said in ``words`` when it knows it (a translated kit's
    engine drawer: its "HOME" and "1st" from the game's catalog, as the book's figures say
    them); on any canvas, the kit's or an export's."""
    if words is None:
        yield
        return
    before = {name: c.__dict__.get(name) for name in _TEXT_CALLS}
    for name in _TEXT_CALLS:
        setattr(c, name, _said(getattr(c, name), words))
    try:
        yield
    finally:
        for name, was in before.items():
            if was is None:
                delattr(c, name)
            else:
                setattr(c, name, was)


def _said(draw: Callable[..., None], words: Callable[[str], str | None]) -> Callable[..., None]:
    def text(x: float, y: float, said: Any, *args: Any, **kwargs: Any) -> None:
        if isinstance(said, str):
            said = words(said) or said
        draw(x, y, said, *args, **kwargs)

    return text


class KitCanvas(Canvas):  # type: ignore[misc]  # ReportLab ships no types
    """A ReportLab canvas with a low-ink switch, turned on face by face (``low_ink``)."""

    STATE_ATTRIBUTES = [*Canvas.STATE_ATTRIBUTES, "_want_fill", "_want_stroke"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._face: tuple[float, float] | None = None  # the face being drawn in low ink
        self._want_fill = Color(0, 0, 0)
        self._want_stroke = Color(0, 0, 0)
        super().__init__(*args, **kwargs)

    @contextmanager
    def low_ink(self, width: float, height: float, on: bool = True) -> Iterator[None]:
        """Draw a ``width`` x ``height`` face (its own coordinates) in low ink inside the block."""
        if not on:
            yield
            return
        self._face = (width, height)
        self.saveState()
        try:
            yield
        finally:
            self.restoreState()
            self._face = None

    # -- text -----------------------------------------------------------------------------------
    def setFont(self, psfontname: str, size: float, leading: float | None = None) -> None:
        self._floor(size)
        super().setFont(psfontname, size, leading)

    def setFontSize(self, size: float | None = None, leading: float | None = None) -> None:
        if size is not None:
            self._floor(size)
        super().setFontSize(size, leading)

    def _floor(self, size: float) -> None:
        """Text below MIN_TEXT as it lands on paper (the canvas's scale applied) is refused."""
        _, _, c, d, _, _ = self._currentMatrix
        printed = size * math.hypot(c, d)
        if printed < MIN_TEXT - 1e-6:
            raise SmallText(f"text set at {printed:.2g} pt, below the {MIN_TEXT:g} pt floor of "
                            "printed text: a player cannot read it at the table")

    # -- colours --------------------------------------------------------------------------------
    def setFillColor(self, aColor: Any, alpha: Any = None) -> None:
        self._want_fill = _colour(aColor)
        shown = lightened(self._want_fill, LIGHT) if self._face else aColor
        super().setFillColor(shown, alpha)

    def setFillColorRGB(self, r: float, g: float, b: float, alpha: Any = None) -> None:
        self.setFillColor(Color(r, g, b), alpha)

    def setFillGray(self, gray: float, alpha: Any = None) -> None:
        self.setFillColor(Color(gray, gray, gray), alpha)

    def setStrokeColor(self, aColor: Any, alpha: Any = None) -> None:
        self._want_stroke = _colour(aColor)
        super().setStrokeColor(self._stroke_shown() if self._face else aColor, alpha)

    def setStrokeColorRGB(self, r: float, g: float, b: float, alpha: Any = None) -> None:
        self.setStrokeColor(Color(r, g, b), alpha)

    def setStrokeGray(self, gray: float, alpha: Any = None) -> None:
        self.setStrokeColor(Color(gray, gray, gray), alpha)

    def setLineWidth(self, width: float) -> None:
        super().setLineWidth(width)
        if self._face:
            super().setStrokeColor(self._stroke_shown())

    def _stroke_shown(self) -> Color:
        c = self._want_stroke
        if luminance(c) > 0.85:
            return Color(0.75, 0.75, 0.75)
        return lightened(c, WIDE_LIGHT if self._lineWidth >= WIDE else LINE_LIGHT)

    # -- painting -------------------------------------------------------------------------------
    def _covers_face(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        assert self._face is not None
        w, h = self._face
        eps = 0.01
        return min(x0, x1) <= eps and min(y0, y1) <= eps and max(x0, x1) >= w - eps and max(
            y0, y1) >= h - eps

    def _paint(self, draw: Any, stroke: int, fill: int, box: tuple[float, ...] | None) -> None:
        if not self._face or not fill:
            draw(stroke, fill)
            return
        w, h = self._face
        if box is not None and self._covers_face(*box):
            if stroke:
                draw(stroke, 0)
            return
        if box is not None and _small(box, w * h):
            # A pip, a symbol, a numeral: little ink, and its colour may be what it says.
            super().saveState()
            Canvas.setFillColor(self, self._want_fill)
            draw(stroke, fill)
            super().restoreState()
            return
        if stroke or luminance(self._want_fill) >= LIGHT:
            draw(stroke, fill)
            return
        super().saveState()
        Canvas.setStrokeColor(self, self._want_fill)
        Canvas.setLineWidth(self, OUTLINE)
        draw(1, fill)
        super().restoreState()

    def rect(self, x: float, y: float, width: float, height: float, stroke: int = 1,
             fill: int = 0) -> None:
        self._paint(lambda s, f: Canvas.rect(self, x, y, width, height, stroke=s, fill=f),
                    stroke, fill, (x, y, x + width, y + height))

    def roundRect(self, x: float, y: float, width: float, height: float, radius: float,
                  stroke: int = 1, fill: int = 0) -> None:
        self._paint(lambda s, f: Canvas.roundRect(self, x, y, width, height, radius, stroke=s,
                                                  fill=f), stroke, fill,
                    (x, y, x + width, y + height))

    def circle(self, x_cen: float, y_cen: float, r: float, stroke: int = 1,
               fill: int = 0) -> None:
        self._paint(lambda s, f: Canvas.circle(self, x_cen, y_cen, r, stroke=s, fill=f),
                    stroke, fill, (x_cen - r, y_cen - r, x_cen + r, y_cen + r))

    def ellipse(self, x1: float, y1: float, x2: float, y2: float, stroke: int = 1,
                fill: int = 0) -> None:
        self._paint(lambda s, f: Canvas.ellipse(self, x1, y1, x2, y2, stroke=s, fill=f),
                    stroke, fill, (x1, y1, x2, y2))

    def drawPath(self, aPath: Any, stroke: int = 1, fill: int = 0, fillMode: Any = None) -> None:
        self._paint(lambda s, f: Canvas.drawPath(self, aPath, stroke=s, fill=f,
                                                 fillMode=fillMode), stroke, fill,
                    _bounds(aPath))

    def drawText(self, aTextObject: Any) -> None:
        if not self._face:
            super().drawText(aTextObject)
            return
        code = str(aTextObject.getCode())
        code = _RGB.sub(lambda m: _rgb(text_colour(Color(*map(float, m.groups())))), code)
        code = _GRAY.sub(lambda m: _rgb(text_colour(Color(*[float(m.group(1))] * 3))), code)
        self._code.append(f"q {_rgb(text_colour(self._want_fill))} {code} Q")


def _small(box: tuple[float, ...], face_area: float) -> bool:
    bw, bh = abs(box[2] - box[0]), abs(box[3] - box[1])
    return max(bw, bh) <= SMALL_SIDE and bw * bh <= SMALL * face_area


def _bounds(path: Any) -> tuple[float, float, float, float] | None:
    """The box of a ReportLab path's points (its control points: a little generous)."""
    numbers = [float(v) for op in path._code for v in op.split()[:-1]]
    xs, ys = numbers[0::2], numbers[1::2]
    return (min(xs), min(ys), max(xs), max(ys)) if xs and ys else None


def _rgb(c: Color) -> str:
    return f"{c.red:.4f} {c.green:.4f} {c.blue:.4f} rg"

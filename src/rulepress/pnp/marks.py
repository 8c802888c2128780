"""What the sheet engine itself draws around the artwork: crop marks, glue strips, footers."""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib.colors import Color, black, white
from reportlab.pdfgen.canvas import Canvas

from rulepress.pnp.draw import BOLD, REGULAR
from rulepress.pnp.layout import (
    FOOTER,
    MARGIN,
    MARK_HALO,
    MARK_WIDTH,
    Glue,
    Line,
    Paper,
    Rect,
    tile_label,
)
from rulepress.units import mm
from rulepress.words import SOURCE_WORDS, Words

INK = Color(0.25, 0.25, 0.25)
FOOTER_SIZE = 7.0


def crop_marks(c: Canvas, marks: Sequence[Line], inside: Rect | None = None) -> None:
    """Thin black marks on a white halo, so they show over a face's own dark bleed too;
    ``inside``: cut to that area (a mark on the margin's edge keeps its ink off the margin)."""
    # One path written as text once and stroked twice: ReportLab's own per-number
    # formatting was a third of the kit's drawing time. 0.001 pt is far below any printer.
    path = " ".join(f"{x0:.3f} {y0:.3f} m {x1:.3f} {y1:.3f} l" for x0, y0, x1, y1 in marks)
    c.saveState()
    if inside is not None:
        x0, y0, x1, y1 = inside
        c.addLiteral(f"{x0:.3f} {y0:.3f} {x1 - x0:.3f} {y1 - y0:.3f} re W n")
    c.setLineCap(0)
    for colour, width in ((white, MARK_HALO), (black, MARK_WIDTH)):
        c.setStrokeColor(colour)
        c.setLineWidth(width)
        c.addLiteral(f"{path} S")
    c.restoreState()


def fold_marks(c: Canvas, folds: Sequence[Line]) -> None:
    """Dashed marks continuing a gutter-fold pair's fold line outside the pair."""
    if not folds:
        return
    path = " ".join(f"{x0:.3f} {y0:.3f} m {x1:.3f} {y1:.3f} l" for x0, y0, x1, y1 in folds)
    c.saveState()
    c.setLineCap(0)
    c.setStrokeColor(black)
    c.setLineWidth(MARK_WIDTH)
    c.setDash(mm(0.8), mm(0.6))
    c.addLiteral(f"{path} S")
    c.restoreState()


def glue_strips(c: Canvas, strips: Sequence[Glue], _: Words = SOURCE_WORDS) -> None:
    """Shade each glue strip and dash the edge the covering tile lines up with."""
    for g in strips:
        x0, y0, x1, y1 = g.strip
        c.saveState()
        c.setFillColor(Color(1, 1, 1, alpha=0.55))
        c.rect(x0, y0, x1 - x0, y1 - y0, stroke=0, fill=1)
        c.setStrokeColor(black)
        c.setLineWidth(mm(0.35))
        c.setDash(mm(2), mm(1.5))
        c.line(*g.edge)
        c.setDash()
        _arrows(c, g)
        c.setFillColor(black)
        c.setFont(BOLD, 8)
        text = _("GLUE: lay tile {tile} here, its edge on the dashed line", tile=g.covered_by)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        c.translate(cx, cy)
        if (y1 - y0) > (x1 - x0):
            c.rotate(90)
        c.drawCentredString(0, -3, text)
        c.restoreState()


def _arrows(c: Canvas, g: Glue) -> None:
    """Alignment triangles pointing at both ends of the dashed edge, from inside the strip."""
    ex0, ey0, ex1, ey1 = g.edge
    s = mm(2.5)
    vertical = ex0 == ex1
    for px, py in ((ex0, ey0), (ex1, ey1)):
        p = c.beginPath()
        if vertical:
            inward = s if py == ey0 else -s
            p.moveTo(px, py + inward)
            p.lineTo(px + s, py + inward + s / 2 * (1 if inward > 0 else -1))
            p.lineTo(px + s, py + inward - s / 2 * (1 if inward > 0 else -1))
        else:
            inward = s if px == ex0 else -s
            p.moveTo(px + inward, py)
            p.lineTo(px + inward + s / 2, py - s)
            p.lineTo(px + inward - s / 2, py - s)
        p.close()
        c.drawPath(p, stroke=0, fill=1)


def footer(c: Canvas, p: Paper, left: str, right: str, *, top: bool = False) -> None:
    """One line of small print in the footer band (at the top for short-edge backs)."""
    y = p.height - MARGIN - FOOTER + mm(1.4) if top else MARGIN + mm(1.4)
    c.saveState()
    c.setFillColor(INK)
    c.setFont(REGULAR, FOOTER_SIZE)
    room = p.width - 2 * MARGIN - c.stringWidth(right, REGULAR, FOOTER_SIZE) - mm(3)
    c.drawString(MARGIN, y, fitted(c, left, room))
    c.drawRightString(p.width - MARGIN, y, right)
    c.restoreState()


def side_footer(c: Canvas, p: Paper, left: str, right: str, trim: Rect) -> None:
    """The footer of a sheet with no band below its pieces: reading upwards in the strip
    between the left margin and the artwork, centred on the page, clear of the row cuts'
    marks (they lie on the rows' edges; a row is taller than the words' room)."""
    size = FOOTER_SIZE
    ascent = size * 0.8  # Carlito's ascent, with a little to spare
    x = MARGIN + ascent  # the text reads upwards: its ascent lies to the left of the baseline
    text = f"{left} \u00b7 {right}"
    rows = sorted({round(y, 3) for y in (trim[1], trim[3])})
    room = min(mm(90.0), (rows[-1] - rows[0]) / 3 - mm(4))
    c.saveState()
    c.setFillColor(INK)
    c.setFont(REGULAR, size)
    text = fitted(c, text, room)
    c.translate(x, (p.height - c.stringWidth(text, REGULAR, size)) / 2)
    c.rotate(90)
    c.drawString(0, 0, text)
    c.restoreState()


def fitted(c: Canvas, text: str, room: float) -> str:
    """``text`` within ``room``: words before its last " \u00b7 " part (the sheet's number) are
    cut, an ellipsis in their place, so a footer stays inside the margin and clear of its
    right-hand text."""
    head, sep, tail = text.rpartition(" \u00b7 ")
    words = head.split(" ")
    while len(words) > 1 and c.stringWidth(text, REGULAR, FOOTER_SIZE) > room:
        words = words[:-1]
        text = " ".join(words).rstrip(",:") + " \u2026" + sep + tail
    return text


def tile_map(c: Canvas, x: float, y: float, cols: int, rows: int, cell: float, here: str) -> None:
    """A small grid of the board's tiles, labelled A1..., the tile ``here`` filled in."""
    c.saveState()
    c.setLineWidth(0.4)
    c.setStrokeColor(INK)
    c.setFont(REGULAR, max(6.0, cell * 0.45))
    for row in range(rows):
        for col in range(cols):
            label = tile_label(row, col)
            cx, cy = x + col * cell, y + (rows - 1 - row) * cell
            c.setFillColor(Color(0.75, 0.75, 0.75) if label == here else white)
            c.rect(cx, cy, cell, cell, stroke=1, fill=1)
            c.setFillColor(black)
            c.drawCentredString(cx + cell / 2, cy + cell * 0.32, label)
    c.restoreState()


def set_boxes(c: Canvas, trim: Rect, bleed: Rect) -> None:
    c.setTrimBox(list(trim))
    c.setBleedBox(list(bleed))

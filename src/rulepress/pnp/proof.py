"""``rulepress pnp --proof``: one PDF page showing each distinct face of a game once, at 1:1,
with its bleed, its trim line and its safe-area line, for checking art without printing a kit.

A face drawn from a layout is distinct per data row (and a shared back is one face); a face
drawn by code may differ on every copy, so each copy is shown.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping
from dataclasses import dataclass

from reportlab.lib.colors import Color
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from rulepress.diagnostics import Diagnostic, RulepressError
from rulepress.document.model import Component, Document
from rulepress.games.base import Drawer
from rulepress.pnp.api import Face
from rulepress.pnp.draw import BOLD, REGULAR, saved
from rulepress.pnp.faces import Art, Tables, is_layout
from rulepress.pnp.fonts import register_fonts
from rulepress.pnp.kit import DEFAULT_BLEED_MM, side_drawer
from rulepress.units import mm

TRIM_INK = Color(1, 0, 1)  # the trim line: magenta, as print shops mark it
SAFE_INK = Color(0, 0.6, 1)  # the safe-area line: cyan, dashed
LINE = 0.4
MARGIN = mm(10)
LABEL = mm(6)  # room under each face for its caption
GAP = mm(6)


@dataclass(frozen=True)
class Shown:
    """One face on the proof: which copy of which side, and its caption."""

    comp: Component
    back: bool
    index: int
    caption: str
    draw: Drawer


def _shown(comp: Component, back: bool, draw: Drawer, art: Art) -> list[Shown]:
    side = "back" if back else "front"
    name = comp.back if back else comp.front
    if name is not None and is_layout(name):
        laid = art.side(comp, back)
        if not laid.rows:
            return [Shown(comp, back, 0, f"{comp.id} {side}", draw)]
        return [Shown(comp, back, laid.owners.index(k),
                      f"{comp.id} {side}, {laid.rows[k].loc.path.name}:{laid.rows[k].loc.line}",
                      draw) for k in laid.distinct()]
    if back and not comp.back_varies:
        return [Shown(comp, back, 0, f"{comp.id} {side} (shared)", draw)]
    return [Shown(comp, back, i, f"{comp.id} {side} {i + 1}", draw) for i in range(comp.count)]


def faces(doc: Document, drawers: Mapping[str, Drawer], tables: Tables) -> list[Shown]:
    art = Art(doc, tables)
    problems: list[Diagnostic] = []
    shown: list[Shown] = []
    for comp in doc.meta.components:
        for back in (False, True):
            if (comp.back if back else comp.front) is None:
                continue
            draw = side_drawer(comp, back, drawers, art, problems)
            if draw is not None:
                shown += _shown(comp, back, draw, art)
    if problems:
        raise RulepressError(problems)
    return shown


def _place(shown: list[Shown], bleed: float) -> tuple[list[tuple[float, float]], float, float]:
    """Shelf packing: trim origins (from the top-left), the page width and height."""
    cells = [(s.comp.size.points if s.comp.size else (0.0, 0.0)) for s in shown]
    area = sum((w + 2 * bleed + GAP) * (h + 2 * bleed + LABEL + GAP) for w, h in cells)
    widest = max((w + 2 * bleed for w, _ in cells), default=0.0)
    width = max(widest, math.sqrt(area) * 1.2)
    spots: list[tuple[float, float]] = []
    x = y = shelf = 0.0
    for w, h in cells:
        cw, ch = w + 2 * bleed, h + 2 * bleed + LABEL
        if x and x + cw > width:
            x, y, shelf = 0.0, y + shelf + GAP, 0.0
        spots.append((x + bleed, y + bleed))
        x += cw + GAP
        shelf = max(shelf, ch)
    return spots, width + 2 * MARGIN, y + shelf + 2 * MARGIN


def proof(doc: Document, drawers: Mapping[str, Drawer], tables: Tables | None = None,
          *, bleed_mm: float = DEFAULT_BLEED_MM) -> bytes:
    """The proof page of one game, as PDF bytes; RulepressError as a kit would raise."""
    shown = faces(doc, drawers, tables or {})
    register_fonts()
    bleed = mm(bleed_mm)
    spots, pw, ph = _place(shown, bleed)
    # The page is as large as the faces need, no paper size: it says so, and what to print.
    lines: list[str] = []
    for _ in range(3):  # the lines' room and the size they quote settle at once
        height = max(ph + len(lines) * 11, mm(40))
        said = (f"{doc.meta.title}: every distinct face at 1:1, to look at on screen at 100% "
                f"zoom. This page is {pw / mm(1):.0f} x {height / mm(1):.0f} mm, not a paper "
                "size: do not print it; print the kit (rulepress pnp) instead.",
                "Magenta: trim. Dashed cyan: safe area (keep text inside).")
        lines = [part for text in said for part in simpleSplit(text, BOLD, 9, pw - 2 * MARGIN)]
    ph = height
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(pw, max(ph, mm(40))), invariant=1, pageCompression=1,
               initialFontName=REGULAR)
    c.setTitle(f"{doc.meta.title}: proof of every face, for the screen")
    c.setCreator("rulepress")
    top = c._pagesize[1] - MARGIN
    for s, (x, y) in zip(shown, spots, strict=True):
        assert s.comp.size is not None
        w, h = s.comp.size.points
        ox, oy = MARGIN + x, top - y - h
        face = Face(s.index, s.comp.count, w, h, bleed, back=s.back)
        with saved(c):
            c.translate(ox, oy)
            c.addLiteral(f"{-bleed:.3f} {-bleed:.3f} {w + 2 * bleed:.3f} {h + 2 * bleed:.3f} "
                         "re W n")
            s.draw(c, face)
        _lines(c, ox, oy, face)
        c.setFillColor(Color(0.2, 0.2, 0.2))
        c.setFont(REGULAR, 7)
        c.drawString(ox - bleed, oy - bleed - mm(4), s.caption)
    c.setFont(BOLD, 9)
    for n, line in enumerate(reversed(lines)):
        c.drawString(MARGIN, mm(4) + n * 11, line)
    c.showPage()
    c.save()
    return buf.getvalue()


def _lines(c: Canvas, x: float, y: float, face: Face) -> None:
    s = face.safe
    with saved(c):
        c.setLineWidth(LINE)
        c.setStrokeColor(TRIM_INK)
        c.rect(x, y, face.width, face.height, stroke=1, fill=0)
        c.setStrokeColor(SAFE_INK)
        c.setDash(2, 2)
        c.rect(x + s, y + s, face.width - 2 * s, face.height - 2 * s, stroke=1, fill=0)


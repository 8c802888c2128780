"""Print-and-play drawers for Pigeon Race: the board and the pigeon standees. Each draws one
face in its own coordinates (origin at the trim's bottom-left). The scoring card, the order
slips and the player aid are layouts (sources/pigeon-race/layouts/): their rules are the
rulebook's Quick reference, their numbers the engine's tables.

Sizes come from the source's components (the face); layouts scale to them.
"""

from __future__ import annotations

from reportlab.lib.colors import Color, white
from reportlab.pdfgen.canvas import Canvas

from rulepress.games.pigeon_race.rules import PIGEONS, SQUARES
from rulepress.games.pigeon_race.style import (
    FINISH_COLOUR,
    INK,
    LINE,
    PAPER,
    PIGEON_STYLES,
    START_COLOUR,
    TRACK,
    TRACK_ALT,
)
from rulepress.plugin import POINTS_PER_MM as MM
from rulepress.plugin import Drawer, Face, colour, fill_bleed, fonts, ordinal, saved, shade, tint


def pattern(c: Canvas, kind: str, x: float, y: float, w: float, h: float, ink: Color,
            *, outlined: bool = False) -> None:
    """Fill a box with a pigeon's pattern (call inside a clip). 'plain' draws nothing.
    ``outlined`` (low ink): checks and dots are drawn as outlines, which tell the same patterns
    apart for a fraction of the ink."""
    step = max(min(w, h) / 5, 2.2 * MM)
    fill = 0 if outlined else 1
    c.setStrokeColor(ink)
    c.setFillColor(ink)
    c.setLineWidth(step * (0.06 if outlined else 0.28))
    if kind == "stripes":
        yy = y + step / 2
        while yy < y + h:
            c.line(x, yy, x + w, yy)
            yy += step
    elif kind == "diagonal":
        d = -h
        while d < w:
            c.line(x + d, y, x + d + h, y + h)
            d += step
    elif kind == "checks":
        row = 0
        yy = y
        while yy < y + h:
            xx = x + (step if row % 2 else 0)
            while xx < x + w:
                c.rect(xx, yy, step, step, stroke=1 - fill, fill=fill)
                xx += 2 * step
            yy += step
            row += 1
    elif kind == "dots":
        row = 0
        yy = y + step / 2
        while yy < y + h + step:
            xx = x + (step / 2 if row % 2 else 0)
            while xx < x + w + step:
                c.circle(xx, yy, step * 0.22, stroke=1 - fill, fill=fill)
                xx += step
            yy += step * 0.87
            row += 1
    elif kind == "rings":
        cx, cy = x + w / 2, y + h / 2
        r = step * 0.6
        c.setLineWidth(step * (0.06 if outlined else 0.22))
        while r < (w + h):
            c.circle(cx, cy, r, stroke=1, fill=0)
            r += step * 0.9


def pigeon_disc(c: Canvas, cx: float, cy: float, r: float, pigeon: int,
                outlined: bool = False) -> None:
    """A pigeon's token: its colour and pattern (``outlined``: see pattern), and its number on
    a white centre."""
    style = PIGEON_STYLES[pigeon]
    _, bold = fonts()
    with saved(c):
        path = c.beginPath()
        path.circle(cx, cy, r)
        c.clipPath(path, stroke=0, fill=0)
        c.setFillColor(colour(style.fill))
        c.rect(cx - r, cy - r, 2 * r, 2 * r, stroke=0, fill=1)
        pattern(c, style.pattern, cx - r, cy - r, 2 * r, 2 * r, shade(style.fill, 0.35),
                outlined=outlined)
    c.setStrokeColor(colour(INK))
    c.setLineWidth(0.8)
    c.circle(cx, cy, r, stroke=1, fill=0)
    c.setFillColor(white)
    c.circle(cx, cy, r * 0.58, stroke=1, fill=1)
    c.setFillColor(colour(INK))
    size = r * 0.95
    c.setFont(bold, size)
    c.drawCentredString(cx, cy - size * 0.35, str(pigeon))


# --- the board ------------------------------------------------------------------------------

# Board layout in square units: lane labels, start box, 30 squares, home box, lane labels.
LABEL_U, BOX_U, HEAD_U = 0.7, 1.3, 0.7
BOARD_COLS_U = 2 * LABEL_U + 2 * BOX_U + SQUARES
BOARD_ROWS_U = 2 * HEAD_U + len(PIGEONS)


def board(c: Canvas, face: Face) -> None:
    regular, bold = fonts()
    fill_bleed(c, face, colour(PAPER))
    u = min(face.width / BOARD_COLS_U, face.height / BOARD_ROWS_U)
    x0 = (face.width - BOARD_COLS_U * u) / 2
    y0 = (face.height - BOARD_ROWS_U * u) / 2
    track_x = x0 + (LABEL_U + BOX_U) * u  # left edge of square 1
    top = y0 + (HEAD_U + len(PIGEONS)) * u

    def lane_y(p: int) -> float:  # bottom of lane p; lane 1 at the top
        return top - p * u

    with saved(c):
        for p in PIGEONS:
            style = PIGEON_STYLES[p]
            y = lane_y(p)
            # The start box, tinted in the lane's colour.
            c.setFillColor(tint(style.fill, 0.8))
            c.setStrokeColor(colour(LINE))
            c.setLineWidth(0.6)
            c.rect(x0 + LABEL_U * u, y, BOX_U * u, u, stroke=1, fill=1)
            # Home boxes belong to no lane: they are finishing places, 1st at the top, so the
            # board keeps the order in which pigeons crossed the line.
            hx0 = track_x + SQUARES * u
            c.setFillColor(white)
            c.rect(hx0, y, BOX_U * u, u, stroke=1, fill=1)
            c.setFillColor(colour(FINISH_COLOUR))
            c.setFont(bold, u * 0.3)
            c.drawString(hx0 + u * 0.3, y + u * 0.64, ordinal(p))
            for sq in range(1, SQUARES + 1):
                x = track_x + (sq - 1) * u
                c.setFillColor(colour(TRACK if sq % 2 else TRACK_ALT))
                c.setStrokeColor(colour(LINE))
                c.setLineWidth(0.6)
                # Low ink: bare squares; the numbers above and below the track and the line at
                # every fifth square still count them.
                c.rect(x, y, u, u, stroke=1, fill=0 if face.low_ink else 1)
                if not face.low_ink:
                    c.setFillColor(shade(TRACK, 0.45))
                    c.setFont(regular, u * 0.22)
                    c.drawRightString(x + u - u * 0.08, y + u * 0.08, str(sq))
            # Lane labels at both ends: the pigeon's token.
            for lx in (x0 + LABEL_U * u / 2, track_x + SQUARES * u + BOX_U * u + LABEL_U * u / 2):
                pigeon_disc(c, lx, y + u / 2, min(LABEL_U * u, u) * 0.42, p, face.low_ink)
            # A faint lane number in the start box, where the pigeon waits.
            c.setFillColor(shade(style.fill, 0.2))
            c.setFont(bold, u * 0.38)
            c.drawCentredString(x0 + (LABEL_U + BOX_U / 2) * u, y + u * 0.34, f"{p}")
        # Every fifth square: a heavier line across all lanes, to help counting.
        c.setStrokeColor(shade(TRACK, 0.5))
        c.setLineWidth(1.2)
        for sq in range(5, SQUARES, 5):
            x = track_x + sq * u
            c.line(x, lane_y(6), x, top)
        # Square numbers above and below the track.
        c.setFillColor(colour(INK))
        c.setFont(bold, u * 0.3)
        for sq in range(1, SQUARES + 1):
            cx = track_x + (sq - 0.5) * u
            c.drawCentredString(cx, top + u * 0.2, str(sq))
            c.drawCentredString(cx, lane_y(6) - u * 0.5, str(sq))
        # Start line: solid green; finish line: a chequered band.
        c.setStrokeColor(colour(START_COLOUR))
        c.setLineWidth(u * 0.09)
        c.line(track_x, lane_y(6) - u * 0.12, track_x, top + u * 0.12)
        _chequer(c, track_x + SQUARES * u, lane_y(6), u * 0.2, 6 * u, u * 0.1)
        c.setFont(bold, u * 0.3)
        c.setFillColor(colour(START_COLOUR))
        c.drawCentredString(x0 + (LABEL_U + BOX_U / 2) * u, top + u * 0.2, "START")
        c.drawCentredString(x0 + (LABEL_U + BOX_U / 2) * u, lane_y(6) - u * 0.5, "START")
        c.setFillColor(colour(FINISH_COLOUR))
        hx = track_x + (SQUARES + BOX_U / 2) * u
        c.drawCentredString(hx, top + u * 0.2, "HOME")
        c.drawCentredString(hx, lane_y(6) - u * 0.5, "HOME")


def _chequer(c: Canvas, x: float, y: float, w: float, h: float, cell: float) -> None:
    rows = max(1, round(h / cell))
    cell_h = h / rows
    cols = max(1, round(w / cell))
    cell_w = w / cols
    for i in range(rows):
        for j in range(cols):
            c.setFillColor(colour(INK) if (i + j) % 2 else white)
            c.rect(x + j * cell_w, y + i * cell_h, cell_w, cell_h, stroke=0, fill=1)
    c.setStrokeColor(colour(INK))
    c.setLineWidth(0.4)
    c.rect(x, y, w, h, stroke=1, fill=0)


# --- pigeon standees ------------------------------------------------------------------------


def pigeon(c: Canvas, face: Face) -> None:
    """A folding tent: two panels, the upper one upside down, so both stand upright when folded."""
    number = PIGEONS[face.index % len(PIGEONS)]
    style = PIGEON_STYLES[number]
    b = face.bleed
    w, h = face.width, face.height
    with saved(c):
        fill_bleed(c, face, colour(style.fill))
        path = c.beginPath()
        path.rect(-b, -b, w + 2 * b, h + 2 * b)
        c.clipPath(path, stroke=0, fill=0)
        pattern(c, style.pattern, -b, -b, w + 2 * b, h + 2 * b, shade(style.fill, 0.3),
                outlined=face.low_ink)
    _standee_panel(c, w, h / 2, number)
    with saved(c):
        c.translate(w, h)
        c.rotate(180)
        _standee_panel(c, w, h / 2, number)
    _fold_line(c, 0, h / 2, w, h / 2)


def _fold_line(c: Canvas, x0: float, y0: float, x1: float, y1: float) -> None:
    """A dashed line where a face is folded."""
    with saved(c):
        c.setStrokeColor(colour(INK))
        c.setLineWidth(0.5)
        c.setDash(2, 2)
        c.line(x0, y0, x1, y1)


def _standee_panel(c: Canvas, w: float, h: float, number: int) -> None:
    """One panel, upright, occupying (0, 0)-(w, h) with its base at y = 0."""
    _, bold = fonts()
    style = PIGEON_STYLES[number]
    r = min(w, h) * 0.36
    cx, cy = w / 2, h * 0.62
    c.setFillColor(white)
    c.setStrokeColor(colour(INK))
    c.setLineWidth(0.8)
    c.circle(cx, cy, r, stroke=1, fill=1)
    _silhouette(c, cx, cy + r * 0.05, r * 0.95, tint(style.fill, 0.55))
    c.setFillColor(colour(INK))
    size = r * 1.25
    c.setFont(bold, size)
    c.drawCentredString(cx, cy - size * 0.36, str(number))
    c.setFillColor(white)
    c.setStrokeColor(colour(INK))
    c.roundRect(w * 0.12, h * 0.14, w * 0.76, h * 0.16, h * 0.04, stroke=1, fill=1)
    c.setFillColor(colour(INK))
    label = style.name.upper()
    c.setFont(bold, h * 0.1)
    c.drawCentredString(w / 2, h * 0.185, label)


def _silhouette(c: Canvas, cx: float, cy: float, r: float, fill: Color) -> None:
    """A simple pigeon shape behind the number: body, head, beak and tail."""
    with saved(c):
        c.setFillColor(fill)
        c.setStrokeColor(fill)
        c.ellipse(cx - r * 0.62, cy - r * 0.42, cx + r * 0.42, cy + r * 0.18, stroke=0, fill=1)
        c.circle(cx + r * 0.45, cy + r * 0.35, r * 0.24, stroke=0, fill=1)
        beak = c.beginPath()
        beak.moveTo(cx + r * 0.66, cy + r * 0.4)
        beak.lineTo(cx + r * 0.86, cy + r * 0.3)
        beak.lineTo(cx + r * 0.64, cy + r * 0.26)
        beak.close()
        c.drawPath(beak, stroke=0, fill=1)
        tail = c.beginPath()
        tail.moveTo(cx - r * 0.5, cy - r * 0.05)
        tail.lineTo(cx - r * 0.92, cy + r * 0.1)
        tail.lineTo(cx - r * 0.86, cy - r * 0.3)
        tail.close()
        c.drawPath(tail, stroke=0, fill=1)


DRAWERS: dict[str, Drawer] = {
    "board": board,
    "pigeon": pigeon,
}

"""Print-and-play faces for Go-Stop: the 48 player cards, their shared back and the player
tokens. The reserve and additional point cards and the scoring reference card are layouts
(sources/go-stop/layouts/): their words are the rulebook's Quick reference, their marks the
engine's scoring.

Each drawer draws one face in its own coordinates (origin at the trim's bottom-left) and scales
everything from the face size it is given, so hwatu-size and poker-size cards both work.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from reportlab.lib.colors import Color, white
from reportlab.pdfgen.canvas import Canvas

from rulepress.games.go_stop.cards import CARD_SUBJECTS, CARDS, DECK_TABLE, MONTH_NAMES, value_of
from rulepress.games.go_stop.style import CLASS_STYLE, INK, MONTH_COLOURS, PAPER, PLAYER_STYLES
from rulepress.plugin import Drawer, Face, colour, fill_bleed, fit_text, fonts, saved, shade, tint

# --- the twelve plants ------------------------------------------------------------------------


def _leaf(c: Canvas, x: float, y: float, length: float, width: float, angle: float) -> None:
    """A pointed leaf from (x, y) along ``angle`` degrees (fill colour already set)."""
    with saved(c):
        c.translate(x, y)
        c.rotate(angle)
        p = c.beginPath()
        p.moveTo(0, 0)
        p.curveTo(length * 0.3, width, length * 0.7, width, length, 0)
        p.curveTo(length * 0.7, -width, length * 0.3, -width, 0, 0)
        c.drawPath(p, stroke=0, fill=1)


def _blossom(
    c: Canvas,
    x: float,
    y: float,
    r: float,
    petal: Color,
    heart: Color,
    n: int = 5,
    turn: float = 90,
) -> None:
    c.setFillColor(petal)
    for i in range(n):
        a = math.radians(turn + i * 360 / n)
        c.circle(x + r * 0.55 * math.cos(a), y + r * 0.55 * math.sin(a), r * 0.5, stroke=0, fill=1)
    c.setFillColor(heart)
    c.circle(x, y, r * 0.28, stroke=0, fill=1)


def _branch(c: Canvas, pts: list[tuple[float, float]], width: float, ink: Color) -> None:
    c.setStrokeColor(ink)
    c.setLineWidth(width)
    c.setLineCap(1)
    p = c.beginPath()
    p.moveTo(*pts[0])
    for q in pts[1:]:
        p.lineTo(*q)
    c.drawPath(p, stroke=1, fill=0)


def _pine(c: Canvas, x: float, y: float, w: float, h: float, main: str, acc: str) -> None:
    _branch(c, [(x + w * 0.5, y), (x + w * 0.48, y + h * 0.55)], w * 0.07, colour("#6b4a2b"))
    c.setFillColor(colour(main))
    for i, (cy, half) in enumerate(((0.35, 0.42), (0.55, 0.34), (0.74, 0.24))):
        p = c.beginPath()
        p.moveTo(x + w * (0.5 - half), y + h * cy)
        p.lineTo(x + w * (0.5 + half), y + h * cy)
        p.lineTo(x + w * 0.5, y + h * (cy + 0.2 - 0.02 * i))
        p.close()
        c.drawPath(p, stroke=0, fill=1)


def _plum(c: Canvas, x: float, y: float, w: float, h: float, main: str, acc: str) -> None:
    _branch(
        c,
        [(x, y + h * 0.2), (x + w * 0.4, y + h * 0.45), (x + w * 0.55, y + h * 0.8)],
        w * 0.05,
        colour("#4a3426"),
    )
    _branch(c, [(x + w * 0.4, y + h * 0.45), (x + w, y + h * 0.55)], w * 0.035, colour("#4a3426"))
    for fx, fy in ((0.25, 0.33), (0.5, 0.62), (0.75, 0.52), (0.58, 0.85), (0.92, 0.6)):
        _blossom(c, x + w * fx, y + h * fy, w * 0.11, colour(acc), colour(main))


def _cherry(c: Canvas, x: float, y: float, w: float, h: float, main: str, acc: str) -> None:
    _branch(
        c,
        [(x + w, y + h * 0.9), (x + w * 0.55, y + h * 0.62), (x + w * 0.1, y + h * 0.7)],
        w * 0.045,
        colour("#5b3a2e"),
    )
    for fx, fy, r in (
        (0.3, 0.55, 0.13),
        (0.55, 0.4, 0.15),
        (0.78, 0.6, 0.12),
        (0.2, 0.28, 0.11),
        (0.7, 0.2, 0.12),
    ):
        _blossom(c, x + w * fx, y + h * fy, w * r, colour(acc), colour(main), turn=72)


def _wisteria(c: Canvas, x: float, y: float, w: float, h: float, main: str, acc: str) -> None:
    _branch(c, [(x, y + h * 0.95), (x + w, y + h * 0.9)], w * 0.04, colour("#5b4636"))
    for fx, length in ((0.2, 0.75), (0.45, 0.9), (0.7, 0.7), (0.9, 0.55)):
        n = 7
        for i in range(n):
            r = w * 0.075 * (1 - i / (n * 1.6))
            c.setFillColor(colour(main) if i % 2 else colour(acc))
            c.circle(
                x + w * fx + (w * 0.03 if i % 2 else -w * 0.03),
                y + h * 0.88 - i * h * length / n,
                r,
                stroke=0,
                fill=1,
            )


def _iris(c: Canvas, x: float, y: float, w: float, h: float, main: str, acc: str) -> None:
    c.setFillColor(colour("#3f7a3a"))
    for fx, ang, ln in ((0.25, 80, 0.8), (0.45, 95, 0.9), (0.65, 85, 0.75), (0.8, 100, 0.6)):
        _leaf(c, x + w * fx, y, h * ln, w * 0.06, ang)
    for fx, fy in ((0.35, 0.75), (0.7, 0.6)):
        cx, cy = x + w * fx, y + h * fy
        c.setFillColor(colour(main))
        for a in (90, 210, 330):
            _leaf(c, cx, cy, w * 0.2, w * 0.08, a)
        c.setFillColor(colour(acc))
        for a in (30, 150, 270):
            _leaf(c, cx, cy, w * 0.14, w * 0.05, a)


def _peony(c: Canvas, x: float, y: float, w: float, h: float, main: str, acc: str) -> None:
    c.setFillColor(colour("#3f7a3a"))
    for ang in (200, 250, 300, 340):
        _leaf(c, x + w * 0.5, y + h * 0.45, w * 0.42, w * 0.09, ang)
    cx, cy = x + w * 0.5, y + h * 0.55
    for r, hue in ((0.36, main), (0.27, acc), (0.18, main), (0.09, acc)):
        c.setFillColor(colour(hue))
        n = 9
        for i in range(n):
            a = math.radians(i * 360 / n + r * 100)
            c.circle(
                cx + w * r * 0.55 * math.cos(a),
                cy + w * r * 0.55 * math.sin(a),
                w * r * 0.5,
                stroke=0,
                fill=1,
            )


def _clover(c: Canvas, x: float, y: float, w: float, h: float, main: str, acc: str) -> None:
    for i, (sx, ex, ey) in enumerate(((0.1, 0.9, 0.85), (0.3, 1.0, 0.55), (0.0, 0.6, 0.95))):
        p = c.beginPath()
        p.moveTo(x + w * sx, y)
        p.curveTo(
            x + w * sx, y + h * ey * 0.7, x + w * (ex - 0.2), y + h * ey, x + w * ex, y + h * ey
        )
        c.setStrokeColor(colour("#6b5a3a"))
        c.setLineWidth(w * 0.025)
        c.drawPath(p, stroke=1, fill=0)
        for k in range(1, 8):
            t = k / 8
            px = (1 - t) ** 3 * sx + 3 * (1 - t) ** 2 * t * sx + 3 * (1 - t) * t * t * (ex - 0.2)
            px += t**3 * ex
            py = 3 * (1 - t) ** 2 * t * ey * 0.7 + 3 * (1 - t) * t * t * ey + t**3 * ey
            c.setFillColor(colour(main) if (k + i) % 2 else colour(acc))
            c.circle(x + w * px + w * 0.04, y + h * py, w * 0.045, stroke=0, fill=1)
            c.setFillColor(colour("#5e8a3a"))
            c.circle(x + w * px - w * 0.04, y + h * py - w * 0.02, w * 0.03, stroke=0, fill=1)


def _pampas(c: Canvas, x: float, y: float, w: float, h: float, main: str, acc: str) -> None:
    c.setFillColor(colour(acc))
    c.circle(x + w * 0.62, y + h * 0.72, w * 0.26, stroke=0, fill=1)
    p = c.beginPath()
    p.moveTo(x - w * 0.1, y)
    p.curveTo(x + w * 0.2, y + h * 0.55, x + w * 0.8, y + h * 0.5, x + w * 1.1, y + h * 0.3)
    p.lineTo(x + w * 1.1, y)
    p.close()
    c.setFillColor(colour(main))
    c.drawPath(p, stroke=0, fill=1)
    c.setStrokeColor(shade(main, 0.35))
    c.setLineWidth(w * 0.018)
    for i in range(9):
        bx = x + w * (0.05 + i * 0.11)
        c.line(bx, y + h * 0.25, bx + w * 0.05, y + h * (0.38 + 0.04 * (i % 3)))


def _chrysanthemum(c: Canvas, x: float, y: float, w: float, h: float, main: str, acc: str) -> None:
    c.setFillColor(colour("#3f7a3a"))
    _leaf(c, x + w * 0.5, y, h * 0.45, w * 0.07, 100)
    _leaf(c, x + w * 0.5, y + h * 0.15, w * 0.35, w * 0.1, 20)
    _leaf(c, x + w * 0.5, y + h * 0.2, w * 0.35, w * 0.1, 160)
    cx, cy = x + w * 0.5, y + h * 0.6
    for r, hue, n in ((0.36, main, 16), (0.24, acc, 12)):
        c.setFillColor(colour(hue))
        for i in range(n):
            _leaf(c, cx, cy, w * r, w * 0.05, i * 360 / n)
    c.setFillColor(shade(main, 0.3))
    c.circle(cx, cy, w * 0.07, stroke=0, fill=1)


def _maple_leaf(c: Canvas, cx: float, cy: float, r: float, angle: float) -> None:
    with saved(c):
        c.translate(cx, cy)
        c.rotate(angle)
        p = c.beginPath()
        pts = []
        for i in range(10):
            a = math.radians(90 + i * 36)
            rad = r if i % 2 == 0 else r * 0.45
            pts.append((rad * math.cos(a), rad * math.sin(a)))
        p.moveTo(*pts[0])
        for q in pts[1:]:
            p.lineTo(*q)
        p.close()
        c.drawPath(p, stroke=0, fill=1)


def _maple(c: Canvas, x: float, y: float, w: float, h: float, main: str, acc: str) -> None:
    _branch(
        c,
        [(x, y + h * 0.85), (x + w * 0.5, y + h * 0.7), (x + w, y + h * 0.8)],
        w * 0.03,
        colour("#5b3a2e"),
    )
    for i, (fx, fy, r) in enumerate(
        (
            (0.25, 0.55, 0.17),
            (0.65, 0.45, 0.2),
            (0.4, 0.22, 0.15),
            (0.85, 0.7, 0.13),
            (0.15, 0.82, 0.12),
        )
    ):
        c.setFillColor(colour(main) if i % 2 == 0 else colour(acc))
        _maple_leaf(c, x + w * fx, y + h * fy, w * r, i * 23)


def _paulownia(c: Canvas, x: float, y: float, w: float, h: float, main: str, acc: str) -> None:
    c.setFillColor(colour(main))
    for cx, cy, r in ((0.3, 0.3, 0.28), (0.72, 0.35, 0.25)):
        for dx in (-0.5, 0.0, 0.5):
            c.circle(
                x + w * (cx + dx * r * 0.8),
                y + h * cy + w * r * (0.3 - abs(dx) * 0.4),
                w * r * 0.55,
                stroke=0,
                fill=1,
            )
    stem = [(x + w * 0.5, y + h * 0.45), (x + w * 0.5, y + h * 0.95)]
    _branch(c, stem, w * 0.03, colour("#5b4636"))
    c.setFillColor(colour(acc))
    for i in range(6):
        c.circle(
            x + w * (0.5 + (0.06 if i % 2 else -0.06)),
            y + h * (0.55 + i * 0.07),
            w * 0.055,
            stroke=0,
            fill=1,
        )


def _willow(c: Canvas, x: float, y: float, w: float, h: float, main: str, acc: str) -> None:
    c.setStrokeColor(colour(acc))
    c.setLineWidth(w * 0.012)
    for i in range(7):
        rx = x + w * (0.05 + i * 0.15)
        c.line(rx, y + h * 0.9, rx - w * 0.12, y + h * 0.05)
    c.setStrokeColor(colour(main))
    c.setLineWidth(w * 0.025)
    for i in range(5):
        sx = x + w * (0.15 + i * 0.18)
        p = c.beginPath()
        p.moveTo(sx, y + h)
        p.curveTo(
            sx + w * 0.1,
            y + h * 0.7,
            sx - w * 0.05,
            y + h * 0.4,
            sx + w * 0.02,
            y + h * (0.15 + 0.05 * (i % 2)),
        )
        c.drawPath(p, stroke=1, fill=0)
        c.setFillColor(colour(main))
        for k in range(4):
            _leaf(
                c,
                sx + w * 0.03,
                y + h * (0.8 - k * 0.17),
                w * 0.1,
                w * 0.025,
                -60 if k % 2 else -120,
            )


PLANTS: tuple[Callable[[Canvas, float, float, float, float, str, str], None], ...] = (
    _pine,
    _plum,
    _cherry,
    _wisteria,
    _iris,
    _peony,
    _clover,
    _pampas,
    _chrysanthemum,
    _maple,
    _paulownia,
    _willow,
)


# --- value emblems ----------------------------------------------------------------------------

RIBBON_COLOURS = {"C+": "#c0392b", "C": "#2e5fa8", "C-": "#4f8a3a", "C--": "#8a8275"}


def _emblem(c: Canvas, value: str, cx: float, cy: float, r: float) -> None:
    """The value's symbol: sun for brights, bird for animals, ribbon, double leaf for D+."""
    band = CLASS_STYLE[value[0]][0]
    c.setStrokeColor(colour(INK))
    c.setLineWidth(r * 0.08)
    if value == "A":
        c.setFillColor(colour(band))
        for i in range(12):
            a = math.radians(i * 30)
            c.line(
                cx + r * 0.62 * math.cos(a),
                cy + r * 0.62 * math.sin(a),
                cx + r * math.cos(a),
                cy + r * math.sin(a),
            )
        c.circle(cx, cy, r * 0.55, stroke=1, fill=1)
    elif value in ("B", "B+"):
        c.setFillColor(white)
        c.circle(cx, cy, r, stroke=1, fill=1)
        c.setFillColor(colour(band))
        p = c.beginPath()  # a simple bird: body, head, tail, wing
        p.moveTo(cx - r * 0.75, cy + r * 0.1)
        p.curveTo(
            cx - r * 0.3, cy - r * 0.55, cx + r * 0.4, cy - r * 0.45, cx + r * 0.55, cy + r * 0.15
        )
        p.lineTo(cx + r * 0.85, cy + r * 0.05)
        p.lineTo(cx + r * 0.55, cy + r * 0.35)
        p.curveTo(
            cx + r * 0.2, cy + r * 0.55, cx - r * 0.3, cy + r * 0.1, cx - r * 0.75, cy + r * 0.1
        )
        c.drawPath(p, stroke=0, fill=1)
        c.setFillColor(white)
        c.circle(cx + r * 0.5, cy + r * 0.25, r * 0.06, stroke=0, fill=1)
        if value == "B+":
            c.setFillColor(colour(CLASS_STYLE["A"][0]))
            _star(c, cx - r * 0.35, cy + r * 0.5, r * 0.32)
    elif value.startswith("C"):
        c.setFillColor(colour(RIBBON_COLOURS[value]))
        wid = r * 0.7
        p = c.beginPath()
        p.moveTo(cx - wid / 2, cy + r)
        p.lineTo(cx + wid / 2, cy + r)
        p.lineTo(cx + wid / 2, cy - r)
        p.lineTo(cx, cy - r * 0.7)
        p.lineTo(cx - wid / 2, cy - r)
        p.close()
        c.drawPath(p, stroke=1, fill=1)
        c.setFillColor(white)
        c.setStrokeColor(white)
        # Marks on the ribbon: + poetry lines, plain, - one bar, -- two bars.
        if value == "C+":
            for k in range(3):
                c.rect(
                    cx - wid * 0.08,
                    cy + r * (0.55 - k * 0.35),
                    wid * 0.16,
                    r * 0.22,
                    stroke=0,
                    fill=1,
                )
        elif value == "C-":
            c.rect(cx - wid * 0.35, cy - r * 0.05, wid * 0.7, r * 0.12, stroke=0, fill=1)
        elif value == "C--":
            for k in (-1, 1):
                c.rect(
                    cx - wid * 0.35,
                    cy + k * r * 0.15 - r * 0.05,
                    wid * 0.7,
                    r * 0.1,
                    stroke=0,
                    fill=1,
                )
    elif value == "D+":
        c.setFillColor(colour(band))
        c.circle(cx - r * 0.3, cy, r * 0.55, stroke=1, fill=1)
        c.circle(cx + r * 0.3, cy, r * 0.55, stroke=1, fill=1)
        _, bold = fonts()
        c.setFillColor(colour(INK))
        c.setFont(bold, r * 0.7)
        c.drawCentredString(cx + r * 0.3, cy - r * 0.24, "2")


def _star(c: Canvas, cx: float, cy: float, r: float) -> None:
    p = c.beginPath()
    for i in range(10):
        a = math.radians(90 + i * 36)
        rad = r if i % 2 == 0 else r * 0.42
        (p.moveTo if i == 0 else p.lineTo)(cx + rad * math.cos(a), cy + rad * math.sin(a))
    p.close()
    c.drawPath(p, stroke=0, fill=1)


# --- faces ------------------------------------------------------------------------------------


def _hwatu_unit(face: Face) -> float:
    """The drawing unit of a card face: 1 at hwatu size (33 x 54 mm), larger on bigger cards."""
    return min(face.width / 93.5, face.height / 153)


def player_card(c: Canvas, face: Face) -> None:
    card = face.index % CARDS
    month = card // 4 + 1
    value = value_of(card)
    mark = DECK_TABLE[card // 4][card % 4]
    shown = "D" if mark in ("Da", "Db") else mark
    band, band_ink, word = CLASS_STYLE[value[0]]
    main, acc = MONTH_COLOURS[month - 1]
    regular, bold = fonts()
    w, h, b, s = face.width, face.height, face.bleed, face.safe
    u = _hwatu_unit(face)
    with saved(c):
        fill_bleed(c, face, colour(PAPER))
        # Value band at the foot, into the bleed.
        band_h = s + 20 * u
        c.setFillColor(colour(band))
        c.rect(-b, -b, w + 2 * b, band_h + b, stroke=0, fill=1)
        c.setFillColor(colour(band_ink))
        size = fit_text(c, word.upper(), bold, 9.5 * u, w - 2 * s - 20 * u)
        c.setFont(bold, size)
        c.drawString(s, s + 10 * u, word.upper())
        c.setFont(bold, 12 * u)
        c.drawRightString(w - s, s + 10 * u, shown)
        subject = CARD_SUBJECTS[month - 1][card % 4]
        c.setFont(regular, fit_text(c, subject, regular, 6.5 * u, w - 2 * s))
        c.drawString(s, s + 2 * u, subject)
        # The plant in a framed panel.
        px, py, pw, ph = s * 0.7, band_h + 4 * u, w - 1.4 * s, h * 0.53
        c.setFillColor(tint(main, 0.86))
        c.setStrokeColor(shade(main, 0.2))
        c.setLineWidth(0.8 * u)
        c.roundRect(px, py, pw, ph, 4 * u, stroke=1, fill=1)
        with saved(c):
            p = c.beginPath()
            p.roundRect(px, py, pw, ph, 4 * u)
            c.clipPath(p, stroke=0, fill=0)
            PLANTS[month - 1](c, px + 2 * u, py + 2 * u, pw - 4 * u, ph - 4 * u, main, acc)
        if value != "D":
            r = min(pw, ph) * 0.2
            _emblem(c, value, px + pw - r - 3 * u, py + r + 3 * u, r)
        # The number, big, top left; the value mark top right on its band colour.
        top = h - s
        c.setFillColor(colour(INK))
        c.setFont(bold, 26 * u)
        c.drawString(s, top - 19 * u, str(month))
        mw = max(c.stringWidth(shown, bold, 13 * u) + 6 * u, 16 * u)
        c.setFillColor(colour(band))
        c.setStrokeColor(colour(INK))
        c.setLineWidth(0.6 * u)
        c.roundRect(w - s - mw, top - 17 * u, mw, 16 * u, 3 * u, stroke=1, fill=1)
        c.setFillColor(colour(band_ink))
        c.setFont(bold, 13 * u)
        c.drawCentredString(w - s - mw / 2, top - 12.5 * u, shown)
        c.setFillColor(shade(main, 0.1))
        c.setFont(regular, fit_text(c, MONTH_NAMES[month - 1], regular, 6.5 * u, w - 2 * s))
        c.drawString(s, top - 27 * u, MONTH_NAMES[month - 1])


def card_back(c: Canvas, face: Face) -> None:
    w, h = face.width, face.height
    u = _hwatu_unit(face)
    _, bold = fonts()
    with saved(c):
        fill_bleed(c, face, colour("#8e1f2a"))
        c.setStrokeColor(colour("#a8323d"))
        c.setLineWidth(1.2 * u)
        step = 9 * u
        d = -h - face.bleed
        while d < w + face.bleed:
            c.line(d, -face.bleed, d + h + 2 * face.bleed, h + face.bleed)
            c.line(d, h + face.bleed, d + h + 2 * face.bleed, -face.bleed)
            d += step
        c.setFillColor(colour("#f3e6c8"))
        c.setStrokeColor(colour("#e3b21b"))
        c.setLineWidth(1.5 * u)
        c.circle(w / 2, h / 2, w * 0.32, stroke=1, fill=1)
        c.setFillColor(colour("#8e1f2a"))
        c.setFont(bold, 14 * u)
        c.drawCentredString(w / 2, h / 2 + 1 * u, "GO")
        c.setFont(bold, 9 * u)
        c.drawCentredString(w / 2, h / 2 - 10 * u, "STOP")


def player_token(c: Canvas, face: Face) -> None:
    player = face.index % len(PLAYER_STYLES)
    hue, shape = PLAYER_STYLES[player]
    w, h = face.width, face.height
    r = min(w, h) * 0.42
    cx, cy = w / 2, h / 2
    _, bold = fonts()
    with saved(c):
        fill_bleed(c, face, tint(hue, 0.82))
        c.setFillColor(colour(hue))
        c.setStrokeColor(colour(INK))
        c.setLineWidth(r * 0.06)
        if shape == "circle":
            c.circle(cx, cy, r, stroke=1, fill=1)
            ty = cy - r * 0.35
        elif shape == "square":
            c.rect(cx - r * 0.9, cy - r * 0.9, r * 1.8, r * 1.8, stroke=1, fill=1)
            ty = cy - r * 0.35
        else:
            p = c.beginPath()
            p.moveTo(cx, cy + r * 1.05)
            p.lineTo(cx + r * 1.05, cy - r * 0.8)
            p.lineTo(cx - r * 1.05, cy - r * 0.8)
            p.close()
            c.drawPath(p, stroke=1, fill=1)
            ty = cy - r * 0.6
        c.setFillColor(white)
        c.setStrokeColor(colour(INK))
        c.setFont(bold, r * 1.05)
        c.drawCentredString(cx, ty, str(player + 1))


DRAWERS: dict[str, Drawer] = {
    "player_card": player_card,
    "card_back": card_back,
    "player_token": player_token,
}

"""Suit symbols as geometry, shared by the SVG diagrams and the printed cards.

Shapes live in a unit box centred on the origin, y pointing up, about 1 unit tall. Red suits are
drawn hollow (outlined) and black suits solid, so the two colours differ in greyscale print too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rulepress.games.cards import is_red

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

Point = tuple[float, float]  # paths below: (op, points), op M move, L line, C cubic, Z close

RED = "#c62828"
BLACK = "#111111"

_HEART: Sequence[tuple[str, tuple[Point, ...]]] = (
    ("M", ((0.0, -0.46),)),
    ("C", ((-0.14, -0.3), (-0.5, -0.06), (-0.5, 0.18))),
    ("C", ((-0.5, 0.38), (-0.36, 0.48), (-0.24, 0.48))),
    ("C", ((-0.12, 0.48), (-0.03, 0.4), (0.0, 0.3))),
    ("C", ((0.03, 0.4), (0.12, 0.48), (0.24, 0.48))),
    ("C", ((0.36, 0.48), (0.5, 0.38), (0.5, 0.18))),
    ("C", ((0.5, -0.06), (0.14, -0.3), (0.0, -0.46))),
    ("Z", ()),
)
_DIAMOND: Sequence[tuple[str, tuple[Point, ...]]] = (
    ("M", ((0.0, 0.5),)),
    ("L", ((0.36, 0.0),)),
    ("L", ((0.0, -0.5),)),
    ("L", ((-0.36, 0.0),)),
    ("Z", ()),
)
_SPADE: Sequence[tuple[str, tuple[Point, ...]]] = (
    ("M", ((0.0, 0.5),)),
    ("C", ((-0.12, 0.34), (-0.48, 0.14), (-0.48, -0.1))),
    ("C", ((-0.48, -0.28), (-0.35, -0.36), (-0.23, -0.36))),
    ("C", ((-0.12, -0.36), (-0.05, -0.3), (-0.03, -0.24))),
    ("L", ((-0.12, -0.5),)),
    ("L", ((0.12, -0.5),)),
    ("L", ((0.03, -0.24),)),
    ("C", ((0.05, -0.3), (0.12, -0.36), (0.23, -0.36))),
    ("C", ((0.35, -0.36), (0.48, -0.28), (0.48, -0.1))),
    ("C", ((0.48, 0.14), (0.12, 0.34), (0.0, 0.5))),
    ("Z", ()),
)
_CLUB_STEM: Sequence[tuple[str, tuple[Point, ...]]] = (
    ("M", ((0.0, 0.05),)),
    ("L", ((-0.13, -0.5),)),
    ("L", ((0.13, -0.5),)),
    ("Z", ()),
)
_CLUB_LEAVES: tuple[tuple[float, float, float], ...] = (
    (0.0, 0.24, 0.22),
    (-0.24, -0.1, 0.22),
    (0.24, -0.1, 0.22),
    (0.0, 0.02, 0.12),
)

PATHS = {"H": _HEART, "D": _DIAMOND, "S": _SPADE, "C": _CLUB_STEM}
CIRCLES = {"C": _CLUB_LEAVES}


def svg(suit: str, cx: float, cy: float, size: float) -> str:
    """SVG elements for one symbol centred at (cx, cy), ``size`` px tall (SVG y points down)."""

    def pt(p: Point) -> str:
        return f"{cx + p[0] * size:.2f},{cy - p[1] * size:.2f}"

    parts = []
    for op, pts in PATHS[suit]:
        parts.append(op + " ".join(pt(p) for p in pts))
    d = " ".join(parts)
    if is_red(suit):
        stroke = max(size * 0.09, 1.0)
        return (
            f'<path d="{d}" fill="#ffffff" stroke="{RED}" stroke-width="{stroke:.2f}" '
            'stroke-linejoin="round"/>'
        )
    out = [f'<path d="{d}" fill="{BLACK}"/>']
    for x, y, r in CIRCLES.get(suit, ()):
        out.append(
            f'<circle cx="{cx + x * size:.2f}" cy="{cy - y * size:.2f}" r="{r * size:.2f}" '
            f'fill="{BLACK}"/>'
        )
    return "".join(out)


def draw(canvas: Canvas, suit: str, cx: float, cy: float, size: float, flip: bool = False) -> None:
    """The same symbol on a ReportLab canvas (PDF y points up); ``flip`` turns it upside down."""
    from reportlab.lib.colors import HexColor, white

    sy = -size if flip else size
    path = canvas.beginPath()
    for op, pts in PATHS[suit]:
        xy = [(cx + x * size, cy + y * sy) for x, y in pts]
        if op == "M":
            path.moveTo(*xy[0])
        elif op == "L":
            path.lineTo(*xy[0])
        elif op == "C":
            path.curveTo(*xy[0], *xy[1], *xy[2])
        else:
            path.close()
    canvas.saveState()
    if is_red(suit):
        canvas.setFillColor(white)
        canvas.setStrokeColor(HexColor(RED))
        canvas.setLineWidth(max(size * 0.1, 0.6))
        canvas.setLineJoin(1)
        canvas.drawPath(path, stroke=1, fill=1)
    else:
        canvas.setFillColor(HexColor(BLACK))
        canvas.drawPath(path, stroke=0, fill=1)
        for x, y, r in CIRCLES.get(suit, ()):
            canvas.circle(cx + x * size, cy + y * sy, r * size, stroke=0, fill=1)
    canvas.restoreState()

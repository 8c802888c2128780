"""Shapes as geometry, shared by the SVG diagrams and the printed kit: the four suit symbols
and the Pigeon.

Suit symbols live in a unit box centred on the origin, y pointing up, about 1 unit tall. Red
suits are drawn hollow (outlined) and black suits solid, so the two colours differ in greyscale
print too. The Pigeon lives in a 100-unit box, y pointing up, facing right.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rulepress.plugin import is_red

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.pdfgen.pathobject import PDFPathObject

Point = tuple[float, float]
Outline = Sequence[tuple[str, tuple[Point, ...]]]  # (op, points): M move, L line, C cubic, Z close

RED = "#c62828"
BLACK = "#111111"

_HEART: Outline = (
    ("M", ((0.0, -0.46),)),
    ("C", ((-0.14, -0.3), (-0.5, -0.06), (-0.5, 0.18))),
    ("C", ((-0.5, 0.38), (-0.36, 0.48), (-0.24, 0.48))),
    ("C", ((-0.12, 0.48), (-0.03, 0.4), (0.0, 0.3))),
    ("C", ((0.03, 0.4), (0.12, 0.48), (0.24, 0.48))),
    ("C", ((0.36, 0.48), (0.5, 0.38), (0.5, 0.18))),
    ("C", ((0.5, -0.06), (0.14, -0.3), (0.0, -0.46))),
    ("Z", ()),
)
_DIAMOND: Outline = (
    ("M", ((0.0, 0.5),)),
    ("L", ((0.36, 0.0),)),
    ("L", ((0.0, -0.5),)),
    ("L", ((-0.36, 0.0),)),
    ("Z", ()),
)
_SPADE: Outline = (
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
_CLUB_STEM: Outline = (
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

PIGEON_BODY: Outline = (
    ("M", ((4, 52),)),  # tail tip
    ("L", ((26, 50),)),
    ("C", ((34, 70), (58, 72), (68, 62))),  # back up to the neck
    ("C", ((70, 74), (74, 84), (82, 84))),  # neck to crown
    ("C", ((90, 84), (94, 78), (93, 72))),  # head
    ("L", ((100, 68),)),  # beak
    ("L", ((91, 67),)),
    ("C", ((88, 58), (86, 46), (80, 38))),  # breast
    ("C", ((70, 26), (50, 24), (36, 32))),  # belly
    ("L", ((4, 44),)),
    ("Z", ()),
)
PIGEON_WING: Outline = (
    ("M", ((30, 50),)),
    ("C", ((42, 64), (60, 64), (70, 54))),
    ("C", ((62, 44), (46, 40), (30, 50))),
    ("Z", ()),
)


KAPPA = 0.5523  # a quarter circle as one cubic: its control points lie this far along the tangents


def svg_circle(cx: float, cy: float, r: float, clockwise: bool = True) -> str:
    """SVG path data of a circle as four cubics (drawn cheaper than arcs), turning clockwise on
    the page or not."""
    k, q = KAPPA * r, (1 - KAPPA) * r
    flip = 1 if clockwise else -1
    quarters = ((0, k, -q, r, -r, r), (-k, 0, -r, -q, -r, -r), (0, -k, q, -r, r, -r),
                (k, 0, r, q, r, r))
    return f"M{cx + r:.2f},{cy:.2f} " + " ".join(
        "c" + " ".join(f"{dx:.2f},{dy * flip:.2f}" for dx, dy in zip(c[::2], c[1::2], strict=True))
        for c in quarters
    ) + " Z"


def svg_path(outline: Outline, at: Callable[[Point], Point]) -> str:
    """SVG path data of ``outline``, each point placed by ``at``."""
    return " ".join(
        op + " ".join(f"{x:.2f},{y:.2f}" for x, y in map(at, pts)) for op, pts in outline
    )


def _signed_area(points: Sequence[Point]) -> float:
    pairs = zip(points, [*points[1:], points[0]], strict=True)
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in pairs)


def svg(suit: str, cx: float, cy: float, size: float) -> str:
    """SVG path data for one symbol centred at (cx, cy), ``size`` px tall (SVG y points down).

    A club's leaves are circles turning the same way as its stem, so one path filled with the
    nonzero rule shows their union: every black symbol of a figure can share one element."""

    def at(p: Point) -> Point:
        return cx + p[0] * size, cy - p[1] * size

    outline = PATHS[suit]
    d = [svg_path(outline, at)]
    corners = [at(pts[-1]) for _, pts in outline if pts]
    clockwise = _signed_area(corners) > 0  # SVG's y points down: positive turns clockwise
    d += [svg_circle(cx + x * size, cy - y * size, r * size, clockwise)
          for x, y, r in CIRCLES.get(suit, ())]
    return " ".join(d)


def canvas_path(canvas: Canvas, outline: Outline, at: Callable[[Point], Point]) -> PDFPathObject:
    """``outline`` as a ReportLab path, each point placed by ``at``."""
    path = canvas.beginPath()
    for op, pts in outline:
        xy = [at(p) for p in pts]
        if op == "M":
            path.moveTo(*xy[0])
        elif op == "L":
            path.lineTo(*xy[0])
        elif op == "C":
            path.curveTo(*xy[0], *xy[1], *xy[2])
        else:
            path.close()
    return path


def draw(canvas: Canvas, suit: str, cx: float, cy: float, size: float, flip: bool = False) -> None:
    """The same symbol on a ReportLab canvas (PDF y points up); ``flip`` turns it upside down."""
    from reportlab.lib.colors import HexColor, white

    sy = -size if flip else size
    path = canvas_path(canvas, PATHS[suit], lambda p: (cx + p[0] * size, cy + p[1] * sy))
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

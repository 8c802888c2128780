"""Print-and-play drawers for a piecepack: tiles, dice nets and pawn standees. The coins are a
layout (sources/worm-derby/layouts/coin-*.yml), one per row of the engine's coin table.

Each drawer draws one face in its own coordinates (origin at the trim's bottom-left) and scales
to the size the source declares. Suits differ by symbol as well as colour, so a greyscale print
still works: Suns a rayed disc, Moons a crescent, Crowns a three-pointed crown, Arms a
fleur-de-lis.
"""

from __future__ import annotations

import math

from reportlab.lib.colors import Color, HexColor, white
from reportlab.pdfgen.canvas import Canvas

import rulepress.games.worm_derby.diagrams as diagrams
from rulepress.games.worm_derby.rules import SUITS
from rulepress.plugin import Drawer, Face, fill_bleed, fonts, saved

RANKS = ("null", "ace", "2", "3", "4", "5")
INK = HexColor("#2b2620")
PAPER = HexColor("#fbf6e9")
BACK = HexColor("#3c4a5c")
BACK_LINE = HexColor("#a9b7c9")
# The same suit colours as the rulebook's diagrams.
SUIT_COLOUR = {suit: HexColor(code) for suit, code in diagrams.SUIT_COLOUR.items()}
SUIT_TINT = {
    "suns": HexColor("#f6dcd8"),
    "moons": HexColor("#e3e1dd"),
    "crowns": HexColor("#d9ecd9"),
    "arms": HexColor("#d8e3f6"),
}


def piece(index: int) -> tuple[str, str]:
    """Copy index -> (suit, rank): six ranks per suit, suits in piecepack order."""
    return SUITS[(index // len(RANKS)) % len(SUITS)], RANKS[index % len(RANKS)]


# -- suit symbols: centred on (x, y), fitting a circle of radius r ------------------------------
def draw_suit(c: Canvas, suit: str, x: float, y: float, r: float, fill: Color) -> None:
    with saved(c):
        c.setFillColor(fill)
        c.setStrokeColor(fill)
        {"suns": _sun, "moons": _moon, "crowns": _crown, "arms": _arms}[suit](c, x, y, r)


def _sun(c: Canvas, x: float, y: float, r: float) -> None:
    c.circle(x, y, r * 0.5, stroke=0, fill=1)
    p = c.beginPath()
    for i in range(12):
        a = i * math.pi / 6
        w = math.pi / 24
        p.moveTo(x + r * 0.58 * math.cos(a - w), y + r * 0.58 * math.sin(a - w))
        p.lineTo(x + r * math.cos(a), y + r * math.sin(a))
        p.lineTo(x + r * 0.58 * math.cos(a + w), y + r * 0.58 * math.sin(a + w))
        p.close()
    c.drawPath(p, stroke=0, fill=1)


def _moon(c: Canvas, x: float, y: float, r: float) -> None:
    # a crescent: the outer arc, then the inner arc back (even-odd free: one closed outline)
    p = c.beginPath()
    p.arc(x - r * 0.9, y - r * 0.9, x + r * 0.9, y + r * 0.9, startAng=60, extent=240)
    p.arcTo(x - r * 0.45, y - r * 0.78, x + r * 1.1, y + r * 0.78, startAng=235, extent=-110)
    p.close()
    c.drawPath(p, stroke=0, fill=1)


def _crown(c: Canvas, x: float, y: float, r: float) -> None:
    p = c.beginPath()
    p.moveTo(x - r * 0.85, y - r * 0.55)
    p.lineTo(x - r * 0.95, y + r * 0.5)
    p.lineTo(x - r * 0.45, y + r * 0.05)
    p.lineTo(x, y + r * 0.8)
    p.lineTo(x + r * 0.45, y + r * 0.05)
    p.lineTo(x + r * 0.95, y + r * 0.5)
    p.lineTo(x + r * 0.85, y - r * 0.55)
    p.close()
    c.drawPath(p, stroke=0, fill=1)
    c.rect(x - r * 0.85, y - r * 0.8, r * 1.7, r * 0.18, stroke=0, fill=1)
    for dx, dy in ((-0.95, 0.5), (0.0, 0.8), (0.95, 0.5)):
        c.circle(x + r * dx, y + r * dy, r * 0.12, stroke=0, fill=1)


def _arms(c: Canvas, x: float, y: float, r: float) -> None:
    # a fleur-de-lis: a tall middle petal, two curling side petals and a band
    p = c.beginPath()
    p.moveTo(x, y + r)
    p.curveTo(x + r * 0.38, y + r * 0.55, x + r * 0.3, y + r * 0.1, x + r * 0.12, y - r * 0.1)
    p.lineTo(x - r * 0.12, y - r * 0.1)
    p.curveTo(x - r * 0.3, y + r * 0.1, x - r * 0.38, y + r * 0.55, x, y + r)
    p.close()
    for s in (-1, 1):
        p.moveTo(x + s * r * 0.12, y - r * 0.05)
        p.curveTo(x + s * r * 0.55, y + r * 0.05, x + s * r * 1.05, y + r * 0.2,
                  x + s * r * 0.85, y + r * 0.65)
        p.curveTo(x + s * r * 0.7, y + r * 0.35, x + s * r * 0.45, y + r * 0.2,
                  x + s * r * 0.12, y - r * 0.25)
        p.close()
    p.moveTo(x - r * 0.1, y - r * 0.3)
    p.lineTo(x - r * 0.25, y - r * 0.95)
    p.lineTo(x + r * 0.25, y - r * 0.95)
    p.lineTo(x + r * 0.1, y - r * 0.3)
    p.close()
    c.drawPath(p, stroke=0, fill=1)
    c.rect(x - r * 0.5, y - r * 0.38, r, r * 0.16, stroke=0, fill=1)


def draw_value(c: Canvas, rank: str, x: float, y: float, size: float, fill: Color) -> None:
    """A value as printed on tiles, coins and dice: blank null, an 'A' ace, numerals."""
    if rank == "null":
        return
    _, bold = fonts()
    with saved(c):
        c.setFillColor(fill)
        c.setFont(bold, size)
        c.drawCentredString(x, y - size * 0.35, "A" if rank == "ace" else rank)


# -- tiles ----------------------------------------------------------------------------------
def tile_face(c: Canvas, face: Face) -> None:
    suit, rank = piece(face.index)
    w, h = face.width, face.height
    with saved(c):
        fill_bleed(c, face, PAPER)
        colour = SUIT_COLOUR[suit]
        m = face.safe * 0.6
        c.setStrokeColor(colour)
        c.setLineWidth(1.2)
        c.roundRect(m, m, w - 2 * m, h - 2 * m, w * 0.06, stroke=1, fill=0)
        c.setLineWidth(0.4)
        c.setDash(2, 3)
        c.line(w / 2, m, w / 2, h - m)  # the 2x2 grid, faint: a tile is four coin cells
        c.line(m, h / 2, w - m, h / 2)
        c.setDash()
        if rank == "null":
            draw_suit(c, suit, w / 2, h / 2, w * 0.3, colour)
        else:
            c.setFillColor(PAPER)
            c.circle(w / 2, h / 2, w * 0.27, stroke=0, fill=1)
            draw_value(c, rank, w / 2, h / 2, w * 0.42, colour)
        corner = face.safe + w * 0.08
        draw_suit(c, suit, corner, h - corner, w * 0.08, colour)
        draw_suit(c, suit, w - corner, corner, w * 0.08, colour)


def tile_back(c: Canvas, face: Face) -> None:
    """The plain side, ruled into the 2x2 grid of coin cells the rules measure with."""
    w, h = face.width, face.height
    with saved(c):
        fill_bleed(c, face, BACK)
        c.setStrokeColor(BACK_LINE)
        c.setLineWidth(1.0)
        c.line(w / 2, 0, w / 2, h)
        c.line(0, h / 2, w, h / 2)
        c.setLineWidth(0.6)
        inset = w * 0.04
        c.rect(inset, inset, w - 2 * inset, h - 2 * inset, stroke=1, fill=0)


# -- dice: a cross-shaped net of six faces, 3 faces wide and 4 high --------------------------------
# (column, row) of each face from the bottom-left; opposite faces: ace/3, 2/null, 4/5
NET = {(1, 0): "3", (1, 1): "2", (1, 2): "ace", (1, 3): "null", (0, 2): "4", (2, 2): "5"}
TABS = (((1, 0), "left"), ((1, 0), "right"), ((1, 1), "left"), ((1, 1), "right"),
        ((1, 3), "left"), ((1, 3), "right"))


def die_net(c: Canvas, face: Face) -> None:
    suit = SUITS[face.index % len(SUITS)]
    s = min(face.width / 3, face.height / 4)
    colour = SUIT_COLOUR[suit]
    with saved(c):
        fill_bleed(c, face, white)
        for (col, row), side in TABS:  # glue tabs in the empty corners of the net
            x, y = col * s, row * s
            p = c.beginPath()
            k = s * 0.22
            if side == "left":
                p.moveTo(x, y)
                p.lineTo(x - k, y + k)
                p.lineTo(x - k, y + s - k)
                p.lineTo(x, y + s)
            elif side == "right":
                p.moveTo(x + s, y)
                p.lineTo(x + s + k, y + k)
                p.lineTo(x + s + k, y + s - k)
                p.lineTo(x + s, y + s)
            else:
                p.moveTo(x, y + s)
                p.lineTo(x + k, y + s + k)
                p.lineTo(x + s - k, y + s + k)
                p.lineTo(x + s, y + s)
            p.close()
            c.setFillColor(HexColor("#eeeeee"))
            c.setStrokeColor(INK)
            c.setLineWidth(0.4)
            c.drawPath(p, stroke=1, fill=1)
        for (col, row), rank in NET.items():
            x, y = col * s, row * s
            c.setFillColor(SUIT_TINT[suit])
            c.setStrokeColor(INK)
            c.setLineWidth(0.5)
            c.rect(x, y, s, s, stroke=1, fill=1)
            if rank == "null":
                draw_suit(c, suit, x + s / 2, y + s / 2, s * 0.12, colour)  # tells the suit
            else:
                draw_value(c, rank, x + s / 2, y + s / 2, s * 0.6, colour)
        c.setDash(1.5, 1.5)  # fold lines between faces
        c.setStrokeColor(HexColor("#888888"))
        c.setLineWidth(0.4)
        for row in (1, 2, 3):
            c.line(s, row * s, 2 * s, row * s)
        c.line(s, 2 * s, s, 3 * s)
        c.line(2 * s, 2 * s, 2 * s, 3 * s)


# -- pawns: a standee folded in the middle into a little tent --------------------------------------
def pawn(c: Canvas, face: Face) -> None:
    suit = SUITS[face.index % len(SUITS)]
    w, h = face.width, face.height
    colour = SUIT_COLOUR[suit]
    with saved(c):
        fill_bleed(c, face, colour)
        for flip in (False, True):  # the far half is upside down so both faces stand upright
            with saved(c):
                if flip:
                    c.translate(w, h)
                    c.rotate(180)
                half = h / 2
                c.setFillColor(white)
                cx = w / 2
                c.circle(cx, half * 0.78, w * 0.2, stroke=0, fill=1)  # head
                p = c.beginPath()  # body: a bell shape
                p.moveTo(cx - w * 0.34, half * 0.1)
                p.curveTo(cx - w * 0.3, half * 0.35, cx - w * 0.12, half * 0.5, cx - w * 0.1,
                          half * 0.66)
                p.lineTo(cx + w * 0.1, half * 0.66)
                p.curveTo(cx + w * 0.12, half * 0.5, cx + w * 0.3, half * 0.35, cx + w * 0.34,
                          half * 0.1)
                p.close()
                c.drawPath(p, stroke=0, fill=1)
                draw_suit(c, suit, cx, half * 0.3, w * 0.16, colour)
        c.setStrokeColor(white)
        c.setDash(2, 2)
        c.setLineWidth(0.5)
        c.line(0, h / 2, w, h / 2)  # fold here


DRAWERS: dict[str, Drawer] = {
    "tile_face": tile_face,
    "tile_back": tile_back,
    "die_net": die_net,
    "pawn": pawn,
}

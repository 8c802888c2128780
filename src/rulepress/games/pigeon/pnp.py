"""Print-and-play art for Pigeon: the 52 cards, their back and the round Pigeon token. The
reference card and the card-sized Pigeon token are layouts (sources/pigeon/layouts/): their
text is the rulebook's Quick reference.

Every drawer draws one face in its own coordinates (origin at the trim's bottom-left, points)
and fills the bleed. Red and black stay apart in greyscale: red suits are printed as hollow
outlines, black suits solid, on every pip and index.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reportlab.lib.colors import Color, HexColor, white

import rulepress.games.pigeon.suits as suits
from rulepress.games.pigeon.cards import DECK, Card
from rulepress.plugin import Drawer, fill_bleed, fonts, saved

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from rulepress.plugin import Face

PAPER = HexColor("#fffdf8")
INK = HexColor(suits.BLACK)  # black suits and everyday text
RED = HexColor(suits.RED)
NAVY = HexColor("#1f3a5f")
SLATE = HexColor("#5d7285")
PALE = HexColor("#e8eef4")


# --- the deck ---------------------------------------------------------------------------------


def _index(c: Canvas, card: Card, x: float, top: float) -> None:
    """A corner index: the rank large and bold, the suit symbol under it."""
    _, bold = fonts()
    colour = RED if card.red else INK
    size = 26
    c.setFillColor(colour)
    c.setFont(bold, size)
    name = card.rank_name
    width = c.stringWidth(name, bold, size)
    centre = x + max(width, 15) / 2
    c.drawCentredString(centre, top - size * 0.78, name)
    suits.draw(c, card.suit, centre, top - size * 0.78 - 11, 14)


def _court(c: Canvas, card: Card, w: float, h: float) -> None:
    """J, Q, K: a framed panel with the letter and the suit (no figure art to print badly)."""
    _, bold = fonts()
    colour = RED if card.red else INK
    pw, ph = w * 0.52, h * 0.5
    x, y = (w - pw) / 2, (h - ph) / 2
    c.setStrokeColor(colour)
    c.setLineWidth(1.4)
    c.setFillColor(PAPER)
    c.roundRect(x, y, pw, ph, 6, stroke=1, fill=1)
    c.setFillColor(colour)
    c.setFont(bold, 54)
    c.drawCentredString(w / 2, h / 2 + 2, card.rank_name)
    suits.draw(c, card.suit, w / 2, y + ph * 0.2, 22)
    word = {11: "JACK", 12: "QUEEN", 13: "KING"}[card.rank]
    c.setFont(bold, 8)
    c.drawCentredString(w / 2, y + ph - 12, word)


# Pip positions for 2-10 as (column, row): columns -1 left, 0 middle, 1 right; rows 0 (top)
# to 1 (bottom). The usual layouts, so a card reads at a glance like a bought deck.
_SIDES = ((-1, 0.0), (1, 0.0), (-1, 1.0), (1, 1.0))
_THIRDS = tuple((x, y) for y in (0.0, 1 / 3, 2 / 3, 1.0) for x in (-1, 1))
PIP_LAYOUT: dict[int, tuple[tuple[int, float], ...]] = {
    2: ((0, 0.0), (0, 1.0)),
    3: ((0, 0.0), (0, 0.5), (0, 1.0)),
    4: _SIDES,
    5: (*_SIDES, (0, 0.5)),
    6: (*_SIDES, (-1, 0.5), (1, 0.5)),
    7: (*_SIDES, (-1, 0.5), (1, 0.5), (0, 0.25)),
    8: (*_SIDES, (-1, 0.5), (1, 0.5), (0, 0.25), (0, 0.75)),
    9: (*_THIRDS, (0, 0.5)),
    10: (*_THIRDS, (0, 1 / 6), (0, 5 / 6)),
}


def _pips(c: Canvas, card: Card, w: float, h: float) -> None:
    """The Ace: one large symbol; 2-10: the usual pip layout, lower half upside down."""
    if card.rank == 1:
        suits.draw(c, card.suit, w / 2, h / 2, 64)
        return
    top, bottom = h * 0.78, h * 0.22
    for col, row in PIP_LAYOUT[card.rank]:
        y = top - row * (top - bottom)
        suits.draw(c, card.suit, w / 2 + col * w * 0.2, y, 24, flip=row > 0.5)


def card_front(c: Canvas, face: Face) -> None:
    card = DECK[face.index % len(DECK)]
    w, h = face.width, face.height
    with saved(c):
        fill_bleed(c, face, PAPER)
        s = face.safe
        c.setStrokeColor(HexColor("#b8b8b8"))
        c.setLineWidth(0.6)
        c.roundRect(s - 3, s - 3, w - 2 * s + 6, h - 2 * s + 6, 7, stroke=1, fill=0)
        _index(c, card, s + 1, h - s)
        with saved(c):
            c.translate(w, h)
            c.rotate(180)
            _index(c, card, s + 1, h - s)
        if card.rank >= 11:
            _court(c, card, w, h)
        else:
            _pips(c, card, w, h)


def card_back(c: Canvas, face: Face) -> None:
    """The shared back (the kit draws it once into a form and places that behind each card)."""
    _, bold = fonts()
    w, h = face.width, face.height
    with saved(c):
        fill_bleed(c, face, NAVY)
        # A lattice of diamonds over the whole bleed: trimming off-centre never shows an edge.
        c.setStrokeColor(SLATE)
        c.setLineWidth(0.8)
        step = 14.0
        span = int((w + h) / step) + 4
        for i in range(-span, span):
            x0 = i * step
            c.line(x0 - face.bleed, -face.bleed, x0 + h + face.bleed, h + face.bleed)
            c.line(x0 + h + face.bleed, -face.bleed, x0 - face.bleed, h + face.bleed)
        inset = face.safe + 2
        c.setStrokeColor(white)
        c.setLineWidth(1.5)
        c.roundRect(inset, inset, w - 2 * inset, h - 2 * inset, 8, stroke=1, fill=0)
        c.setFillColor(NAVY)
        c.circle(w / 2, h / 2, w * 0.3, stroke=1, fill=1)
        _pigeon(c, w / 2, h / 2 + 4, w * 0.36, body=white, wing=PALE, eye=NAVY)
        c.setFillColor(white)
        c.setFont(bold, 11)
        c.drawCentredString(w / 2, h / 2 - w * 0.3 - 16, "PIGEON")


# --- the Pigeon -------------------------------------------------------------------------------


def _pigeon(
    c: Canvas, cx: float, cy: float, size: float, body: Color, wing: Color, eye: Color
) -> None:
    """A stylised pigeon facing right, ``size`` wide, centred near (cx, cy)."""
    u = size / 100.0

    def p(x: float, y: float) -> tuple[float, float]:
        return cx + (x - 50) * u, cy + (y - 50) * u

    with saved(c):
        c.setFillColor(body)
        c.setStrokeColor(body)
        c.drawPath(suits.canvas_path(c, suits.PIGEON_BODY, lambda q: p(*q)), stroke=0, fill=1)
        c.setFillColor(wing)
        c.drawPath(suits.canvas_path(c, suits.PIGEON_WING, lambda q: p(*q)), stroke=0, fill=1)
        c.setStrokeColor(body)
        c.setLineWidth(2.2 * u)
        for x in (50, 60):  # legs
            c.line(*p(x, 28), *p(x - 2, 14))
            c.line(*p(x - 2, 14), *p(x + 4, 12))
        c.setFillColor(eye)
        c.circle(*p(85, 76), 2.6 * u, stroke=0, fill=1)


def pigeon_coin(c: Canvas, face: Face) -> None:
    """The round token: the circle fills the trim and runs on into the bleed."""
    _, bold = fonts()
    w, h = face.width, face.height
    r = min(w, h) / 2
    with saved(c):
        c.setFillColor(NAVY)
        c.circle(w / 2, h / 2, r + face.bleed, stroke=0, fill=1)
        c.setStrokeColor(white)
        c.setLineWidth(1)
        c.circle(w / 2, h / 2, r * 0.86, stroke=1, fill=0)
        _pigeon(c, w / 2, h / 2 + r * 0.08, r * 1.25, body=white, wing=PALE, eye=NAVY)
        c.setFillColor(white)
        c.setFont(bold, max(r * 0.2, 6))
        c.drawCentredString(w / 2, h / 2 - r * 0.6, "PIGEON")


DRAWERS: dict[str, Drawer] = {
    "card_front": card_front,
    "card_back": card_back,
    "pigeon_coin": pigeon_coin,
}

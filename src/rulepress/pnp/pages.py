"""The kit's own pages: the cover with its component list and instructions, the printer check."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from reportlab.lib.colors import black
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from rulepress.document.model import Document
from rulepress.pnp.draw import BOLD, REGULAR
from rulepress.pnp.layout import FOOTER, MARGIN, Paper, apply, sheet_flip
from rulepress.pnp.marks import INK, tile_map
from rulepress.units import mm
from rulepress.words import SOURCE_WORDS, Words

LEFT = MARGIN + mm(12)


@dataclass(frozen=True)
class Row:
    """A component as the cover lists it."""

    name: str
    count: int
    size: str
    printed: str  # "front and back", "front only", "gutter-fold pairs", "not in the kit"...
    sheets: str  # the sheets it is on
    note: str = ""


@dataclass(frozen=True)
class CoverText:
    """Everything the cover says, built from what the kit holds (kit.py)."""

    mode: str  # the kit's paper and mode, in words
    rows: tuple[Row, ...]
    paper: tuple[str, ...]  # how many sheets, in this mode and the other
    printing: tuple[str, ...]
    cutting: tuple[str, ...]
    boards: tuple[tuple[str, tuple[int, int]], ...]  # tiled boards: name, (columns, rows)
    twin: str | None = None  # the file of the same kit on the other number of sides


class _Text:
    """A top-down text cursor with wrapping; ``turn`` ends a full page and starts the next."""

    def __init__(self, c: Canvas, p: Paper, turn: Callable[[], None] | None = None,
                 bottom: float = 0.0) -> None:
        self.c, self.p, self.turn = c, p, turn
        self.top = p.height - MARGIN - mm(14)
        self.y = self.top
        self.width = p.width - 2 * LEFT
        self.bottom = max(bottom, MARGIN + FOOTER + mm(4))  # the first page's floor

    def need(self, points: float) -> None:
        if self.turn is not None and self.y - points < self.bottom:
            self.turn()
            self.y = self.top
            self.bottom = MARGIN + FOOTER + mm(4)

    def line(
        self, text: str, size: float = 10, font: str = REGULAR, gap: float = 1.3, indent: float = 0
    ) -> None:
        for part in simpleSplit(text, font, size, self.width - indent) or [""]:
            self.need(size * gap)
            self.c.setFillColor(INK if indent else black)
            self.c.setFont(font, size)
            self.c.drawString(LEFT + indent, self.y, part)
            self.y -= size * gap

    def space(self, points: float) -> None:
        self.y -= points


CHECK_TOP = mm(72)  # the printer check's band at the foot of the cover, from the page bottom


def cover(c: Canvas, doc: Document, p: Paper, text: CoverText, turn: Callable[[], None],
          duplex: str | None, _: Words = SOURCE_WORDS) -> None:
    """The kit's first page, with the printer check at its foot (and more pages when the list
    is long: ``turn`` ends a page). ``duplex``: the flip edge of a two-sided kit, else None;
    ``_``: the words of the kit's language."""
    meta = doc.meta
    check(c, doc, p, duplex, _)
    t = _Text(c, p, turn, bottom=CHECK_TOP + mm(4))
    c.setFillColor(black)
    t.line(meta.title, 24, BOLD, 1.2)
    t.line(text.mode, 12, REGULAR, 1.6)
    t.line(_("Designed by {designer}. {licence}", designer=meta.designer,
             licence=meta.licence.name), 9)
    if meta.licence.notice:
        t.line(meta.licence.notice, 8)
    t.space(mm(3))
    t.line(_("Components"), 13, BOLD, 1.5)
    col = [LEFT, LEFT + mm(74), LEFT + mm(86), LEFT + mm(112), LEFT + mm(145)]
    c.setFont(BOLD, 9)
    heads = [_("Component"), _("Count"), _("Size"), _("Printed"), _("Sheets")]
    for x, h in zip(col, heads, strict=True):
        c.drawString(x, t.y, h)
    t.space(12)
    for row in text.rows:
        t.need(24)
        c.setFillColor(black)
        c.setFont(REGULAR, 9)
        c.drawString(col[0], t.y, simpleSplit(row.name, REGULAR, 9, col[1] - col[0] - mm(2))[0])
        for x, value in zip(col[1:], (str(row.count), row.size, row.printed, row.sheets),
                            strict=True):
            c.drawString(x, t.y, value)
        t.space(10)
        if row.note:
            t.line(row.note, 7.5, REGULAR, 1.25, indent=mm(4))
        t.space(2)
    for title, steps in ((_("Paper"), text.paper), (_.pgettext("kit", "Printing"), text.printing),
                         (_("Cutting and folding"), text.cutting)):
        if steps:
            t.space(mm(2))
            t.line(title, 13, BOLD, 1.5)
            for step in steps:
                t.line(f"\u2022 {step}", 9.5)
    for name, (cols, rows) in text.boards:  # a small map beside its caption
        cell = mm(5)
        t.space(mm(2))
        t.need(rows * cell)
        caption = _("Assembly of {name}:", name=name)
        c.setFont(BOLD, 9.5)
        c.setFillColor(black)
        c.drawString(LEFT, t.y, caption)
        tile_map(c, LEFT + c.stringWidth(caption, BOLD, 9.5) + mm(3), t.y - rows * cell + 9,
                 cols, rows, cell, "")
        t.space(rows * cell)


def blank(c: Canvas, p: Paper, text: str) -> None:
    c.saveState()
    c.setFillColor(INK)
    c.setFont(REGULAR, 9)
    c.drawCentredString(p.width / 2, p.height / 2, text)
    c.restoreState()


def _target(c: Canvas, x: float, y: float, rings: bool) -> None:
    c.saveState()
    c.setStrokeColor(black)
    c.setLineWidth(mm(0.2))
    r = mm(8)
    c.line(x - r, y, x + r, y)
    c.line(x, y - r, x, y + r)
    c.circle(x, y, mm(5), stroke=1, fill=0)
    if rings:
        c.setLineWidth(mm(0.1))
        for k in (1, 2, 3):
            c.circle(x, y, mm(k), stroke=1, fill=0)
    c.restoreState()


def _ruler(c: Canvas, x: float, y: float, ticks: int, step: float, every: int, label: str) -> None:
    """A horizontal ruler: ``ticks`` steps of ``step`` points, a long, labelled tick ``every``."""
    c.saveState()
    c.setStrokeColor(black)
    c.setLineWidth(mm(0.15))
    c.line(x, y, x + ticks * step, y)
    c.setFont(REGULAR, 7)
    for k in range(ticks + 1):
        long = k % every == 0
        half = every % 2 == 0 and k % (every // 2) == 0
        h = mm(5) if long else mm(3.5) if half else mm(2)
        c.line(x + k * step, y, x + k * step, y + h)
        if long:
            c.drawCentredString(x + k * step, y + mm(6), str(k // every))
    c.setFont(BOLD, 9)
    c.drawString(x, y - mm(5), label)
    c.restoreState()


TARGET_AT = (mm(36), mm(38))  # asymmetric on purpose: a duplex offset shows as a gap


def check(c: Canvas, doc: Document, p: Paper, duplex: str | None, _: Words = SOURCE_WORDS
          ) -> None:
    """The printer check at the foot of the cover: two rulers, and for a two-sided kit the
    front target whose ringed twin is printed on the back of this page."""
    c.saveState()
    c.setStrokeColor(INK)
    c.setLineWidth(mm(0.2))
    c.line(LEFT, CHECK_TOP, p.width - LEFT, CHECK_TOP)
    c.setFillColor(black)
    c.setFont(BOLD, 12)
    c.drawString(LEFT, CHECK_TOP - mm(6), _("Printer check"))
    c.restoreState()
    x = p.width - LEFT - mm(101.6) if duplex else LEFT
    _ruler(c, x, CHECK_TOP - mm(24), 100, mm(1), 10,
           _("100 mm: the long ticks are exactly 1 cm apart"))
    _ruler(c, x, CHECK_TOP - mm(43), 32, mm(25.4) / 8, 8,
           _("4 in: the long ticks are exactly 1 in apart"))
    t = _Text(c, p)
    t.y = CHECK_TOP - mm(11)
    t.width = p.width - 2 * LEFT
    said = _("{title}: print this page first, at 100% (\"actual size\", no \"fit to page\"). "
             "If a ruler measures short or long, the printer is scaling the page.",
             title=doc.meta.title)
    size = 9.0  # two lines fit above the first ruler: a longer language prints smaller
    while size > 7 and len(simpleSplit(said, REGULAR, size, t.width)) > 2:
        size -= 0.5
    t.line(said, size)
    if duplex:
        _target(c, *TARGET_AT, rings=False)
        c.setFont(REGULAR, 7.5)
        c.drawCentredString(TARGET_AT[0], TARGET_AT[1] - mm(12), _("front target"))


def check_back(c: Canvas, p: Paper, duplex: str, _: Words = SOURCE_WORDS,
               twin: str | None = None) -> None:
    """The back of the cover: the ringed target that must sit behind the front one; ``twin``:
    the kit's single-sided edition (file, command), if it can be printed."""
    x, y = apply(sheet_flip(p, duplex), *TARGET_AT)
    _target(c, x, y, rings=True)
    t = _Text(c, p)
    t.y = p.height / 2 + mm(20)  # clear of the target, top or bottom
    c.setFillColor(black)
    t.line(_("Printer check, back"), 16, BOLD, 1.4)
    for line in (
        _("Hold this sheet against a light: the target on the cover should sit right behind the "
          "ringed target on this side. The rings are 1, 2 and 3 mm; an offset of up to 1 mm is "
          "harmless thanks to the bleed."),
        (_("If they are further apart, your printer shifts its backs: try flipping on the "
           "other edge (this kit flips on the long edge).") if duplex == "long" else
         _("If they are further apart, your printer shifts its backs: try flipping on the "
           "other edge (this kit flips on the short edge).")) + (" " + _(
             "Or print this kit's single-sided edition, {file}, which folds each front onto "
             "its back.", file=twin)
             if twin is not None else ""),
    ):
        t.line(line, 9.5)


__all__ = ["CoverText", "Row", "blank", "check", "check_back", "cover"]

"""The kit's own pages: the cover with its component list and instructions, the printer check."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from reportlab.lib.colors import black
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from rulepress.document.model import Component, Document
from rulepress.pnp.draw import BOLD, REGULAR
from rulepress.pnp.layout import FOOTER, MARGIN, Paper, Plan, apply, sheet_flip
from rulepress.pnp.marks import INK, tile_map
from rulepress.units import mm

LEFT = MARGIN + mm(12)


@dataclass(frozen=True)
class Entry:
    """A component as the cover lists it."""

    component: Component
    plan: Plan | None  # None: not in the kit


class _Text:
    """A top-down text cursor with wrapping; ``turn`` ends a full page and starts the next."""

    def __init__(self, c: Canvas, p: Paper, turn: Callable[[], None] | None = None) -> None:
        self.c, self.p, self.turn = c, p, turn
        self.top = p.height - MARGIN - mm(14)
        self.y = self.top
        self.width = p.width - 2 * LEFT

    def need(self, points: float) -> None:
        if self.turn is not None and self.y - points < MARGIN + FOOTER + mm(4):
            self.turn()
            self.y = self.top

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


def _size(c: Component) -> str:
    return "" if c.size is None else f"{c.size.width:g} x {c.size.height:g} mm"


def cover(
    c: Canvas,
    doc: Document,
    p: Paper,
    entries: Sequence[Entry],
    duplex: str,
    turn: Callable[[], None],
) -> None:
    """The kit's first page (and more when the list is long: ``turn`` starts a page).

    ``duplex`` is the flip edge, "long" or "short", as build_kit checked it.
    """
    meta = doc.meta
    t = _Text(c, p, turn)
    c.setFillColor(black)
    t.line(meta.title, 24, BOLD, 1.2)
    t.line(f"Print-and-play kit, {p.label} paper", 13, REGULAR, 1.6)
    credit = f"Designed by {meta.designer}. {meta.licence.name}"
    t.line(credit, 9)
    if meta.licence.notice:
        t.line(meta.licence.notice, 8)
    t.space(mm(4))
    t.line("Components", 13, BOLD, 1.5)
    col = [LEFT, LEFT + mm(82), LEFT + mm(98), LEFT + mm(128), LEFT + mm(154)]
    heads = ["Component", "Count", "Size", "Sides", "Sheets"]
    c.setFont(BOLD, 9)
    for x, h in zip(col, heads, strict=True):
        c.drawString(x, t.y, h)
    t.space(12)
    tiled: list[tuple[str, Plan]] = []
    for e in entries:
        comp = e.component
        t.need(24)
        c.setFillColor(black)
        c.setFont(REGULAR, 9)
        name = simpleSplit(comp.name, REGULAR, 9, col[1] - col[0] - mm(2))[0]
        c.drawString(col[0], t.y, name)
        c.drawString(col[1], t.y, str(comp.count))
        c.drawString(col[2], t.y, _size(comp))
        if e.plan is None:
            c.drawString(col[3], t.y, "not in the kit")
        else:
            c.drawString(col[3], t.y, "double-sided" if comp.back else "single-sided")
            sheets = str(len(e.plan.sheets))
            if e.plan.tiled:
                sheets += f" ({e.plan.tiles[0]} x {e.plan.tiles[1]} tiles)"
                tiled.append((comp.name, e.plan))
            c.drawString(col[4], t.y, sheets)
        t.space(10)
        if e.plan is None and comp.note:
            t.line(comp.note, 7.5, REGULAR, 1.25, indent=mm(4))
        t.space(2)
    t.space(mm(4))
    t.line("Printing", 13, BOLD, 1.5)
    for step in (
        "Print at 100% (\"actual size\"): turn off \"fit to page\" and any scaling.",
        "Print the printer check sheet first: its rulers must measure exactly 100 mm and 4 in, "
        "and its two targets must line up when the sheet is held against a light.",
        f"Print double-sided, flipping on the {duplex} edge. Every sheet of fronts is followed by "
        "its backs (or a blank page), so the whole kit can be printed in one go.",
        "Greyscale printing works: pieces differ by shape and label, not colour alone.",
    ):
        t.line(f"\u2022 {step}", 9.5)
    t.space(mm(3))
    t.line("Cutting", 13, BOLD, 1.5)
    for step in (
        "Cut along the lines that join facing crop marks, with a ruler and a sharp blade.",
        "Cut the long lines across the whole sheet first, then the short ones: where two pieces "
        "touch, one cut separates both. The artwork runs past every cut (bleed), so a slightly "
        "off cut shows no white edge.",
        "Boards: cut each tile on its crop marks; glue the tiles in label order (A1, A2, ..., "
        "B1, ...), each tile laid over its neighbour's shaded glue strip with its edge on the "
        "dashed line.",
    ):
        t.line(f"\u2022 {step}", 9.5)
    for name, plan in tiled:
        t.space(mm(3))
        cols, rows = plan.tiles
        cell = mm(9)
        t.need(rows * cell + 20)
        t.line(f"Assembly of {name}", 10, BOLD, 1.4)
        t.space(rows * cell)
        tile_map(c, LEFT, t.y + 8, cols, rows, cell, "")
        t.space(mm(3))


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


TARGET_AT = (mm(45), mm(70))  # asymmetric on purpose: a duplex offset shows as a gap


def calibration(c: Canvas, doc: Document, p: Paper) -> None:
    t = _Text(c, p)
    c.setFillColor(black)
    t.line("Printer check", 20, BOLD, 1.3)
    t.line(f"{doc.meta.title}: print this sheet first, double-sided, at 100%.", 10)
    t.space(mm(12))
    _ruler(c, LEFT, t.y, 100, mm(1), 10, "100 mm: the long ticks must be exactly 1 cm apart")
    t.space(mm(22))
    _ruler(c, LEFT, t.y, 32, mm(25.4) / 8, 8, "4 in: the long ticks must be exactly 1 in apart")
    t.space(mm(14))
    for line in (
        "If a ruler measures short or long, the printer is scaling the page: choose \"actual "
        "size\" or 100% and switch off \"fit to page\", then print this sheet again.",
        "Duplex check: hold the printed sheet against a light. The target below and the ringed "
        "target on the back should coincide; the rings are 1, 2 and 3 mm. An offset of up to "
        "1 mm is harmless thanks to the bleed.",
    ):
        t.line(line, 9.5)
    _target(c, *TARGET_AT, rings=False)
    c.setFont(REGULAR, 8)
    c.drawString(TARGET_AT[0] + mm(10), TARGET_AT[1] - 3, "front target")


def calibration_back(c: Canvas, p: Paper, duplex: str) -> None:
    x, y = apply(sheet_flip(p, duplex), *TARGET_AT)
    _target(c, x, y, rings=True)
    c.setFillColor(black)
    c.setFont(REGULAR, 8)
    # Text on the side facing the page centre, so it stays inside the margin either way.
    text = "back target: it should sit right behind the front one"
    if x > p.width / 2:
        c.drawRightString(x - mm(10), y - 3, text)
    else:
        c.drawString(x + mm(10), y - 3, text)


__all__ = ["Entry", "blank", "calibration", "calibration_back", "cover"]

"""Sheet geometry, pure: where each face goes, what is clipped, where the crop marks run.

Everything here is in PDF points on a portrait page, origin bottom-left. Nothing draws.

Imposition rules (the kit's tests measure them from the PDF):

- Faces of one component are placed n-up in a grid centred on the page, inside the 6.35 mm
  printable margin, above a footer band. Two grids are tried in both orientations: *gutter*
  (2 x bleed between faces, every face keeps its full bleed) and *butting* (faces touch, so one
  cut separates two faces and only the block's outer edges carry bleed). The fewest sheets win,
  then the gutter grid, then the most faces per sheet, then the unrotated one.
- Crop marks extend every cut line outside the block of trims; they start ``MARK_START`` past the
  trim (over that face's own bleed at most, never over another face) and stop at the printable
  margin. Each side keeps ``reserve`` = max(bleed, MARK_START + MARK_MIN) free for them.
- Backs mirror the fronts through the sheet: x mirrored for long-edge duplex, y mirrored for
  short-edge. Each back is the front's transform composed with that flip and with the face's own
  left-right flip, so a back stays upright relative to its front.
- Boards too large for one sheet and marked tileable are split into equal tiles that overlap by
  ``GLUE`` (the glue strip on the right and bottom of a tile, covered by the next tile).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from rulepress import media
from rulepress.units import mm

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1
Line = tuple[float, float, float, float]  # x0, y0, x1, y1
# A PDF ``cm`` matrix (a, b, c, d, e, f): x' = a x + c y + e, y' = b x + d y + f
Affine = tuple[float, float, float, float, float, float]

MARGIN = mm(6.35)  # home printers cannot print closer to the edge
FOOTER = mm(4.0)  # band above the bottom margin holding the sheet's footer
MARK_START = mm(1.0)  # gap between a trim edge and its crop mark
MARK_MIN = mm(2.0)  # shortest useful crop mark
MARK_EXTRA = mm(3.0)  # how far a mark runs past the bleed when there is room
MARK_WIDTH = mm(0.25)
MARK_HALO = mm(0.6)  # the white line under each mark, so it shows on dark bleed too
GLUE = mm(10.0)  # overlap between neighbouring tiles of a board
IDENTITY: Affine = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


@dataclass(frozen=True)
class Paper:
    key: str  # a key of media.PAPERS
    label: str
    width: float
    height: float


PAPERS = {key: Paper(key, p.name, p.width_pt, p.height_pt) for key, p in media.PAPERS.items()}


def paper(key: str) -> Paper:
    try:
        return PAPERS[key]
    except KeyError:
        raise ValueError(f"unknown paper '{key}': use one of {', '.join(PAPERS)}") from None


def compose(outer: Affine, inner: Affine) -> Affine:
    """outer after inner."""
    a1, b1, c1, d1, e1, f1 = outer
    a2, b2, c2, d2, e2, f2 = inner
    return (
        a1 * a2 + c1 * b2,
        b1 * a2 + d1 * b2,
        a1 * c2 + c1 * d2,
        b1 * c2 + d1 * d2,
        a1 * e2 + c1 * f2 + e1,
        b1 * e2 + d1 * f2 + f1,
    )


def apply(t: Affine, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = t
    return a * x + c * y + e, b * x + d * y + f


def map_rect(t: Affine, r: Rect) -> Rect:
    """The bounding rectangle of a rectangle moved by an axis-preserving transform."""
    x0, y0 = apply(t, r[0], r[1])
    x1, y1 = apply(t, r[2], r[3])
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


def map_line(t: Affine, ln: Line) -> Line:
    x0, y0 = apply(t, ln[0], ln[1])
    x1, y1 = apply(t, ln[2], ln[3])
    return x0, y0, x1, y1


def reserve(bleed: float) -> float:
    """Room kept free around a block of trims for its bleed and crop marks."""
    return max(bleed, MARK_START + MARK_MIN)


def sheet_flip(p: Paper, duplex: str) -> Affine:
    """Front-page point -> the back-page point printed on the other side of it."""
    if duplex == "long":
        return (-1.0, 0.0, 0.0, 1.0, p.width, 0.0)
    if duplex == "short":
        return (1.0, 0.0, 0.0, -1.0, 0.0, p.height)
    raise ValueError(f"unknown duplex edge '{duplex}': use long or short")


@dataclass(frozen=True)
class Slot:
    """One face on a sheet."""

    index: int  # which copy of the component
    transform: Affine  # face coordinates -> page
    trim: Rect  # page coordinates
    clip: Rect  # trim plus the bleed the face may show here
    label: str = ""  # tile label (A1, B2...) for boards
    component: str = ""  # the component's id (sheets mix components)
    back: bool = False  # the reverse side: a duplex back, or a gutter-fold half

    @property
    def face_width(self) -> float:
        """The face's own width, whatever way it is turned on the page."""
        a, b = self.transform[0], self.transform[1]
        x0, y0, x1, y1 = self.trim
        return (x1 - x0) / abs(a) if abs(a) > 1e-9 else (y1 - y0) / abs(b)


@dataclass(frozen=True)
class Glue:
    """A glue strip of a tile: the area the next tile covers, and the edge it aligns with."""

    strip: Rect
    edge: Line  # where the covering tile's cut edge goes
    covered_by: str  # label of the covering tile


@dataclass(frozen=True)
class Sheet:
    slots: tuple[Slot, ...]
    marks: tuple[Line, ...]
    trim_box: Rect  # union of the trims on the sheet
    bleed_box: Rect  # union of the clipped artwork on the sheet
    glue: tuple[Glue, ...] = ()
    folds: tuple[Line, ...] = ()  # fold marks of gutter-fold pairs
    # The block fills the page from the top printer margin to the bottom one (Letter's 9-up
    # poker deck): no bleed there, column cuts ticked on the block's edges, footer at the side.
    full_height: bool = False

    def flipped(self, p: Paper, duplex: str, keep: Collection[str] | None = None) -> Sheet:
        """The matching back sheet: each face (of the components in ``keep``, default all)
        behind its front, upright relative to it."""
        flip = sheet_flip(p, duplex)
        slots = tuple(
            Slot(
                s.index,
                compose(flip, compose(s.transform, (-1.0, 0.0, 0.0, 1.0, s.face_width, 0.0))),
                map_rect(flip, s.trim),
                map_rect(flip, s.clip),
                s.label,
                s.component,
                True,
            )
            for s in self.slots
            if keep is None or s.component in keep
        )
        if not slots:
            raise ValueError("a back sheet needs at least one face")
        return Sheet(
            slots,
            tuple(map_line(flip, m) for m in self.marks),
            _union([s.trim for s in slots]),
            _union([s.clip for s in slots]),
            full_height=self.full_height,
        )

    def area(self) -> float:
        """The area of the trimmed faces on the sheet (a gutter-fold half counts)."""
        return sum((t[2] - t[0]) * (t[3] - t[1]) for t in (s.trim for s in self.slots))


@dataclass(frozen=True)
class Plan:
    """How one component is imposed on one paper."""

    sheets: tuple[Sheet, ...]
    tiles: tuple[int, int] = (1, 1)  # columns, rows of tiles for a tiled board

    @property
    def tiled(self) -> bool:
        return self.tiles != (1, 1)

    def drawn(self) -> int:
        """Distinct copies drawn (a tiled board counts once however many tiles it spans)."""
        return len({s.index for sheet in self.sheets for s in sheet.slots})


class DoesNotFit(ValueError):
    """A face larger than the room a sheet offers (width, height in points)."""

    def __init__(self, room_w: float, room_h: float) -> None:
        super().__init__(f"room {room_w / mm(1):.1f} x {room_h / mm(1):.1f} mm")
        self.room = (room_w, room_h)


def block_area(p: Paper, bleed: float) -> tuple[float, float]:
    """Width and height available to a block of trims on a front sheet."""
    r = reserve(bleed)
    return p.width - 2 * MARGIN - 2 * r, p.height - 2 * MARGIN - FOOTER - 2 * r


def mark_area(p: Paper) -> Rect:
    """Where crop marks may run on a front sheet (inside the margin, above the footer)."""
    return MARGIN, MARGIN + FOOTER, p.width - MARGIN, p.height - MARGIN


def _fit(avail: float, size: float, gap: float) -> int:
    if size > avail + 1e-6:
        return 0
    return int((avail + gap + 1e-6) // (size + gap))


def grid_plan(p: Paper, w: float, h: float, bleed: float, count: int) -> Plan:
    """n-up placement of ``count`` faces of w x h points; DoesNotFit if one face cannot fit."""
    aw, ah = block_area(p, bleed)
    gaps = (2 * bleed, 0.0) if bleed > 0 else (0.0,)
    best: tuple[tuple[float, ...], bool, float, int, int] | None = None
    for rotated in (False, True):
        cw, ch = (h, w) if rotated else (w, h)
        for gap in gaps:
            cols, rows = _fit(aw, cw, gap), _fit(ah, ch, gap)
            n = cols * rows
            if n == 0:
                continue
            key = (math.ceil(count / n), gap == 0, -n, rotated)
            if best is None or key < best[0]:
                best = (key, rotated, gap, cols, rows)
    if best is None:
        raise DoesNotFit(aw, ah)
    _, rotated, gap, cols, rows = best
    cw, ch = (h, w) if rotated else (w, h)
    per = cols * rows
    # Only as many columns/rows as the copies need, so a short run still sits centred.
    cols = min(cols, count)
    rows = min(rows, math.ceil(count / cols))
    bw, bh = cols * cw + (cols - 1) * gap, rows * ch + (rows - 1) * gap
    x0 = (p.width - bw) / 2
    y0 = (FOOTER + p.height - bh) / 2
    sheets = []
    for start in range(0, count, per):
        cells = [(i // cols, i % cols) for i in range(min(per, count - start))]
        occupied = set(cells)
        slots = []
        for k, (row, col) in enumerate(cells):
            sx = x0 + col * (cw + gap)
            sy = y0 + bh - (row + 1) * ch - row * gap
            trim = (sx, sy, sx + cw, sy + ch)

            # Bleed on a side unless a face butts against it there.
            left, below, right, above = (
                bleed if gap > 0 or (row + dr, col + dc) not in occupied else 0.0
                for dr, dc in ((0, -1), (1, 0), (0, 1), (-1, 0))
            )
            clip = (sx - left, sy - below, sx + cw + right, sy + ch + above)
            t: Affine = (0.0, 1.0, -1.0, 0.0, sx + cw, sy) if rotated else (1, 0, 0, 1, sx, sy)
            slots.append(Slot(start + k, t, trim, clip))
        sheets.append(_sheet(p, tuple(slots), bleed))
    return Plan(tuple(sheets))


def _union(rects: list[Rect]) -> Rect:
    return (
        min(r[0] for r in rects),
        min(r[1] for r in rects),
        max(r[2] for r in rects),
        max(r[3] for r in rects),
    )


def _sheet(p: Paper, slots: tuple[Slot, ...], bleed: float, glue: tuple[Glue, ...] = ()) -> Sheet:
    trims = [s.trim for s in slots]
    box = _union(trims)
    return Sheet(slots, crop_marks(p, trims, bleed), box, _union([s.clip for s in slots]), glue)


def crop_marks(
    p: Paper, trims: list[Rect], bleed: float, obstacles: Sequence[Rect] = ()
) -> tuple[Line, ...]:
    """Every cut line extended outside the block of trims, on both ends, stopping short of
    any obstacle (another block's room on a shared sheet)."""
    xs = sorted({round(v, 4) for r in trims for v in (r[0], r[2])})
    ys = sorted({round(v, 4) for r in trims for v in (r[1], r[3])})
    return edge_marks(p, _union(trims), xs, ys, bleed, obstacles)


def edge_marks(
    p: Paper, box: Rect, xs: Sequence[float], ys: Sequence[float], bleed: float,
    obstacles: Sequence[Rect] = (),
) -> tuple[Line, ...]:
    """Short lines continuing the vertical lines ``xs`` and horizontal lines ``ys`` of a block
    outside its ``box``, from MARK_START past it to the mark area's edge or an obstacle."""
    bx0, by0, bx1, by1 = box
    lo_x, lo_y, hi_x, hi_y = mark_area(p)
    reach = reserve(bleed) + MARK_EXTRA
    marks: list[Line] = []
    for x in xs:
        marks.append(_stop((x, by1 + MARK_START, x, min(by1 + reach, hi_y)), obstacles))
        marks.append(_stop((x, by0 - MARK_START, x, max(by0 - reach, lo_y)), obstacles))
    for y in ys:
        marks.append(_stop((bx0 - MARK_START, y, max(bx0 - reach, lo_x), y), obstacles))
        marks.append(_stop((bx1 + MARK_START, y, min(bx1 + reach, hi_x), y), obstacles))
    return tuple(m for m in marks if abs(m[2] - m[0]) + abs(m[3] - m[1]) > 1e-6)


def _stop(mark: Line, obstacles: Sequence[Rect]) -> Line:
    """The mark, from its start, cut where it would enter an obstacle."""
    x0, y0, x1, y1 = mark
    h = MARK_HALO / 2  # the mark's halo must stay off the obstacle too
    for ox0, oy0, ox1, oy1 in obstacles:
        if x0 == x1 and ox0 - h < x0 < ox1 + h:  # vertical, running up or down
            if y1 > y0 and oy0 >= y0:
                y1 = max(y0, min(y1, oy0))
            elif y1 < y0 and oy1 <= y0:
                y1 = min(y0, max(y1, oy1))
        elif y0 == y1 and oy0 - h < y0 < oy1 + h:
            if x1 > x0 and ox0 >= x0:
                x1 = max(x0, min(x1, ox0))
            elif x1 < x0 and ox1 <= x0:
                x1 = min(x0, max(x1, ox1))
    return x0, y0, x1, y1


def tile_label(row: int, col: int) -> str:
    return f"{chr(ord('A') + row)}{col + 1}"


def _split(total: float, avail: float) -> tuple[int, float]:
    """How many equal tiles overlapping by GLUE cover ``total``, and each tile's length."""
    if total <= avail + 1e-6:
        return 1, total
    n = math.ceil((total - GLUE) / (avail - GLUE) - 1e-9)
    return n, (total + (n - 1) * GLUE) / n


def tile_plan(p: Paper, w: float, h: float, bleed: float, count: int) -> Plan:
    """Split each copy of a w x h board into overlapping tiles, one per sheet."""
    aw, ah = block_area(p, bleed)
    if aw <= GLUE * 2 or ah <= GLUE * 2:
        raise DoesNotFit(aw, ah)
    options = []
    for rotated in (False, True):
        bw, bh = (h, w) if rotated else (w, h)
        (nx, tw), (ny, th) = _split(bw, aw), _split(bh, ah)
        options.append((nx * ny, rotated, nx, tw, ny, th, bw, bh))
    _, rotated, nx, tw, ny, th, bw, bh = min(options)
    x0, y0 = (p.width - tw) / 2, (FOOTER + p.height - th) / 2
    sx, sy = tw - GLUE, th - GLUE  # steps between tiles, in board units
    # Board face coordinates -> the (possibly rotated) board frame.
    frame: Affine = (0.0, 1.0, -1.0, 0.0, h, 0.0) if rotated else IDENTITY
    sheets = []
    for index in range(count):
        for row in range(ny):
            for col in range(nx):
                left, top = col * sx, bh - row * sy  # tile's corner in the board frame
                shift: Affine = (1.0, 0.0, 0.0, 1.0, x0 - left, y0 - (top - th))
                t = compose(shift, frame)
                trim = (x0, y0, x0 + tw, y0 + th)
                # Bleed everywhere: inside the board the art simply continues past the cut.
                board = map_rect(shift, (-bleed, -bleed, bw + bleed, bh + bleed))
                clip = (
                    max(x0 - bleed, board[0]),
                    max(y0 - bleed, board[1]),
                    min(x0 + tw + bleed, board[2]),
                    min(y0 + th + bleed, board[3]),
                )
                glue = []
                if col < nx - 1:
                    gx = x0 + tw - GLUE
                    edge = (gx, y0, gx, y0 + th)
                    glue.append(Glue((gx, y0, x0 + tw, y0 + th), edge, tile_label(row, col + 1)))
                if row < ny - 1:
                    gy = y0 + GLUE
                    glue.append(
                        Glue((x0, y0, x0 + tw, gy), (x0, gy, x0 + tw, gy), tile_label(row + 1, col))
                    )
                slot = Slot(index, t, trim, clip, tile_label(row, col))
                sheets.append(_sheet(p, (slot,), bleed, tuple(glue)))
    return Plan(tuple(sheets), (nx, ny))

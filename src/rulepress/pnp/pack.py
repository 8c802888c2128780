"""Mixed sheets: every small face of a kit packed onto shared sheets, pure geometry.

A *piece* is one face, or a gutter-fold pair (front and back side by side, butting on the fold).
Pieces of one size (whatever their component) form *blocks*: grids laid out as in
``layout.grid_plan``, butting or with a 2 x bleed gutter. Each block keeps ``reserve(bleed)`` of
room on every side for its bleed and crop marks, so a block's marks never reach another block.

Blocks are placed by a guillotine packer: a sheet starts as one free rectangle; each step puts
a block at the top-left of a free rectangle and splits what is left into the strip to its right
and the band below. The block chosen is the one covering the most area (the earliest free
rectangle, then the largest pieces, on ties), or in a *small-first* pass the first size that
fits. Each sheet is filled four ways (blocks whose last row may be short, or full rectangles
only; gutters or butting faces preferred) and keeps whichever covers more.

A first pass fills sheets greedily; two more cap each size at a fair share per sheet (of all
the sheets, or of the ones the first pass spread it on), so the last sheet is not a lone card;
each is run again small-first, so small pieces share a sheet with big ones. The kit takes the
pass with the fewest sheets, then the fullest emptiest sheet. Everything is ordered by
explicit keys: the same kit gives the same sheets, byte for byte.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from rulepress.pnp.layout import (
    FOOTER,
    MARGIN,
    MARK_MIN,
    MARK_START,
    Affine,
    Line,
    Paper,
    Rect,
    Sheet,
    Slot,
    compose,
    edge_marks,
    map_line,
    map_rect,
    reserve,
)

EPS = 1e-6
GUTTER = "gutter"  # Piece.edge of a piece that never butts


@dataclass(frozen=True)
class Piece:
    component: str
    index: int  # which copy of the component
    width: float  # the face's own size, points
    height: float
    pair: bool = False  # a gutter-fold pair: the back to the right of the front
    # What its cut edges show: pieces butt (share a cut) only with pieces of the same edge; a
    # piece whose colour reaches its cut and varies (GUTTER) never butts: an off cut would show
    # a neighbour's colour.
    edge: str = ""

    @property
    def unit(self) -> tuple[float, float]:
        return (2 * self.width if self.pair else self.width), self.height


def content(p: Paper) -> Rect:
    """Where blocks and their reserved room go: inside the margin, above the footer."""
    return MARGIN, MARGIN + FOOTER, p.width - MARGIN, p.height - MARGIN


def fits(p: Paper, piece: Piece, bleed: float) -> bool:
    """Whether one piece fits an empty sheet (either way round)."""
    x0, y0, x1, y1 = content(p)
    room = 2 * reserve(bleed)
    w, h = piece.unit
    return any(a + room <= x1 - x0 + EPS and b + room <= y1 - y0 + EPS for a, b in ((w, h), (h, w)))


@dataclass(frozen=True)
class _Shape:
    rotated: bool
    gap: float
    cols: int
    rows: int
    cell: tuple[float, float]  # a unit's size as placed

    @property
    def size(self) -> tuple[float, float]:
        cw, ch = self.cell
        g = self.gap
        return self.cols * cw + (self.cols - 1) * g, self.rows * ch + (self.rows - 1) * g


@dataclass(frozen=True)
class _Block:
    pieces: tuple[Piece, ...]
    shape: _Shape
    x0: float  # top-left corner of the block's trims, page coordinates
    top: float

    def footprint(self, room: float) -> Rect:
        w, h = self.shape.size
        return self.x0 - room, self.top - h - room, self.x0 + w + room, self.top + room

    def moved(self, dx: float, dy: float) -> _Block:
        return _Block(self.pieces, self.shape, self.x0 + dx, self.top + dy)


def _fit(avail: float, size: float, gap: float) -> int:
    return 0 if size > avail + EPS else int((avail + gap + EPS) // (size + gap))


def _shape(
    free: Rect, unit: tuple[float, float], n: int, bleed: float, holes: bool, gutter: bool,
    butts: bool = True,
) -> tuple[int, _Shape] | None:
    """The best block of at most ``n`` units in a free rectangle: (units, shape); ``butts``
    False: with a gutter only."""
    room = reserve(bleed)
    aw, ah = free[2] - free[0] - 2 * room, free[3] - free[1] - 2 * room
    best: tuple[tuple[float, ...], int, _Shape] | None = None
    for rotated in (False, True) if unit[0] != unit[1] else (False,):
        cw, ch = (unit[1], unit[0]) if rotated else unit
        for gap in ((2 * bleed, 0.0) if butts else (2 * bleed,)) if bleed > 0 else (0.0,):
            cols, rows = _fit(aw, cw, gap), _fit(ah, ch, gap)
            if cols * rows == 0:
                continue
            # As many units as can be, then the fewest rows (a wide block leaves a wide band
            # below). ``holes``: the last row may be short; else a full rectangle, and what is
            # left goes into another block.
            c, r = max(((c, min(rows, -(-n // c) if holes else n // c))
                        for c in range(1, min(cols, n) + 1)),
                       key=lambda cr: (min(n, cr[0] * cr[1]), -cr[1]))
            k = min(n, c * r)
            shape = _Shape(rotated, gap, c, r, (cw, ch))
            w, h = shape.size
            key = (k, (gap > 0) == gutter, -w * h, -h, not rotated)
            if best is None or key > best[0]:
                best = (key, k, shape)
    return None if best is None else (best[1], best[2])


def _groups(pieces: Sequence[Piece]) -> list[list[Piece]]:
    """Pieces by unit size and edge, largest first, then in declaration order."""
    groups: dict[tuple[float, float, str], list[Piece]] = {}
    for piece in pieces:
        w, h = piece.unit
        groups.setdefault((round(min(w, h), 3), round(max(w, h), 3), piece.edge),
                          []).append(piece)
    return sorted(groups.values(), key=lambda g: -g[0].unit[0] * g[0].unit[1])


def _fill_sheet(p: Paper, queues: list[list[Piece]], start: list[int], bleed: float,
                caps: Sequence[int] | None, holes: bool, gutter: bool,
                in_order: bool) -> list[_Block]:
    """Blocks for one sheet, taken from each queue from ``start`` on (advanced as it goes):
    ``in_order``, the first queue that fits first, else the block that covers most."""
    room = reserve(bleed)
    free = [content(p)]
    blocks: list[_Block] = []
    used = [0] * len(queues)
    while True:
        best: tuple[tuple[float, ...], int, int, int, _Shape] | None = None
        for fi, rect in enumerate(free):
            for gi, queue in enumerate(queues):
                n = len(queue) - start[gi]
                n = n if caps is None else min(n, caps[gi] - used[gi])
                if n <= 0:
                    continue
                got = _shape(rect, queue[0].unit, n, bleed, holes, gutter,
                             queue[0].edge != GUTTER)
                if got is None:
                    continue
                k, shape = got
                area = k * queue[0].unit[0] * queue[0].unit[1]
                key = (-gi, area, -fi) if in_order else (area, -fi, -gi)
                if best is None or key > best[0]:
                    best = (key, fi, gi, k, shape)
        if best is None:
            return blocks
        _, fi, gi, k, shape = best
        x0, y0, x1, y1 = free.pop(fi)
        w, h = shape.size
        blocks.append(_Block(tuple(queues[gi][start[gi]:start[gi] + k]), shape, x0 + room,
                             y1 - room))
        start[gi] += k
        used[gi] += k
        fw, fh = w + 2 * room, h + 2 * room
        right = (x0 + fw, y1 - fh, x1, y1)
        below = (x0, y0, x1, y1 - fh)
        free += [r for r in (right, below) if r[2] - r[0] > EPS and r[3] - r[1] > EPS]
        free.sort(key=lambda r: (-r[3], r[0]))


def _pass(p: Paper, pieces: Sequence[Piece], bleed: float, caps: Sequence[int] | None,
          small_first: bool = False) -> list[list[_Block]]:
    queues = _groups(pieces)[::-1] if small_first else _groups(pieces)
    start = [0] * len(queues)
    sheets = []
    while any(n < len(q) for n, q in zip(start, queues, strict=True)):
        # Blocks with a short last row or full rectangles only, gutters or butting faces
        # preferred: whichever covers more (full rectangles with gutters on a tie).
        tries = []
        for holes in (False, True):
            for gutter in (True, False):
                moved = list(start)
                blocks = _fill_sheet(p, queues, moved, bleed, caps, holes, gutter, small_first)
                area = sum(x.unit[0] * x.unit[1] for b in blocks for x in b.pieces)
                tries.append((round(area, 3), not holes, gutter, blocks, moved))
        *_, blocks, start = max(tries, key=lambda t: t[:3])
        if not blocks:
            raise ValueError("a piece does not fit an empty sheet")
        sheets.append(blocks)
    return sheets


def _centred(p: Paper, blocks: list[_Block], bleed: float) -> list[_Block]:
    room = reserve(bleed)
    boxes = [b.footprint(room) for b in blocks]
    x0, y0, x1, y1 = content(p)
    ux0, uy0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    ux1, uy1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    dx, dy = (x0 + x1 - ux0 - ux1) / 2, (y0 + y1 - uy0 - uy1) / 2
    return [b.moved(dx, dy) for b in blocks]


def _full_height_shape(p: Paper, unit: tuple[float, float], bleed: float) -> _Shape | None:
    """The butting grid of ``unit`` whose rows fill the height between the printer margins,
    with no room kept above or below it (bleed and marks at the sides only), when it holds
    more than a sheet with room all round: poker cards 3 x 3 on US Letter (3 x 88.9 mm is
    exactly the 266.7 mm between its margins)."""
    room = reserve(bleed)
    aw, ah = p.width - 2 * MARGIN - 2 * room, p.height - 2 * MARGIN
    normal = max((got[0] for gutter in (True, False)
                  if (got := _shape(content(p), unit, 10**6, bleed, True, gutter))), default=0)
    best: _Shape | None = None
    for rotated in (False, True) if unit[0] != unit[1] else (False,):
        cw, ch = (unit[1], unit[0]) if rotated else unit
        cols, rows = _fit(aw, cw, 0.0), _fit(ah, ch, 0.0)
        if cols * rows > max(normal, best.cols * best.rows if best else 0):
            best = _Shape(rotated, 0.0, cols, rows, (cw, ch))
    return best


def _full_height(p: Paper, pieces: Sequence[Piece],
                 bleed: float) -> tuple[list[Sheet], list[Piece]]:
    """Sheets of a full-height grid for every size that has one and a deck of it (a component
    that fills such a sheet alone), as many as its pieces fill whole; the pieces left for the
    packer."""
    sheets: list[Sheet] = []
    rest: list[Piece] = []
    for group in _groups(pieces):
        shape = (None if group[0].edge == GUTTER else
                 _full_height_shape(p, group[0].unit, bleed))
        per = shape.cols * shape.rows if shape else 0
        counts: dict[str, int] = {}
        for piece in group:
            counts[piece.component] = counts.get(piece.component, 0) + 1
        if shape is None or max(counts.values()) < per:
            rest += group
            continue
        whole = len(group) // per * per
        for start in range(0, whole, per):
            w, h = shape.size
            block = _Block(tuple(group[start:start + per]), shape, (p.width - w) / 2,
                           (p.height + h) / 2)
            sheets.append(_full_height_sheet(p, block, bleed))
        rest += group[whole:]
    order = {id(piece): n for n, piece in enumerate(pieces)}
    return sheets, sorted(rest, key=lambda piece: order[id(piece)])


def _full_height_sheet(p: Paper, block: _Block, bleed: float) -> Sheet:
    """A full-height block: bleed only at the sides; each row cut marked in both side strips
    (the outermost two lie on the margin's edge: the kit draws them clipped to the printable
    area), each column cut by a short tick on the block's top and bottom edge, as there is no
    room beyond them."""
    slots, units, _ = _block_slots(block, bleed)
    w, h = block.shape.size
    y0, y1 = block.top - h, block.top
    slots = [Slot(s.index, s.transform, s.trim, (s.clip[0], max(s.clip[1], y0), s.clip[2],
                                                  min(s.clip[3], y1)), s.label, s.component,
                  s.back) for s in slots]
    xs = sorted({round(v, 4) for u in units for v in (u[0], u[2])})
    ys = sorted({round(v, 4) for u in units for v in (u[1], u[3])})
    x0, x1 = block.x0, block.x0 + w
    reach = reserve(bleed) + MARK_START
    marks: list[Line] = []
    for y in ys:
        marks.append((x0 - MARK_START, y, max(x0 - reach, MARGIN), y))
        marks.append((x1 + MARK_START, y, min(x1 + reach, p.width - MARGIN), y))
    for x in xs:
        marks.append((x, y1, x, y1 - MARK_MIN))
        marks.append((x, y0, x, y0 + MARK_MIN))
    trims = [s.trim for s in slots]
    clips = [s.clip for s in slots]
    return Sheet(tuple(slots), tuple(marks),
                 (min(t[0] for t in trims), min(t[1] for t in trims), max(t[2] for t in trims),
                  max(t[3] for t in trims)),
                 (min(c[0] for c in clips), min(c[1] for c in clips), max(c[2] for c in clips),
                  max(c[3] for c in clips)),
                 full_height=True)


def pack(p: Paper, pieces: Sequence[Piece], bleed: float) -> tuple[Sheet, ...]:
    """Every piece on as few sheets as the packer finds, each sheet's blocks centred. A deck (a
    component that fills a sheet on its own) is packed first, alone: its sheets hold nothing
    else, so it prints and cuts apart from the other pieces."""
    counts: dict[str, int] = {}
    for piece in pieces:
        counts[piece.component] = counts.get(piece.component, 0) + 1
    decks = [cid for cid, n in counts.items()
             if n > 1 and n >= _per_sheet(p, next(x for x in pieces if x.component == cid),
                                          bleed)]
    sheets: tuple[Sheet, ...] = ()
    for deck in decks:
        sheets += _mixed(p, [x for x in pieces if x.component == deck], bleed)
    return sheets + _mixed(p, [x for x in pieces if x.component not in decks], bleed)


def _per_sheet(p: Paper, piece: Piece, bleed: float) -> int:
    """How many of ``piece`` a sheet of their own holds at most."""
    butts = piece.edge != GUTTER
    shaped = [got[0] for gutter in (True, False)
              if (got := _shape(content(p), piece.unit, 10**6, bleed, True, gutter, butts))]
    full = _full_height_shape(p, piece.unit, bleed) if butts else None
    return max([*shaped, full.cols * full.rows if full else 0, 1])


def _mixed(p: Paper, pieces: Sequence[Piece], bleed: float) -> tuple[Sheet, ...]:
    """The pieces on as few sheets as the packer finds; a size that fills more to a sheet edge
    to edge between the top and bottom margins is printed so first (Letter's 9-up poker deck),
    unless that takes more sheets in all (a few cards that would share a sheet with others)."""
    plain = _packed(p, pieces, bleed)
    full, rest = _full_height(p, pieces, bleed)
    if not full:
        return plain
    mixed = (*full, *_packed(p, rest, bleed))
    return mixed if len(mixed) <= len(plain) else plain


def _packed(p: Paper, pieces: Sequence[Piece], bleed: float) -> tuple[Sheet, ...]:
    if not pieces:
        return ()
    greedy = _pass(p, pieces, bleed, None)
    spread: dict[int, set[int]] = {}
    queues = _groups(pieces)
    first = {id(q[0]): gi for gi, q in enumerate(queues)}
    group_of = {id(piece): first[id(q[0])] for q in queues for piece in q}
    for n, blocks in enumerate(greedy):
        for block in blocks:
            spread.setdefault(group_of[id(block.pieces[0])], set()).add(n)
    tries = [greedy]
    for share in (len(greedy), None):  # over all the sheets, or over those it was on
        caps = [math.ceil(len(q) / (share or len(spread[gi]))) if len(spread[gi]) > 1
                else len(q) for gi, q in enumerate(queues)]
        tries.append(_pass(p, pieces, bleed, caps))
        tries.append(_pass(p, pieces, bleed, caps[::-1], small_first=True))
    tries.append(_pass(p, pieces, bleed, None, small_first=True))

    def lowest(sheets: list[list[_Block]]) -> float:
        return min(sum(x.unit[0] * x.unit[1] for b in blocks for x in b.pieces)
                   for blocks in sheets)

    # A sheet holding as many of a size as any sheet can (a deck's 9-up) is the layout a
    # cutter expects: among passes of as few sheets, the one with the most such sheets.
    most = {gi: n for gi, q in enumerate(queues)
            if (got := _shape(content(p), q[0].unit, len(q), bleed, True, False,
                              q[0].edge != GUTTER)) is not None
            for n in (got[0],)}

    def full(sheets: list[list[_Block]]) -> int:
        return sum(1 for blocks in sheets for b in blocks
                   if len(b.pieces) == most.get(group_of[id(b.pieces[0])], 0) > 1)

    chosen = min(tries, key=lambda t: (len(t), -full(t), -lowest(t)))
    return tuple(_sheet(p, _centred(p, blocks, bleed), bleed) for blocks in chosen)


def _sheet(p: Paper, blocks: list[_Block], bleed: float) -> Sheet:
    room = reserve(bleed)
    slots: list[Slot] = []
    marks: list[Line] = []
    folds: list[Line] = []
    for k, block in enumerate(blocks):
        others = [b.footprint(room) for j, b in enumerate(blocks) if j != k]
        got, units, fold_lines = _block_slots(block, bleed)
        slots += got
        box = (min(u[0] for u in units), min(u[1] for u in units),
               max(u[2] for u in units), max(u[3] for u in units))
        xs = sorted({round(v, 4) for u in units for v in (u[0], u[2])})
        ys = sorted({round(v, 4) for u in units for v in (u[1], u[3])})
        marks += edge_marks(p, box, xs, ys, bleed, others)
        fx = sorted({round(f[0], 4) for f in fold_lines if abs(f[0] - f[2]) < EPS})
        fy = sorted({round(f[1], 4) for f in fold_lines if abs(f[1] - f[3]) < EPS})
        folds += edge_marks(p, box, fx, fy, bleed, others)
    trims = [s.trim for s in slots]
    clips = [s.clip for s in slots]
    return Sheet(
        tuple(slots),
        tuple(marks),
        (min(t[0] for t in trims), min(t[1] for t in trims), max(t[2] for t in trims),
         max(t[3] for t in trims)),
        (min(c[0] for c in clips), min(c[1] for c in clips), max(c[2] for c in clips),
         max(c[3] for c in clips)),
        folds=tuple(folds),
    )


def _intersect(a: Rect, b: Rect) -> Rect:
    return max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])


def _block_slots(block: _Block, bleed: float) -> tuple[list[Slot], list[Rect], list[Line]]:
    """The faces of a block (both halves of a pair), each unit's trim, and the fold lines."""
    shape = block.shape
    cw, ch = shape.cell
    gap = shape.gap
    occupied = {(k // shape.cols, k % shape.cols) for k in range(len(block.pieces))}
    slots: list[Slot] = []
    units: list[Rect] = []
    folds: list[Line] = []
    for k, piece in enumerate(block.pieces):
        row, col = divmod(k, shape.cols)
        sx = block.x0 + col * (cw + gap)
        sy = block.top - (row + 1) * ch - row * gap
        trim = (sx, sy, sx + cw, sy + ch)
        units.append(trim)
        # Bleed on a side unless a unit butts against it there.
        left, below, right, above = (
            bleed if gap > 0 or (row + dr, col + dc) not in occupied else 0.0
            for dr, dc in ((0, -1), (1, 0), (0, 1), (-1, 0))
        )
        clip = (sx - left, sy - below, sx + cw + right, sy + ch + above)
        # Each unit turned by its own size: a block may hold a size both ways round.
        uw, uh = piece.unit
        turned = abs(uw - cw) > EPS or abs(uh - ch) > EPS
        t: Affine = (0.0, 1.0, -1.0, 0.0, sx + cw, sy) if turned else (
            1.0, 0.0, 0.0, 1.0, sx, sy)
        w, h = piece.width, piece.height
        if not piece.pair:
            slots.append(Slot(piece.index, t, trim, clip, component=piece.component))
            continue
        big = bleed + 1.0
        back_t = compose(t, (1.0, 0.0, 0.0, 1.0, w, 0.0))
        for side_t, half, back in ((t, (-big, -big, w, h + big), False),
                                   (t, (w, -big, 2 * w + big, h + big), True)):
            own = back_t if back else side_t
            slots.append(Slot(piece.index, own, map_rect(own, (0.0, 0.0, w, h)),
                              _intersect(clip, map_rect(side_t, half)),
                              component=piece.component, back=back))
        folds.append(map_line(t, (w, 0.0, w, h)))
    return slots, units, folds

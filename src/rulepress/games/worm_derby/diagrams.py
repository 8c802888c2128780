"""SVG diagrams of Worm Derby: one figure per example, the whole course with its pieces drawn as
the print-and-play piecepack prints them (pnp.py).

One convention for every example. The course lies on its side, as a race track: the start line
at the left, the pylon at the right, rows numbered along the top and columns lettered down the
left (column a, the racers' left, at the top). The grid of 1-inch cells; the start gate shaded
between the start tiles; the start tiles and the pylon face up (paper, with the word on them);
obstacles face down (the kit's slate backs, ruled into four cells); the pylon's rear line dashed;
each worm a chain of coins in its suit's colour and symbol; in Slalom the tiles' suits, with an
arrowhead on the side to pass. An example that moves shows the table after its moves, and each
worm's last turn in it: a dashed ring where that turn picked a disk up, an orange arrow beside
the cells its moving end went through (an earlier turn of the same worm leaves no mark: its
arrow would run past cells now empty), a dashed outline where a tile stood, and a refused move
in red. A full-size course is drawn at a
smaller scale, without the coins' symbols.

Cheap to render: each kind of thing is one path (the grid, all obstacles, each worm's disks and
its symbols), and all labels one text element with a position per character (WeasyPrint draws
every node on its own and anchors a text only as a whole, so labels are centred by hand).
Presentation only; the states come from the example's replay.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from html import escape

from rulepress.games.worm_derby.examples import Replay
from rulepress.games.worm_derby.grid import TILE, Grid, xy_name
from rulepress.games.worm_derby.moves import Move, Place, ShiftTile, Steps, parse_move
from rulepress.games.worm_derby.rules import State
from rulepress.plugin import DIAGRAM_FONT, PHONE_PX, Figure, Lettering, in_strips

SUIT_COLOUR = {"suns": "#c0392b", "moons": "#222222", "crowns": "#2e7d32", "arms": "#1f5fbf"}
SUIT_NAME = {"suns": "Suns", "moons": "Moons", "crowns": "Crowns", "arms": "Arms"}
INK = "#2b2620"  # the kit's ink, paper and tile backs (pnp.py)
PAPER = "#fbf6e9"
BACK = "#3c4a5c"
BACK_LINE = "#a9b7c9"
TABLE = "#f7f3e8"
GRID_LINE = "#d9d2bf"
GATE = "#f1dc8c"
LABEL = "#4d4a44"
MOVE = "#c96a00"  # dark enough to read in greyscale, apart from every suit's colour
REFUSED = "#d0021b"
SLALOM = {"start": "moons", "pylon": "crowns", "red": "suns", "blue": "arms"}

LABEL_SIZE = 9  # the one text size: row numbers, column letters, the words on tiles
BIG, SMALL = 12, 6  # units per cell: a practice course, a full-size course
WIDE = 14  # a course wider than this many columns is full-size
LEFT, TOP, EDGE = 12, 13, 4  # margins: column letters, row numbers, room for arrowheads
DISC = 0.375  # a coin's radius, in cells (a 3/4 in coin in a 1 in cell)


Point = tuple[float, float]


class Canvas:
    """Where a course's cells land in the figure: row y runs left to right, column x top to
    bottom."""

    def __init__(self, grid: Grid) -> None:
        self.grid = grid
        self.cs = BIG if grid.width <= WIDE else SMALL
        self.width = LEFT + grid.height * self.cs + EDGE
        self.height = TOP + grid.width * self.cs + EDGE

    def at(self, x: float, y: float) -> Point:
        """The figure's point at grid coordinates (x across the course, y along it)."""
        return LEFT + y * self.cs, TOP + x * self.cs

    def centre(self, cell: int) -> Point:
        x, y = self.grid.xy(cell)
        return self.at(x + 0.5, y + 0.5)

    def tile_box(self, anchor: int) -> tuple[float, float, float]:
        """(left, top, side) of the tile whose lowest-left cell is ``anchor``."""
        x, y = self.grid.xy(anchor)
        left, top = self.at(x, y)
        return left, top, TILE * self.cs

    def tile_centre(self, anchor: int) -> Point:
        left, top, side = self.tile_box(anchor)
        return left + side / 2, top + side / 2


def figures(rep: Replay, moves: Sequence[object]) -> list[Figure]:
    """The example as one figure: the table after its moves, with the moves drawn on it. No
    caption: the example's prose, just above, says what it shows."""
    played = [parse_move(m) for m in moves]
    refused = None
    if rep.illegal is not None:
        played, refused = played[:-1], played[-1]
    if rep.last_turn:  # a race: only each worm's last turn is drawn
        shown = {i for _, turn in rep.last_turn.values() for i in turn}
        marked = [m for i, m in enumerate(played) if i in shown]
        starts = {p: at for p, (at, _) in rep.last_turn.items()}
    else:  # set-up moves, or none
        marked, starts = played, {}
    svg = draw(rep.before, rep.after, played, refused, marked, starts)
    c = Canvas(rep.after.grid)
    if c.width * 9 / LABEL_SIZE <= PHONE_PX:
        return [Figure("", svg)]
    # For a phone: the course in two strips, cut between tiles, each with the column letters.
    half = -(-c.grid.height // (2 * TILE)) * TILE
    cut = float(LEFT + half * c.cs)
    letters = (0.0, float(LEFT))
    return [Figure("", svg, in_strips(svg, c.height, [[(0.0, cut)], [letters, (cut, c.width)]]))]


def draw(before: State, after: State, played: Sequence[Move] = (),
         refused: Move | None = None, marked: Sequence[Move] | None = None,
         starts: Mapping[int, State] | None = None) -> str:
    """The course with ``after``'s tiles and worms, after the moves ``played`` since
    ``before``; of these, the ``marked`` ones (default: all) as arrows, and rings where each
    worm's disks were picked up since ``starts`` (default: ``before``); a ``refused`` move in
    red."""
    c = Canvas(after.grid)
    worms = _worms(before, after, played)
    marked = played if marked is None else marked
    return "".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{c.width}" height="{c.height}" '
        f'viewBox="0 0 {c.width} {c.height}" font-family="{DIAGRAM_FONT}">',
        f"<title>{escape(_words(after, worms))}</title>",
        *_course(c, after),
        *_obstacles(c, before, after),
        *_refused_tile(c, refused),
        *(part for suit, cells in worms.items() for part in _worm(c, suit, cells)),
        *_ghosts(c, before, worms, starts or {}),
        *_arrows(c, marked, refused),
        "</svg>",
    ])


# --- the table ---------------------------------------------------------------------------


def _course(c: Canvas, s: State) -> list[str]:
    g, lay = c.grid, s.layout
    (x0, y0), (x1, y1) = c.at(0, 0), c.at(g.width, g.height)
    lines = "".join(f"M{c.at(0, j)[0]},{y0}V{y1}" for j in range(g.height + 1))
    lines += "".join(f"M{x0},{c.at(i, 0)[1]}H{x1}" for i in range(g.width + 1))
    gate = [g.xy(cell) for cell in lay.gate]
    (gx0, gy0) = c.at(min(x for x, _ in gate), min(y for _, y in gate))
    (gx1, gy1) = c.at(max(x for x, _ in gate) + 1, max(y for _, y in gate) + 1)
    rear = c.at(lay.axis, lay.pylon_row + TILE)
    out = [
        f'<rect x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}" fill="{TABLE}"/>',
        f'<rect x="{gx0}" y="{gy0}" width="{gx1 - gx0}" height="{gy1 - gy0}" fill="{GATE}"/>',
        f'<path d="{lines}" fill="none" stroke="{GRID_LINE}" stroke-width="0.5"/>',
        # the pylon's rear line: a worm crossing it behind the pylon has gone round
        f'<path d="M{rear[0]},{rear[1]}H{x1}" stroke="{INK}" stroke-width="1.2" '
        f'stroke-dasharray="3 2.5"/>',
    ]
    faces = {"start": lay.start, "pylon": (lay.pylon,), "red": lay.red, "blue": lay.blue}
    for kind, anchors in faces.items():
        if anchors:
            colour = SUIT_COLOUR[SLALOM[kind]] if lay.slalom else INK
            out.append(f'<path d="{_squares(c, anchors)}" fill="{PAPER}" stroke="{colour}" '
                       f'stroke-width="1.2"/>')
    for kind in ("red", "blue"):
        out += _slalom_signs(c, faces[kind], SLALOM[kind], kind == "red")
    out.append(_text([*_axis_labels(c), *_tile_words(c, lay.start, lay.pylon)], LABEL))
    return out


def _axis_labels(c: Canvas) -> list[tuple[float, float, str]]:
    """Row numbers above the course and column letters at its left; on a full-size course every
    fourth row and every other column."""
    g, big = c.grid, c.cs == BIG
    rows = [(c.at(0, y + 0.5)[0], TOP - 4, str(y + 1)) for y in range(0, g.height, 1 if big else 4)]
    columns = [(LEFT / 2, c.at(x + 0.5, 0)[1] + 0.34 * LABEL_SIZE, xy_name(x, 0)[0])
               for x in range(0, g.width, 1 if big else 2)]
    return rows + columns


def _tile_words(c: Canvas, start: Iterable[int], pylon: int) -> list[tuple[float, float, str]]:
    """'start' and 'pylon' on the face-up tiles; on a full-size course, where they do not fit,
    below the lower start tile and the pylon."""
    words = []
    for anchor, word in [*((a, "start") for a in start), (pylon, "pylon")]:
        cx, cy = c.tile_centre(anchor)
        if c.cs == BIG:
            words.append((cx, cy + 0.34 * LABEL_SIZE, word))
        elif word == "pylon" or anchor == max(start):
            words.append((cx, cy + TILE * c.cs / 2 + LABEL_SIZE, word))
    return words


def _slalom_signs(c: Canvas, anchors: Sequence[int], suit: str, right: bool) -> list[str]:
    """A Slalom tile's suit, and inside it, on the side to pass it (the racers' right is the
    bottom of the figure), an arrowhead pointing to the pylon."""
    if not anchors:
        return []
    heads = ""
    k = c.cs * 0.22
    for a in anchors:
        left, top, side = c.tile_box(a)
        mid_y = top + side - 1.5 * k if right else top + 1.5 * k
        tip = left + side / 2 + 1.2 * k
        heads += f"M{tip:g},{mid_y:g}l{-2 * k:g},{-k:g}v{2 * k:g}z"
    return [_symbols((c.tile_centre(a) for a in anchors), suit, c.cs * 0.36),
            f'<path d="{heads}" fill="{SUIT_COLOUR[suit]}"/>']


def _squares(c: Canvas, anchors: Iterable[int], inset: float = 0.6) -> str:
    d = ""
    for a in anchors:
        x, y, side = c.tile_box(a)
        d += f"M{x + inset},{y + inset}h{side - 2 * inset}v{side - 2 * inset}h{2 * inset - side}z"
    return d


def _obstacles(c: Canvas, before: State, after: State) -> list[str]:
    """Face-down tiles as the kit prints their backs; where a tile was moved from, a dashed
    outline."""
    out = []
    if after.obstacles:
        cross = ""
        for a in after.obstacles:
            x, y, side = c.tile_box(a)
            cross += f"M{x + side / 2},{y + 1.5}v{side - 3}M{x + 1.5},{y + side / 2}h{side - 3}"
        out += [f'<path d="{_squares(c, after.obstacles)}" fill="{BACK}"/>',
                f'<path d="{cross}" stroke="{BACK_LINE}" stroke-width="0.8"/>']
    gone = [a for a in before.obstacles if a not in after.obstacles]
    if gone:
        out.append(f'<path d="{_squares(c, gone, 1.2)}" fill="none" stroke="{BACK}" '
                   f'stroke-width="1.2" stroke-dasharray="3 2"/>')
    return out


def _refused_tile(c: Canvas, refused: Move | None) -> list[str]:
    """A tile refused in set-up, outlined in red where it would have gone."""
    if not isinstance(refused, Place):
        return []
    anchor = c.grid.index(*refused.anchor)
    return [f'<path d="{_squares(c, [anchor], 1.2)}" fill="none" stroke="{REFUSED}" '
            f'stroke-width="1.6" stroke-dasharray="3 2"/>']


# --- worms ---------------------------------------------------------------------------------


def _worms(before: State, after: State, played: Sequence[Move]) -> dict[str, tuple[int, ...]]:
    """Each worm's cells, end to end, as the figure shows it: where ``after`` has it, or, for a
    worm that finished in these moves (and left the table), where its last step laid it."""
    out = {}
    for p, suit in enumerate(after.players):
        worm = after.worms[p]
        if worm is not None:
            out[suit] = worm.cells
            continue
        was = before.worms[p]
        if was is None:
            continue
        cells = was.cells
        for move in played:
            if isinstance(move, Steps) and move.path:
                cells = _walk(cells, tuple(before.grid.index(*xy) for xy in move.path))
        out[suit] = cells
    return out


def _walk(cells: tuple[int, ...], path: tuple[int, ...]) -> tuple[int, ...]:
    """A worm's cells after the steps ``path`` (its leading end, then each cell laid), if the
    path starts at one of its ends; else unchanged."""
    if path[0] == cells[-1]:
        seq = list(cells)
    elif path[0] == cells[0]:
        seq = list(reversed(cells))
    else:
        return cells
    for cell in path[1:]:
        seq = [*seq[1:], cell]
    return tuple(seq)


def _circles(c: Canvas, cells: Iterable[int]) -> str:
    r = c.cs * DISC
    d = ""
    for cell in cells:
        x, y = c.centre(cell)
        d += f"M{x - r},{y}a{r},{r} 0 1 0 {2 * r},0a{r},{r} 0 1 0 {-2 * r},0"
    return d


def _worm(c: Canvas, suit: str, cells: Sequence[int]) -> list[str]:
    """The chain between the disks, the disks (coins, suit side up) and, where they fit, the
    suit's symbol on each."""
    colour = SUIT_COLOUR[suit]
    chain = "M" + "L".join(f"{x},{y}" for x, y in (c.centre(cell) for cell in cells))
    out = [
        f'<path d="{chain}" fill="none" stroke="{colour}" stroke-width="{c.cs * 0.2}" '
        f'stroke-linejoin="round"/>',
        f'<path d="{_circles(c, cells)}" fill="{PAPER}" stroke="{colour}" '
        f'stroke-width="{1.3 if c.cs == BIG else 1.1}"/>',
    ]
    if c.cs == BIG:
        out.append(_symbols((c.centre(cell) for cell in cells), suit, c.cs * 0.27))
    return out


def _symbols(places: Iterable[Point], suit: str, r: float) -> str:
    """The suit's symbol, as the kit draws it on coins and tiles, at each point: one path."""
    shape = {"suns": _sun, "moons": _moon, "crowns": _crown, "arms": _arms}[suit]
    d = "".join(shape(x, y, r) for x, y in places)
    return f'<path d="{d}" fill="{SUIT_COLOUR[suit]}"/>'


def _sun(x: float, y: float, r: float) -> str:
    """A disc with twelve rays: a star of 24 points."""
    pts = []
    for i in range(24):
        a = math.pi * i / 12
        k = r if i % 2 == 0 else r * 0.55
        pts.append(f"{x + k * math.cos(a):.2f},{y + k * math.sin(a):.2f}")
    return "M" + "L".join(pts) + "z"


def _moon(x: float, y: float, r: float) -> str:
    """A crescent opening to the right."""
    tx, ty = x + r * 0.45, y - r * 0.8
    return (f"M{tx:.2f},{ty:.2f}A{r * 0.92:.2f},{r * 0.92:.2f} 0 1 0 {tx:.2f},{2 * y - ty:.2f}"
            f"A{r * 0.72:.2f},{r * 0.72:.2f} 0 1 1 {tx:.2f},{ty:.2f}z")


def _crown(x: float, y: float, r: float) -> str:
    """A band with three points."""
    pts = [(-0.9, 0.7), (-0.95, -0.5), (-0.45, 0.0), (0.0, -0.85), (0.45, 0.0), (0.95, -0.5),
           (0.9, 0.7)]
    return "M" + "L".join(f"{x + a * r:.2f},{y + b * r:.2f}" for a, b in pts) + "z"


def _arms(x: float, y: float, r: float) -> str:
    """A fleur-de-lis: a tall middle petal, two curled side petals and a foot."""
    def p(a: float, b: float) -> str:
        return f"{x + a * r:.2f},{y + b * r:.2f}"

    middle = (f"M{p(0, -1)}Q{p(0.5, -0.3)} {p(0.12, 0.2)}"
              f"L{p(-0.12, 0.2)}Q{p(-0.5, -0.3)} {p(0, -1)}z")
    sides = "".join(f"M{p(0.1 * s, 0.15)}Q{p(0.95 * s, 0.1)} {p(0.8 * s, -0.55)}"
                    f"Q{p(0.55 * s, -0.05)} {p(0.1 * s, 0.35)}z" for s in (-1, 1))
    band = f"M{p(-0.55, 0.3)}h{r * 1.1:.2f}v{r * 0.2:.2f}h{-r * 1.1:.2f}z"
    foot = f"M{p(-0.15, 0.5)}L{p(-0.3, 0.95)}L{p(0.3, 0.95)}L{p(0.15, 0.5)}z"
    return middle + sides + band + foot


def _ghosts(c: Canvas, before: State, shown: Mapping[str, Sequence[int]],
            starts: Mapping[int, State]) -> list[str]:
    """A dashed ring, in the worm's colour, where each of its disks was picked up since its
    turn began (``starts``, else ``before``)."""
    out = []
    for p, suit in enumerate(before.players):
        was = starts.get(p, before).worms[p]
        if was is None or suit not in shown:
            continue
        gone = [cell for cell in was.cells if cell not in shown[suit]]
        if gone:
            out.append(f'<path d="{_circles(c, gone)}" fill="none" '
                       f'stroke="{SUIT_COLOUR[suit]}" stroke-width="1" '
                       f'stroke-dasharray="2 1.6"/>')
    return out


def _arrows(c: Canvas, played: Sequence[Move], refused: Move | None) -> list[str]:
    """An arrow along each worm's move and each tile's; a refused move dashed, in red, with a
    cross where it would end."""
    lines, heads = "", ""
    for move in played:
        track = _track(c, move)
        if track:
            lines += _polyline(track)
            heads += _head(track)
    out = []
    if lines:
        out += [f'<path d="{lines}" fill="none" stroke="{MOVE}" stroke-width="1.6" '
                f'stroke-linejoin="round"/>', f'<path d="{heads}" fill="{MOVE}"/>']
    track = _track(c, refused) if isinstance(refused, Steps) else []
    if track:
        (x, y), k = track[-1], c.cs * 0.3
        cross = f"M{x - k:g},{y - k:g}l{2 * k:g},{2 * k:g}M{x - k:g},{y + k:g}l{2 * k:g},{-2 * k:g}"
        out.append(f'<path d="{_polyline(track)}{cross}" fill="none" stroke="{REFUSED}" '
                   f'stroke-width="1.6" stroke-dasharray="3 2"/>')
    return out


def _polyline(points: Sequence[Point]) -> str:
    return "M" + "L".join(f"{x:g},{y:g}" for x, y in points)


def _track(c: Canvas, move: Move | None) -> list[Point]:
    """Points an arrow follows: a worm's move runs beside its disks, through the corners of its
    cells (so it never hides a symbol), from the end that led to the last cell laid; a tile's,
    from centre to centre."""
    g = c.grid
    if isinstance(move, Steps) and len(move.path) > 1:
        return [c.at(x + 1, y + 1) for x, y in move.path]
    if isinstance(move, ShiftTile):
        return [c.tile_centre(g.index(*move.src)), c.tile_centre(g.index(*move.dst))]
    return []


def _head(track: Sequence[Point]) -> str:
    """A filled arrowhead at the end of ``track``, along its last segment."""
    (x0, y0), (x1, y1) = track[-2], track[-1]
    length = max(math.hypot(x1 - x0, y1 - y0), 1e-9)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    k, w = 5.0, 3.0
    bx, by = x1 - ux * k, y1 - uy * k
    return f"M{x1:g},{y1:g}L{bx - uy * w:g},{by + ux * w:g}L{bx + uy * w:g},{by - ux * w:g}z"


# --- text ----------------------------------------------------------------------------------


def _text(labels: Iterable[tuple[float, float, str]], fill: str) -> str:
    """Labels centred on their x, in one text element with one position per character."""
    lettering = Lettering(LABEL_SIZE)
    for cx, y, word in labels:
        lettering.add(cx, y, word, centre=True)
    return lettering.svg(f'font-size="{LABEL_SIZE}" fill="{fill}"')


def _words(s: State, worms: Mapping[str, Sequence[int]]) -> str:
    """The figure in words, for readers who cannot see it."""
    g = s.grid
    parts = [f"A course of {g.width} by {g.height} cells"]
    if s.obstacles:
        parts.append("obstacles at " + ", ".join(g.name(a) for a in s.obstacles))
    for suit, cells in worms.items():
        parts.append(f"{SUIT_NAME[suit]} worm from {g.name(cells[0])} to {g.name(cells[-1])}")
    return "; ".join(parts) + "."

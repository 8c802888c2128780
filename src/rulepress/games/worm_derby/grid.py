"""The grid model of Worm Derby's table: the one place that says how the table maps to cells.

The original is played freely on a table. Here one cell holds one coin (a 3/4 in disk in a
1 in cell), a tile covers 2x2 cells, disks touch when they are orthogonal neighbours, and one
free cell is a gap a worm can pass. Change the model here and everything else follows.

Cells are ints (``y * width + x``) inside the engine for speed; their notation is the column
letter and the row number, ``e7`` = x 4, y 6. Row 1 is behind the start line, columns run
left to right for a racer facing the pylon.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from rulepress.plugin import NotationError

TILE = 2  # cells per tile side: a 2 in tile over 1 in cells
CELL_INCHES = 1.0  # physical size of a cell, for the rulebook's conversions
INCHES_PER_FOOT = 12
MAX_WIDTH = 26  # columns are single letters a..z
TILE_REACH_SQ = TILE * TILE  # an ace moves a tile by at most one tile width (Euclidean)

_CELL = re.compile(r"^([a-z])([1-9][0-9]*)$")


def cells_from_feet(feet: float) -> int:
    return round(feet * INCHES_PER_FOOT / CELL_INCHES)


def cells_from_tiles(tiles: float) -> int:
    return round(tiles * TILE)


@lru_cache(maxsize=4096)  # sorting moves names every cell of every path
def xy_name(x: int, y: int) -> str:
    return f"{chr(ord('a') + x)}{y + 1}"


def parse_xy(text: str) -> tuple[int, int]:
    m = _CELL.match(str(text).strip().lower())
    if not m:
        raise NotationError(f"'{text}' is not a cell: write a column letter and a row, e.g. e7")
    return ord(m.group(1)) - ord("a"), int(m.group(2)) - 1


@dataclass(frozen=True)
class Grid:
    """A rectangular table of cells."""

    width: int
    height: int

    def __post_init__(self) -> None:
        if not (TILE <= self.width <= MAX_WIDTH) or not (TILE <= self.height <= 99):
            raise NotationError(f"a course is 2 to {MAX_WIDTH} columns and 2 to 99 rows")

    def index(self, x: int, y: int) -> int:
        return y * self.width + x

    def xy(self, cell: int) -> tuple[int, int]:
        return cell % self.width, cell // self.width

    @property
    def coords(self) -> tuple[tuple[int, int], ...]:
        """``xy`` of every cell, by index: for listing moves in bulk."""
        return _coords(self.width, self.height)

    def inside(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def name(self, cell: int) -> str:
        return xy_name(cell % self.width, cell // self.width)

    def parse(self, text: str) -> int:
        x, y = parse_xy(text)
        if not self.inside(x, y):
            raise NotationError(f"'{text}' is off the course ({self.width}x{self.height} cells)")
        return self.index(x, y)

    @property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """Orthogonal neighbours of every cell: the only way disks touch."""
        return _neighbours(self.width, self.height)

    def tile_fits(self, anchor: int) -> bool:
        x, y = self.xy(anchor)
        return x + TILE <= self.width and y + TILE <= self.height

    def tile_cells(self, anchor: int) -> tuple[int, ...]:
        """The cells a tile covers; a tile is named by its lowest-left cell."""
        return _tile_cells(self.width, anchor)

    def tile_bits(self, anchor: int) -> int:
        """The cells a tile covers as a bit set (bit ``c`` for cell ``c``)."""
        return _tile_bits(self.width, anchor)

    def ring(self, anchor: int) -> tuple[int, ...]:
        """Cells bordering a tile (diagonals included), on the board."""
        return _ring(self.width, self.height, anchor)

    def ring_bits(self, anchor: int) -> tuple[int, int]:
        """The ring as a bit set, and how many cells it has."""
        return _ring_bits(self.width, self.height, anchor)

    def ring_loop(self, anchor: int) -> tuple[int, ...]:
        """The ring in order round the tile (each cell an orthogonal neighbour of the next, the
        last of the first); empty when the tile is at the edge of the board."""
        return _ring_loop(self.width, self.height, anchor)

    def tile_gap(self, a: int, b: int) -> int:
        """Free cells between two tiles along the wider direction (Chebyshev); -1 if overlapping."""
        ax, ay = self.xy(a)
        bx, by = self.xy(b)
        gx = max(bx - (ax + TILE), ax - (bx + TILE))
        gy = max(by - (ay + TILE), ay - (by + TILE))
        return max(gx, gy, -1)

    def tile_shift_ok(self, src: int, dst: int) -> bool:
        """A tile moves at most one tile width (measured between its positions)."""
        sx, sy = self.xy(src)
        dx, dy = self.xy(dst)
        return 0 < (dx - sx) ** 2 + (dy - sy) ** 2 <= TILE_REACH_SQ


@lru_cache(maxsize=16)
def _coords(width: int, height: int) -> tuple[tuple[int, int], ...]:
    return tuple((c % width, c // width) for c in range(width * height))


@lru_cache(maxsize=16)
def _neighbours(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    out = []
    for c in range(width * height):
        x, y = c % width, c // width
        out.append(tuple((y + dy) * width + x + dx
                         for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0))
                         if 0 <= x + dx < width and 0 <= y + dy < height))
    return tuple(out)


@lru_cache(maxsize=8192)
def _tile_cells(width: int, anchor: int) -> tuple[int, ...]:
    return tuple(anchor + j * width + i for j in range(TILE) for i in range(TILE))


@lru_cache(maxsize=8192)
def _tile_bits(width: int, anchor: int) -> int:
    return sum(1 << c for c in _tile_cells(width, anchor))


@lru_cache(maxsize=8192)
def _ring_bits(width: int, height: int, anchor: int) -> tuple[int, int]:
    ring = _ring(width, height, anchor)
    return sum(1 << c for c in ring), len(ring)


@lru_cache(maxsize=8192)
def _ring_loop(width: int, height: int, anchor: int) -> tuple[int, ...]:
    x, y = anchor % width, anchor // width
    if not (0 < x < width - TILE and 0 < y < height - TILE):
        return ()
    side = TILE + 1
    walk = [(x - 1 + i, y - 1) for i in range(side)] + [(x + TILE, y - 1 + j) for j in range(side)]
    walk += [(x + TILE - i, y + TILE) for i in range(side)]
    walk += [(x - 1, y + TILE - j) for j in range(side)]
    return tuple(cy * width + cx for cx, cy in walk)


@lru_cache(maxsize=8192)
def _ring(width: int, height: int, anchor: int) -> tuple[int, ...]:
    x, y = anchor % width, anchor // width
    return tuple((y + j) * width + x + i
                 for j in range(-1, TILE + 1) for i in range(-1, TILE + 1)
                 if not (0 <= i < TILE and 0 <= j < TILE)
                 and 0 <= x + i < width and 0 <= y + j < height)

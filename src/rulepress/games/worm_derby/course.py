"""The fixed race course: start line, pylon, Slalom tiles, and the lines that measure progress.

Progress is counted by lines a worm crosses, the way a winding number is:
- the pylon's rear line runs along the course's axis from the pylon's far edge to the table's
  edge; a worm has gone round the far side of the pylon when it has crossed it a net non-zero
  number of times (either way round);
- in Slalom each tile has a line through its middle, across the course, split into a left and
  a right half; a tile is passed on the right side when the right half was crossed once towards
  the pylon and the left half not at all (net).
Each disk of a worm carries the count of the end it was laid against, plus what the step
crossed, so both ends know their own progress through reversals and bites.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property, lru_cache

from rulepress.games.worm_derby.grid import (
    TILE,
    Grid,
    cells_from_feet,
    cells_from_tiles,
)
from rulepress.plugin import NotationError

Mark = tuple[int, ...]  # (pylon count, then per Slalom tile: right-side count, wrong-side count)
SETUP_ZONE = 3 * TILE  # obstacles keep three tile widths from the start line and the pylon
STANDARD_WIDTH = cells_from_tiles(12)  # two feet of table across the course
STANDARD_GATE = cells_from_tiles(4)  # start tiles about four tile widths apart
STANDARD_LENGTH = cells_from_feet(3)  # the pylon three feet from the start line
BEHIND = cells_from_tiles(4)  # table behind the start line and beyond the pylon
WORM_LENGTH = 6
SLALOM_FIRST = 3 * TILE  # first Slalom tile three tile widths from the start line
SLALOM_GAP = TILE + 1  # "a little more than one tile length apart"
SLALOM_PYLON = 2 * TILE  # pylon two tile widths beyond the last Slalom tile


class CourseError(ValueError):
    """A course that cannot be laid out."""


@dataclass(frozen=True)
class Layout:
    """The tiles that never move, on a grid. Slalom tiles are red (pass right) or blue (left)."""

    grid: Grid
    start: tuple[int, int]
    pylon: int
    red: tuple[int, ...] = ()
    blue: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        g = self.grid
        left, right = sorted(self.start)
        (lx, ly), (rx, ry) = g.xy(left), g.xy(right)
        px, py = g.xy(self.pylon)
        for a in (*self.start, self.pylon, *self.red, *self.blue):
            if not g.tile_fits(a):
                raise CourseError(f"tile {g.name(a)} does not fit on the course")
        if ly != ry or rx - lx - TILE < TILE or (rx - lx - TILE) % 2:
            raise CourseError("the start tiles sit on one row with an even gap of at least 2 cells")
        if ly < 1 or py <= ly + TILE or 2 * (px + 1) != lx + TILE + rx:
            raise CourseError("the pylon sits on the axis of the start line, beyond it")
        tiles = self.fixed_anchors
        for i, a in enumerate(tiles):
            for b in tiles[i + 1:]:
                if g.tile_gap(a, b) < 0:
                    raise CourseError(f"tiles {g.name(a)} and {g.name(b)} overlap")

    @property
    def fixed_anchors(self) -> tuple[int, ...]:
        return (*self.start, self.pylon, *self.red, *self.blue)

    @property
    def slalom(self) -> bool:
        return bool(self.red or self.blue)

    @cached_property
    def axis(self) -> int:
        """The axis is the grid line left of this column (between axis-1 and axis)."""
        return self.grid.xy(self.pylon)[0] + 1

    @cached_property
    def start_row(self) -> int:
        return self.grid.xy(self.start[0])[1]

    @cached_property
    def pylon_row(self) -> int:
        return self.grid.xy(self.pylon)[1]

    @cached_property
    def gate(self) -> frozenset[int]:
        """The cells between the two start tiles."""
        g = self.grid
        left, right = sorted(self.start)
        x0 = g.xy(left)[0] + TILE
        x1 = g.xy(right)[0]
        return frozenset(g.index(x, self.start_row + j) for x in range(x0, x1) for j in range(TILE))

    @cached_property
    def gate_columns(self) -> tuple[int, ...]:
        g = self.grid
        return tuple(sorted({g.xy(c)[0] for c in self.gate}))

    @cached_property
    def fixed_cells(self) -> frozenset[int]:
        g = self.grid
        return frozenset(c for a in self.fixed_anchors for c in g.tile_cells(a))

    @cached_property
    def gates(self) -> tuple[tuple[int, str], ...]:
        """Slalom tiles in course order (nearest the start first), with their colour."""
        tiles = [(a, "red") for a in self.red] + [(a, "blue") for a in self.blue]
        return tuple(sorted(tiles, key=lambda t: (self.grid.xy(t[0])[1], self.grid.xy(t[0])[0])))

    @cached_property
    def zero(self) -> Mark:
        return (0,) * (1 + 2 * len(self.gates))

    @cached_property
    def crossings(self) -> dict[tuple[int, int], tuple[tuple[int, int], ...]]:
        """Directed steps that cross a counting line: (from, to) -> ((slot, sign), ...)."""
        g = self.grid
        out: dict[tuple[int, int], list[tuple[int, int]]] = {}

        def add(a: int, b: int, slot: int) -> None:
            out.setdefault((a, b), []).append((slot, 1))
            out.setdefault((b, a), []).append((slot, -1))

        for y in range(self.pylon_row + TILE, g.height):  # left to right across the rear line
            add(g.index(self.axis - 1, y), g.index(self.axis, y), 0)
        for i, (anchor, colour) in enumerate(self.gates):
            tx, ty = g.xy(anchor)
            for x in range(g.width):
                if tx <= x < tx + TILE:
                    continue
                right = x >= tx + TILE
                good = right if colour == "red" else not right
                add(g.index(x, ty), g.index(x, ty + 1), 1 + 2 * i + (0 if good else 1))
        return {k: tuple(v) for k, v in out.items()}

    def advance(self, mark: Mark, a: int, b: int) -> Mark:
        """The mark of a disk laid on b against the end disk on a."""
        delta = self.crossings.get((a, b))
        if delta is None:
            return mark
        m = list(mark)
        for slot, sign in delta:
            # Slalom lines stop counting once the pylon is rounded: the way back is free.
            if slot == 0 or mark[0] == 0:
                m[slot] += sign
        return tuple(m)

    def gate_status(self, mark: Mark) -> tuple[str, ...]:
        out = []
        for i in range(len(self.gates)):
            good, bad = mark[1 + 2 * i], mark[2 + 2 * i]
            if good == 1 and bad == 0:
                out.append("passed")
            elif good == 0 and bad == 0:
                out.append("not passed")
            else:
                out.append("wrong side")
        return tuple(out)

    def rounded(self, mark: Mark) -> bool:
        """Has this end gone round the far side of the pylon (after every Slalom tile)?"""
        if mark[0] == 0:
            return False
        return all(mark[1 + 2 * i] == 1 and mark[2 + 2 * i] == 0 for i in range(len(self.gates)))

    def mark_along(self, cells: Iterable[int], first: Mark) -> tuple[Mark, ...]:
        """Marks of a worm's disks given the mark of its first disk."""
        out: list[Mark] = []
        prev = -1
        for c in cells:
            out.append(first if prev < 0 else self.advance(out[-1], prev, c))
            prev = c
        return tuple(out)

    @cached_property
    def ray_edges(self) -> tuple[tuple[int, int], ...]:
        """Left-to-right steps across the pylon's rear line."""
        return tuple(k for k, v in self.crossings.items() if v[0] == (0, 1))

    @cached_property
    def ray_barrier(self) -> tuple[int, int]:
        """The rear line as bit sets: the cells no step may leave rightwards, and leftwards."""
        return sum(1 << a for a, _ in self.ray_edges), sum(1 << b for _, b in self.ray_edges)

    def open_course(self, blocked: frozenset[int] | set[int]) -> bool:
        """Is there a path of free cells from the start gate round behind the pylon?"""
        return self.open_bits(sum(1 << c for c in blocked))

    def open_bits(self, blocked: int) -> bool:
        """:meth:`open_course` with the blocked cells as a bit set."""
        w = self.grid.width
        free = self.all_bits & ~blocked
        seen = free & self.gate_bits
        not_left, not_right = self.edge_masks
        while True:  # flood fill on a bit set: a few big-int operations per ring of cells
            grown = seen | ((seen << 1) & not_left) | ((seen >> 1) & not_right) \
                | (seen << w) | (seen >> w)
            grown &= free
            if grown == seen:
                break
            seen = grown
        return any(seen >> a & 1 and seen >> b & 1 for a, b in self.ray_edges)

    @cached_property
    def ray_bits(self) -> int:
        """The cells on either side of the pylon's rear line."""
        return sum(1 << a | 1 << b for a, b in self.ray_edges)

    @cached_property
    def gate_bits(self) -> int:
        return sum(1 << c for c in self.gate)

    @cached_property
    def setup_zone(self) -> tuple[int, ...]:
        """Anchors where :meth:`in_setup_zone` allows an obstacle, in cell order."""
        return _setup_zone(self)

    @cached_property
    def setup_set(self) -> frozenset[int]:
        return frozenset(self.setup_zone)

    @cached_property
    def all_bits(self) -> int:
        """Every cell of the grid as a bit set."""
        return (1 << (self.grid.width * self.grid.height)) - 1

    @cached_property
    def edge_masks(self) -> tuple[int, int]:
        """Masks without column 0 (targets of a shift left->right) and without the last column."""
        g = self.grid
        col0 = sum(1 << g.index(0, y) for y in range(g.height))
        last = sum(1 << g.index(g.width - 1, y) for y in range(g.height))
        return self.all_bits & ~col0, self.all_bits & ~last

    def in_setup_zone(self, anchor: int) -> bool:
        """May an obstacle be placed here during set-up (ignoring other obstacles)?"""
        g = self.grid
        if not g.tile_fits(anchor):
            return False
        y = g.xy(anchor)[1]
        if y < self.start_row + TILE or y + TILE > self.pylon_row:
            return False
        left, right = sorted(self.start)
        near_line = min(g.tile_gap(anchor, left), g.tile_gap(anchor, right))
        # the start line includes the gap between its tiles
        ax, _ = g.xy(anchor)
        lx = g.xy(left)[0]
        rx = g.xy(right)[0] + TILE
        if ax + TILE > lx and ax < rx:
            near_line = min(near_line, y - (self.start_row + TILE))
        return near_line >= SETUP_ZONE and g.tile_gap(anchor, self.pylon) >= SETUP_ZONE


@lru_cache(maxsize=64)  # every game deals a fresh Layout, mostly equal to the last one
def _setup_zone(layout: Layout) -> tuple[int, ...]:
    g = layout.grid
    rows = range(layout.start_row + TILE, layout.pylon_row - TILE + 1)  # the zone's rows at most
    return tuple(a for y in rows for x in range(g.width)
                 if layout.in_setup_zone(a := g.index(x, y)))


def standard_layout(length: int = STANDARD_LENGTH, width: int = STANDARD_WIDTH,
                    gate: int = STANDARD_GATE, slalom: str = "") -> Layout:
    """The standard course: start tiles `gate` cells apart, worms' room behind them, the pylon
    `length` cells beyond the start line (or after the Slalom tiles, colours given as "RBBR")."""
    if width % 2 or gate % 2:
        raise CourseError("course and gate widths are even so the course has an axis")
    start_row = BEHIND  # four tile widths of table behind the start line
    mid = width // 2
    y_line = start_row + TILE
    red_rows: list[int] = []
    blue_rows: list[int] = []
    if slalom:
        y = y_line + SLALOM_FIRST
        for ch in slalom.upper():
            if ch not in "RB":
                raise CourseError(f"Slalom tiles are R (red) or B (blue), not '{ch}'")
            (red_rows if ch == "R" else blue_rows).append(y)
            y += TILE + SLALOM_GAP
        length = y - SLALOM_GAP + SLALOM_PYLON - y_line
    height = y_line + length + TILE + BEHIND
    g = Grid(width, height)
    left = g.index(mid - gate // 2 - TILE, start_row)
    right = g.index(mid + gate // 2, start_row)
    pylon = g.index(mid - 1, y_line + length)
    reds = tuple(g.index(mid - 1, y) for y in red_rows)
    blues = tuple(g.index(mid - 1, y) for y in blue_rows)
    return Layout(g, (left, right), pylon, reds, blues)


def parse_tiles(grid: Grid, items: object, what: str) -> tuple[int, ...]:
    if items is None:
        return ()
    if isinstance(items, str):
        items = items.replace(",", " ").split()
    if not isinstance(items, list | tuple):
        raise NotationError(f"{what}: a list of tile cells, e.g. [e9, g14]")
    return tuple(grid.parse(str(t)) for t in items)

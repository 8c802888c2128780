"""Moves and die faces, and their short notation. Every move is a frozen value: ``str`` gives
its notation, :func:`parse_move` reads it back, and ``repr`` pastes back as
``Move.parse('e7-e8-f8')``.

- ``roll 4``    the die comes up 4 (``roll null``, ``roll ace``, ``roll 2`` .. ``roll 5``): chance
- ``e7-e8-f8``  a worm's move: the cell of the leading end disk, then each cell a disk is laid on
- ``e7-e8xe9``  the last step bites (Cannibal): the disk is laid on another worm's end disk
- ``stuck``     a worm that cannot take a single step
- ``k12>l13``   an ace moves the obstacle tile at k12 (its lowest-left cell) to l13
- ``pass``      an ace used to roll again without moving an obstacle
- ``+e5``       an ace used to add an eaten disk back at e5 (Cannibal)
- ``place k12`` set-up: an obstacle tile placed with its lowest-left cell at k12
- ``build f7``  set-up: a worm built straight back from its end disk at f7 in the start gate
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulepress.games.worm_derby.grid import parse_xy, xy_name
from rulepress.plugin import NotationError

XY = tuple[int, int]

NULL, ACE = 0, 1
FACES = (NULL, ACE, 2, 3, 4, 5)
_FACE_NAMES = {NULL: "null", ACE: "ace"}


def face_name(face: int) -> str:
    return _FACE_NAMES.get(face, str(face))


def parse_face(value: object) -> int:
    """A die face from YAML: null (also YAML's null), ace, or 2..5 (``1`` means ace)."""
    if value is None:
        return NULL
    text = str(value).strip().lower()
    if text in ("null", "blank", "0"):
        return NULL
    if text in ("ace", "a", "1"):
        return ACE
    if text in ("2", "3", "4", "5"):
        return int(text)
    raise NotationError(f"'{value}' is not a die face: null, ace, 2, 3, 4 or 5")


class _Notation:
    """``repr`` as the expression that reads the move again."""

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


@dataclass(frozen=True, repr=False)
class Roll(_Notation):
    """The die of the player to move comes up ``face``: a chance outcome."""

    face: int

    def __str__(self) -> str:
        return f"roll {face_name(self.face)}"


ROLLS = tuple(Roll(face) for face in FACES)


@dataclass(frozen=True, repr=False)
class Steps(_Notation):
    """A worm's move; an empty path means it could not step at all."""

    path: tuple[XY, ...]
    eats: bool = False

    @property
    def count(self) -> int:
        return max(len(self.path) - 1, 0)

    def __str__(self) -> str:
        if not self.path:
            return "stuck"
        names = [xy_name(*c) for c in self.path]
        if self.eats:
            return "-".join(names[:-1]) + "x" + names[-1]
        return "-".join(names)


@dataclass(frozen=True, repr=False)
class ShiftTile(_Notation):
    src: XY
    dst: XY

    def __str__(self) -> str:
        return f"{xy_name(*self.src)}>{xy_name(*self.dst)}"


@dataclass(frozen=True, repr=False)
class Pass(_Notation):
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, repr=False)
class Regrow(_Notation):
    cell: XY

    def __str__(self) -> str:
        return f"+{xy_name(*self.cell)}"


@dataclass(frozen=True, repr=False)
class Place(_Notation):
    anchor: XY

    def __str__(self) -> str:
        return f"place {xy_name(*self.anchor)}"


@dataclass(frozen=True, repr=False)
class Build(_Notation):
    cell: XY

    def __str__(self) -> str:
        return f"build {xy_name(*self.cell)}"


Move = Roll | Steps | ShiftTile | Pass | Regrow | Place | Build

# The cells laid by steps, then the bitten one. A cell ends with its row number, so an "x" after
# digits marks the bite and an "x" after "-" is the column x.
_STEPS = re.compile(r"^(?P<steps>[a-z][0-9]+(?:-[a-z][0-9]+)*)(?:x(?P<bite>[a-z][0-9]+))?$")


def parse_move(text: object) -> Move:
    t = str(text).strip().lower()
    if t.startswith("roll "):
        return Roll(parse_face(t[5:]))
    if t == "stuck":
        return Steps(())
    if t == "pass":
        return Pass()
    if t.startswith("place "):
        return Place(parse_xy(t[6:]))
    if t.startswith("build "):
        return Build(parse_xy(t[6:]))
    if t.startswith("+"):
        return Regrow(parse_xy(t[1:]))
    if ">" in t:
        a, _, b = t.partition(">")
        return ShiftTile(parse_xy(a), parse_xy(b))
    steps = _STEPS.match(t)
    if steps:
        bite = steps["bite"]
        cells = tuple(parse_xy(c) for c in (*steps["steps"].split("-"), *([bite] if bite else [])))
        if len(cells) < 2:
            raise NotationError(f"'{text}' names only one cell: a move lists the end and its steps")
        return Steps(cells, bite is not None)
    raise NotationError(
        f"'{text}' is not a move: e.g. e7-e8-f8, e7-e8xe9, stuck, k12>l13, pass, +e5, roll 4")


def parse_worm(value: object) -> tuple[XY, ...]:
    """A worm written as its cells from one end to the other: [e3, e4, e5] or "e3-e4-e5"."""
    if isinstance(value, str):
        items: list[object] = [p for p in re.split(r"[-,\s]+", value.strip()) if p]
    elif isinstance(value, list | tuple):
        items = list(value)
    else:
        raise NotationError("a worm is a list of cells from one end to the other")
    return tuple(parse_xy(str(c)) for c in items)

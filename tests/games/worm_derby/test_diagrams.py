"""Every Worm Derby figure is the whole course drawn one way, its pieces as the kit prints them:
the start line at the left and the pylon at the right, column a at the top; each worm's disks
where the example leaves them, a dashed ring where a disk was picked up, an arrow for each move,
a refused move in red. Labels are legible without widening the figure, and a figure stays cheap
to render."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from rulepress.document.reader import read_document
from rulepress.games.worm_derby import ENGINE, pnp
from rulepress.games.worm_derby.diagrams import (
    BACK,
    GRID_LINE,
    LABEL_SIZE,
    MOVE,
    PAPER,
    REFUSED,
    SUIT_COLOUR,
)
from rulepress.games.worm_derby.examples import replay
from rulepress.games.worm_derby.grid import parse_xy
from rulepress.plugin import facts_of, figures_of
from rulepress.render.figures import MIN_LABEL_PX, legible_width

SOURCE = Path(__file__).parents[3] / "sources" / "worm-derby" / "rules.md"
EXAMPLES = {ex.id: ex for ex in read_document(SOURCE).examples}
NS = "{http://www.w3.org/2000/svg}"
MOST_ELEMENTS = 30  # what one figure may cost WeasyPrint, moves included
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")

Point = tuple[float, float]


def figure(data: dict[str, Any]) -> ET.Element:
    (fig,) = figures_of(ENGINE, data)
    return ET.fromstring(fig.svg)


def paths(root: ET.Element, **attrs: str) -> list[ET.Element]:
    return [p for p in root.iter(f"{NS}path")
            if all(p.get(k.replace("_", "-")) == v for k, v in attrs.items())]


class Cells:
    """Where the drawn grid puts each cell: found from the grid lines themselves, not from the
    drawing code."""

    def __init__(self, root: ET.Element) -> None:
        (grid,) = paths(root, stroke=GRID_LINE)
        d = grid.get("d", "")
        self.xs = sorted({float(x) for x in re.findall(r"M([\d.]+),[\d.]+V", d)})
        self.ys = sorted({float(y) for y in re.findall(r"M[\d.]+,([\d.]+)H", d)})

    def centre(self, name: str) -> Point:
        column, row = parse_xy(name)  # column across the course, row along it
        return (round((self.xs[row] + self.xs[row + 1]) / 2, 1),
                round((self.ys[column] + self.ys[column + 1]) / 2, 1))


def circles(path: ET.Element) -> list[Point]:
    """Centres of the circles of a path, each drawn as two arcs from its left edge."""
    found = re.findall(r"M([\d.]+),([\d.]+)a([\d.]+),", path.get("d", ""))
    return [(round(float(x) + float(r), 1), round(float(y), 1)) for x, y, r in found]


def disks(root: ET.Element, suit: str) -> list[Point]:
    """Centres of a worm's coins: paper circles ringed in its suit's colour."""
    (path,) = [p for p in paths(root, fill=PAPER, stroke=SUIT_COLOUR[suit])
               if "a" in p.get("d", "")]
    return circles(path)


def rings(root: ET.Element, suit: str) -> list[Point]:
    found = [p for p in paths(root, fill="none", stroke=SUIT_COLOUR[suit])
             if p.get("stroke-dasharray")]
    return [c for p in found for c in circles(p)]


@pytest.mark.parametrize("example_id", sorted(EXAMPLES))
def test_every_example_is_one_figure_of_the_whole_course(example_id: str) -> None:
    data = EXAMPLES[example_id].data
    (fig,) = figures_of(ENGINE, data)
    assert fig.caption == ""  # the prose above says what the figure shows
    root = ET.fromstring(fig.svg)
    grid = replay(data).after.grid
    cells = Cells(root)
    assert (len(cells.xs), len(cells.ys)) == (grid.height + 1, grid.width + 1)
    (labels,) = root.iter(f"{NS}text")  # every label in one element
    assert float(labels.get("font-size", "0")) == LABEL_SIZE >= MIN_LABEL_PX
    assert legible_width(fig.svg) == float(root.get("width", "0"))  # never widened
    assert sum(1 for _ in root.iter()) <= MOST_ELEMENTS


def test_the_race_runs_left_to_right_with_column_a_at_the_top() -> None:
    root = figure(EXAMPLES["three-steps"].data)
    cells = Cells(root)
    words = ET.tostring(root, encoding="unicode")
    assert "start" in words and "pylon" in words
    suns = disks(root, "suns")
    assert suns == [cells.centre(n) for n in ("f8", "f9", "f10", "f11", "f12", "f13")]
    assert cells.centre("f5")[0] < cells.centre("f15")[0]  # towards the pylon: rightwards
    assert cells.centre("a5")[1] < cells.centre("l5")[1]  # the racers' left at the top


def test_obstacles_are_the_kits_tile_backs_one_square_each() -> None:
    data = EXAMPLES["course-basic"].data
    (backs,) = paths(figure(data), fill=BACK)
    assert backs.get("d", "").count("z") == facts_of(ENGINE, data)["obstacle_count"]
    assert pnp.BACK.hexval() == "0x" + BACK[1:]
    assert {suit: colour.hexval() for suit, colour in pnp.SUIT_COLOUR.items()} == \
        {suit: "0x" + colour[1:] for suit, colour in SUIT_COLOUR.items()}


def test_a_move_rings_the_cells_left_and_draws_an_arrow_to_the_new_front() -> None:
    root = figure(EXAMPLES["three-steps"].data)
    cells = Cells(root)
    assert sorted(rings(root, "suns")) == sorted(cells.centre(n) for n in ("f5", "f6", "f7"))
    assert rings(root, "moons") == []
    (line,) = paths(root, stroke=MOVE)
    (head,) = paths(root, fill=MOVE)
    assert head.get("d", "").count("z") == 1
    points = [float(n) for n in NUMBER.findall(line.get("d", ""))]
    end = cells.centre("f13")
    assert end[0] < points[-2] < end[0] + 12  # beside the new front disk, never on it


def test_an_ace_shows_where_the_tile_stood_and_both_moves() -> None:
    root = figure(EXAMPLES["ace"].data)
    cells = Cells(root)
    (outline,) = paths(root, fill="none", stroke=BACK)
    x0, y0 = (float(n) for n in NUMBER.findall(outline.get("d", ""))[:2])
    left, top = cells.xs[10], cells.ys[5]  # the tile at f11: row 11 and column f are its corner
    assert abs(x0 - left) < 2 and abs(y0 - top) < 2
    (heads,) = paths(root, fill=MOVE)
    assert heads.get("d", "").count("z") == 2  # the tile's move and the worm's


def test_a_winning_worm_is_drawn_where_it_finished_before_it_leaves_the_table() -> None:
    root = figure(EXAMPLES["win"].data)
    cells = Cells(root)
    assert sorted(disks(root, "suns")) == sorted(
        cells.centre(n) for n in ("g9", "g8", "g7", "g6", "g5", "g4"))
    assert rings(root, "suns") == [cells.centre("g10")]


@pytest.mark.parametrize("example_id", ["too-short", "bitten-wrong-way", "too-short-to-bite"])
def test_a_refused_move_is_drawn_in_red_and_nothing_moves(example_id: str) -> None:
    root = figure(EXAMPLES[example_id].data)
    (refused,) = paths(root, stroke=REFUSED)
    assert refused.get("stroke-dasharray")
    assert paths(root, stroke=MOVE) == []
    assert all(rings(root, suit) == [] for suit in SUIT_COLOUR)


def test_a_refused_obstacle_is_outlined_in_red_where_it_would_lie() -> None:
    root = figure(EXAMPLES["obstacle-too-close"].data)
    (outline,) = paths(root, stroke=REFUSED)
    assert outline.get("d", "").count("z") == 1 and outline.get("fill") == "none"
    (backs,) = paths(root, fill=BACK)
    assert backs.get("d", "").count("z") == 1  # the tile laid before it


def test_slalom_tiles_show_the_side_to_pass_them() -> None:
    root = figure(EXAMPLES["slalom-wrong-side"].data)
    cells = Cells(root)
    middle = (cells.ys[5] + cells.ys[7]) / 2  # both tiles lie across columns f and g
    for suit, right in (("suns", True), ("arms", False)):  # red: pass on the racers' right
        (face,) = [p for p in paths(root, fill=PAPER, stroke=SUIT_COLOUR[suit])
                   if "a" not in p.get("d", "")]  # the tile face up, not the worm's coins
        assert face.get("d", "").count("z") == 1
        (mark,) = [p for p in paths(root, fill=SUIT_COLOUR[suit])
                   if re.match(r"M[\d.]+,[\d.]+l", p.get("d", ""))]
        tip_y = float(NUMBER.findall(mark.get("d", ""))[1])
        assert (tip_y > middle) is right, suit  # the racers' right is the bottom of the figure


def test_the_figure_says_in_words_what_it_shows_without_notation() -> None:
    (fig,) = figures_of(ENGINE, EXAMPLES["bite"].data)
    title = ET.fromstring(fig.svg).find(f"{NS}title")
    assert title is not None and title.text is not None
    assert "Moons worm from i11 to l12" in title.text and "obstacles at c8, i13" in title.text
    assert not re.search(r"[a-z]\d+[-x>][a-z]\d+", title.text)


def test_a_worm_that_moves_twice_shows_only_its_last_turn() -> None:
    """'Turning back too soon': Suns crosses the rear line (e17 to h17), Moons moves, then Suns
    backs off the way it came. The figure rings the two disks that last turn picked up (h17,
    g17) and draws the arrows of the last turns only: Suns' and Moons'."""
    root = figure(EXAMPLES["turned-too-soon"].data)
    cells = Cells(root)
    assert sorted(rings(root, "suns")) == sorted(cells.centre(n) for n in ("h17", "g17"))
    assert sorted(rings(root, "moons")) == sorted(cells.centre(n) for n in ("h4", "h5"))
    (heads,) = paths(root, fill=MOVE)
    assert heads.get("d", "").count("z") == 2
    (line,) = paths(root, stroke=MOVE)
    xs = [float(x) for x in NUMBER.findall(line.get("d", ""))[::2]]
    assert max(xs) < cells.xs[16]  # nothing drawn along row 17, behind the pylon

"""Every Pigeon Race diagram is the kit's whole board, drawn one way: all 30 squares, the start
boxes and the home column; a pigeon on the start line stands in its start box, a pigeon that is
home in the box of its place; a play shows as rings where pigeons stood and arrows to where they
went. And the figures stay cheap to render."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from rulepress.document.reader import read_document
from rulepress.games.pigeon_race import ENGINE
from rulepress.games.pigeon_race.examples import replay
from rulepress.games.pigeon_race.rules import PIGEONS, SQUARES
from rulepress.games.pigeon_race.style import INK, PIGEON_STYLES
from rulepress.plugin import figures_of

SOURCE = Path(__file__).parents[3] / "sources" / "pigeon-race" / "rules.md"
EXAMPLES = [ex for ex in read_document(SOURCE).examples if "setup" in ex.data]
NS = "{http://www.w3.org/2000/svg}"
FILL = {style.fill: p for p, style in PIGEON_STYLES.items()}
ORDINALS = ["1st", "2nd", "3rd", "4th", "5th", "6th"]
MOST_ELEMENTS = 45  # what one board may cost WeasyPrint, moves included

SIX_OF_HEARTS: dict[str, Any] = {
    "setup": {"players": ["A", "B"], "trump": "C", "positions": {4: 7, 5: 2, 6: 5}},
    "moves": ["6H>6"],
}
TWO_CROSS: dict[str, Any] = {  # pigeon 6 crosses second and pushes pigeon 5 home third
    "setup": {"players": ["A", "B"], "trump": "S", "finished": [4],
              "positions": {1: 14, 2: 17, 3: 22, 5: 28, 6: 26}},
    "moves": ["QD>6"],
}


def boards(data: dict[str, Any]) -> list[ET.Element]:
    return [ET.fromstring(fig.svg) for fig in figures_of(ENGINE, data)]


def only_board(data: dict[str, Any]) -> ET.Element:
    (root,) = boards(data)
    return root


def pigeons(root: ET.Element) -> dict[int, tuple[float, float]]:
    """Each pigeon's disc centre: the circles filled in a pigeon's colour."""
    found: dict[int, tuple[float, float]] = {}
    for c in root.iter(f"{NS}circle"):
        p = FILL[c.attrib["fill"]]
        assert p not in found, f"pigeon {p} drawn twice"
        found[p] = float(c.attrib["cx"]), float(c.attrib["cy"])
    return found


def start_boxes(root: ET.Element) -> dict[int, tuple[float, float, float, float]]:
    """Lane -> (x0, y0, x1, y1) of its start box: the rects tinted in a pigeon's colour."""
    return {
        FILL[r.attrib["fill"]]: (
            float(r.attrib["x"]), float(r.attrib["y"]),
            float(r.attrib["x"]) + float(r.attrib["width"]),
            float(r.attrib["y"]) + float(r.attrib["height"]),
        )
        for r in root.iter(f"{NS}rect") if r.attrib.get("fill") in FILL
    }


def texts(root: ET.Element) -> dict[str, ET.Element]:
    return {t.text or "": t for t in root.iter(f"{NS}text")}


def paths(root: ET.Element) -> list[ET.Element]:
    return list(root.iter(f"{NS}path"))


def rings(root: ET.Element) -> list[tuple[float, float]]:
    """Centres of the dashed rings (each drawn as two arcs from its left edge)."""
    (ring,) = [p for p in paths(root) if p.attrib.get("stroke-dasharray") == "2.5 2"]
    found = re.findall(r"M([\d.]+),([\d.]+)a([\d.]+),", ring.attrib["d"])
    return [(float(x) + float(r), float(y)) for x, y, r in found]


def arrows(root: ET.Element) -> dict[float, list[str]]:
    """Arrow lines by stroke width: each subpath of the unfilled, undashed paths in ink."""
    out: dict[float, list[str]] = {}
    for p in paths(root):
        if (p.attrib.get("fill"), p.attrib.get("stroke")) == ("none", INK) \
                and "stroke-dasharray" not in p.attrib:
            out.setdefault(float(p.attrib["stroke-width"]), []).extend(
                "M" + s for s in p.attrib["d"].split("M")[1:])
    return out


def in_box(point: tuple[float, float], box: tuple[float, float, float, float]) -> bool:
    return box[0] < point[0] < box[2] and box[1] < point[1] < box[3]


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda ex: ex.id)
def test_every_example_draws_the_whole_printed_board_once_per_play(example: Any) -> None:
    figures = figures_of(ENGINE, example.data)
    assert len(figures) == max(1, len(replay(example.data).moves))
    for fig in figures:
        root = ET.fromstring(fig.svg)
        labels = texts(root)
        squares = "".join(str(n) for n in range(1, SQUARES + 1))
        assert squares in labels, "every square is numbered, 1 to 30"
        assert len(labels[squares].attrib["x"].split()) == len(squares)  # one place per digit
        assert {"START", "HOME", *ORDINALS} <= set(labels)
        assert set(start_boxes(root)) == set(PIGEONS)
        assert set(pigeons(root)) == set(PIGEONS), "each pigeon once, wherever it is"
        assert fig.caption == ""  # the prose above says what the board shows
        assert sum(1 for _ in root.iter()) <= MOST_ELEMENTS


def test_pigeons_on_the_start_line_stand_in_their_own_start_boxes() -> None:
    root = only_board({"setup": {"players": 2, "trump": "C", "positions": {4: 7}}})
    spots, boxes = pigeons(root), start_boxes(root)
    for p in (1, 2, 3, 5, 6):
        assert in_box(spots[p], boxes[p])
    assert not in_box(spots[4], boxes[4]) and boxes[4][1] < spots[4][1] < boxes[4][3]


def test_a_pigeon_at_home_stands_in_the_box_of_its_place_not_of_its_lane() -> None:
    root = only_board({"setup": {"players": 2, "trump": "C", "finished": [6, 2],
                                 "positions": {1: 3}}})
    spots, boxes, labels = pigeons(root), start_boxes(root), texts(root)
    home_x = float(labels["HOME"].attrib["x"])
    for place, p in enumerate((6, 2), start=1):
        row = boxes[place]  # the start box of lane `place` spans that row
        assert spots[p][0] > home_x and row[1] < spots[p][1] < row[3]
        ordinal = labels[ORDINALS[place - 1]]
        assert row[1] < float(ordinal.attrib["y"]) < row[3]


def test_a_play_rings_where_the_pigeons_stood_and_draws_thick_and_thin_arrows() -> None:
    before = pigeons(only_board({"setup": SIX_OF_HEARTS["setup"]}))
    root = only_board(SIX_OF_HEARTS)
    after = pigeons(root)
    assert sorted(rings(root)) == sorted(before[p] for p in (4, 5, 6))
    lines = arrows(root)
    thin, thick = sorted(lines)
    assert len(lines[thick]) == 1 and len(lines[thin]) == 2  # pigeon 6 named; 4 and 5 pushed
    end = float(lines[thick][0].rsplit("H", 1)[1])
    assert before[6][0] < end < after[6][0]  # along lane 6, up to the pigeon
    (heads,) = [p for p in paths(root) if p.attrib.get("fill") == INK]
    assert heads.attrib["d"].count("z") == 3


def test_a_pigeon_that_stays_put_gets_no_ring() -> None:
    data = {"setup": {"players": 3, "trump": "H", "positions": {1: 0, 2: 3, 3: 5}},
            "moves": ["7S>2"]}  # pigeon 1 is pushed back but is on the start line already
    before = pigeons(only_board({"setup": data["setup"]}))
    assert sorted(rings(only_board(data))) == sorted(before[p] for p in (2, 3))


def test_pigeons_crossing_the_line_turn_into_the_home_box_of_their_place() -> None:
    root = only_board(TWO_CROSS)
    spots, boxes = pigeons(root), start_boxes(root)
    assert boxes[2][1] < spots[6][1] < boxes[2][3]  # 2nd home, in row 2
    assert boxes[3][1] < spots[5][1] < boxes[3][3]  # 3rd home, in row 3
    lines = arrows(root)
    (named,) = lines[max(lines)]
    assert f"V{spots[6][1]}" in named  # down lane 6, then up to row 2


def test_the_board_says_in_words_what_it_shows_without_notation() -> None:
    (fig,) = figures_of(ENGINE, SIX_OF_HEARTS)
    title = ET.fromstring(fig.svg).find(f"{NS}title")
    assert title is not None and title.text is not None
    assert "After the six of hearts on pigeon 6" in title.text
    assert "pigeon 6 on square 11" in title.text and "Pigeon 1 on the start line" in title.text
    assert "6H" not in title.text
    (fig,) = figures_of(ENGINE, TWO_CROSS)
    assert "pigeon 6 home in 2nd place" in fig.svg

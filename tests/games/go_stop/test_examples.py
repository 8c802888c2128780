"""Every worked example of the Go-Stop rules, replayed by the engine; bad example data; diagrams."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from rulepress.document.reader import read_document
from rulepress.games.base import ExampleDataError
from rulepress.games.go_stop import ENGINE
from rulepress.plugin import facts_of, figures_of
from rulepress.validate.check import compare

SOURCE = Path(__file__).parents[3] / "sources" / "go-stop" / "rules.md"
DOC = read_document(SOURCE)
EXAMPLES = [pytest.param(ex, id=ex.id) for ex in DOC.examples]


def test_the_rules_have_the_promised_examples() -> None:
    ids = {ex.id for ex in DOC.examples}
    promised = {
        "redeal", "four-in-hand", "pair-turn", "column-formed", "own-column", "other-column",
        "shake", "bomb", "empty-row", "three-for-one", "brights-three", "brights-four",
        "brights-five", "animals-five", "animals-six", "animals-eight", "birds", "ribbon-sets",
        "ribbons-together", "junk-nine-ten", "junk-double", "go", "stop", "third-go",
    }
    assert promised <= ids
    assert any(h.text == "Rulings" and h.level == 2 for h in DOC.headings)


@pytest.mark.parametrize("example", EXAMPLES)
def test_example_is_proven(example: Any) -> None:
    facts = facts_of(ENGINE, example.data)
    assert compare(example.claims, facts) == []


@pytest.mark.parametrize("example", EXAMPLES)
def test_example_diagrams_are_self_contained_svg(example: Any) -> None:
    figures = figures_of(ENGINE, example.data)
    assert figures
    for fig in figures:
        root = ET.fromstring(fig.svg)
        assert root.tag.endswith("svg")
        assert float(root.attrib["width"]) > 0 and float(root.attrib["height"]) > 0
        assert "viewBox" in root.attrib
        assert "Carlito" in root.attrib.get("font-family", "")
        assert "href" not in fig.svg and "<script" not in fig.svg


def test_component_counts_match_the_front_matter() -> None:
    declared = {c.id: c.count for c in DOC.meta.components}
    for cid, count in ENGINE.component_counts().items():
        assert declared[cid] == count
    drawers = ENGINE.drawers()
    for comp in DOC.meta.components:  # a drawer of the engine, or a layout file
        for name in (comp.front, comp.back):
            assert name is None or name in drawers or (DOC.folder / name).is_file()


def test_seeded_example_replays_a_real_deal() -> None:
    facts = facts_of(ENGINE, {"seed": 3, "players": 3, "moves": []})
    assert sum(len(h) for h in facts["hands"].values()) == 21
    assert len(facts["row"]) == 6 and facts["stock_left"] == 21


@pytest.mark.parametrize(
    ("data", "path"),
    [
        ({"setup": {"hands": {1: ["08X"]}}}, ("setup", "hands", 1, 0)),
        ({"setup": {"hands": {1: ["08A"]}, "row": ["08A"]}}, ("setup", "row", 0)),
        ({"setup": {"hands": {4: ["08A"]}}}, ("setup", "hands", 4)),
        ({"setup": {"hand": {1: ["08A"]}}}, ("setup", "hand")),
        ({"setup": {"players": 4}}, ("setup", "players")),
        ({"setup": {"row": ["07B", "07C-", "07Da", "07Db"]}}, ("setup", "row")),
        ({"setup": {"columns": [{"owner": 1, "cards": ["05B", "06B", "05Da"]}]}},
         ("setup", "columns", 0, "cards")),
        ({"setup": {"gos": {1: -1}}}, ("setup", "gos", 1)),
        ({"setup": {}, "moves": ["08A", "jump"]}, ("moves", 1)),
        ({"seed": "x"}, ("seed",)),
        ({}, ()),
    ],
)
def test_bad_example_data_names_its_key(data: dict[str, Any], path: tuple[Any, ...]) -> None:
    with pytest.raises(ExampleDataError) as info:
        facts_of(ENGINE, data)
    assert info.value.path == path


def test_illegal_move_is_a_fact_not_an_error() -> None:
    facts = facts_of(ENGINE, {"setup": {"hands": {1: ["08A"]}, "row": ["01Da"]},
                             "moves": ["05B"]})
    assert facts["legal"] is False
    assert facts["illegal_move"] == "05B"
    assert facts["reason"] == "that card is not in your hand"

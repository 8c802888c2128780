"""Every example of the Worm Derby rulebook replays in the engine, and its diagrams are sound."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from rulepress.document.reader import read_document
from rulepress.games.worm_derby import ENGINE
from rulepress.plugin import DIAGRAM_FONT, ExampleDataError, facts_of, figures_of
from rulepress.validate.check import compare

SOURCE = Path(__file__).parents[3] / "sources" / "worm-derby" / "rules.md"
DOC = read_document(SOURCE)
EXAMPLES = {ex.id: ex for ex in DOC.examples}
SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("example_id", sorted(EXAMPLES))
def test_example_claims_hold(example_id: str) -> None:
    ex = EXAMPLES[example_id]
    assert compare(ex.claims, facts_of(ENGINE, ex.data)) == []


@pytest.mark.parametrize("example_id", sorted(EXAMPLES))
def test_example_diagrams_are_self_contained_svg(example_id: str) -> None:
    figures = figures_of(ENGINE, EXAMPLES[example_id].data)
    assert figures
    for fig in figures:
        root = ET.fromstring(fig.svg)
        assert root.tag == f"{SVG}svg"
        assert {"width", "height", "viewBox"} <= set(root.attrib)
        assert root.get("font-family") == DIAGRAM_FONT
        assert "script" not in fig.svg and "href" not in fig.svg


def test_the_issue_s_examples_are_all_there() -> None:
    wanted = {"three-steps", "reverse", "blocked", "null-roll", "ace", "round-the-pylon", "win",
              "slalom-wrong-side", "bite", "too-short-to-bite"}
    assert wanted <= set(EXAMPLES)
    variants = {str(ex.data["setup"]["standard"].get("variant", "basic"))
                for ex in DOC.examples if "standard" in ex.data["setup"]}
    assert variants == {"basic", "slalom", "cannibal"}


@pytest.mark.parametrize(("change", "path"), [
    ({"moves": ["f10-f11-zz"]}, ("moves", 0)),
    ({"rolls": [7]}, ("rolls", 0)),
    ({"moves": ["f10-f11-f12-f13", "k8-k9-k10"]}, ("moves", 1)),  # no roll left for it
])
def test_bad_data_points_at_its_key(change: dict[str, Any], path: tuple[Any, ...]) -> None:
    data = {**EXAMPLES["three-steps"].data, **change}
    with pytest.raises(ExampleDataError) as err:
        facts_of(ENGINE, data)
    assert err.value.path == path


def test_bad_setups_are_data_errors() -> None:
    base = EXAMPLES["three-steps"].data
    for setup in ({**base["setup"], "worms": {"suns": ["f5", "f6"]}},
                  {**base["setup"], "variant": "slalom"},
                  {**base["setup"], "turn": "arms"},
                  {**base["setup"], "colour": "red"}):
        with pytest.raises(ExampleDataError):
            facts_of(ENGINE, {**base, "setup": setup})


@pytest.mark.parametrize(("standard", "path"), [
    ({"seed": "abc"}, ("setup", "standard", "seed")),
    ({"seed": 1.5}, ("setup", "standard", "seed")),
    ({"obstacles": [1]}, ("setup", "standard", "obstacles")),
    ({"players": True}, ("setup", "standard", "players")),
    ({"players": 7}, ("setup", "standard")),
])
def test_bad_standard_set_ups_are_data_errors(standard: dict[str, Any],
                                              path: tuple[Any, ...]) -> None:
    with pytest.raises(ExampleDataError) as err:
        facts_of(ENGINE, {"setup": {"standard": standard}})
    assert err.value.path == path

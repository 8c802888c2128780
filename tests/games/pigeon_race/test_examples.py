"""Every worked example in sources/pigeon-race/rules.md is proven by the engine, any changed
claim fails at the example, and the diagrams are self-contained SVG."""

from __future__ import annotations

import copy
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from rulepress.document.model import Example
from rulepress.document.reader import read_document
from rulepress.document.schema import is_layout
from rulepress.games import load_engine
from rulepress.games.base import ExampleDataError
from rulepress.games.pigeon_race import ENGINE
from rulepress.plugin import facts_of, figures_of
from rulepress.validate.check import check_document, check_example, flatten

SOURCE = Path(__file__).parents[3] / "sources" / "pigeon-race" / "rules.md"
DOC = read_document(SOURCE)
EXAMPLES = {ex.id: ex for ex in DOC.examples}
REQUIRED = {
    "elizabeth-allotment", "six-of-hearts", "elizabeth-scores",  # the seed's own examples
    "trump-two-pigeons", "wall-pigeon-one", "odd-card-rounds-up", "black-card-at-the-start",
    "a-pigeon-finishes", "same-square", "deck-runs-out", "tie-break",
    "cannot-move-a-finished-pigeon", "pushed-twice",
}


def test_engine_is_found_by_name() -> None:
    assert DOC.meta.engine == "pigeon_race"
    assert load_engine("pigeon_race") is ENGINE


def test_document_checks_clean() -> None:
    assert [str(d) for d in check_document(DOC).diagnostics] == []


def test_every_required_example_is_there() -> None:
    assert set(EXAMPLES) >= REQUIRED


@pytest.mark.parametrize("example_id", sorted(EXAMPLES))
def test_example_is_proven(example_id: str) -> None:
    diags, rendered = check_example(EXAMPLES[example_id], ENGINE)
    assert [str(d) for d in diags] == []


def _mutate(value: Any) -> list[Any]:
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value + 1, value - 1]
    if isinstance(value, str):
        return [value + "x"]
    if isinstance(value, list):
        out: list[Any] = [[*value, value[-1]] if value else [1]]
        if len(value) > 1 and list(reversed(value)) != value:
            out.append(list(reversed(value)))
        return out
    if value is None:
        return [0]
    return []


def _set(claims: dict[str, Any], path: list[str], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(claims)
    node: Any = out
    for key in path[:-1]:
        node = node[key] if key in node else node[int(key)]
    last = path[-1]
    node[last if last in node else int(last)] = value
    return out


@pytest.mark.parametrize("example_id", sorted(EXAMPLES))
def test_every_changed_claim_fails_inside_the_example(example_id: str) -> None:
    example: Example = EXAMPLES[example_id]
    end = example.loc.line + 200
    for name, value in flatten(example.claims):
        for wrong in _mutate(value):
            claims = _set(dict(example.claims), name.split("."), wrong)
            diags, _ = check_example(replace(example, claims=claims), ENGINE)
            assert diags, f"{example_id}: {name} changed to {wrong!r} still passes"
            loc = diags[0].loc
            assert loc is not None and example.loc.line <= loc.line < end


@pytest.mark.parametrize("example_id", sorted(EXAMPLES))
def test_diagrams_are_self_contained_svg(example_id: str) -> None:
    example = EXAMPLES[example_id]
    figures = figures_of(ENGINE, example.data)
    if "setup" in example.data:
        assert len(figures) >= 1
    for fig in figures:
        root = ET.fromstring(fig.svg)
        assert root.tag.endswith("svg")
        assert {"width", "height", "viewBox"} <= set(root.attrib)
        assert "Carlito" in root.attrib.get("font-family", "")
        assert "<script" not in fig.svg and "href" not in fig.svg


@pytest.mark.parametrize(
    ("data", "path"),
    [
        ({"setup": {"players": ["A", "B"], "trump": "C"}, "moves": ["6H>9"]}, ("moves", 0)),
        ({"setup": {"players": ["A"], "trump": "C"}}, ("setup", "players")),
        ({"setup": {"players": ["A", "B"], "trump": "C", "positions": {1: 40}}},
         ("setup", "positions", 1)),
        ({"setup": {"players": ["A", "B"], "trump": "C", "hands": {"A": ["6H"], "B": ["6H"]}}},
         ("setup", "hands", "B", 0)),
        ({"setup": {"players": ["A", "B"]}}, ("setup",)),
        ({"setup": {"players": ["A", "B"], "trump": "C", "colour": 1}}, ("setup", "colour")),
        ({"nonsense": 1}, ("nonsense",)),
        ({"setup": {"players": ["A", "B"], "trump": "C", "orders": {"A": [1, 2]}}},
         ("setup", "orders", "A")),
    ],
)
def test_bad_example_data_names_its_key(data: dict[str, Any], path: tuple[Any, ...]) -> None:
    with pytest.raises(ExampleDataError) as exc:
        facts_of(ENGINE, data)
    assert exc.value.path == path


def test_unknown_hands_take_the_played_cards() -> None:
    facts = facts_of(ENGINE, {
        "setup": {"players": ["A", "B"], "trump": "S", "hands": {"B": ["2C", "3C"]}},
        "moves": ["6H>6", "2C>1", "7D>3", "3C>2"],
    })
    assert facts["legal"] is True and facts["deck"] == 41 - 4


def test_component_counts_match_the_source() -> None:
    declared = {c.id: c.count for c in DOC.meta.components}
    for cid, count in ENGINE.component_counts().items():
        assert declared[cid] == count
    drawers = ENGINE.drawers()
    for comp in DOC.meta.components:
        assert comp.front is None or comp.front in drawers or is_layout(comp.front)


def test_an_allotment_dealing_every_pigeon_to_one_player_is_illegal_not_a_crash() -> None:
    facts = facts_of(ENGINE,
        {"allotment": {"players": ["A", "B"], "dealt": {"A": [1, 2, 3, 4, 5, 6], "B": []}}}
    )
    assert facts["legal"] is False and facts["set_aside"] == []


def test_a_trump_suit_with_every_card_placed_elsewhere_is_bad_data() -> None:
    clubs = ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC"]
    hands = {"P1": clubs[:5], "P2": clubs[5:10], "P3": clubs[10:]}
    with pytest.raises(ExampleDataError) as exc:
        facts_of(ENGINE, {"setup": {"players": ["P1", "P2", "P3"], "trump": "C", "hands": hands}})
    assert exc.value.path == ("setup", "trump")


def test_a_card_turned_up_twice_in_the_first_draw_is_bad_data() -> None:
    with pytest.raises(ExampleDataError) as exc:
        facts_of(ENGINE, {"first_draw": {"A": ["QH", "4C"], "B": ["QH", "9S"]}})
    assert exc.value.path == ("first_draw", "B", 0)

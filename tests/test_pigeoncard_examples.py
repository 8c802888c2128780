"""Pigeon (the card game): every worked example of the rulebook, replayed and drawn."""

from __future__ import annotations

import copy
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from rulepress.document.reader import read_document
from rulepress.document.schema import is_layout
from rulepress.games.base import DIAGRAM_FONT, ExampleDataError
from rulepress.games.pigeon import ENGINE
from rulepress.games.pigeon.cards import DECK
from rulepress.validate.check import compare

SOURCE = Path(__file__).parents[1] / "sources" / "pigeon" / "rules.md"
DOC = read_document(SOURCE)
EXAMPLES = [pytest.param(ex, id=ex.id) for ex in DOC.examples]


def leaves(claims: dict[str, Any], path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []
    for k, v in claims.items():
        out.extend(leaves(v, (*path, k)) if isinstance(v, dict) and v else [(*path, k)])
    return out


def test_the_rulebook_has_every_example_the_issue_asks_for() -> None:
    ids = {ex.id for ex in DOC.examples}
    wanted = {
        "connection-up",
        "connection-down",
        "seven-on-seven",
        "king-on-ace",
        "set-two-on-ace",
        "set-three-sixes",
        "string-up",
        "string-turns-back",
        "new-pile-seven",
        "new-pile-eight-string",
        "new-pile-ace",
        "new-pile-queen-jack",
        "new-pile-queen-jack-refused",
        "forceplay-king",
        "forceplay-string",
        "finish-with-king",
        "finish-with-ace",
        "sweep",
        "force-then-pigeon",
        "pigeon-restores",
        "win-last-card",
        "win-no-move",
        "opening",
    }
    assert wanted <= ids
    legal = {ex.id: ex.claims.get("legal") for ex in DOC.examples}
    assert False in legal.values() and True in legal.values()


@pytest.mark.parametrize("ex", EXAMPLES)
def test_example_claims_hold(ex: Any) -> None:
    facts = ENGINE.evaluate(ex.data)
    assert compare(ex.claims, facts) == []


@pytest.mark.parametrize("ex", EXAMPLES)
def test_changing_any_claim_breaks_it(ex: Any) -> None:
    facts = ENGINE.evaluate(ex.data)
    for path in leaves(ex.claims):
        node = ex.claims
        for k in path:
            node = node[k]
        wrong: Any
        if isinstance(node, bool):
            wrong = not node
        elif isinstance(node, int):
            wrong = node + 1
        elif isinstance(node, str):
            wrong = node + "x"
        elif isinstance(node, list):
            wrong = [*node, node[-1]] if node else ["x"]
        else:
            wrong = 0
        claims = copy.deepcopy(ex.claims)
        target = claims
        for k in path[:-1]:
            target = target[k]
        target[path[-1]] = wrong
        assert compare(claims, facts), path


@pytest.mark.parametrize("ex", EXAMPLES)
def test_example_diagram_is_self_contained_svg(ex: Any) -> None:
    figures = ENGINE.diagrams(ex.data)
    assert figures
    for fig in figures:
        root = ET.fromstring(fig.svg)
        assert root.tag.endswith("svg")
        assert float(root.get("width", 0)) > 0 and float(root.get("height", 0)) > 0
        assert root.get("viewBox")
        assert "<script" not in fig.svg and "href" not in fig.svg
        assert f'font-family="{DIAGRAM_FONT}"' in fig.svg


def test_illegal_examples_show_the_reason_in_the_diagram() -> None:
    ex = next(e for e in DOC.examples if e.id == "seven-on-seven")
    assert "Not allowed" in ENGINE.diagrams(ex.data)[0].svg


def test_a_win_by_no_legal_move_shows_the_stuck_hand() -> None:
    ex = next(e for e in DOC.examples if e.id == "win-no-move")
    svg = ENGINE.diagrams(ex.data)[0].svg
    assert "Player 2&#x27;s hand: KC KD 5H 5S" in svg or "Player 2's hand: KC KD 5H 5S" in svg


@pytest.mark.parametrize(
    ("data", "path"),
    [
        ({"setup": {"piles": {"A": "7X"}}}, ("setup", "piles", "A")),
        ({"setup": {"piles": {"A": "7C"}, "hands": {1: "7C"}}}, ("setup", "hands", 1)),
        ({"setup": {"hands": {1: "AC 2C 3C 4C 5C 6C"}}}, ("setup", "hands", 1)),
        ({"setup": {"decks": {2: 0}}}, ("setup", "decks", 2)),
        ({"setup": {"limits": {1: 3}}}, ("setup", "limits", 1)),
        ({"setup": {"pigeon": 3}}, ("setup", "pigeon")),
        ({"setup": {"piles": {"AA": "7C"}}}, ("setup", "piles", "AA")),
        ({"setup": {"colour": "red"}}, ("setup", "colour")),
        ({"setup": {}, "moves": ["7C"]}, ("moves", 0)),
        ({"setup": {}, "seed": 3}, ("seed",)),
    ],
)
def test_bad_example_data_names_its_key(data: dict[str, Any], path: tuple[Any, ...]) -> None:
    with pytest.raises(ExampleDataError) as exc:
        ENGINE.evaluate(data)
    assert exc.value.path == path


def test_a_seeded_example_replays_the_deal() -> None:
    facts = ENGINE.evaluate({"seed": 5})
    assert facts["phase"] == "opening" and facts["hand_sizes"] == {"1": 5, "2": 5}
    assert facts["decks"] == {"1": 21, "2": 21}


def test_component_counts_match_the_front_matter() -> None:
    declared = {c.id: c.count for c in DOC.meta.components}
    assert dict(ENGINE.component_counts()) == declared
    drawers = ENGINE.drawers()
    for c in DOC.meta.components:
        for name in (c.front, c.back):
            assert name is None or name in drawers or is_layout(name)


def test_a_finished_pile_leaves_a_marked_gap_in_the_after_row() -> None:
    ex = next(e for e in DOC.examples if e.id == "finish-with-king")
    svg = ENGINE.diagrams(ex.data)[0].svg
    assert "pile A finished, takes the Pigeon" in svg
    assert svg.count(">finished<") == 1 and 'stroke-dasharray="4 3"' in svg
    sweep = next(e for e in DOC.examples if e.id == "sweep")
    assert ">finished<" not in ENGINE.diagrams(sweep.data)[0].svg  # swept, not finished


def test_a_new_pile_with_every_letter_taken_is_bad_data_at_its_move() -> None:
    cards = [c for c in DECK if c.rank not in (7, 8)]
    piles = {chr(ord("A") + i): str(cards[i]) for i in range(26)}
    setup = {"piles": piles, "hands": {1: "7H", 2: 1}, "decks": {1: 1, 2: 1}}
    with pytest.raises(ExampleDataError) as exc:
        ENGINE.evaluate({"setup": setup, "moves": ["7H > new"]})
    assert exc.value.path == ("moves", 0)

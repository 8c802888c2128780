"""Go-Stop's own example tests: seeded deals, bad example data, illegal moves as facts (what every
game is tested for is in tests/games/test_every_game.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rulepress.document.reader import read_document
from rulepress.games.go_stop import ENGINE
from rulepress.plugin import ExampleDataError, facts_of

SOURCE = Path(__file__).parents[3] / "sources" / "go-stop" / "rules.md"
DOC = read_document(SOURCE)


def test_the_rules_have_a_rulings_chapter() -> None:
    assert any(h.text == "Rulings" and h.level == 2 for h in DOC.headings)


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

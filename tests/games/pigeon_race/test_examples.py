"""Pigeon Race's own example tests: the document checks clean, bad data names its key (what
every game is tested for is in tests/games/test_every_game.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rulepress.document.reader import read_document
from rulepress.games import load_engine
from rulepress.games.pigeon_race import ENGINE
from rulepress.plugin import ExampleDataError, facts_of
from rulepress.validate.printing import check_printing

SOURCE = Path(__file__).parents[3] / "sources" / "pigeon-race" / "rules.md"
DOC = read_document(SOURCE)


def test_engine_is_found_by_name() -> None:
    assert DOC.meta.engine == "pigeon_race"
    assert load_engine("pigeon_race") is ENGINE


@pytest.mark.slow  # the whole rulebook checked, its playtests included
def test_document_checks_clean() -> None:
    assert [str(d) for d in check_printing([DOC]).diagnostics] == []


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

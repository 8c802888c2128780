"""Worm Derby's own example tests: variants and bad set-ups (what every game is tested for is in
tests/games/test_every_game.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rulepress.document.reader import read_document
from rulepress.games.worm_derby import ENGINE
from rulepress.plugin import ExampleDataError, facts_of

SOURCE = Path(__file__).parents[3] / "sources" / "worm-derby" / "rules.md"
DOC = read_document(SOURCE)
EXAMPLES = {ex.id: ex for ex in DOC.examples}


def test_the_examples_play_every_variant() -> None:
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

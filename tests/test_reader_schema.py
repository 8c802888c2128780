"""Front matter details beyond the fixture trees: component size variants, names."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulepress.diagnostics import RulepressError
from rulepress.document.reader import read_document
from rulepress.units import Size

RULES = """---
title: Variants
designer: Tests
players: {{min: 1, max: 1}}
duration: 1 minute
licence: {{name: CC0 1.0, url: ""}}
provenance: [{{title: Tests, source: tests}}]
components:
  - id: cards
    name: Cards
    count: 4
    size: 33mm x 54mm
    front: card
    variants: {variants}
---
# Variants
"""


def read(tmp_path: Path, variants: str) -> object:
    game = tmp_path / "game"
    game.mkdir()
    (game / "rules.md").write_text(RULES.format(variants=variants))
    return read_document(game / "rules.md")


def test_variants_are_parsed_sizes(tmp_path: Path) -> None:
    doc = read(tmp_path, "{poker: 63.5mm x 88.9mm}")
    [cards] = doc.meta.components  # type: ignore[attr-defined]
    assert cards.variants == {"poker": Size(63.5, 88.9)}


@pytest.mark.parametrize(
    ("variants", "message"),
    [
        ("{poker: 63.5 x 88.9}", "variant 'poker': '63.5' is not a length"),
        ("{Poker Size: 63.5mm x 88.9mm}", "variant name 'Poker Size' may use"),
        ("[63.5mm x 88.9mm]", "variants maps a name to a size"),
    ],
)
def test_bad_variants_are_errors_at_their_line(tmp_path: Path, variants: str, message: str) -> None:
    with pytest.raises(RulepressError) as info:
        read(tmp_path, variants)
    [diag] = info.value.diagnostics
    assert message in diag.message
    assert diag.loc is not None and diag.loc.line == 14


@pytest.mark.parametrize(("old", "new", "message"), [
    ("{poker: 63.5mm", '{"poker\\n": 63.5mm', "variant name 'poker\\n' may use"),
    ("id: cards", 'id: "cards\\n"', "component id 'cards\\n' may use"),
    ("# Variants", '# Variants\n\n```example\nid: "e\\n"\ntitle: T\ntext: x\n```',
     "example id 'e\\n' may use"),
])
def test_a_name_ending_in_a_newline_is_refused(tmp_path: Path, old: str, new: str,
                                               message: str) -> None:
    game = tmp_path / "game"
    game.mkdir()
    rules = RULES.format(variants="{poker: 63.5mm x 88.9mm}")
    assert old in rules
    (game / "rules.md").write_text(rules.replace(old, new))
    with pytest.raises(RulepressError) as info:
        read_document(game / "rules.md")
    assert [message in d.message for d in info.value.diagnostics] == [True]


def test_a_game_folder_name_ending_in_a_newline_is_refused() -> None:
    from rulepress.document.slug import game_name_problem

    assert game_name_problem("pig") is None
    assert game_name_problem("pig\n") is not None


@pytest.mark.parametrize("key", ["5", "true", "1.5", "sourcse"])
def test_an_unknown_key_is_an_error_at_its_own_line_whatever_yaml_reads_it_as(
    tmp_path: Path, key: str
) -> None:
    game = tmp_path / "game"
    game.mkdir()
    rules = RULES.format(variants="{poker: 63.5mm x 88.9mm}")
    (game / "rules.md").write_text(rules.replace("components:", f"{key}: 5\ncomponents:"))
    with pytest.raises(RulepressError) as info:
        read_document(game / "rules.md")
    [diag] = info.value.diagnostics
    assert f"unknown key '{key if key != 'true' else 'True'}'" in diag.message
    assert diag.loc is not None and diag.loc.line == 8

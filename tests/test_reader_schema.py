"""Front matter details beyond the fixture trees: component size variants."""

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

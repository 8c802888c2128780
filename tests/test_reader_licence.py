"""A licence that must travel with every copy is read from the game's folder, and only there."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulepress.diagnostics import RulepressError
from rulepress.document.reader import read_document

RULES = """---
title: Licensed
designer: Tests
players: {{min: 1, max: 1}}
duration: 1 minute
licence:
  name: Some licence
  url: ""
  text: {text}
provenance: [{{title: Tests, source: tests}}]
components: [{{id: pawn, name: Pawn, count: 1}}]
---
# Licensed
"""


def write(tmp_path: Path, text: str) -> Path:
    game = tmp_path / "game"
    game.mkdir()
    path = game / "rules.md"
    path.write_text(RULES.format(text=text))
    return path


def test_licence_text_is_read_in_full(tmp_path: Path) -> None:
    path = write(tmp_path, "LICENCE.txt")
    (path.parent / "LICENCE.txt").write_text("You may share this.\n")
    assert read_document(path).meta.licence.text == "You may share this.\n"


@pytest.mark.parametrize("name", ["missing.txt", "../outside.txt", "/etc/passwd"])
def test_licence_text_outside_or_missing_is_an_error_at_its_line(
    tmp_path: Path, name: str
) -> None:
    (tmp_path / "outside.txt").write_text("secret")
    path = write(tmp_path, name)
    with pytest.raises(RulepressError) as info:
        read_document(path)
    [diag] = info.value.diagnostics
    assert diag.loc is not None and diag.loc.line == 9
    assert "must be a file inside game/" in diag.message


def test_worm_derby_carries_the_fdl_in_full() -> None:
    doc = read_document(Path(__file__).parents[1] / "sources" / "worm-derby" / "rules.md")
    assert "GNU Free Documentation License" in doc.meta.licence.text
    assert "Version 1.3, 3 November 2008" in doc.meta.licence.text


def test_a_licence_text_that_is_not_utf8_names_its_line_and_byte(tmp_path: Path) -> None:
    path = write(tmp_path, "LICENCE.txt")
    (path.parent / "LICENCE.txt").write_bytes(b"You may share this.\n\xa9 2024 Tests\n")
    with pytest.raises(RulepressError) as err:
        read_document(path)
    (diag,) = err.value.diagnostics
    assert diag.loc is not None and diag.loc.line == 9  # the text: key
    assert diag.message == ("licence text 'LICENCE.txt', its line 2: not UTF-8 text (byte 0xa9); "
                            "save it as UTF-8")

"""The player edition teaches in order: a defined term is used only after its definition, and
every declared component is named by the rules. Warnings with both lines, on small books."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from rulepress.cli import main
from rulepress.diagnostics import Severity
from rulepress.document.model import Document
from rulepress.document.reader import read_document
from rulepress.document.teaching import check_teaching, term_pattern
from rulepress.validate.printing import check_printing

BOOK = """---
title: Bomb Run
designer: Someone
players: {min: 2, max: 2}
duration: 5 minutes
licence: {name: CC0, url: "https://creativecommons.org/publicdomain/zero/1.0/"}
provenance: [{title: Written for the tests, source: tests/test_teaching.py}]
components:
  - {id: card, name: Card, count: 8}
  - {id: pencil, name: Pencil, count: 1}
  - {id: score-pad, name: Score pad, count: 1, size: 63.5mm x 88.9mm, front: layouts/pad.yml}
---

# Bomb Run

## Play

The :dfn[row] is the line of cards in the middle of the table. When the row is full, the round ends.

### Throwing the bomb

A :dfn[bomb] is three cards of one number, thrown at once. Bombs score double.

## Rulings

- **Card values.** Aces are high.
"""


def line(needle: str, text: str) -> int:
    return next(n for n, each in enumerate(text.split("\n"), 1) if needle in each)


PAD = """background: "#ffffff"
elements:
  title: {type: text, x: 3mm, y: 3mm, width: 57.5mm, height: 7mm, text: Score, size: 14pt}
"""


def book(tmp_path: Path, text: str) -> Document:
    folder = tmp_path / "bomb-run"
    (folder / "layouts").mkdir(parents=True, exist_ok=True)
    (folder / "layouts" / "pad.yml").write_text(PAD, encoding="utf-8")
    (folder / "rules.md").write_text(text, encoding="utf-8")
    return read_document(folder / "rules.md")


def said(doc: Document) -> list[tuple[int, str]]:
    return [(d.loc.line if d.loc else 0, d.message) for d in check_teaching(doc)]


def test_a_term_used_after_its_definition_and_named_components_say_nothing(
        tmp_path: Path) -> None:
    text = BOOK.replace("the round ends.", "the round ends; keep the score on the score pad.")
    # The heading "Throwing the bomb" opens the section that defines a bomb: no fault.
    assert said(book(tmp_path, text)) == []


def test_a_term_used_before_its_definition_is_a_warning_naming_both_lines(
        tmp_path: Path) -> None:
    text = BOOK.replace("the round ends.", "the round ends;\nkeep the score on the score pad. "
                        "A BOMB ends it at\nonce, and two Bombs end the game.")
    doc = book(tmp_path, text)
    found = check_teaching(doc)
    assert all(d.severity is Severity.WARNING for d in found)
    assert said(doc) == [(line("A BOMB", text), (
        f"'bomb' is used before it is defined at rules.md:{line(':dfn[bomb]', text)} (and 1 "
        "more time before it): define it first, or say it another way until it is defined"))]
    # check and build report it the same way, at the use's line, without failing.
    checked = check_printing([doc]).documents[0]
    assert [str(d) for d in checked.diagnostics] == [str(d) for d in found]


def test_a_heading_before_the_definitions_section_is_a_fault(tmp_path: Path) -> None:
    text = BOOK.replace("## Play\n", "## Play\n\n### Bombs and rows\n").replace(
        "the round ends.", "the round ends (the score pad keeps the score).")
    assert said(book(tmp_path, text)) == [(line("### Bombs and rows", text), (
        f"'bomb' is used before it is defined at rules.md:{line(':dfn[bomb]', text)}: define "
        "it first, or say it another way until it is defined"))]


def test_a_use_in_the_reference_edition_only_is_no_fault(tmp_path: Path) -> None:
    text = BOOK.replace("the round ends.", "the round ends at the score pad.\n\n::: reference\n"
                        "A bomb may end it sooner.\n:::")
    assert said(book(tmp_path, text)) == []


def test_an_unused_component_of_the_kit_is_a_warning_at_its_line(tmp_path: Path) -> None:
    # The pencil is not in the kit: the players bring it, the components table lists it.
    assert said(book(tmp_path, BOOK)) == [(line("id: score-pad", BOOK), (
        "the component 'Score pad' is never named in the player edition's rules: say what it "
        "is for, or leave it out of the components"))]


def test_check_prints_the_warnings_and_exits_zero(tmp_path: Path) -> None:
    text = BOOK.replace("the round ends.", "a bomb ends the round.")
    book(tmp_path, text)
    result = CliRunner().invoke(main, ["check", "--sources", str(tmp_path), "bomb-run"])
    assert result.exit_code == 0, result.output
    assert f"rules.md:{line('a bomb ends', text)}:1: warning: 'bomb' is used before it is " \
        f"defined at rules.md:{line(':dfn[bomb]', text)}" in result.stderr
    assert f"rules.md:{line('id: score-pad', text)}:1: warning: the component 'Score pad'" \
        in result.stderr


def test_terms_match_as_words_in_any_case_with_simple_plurals() -> None:
    column = term_pattern("three-card column")
    assert column.search("Three-card\ncolumns") and column.search("a three-card column.")
    assert not column.search("a four-three-card column") and not column.search("columnist")
    assert term_pattern("worm").search("Worms") and not term_pattern("worm").search("inchworm")
    assert term_pattern("pass").search("passes") and term_pattern("ply").search("plies")
    assert not term_pattern("set").search("setup")

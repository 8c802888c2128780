"""A project in a language rulepress ships no theme for: Minnows, a small card game from a CSV,
translated into French with its own catalogs (tests/fixtures/french). Its French book, kit and
export print no English word of the theme or the cards when every entry is filled; check
fails on a dropped number; a changed card reprints alone in each language."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from babel.messages.pofile import read_po
from click.testing import CliRunner

from rulepress.cli import main
from rulepress.diagnostics import SourceLoc
from rulepress.document.rows import read_csv

FIXTURE = Path(__file__).parent / "fixtures" / "french"
GAME = "minnows"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURE, tmp_path / "project")
    return tmp_path / "project"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stderr


def pdf_text(path: Path) -> str:
    pdf = pdfium.PdfDocument(path)
    return " ".join(" ".join(pdf[i].get_textpage().get_text_range().split())
                    for i in range(len(pdf)))


def cards(folder: Path) -> list[dict[str, str]]:
    rows, problems = read_csv(folder, "data/cards.csv", SourceLoc(folder / "rules.md", 1))
    assert not problems
    return [dict(r.fields) for r in rows]


def test_translate_lists_each_printed_card_text_at_its_row_with_its_column(
        project: Path) -> None:
    game = project / "sources" / GAME
    committed = (game / "locales" / f"{GAME}.pot").read_bytes()
    code, said = run("translate", "--project", str(project))
    assert code == 0, said
    assert "minnows fr: 27/27 segments translated, 0 fuzzy, 0 obsolete" in said
    # The committed template is what the sources make now.
    assert (game / "locales" / f"{GAME}.pot").read_bytes() == committed
    pot = {(m.context, m.id): m for m in read_po(io.BytesIO(committed)) if m.id}
    assert pot["deck.name", "Minnow"].locations == [("data/cards.csv", 2)]
    assert pot["deck.text", "Eats every Minnow."].locations == [("data/cards.csv", 7)]
    assert pot["deck.pond", "Still pond"].locations == [
        ("data/cards.csv", 2), ("data/cards.csv", 3), ("data/cards.csv", 4)]
    assert pot["deck.name", "Minnow"].auto_comments == ["card data"]
    # Only what a layout prints: the value (a number) and qty are no segments.
    assert {c for c, _ in pot if c} == {"deck.name", "deck.pond", "deck.text"}


def test_check_fails_on_a_dropped_number_in_every_language_it_is_asked(project: Path) -> None:
    po = project / "sources" / GAME / "locales" / "fr.po"
    text = po.read_text()
    assert "distribuez-en 3 à chaque" in text
    po.write_text(text.replace("distribuez-en 3 à chaque", "distribuez-en à chaque"))
    line = text.split("\n").index('msgstr "Mélangez les 6 cartes et distribuez-en 3 à chaque '
                                  'joueur."')
    problem = (f"locales/fr.po:{line}:1: error: the translation drops 3 (numbers must stay as "
               "in the source)")
    code, said = run("check", "--project", str(project))
    assert code == 2 and problem in said
    # A project that names only its source language: check --lang fr checks French.
    (project / "rulepress.toml").write_text('sources = "sources"\n')
    code, said = run("check", "--project", str(project))
    assert code == 0, said
    code, said = run("check", "--project", str(project), "--lang", "fr")
    assert code == 2 and problem in said


def test_the_french_kit_prints_the_cards_in_french(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "pnp"
    code, said = run("pnp", "--project", str(project), "--paper", "a4", "--out", str(out))
    assert code == 0, said
    french = pdf_text(out / GAME / "fr" / f"{GAME}-a4.pdf")
    english = pdf_text(out / GAME / f"{GAME}-a4.pdf")
    for row in cards(project / "sources" / GAME):
        for column in ("name", "pond", "text"):
            assert row[column] in english
            assert not re.search(rf"\b{re.escape(row[column])}(?!\w)", french), row[column]
    for words in ("Vairon", "Étang calme", "Mange tous les Vairons.", "Carte poisson",
                  "Résumé du tour"):
        assert words in french

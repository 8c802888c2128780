"""An engine asks rulepress for its game's data rows, and a component drawn from an engine's
table takes its count from it (tests/designer/base: markers, one per suit, qty "2" as text)."""

from __future__ import annotations

import re
import shutil
import sys
from collections import Counter
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner

from rulepress.cli import main
from rulepress.games.data import game_data
from rulepress.plugin import Engine

BASE = Path(__file__).parent / "designer" / "base"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(BASE, tmp_path / "project")
    monkeypatch.chdir(tmp_path / "project")
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    return tmp_path / "project"


def test_a_table_component_without_count_prints_the_copies_its_table_makes(project: Path) -> None:
    result = CliRunner().invoke(main, ["pnp", "--paper", "a4", "-q"])
    assert result.exit_code == 0, result.stderr
    pdf = pdfium.PdfDocument(project / "pnp" / "catch" / "catch-a4.pdf")
    lines = [ln.strip() for page in pdf for ln in page.get_textpage().get_text_range().splitlines()]
    # each marker shows its suit, drawn by the engine from the suits of the CSV rows it asked for
    markers = Counter(w for ln in lines if re.fullmatch(r"((bay|deep|reef|shore) ?){8}", ln)
                      for w in ln.split())
    assert markers == {"bay": 2, "deep": 2, "reef": 2, "shore": 2}
    result = CliRunner().invoke(main, ["build", "--no-pdf", "-q"])
    assert result.exit_code == 0, result.stderr
    html = (project / "build" / "catch" / "catch.html").read_text()
    assert re.search(r"Suit markers</th><td class=\"num\">8</td>", html)


def test_the_rules_print_the_engines_number_and_drop_the_rule_mark(project: Path) -> None:
    result = CliRunner().invoke(main, ["build", "--no-pdf", "-q"])
    assert result.exit_code == 0, result.stderr
    html = (project / "build" / "catch" / "catch.html").read_text()
    assert "Be the first to bank 100 points." in html
    assert "The first player to bank 100 points or more wins at once." in html
    assert "{{" not in html.split("<main", 1)[1] and "rule=" not in html


def test_data_asked_for_outside_a_run_says_when_it_can_be() -> None:
    with pytest.raises(LookupError, match="while rulepress runs the engine for a game"):
        Engine(name="lonely").data("cards")
    with pytest.raises(LookupError, match="not as its module is imported"):
        game_data(object(), "cards")

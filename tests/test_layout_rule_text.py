"""One source for the rules a printed part states: the rulebook's text and the engine's tables.

Each card drawn from a layout is read back from its PDF and compared with the engine; editing
the rulebook or the engine's table changes the printed card.
"""

from __future__ import annotations

import io
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from reportlab.pdfgen.canvas import Canvas

from rulepress.document.model import Document
from rulepress.document.reader import read_document
from rulepress.games.base import GameEngine
from rulepress.games.pigeon import ENGINE as PIGEON
from rulepress.games.pigeon.rules import HAND_LIMIT, PENALTY_LIMIT
from rulepress.games.pigeon_race import ENGINE as RACE
from rulepress.games.pigeon_race.rules import ALLOTMENT, PIGEONS, SCORE_TABLE
from rulepress.pnp.api import Face
from rulepress.pnp.faces import Art

SOURCES = Path(__file__).parents[1] / "sources"
PT = 72 / 25.4


def card(doc: Document, cid: str, tables: Mapping[str, Sequence[Mapping[str, Any]]]) -> Any:
    """The words of one component's face, drawn alone from its layout, top to bottom."""
    comp = next(c for c in doc.meta.components if c.id == cid)
    assert comp.size is not None
    w, h = comp.size.points
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(w, h))
    Art(doc, tables).drawer(comp, False)(c, Face(0, comp.count, w, h, 3 * PT))
    c.save()
    with pdfplumber.open(io.BytesIO(buf.getvalue())) as pdf:
        return pdf.pages[0].extract_words()


def lines(words: list[dict[str, Any]]) -> list[str]:
    rows: dict[int, list[dict[str, Any]]] = {}
    for w in words:
        rows.setdefault(round(w["top"]), []).append(w)
    return [" ".join(w["text"] for w in sorted(r, key=lambda w: w["x0"]))
            for _, r in sorted(rows.items())]


def doc_of(game: str) -> Document:
    return read_document(SOURCES / game / "rules.md")


def test_the_scoring_card_prints_the_engines_table() -> None:
    text = lines(card(doc_of("pigeon-race"), "scoring-card", RACE.tables()))
    grid = [ln.split() for ln in text if ln.split()[0] in ("1st", "2nd", "3rd", "4th", "5th",
                                                          "6th") and len(ln.split()) == 7]
    assert [row[1:] for row in grid] == [[str(v) for v in r] for r in SCORE_TABLE]


def test_the_order_slip_asks_for_as_many_pigeons_as_the_engine_deals() -> None:
    words = card(doc_of("pigeon-race"), "order-slips", RACE.tables())
    places = [w for w in words if w["text"] == "place"]
    assert len(places) == max(sum(v) for v in ALLOTMENT.values())
    counts = " ".join(lines(words))
    groups: dict[int, list[int]] = {}
    for n, (dealt, chosen) in ALLOTMENT.items():
        groups.setdefault(dealt + chosen, []).append(n)
    said = [f"{ns[0]}\u2013{ns[-1]}" if len(ns) > 1 else f"{ns[0]}" for ns in groups.values()]
    expected = " \u00b7 ".join(f"{who} players: {k}" for who, k in zip(said, groups,
                                                                        strict=True))
    assert f"Pigeons to write: {expected}" in counts


def test_the_reference_card_prints_the_rulebooks_quick_reference_and_the_engines_limits(
) -> None:
    doc = doc_of("pigeon")
    text = " ".join(lines(card(doc, "reference", PIGEON.tables())))
    from rulepress.pnp.faces.rulebook import RuleBook

    for row in RuleBook(doc).section("quick-reference").table():
        first = next(iter(row.values()))
        assert f"{first}:" in text
    assert f"Upright: hand limit {HAND_LIMIT} · Sideways: limit {PENALTY_LIMIT}" in text


def test_editing_the_rulebook_changes_the_reference_card(tmp_path: Path) -> None:
    game = tmp_path / "pigeon"
    shutil.copytree(SOURCES / "pigeon", game)
    rules = game / "rules.md"
    text = rules.read_text()
    old = "| Set | One or more cards of one rank. |"
    assert old in text
    rules.write_text(text.replace(old, "| Set | Any cards at all, even odd socks. |"))
    printed = " ".join(lines(card(read_document(rules), "reference", PIGEON.tables())))
    assert "Any cards at all, even odd socks." in printed
    assert "One or more cards of one rank." not in printed


def test_editing_the_scoring_rule_changes_the_scoring_card(tmp_path: Path) -> None:
    game = tmp_path / "pigeon-race"
    shutil.copytree(SOURCES / "pigeon-race", game)
    rules = game / "rules.md"
    text = rules.read_text()
    assert "**Scoring.** Each pigeon on your slip scores" in text
    rules.write_text(text.replace("**Scoring.** Each pigeon on your slip scores",
                                  "**Scoring.** Every bird you bet on scores"))
    printed = " ".join(lines(card(read_document(rules), "scoring-card", RACE.tables())))
    assert "Every bird you bet on scores" in printed


@pytest.mark.parametrize(("engine", "game", "cid", "table", "change", "seen"), [
    (RACE, "pigeon-race", "scoring-card", "scores", ("1st", "2nd", 9), "9"),
    (RACE, "pigeon-race", "order-slips", "allotment", (0, "write", 7), "7th"),
    (PIGEON, "pigeon", "reference", "hand_limit", (0, "lowered", 3), "Sideways: limit 3"),
])
def test_changing_the_engines_table_changes_the_card(
    monkeypatch: pytest.MonkeyPatch, engine: GameEngine, game: str, cid: str, table: str,
    change: tuple[Any, Any, Any], seen: str,
) -> None:
    original = engine.tables()
    tables = {k: [dict(r) for r in v] for k, v in original.items()}
    row, field, value = change
    target = next(r for r in tables[table] if r.get("place") == row) if isinstance(row, str) \
        else tables[table][row]
    target[field] = value
    monkeypatch.setattr(type(engine), "tables", lambda self: tables)
    printed = " ".join(lines(card(doc_of(game), cid, engine.tables())))
    before = " ".join(lines(card(doc_of(game), cid, original)))
    assert seen in printed and seen not in before


def test_the_six_pigeons_on_the_cards_are_the_engines() -> None:
    pigeons = RACE.tables()["pigeons"]
    assert [p["number"] for p in pigeons] == list(PIGEONS)

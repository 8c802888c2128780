"""One source for the rules a printed part states: the rulebook's text and the engine's tables.

Each card drawn from a layout is read back from its PDF and compared with the engine; editing
the rulebook or the engine's table changes the printed card.
"""

from __future__ import annotations

import dataclasses
import io
import re
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
from rulepress.games.go_stop import ENGINE as GO_STOP
from rulepress.games.pigeon import ENGINE as PIGEON
from rulepress.games.pigeon.rules import HAND_LIMIT, PENALTY_LIMIT
from rulepress.games.pigeon_race import ENGINE as RACE
from rulepress.games.pigeon_race.rules import ALLOTMENT, PIGEONS, SCORE_TABLE
from rulepress.games.worm_derby import ENGINE as WORM_DERBY
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


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_slips_counts_never_split_from_their_number_at_any_width(
        tmp_path: Path, lang: str) -> None:
    """"Pigeons to write: 2 players: 4 · 3 players: 3 · 4–6 players: 2" wraps in its box: a
    line may end after the lead or a count, never inside one ("4 · 3" then "players: 3" reads
    as a pair; the German slip did that). The box made narrower and wider than it is (as a
    longer word or name would push the words) shows every place a line could break."""
    from rulepress.i18n.apply import read_catalog, translated

    game = tmp_path / "pigeon-race"
    shutil.copytree(SOURCES / "pigeon-race", game)
    layout = game / "layouts" / "slip.yml"
    original = layout.read_text(encoding="utf-8")
    assert original.count("width: 41mm\n    height: 8.5mm") == 1  # the counts' box
    word = "players" if lang == "en" else "Spielerinnen"
    count = re.compile(rf"\d+(?:–\d+)? {word}: \d+")
    broke = []
    for width in range(28, 62, 2):
        layout.write_text(original.replace("width: 41mm\n    height: 8.5mm",  # room for lines
                                           f"width: {width}mm\n    height: 12mm"), "utf-8")
        doc = read_document(game / "rules.md")
        if lang != "en":
            doc = translated(doc, read_catalog(doc, lang), "en")
        text = [ln.replace("\u00a0", " ") for ln in lines(card(doc, "order-slips",
                                                                  RACE.tables()))]
        start = next(n for n, ln in enumerate(text) if ln.startswith(("Pigeons to", "Tauben auf")))
        said = text[start:start + 4]
        whole = " ".join(said)
        assert len(count.findall(whole)) == 3, said
        broke += [(width, said) for found in count.findall(whole)
                  if not any(found in ln for ln in said)]
    assert broke == []


def test_the_reference_card_prints_the_rulebooks_quick_reference_and_the_engines_limits(
) -> None:
    doc = doc_of("pigeon")
    text = " ".join(lines(card(doc, "reference", PIGEON.tables())))
    from rulepress.pnp.faces.rulebook import RuleBook

    for row in RuleBook(doc).section("quick-reference").table():
        first = next(iter(row.values()))
        assert f"{first}:" in text
    assert f"Upright: hand limit {HAND_LIMIT} · Sideways: limit {PENALTY_LIMIT}" in text


@pytest.mark.parametrize(("engine", "game", "cid", "old", "new", "seen"), [
    (PIGEON, "pigeon", "reference", "| Set | One or more cards of one rank. |",
     "| Set | Any cards at all, even odd socks. |", "Any cards at all, even odd socks."),
    (PIGEON, "pigeon", "pigeon-card", "| Pigeon | At limit 4,",
     "| Pigeon | Flies home to roost; at limit 4,", "Flies home to roost"),
    (RACE, "pigeon-race", "scoring-card", "**Scoring.** Each pigeon on your slip scores",
     "**Scoring.** Every bird you bet on scores", "Every bird you bet on scores"),
    (RACE, "pigeon-race", "player-aid", "Discard, draw one card.",
     "Discard, then draw two cards and sing.", "then draw two cards and sing."),
    (GO_STOP, "go-stop", "reference-cards", "| Bomb | 1 junk from each other player, 2 passes |",
     "| Bomb | a loud bang and 3 passes |", "a loud bang and 3 passes"),
    (GO_STOP, "go-stop", "reserve-cards", "| Reserve card | doubles the final score, each |",
     "| Reserve card | squares your score |", "squares your score"),
])
def test_editing_the_rulebook_changes_the_card(
    tmp_path: Path, engine: GameEngine, game: str, cid: str, old: str, new: str, seen: str,
) -> None:
    folder = tmp_path / game
    shutil.copytree(SOURCES / game, folder)
    rules = folder / "rules.md"
    text = rules.read_text()
    assert old in text
    rules.write_text(text.replace(old, new))
    printed = " ".join(lines(card(read_document(rules), cid, engine.tables())))
    before = " ".join(lines(card(doc_of(game), cid, engine.tables())))
    assert seen in printed and seen not in before


@pytest.mark.parametrize(("engine", "game", "cid", "table", "change", "seen"), [
    (RACE, "pigeon-race", "scoring-card", "scores", ("1st", "2nd", 9), "9"),
    (RACE, "pigeon-race", "order-slips", "allotment", (0, "write", 7), "7th"),
    (PIGEON, "pigeon", "reference", "hand_limit", (0, "lowered", 3), "Sideways: limit 3"),
    (GO_STOP, "go-stop", "reserve-cards", "markers", (0, "mark", "\u00d73"), "\u00d73"),
    (WORM_DERBY, "worm-derby", "coins", "coins", (0, "suit", "arms"), "\u269c"),
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
    engine = dataclasses.replace(engine, tables=lambda: tables)
    printed = " ".join(lines(card(doc_of(game), cid, engine.tables())))
    before = " ".join(lines(card(doc_of(game), cid, original)))
    assert seen in printed and seen not in before


def test_the_six_pigeons_on_the_cards_are_the_engines() -> None:
    pigeons = RACE.tables()["pigeons"]
    assert [p["number"] for p in pigeons] == list(PIGEONS)


def test_the_player_aid_prints_the_quick_reference_and_agrees_with_the_engine() -> None:
    import re

    from rulepress.games.cards import FACES
    from rulepress.games.pigeon_race.cards import DECK as RACE_DECK
    from rulepress.games.pigeon_race.rules import half
    from rulepress.pnp.faces.rulebook import RuleBook

    doc = doc_of("pigeon-race")
    printed = " ".join(lines(card(doc, "player-aid", RACE.tables())))
    quick = RuleBook(doc).section("quick-reference")
    for part in ("Your turn", "The end", "Scoring"):
        first = " ".join(quick.part(part).split()[:6])
        assert first in printed, part
    # What the card states, checked against the engine's own values.
    courts = sorted({c.rank for c in RACE_DECK if c.rank > 10})
    assert ", ".join(f"{FACES[(r - 1) % 13]} {r}" for r in courts) in printed
    assert half(3) == 2 and half(4) == 2 and "half, rounded up" in printed
    scores = re.search(r"(\d+) in the exact place, then ((?:\d+, )+\d+)", printed)
    assert scores, printed
    assert [int(scores.group(1)), *map(int, scores.group(2).split(", "))] == list(SCORE_TABLE[0])


def pigeon_row(doc: Document) -> str:
    from rulepress.pnp.faces.rulebook import RuleBook

    table = RuleBook(doc).section("quick-reference").table()
    return next(r["In short"] for r in table if r["Rule"] == "Pigeon")


def test_the_pigeon_token_agrees_with_the_rulebook_and_the_engines_limits() -> None:
    doc = doc_of("pigeon")
    printed = " ".join(lines(card(doc, "pigeon-card", PIGEON.tables())))
    assert " ".join(pigeon_row(doc).split()[:5]) in printed
    assert f"At limit {PENALTY_LIMIT}," in printed and f"limit back to {HAND_LIMIT}" in printed

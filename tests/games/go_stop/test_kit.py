"""The Go-Stop kit measured from PDFs: every face drawn, text inside the safe area, two sizes."""

from __future__ import annotations

import io
import re
from collections import Counter
from pathlib import Path

import pdfplumber
import pytest
from reportlab.pdfgen.canvas import Canvas

from rulepress.document.reader import read_document
from rulepress.games.base import derive
from rulepress.games.go_stop import ENGINE, rules
from rulepress.pnp.api import Face
from rulepress.pnp.faces import Art
from rulepress.pnp.kit import build_kit, with_variant

pytestmark = pytest.mark.slow  # the game's whole kit drawn, both papers

SOURCE = Path(__file__).parents[3] / "sources" / "go-stop" / "rules.md"
DOC = read_document(SOURCE)
PT = 72 / 25.4
BLEED = 3 * PT
HWATU = (33 * PT, 54 * PT)
POKER = (63.5 * PT, 88.9 * PT)
REFERENCE = (69.85 * PT, 120.65 * PT)  # the scoring card, tarot size: its text at 6 pt or more


@pytest.fixture(scope="module")
def kit() -> tuple[bytes, dict[str, int]]:
    k = build_kit(DOC, ENGINE.drawers(), "a4", tables=ENGINE.tables())
    return k.pdf, dict(k.drawn)


def test_every_component_is_drawn_in_full(kit: tuple[bytes, dict[str, int]]) -> None:
    _, drawn = kit
    for comp in DOC.meta.components:
        assert drawn[comp.id] == comp.count, comp.id


def test_value_classes_on_the_card_sheets() -> None:
    words: Counter[str] = Counter()
    # Each face alone: on the kit's mixed sheets cards may lie on their side.
    with pdfplumber.open(io.BytesIO(faces_pdf("player_card", HWATU, 48))) as doc:
        for page in doc.pages:
            words.update(w["text"] for w in page.extract_words())
    assert (words["BRIGHT"], words["ANIMAL"], words["RIBBON"], words["JUNK"]) == (5, 9, 10, 24)


def faces_pdf(name: str, size: tuple[float, float], count: int) -> bytes:
    """Each face on its own page: the page is the bleed box, so the trim starts at BLEED. A
    drawer of the engine by its name, or a layout-drawn component by its id."""
    w, h = size
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(w + 2 * BLEED, h + 2 * BLEED))
    drawers = ENGINE.drawers()
    if name in drawers:
        drawer = drawers[name]
    else:
        doc = with_variant(DOC, "poker") if size == POKER else DOC
        comp = next(x for x in doc.meta.components if x.id == name)
        drawer = Art(doc, ENGINE.tables()).drawer(comp, False)
    for i in range(count):
        c.translate(BLEED, BLEED)
        drawer(c, Face(index=i, count=count, width=w, height=h, bleed=BLEED))
        c.showPage()
    c.save()
    return buf.getvalue()


@pytest.mark.parametrize("size", [HWATU, POKER], ids=["hwatu", "poker"])
@pytest.mark.parametrize(
    ("name", "count"),
    [("player_card", 48), ("card_back", 1), ("reserve-cards", 1),
     ("additional-point-cards", 1)],
)
def test_card_text_stays_in_the_safe_area(name: str, count: int,
                                          size: tuple[float, float]) -> None:
    w, h = size
    safe = 8.5 - 0.5  # a little tolerance for glyph side bearings
    with pdfplumber.open(io.BytesIO(faces_pdf(name, size, count))) as doc:
        assert len(doc.pages) == count
        for n, page in enumerate(doc.pages):
            chars = page.chars
            assert chars, f"{name} {n} draws text"
            for ch in chars:
                assert BLEED + safe <= ch["x0"] and ch["x1"] <= BLEED + w - safe, (n, ch["text"])
                # pdfplumber's top is measured from the page top.
                assert BLEED + safe - 2 <= ch["top"] and ch["bottom"] <= BLEED + h - safe + 2


def test_player_cards_show_number_and_value_large() -> None:
    with pdfplumber.open(io.BytesIO(faces_pdf("player_card", HWATU, 48))) as doc:
        for i, page in enumerate(doc.pages):
            big = [ch for ch in page.chars if ch["size"] >= 20]
            assert "".join(ch["text"] for ch in big) == str(i // 4 + 1)


def test_tokens_and_reference_card_draw() -> None:
    for name, size, count in (("player_token", (24 * PT, 24 * PT), 3),
                              ("reference-cards", REFERENCE, 1)):
        with pdfplumber.open(io.BytesIO(faces_pdf(name, size, count))) as doc:
            texts = ["".join(ch["text"] for ch in p.chars) for p in doc.pages]
        if name == "player_token":
            assert texts == ["1", "2", "3"]
        else:
            assert "Threshold" in texts[0]


def test_reference_card_text_stays_in_the_safe_area() -> None:
    w, h = REFERENCE
    safe = 8.5 - 0.5
    with pdfplumber.open(io.BytesIO(faces_pdf("reference-cards", REFERENCE, 1))) as doc:
        for ch in doc.pages[0].chars:
            assert BLEED + safe <= ch["x0"] and ch["x1"] <= BLEED + w - safe, ch["text"]
            assert BLEED + safe - 2 <= ch["top"] and ch["bottom"] <= BLEED + h - safe + 2


def printed(name: str, size: tuple[float, float] = POKER) -> str:
    with pdfplumber.open(io.BytesIO(faces_pdf(name, size, 1))) as doc:
        return " ".join((doc.pages[0].extract_text() or "").split())


def reserves_multiply(reserves: int) -> int:
    """What ``reserves`` reserve cards do to a final score, by the engine's own scoring."""
    base = derive(rules.RULES.new_game(2, seed=0), gos=(1, 0))
    return derive(base, reserves=(reserves, 0)).final_score(0) // base.final_score(0)


def test_reference_card_prints_the_quick_reference_and_agrees_with_the_engine() -> None:
    from rulepress.pnp.faces.rulebook import RuleBook

    text = printed("reference-cards", REFERENCE).replace("\u2019", "'")  # typographic apostrophes
    quick = RuleBook(DOC).section("quick-reference")
    for table in quick.tables:
        for row in table:
            assert next(iter(row.values())).split(" (")[0] in text
    threshold = re.search(r"Threshold: (\d+) points with two players, (\d+) with three", text)
    assert threshold and {2: int(threshold[1]), 3: int(threshold[2])} == rules.THRESHOLD
    ordinal = {6: "Sixth", 7: "Seventh", 8: "Eighth", 9: "Ninth"}[rules.ANIMAL_RESERVE_AT]
    assert f"{ordinal} animal (first time): a reserve card" in text
    doubling = re.search(r"\(one card ×(\d+), two ×(\d+), three ×(\d+)\)", text)
    assert doubling and [int(v) for v in doubling.groups()] == [reserves_multiply(k)
                                                                  for k in (1, 2, 3)]


@pytest.mark.parametrize("size", [HWATU, POKER], ids=["hwatu", "poker"])
def test_reserve_and_point_cards_state_the_rulebook_and_the_engines_marks(
    size: tuple[float, float],
) -> None:
    from rulepress.pnp.faces.rulebook import RuleBook

    rows = {r["Cards"]: r["Points"] for r in RuleBook(DOC).section("quick-reference").table()}
    reserve = printed("reserve-cards", size)
    assert f"×{reserves_multiply(1)}" in reserve and rows["Reserve card"] in reserve
    state = rules.RULES.new_game(2, seed=0)
    one = derive(state, gos=(1, 0)).current_points(0) - state.current_points(0)
    point = printed("additional-point-cards", size)
    assert f"+{one}" in point and rows["Additional point card"] in point

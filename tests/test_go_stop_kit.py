"""The Go-Stop kit measured from PDFs: every face drawn, text inside the safe area, two sizes."""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

import pdfplumber
import pytest
from reportlab.pdfgen.canvas import Canvas

from rulepress.document.reader import read_document
from rulepress.games.go_stop import ENGINE
from rulepress.pnp.api import Face
from rulepress.pnp.kit import build_kit

SOURCE = Path(__file__).parents[1] / "sources" / "go-stop" / "rules.md"
DOC = read_document(SOURCE)
PT = 72 / 25.4
BLEED = 3 * PT
HWATU = (33 * PT, 54 * PT)
POKER = (63.5 * PT, 88.9 * PT)


@pytest.fixture(scope="module")
def kit() -> tuple[bytes, dict[str, int]]:
    k = build_kit(DOC, ENGINE.drawers(), "a4")
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
    """Each face on its own page: the page is the bleed box, so the trim starts at BLEED."""
    w, h = size
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(w + 2 * BLEED, h + 2 * BLEED))
    drawer = ENGINE.drawers()[name]
    for i in range(count):
        c.translate(BLEED, BLEED)
        drawer(c, Face(index=i, count=count, width=w, height=h, bleed=BLEED))
        c.showPage()
    c.save()
    return buf.getvalue()


@pytest.mark.parametrize("size", [HWATU, POKER], ids=["hwatu", "poker"])
@pytest.mark.parametrize(
    ("name", "count"),
    [("player_card", 48), ("card_back", 1), ("reserve_card", 1), ("point_card", 1)],
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
                              ("reference_card", POKER, 1)):
        with pdfplumber.open(io.BytesIO(faces_pdf(name, size, count))) as doc:
            texts = ["".join(ch["text"] for ch in p.chars) for p in doc.pages]
        if name == "player_token":
            assert texts == ["1", "2", "3"]
        else:
            assert "Threshold" in texts[0]


def test_reference_card_text_stays_in_the_safe_area() -> None:
    w, h = POKER
    safe = 8.5 - 0.5
    with pdfplumber.open(io.BytesIO(faces_pdf("reference_card", POKER, 1))) as doc:
        for ch in doc.pages[0].chars:
            assert BLEED + safe <= ch["x0"] and ch["x1"] <= BLEED + w - safe, ch["text"]
            assert BLEED + safe - 2 <= ch["top"] and ch["bottom"] <= BLEED + h - safe + 2


def test_reference_card_agrees_with_the_engine() -> None:
    from rulepress.games.go_stop import pnp, rules

    footer = " ".join(pnp.REFERENCE_FOOTER)
    assert f"{rules.THRESHOLD[2]} points (2 players), {rules.THRESHOLD[3]} (3 players)" in footer
    assert "doubled per reserve card" in footer and "Last turn: stop only" in footer
    events = dict(pnp.REFERENCE_EVENTS)
    assert events[f"{rules.ANIMAL_RESERVE_AT}th animal"] == "reserve card"
    assert events["Own column"] == "2 D each" and events["Other's column"] == "1 D each"

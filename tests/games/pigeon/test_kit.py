"""The Pigeon kit measured from the PDFs themselves: sizes, bleed, safe text, greyscale suits."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from reportlab.pdfgen.canvas import Canvas

from rulepress.document.reader import read_document
from rulepress.games.pigeon import ENGINE
from rulepress.games.pigeon.cards import DECK
from rulepress.pnp.api import Face
from rulepress.pnp.faces import Art

pytestmark = pytest.mark.slow  # the game's whole kit drawn, both papers

SOURCE = Path(__file__).parents[3] / "sources" / "pigeon" / "rules.md"
DOC = read_document(SOURCE)
COMPONENTS = {c.id: c for c in DOC.meta.components}
PT = 72 / 25.4
BLEED = 3 * PT
MARGIN = 20.0


def draw_alone(name: str, index: int = 0, back: bool = False) -> tuple[Any, float, float]:
    """One face by its drawer's name, or by its component's id when a layout draws it."""
    comp = next(c for c in DOC.meta.components if name in (c.front, c.back, c.id))
    assert comp.size is not None
    w, h = comp.size.points
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(w + 2 * MARGIN, h + 2 * MARGIN))
    c.translate(MARGIN, MARGIN)
    drawers = ENGINE.drawers()
    draw = drawers[name] if name in drawers else Art(DOC, ENGINE.tables()).drawer(comp, back)
    draw(c, Face(index, comp.count, w, h, BLEED, back=back))
    c.showPage()
    c.save()
    return pdfplumber.open(io.BytesIO(buf.getvalue())), w, h


def test_kit_draws_every_component_in_full() -> None:
    from rulepress.pnp.kit import build_kit

    kit = build_kit(DOC, ENGINE.drawers(), "a4", tables=ENGINE.tables())
    drawn = dict(kit.drawn)
    for comp in DOC.meta.components:
        assert drawn.get(comp.id) == comp.count, comp.id
    with pdfplumber.open(io.BytesIO(kit.pdf)) as pdf:
        assert len(pdf.pages) >= 10


def test_sizes_are_poker_cards_and_a_coin() -> None:
    for cid in ("deck", "pigeon-card", "reference"):
        size = COMPONENTS[cid].size
        assert size is not None and (size.width, size.height) == (63.5, 88.9)
    coin = COMPONENTS["pigeon-coin"].size
    assert coin is not None and coin.width == coin.height and 25 <= coin.width <= 40


@pytest.mark.parametrize(
    ("name", "index"),
    [
        ("card_front", 0),
        ("card_front", 37),
        ("card_back", 0),
        ("pigeon-card", 0),
        ("reference", 1),
    ],
)
def test_artwork_fills_the_bleed_and_text_stays_safe(name: str, index: int) -> None:
    pdf, w, h = draw_alone(name, index, back=name == "card_back")
    with pdf:
        page = pdf.pages[0]
        big = [
            r
            for r in page.rects
            if abs(r["width"] - (w + 2 * BLEED)) < 0.5 and abs(r["height"] - (h + 2 * BLEED)) < 0.5
        ]
        assert big, "a background covering trim and bleed"
        assert abs(big[0]["x0"] - (MARGIN - BLEED)) < 0.5
        safe = Face(0, 1, w, h, BLEED).safe
        for ch in page.chars:
            assert ch["x0"] >= MARGIN + safe - 0.5 and ch["x1"] <= MARGIN + w - safe + 0.5
            assert page.height - ch["bottom"] >= MARGIN + safe - 0.5
            assert page.height - ch["top"] <= MARGIN + h - safe + 0.5


def test_round_token_bleeds_past_its_circle() -> None:
    pdf, w, h = draw_alone("pigeon_coin")
    with pdf:
        widths = [c["x1"] - c["x0"] for c in pdf.pages[0].curves]
        assert max(widths) == pytest.approx(w + 2 * BLEED, abs=0.5)


@pytest.mark.parametrize("index", range(52))
def test_every_card_shows_its_rank_in_both_corners(index: int) -> None:
    card = DECK[index]
    pdf, _, _ = draw_alone("card_front", index)
    with pdf:
        text = "".join(ch["text"] for ch in pdf.pages[0].chars)
        big = [ch for ch in pdf.pages[0].chars if ch["size"] >= 20]
    assert text.count(card.rank_name) >= 2
    assert len(big) >= 2 * len(card.rank_name)  # large indices, top-left and bottom-right


def _grey(colour: Any) -> float:
    """Luminance (0 black - 1 white) of a pdfplumber colour tuple."""
    if colour is None:
        return 1.0
    values = list(colour) if isinstance(colour, list | tuple) else [colour]
    if len(values) == 3:
        r, g, b = values
        return 0.299 * r + 0.587 * g + 0.114 * b
    return float(values[0])


@pytest.mark.parametrize(("index", "red"), [(13, True), (26, True), (0, False), (45, False)])
def test_red_suits_are_hollow_and_black_suits_solid(index: int, red: bool) -> None:
    """Greyscale: a red pip is a white shape with an outline, a black pip a dark solid."""
    pdf, _, _ = draw_alone("card_front", index)
    with pdf:
        pips = [c for c in pdf.pages[0].curves if 5 < c["x1"] - c["x0"] < 80]
        assert pips
        for pip in pips:
            if red:
                assert pip["stroke"] and _grey(pip["non_stroking_color"]) > 0.95
            else:
                assert pip["fill"] and _grey(pip["non_stroking_color"]) < 0.2


def test_reference_cards_cover_the_whole_turn() -> None:
    pdf, _, _ = draw_alone("reference")
    with pdf:
        text = pdf.pages[0].extract_text() or ""
    for word in (
        "Aim",
        "Your turn",
        "Connection",
        "Set",
        "String",
        "New pile",
        "Sweep",
        "Forceplay",
        "Pigeon",
    ):
        assert word in text


def test_reference_card_marks_the_hand_limit_below_the_rules() -> None:
    """The card doubles as each player's hand-limit marker; the rules text must not run into it."""
    pdf, _, _ = draw_alone("reference")
    with pdf:
        page = pdf.pages[0]
        words = page.extract_words()
        rule = min(page.lines, key=lambda ln: ln["top"], default=None)
    marker = [w for w in words if w["text"] == "Upright:"]
    assert marker and "Sideways:" in [w["text"] for w in words]
    assert rule is not None and rule["top"] < marker[0]["top"]
    above = [w for w in words if w["top"] < rule["top"]]
    assert len(above) + len([w for w in words if w["top"] > rule["top"]]) == len(words)
    assert max(w["bottom"] for w in above) < rule["top"] - 1
    below = {w["text"] for w in words if w["top"] > rule["top"]}
    assert below == {"Upright:", "hand", "limit", "5", "·", "Sideways:", "4"}


def test_pigeon_token_states_the_quick_references_pigeon_row() -> None:
    from rulepress.pnp.faces.rulebook import RuleBook

    row = next(r for r in RuleBook(DOC).section("quick-reference").table()
               if r["Rule"] == "Pigeon")
    pdf, _, _ = draw_alone("pigeon-card")
    with pdf:
        text = " ".join((pdf.pages[0].extract_text() or "").split())
    assert row["In short"] in text

"""The Pigeon Race kit measured from the PDFs themselves: squares, pawns, cards, counts."""

from __future__ import annotations

import io
from pathlib import Path

import pdfplumber
import pytest
from reportlab.pdfgen.canvas import Canvas

from rulepress.document.reader import read_document
from rulepress.games.pigeon_race import ENGINE
from rulepress.pnp.api import Face
from rulepress.pnp.faces import Art
from rulepress.pnp.kit import build_kit

pytestmark = pytest.mark.slow  # the game's whole kit drawn, both papers

SOURCE = Path(__file__).parents[3] / "sources" / "pigeon-race" / "rules.md"
DOC = read_document(SOURCE)
COMPONENTS = {c.id: c for c in DOC.meta.components}
PT = 72 / 25.4  # points per mm
BLEED = 3 * PT


def mm(points: float) -> float:
    return points / PT


@pytest.fixture(scope="module", params=["a4", "letter"])
def kit_pdf(request: pytest.FixtureRequest) -> tuple[str, bytes, dict[str, int]]:
    kit = build_kit(DOC, ENGINE.drawers(), request.param, tables=ENGINE.tables())
    return request.param, kit.pdf, dict(kit.drawn)


def test_kit_draws_every_printed_component_in_full(
    kit_pdf: tuple[str, bytes, dict[str, int]],
) -> None:
    _, _, drawn = kit_pdf
    for comp in DOC.meta.components:
        if comp.in_kit:
            assert drawn[comp.id] == comp.count, comp.id
    assert "deck" not in drawn  # a standard deck is used, not printed


def test_board_squares_are_at_least_18mm(kit_pdf: tuple[str, bytes, dict[str, int]]) -> None:
    _, pdf, _ = kit_pdf
    squares = []
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        for page in doc.pages:
            text = page.extract_text() or ""
            if "Race board" not in text:
                continue
            for r in page.rects:
                w, h = mm(r["width"]), mm(r["height"])
                if 15 < w < 30 and abs(w - h) < 0.2:
                    squares.append(w)
    # 6 lanes x 30 squares, some repeated where tiles overlap.
    assert len(squares) >= 180
    assert min(squares) >= 18.0
    assert max(squares) - min(squares) < 0.05


def draw_alone(name: str) -> tuple[bytes, float, float]:
    """One face by its drawer's name, or by its component's id when a layout draws it."""
    comp = next(c for c in DOC.meta.components if name in (c.front, c.id))
    assert comp.size is not None
    w, h = comp.size.points
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(w + 40, h + 40))
    c.translate(20, 20)
    drawers = ENGINE.drawers()
    draw = drawers[name] if name in drawers else Art(DOC, ENGINE.tables()).drawer(comp, False)
    draw(c, Face(0, comp.count, w, h, BLEED))
    c.showPage()
    c.save()
    return buf.getvalue(), w, h


@pytest.mark.parametrize("name", ["board", "pigeon", "scoring-card", "order-slips", "player-aid"])
def test_artwork_fills_the_bleed(name: str) -> None:
    pdf, w, h = draw_alone(name)
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        page = doc.pages[0]
        big = [r for r in page.rects if abs(r["width"] - (w + 2 * BLEED)) < 0.5]
        assert big, "a background covering trim and bleed"
        r = big[0]
        assert abs(r["x0"] - (20 - BLEED)) < 0.5
        assert abs(r["height"] - (h + 2 * BLEED)) < 0.5
        # No text outside the safe area.
        safe = Face(0, 1, w, h, BLEED).safe
        for ch in page.chars:
            assert ch["x0"] >= 20 + safe - 0.5 and ch["x1"] <= 20 + w - safe + 0.5
            top = page.height - ch["bottom"]
            assert top >= 20 + safe - 0.5 and page.height - ch["top"] <= 20 + h - safe + 0.5


def test_component_sizes() -> None:
    pigeon = COMPONENTS["pigeons"].size
    assert pigeon is not None and pigeon.width <= 18  # fits a square of the board
    for cid in ("scoring-card", "order-slips", "player-aid"):
        size = COMPONENTS[cid].size
        assert size is not None and sorted((size.width, size.height)) == [63.5, 88.9]


def test_pawns_are_numbered_one_to_six() -> None:
    comp = COMPONENTS["pigeons"]
    assert comp.size is not None
    w, h = comp.size.points
    for i in range(6):
        buf = io.BytesIO()
        c = Canvas(buf, pagesize=(w, h))
        ENGINE.drawers()["pigeon"](c, Face(i, 6, w, h, BLEED))
        c.save()
        with pdfplumber.open(io.BytesIO(buf.getvalue())) as doc:
            text = doc.pages[0].extract_text() or ""
        assert str(i + 1) in text


def test_home_column_marks_finishing_places() -> None:
    # Home pigeons stand in the first free home box, so the board must number those boxes.
    pdf, _, _ = draw_alone("board")
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        words = {w["text"] for w in doc.pages[0].extract_words()}
    assert {"1st", "2nd", "3rd", "4th", "5th", "6th"} <= words


def test_the_low_ink_board_has_bare_squares_counted_from_its_edges() -> None:
    """Low ink leaves out the tint and the number inside each square: the numbers above and
    below the track (and the line at every fifth square) still count them."""
    from rulepress.pnp.kit import Options

    def board_pages(ink: str) -> list[tuple[int, int, int]]:
        """(digits, digits in bold, filled squares) of each board page."""
        kit = build_kit(DOC, ENGINE.drawers(), "a4", tables=ENGINE.tables(),
                        options=Options(ink=ink, only=frozenset({"board"})))
        with pdfplumber.open(io.BytesIO(kit.pdf)) as doc:
            return [(sum(ch["text"].isdigit() for ch in page.chars),
                     sum(ch["text"].isdigit() and "Bold" in ch["fontname"] for ch in page.chars),
                     sum(1 for r in page.rects if r["fill"] and 15 < mm(r["width"]) < 30))
                    for page in doc.pages[1:]]  # after the cover (front only: no check back)

    normal, low = board_pages("normal"), board_pages("low")
    assert len(normal) == len(low) >= 3
    for (digits_n, bold_n, filled_n), (digits_l, bold_l, filled_l) in zip(normal, low,
                                                                          strict=True):
        assert bold_l == bold_n > 0  # the numbers along the track stay
        assert digits_n - digits_l >= 60  # 6 lanes of at least 10 numbered squares
        assert filled_n - filled_l >= 60 and filled_l <= 12  # start and home boxes only


def test_low_ink_pawns_keep_their_patterns_as_outlines() -> None:
    """Checks and dots tell pigeons apart even in greyscale; in low ink they are outlined,
    not filled, so the same pattern shows for a fraction of the ink."""
    from rulepress.pnp.ink import KitCanvas

    comp = COMPONENTS["pigeons"]
    assert comp.size is not None
    w, h = comp.size.points

    def shapes(number: int, low: bool) -> tuple[int, int]:
        """(filled, outlined) small shapes on pawn ``number``: the pattern's checks or dots."""
        buf = io.BytesIO()
        c = KitCanvas(buf, pagesize=(w, h))
        with c.low_ink(w, h, on=low):
            ENGINE.drawers()["pigeon"](c, Face(number - 1, 6, w, h, BLEED, low_ink=low))
        c.save()
        with pdfplumber.open(io.BytesIO(buf.getvalue())) as doc:
            page = doc.pages[0]
            small = [s for s in page.rects + page.curves if s["width"] < 13 and s["height"] < 13]
            return (sum(1 for s in small if s["fill"]),
                    sum(1 for s in small if s["stroke"] and not s["fill"]))

    for number in (3, 4):  # dots, checks
        filled, outlined = shapes(number, low=False)
        assert filled >= 20 and outlined == 0, (number, filled, outlined)
        filled, outlined = shapes(number, low=True)
        assert filled <= 8 and outlined >= 20, (number, filled, outlined)  # the bird's parts

"""Every bundled kit read back from its PDFs as a printer and a player would: no text under
6 pt anywhere (code drawers, layouts, covers, footers), no ink in the 6.35 mm a home printer
cannot reach, poker decks 9-up, front-only kits printed single-sided, no command lines, and a
cover that names the kit's own tiles."""

from __future__ import annotations

import io
import math
import re
from pathlib import Path

import pypdfium2
import pytest
from pypdf import PdfReader
from shared import kept_once

from rulepress.document.reader import read_sources
from rulepress.games import contract, load_engine
from rulepress.pnp.ink import MIN_TEXT
from rulepress.pnp.kit import Kit, Options, build_kit, plan_kit, versions
from rulepress.pnp.layout import MARGIN

pytestmark = pytest.mark.slow  # every bundled kit drawn on both papers, in both modes

ROOT = Path(__file__).resolve().parents[1]
MODES = [(paper, sides) for paper in ("a4", "letter") for sides in ("two", "one")]


@pytest.fixture(scope="module")
def kits(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str, str], Kit]:
    """(game or game (variant), paper, sides) -> the kit, for every bundled kit: drawn once a
    run, whichever worker asks first (shared.kept_once)."""
    return kept_once(tmp_path_factory, "bundled-kits-all-modes", _kits)


def _kits() -> dict[tuple[str, str, str], Kit]:
    out = {}
    for doc in read_sources(ROOT / "sources", ()):
        engine = load_engine(doc.meta.engine) if doc.meta.engine else None
        drawers, tables = (engine.drawers() if engine else {}), contract.tables(engine)
        for variant, version in versions(doc):
            name = doc.slug + (f" ({variant})" if variant else "")
            for paper, sides in MODES:
                out[name, paper, sides] = build_kit(version, drawers, paper, tables=tables,
                                                    options=Options(sides=sides))
    return out


def glyph_sizes(pdf: bytes) -> list[tuple[float, int, str]]:
    """(size in points as printed, page, text) of every run of text: the font size times the
    text and current matrices' vertical scale, so a face drawn scaled is measured as printed."""
    found: list[tuple[float, int, str]] = []
    for n, page in enumerate(PdfReader(io.BytesIO(pdf)).pages, 1):
        def visit(text: str, cm: list[float], tm: list[float], font: object, size: float,
                  n: int = n) -> None:
            if text.strip():
                c = tm[2] * cm[0] + tm[3] * cm[2]
                d = tm[2] * cm[1] + tm[3] * cm[3]
                found.append((size * math.hypot(c, d), n, text.strip()))

        page.extract_text(visitor_text=visit)
    return found


def test_the_measure_reads_a_drawer_scaled_text_as_printed() -> None:
    """The measure is not the font size alone: 12 pt drawn at half scale prints at 6 pt."""
    from reportlab.pdfgen.canvas import Canvas

    buf = io.BytesIO()
    c = Canvas(buf)
    c.scale(0.5, 0.5)
    c.setFont("Helvetica", 12)
    c.drawString(100, 100, "half")
    c.rotate(90)
    c.setFont("Helvetica", 10)
    c.drawString(100, -100, "turned")
    c.save()
    assert sorted((round(s, 3), t) for s, _, t in glyph_sizes(buf.getvalue())) == [
        (5.0, "turned"), (6.0, "half")]


@pytest.mark.parametrize("key", [(g, p, s) for g in ("go-stop", "go-stop (poker)", "pigeon",
                                                      "pigeon-race", "worm-derby")
                                 for p, s in MODES], ids=" ".join)
def test_no_text_under_six_points_and_no_ink_in_the_printer_margin(
    key: tuple[str, str, str], kits: dict[tuple[str, str, str], Kit],
) -> None:
    kit = kits[key]
    smallest = min(glyph_sizes(kit.pdf))
    assert smallest[0] >= MIN_TEXT - 1e-3, f"{key}: {smallest}"
    doc = pypdfium2.PdfDocument(kit.pdf)
    dpi = 72
    edge = math.floor(MARGIN * dpi / 72) - 1  # a pixel's antialiasing inside the line allowed
    for n in range(len(doc)):
        img = doc[n].render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
        w, h = img.size
        strips = [(0, 0, edge, h), (w - edge, 0, w, h), (0, 0, w, edge), (0, h - edge, w, h)]
        for box in strips:
            darkest = img.crop(box).getextrema()[0]
            assert darkest >= 245, f"{key}: ink in the margin of page {n + 1} at {box}"


@pytest.mark.parametrize("key", ["a4", "letter"])
def test_a_poker_deck_prints_nine_to_a_sheet_cards_touching(
        key: str, kits: dict[tuple[str, str, str], Kit]) -> None:
    """Pigeon's 52 cards are poker size: 3 x 3 to a sheet, butting, as a PnP deck is cut, on
    A4 and on US Letter (where the three rows fill the 266.7 mm between the margins)."""
    from rulepress.pnp.layout import paper

    doc = next(d for d in read_sources(ROOT / "sources", ()) if d.slug == "pigeon")
    sheets = plan_kit(doc, paper(key), Options())
    decks = [[s.trim for s in x.front.slots if s.component == "deck"] for x in sheets]
    assert [len(d) for d in decks] == [9, 9, 9, 9, 9, 7, 0]
    for trims in decks[:5]:
        xs = sorted({round(t[0], 3) for t in trims} | {round(t[2], 3) for t in trims})
        ys = sorted({round(t[1], 3) for t in trims} | {round(t[3], 3) for t in trims})
        assert len(xs) == len(ys) == 4  # three columns and three rows share their cuts
    # Read back from the PDF: every front of a card sheet carries its printing's stamp, once
    # per face, and the 55 poker-size pieces and the round Pigeon take 7 sheets and a cover:
    # the deck's own six, then the other pieces (the round one has no stamp: its art leaves
    # no corner of its safe area blank).
    pdf = kits["pigeon", key, "two"].pdf
    texts = [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]
    fronts = [text for text in texts if " \u00b7 fronts: " in text or " \u00b7 pieces: " in text]
    assert [text.count("v1.0") for text in fronts] == [9, 9, 9, 9, 9, 7, 3]
    assert sheets_of(pdf) == 8 and "This kit: 8 sheets" in PdfReader(io.BytesIO(pdf)).pages[
        0].extract_text()


def sheets_of(pdf: bytes) -> int:
    """Sheets of paper: pages, less those printed on the back of another."""
    reverse = ("backs:", "Printer check, back", "back of the cover")
    return sum(1 for page in PdfReader(io.BytesIO(pdf)).pages
               if not any(r in page.extract_text() for r in reverse))


def test_a_full_height_sheet_keeps_its_marks_bleed_and_footer_off_the_margin(
        kits: dict[tuple[str, str, str], Kit]) -> None:
    """US Letter's 9-up deck reaches from margin to margin: its artwork stops at the top and
    bottom cut, the row cuts are marked in the side strips, the column cuts by ticks on the
    block's edges, and the footer runs up the left strip; nothing inked in the 6.35 mm."""
    from rulepress.pnp.layout import paper

    p = paper("letter")
    doc = next(d for d in read_sources(ROOT / "sources", ()) if d.slug == "pigeon")
    full = [x for x in plan_kit(doc, p, Options()) if x.front.full_height]
    assert len(full) == 5  # the deck's 52 cards: 45 margin to margin, its last 7 on their own
    for printed in full:
        for sheet in (printed.front, printed.back):
            assert sheet is not None and sheet.full_height
            x0, y0, x1, y1 = sheet.trim_box
            assert (round(y0, 3), round(y1, 3)) == (round(MARGIN, 3), round(p.height - MARGIN, 3))
            assert sheet.bleed_box[1] >= MARGIN - 1e-6 and sheet.bleed_box[3] <= p.height - MARGIN
            for mx0, my0, mx1, my1 in sheet.marks:
                assert min(mx0, mx1) >= MARGIN - 1e-6 and max(mx0, mx1) <= p.width - MARGIN
                # Row cuts on the margin's edge are drawn clipped to the printable area.
                assert min(my0, my1) >= MARGIN - 1e-6
                assert max(my0, my1) <= p.height - MARGIN + 1e-6
    cover = PdfReader(io.BytesIO(kits["pigeon", "letter", "two"].pdf)).pages[0].extract_text()
    assert "cut those edges exactly on the marks" in " ".join(cover.split())


def test_front_only_kits_print_single_sided_without_a_duplex_check(
        kits: dict[tuple[str, str, str], Kit]) -> None:
    for paper in ("a4", "letter"):
        kit = kits["pigeon-race", paper, "two"]
        cover = " ".join(PdfReader(io.BytesIO(kit.pdf)).pages[0].extract_text().split())
        assert kit.duplex_pages == 0
        assert "single-sided" in cover and "double-sided" not in cover, cover
        assert "target" not in cover and "printer check, back" not in cover
        assert kit.pdf == kits["pigeon-race", paper, "one"].pdf  # one kit, whatever is asked


def test_nothing_printed_gives_a_command_line(kits: dict[tuple[str, str, str], Kit]) -> None:
    for key, kit in kits.items():
        for n, page in enumerate(PdfReader(io.BytesIO(kit.pdf)).pages, 1):
            text = " ".join(page.extract_text().split())
            assert not re.search(r"rulepress (pnp|build|check)|(^|\s)--[a-z]", text), (key, n)


def test_the_cover_names_the_tiles_the_kit_prints(kits: dict[tuple[str, str, str], Kit]) -> None:
    kit = kits["pigeon-race", "a4", "two"]
    pages = [" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(kit.pdf)).pages]
    tiles = [m[1] for text in pages[1:] for m in [re.search(r" \u00b7 tile (\w+) \u00b7 ", text)]
             if m]
    assert tiles == ["A1", "B1", "C1"]
    assert f"join the tiles in label order ({', '.join(tiles)})" in pages[0]
    assert "tape or glue" in pages[0]  # the rulebook says the board's sheets are taped

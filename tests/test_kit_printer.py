"""Kits a printer accepts, read back from the bundled kits' PDFs: version stamps inside the safe
area on blank paper (off frames and art), component tables that give the size printed, and a
proof page that says it is for the screen."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from functools import cache
from pathlib import Path

import pdfplumber
import pypdfium2
import pytest
from pypdf import PdfReader

from rulepress.document.model import Document
from rulepress.document.reader import read_document
from rulepress.games import contract, load_engine
from rulepress.pnp.api import Face
from rulepress.pnp.kit import Kit, Options, Printed, build_kit, plan_kit, with_variant
from rulepress.pnp.layout import paper
from rulepress.pnp.pack import GUTTER
from rulepress.pnp.proof import proof

ROOT = Path(__file__).resolve().parents[1]
SAFE = Face(0, 1, 1.0, 1.0, 0.0).safe
DPI = 150


def game(slug: str) -> tuple[Document, dict[str, object], dict[str, object]]:
    doc = read_document(ROOT / "sources" / slug / "rules.md")
    engine = load_engine(doc.meta.engine) if doc.meta.engine else None
    return doc, (engine.drawers() if engine else {}), contract.tables(engine)


@cache
def kit(slug: str, stamped: bool = True) -> tuple[Kit, list[Printed]]:
    """The game's A4 kit (``stamped=False``: its printing unnamed, so no stamp) and its
    sheets."""
    doc, drawers, tables = game(slug)
    if not stamped:
        doc = replace(doc, meta=replace(doc.meta, version=None))
    made = build_kit(doc, drawers, "a4", tables=tables)  # type: ignore[arg-type]
    return made, plan_kit(doc, paper("a4"), Options(), edge_keys_of(doc, drawers, tables))


def stamp_boxes(page: object, version: str) -> list[tuple[float, float, float, float]]:
    """The boxes of the stamps on ``page`` (PDF coordinates, y up): runs of the version's
    characters in the stamp's grey, upright or turned with their piece."""
    chars = [ch for ch in page.chars  # type: ignore[attr-defined]
             if tuple(ch["non_stroking_color"] or ()) in ((0.5,), (0.5, 0.5, 0.5))]
    h = page.height  # type: ignore[attr-defined]
    boxes: list[list[float]] = []
    for ch in sorted(chars, key=lambda c: (c["x0"], c["top"])):
        x0, y0, x1, y1 = ch["x0"], h - ch["bottom"], ch["x1"], h - ch["top"]
        near = next((b for b in boxes if x0 <= b[2] + 1 and b[0] - 1 <= x1
                     and y0 <= b[3] + 1 and b[1] - 1 <= y1), None)
        if near is None:
            boxes.append([x0, y0, x1, y1])
        else:
            near[:] = [min(near[0], x0), min(near[1], y0), max(near[2], x1), max(near[3], y1)]
    assert len(chars) == len(version) * len(boxes)
    return [(b[0], b[1], b[2], b[3]) for b in boxes]


def sheet_pages(made: Kit, printed: list[Printed]) -> list[tuple[int, Printed]]:
    """(page number from 0, sheet) of each sheet's fronts: the cover's pages come first."""
    pages = sum(2 if x.back is not None else 1 for x in printed)
    n = made.pages - pages
    found = []
    for x in printed:
        found.append((n, x))
        n += 2 if x.back is not None else 1
    return found


@pytest.mark.parametrize("slug", ["worm-derby", "go-stop"])
def test_stamps_sit_inside_the_safe_area_on_blank_paper(slug: str) -> None:
    made, printed = kit(slug)
    bare, _ = kit(slug, stamped=False)
    version = f"v{read_document(ROOT / 'sources' / slug / 'rules.md').meta.version}"
    scale = DPI / 72
    checked = 0
    missing: dict[tuple[float, ...], str] = {}  # faces without a stamp
    with pdfplumber.open(io.BytesIO(made.pdf)) as pdf:
        raster = pypdfium2.PdfDocument(bare.pdf)
        for n, sheet in sheet_pages(made, printed):
            page = pdf.pages[n]
            h = page.height
            stamps = stamp_boxes(page, version)
            trims = {s.trim: s.component for s in sheet.front.slots if not s.back}
            missing.update(trims)
            image = raster[n].render(scale=scale).to_pil().convert("L")
            for x0, y0, x1, y1 in stamps:
                trim = next(t for t in trims if t[0] <= x0 and x1 <= t[2] and t[1] <= y0
                            and y1 <= t[3])
                # Inside the safe area: 3 mm from every cut.
                assert x0 >= trim[0] + SAFE - 0.3 and y0 >= trim[1] + SAFE - 0.3, (n, x0, y0)
                assert x1 <= trim[2] - SAFE + 0.3 and y1 <= trim[3] - SAFE + 0.3, (n, x0, y0)
                # On blank paper: the same page without stamps has one colour under the box
                # (no frame line, band edge, text or art crosses it).
                box = (round(x0 * scale), round((h - y1) * scale), round(x1 * scale),
                       round((h - y0) * scale))
                low, high = image.crop(box).getextrema()
                assert high - low <= 12, (n, x0, y0, low, high)
                checked += 1
                missing.pop(trim)
        raster.close()
    # Every front has one but a small piece whose art leaves no corner of its safe area blank
    # (Worm Derby's coins and pawns, two of Go-Stop's 24 mm tokens): none rather than on the art.
    assert set(missing.values()) == ({"player-tokens"} if slug == "go-stop" else {"coins", "pawns"})
    assert checked + len(missing) == sum(len(x.front.slots) for x in printed) > 20


def test_worm_derby_stamps_stay_off_the_tile_frames() -> None:
    # A tile's frame is a rounded rectangle 0.6 x safe inside the 2 in cut (its drawer): each
    # stamp is inside it, where it once printed across it, 1.5 mm from the corner.
    made, printed = kit("worm-derby")
    side = 144 - 2 * 0.6 * SAFE
    checked = 0
    with pdfplumber.open(io.BytesIO(made.pdf)) as pdf:
        for n, _ in sheet_pages(made, printed):
            page = pdf.pages[n]
            frames = [c for c in page.curves if c["stroke"] and abs(c["width"] - side) < 0.5
                      and abs(c["height"] - side) < 0.5]
            for x0, y0, _, y1 in stamp_boxes(page, "v1.1"):
                top, bottom = page.height - y1, page.height - y0
                frame = next((f for f in frames if f["x0"] <= x0 <= f["x1"]
                              and f["top"] <= top <= f["bottom"]), None)
                if frame is None:
                    continue  # a coin's, a die's
                lw = frame["linewidth"] / 2
                assert x0 > frame["x0"] + lw and bottom < frame["bottom"] - lw
                checked += 1
    assert checked == 24  # every tile: 4 suits x (null, ace, 2 to 5)


def test_a_size_variant_kit_s_table_gives_the_size_printed() -> None:
    doc, drawers, tables = game("go-stop")
    poker = build_kit(with_variant(doc, "poker"), drawers, "a4", tables=tables,  # type: ignore
                      variant="poker")
    with pdfplumber.open(io.BytesIO(poker.pdf)) as pdf:
        cover = " ".join(pdf.pages[0].extract_text().split())
    assert "hwatu" not in cover.lower()
    assert "Player cards, numbers 1 to 12, four of each 48 63.5 x 88.9 mm" in cover
    assert "printed at poker size in this kit" in cover
    assert "33 x 54 mm" not in cover


def test_the_proof_page_says_it_is_for_the_screen() -> None:
    doc, drawers, tables = game("go-stop")
    data = proof(doc, drawers, tables)  # type: ignore[arg-type]
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        page = pdf.pages[0]
        text = " ".join(page.extract_text().split())
        size = f"{page.width / 72 * 25.4:.0f} x {page.height / 72 * 25.4:.0f} mm"
    assert (f"Go-Stop: every distinct face at 1:1, to look at on screen at 100% zoom. This page "
            f"is {size}, not a paper size: do not print it; print the kit (rulepress pnp) "
            "instead.") in text
    assert page.width > 420 / 25.4 * 72  # larger than any home printer's paper


CLIP = re.compile(rb"(-?[\d.]+) (-?[\d.]+) ([\d.]+) ([\d.]+) re W n")


def clips(pdf: bytes, page: int) -> list[tuple[float, float, float, float]]:
    """The bleed rectangles of a sheet's faces: each face's art is clipped to one (x0, y0, x1,
    y1), read from the page's content stream."""
    data = PdfReader(io.BytesIO(pdf)).pages[page].get_contents().get_data()  # type: ignore
    found = [(float(x), float(y), float(x) + float(w), float(y) + float(h))
             for x, y, w, h in CLIP.findall(data)]
    return list(dict.fromkeys(found))  # a face and its stamp share one


@pytest.mark.parametrize("variant", ["", "poker"])
def test_go_stop_cards_have_bleed_on_every_side_and_never_touch(variant: str) -> None:
    # The cards' bands and pictures reach their cuts in colours that differ card to card: each
    # card keeps 3 mm of bleed all round, so two cards' trims are 6 mm apart (an off cut shows
    # the card's own colour, never its neighbour's), where they once shared a cut.
    doc, drawers, tables = game("go-stop")
    if variant:
        doc = with_variant(doc, variant)
    made = build_kit(doc, drawers, "a4", tables=tables, variant=variant)  # type: ignore
    bleed = 3 * 72 / 25.4
    sizes = {round(v, 1) for c in doc.meta.components if c.size for v in c.size.points}
    seen = 0
    for n, sheet in sheet_pages(made, plan_kit(doc, paper("a4"), Options(),
                                               edge_keys_of(doc, drawers, tables))):
        rects = clips(made.pdf, n)
        cards = [r for r in rects if round(r[2] - r[0] - 2 * bleed, 1) in sizes
                 and round(r[3] - r[1] - 2 * bleed, 1) in sizes]
        trims = [s.trim for s in sheet.front.slots]
        assert len(cards) == len(trims), (n, len(cards), len(trims))
        for clip in cards:  # the trim it bleeds around, 3 mm out on every side
            assert any(all(abs(clip[k] - (t[k] + (bleed if k > 1 else -bleed))) < 0.01
                           for k in range(4)) for t in trims), clip
        for i, a in enumerate(cards):  # bleeds meet at most, never overlap
            for b in cards[i + 1:]:
                assert min(a[2], b[2]) - max(a[0], b[0]) < 0.01 or \
                    min(a[3], b[3]) - max(a[1], b[1]) < 0.01, (n, a, b)
        seen += len(cards)
    assert seen == sum(c.count for c in doc.meta.components if c.in_kit)


def edge_keys_of(doc: Document, drawers: object, tables: object) -> dict[str, str]:
    from rulepress.pnp.kit import _jobs, edge_keys

    return edge_keys(_jobs(doc, drawers, tables, Options()).values())  # type: ignore


def test_what_a_piece_s_cut_edges_show_is_measured() -> None:
    assert set(edge_keys_of(*game("go-stop")).values()) == {GUTTER}  # bands, pictures
    worm = edge_keys_of(*game("worm-derby"))
    assert worm["tiles"].startswith("#") and worm["coins"] == GUTTER  # cream to the cut; round
    assert edge_keys_of(*game("pigeon"))["deck"].startswith("#")  # white-edged cards butt


@pytest.mark.parametrize(("slug", "variant", "deck"), [
    ("go-stop", "", "Player cards, numbers 1 to 12, four of each"),
    ("go-stop", "poker", "Player cards, numbers 1 to 12, four of each"),
    ("pigeon", "", None)])
def test_a_deck_s_sheets_hold_only_that_deck(slug: str, variant: str, deck: str | None) -> None:
    doc, drawers, tables = game(slug)
    if variant:
        doc = with_variant(doc, variant)
    made = build_kit(doc, drawers, "a4", tables=tables, variant=variant)  # type: ignore
    name = deck or next(c.name for c in doc.meta.components if c.id == "deck")
    footers = [" ".join(page.extract_text().split()) for page in
               PdfReader(io.BytesIO(made.pdf)).pages]
    footers = [f.rsplit(f"{doc.meta.title} \u00b7 ", 1)[-1] for f in footers
               if re.search(r" \u00b7 sheet \d+ of \d+", f)]
    holding = [f for f in footers if name in f and f.startswith(("fronts:", "pieces:"))]
    assert holding
    for text in holding:  # the footer lists the sheet's components: the deck alone
        listed = text.split("fronts: " if "fronts: " in text else "pieces: ")[1]
        assert listed.startswith(f"{name} \u00b7 sheet "), listed

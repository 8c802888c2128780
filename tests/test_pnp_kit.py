"""Print-and-play kits measured from the PDF itself (pdfplumber, pypdf, pypdfium2)."""

from __future__ import annotations

import io
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pdfplumber
import pypdf
import pytest
from fixtures.pnp import fixture_game as G  # tests/ is on sys.path (conftest.py)

from rulepress.diagnostics import RulepressError
from rulepress.pnp.kit import Kit, Options, build_kit, count_drawn, draw_kits, kit_diagnostics
from rulepress.pnp.layout import PAPERS
from rulepress.units import Size, mm
from rulepress.write import write_set

MARGIN = mm(6.35)
TOL = mm(0.1)
BLEED = mm(3)
KIND_OF = {v: k for k, v in G.KINDS.items()}
COMPONENT_OF_KIND = {"card": "deck", "coin": "coins", "tile": "tiles", "big": "big"}


@dataclass(frozen=True)
class FaceSeen:
    kind: str
    index: int
    back: bool
    x0: float  # bleed rectangle, PDF coordinates (origin bottom-left)
    y0: float
    x1: float
    y1: float

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2

    @property
    def trim(self) -> tuple[float, float, float, float]:
        return self.x0 + BLEED, self.y0 + BLEED, self.x1 - BLEED, self.y1 - BLEED


def _decode(colour: Any) -> tuple[str, int, bool] | None:
    if not isinstance(colour, tuple) or len(colour) != 3:
        return None
    k, i, s = round(colour[0] * 16, 3), round(colour[1] * 64, 3), round(colour[2] * 4, 3)
    if k != int(k) or int(k) not in KIND_OF or i != int(i) or s not in (1, 3):
        return None
    return KIND_OF[int(k)], int(i), s == 3


def faces(page: Any) -> list[FaceSeen]:
    """Every component face on a page, told apart by the fixture drawers' fill colours."""
    h = page.height
    out = []
    for r in page.rects:
        who = _decode(r["non_stroking_color"])
        if who and who[0] != "board":
            out.append(FaceSeen(*who, r["x0"], h - r["bottom"], r["x1"], h - r["top"]))
    return out


def marks(page: Any) -> list[tuple[float, float, float, float]]:
    """Black crop-mark segments (x0, y0, x1, y1), PDF coordinates."""
    h = page.height
    return [
        (ln["x0"], h - ln["bottom"], ln["x1"], h - ln["top"])
        for ln in page.lines
        if ln["stroking_color"] in ((0.0,), (0, 0, 0), (0.0, 0.0, 0.0), 0) and not ln.get("dash")
        and abs(ln["linewidth"] - mm(0.25)) < 0.01
    ]


def cut_lines(page: Any) -> list[tuple[str, float, float, float]]:
    """The cuts a ruler makes joining facing crop marks: ("x", x, y0, y1) for a vertical cut
    from y0 to y1, ("y", y, x0, x1) for a horizontal one. Marks on one line are joined two by
    two in order along it, each pair and the gap between them being one cut (a mark outside
    the pieces adds nothing; a full-height sheet's tick lies on the pieces' own edge)."""
    by_line: dict[tuple[str, float], list[tuple[float, float]]] = {}
    for x0, y0, x1, y1 in marks(page):
        if abs(x0 - x1) < 1e-6:
            by_line.setdefault(("x", round(x0, 3)), []).append((min(y0, y1), max(y0, y1)))
        else:
            by_line.setdefault(("y", round(y0, 3)), []).append((min(x0, x1), max(x0, x1)))
    found = []
    for (axis, at), spans in by_line.items():
        spans.sort()
        found += [(axis, at, a[0], b[1]) for a, b in zip(spans, spans[1:], strict=False)]
    return found


def cuts(page: Any) -> tuple[list[float], list[float]]:
    """Every x of a vertical cut and every y of a horizontal one."""
    lines = cut_lines(page)
    return (sorted({c[1] for c in lines if c[0] == "x"}),
            sorted({c[1] for c in lines if c[0] == "y"}))


REVERSE = ("backs:", "printer check, back", "back of the cover")


def texts(pdf: Any) -> list[str]:
    """Each page's text as pypdf reads it, a footer turned up a page's side included."""
    pdf.stream.seek(0)
    return [page.extract_text() for page in pypdf.PdfReader(pdf.stream).pages]


def paper_sheets(pdf: Any) -> int:
    """Sheets of paper: every page but those printed on the reverse of another (by footer)."""
    return sum(1 for text in texts(pdf) if not any(r in text for r in REVERSE))


def full_height(page: Any) -> bool:
    """A sheet whose pieces reach from the top margin to the bottom one (Letter's 9-up)."""
    trims = [f.trim for f in faces(page)]
    return any(abs(t[1] - MARGIN) < TOL for t in trims) and any(
        abs(t[3] - (page.height - MARGIN)) < TOL for t in trims)


def cut_size(page: Any, f: FaceSeen) -> tuple[float, float]:
    """The piece the cuts around a face leave: the nearest cuts on each side that run the whole
    length of the face's edge."""
    tx0, ty0, tx1, ty1 = f.trim
    cx, cy = f.centre
    lines = cut_lines(page)
    xs = [c[1] for c in lines if c[0] == "x" and c[2] <= ty0 + 0.05 and c[3] >= ty1 - 0.05]
    ys = [c[1] for c in lines if c[0] == "y" and c[2] <= tx0 + 0.05 and c[3] >= tx1 - 0.05]
    w = min(x for x in xs if x > cx) - max(x for x in xs if x < cx)
    h = min(y for y in ys if y > cy) - max(y for y in ys if y < cy)
    return w, h


@pytest.fixture(scope="module", params=["a4", "letter"])
def kit(request: pytest.FixtureRequest) -> Kit:
    return build_kit(G.standard(), G.DRAWERS, request.param)


@pytest.fixture(scope="module")
def pdf(kit: Kit) -> Any:
    return pdfplumber.open(io.BytesIO(kit.pdf))


def _declared(doc: Any) -> dict[str, Any]:
    return {c.id: c for c in doc.meta.components}


def test_every_trimmed_face_has_its_declared_size(pdf: Any) -> None:
    declared = _declared(G.standard())
    seen = 0
    for page in pdf.pages:
        for f in faces(page):
            comp = declared[COMPONENT_OF_KIND[f.kind]]
            # The trimmed piece is what the cuts around it leave, and no cut crosses a face.
            w, h = cut_size(page, f)
            want = comp.size.points
            assert (abs(w - want[0]) < TOL and abs(h - want[1]) < TOL) or (
                abs(w - want[1]) < TOL and abs(h - want[0]) < TOL
            ), (page.page_number, f, w / mm(1), h / mm(1))
            # and the artwork runs a full bleed past those cuts on every side
            assert abs(f.x1 - f.x0 - w - 2 * BLEED) < TOL
            assert abs(f.y1 - f.y0 - h - 2 * BLEED) < TOL
            seen += 1
    assert seen > 0


def test_faces_of_one_size_either_way_round_share_sheets_each_turned_right() -> None:
    """Portrait and landscape cards of one size pack together; each is turned by its own
    size, so its art covers its own cell and its cuts leave its declared size."""
    doc = G.document(
        G.component("deck", 3, name="Poker deck", count=4, size=Size(63.5, 88.9),
                    front="card_front"),
        G.component("tiles", 4, name="Tiles", count=3, size=Size(88.9, 63.5), front="tile"),
    )
    kit = build_kit(doc, G.DRAWERS, "a4")
    pdf = pdfplumber.open(io.BytesIO(kit.pdf))
    sizes = {"card": (63.5, 88.9), "tile": (88.9, 63.5)}
    mixed = 0
    for page in pdf.pages:
        for f in faces(page):
            w, h = cut_size(page, f)
            assert sorted((round(w / mm(1), 1), round(h / mm(1), 1))) == sorted(sizes[f.kind])
            assert abs(f.x1 - f.x0 - w - 2 * BLEED) < TOL and abs(f.y1 - f.y0 - h - 2 * BLEED) < TOL
        mixed += len({f.kind for f in faces(page)}) == 2
    assert mixed and kit.sheets == 2  # the cover, and one sheet of seven


def test_no_cut_crosses_a_face(pdf: Any) -> None:
    for page in pdf.pages:
        trims = [f.trim for f in faces(page)]
        for axis, at, a, b in cut_lines(page):
            seg = (at, a, at, b) if axis == "x" else (a, at, b, at)
            for t in trims:
                assert not _crosses(seg, t), (page.page_number, axis, at, t)


def test_small_pieces_share_sheets(kit: Kit, pdf: Any) -> None:
    """Coins, tiles and both decks are packed together: fewer sheets than one per component."""
    kinds = [{f.kind for f in faces(page) if not f.back} for page in pdf.pages]
    assert any(len(k) >= 2 for k in kinds)
    assert kit.sheets == paper_sheets(pdf)
    assert all(0 < f <= 1 for f in kit.fill)


def test_counts_drawn_equal_the_declared_counts(kit: Kit, pdf: Any) -> None:
    doc = G.standard()
    fronts: dict[str, set[int]] = {}
    for page in pdf.pages:
        for f in faces(page):
            if not f.back:
                fronts.setdefault(COMPONENT_OF_KIND[f.kind], set()).add(f.index)
    for comp in doc.meta.components:
        if comp.in_kit and comp.id != "track":
            assert len(fronts[comp.id]) == comp.count, comp.id
    assert dict(kit.drawn) == {c.id: c.count for c in doc.meta.components if c.in_kit}
    assert count_drawn(doc, G.DRAWERS) == dict(kit.drawn)
    assert kit_diagnostics(doc, G.DRAWERS) == []
    assert kit.pages == len(pdf.pages)


def test_everything_lies_inside_the_printable_margin(pdf: Any) -> None:
    for page in pdf.pages:
        w, h = page.width, page.height
        board = any(r["non_stroking_color"] == G.colour("board", 0, False) for r in page.rects)
        # A board, and a full-height sheet's art, are drawn whole and clipped at the cut.
        clipped = board or full_height(page)
        objects = page.chars + page.lines + ([] if clipped else page.rects + page.curves)
        for o in objects:
            assert o["x0"] >= MARGIN - 1e-3 and o["x1"] <= w - MARGIN + 1e-3, (page, o)
            assert o["top"] >= MARGIN - 1e-3 and o["bottom"] <= h - MARGIN + 1e-3, (page, o)


def test_rendered_pages_are_blank_within_the_margin(kit: Kit) -> None:
    """The clipped artwork as a printer would see it (boards are drawn whole, then clipped)."""
    pdfium = pytest.importorskip("pypdfium2")
    doc = pdfium.PdfDocument(kit.pdf)
    dpi = 50
    band = int(6.35 / 25.4 * dpi) - 1  # whole pixels safely inside the margin
    for n in range(len(doc)):
        img = doc[n].render(scale=dpi / 72, grayscale=True).to_pil()
        px = img.load()
        wid, hei = img.size
        for y in range(hei):
            for x in list(range(band)) + list(range(wid - band, wid)):
                assert px[x, y] >= 250, (n + 1, x, y)
        for x in range(wid):
            for y in list(range(band)) + list(range(hei - band, hei)):
                assert px[x, y] >= 250, (n + 1, x, y)


def _crosses(seg: tuple[float, float, float, float], r: tuple[float, ...]) -> bool:
    x0, y0, x1, y1 = min(seg[0], seg[2]), min(seg[1], seg[3]), max(seg[0], seg[2]), max(
        seg[1], seg[3]
    )
    eps = 1e-3
    return x0 < r[2] - eps and x1 > r[0] + eps and y0 < r[3] - eps and y1 > r[1] + eps


def test_crop_marks_for_every_trim_edge_and_none_over_a_trim(pdf: Any) -> None:
    for page in pdf.pages:
        fs = faces(page)
        if not fs:
            continue
        h = page.height
        every_line = [(ln["x0"], h - ln["bottom"], ln["x1"], h - ln["top"]) for ln in page.lines]
        xs, ys = cuts(page)
        for f in fs:
            tx0, ty0, tx1, ty1 = f.trim
            for x in (tx0, tx1):
                assert any(abs(x - c) < 0.05 for c in xs), (page.page_number, f, "x", x)
            for y in (ty0, ty1):
                assert any(abs(y - c) < 0.05 for c in ys), (page.page_number, f, "y", y)
            for seg in every_line:
                assert not _crosses(seg, f.trim), (page.page_number, f, seg)


def _pairs(pdf: Any) -> list[tuple[Any, Any]]:
    """(front page, back page) for every sheet with backs."""
    pages = pdf.pages
    return [
        (pages[i], pages[i + 1])
        for i in range(len(pages) - 1)
        if any(not f.back for f in faces(pages[i])) and any(f.back for f in faces(pages[i + 1]))
    ]


def _registered(front: Any, back: Any, flip: Any) -> None:
    """Every back on ``back`` lies exactly behind its own front (shared backs: behind a front
    of their kind), and every front of a kind with backs has one behind it."""
    fronts = {(f.kind, f.index): flip(*f.centre) for f in faces(front)}
    backs = faces(back)
    assert backs
    for f in backs:
        x, y = f.centre
        if f.kind in G.SHARED_BACK:
            want = [c for (kind, _), c in fronts.items() if kind == f.kind]
        else:
            want = [fronts[(f.kind, f.index)]]
        assert any(abs(x - wx) < 0.01 and abs(y - wy) < 0.01 for wx, wy in want), (f, want)
    with_backs = {f.kind for f in backs}
    assert len(backs) == sum(1 for kind, _ in fronts if kind in with_backs)


def test_each_back_lies_behind_its_front_long_edge(pdf: Any) -> None:
    pairs = _pairs(pdf)
    assert pairs
    for front, back in pairs:
        _registered(front, back, lambda x, y, w=front.width: (w - x, y))


def test_short_edge_backs_mirror_y() -> None:
    kit = build_kit(G.standard(), G.DRAWERS, "a4", options=Options(duplex="short"))
    pdf = pdfplumber.open(io.BytesIO(kit.pdf))
    pairs = _pairs(pdf)
    assert pairs
    for front, back in pairs:
        _registered(front, back, lambda x, y, h=front.height: (x, h - y))


def test_trim_and_bleed_boxes_on_every_page(kit: Kit, pdf: Any) -> None:
    reader = pypdf.PdfReader(io.BytesIO(kit.pdf))
    for page, plumb in zip(reader.pages, pdf.pages, strict=True):
        assert "/TrimBox" in page and "/BleedBox" in page
        trim = [float(v) for v in page["/TrimBox"]]
        bleed = [float(v) for v in page["/BleedBox"]]
        assert bleed[0] <= trim[0] and bleed[1] <= trim[1]
        assert bleed[2] >= trim[2] and bleed[3] >= trim[3]
        for f in faces(plumb):
            t = f.trim
            assert trim[0] - 0.01 <= t[0] and t[2] <= trim[2] + 0.01
            assert trim[1] - 0.01 <= t[1] and t[3] <= trim[3] + 0.01
        if faces(plumb):  # a sheet of pieces: the boxes hug them, inside the margin
            assert bleed[0] >= MARGIN - 0.01 and bleed[2] <= plumb.width - MARGIN + 0.01
            assert trim != [0, 0, plumb.width, plumb.height]


def test_shared_back_is_one_form_placed_many_times(kit: Kit) -> None:
    reader = pypdf.PdfReader(io.BytesIO(kit.pdf))
    forms = set()
    for page in reader.pages:
        xobjects = page["/Resources"].get("/XObject", {})
        for name, ref in xobjects.items():
            if "rpBack_deck" in name or "rpBack_big" in name:
                forms.add((name, ref.idnum))
    assert len(forms) == 2  # one form each for the deck's and the big deck's back
    assert kit.backs["deck"] == 11 and kit.backs["big"] == 18


def test_cover_lists_components_and_instructions(pdf: Any) -> None:
    text = pdf.pages[0].extract_text()
    for needle in ("Poker deck", "Coins", "Tiles", "Track", "Rule sheet", "not in the kit",
                   "read the rulebook instead", "100%", "long edge", "Cutting", "Printer check",
                   "Boards:", "Backs are printed behind their fronts"):
        assert needle in text, needle
    assert "Printer check, back" in pdf.pages[1].extract_text()


def test_footer_names_game_component_sheet_and_paper(kit: Kit, pdf: Any) -> None:
    label = PAPERS[kit.paper].label
    for page, whole in zip(pdf.pages, texts(pdf), strict=True):
        bottom = page.crop((0, page.height - MARGIN - mm(5), page.width, page.height))
        # A full-height sheet's footer runs up its left side.
        text = whole if full_height(page) else bottom.extract_text()
        assert "Fixture Game" in text and label in text, text
        if faces(page):
            assert "sheet" in text and any(n in text for n in ("Poker deck", "Coins", "Tiles",
                                                               "Big deck")), text


def test_builds_are_byte_identical(kit: Kit) -> None:
    again = build_kit(G.standard(), G.DRAWERS, kit.paper)
    assert again.pdf == kit.pdf


def test_draw_kits_gives_one_pdf_per_paper_and_writes_nothing(tmp_path: Path) -> None:
    kits = draw_kits(G.standard(), G.DRAWERS, ["a4", "letter"], tmp_path)
    assert list(kits) == [tmp_path / "fixture" / "fixture-a4.pdf", tmp_path / "fixture" /
                          "fixture-letter.pdf"]
    assert all(pdf.startswith(b"%PDF") for pdf in kits.values())
    assert not any(tmp_path.iterdir())


def test_oversize_component_that_is_not_tileable_is_an_error_at_its_line() -> None:
    doc = G.document(G.component("mat", 12, count=1, size=Size(300, 300), front="tile"))
    with pytest.raises(RulepressError) as err:
        build_kit(doc, G.DRAWERS, "a4")
    (diag,) = err.value.diagnostics
    assert diag.loc == G.component("mat", 12, count=1).loc
    assert "tileable" in diag.message and "does not fit" in diag.message
    with pytest.raises(RulepressError):
        count_drawn(doc, G.DRAWERS)


def test_missing_drawers_are_errors_at_their_lines() -> None:
    doc = G.document(
        G.component("a", 3, count=2, size=Size(50, 50), front="nope"),
        G.component("b", 9, count=2, size=Size(50, 50), front="tile", back="gone"),
        G.component("c", 14, count=2, front="tile"),
    )
    with pytest.raises(RulepressError) as err:
        build_kit(doc, G.DRAWERS, "letter")
    lines = sorted(d.loc.line for d in err.value.diagnostics if d.loc)
    assert lines == [3, 9, 14]
    assert "nope" in str(err.value) and "gone" in str(err.value) and "no size" in str(err.value)


def test_a_different_count_drawn_fails_at_the_declaration(monkeypatch: pytest.MonkeyPatch) -> None:
    import rulepress.pnp.kit as kit

    real = kit.drawn_in
    monkeypatch.setattr(kit, "drawn_in", lambda printed: {k: n - 1 for k, n in
                                                         real(printed).items()})
    diags = kit_diagnostics(G.standard(), G.DRAWERS)
    assert [d.loc.line for d in diags if d.loc] == [10, 18, 26, 32, 36]
    assert "draws 10 of 'deck'" in diags[0].message and "declares 11" in diags[0].message


def test_zero_bleed_butts_faces_and_still_marks_every_edge() -> None:
    doc = G.document(replace(G.standard().meta.components[0], count=9))
    kit = build_kit(doc, G.DRAWERS, "a4", options=Options(bleed_mm=0))
    pdf = pdfplumber.open(io.BytesIO(kit.pdf))
    page = pdf.pages[2]
    xs, ys = cuts(page)
    assert len(faces(page)) == 9 and len(xs) == 4 and len(ys) == 4  # shared cut lines


def test_a_long_component_list_flows_over_the_cover_and_keeps_sheets_paired() -> None:
    extras = [G.component(f"bit{k}", 50 + k, count=k + 1, note=f"spare part {k}")
              for k in range(60)]
    doc = G.document(*extras, G.standard().meta.components[0])
    kit = build_kit(doc, G.DRAWERS, "letter")
    pdf = pdfplumber.open(io.BytesIO(kit.pdf))
    text = "".join(page.extract_text() for page in pdf.pages[:4])
    assert "spare part 0" in text and "spare part 59" in text and "Cutting" in text
    check = next(n for n, page in enumerate(pdf.pages) if "Printer check" in page.extract_text())
    assert check % 2 == 0  # on a front (odd page, 1-based)
    for page in pdf.pages[:check]:
        for ch in page.chars:
            assert ch["top"] >= MARGIN - 1e-3 and ch["bottom"] <= page.height - MARGIN + 1e-3
    fronts = [n for n, page in enumerate(pdf.pages) if any(not f.back for f in faces(page))]
    assert fronts and all(n % 2 == 0 for n in fronts)


def test_printer_check_has_true_rulers_and_a_back_target_behind_the_front_one(pdf: Any) -> None:
    check, back = pdf.pages[0], pdf.pages[1]
    lengths = [ln["x1"] - ln["x0"] for ln in check.lines if ln["top"] == ln["bottom"]]
    assert any(abs(n - mm(100)) < 1e-3 for n in lengths)
    assert any(abs(n - mm(101.6)) < 1e-3 for n in lengths)

    def centres(page: Any) -> set[tuple[float, float]]:
        return {(round((c["x0"] + c["x1"]) / 2, 2), round((c["top"] + c["bottom"]) / 2, 2))
                for c in page.curves}

    front_targets = {(round(check.width - x, 2), y) for x, y in centres(check)}
    assert front_targets and front_targets <= centres(back)


def test_a_size_variant_is_a_kit_of_its_own_at_that_size(tmp_path: Path) -> None:
    doc = G.standard()
    comps = tuple(
        replace(c, variants={"mini": Size(44, 63)}) if c.id == "deck" else c
        for c in doc.meta.components
    )
    doc = replace(doc, meta=replace(doc.meta, components=comps))
    written = write_set(tmp_path, draw_kits(doc, G.DRAWERS, ["a4"], tmp_path))
    assert sorted(p.name for p in written) == [f"{doc.slug}-a4-mini.pdf", f"{doc.slug}-a4.pdf"]
    sizes: dict[str, set[tuple[float, float]]] = {}
    for path in written:
        with pdfplumber.open(path) as pdf:
            for page in pdf.pages:
                for f in faces(page):
                    if f.kind != "card" or f.back:
                        continue
                    w, h = cut_size(page, f)
                    dims = tuple(sorted((round(w / mm(1), 1), round(h / mm(1), 1))))
                    sizes.setdefault(path.name, set()).add(dims)  # type: ignore[arg-type]
    assert sizes[f"{doc.slug}-a4.pdf"] == {(63.5, 88.9)}
    assert sizes[f"{doc.slug}-a4-mini.pdf"] == {(44.0, 63.0)}
    assert kit_diagnostics(doc, G.DRAWERS) == []

"""Kit modes measured from the PDFs: single-sided gutter folds, --only, low ink, the honest cover,
fill against the rendered page, and the options' errors."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pdfplumber
import pypdfium2
import pytest
from click.testing import CliRunner
from fixtures.pnp import fixture_game as G  # tests/ is on sys.path (conftest.py)
from test_pnp_kit import MARGIN, faces, paper_sheets

from rulepress.cli import main
from rulepress.diagnostics import RulepressError
from rulepress.pnp.kit import Kit, Options, build_kit, draw_kits, kit_options, kit_path
from rulepress.pnp.layout import MARK_WIDTH
from rulepress.units import Size

pytestmark = pytest.mark.slow  # kits built end to end

SOURCES = Path(__file__).parents[1] / "sources"


def build(**options: Any) -> tuple[Kit, Any]:
    kit = build_kit(G.standard(), G.DRAWERS, options.pop("paper", "a4"),
                    options=Options(**options))
    return kit, pdfplumber.open(io.BytesIO(kit.pdf))


@pytest.fixture(scope="module")
def one_sided() -> tuple[Kit, Any]:
    return build(sides="one")


def fold_marks(page: Any) -> list[tuple[float, float, float, float]]:
    h = page.height
    return [(ln["x0"], h - ln["bottom"], ln["x1"], h - ln["top"]) for ln in page.lines
            if ln.get("dash") and ln["dash"][0] and abs(ln["linewidth"] - MARK_WIDTH) < 0.01]


def _touch(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """Two trims side by side or one above the other, sharing a whole edge."""
    same_y = abs(a[1] - b[1]) < 0.01 and abs(a[3] - b[3]) < 0.01
    same_x = abs(a[0] - b[0]) < 0.01 and abs(a[2] - b[2]) < 0.01
    return (same_y and (abs(a[2] - b[0]) < 0.01 or abs(b[2] - a[0]) < 0.01)) or (
        same_x and (abs(a[3] - b[1]) < 0.01 or abs(b[3] - a[1]) < 0.01))


def test_single_sided_prints_no_backs_and_folds_each_front_onto_its_back(
    one_sided: tuple[Kit, Any],
) -> None:
    kit, pdf = one_sided
    assert kit.duplex_pages == 0 and kit.sheets == len(pdf.pages) == paper_sheets(pdf)
    pairs = 0
    for page in pdf.pages:
        seen = faces(page)
        folds = fold_marks(page)
        for back in (f for f in seen if f.back):
            # Its front: the face of its kind it touches (a shared back shows copy 0 on all).
            front = next(f for f in seen if not f.back and f.kind == back.kind and (
                f.index == back.index or f.kind in G.SHARED_BACK) and _touch(f.trim, back.trim))
            (fx0, fy0, fx1, fy1), (bx0, by0, bx1, by1) = front.trim, back.trim
            # Side by side, touching on the fold: the back is the front's mirror image there.
            if abs(fx1 - bx0) < 0.01 or abs(bx1 - fx0) < 0.01:
                fold = fx1 if abs(fx1 - bx0) < 0.01 else fx0
                assert abs(fy0 - by0) < 0.01 and abs(fy1 - by1) < 0.01
                assert any(abs(m[0] - fold) < 0.01 and abs(m[2] - fold) < 0.01 for m in folds)
            else:
                assert abs(fy1 - by0) < 0.01 or abs(by1 - fy0) < 0.01, (front, back)
                fold = fy1 if abs(fy1 - by0) < 0.01 else fy0
                assert abs(fx0 - bx0) < 0.01 and abs(fx1 - bx1) < 0.01
                assert any(abs(m[1] - fold) < 0.01 and abs(m[3] - fold) < 0.01 for m in folds)
            pairs += 1
        for f in seen:  # only components with a back are folded
            if not f.back and f.kind in ("tile",):
                assert not any(b.kind == f.kind for b in seen if b.back)
    declared = {c.id: c for c in G.standard().meta.components}
    assert pairs == declared["deck"].count + declared["big"].count + declared["coins"].count
    assert dict(kit.drawn) == {c.id: c.count for c in declared.values() if c.in_kit}
    cover = pdf.pages[0].extract_text()
    assert "single-sided" in cover and "gutter-fold pairs" in cover and "fold it" in cover
    assert "Printer check, back" not in cover and "double-sided, flipping" not in cover


def test_a_pair_too_large_for_the_paper_is_an_error_at_its_declaration() -> None:
    doc = G.document(G.component("mat", 7, count=1, size=Size(150, 200), front="card_front",
                                 back="card_back"))
    build_kit(doc, G.DRAWERS, "a4")  # fits two-sided
    with pytest.raises(RulepressError) as err:
        build_kit(doc, G.DRAWERS, "a4", options=Options(sides="one"))
    (diag,) = err.value.diagnostics
    assert diag.loc is not None and diag.loc.line == 7
    assert "gutter-fold" in diag.message and "--sides two" in diag.message


def test_only_prints_the_chosen_components() -> None:
    kit, pdf = build(only=frozenset({"coins", "tiles"}))
    assert dict(kit.drawn) == {"coins": 7, "tiles": 5}
    kinds = {f.kind for page in pdf.pages for f in faces(page)}
    assert kinds == {"coin", "tile"}
    assert "not chosen (--only)" in pdf.pages[0].extract_text()


def test_the_cover_says_only_what_the_kit_holds_and_counts_both_modes() -> None:
    kit, pdf = build()
    other, _ = build(sides="one")
    cover = " ".join(pdf.pages[0].extract_text().split())
    assert f"This kit: {kit.sheets} sheets of A4 paper." in cover
    assert (f"The same kit for a single-sided printer (fronts and backs side by side, folded) "
            f"takes {other.sheets} sheets.") in cover
    assert "rulepress" not in cover and "--" not in cover  # no command lines for players
    assert "Boards:" in cover and "Assembly of Track" in cover
    no_boards = G.document(*(c for c in G.standard().meta.components if c.id != "track"))
    small = build_kit(no_boards, G.DRAWERS, "a4")
    text = " ".join(pdfplumber.open(io.BytesIO(small.pdf)).pages[0].extract_text().split())
    assert "Boards" not in text and "tile" not in text.lower().replace("tiles", "")
    assert "greyscale" not in text  # nothing checked it
    # The page ranges the cover gives are the kit's own.
    double = re.search(r"Then print pages (\d+)\u2013(\d+) double-sided", cover)
    single = re.search(r"Print pages? (\d+)(?:\u2013(\d+))? single-sided", cover)
    assert double and single
    assert int(double.group(2)) == kit.duplex_pages == int(single.group(1)) - 1
    assert int(single.group(2) or single.group(1)) == len(pdf.pages)


@pytest.mark.parametrize("ink", ["normal", "low"])
def test_the_cover_and_the_printer_check_name_the_single_sided_kit_s_file(ink: str) -> None:
    doc = G.standard()
    one = draw_kits(doc, G.DRAWERS, ("a4",), Path(), options=Options(sides="one", ink=ink))
    name = kit_path(Path(), doc.slug, "a4", "", Options(sides="one", ink=ink).suffix)
    assert name in one  # the file named is one `pnp --sides one` writes
    _, pdf = build(ink=ink)
    cover = " ".join(pdf.pages[0].extract_text().split())
    sheets = build(sides="one", ink=ink)[0].sheets
    assert f"takes {sheets} sheets. " \
        f"That kit is the file {name.name}." in cover
    back = " ".join(pdf.pages[1].extract_text().split())
    assert f"Or print this kit's single-sided edition, {name.name}, which folds" in back
    _, pdf = build(sides="one", ink=ink)  # names the double-sided one in turn
    two = kit_path(Path(), doc.slug, "a4", "", Options(ink=ink).suffix).name
    assert f"That kit is the file {two}." in " ".join(pdf.pages[0].extract_text().split())


def test_fill_is_what_the_faces_cover_on_the_rendered_page() -> None:
    """The plan's fill against the PDF: the trims the page holds, and the coloured area a
    renderer paints (each face's art, bleed included, minus where neighbours share it)."""
    kit, pdf = build(paper="letter")
    doc = pypdfium2.PdfDocument(kit.pdf)
    dpi = 36
    printable = (pdf.pages[0].width - 2 * MARGIN) * (pdf.pages[0].height - 2 * MARGIN)
    fills = iter(kit.fill)
    for n, page in enumerate(pdf.pages):
        seen = [f for f in faces(page) if not f.back]
        text = page.extract_text()
        if not seen or "backs:" in text or " \u00b7 tile " in text:  # a board's tile
            continue
        trims = sum((f.trim[2] - f.trim[0]) * (f.trim[3] - f.trim[1]) for f in seen)
        arts = sum((f.x1 - f.x0) * (f.y1 - f.y0) for f in seen)
        planned = next(fills)
        assert planned == pytest.approx(trims / printable, abs=1e-3)
        img = doc[n].render(scale=dpi / 72).to_pil().convert("RGB")
        # the fixture tells faces apart by hue, dark or greyish: any non-white pixel is art
        coloured = sum(1 for r, g, b in img.get_flattened_data() if min(r, g, b) < 200)
        painted = coloured * (72 / dpi) ** 2
        assert trims * 0.97 <= painted <= arts * 1.03, (n, trims, painted, arts)


def test_low_ink_leaves_out_full_bleed_backgrounds_and_keeps_the_text() -> None:
    normal, pdf = build()
    low, low_pdf = build(ink="low")
    assert len(low_pdf.pages) == len(pdf.pages)
    for page in low_pdf.pages[2:]:
        assert not faces(page)  # the fixture's faces are all full-bleed backgrounds
    for a, b in zip(pdf.pages[2:], low_pdf.pages[2:], strict=True):
        assert sorted(ch["text"] for ch in a.chars) == sorted(ch["text"] for ch in b.chars)


INK_DPI = 100  # see benchmarks/kit_report.py: coarser renderings overcount hairlines


def _ink(pdf: bytes) -> float:
    doc = pypdfium2.PdfDocument(pdf)
    total = 0.0
    for page in doc:
        data = page.render(scale=INK_DPI / 72, grayscale=True).to_pil().tobytes()
        total += 1 - sum(data) / (255 * len(data))
    return total / len(doc)


def test_every_bundled_kit_prints_with_far_less_ink_when_asked(
    bundled: dict[str, tuple[Any, Kit]],
) -> None:
    for slug, (rebuild, kit) in bundled.items():
        low = rebuild(Options(ink="low"))
        ratio = _ink(low.pdf) / _ink(kit.pdf)
        assert ratio <= 0.4, (slug, ratio)


def test_low_ink_keeps_the_pigeon_decks_red_suits_hollow_and_black_ones_solid(
    bundled: dict[str, tuple[Any, Kit]],
) -> None:
    rebuild, _ = bundled["pigeon"]
    low = pdfplumber.open(io.BytesIO(rebuild(Options(ink="low", only=frozenset({"deck"})))
                                     .pdf))
    greys = {"red": set(), "black": set()}
    for page in low.pages[2:4]:
        for c in page.curves:
            if 5 < c["x1"] - c["x0"] < 30 and c["fill"]:
                colour = c["non_stroking_color"]
                if isinstance(colour, tuple) and len(colour) == 3:
                    greys["black" if max(colour) < 0.2 else "red"].add(round(max(colour), 2))
    assert greys["black"], "black pips stay solid"
    assert all(g > 0.95 for g in greys["red"]), "red pips stay hollow (white inside)"


def _collect_fonts(resources: Any, fonts: dict[str, Any]) -> None:
    """Every font a page or its forms use, by name."""
    for ref in resources.get("/Font", {}).values():
        font = ref.get_object()
        fonts[str(font["/BaseFont"])] = font
    for ref in resources.get("/XObject", {}).values():
        xobject = ref.get_object()
        if "/Resources" in xobject:
            _collect_fonts(xobject["/Resources"], fonts)


def test_every_font_in_every_bundled_kit_is_embedded(
    bundled: dict[str, tuple[Any, Kit]],
) -> None:
    import pypdf

    for slug, (rebuild, kit) in bundled.items():
        for pdf in (kit.pdf, rebuild(Options(sides="one", ink="low")).pdf):
            reader = pypdf.PdfReader(io.BytesIO(pdf))
            fonts: dict[str, Any] = {}
            for page in reader.pages:
                _collect_fonts(page["/Resources"], fonts)
            assert fonts, slug
            for name, font in fonts.items():
                descendant = font["/DescendantFonts"][0].get_object() if (
                    "/DescendantFonts" in font) else font
                descriptor = descendant.get("/FontDescriptor")
                assert descriptor is not None, (slug, name)
                embedded = descriptor.get_object()
                assert any(k in embedded for k in ("/FontFile", "/FontFile2", "/FontFile3")), (
                    slug, name)
                assert re.search(r"Carlito|DejaVu", name), (slug, name)


def test_unknown_options_and_ids_are_usage_errors_that_write_nothing(tmp_path: Path) -> None:
    out = tmp_path / "pnp"
    runner = CliRunner()
    for args, said in ((["--only", "pigeons,pawnz"], "--only: no printed component 'pawnz'"),
                       (["--sides", "three"], "'--sides'"), (["--ink", "none"], "'--ink'")):
        result = runner.invoke(main, ["pnp", "--sources", str(SOURCES), "--out", str(out),
                                      *args])
        assert result.exit_code == 2, (args, result.output)
        assert said in result.output, (args, result.output)
        assert not out.exists()
    with pytest.raises(RulepressError, match="did you mean 'coins'"):
        kit_options([G.standard()], only=["coin"])


def test_a_chosen_component_prints_alone(tmp_path: Path) -> None:
    out = tmp_path / "pnp"
    result = CliRunner().invoke(main, ["pnp", "pigeon-race", "--sources", str(SOURCES), "--out",
                                       str(out), "--only", "pigeons", "--paper", "a4"])
    assert result.exit_code == 0, result.output
    written = out / "pigeon-race" / "pigeon-race-a4-only-pigeons.pdf"  # (and a translation's)
    assert [p.name for p in (out / "pigeon-race").glob("*.pdf")] == [written.name]
    from rulepress.document.reader import read_document

    names = {c.id: c.name for c in read_document(SOURCES / "pigeon-race" / "rules.md")
             .meta.components}
    with pdfplumber.open(written) as pdf:
        text = " ".join(page.extract_text() for page in pdf.pages)
        # Front-only pieces: the cover, then one sheet of pawns; no duplex check, no back.
        assert len(pdf.pages) == 2
        footer = pdf.pages[1].extract_text().splitlines()[-1]
    assert "single-sided" in text and "double-sided" not in text and "target" not in text
    assert names["pigeons"] in text and names["board"] in text  # all listed on the cover
    assert f"pieces: {names['pigeons']} \u00b7 sheet 2 of 2" in footer  # only pawns printed


def test_options_reject_unknown_values() -> None:
    with pytest.raises(ValueError, match="unknown sides 'three'"):
        Options(sides="three")
    with pytest.raises(ValueError, match="unknown ink 'dark'"):
        Options(ink="dark")
    assert Options(sides="one", ink="low", only=frozenset({"b", "a"})).suffix == (
        "-one-sided-low-ink-only-a+b")
    assert replace(Options(), duplex="short").suffix == ""

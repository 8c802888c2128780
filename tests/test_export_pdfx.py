"""export --to dtc writes PDF/X-1a:2003: each written file read back with pypdf (markers in the
Info dict and XMP, the OutputIntent and its profile, boxes page by page, colour operators and
spaces in pages and forms, images' colour spaces and masks, no transparency, subset tags), and
the read-back check (press.pdfx.check) shown to find each fault in a file that has it."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pypdf
import pypdfium2
import pytest
from click.testing import CliRunner
from defusedxml import ElementTree
from PIL import Image
from pypdf.generic import ContentStream
from reportlab.lib.colors import Color
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from rulepress.cli import main
from rulepress.pnp.draw import BOLD, REGULAR
from rulepress.pnp.fonts import register_fonts
from rulepress.press import pdfx
from rulepress.press.colour import cmyk_image

ROOT = Path(__file__).parent.parent
SOURCES = ROOT / "sources"
PDFX = "{http://ns.adobe.com/pdfx/1.3/}"


def export(sources: Path, out: Path, game: str, *args: str) -> tuple[Path, str]:
    result = CliRunner().invoke(main, ["export", game, "--sources", str(sources), "--out",
                                       str(out), "--to", "dtc", *args])
    assert result.exit_code == 0, result.stderr
    return out / game / "dtc", result.stderr


def forms(page: Any) -> list[tuple[Any, Any]]:
    """The page's (resources, content) and every form XObject's under it."""
    todo = [(page["/Resources"], page.get_contents())]
    found = []
    while todo:
        res, content = todo.pop()
        found.append((res, content))
        for x in res.get("/XObject", {}).values():
            x = x.get_object()
            if x["/Subtype"] == "/Form":
                todo.append((x.get("/Resources", {}), x))
    return found


def operators(content: Any) -> list[tuple[list[Any], bytes]]:
    return [(list(a) if isinstance(a, list) else [a], op)
            for a, op in ContentStream(content.get_object(), None).operations]


def read_back_pdfx(path: Path) -> dict[str, Any]:
    """Everything the tests assert of one written file, read with pypdf alone."""
    data = path.read_bytes()
    reader = pypdf.PdfReader(path)
    info = reader.trailer["/Info"].get_object()
    root = reader.trailer["/Root"].get_object()
    (intent,) = [i.get_object() for i in root["/OutputIntents"]]
    icc = intent["/DestOutputProfile"].get_object()
    xmp = ElementTree.fromstring(root["/Metadata"].get_object().get_data())
    pages = []
    fonts: dict[str, set[str]] = {}
    for page in reader.pages:
        ops: set[bytes] = set()
        images, states, groups = [], [], []
        for res, content in forms(page):
            ops |= {op for _, op in operators(content)}
            for x in res.get("/XObject", {}).values():
                x = x.get_object()
                if x["/Subtype"] == "/Image":
                    images.append((x["/ColorSpace"], "/SMask" in x, x.get("/Mask")))
            states += [dict(g.get_object()) for g in res.get("/ExtGState", {}).values()]
            for f in res.get("/Font", {}).values():
                f = f.get_object()
                kid = f["/DescendantFonts"][0].get_object() if "/DescendantFonts" in f else f
                assert "/FontFile2" in kid["/FontDescriptor"]
                assert kid["/FontDescriptor"]["/FontName"] == f["/BaseFont"]
                tag, name = str(f["/BaseFont"]).lstrip("/").split("+")
                fonts.setdefault(tag, set()).add(name)
            groups += [x.get_object().get("/Group") for x in res.get("/XObject", {}).values()
                       if x.get_object()["/Subtype"] == "/Form"]
        pages.append({"trim": [float(v) for v in page["/TrimBox"]], "groups": groups,
                      "bleed": [float(v) for v in page["/BleedBox"]],
                      "media": [float(v) for v in page.mediabox], "ops": ops,
                      "images": images, "states": states})
    return {"head": data[:8], "info": info, "intent": intent, "icc": icc, "xmp": xmp,
            "pages": pages, "fonts": fonts, "id": "/ID" in reader.trailer}


@pytest.mark.slow  # exports a bundled game
def test_every_dtc_file_of_a_game_is_pdfx_1a_page_by_page(tmp_path: Path) -> None:
    folder, _ = export(SOURCES, tmp_path / "out", "go-stop", "--skip", "player-tokens")
    files = sorted(folder.glob("*.pdf"))
    assert len(files) == 4
    sizes = set()
    for path in files:
        got = read_back_pdfx(path)
        assert got["head"] == b"%PDF-1.4" and got["id"]
        info = got["info"]
        assert info["/GTS_PDFXVersion"] == "PDF/X-1:2003"
        assert info["/GTS_PDFXConformance"] == "PDF/X-1a:2003"
        assert info["/Trapped"] == "/False" and info["/Title"].startswith("Go-Stop: ")
        assert [e.text for e in got["xmp"].iter(PDFX + "GTS_PDFXVersion")] == ["PDF/X-1:2003"]
        assert [e.text for e in got["xmp"].iter(PDFX + "GTS_PDFXConformance")] == [
            "PDF/X-1a:2003"]
        intent = got["intent"]
        assert intent["/S"] == "/GTS_PDFX" and intent["/OutputConditionIdentifier"] == "FOGRA39"
        profile = got["icc"].get_data()
        assert got["icc"]["/N"] == 4 and profile[12:20] == b"prtrCMYK" and profile[36:40] == b"acsp"
        assert profile == pdfx.profile()
        for page in got["pages"]:
            # The trim 1/8 in inside the page on every side, the bleed the whole page.
            w, h = page["media"][2:]
            sizes.add((w, h))
            assert page["media"][:2] == [0, 0] and page["bleed"] == page["media"]
            assert page["trim"] == [9, 9, w - 9, h - 9]
            assert not page["ops"] & {b"rg", b"RG", b"sc", b"SC", b"scn", b"SCN", b"cs", b"CS"}
            assert page["images"] == []
            assert all(float(s.get("/ca", 1)) == 1 and float(s.get("/CA", 1)) == 1
                       and "/SMask" not in s for s in page["states"])
        # Two fonts (Carlito and its bold), each with a tag of its own.
        assert sorted(n for names in got["fonts"].values() for n in names) == [
            "Carlito", "Carlito-Bold"]
        assert all(len(names) == 1 for names in got["fonts"].values())
        assert pdfx.check(path.read_bytes()) == []
    assert sizes == {(198, 270), (216, 360)}  # poker cards (2.5 x 3.5 in), tarot (2.75 x 4.75)


def translucent_game(root: Path) -> Path:
    """A one-card game whose face has a navy background, a PNG half clear (its left half
    red, opaque; its right half clear, a middle band 30% opaque) and an SVG square of red at
    50% opacity."""
    game = root / "sources" / "game"
    (game / "layouts").mkdir(parents=True)
    (game / "images").mkdir()
    picture = Image.new("RGBA", (300, 300), (255, 0, 0, 255))
    for x in range(150, 300):
        for y in range(300):
            picture.putpixel((x, y), (0, 0, 255, 77 if 100 <= y < 200 else 0))
    picture.save(game / "images" / "half.png")
    (game / "images" / "square.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">'
        '<rect width="100" height="100" fill="#ff0000" fill-opacity="0.5"/></svg>')
    (game / "rules.md").write_text("""---
title: Translucent
designer: The rulepress tests
players: {min: 1, max: 2}
duration: 1 minute
licence: {name: CC0 1.0, url: "https://creativecommons.org/publicdomain/zero/1.0/"}
provenance: [{title: Written for the tests, source: tests}]
components:
  - {id: card, name: Card, count: 1, size: 63.5mm x 88.9mm, front: layouts/card.yml}
---
# Translucent

## Rules

Text.
""")
    (game / "layouts" / "card.yml").write_text("""background: "#1f3a5f"
elements:
  half: {type: image, x: 12mm, y: 12mm, width: 25.4mm, height: 25.4mm, src: images/half.png}
  square: {type: image, x: 12mm, y: 50mm, width: 25mm, height: 25mm, src: images/square.svg}
""")
    return root / "sources"


def test_images_are_cmyk_and_transparency_is_flattened(tmp_path: Path) -> None:
    folder, _ = export(translucent_game(tmp_path), tmp_path / "out", "game")
    path = folder / "game-card.pdf"
    got = read_back_pdfx(path)
    assert pdfx.check(path.read_bytes()) == []
    (page,) = got["pages"]
    assert all(float(s.get("/ca", 1)) == 1 and float(s.get("/CA", 1)) == 1
               for s in page["states"])
    (image,) = page["images"]
    space, smask, mask = image
    assert space == "/DeviceCMYK" and not smask
    # The colour-key mask: one value of one ink that only the clear pixels have.
    assert len(mask) == 8
    reader = pypdf.PdfReader(path)
    x = next(x.get_object() for res, _ in forms(reader.pages[0])
             for x in res.get("/XObject", {}).values() if x.get_object()["/Subtype"] == "/Image")
    raw = x.get_data()
    assert len(raw) == 300 * 300 * 4
    pixel = lambda px, py: tuple(raw[(py * 300 + px) * 4:(py * 300 + px) * 4 + 4])  # noqa: E731
    assert pixel(10, 10) == (0, 255, 255, 0)  # red: magenta and yellow
    key = [mask[2 * i] for i in range(4)]
    clear = pixel(200, 10)
    assert all(mask[2 * i] <= clear[i] <= mask[2 * i + 1] for i in range(4))  # masked
    assert pixel(200, 150) == clear  # 30% opaque: under half, so clear too
    assert not all(mask[2 * i] <= pixel(10, 10)[i] <= mask[2 * i + 1] for i in range(4))
    assert key.count(0) >= 2
    # The SVG's red at 50% is its tint: half the magenta and yellow of red, no alpha.
    fills = [args for res, content in forms(reader.pages[0])
             for args, op in operators(content) if op == b"k"]
    assert [0, 0.5, 0.5, 0] in [[round(float(v), 3) for v in a] for a in fills]
    # Looked at: the clear half shows the navy background, the red half red.
    bitmap = pypdfium2.PdfDocument(path.read_bytes())[0].render(scale=1).to_pil().convert("RGB")
    mm = 72 / 25.4
    navy_at = bitmap.getpixel((int((9 + (12 + 20) * mm)), int(9 + 14 * mm)))
    red_at = bitmap.getpixel((int((9 + (12 + 5) * mm)), int(9 + 14 * mm)))
    assert red_at[0] > 200 and red_at[1] < 60, red_at
    assert navy_at[2] > navy_at[0] + 30 and navy_at[0] < 80, navy_at


def test_cmyk_image_keys_only_the_clear_pixels() -> None:
    picture = Image.new("RGBA", (2, 1), (0, 0, 0, 255))
    picture.putpixel((1, 0), (0, 0, 0, 0))
    converted, key = cmyk_image(picture)
    assert converted.mode == "CMYK" and converted.getpixel((0, 0)) == (0, 0, 0, 255)
    # Cyan 0 is used by the black pixel: the lowest free cyan, 1, marks the clear one.
    assert key == [1, 1, 0, 255, 0, 255, 0, 255] and converted.getpixel((1, 0))[0] == 1
    assert cmyk_image(Image.new("RGB", (2, 2), (255, 255, 255)))[1] is None


def not_pdfx() -> bytes:
    """A PDF as ReportLab writes it unaided: RGB text and fill, a soft-masked RGB image, a
    fill at 50% opacity, two fonts both tagged AAAAAA+, no page boxes, no PDF/X markers."""
    register_fonts()
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(200, 200), invariant=1)
    c.setFont(REGULAR, 10)
    c.setFillColor(Color(0.2, 0.4, 0.6))
    c.drawString(10, 10, "regular")
    c.setFont(BOLD, 10)
    c.drawString(10, 30, "bold")
    c.setFillColor(Color(1, 0, 0, alpha=0.5))
    c.rect(50, 50, 20, 20, fill=1)
    rgba = Image.new("RGBA", (4, 4), (0, 255, 0, 128))
    c.drawImage(ImageReader(rgba), 100, 100, 20, 20, mask="auto")
    c.showPage()
    c.save()
    return buf.getvalue()


def test_the_check_names_each_rule_a_file_breaks() -> None:
    found = {(p.page, p.text) for p in pdfx.check(not_pdfx())}
    for page, text in [
        (0, "Info GTS_PDFXVersion is None, not 'PDF/X-1:2003'"),
        (0, "Info GTS_PDFXConformance is None, not 'PDF/X-1a:2003'"),
        (0, "has 0 GTS_PDFX OutputIntents, not 1"),
        (0, "has no XMP metadata"),
        (1, "has no TrimBox"), (1, "has no BleedBox"),
        (1, "sets an RGB colour (rg)"),
        (1, "graphics state gRLs0 sets ca 0.5 (transparency)"),
        (1, "font Helvetica is not embedded"),  # ReportLab's initial font, declared unused
    ]:
        assert (page, text) in found, (page, text, found)
    images = [t for p, t in found if t.startswith("image ")]
    assert any("has a soft mask" in t for t in images)
    assert any("is in DeviceRGB, not CMYK or grey" in t for t in images)
    shared = [t for p, t in found if "shares its subset tag AAAAAA+" in t]
    assert len(shared) == 1 and re.match(r"font AAAAAA\+Carlito(-Bold)? shares", shared[0])
    # The same file made PDF/X keeps its RGB and transparency: make() adds markers, it does
    # not convert, and the check still says so.
    made = {p.text for p in pdfx.check(pdfx.make(not_pdfx(), "t"))}
    assert "sets an RGB colour (rg)" in made and not any("subset tag" in t for t in made)
    assert not any(t.startswith(("Info ", "has 0", "has no XMP")) for t in made)


def test_a_file_that_fails_the_check_is_an_error_at_the_component(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # As though make() left the file as ReportLab wrote it.
    monkeypatch.setattr(pdfx, "make", lambda data, title: data)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["export", "game", "--sources",
                                       str(translucent_game(tmp_path)), "--out", str(out),
                                       "--to", "dtc"])
    assert result.exit_code == 2, result.stderr
    assert re.search(r"sources/game/rules\.md:9:1: error: dtc: component 'card': game-card\.pdf "
                     r"is not PDF/X-1a: Info GTS_PDFXVersion is None", result.stderr)
    assert "game-card.pdf page 1 is not PDF/X-1a: has no" not in result.stderr  # boxes kept
    assert "Traceback" not in result.stderr and not out.exists()


def test_subset_tags_follow_the_font_program() -> None:
    made = pdfx.make(not_pdfx(), "t")
    reader = pypdf.PdfReader(io.BytesIO(made))
    names = sorted(str(f.get_object()["/BaseFont"])
                   for f in reader.pages[0]["/Resources"]["/Font"].values())
    tags = [n.lstrip("/").split("+")[0] for n in names if "+" in n]
    assert len(set(tags)) == 2 and "AAAAAA" not in tags
    assert pdfx.make(not_pdfx(), "t") == made  # the same sources, the same tags and bytes


def test_the_check_follows_forms_and_names_weasyprints_pdfx_1a_faults() -> None:
    # WeasyPrint 70's pdf_variant "pdf/x-1a" (the locked version), on a page with an RGB
    # heading and a paragraph at half opacity: the markers and OutputIntent are there, but
    # colours stay RGB, the profile is an ICCBased space, and opacity is a transparency group.
    from weasyprint import HTML

    icc = (Path(pdfx.__file__).parent / "icc" / pdfx.PROFILE).as_uri()
    page = (f"<style>@color-profile device-cmyk {{ src: url({icc}); components: cyan, "
            "magenta, yellow, black }} @page { size: A6 } h1 { color: #c00 } "
            "p { opacity: .5 }</style><h1>Title</h1><p>half</p>")
    data = HTML(string=page).write_pdf(pdf_variant="pdf/x-1a")
    found = {p.text for p in pdfx.check(data)}
    assert "Info GTS_PDFXVersion is 'PDF/X-1a:2003', not 'PDF/X-1:2003'" in found
    assert "sets an RGB colour (rg)" in found
    assert "colour space device-cmyk is ICCBased: only CMYK or grey" in found
    assert any(re.fullmatch(r"form x\d+ is a transparency group", t) for t in found)
    assert any(re.fullmatch(r"graphics state a0\.5 sets ca 0\.5 \(transparency\)", t)
               for t in found)
    assert not any("OutputIntent" in t for t in found)


@pytest.mark.slow  # typesets and converts the bundled books
def test_build_press_writes_each_book_pdfx_1a_with_bleed_and_crop_marks(tmp_path: Path
                                                                        ) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", "pigeon", "--sources", str(SOURCES), "--out",
                                       str(out), "--paper", "a4", "--edition", "player",
                                       "--press", "--jobs", "1"])
    assert result.exit_code == 0, result.stderr
    assert "trailer size" not in result.stderr and "not defined" not in result.stderr
    folder = out / "pigeon"
    assert {p.name for p in folder.glob("*.pdf")} == {"pigeon-a4.pdf", "pigeon-a4-press.pdf"}
    path = folder / "pigeon-a4-press.pdf"
    assert pdfx.check(path.read_bytes()) == []
    got = read_back_pdfx(path)
    assert got["head"] == b"%PDF-1.4" and got["info"]["/GTS_PDFXVersion"] == "PDF/X-1:2003"
    assert got["intent"]["/OutputConditionIdentifier"] == "FOGRA39"
    assert got["info"]["/Title"] == "Pigeon"
    # Typeset on A4 itself (the normal book is typeset on a page both papers hold).
    assert len(got["pages"]) == 10 and len(pypdf.PdfReader(folder / "pigeon-a4.pdf").pages) == 11
    mm = 72 / 25.4
    for page in got["pages"]:
        # The trim is A4; 3 mm of bleed on every side; the media holds the marks beyond it.
        assert page["trim"] == pytest.approx([0, 0, 210 * mm, 297 * mm], abs=0.01)
        assert page["bleed"] == pytest.approx([-3 * mm, -3 * mm, 213 * mm, 300 * mm], abs=0.01)
        assert page["media"] == pytest.approx([-9 * mm, -9 * mm, 219 * mm, 306 * mm], abs=0.01)
        assert not page["ops"] & {b"rg", b"RG"} and b"k" in page["ops"]
        assert all(float(s.get("/ca", 1)) == 1 and float(s.get("/CA", 1)) == 1
                   for s in page["states"])
        assert all(g is None for g in page["groups"])  # no transparency groups left
        assert all(space == "/DeviceCMYK" and not smask for space, smask, _ in page["images"])
    assert all(len(names) == 1 for names in got["fonts"].values())
    # Looked at, 2 px a point: the cover's colour fills its bleed, a text page's bleed is
    # white; a crop mark runs on from the trim's left edge 4.5 to 9 mm above the top.
    pdf = pypdfium2.PdfDocument(path.read_bytes())
    cover, text = (pdf[n].render(scale=2).to_pil().convert("RGB") for n in (0, 2))

    def at(img: Image.Image, x_mm: float, y_mm: float) -> tuple[int, int, int]:
        """The pixel x_mm right of the trim's left edge, y_mm below its top."""
        return img.getpixel((round((9 + x_mm) * mm * 2), round((9 + y_mm) * mm * 2)))

    teal = at(cover, 100, 100)
    assert teal[2] > teal[0] + 40  # the cover's blue-green
    assert at(cover, -1.5, 100) == pytest.approx(teal, abs=3)  # in the bleed
    assert at(text, -1.5, 100) == (255, 255, 255)
    assert max(at(text, 0, -7)) < 100 and at(text, 2, -7) == (255, 255, 255)  # the mark
    assert at(text, 0, -2) == (255, 255, 255)  # no mark inside the bleed


def test_build_press_stops_at_print_css_on_what_it_cannot_flatten(tmp_path: Path) -> None:
    # A game's print.css (the theme's, and a heading at half opacity): a press takes no
    # transparency, and a half-opaque heading over a page is not a colour of its own.
    sources = translucent_game(tmp_path)
    css = sources / "game" / "templates" / "print.css"
    css.parent.mkdir()
    css.write_text((ROOT / "templates" / "print.css").read_text() + "\nh1 { opacity: .5 }\n")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", "game", "--sources", str(sources), "--out",
                                       str(out), "--paper", "a4", "--edition", "player",
                                       "--press", "--jobs", "1"])
    assert result.exit_code == 2, result.stderr
    assert re.search(r"game/templates/print\.css:1:1: error: press: page 2: not PDF/X-1a: "
                     r"graphics state a0\.5 sets ca 0\.5 \(transparency\)", result.stderr)
    assert "Traceback" not in result.stderr and not (out / "game").exists()


def test_to_press_unpaints_only_what_opacity_0_hid() -> None:
    from rulepress.press.convert import to_press

    def page(text: bool) -> bytes:
        buf = io.BytesIO()
        c = Canvas(buf, pagesize=(100, 100), invariant=1)
        c.setTrimBox((10, 10, 90, 90))
        c.setFillColor(Color(1, 0, 0))
        c.setStrokeColor(Color(0, 0, 1))
        c.setFillAlpha(0)
        c.rect(20, 20, 10, 10, fill=1, stroke=1)  # B: only its stroke showed
        if text:
            c.drawString(20, 50, "unseen")
        c.setFillAlpha(1)
        c.rect(40, 40, 10, 10, fill=1, stroke=0)
        c.showPage()
        c.save()
        return buf.getvalue()

    reader = pypdf.PdfReader(io.BytesIO(to_press(page(text=False))))
    ops = operators(reader.pages[0].get_contents())
    paints = [op for _, op in ops if op in (b"B*", b"f*", b"S")]  # ReportLab's even-odd ops
    assert paints == [b"S", b"f*"]  # the hidden fill is gone, its stroke and the later fill stay
    # Red and blue as inks (no grey, so no black); the fill at opacity 0 is no ink.
    inks = [[float(v) for v in a] for a, op in ops if op in (b"k", b"K")]
    assert {tuple(i) for i in inks} == {(0, 1, 1, 0), (1, 1, 0, 0), (0, 0, 0, 0)}
    fills = [i for (a, op), i in zip([o for o in ops if o[1] in (b"k", b"K")], inks,
                                     strict=True) if op == b"k"]
    assert fills[-1] == [0, 1, 1, 0]  # red again for the last square
    states = reader.pages[0]["/Resources"]["/ExtGState"].values()
    assert all(float(s.get_object().get("/ca", 1)) == 1 for s in states)
    assert [float(v) for v in reader.pages[0]["/BleedBox"]] == pytest.approx(
        [10 - 3 * 72 / 25.4, 10 - 3 * 72 / 25.4, 90 + 3 * 72 / 25.4, 90 + 3 * 72 / 25.4],
        abs=0.001)
    # Text drawn at opacity 0 is kept, so its opacity stays for the check to name.
    with_text = pdfx.check(to_press(page(text=True)))
    assert any("sets ca 0 (transparency)" in p.text for p in with_text)


def test_a_press_kit_is_pdfx_1a_and_looks_like_the_kit() -> None:
    from fixtures.pnp import fixture_game as G  # tests/ is on sys.path (conftest.py)

    from rulepress.pnp.kit import Options, build_kit

    kit = build_kit(G.standard(), G.DRAWERS, "a4", options=Options()).pdf
    press = build_kit(G.standard(), G.DRAWERS, "a4", options=Options(press=True)).pdf
    assert pdfx.check(kit) != [] and pdfx.check(press) == []
    reader = pypdf.PdfReader(io.BytesIO(press))
    assert len(reader.pages) == len(pypdf.PdfReader(io.BytesIO(kit)).pages)
    for page in reader.pages:
        for res, content in forms(page):
            assert not {op for _, op in operators(content)} & {b"rg", b"RG"}
            assert all(float(g.get_object().get("/ca", 1)) == 1
                       for g in res.get("/ExtGState", {}).values())
    # Drawn the same: page by page the same paths, text and images in the same order, each
    # colour the kit's as rulepress converts it (the marks' 55% white halo: opaque white).
    from rulepress.press.colour import cmyk

    drawing = {b"re", b"m", b"l", b"c", b"f", b"f*", b"S", b"s", b"B", b"B*", b"Tj", b"TJ",
               b"Do", b"BT", b"ET"}
    theirs = pypdf.PdfReader(io.BytesIO(kit))
    for ours_page, their_page in zip(reader.pages, theirs.pages, strict=True):
        ours_ops, their_ops = ([(op, a) for res, content in forms(page)
                                for a, op in operators(content)]
                               for page in (ours_page, their_page))
        assert [op for op, _ in ours_ops if op in drawing] == [
            op for op, _ in their_ops if op in drawing]
        converted = {tuple(round(v, 3) for v in cmyk(*(float(x) for x in a)))
                     for op, a in their_ops if op in (b"rg", b"RG")}
        converted |= {(0, 0, 0, round(1 - float(a[0]), 3)) for op, a in their_ops
                      if op in (b"g", b"G")}
        used = {tuple(round(float(x), 3) for x in a) for op, a in ours_ops
                if op in (b"k", b"K")}
        assert used - converted <= {(0, 0, 0, 0)}, used - converted


@pytest.mark.slow  # draws a bundled kit end to end
def test_pnp_press_writes_the_kit_under_its_own_name(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["pnp", "pigeon", "--sources", str(SOURCES), "--out",
                                       str(out), "--paper", "a4", "--press"])
    assert result.exit_code == 0, result.stderr
    (path,) = (out / "pigeon").glob("*.pdf")
    assert path.name == "pigeon-a4-press.pdf" and pdfx.check(path.read_bytes()) == []


def test_to_press_gives_a_translucent_fill_as_its_tint() -> None:
    from rulepress.press.convert import to_press

    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(100, 100), invariant=1)
    c.setTrimBox((10, 10, 90, 90))
    c.setFillColor(Color(1, 0, 0))
    c.setFillAlpha(0.22)  # as Pigeon Race's start boxes are filled
    c.rect(20, 20, 10, 10, fill=1, stroke=0)
    c.showPage()
    c.save()
    made = to_press(buf.getvalue())
    reader = pypdf.PdfReader(io.BytesIO(made))
    ops = operators(reader.pages[0].get_contents())
    fills = [[round(float(v), 3) for v in a] for a, op in ops if op == b"k"]
    assert fills[-1] == [0, 0.22, 0.22, 0]  # red's inks at 22%
    assert not any("transparency" in p.text for p in pdfx.check(pdfx.make(made, "t")))

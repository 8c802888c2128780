"""A game's own font and inline icons, built end to end: the designer corpus's base project with
a font of its own (the bundled DejaVu Sans, under the name Tide, licence beside it), an SVG
and a PNG icon in its card text, read back from the kit's and the books' PDFs."""

from __future__ import annotations

import io
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from PIL import Image
from pypdf import PdfReader

from rulepress.cli import main
from rulepress.paths import fonts_dir
from rulepress.pnp.faces.text import ICON_DROP, Block, blocks, fit

pytestmark = pytest.mark.slow  # a game built end to end

BASE = Path(__file__).parent / "designer" / "base"
SUBSET = re.compile(r"^/[A-Z]{6}\+")  # a subset font's name: six capitals and a plus
FRONT = """fonts:
  - family: Tide
    regular: fonts/Tide.ttf
    book: headings
components:
"""
CARD = """background: "#ffffff"
elements:
  name:
    type: text
    x: 3mm
    y: 3mm
    width: 57.5mm
    height: 8mm
    text: "{{ name }}"
    font: Tide
  rule:
    type: text
    x: 3mm
    y: 14mm
    width: 57.5mm
    height: 20mm
    size: 12pt
    text: "Catch :fish: and score {{ icon('star') }}. Time\\\\:out: no icon."
"""


def project(root: Path) -> Path:
    shutil.copytree(BASE, root)
    game = root / "sources" / "catch"
    (game / "fonts").mkdir()
    shutil.copyfile(fonts_dir() / "DejaVuSans.ttf", game / "fonts" / "Tide.ttf")
    shutil.copyfile(fonts_dir() / "DejaVu-LICENSE.txt", game / "fonts" / "LICENSE.txt")
    rules = game / "rules.md"
    text = rules.read_text().replace("components:\n", FRONT, 1)
    rules.write_text(text.replace("## Aim\n", "## Aim\n\nCatch a :icon[fish] to score.\n", 1))
    (game / "layouts" / "card.yml").write_text(CARD)
    star = io.BytesIO()
    Image.new("RGBA", (40, 20), (200, 40, 40, 255)).save(star, "PNG")  # 2:1, wider than tall
    (game / "images" / "star.png").write_bytes(star.getvalue())
    return root


def run(root: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> str:
    monkeypatch.chdir(root)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.stderr
    return result.stderr


def pdf_fonts(path: Path) -> set[tuple[str, bool]]:
    """(base font name, embedded?) of every font the PDF's pages and forms use."""
    found: set[tuple[str, bool]] = set()
    seen: set[int] = set()

    def walk(res: Any) -> None:
        if res is None:
            return
        res = res.get_object()
        for font in (res.get("/Font") or {}).values():
            font = font.get_object()
            desc = font.get("/DescendantFonts")
            holder = desc[0].get_object() if desc else font
            fd = holder.get("/FontDescriptor")
            fd = fd.get_object() if fd is not None else {}
            embedded = any(k in fd for k in ("/FontFile", "/FontFile2", "/FontFile3"))
            found.add((str(font["/BaseFont"]), embedded))
        for xobj in (res.get("/XObject") or {}).values():
            xobj = xobj.get_object()
            if id(xobj) not in seen:
                seen.add(id(xobj))
                walk(xobj.get("/Resources"))

    for page in PdfReader(path).pages:
        walk(page.get("/Resources"))
    return found


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = project(tmp_path_factory.mktemp("fonts") / "project")
    with pytest.MonkeyPatch.context() as mp:
        run(root, mp, "pnp", "--paper", "a4", "--out", str(root / "kit"))
        run(root, mp, "build", "--out", str(root / "book"))
    return root


def test_every_font_of_the_kit_and_books_is_embedded_and_subset(built: Path) -> None:
    pdfs = [built / "kit" / "catch" / "catch-a4.pdf", built / "book" / "catch" / "catch-a4.pdf",
            built / "book" / "catch" / "catch-reference-a4.pdf"]
    for pdf in pdfs:
        fonts = pdf_fonts(pdf)
        assert fonts, pdf
        assert all(embedded for _, embedded in fonts), (pdf, fonts)
        assert all(SUBSET.match(name) for name, _ in fonts), (pdf, fonts)
    # The game's font is in both: the kit names it by its own PostScript name, the book by
    # the family the game gives it.
    assert any("DejaVuSans" in name for name, _ in pdf_fonts(pdfs[0]))
    assert any(name.endswith("+Tide") for name, _ in pdf_fonts(pdfs[1]))


def _face_stream(built: Path) -> tuple[str, dict[str, tuple[float, float]]]:
    """The first card face's drawing, and each form it places with the form's size."""
    page = PdfReader(built / "kit" / "catch" / "catch-a4.pdf").pages
    for p in page:
        forms = p["/Resources"].get("/XObject") or {}
        for name, form in forms.items():
            if "catch_front" not in name:
                continue
            form = form.get_object()
            inner = form["/Resources"].get("/XObject") or {}
            sizes = {}
            for iname, icon in inner.items():
                box = [float(v) for v in icon.get_object()["/BBox"]]
                sizes[iname] = (box[2] - box[0], box[3] - box[1])
            return form.get_data().decode("latin-1"), sizes
    raise AssertionError("no card face in the kit")


def test_an_icon_is_drawn_at_the_size_of_its_text(built: Path) -> None:
    stream, sizes = _face_stream(built)
    placed = re.findall(r"([\d.]+) 0 0 ([\d.]+) ([\d.-]+) ([\d.-]+) cm\s*(/\S+) Do", stream)
    texts = re.findall(r"1 0 0 1 ([\d.-]+) ([\d.-]+) Tm [^/]*/\S+ ([\d.]+) Tf[^()]*\(Catch ",
                       stream)
    assert texts, stream
    _, baseline, size = (float(v) for v in texts[0])
    assert float(size) == 12.0
    icons = [(float(sx), float(sy), float(y), name) for sx, sy, _, y, name in placed
             if name in sizes and float(y) < 30]  # the rule's line, not the big picture
    assert len(icons) == 2, placed
    heights = [sy * sizes[name][1] for _, sy, _, name in icons]
    assert heights == pytest.approx([12.0, 12.0], abs=0.01)
    widths = [sx * sizes[name][0] for sx, _, _, name in icons]
    assert sorted(widths) == pytest.approx([12.0, 24.0], abs=0.01)  # the PNG is 2:1
    for _, _, bottom, _ in icons:  # sitting on the line, a little below the baseline
        assert bottom == pytest.approx(baseline - ICON_DROP * 12.0, abs=0.01)
    # "Time\\:out:" is text: the backslash keeps the colon.
    assert "Time:out: no icon." in stream


def test_an_icon_counts_when_text_is_fitted_to_its_box() -> None:
    from rulepress.pnp.faces.images import open_icon
    from rulepress.pnp.faces.text import CLOSE, ICONS, OPEN

    picture = open_icon(BASE / "sources" / "catch", "fish")
    ICONS[picture.digest] = picture
    plain = blocks("Score one", "Carlito")
    with_icon = (Block(plain[0].markup + f" {OPEN}{picture.digest}{CLOSE}"),)
    width = 45.0  # "Score one" fits at 10 pt; with a 10 pt icon after it, it does not
    alone = fit(plain, "regular", 10.0, 6.0, 1.2, "left", "#000000", width, 12.0)
    both = fit(with_icon, "regular", 10.0, 6.0, 1.2, "left", "#000000", width, 12.0)
    assert alone is not None and alone.size == 10.0
    assert both is not None and both.size < 10.0
    assert both.icons == (picture.digest,)


def test_the_books_set_headings_in_the_game_font(built: Path) -> None:
    html = (built / "book" / "catch" / "catch.html").read_text()
    assert '@font-face { font-family: "Tide"' in html
    assert 'html h1, html h2' in html and '"Tide", Carlito, RPSymbols' in html


def test_prose_sets_an_icon_inline_in_the_books(built: Path) -> None:
    html = (built / "book" / "catch" / "catch.html").read_text()
    assert re.search(r'Catch a <img src="data:image/svg\+xml;base64,[^"]+" alt="fish" '
                     r'class="icon" />', html)
    assert "img.icon { height: 1em;" in html

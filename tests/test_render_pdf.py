"""The PDF rulebooks, read back: paper, contents page numbers, bookmarks, fonts, tags, bytes."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader
from test_render_support import LANTERN, lantern, rendered_examples, roots

from rulepress.document.model import Document
from rulepress.document.reader import read_document
from rulepress.render import render_html, render_pdf

EPOCH = "1767225600"


@pytest.fixture(scope="module")
def doc() -> Document:
    return lantern()


@pytest.fixture(scope="module")
def html(doc: Document) -> str:
    return render_html(doc, rendered_examples(doc))


@pytest.fixture(scope="module")
def pdfs(doc: Document, html: str) -> dict[str, bytes]:
    mp = pytest.MonkeyPatch()
    mp.setenv("SOURCE_DATE_EPOCH", EPOCH)
    try:
        return {paper: render_pdf(html, paper, base_url=doc.path.parent, allowed_roots=roots(doc))
                for paper in ("a4", "letter")}
    finally:
        mp.undo()


@pytest.mark.parametrize(("paper", "size"), [("a4", (595.28, 841.89)), ("letter", (612.0, 792.0))])
def test_every_page_has_the_paper_size(pdfs: dict[str, bytes], paper: str,
                                       size: tuple[float, float]) -> None:
    reader = PdfReader(io.BytesIO(pdfs[paper]))
    assert len(reader.pages) >= 4
    for page in reader.pages:
        box = page.mediabox
        assert (round(float(box.width), 2), round(float(box.height), 2)) == size


def _body_lines(pdf: pdfplumber.PDF) -> list[list[str]]:
    """Text lines of each page, without the running header and footer."""
    pages = []
    for page in pdf.pages:
        lines = page.extract_text_lines()
        pages.append([ln["text"] for ln in lines if 45 < ln["top"] < page.height - 45])
    return pages


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_contents_page_numbers_point_at_the_headings(pdfs: dict[str, bytes], doc: Document,
                                                     paper: str) -> None:
    with pdfplumber.open(io.BytesIO(pdfs[paper])) as pdf:
        pages = _body_lines(pdf)
    toc_page = next(i for i, lines in enumerate(pages) if "Contents" in lines)
    entries = {}
    for line in pages[toc_page]:
        m = re.fullmatch(r"(.+?)\s*[.\s]*\s(\d+)", line)
        if m:
            entries[m.group(1).rstrip(". ")] = int(m.group(2))
    wanted = [h.text for h in doc.headings if h.level in (2, 3)] + ["Credits and licence"]
    assert set(wanted) <= set(entries), entries
    for text in wanted:
        found = next(n + 1 for n, lines in enumerate(pages)
                     if n > toc_page and text in lines)
        assert entries[text] == found, (text, entries[text], found)


def test_every_heading_text_is_in_the_pdf(pdfs: dict[str, bytes], doc: Document) -> None:
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdfs["a4"])).pages)
    for heading in doc.headings:
        assert heading.text in text
    for example in doc.examples:
        assert example.title in text


def _titles(outline: list) -> list[str]:  # type: ignore[type-arg]
    out: list[str] = []
    for item in outline:
        out.extend(_titles(item) if isinstance(item, list) else [item.title])
    return out


def test_bookmarks_follow_the_headings(pdfs: dict[str, bytes], doc: Document) -> None:
    reader = PdfReader(io.BytesIO(pdfs["a4"]))
    titles = _titles(reader.outline)
    assert titles[:2] == ["Lantern Walk", "Contents"]
    assert [h.text for h in doc.headings if h.level in (2, 3)] == titles[2:-3]
    # The index lists the table's row headings, so the reference edition has one.
    assert titles[-3:] == ["Appendix: the examples in engine notation", "Index",
                           "Credits and licence"]
    top = [item.title for item in reader.outline if not isinstance(item, list)]
    assert "Setup" in top and "Variant: a longer walk" not in top  # h3 nested under h2


def test_internal_links_and_destinations(pdfs: dict[str, bytes], doc: Document) -> None:
    reader = PdfReader(io.BytesIO(pdfs["a4"]))
    dests = set(reader.named_destinations)
    assert {h.anchor for h in doc.headings} <= dests
    assert {f"example-{e.id}" for e in doc.examples} <= dests
    toc_links = [a.get_object() for a in reader.pages[1].get("/Annots", [])]
    targets = {str(a["/Dest"]) for a in toc_links if a.get("/Subtype") == "/Link" and "/Dest" in a}
    assert {h.anchor for h in doc.headings if h.level in (2, 3)} | {"rp-notation", "rp-index",
                                                                     "rp-credits"} == targets
    assert targets <= dests


def test_fonts_are_the_bundled_carlito_embedded(pdfs: dict[str, bytes]) -> None:
    reader = PdfReader(io.BytesIO(pdfs["a4"]))
    names = set()
    for page in reader.pages:
        fonts = page["/Resources"].get_object().get("/Font", {})
        for ref in fonts.values():
            font = ref.get_object()
            names.add(str(font["/BaseFont"]))
            descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font \
                else font
            descriptor = descendant["/FontDescriptor"].get_object()
            assert "/FontFile2" in descriptor or "/FontFile3" in descriptor, font["/BaseFont"]
    assert names and all("Carlito" in n for n in names), names
    assert any("Bold" in n for n in names)


def test_tagged_for_accessibility(pdfs: dict[str, bytes]) -> None:
    root = PdfReader(io.BytesIO(pdfs["a4"])).trailer["/Root"]
    assert bool(root["/MarkInfo"]["/Marked"])
    assert "/StructTreeRoot" in root
    assert root["/Lang"] == "en"


def test_examples_are_never_split(pdfs: dict[str, bytes], doc: Document) -> None:
    with pdfplumber.open(io.BytesIO(pdfs["a4"])) as pdf:
        pages = _body_lines(pdf)
    for example in doc.examples:
        start = next(n for n, lines in enumerate(pages) if any(example.title in ln for ln in lines))
        # the box ends with its link to its notation, on the page where its title is
        after = pages[start][[i for i, ln in enumerate(pages[start]) if example.title in ln][0]:]
        assert any(ln.startswith("Its moves and claims") for ln in after), example.id


def test_two_renders_are_byte_identical(pdfs: dict[str, bytes], doc: Document, html: str,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    again = render_pdf(html, "a4", base_url=doc.path.parent, allowed_roots=roots(doc))
    assert again == pdfs["a4"]
    info = PdfReader(io.BytesIO(again)).metadata
    assert info is not None and info.creation_date is not None
    assert info.creation_date.isoformat().startswith("2026-01-01T00:00:00")


def test_both_papers_come_from_one_typesetting(pdfs: dict[str, bytes], doc: Document,
                                               html: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Written together, each paper's PDF is the one it gets alone; the two break every page
    alike, the type area placed in the middle of the paper; no trim box for a shop to cut."""
    from rulepress.render.pdf import render_pdfs

    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    both = render_pdfs(html, ("letter", "a4"), base_url=doc.path.parent,
                       allowed_roots=roots(doc))
    assert both == {"a4": pdfs["a4"], "letter": pdfs["letter"]}
    readers = {paper: PdfReader(io.BytesIO(pdfs[paper])) for paper in pdfs}
    texts = {paper: [page.extract_text() for page in r.pages] for paper, r in readers.items()}
    assert texts["a4"] == texts["letter"]
    for paper, reader in readers.items():
        for page in reader.pages:
            assert "/TrimBox" not in page and "/BleedBox" not in page, paper
    # A4 is 17.6 mm (49.9 pt) taller than Letter and 5.9 mm (16.7 pt) narrower: half of each
    # goes to either margin (the ink measured on the rendered pages, 1 px = 1 pt).
    margins = {paper: [_ink_margins(pdfs[paper], n) for n in range(1, 4)] for paper in pdfs}
    for (top_a, right_a, bottom_a, left_a), (top_l, right_l, bottom_l, left_l) in zip(
            margins["a4"], margins["letter"], strict=True):
        assert top_a - top_l == pytest.approx(25, abs=1.5)
        assert bottom_a - bottom_l == pytest.approx(25, abs=1.5)
        assert left_l - left_a == pytest.approx(8, abs=1.5)
        assert right_l - right_a == pytest.approx(8, abs=1.5)


def _ink_margins(pdf: bytes, page: int) -> tuple[int, int, int, int]:
    """Top, right, bottom and left white margins of a page, in points."""
    import pypdfium2 as pdfium

    image = pdfium.PdfDocument(pdf)[page].render(scale=1).to_pil().convert("L")
    box = image.point(lambda v: 255 if v < 200 else 0).getbbox()
    assert box is not None
    left, top, right, bottom = box
    return top, image.width - right, image.height - bottom, left


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_cover_colour_reaches_every_edge(pdfs: dict[str, bytes], paper: str) -> None:
    """The cover is typeset on the common page; its colour bleeds into the margins a paper
    adds, so no white band shows on either paper."""
    import pypdfium2 as pdfium

    image = pdfium.PdfDocument(pdfs[paper])[0].render(scale=0.5).to_pil().convert("RGB")
    width, height = image.size
    for xy in [(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1),
               (width // 2, 0), (0, height // 2)]:
        assert image.getpixel(xy) == image.getpixel((width // 2, height // 2 + 40)), (paper, xy)
        assert sum(image.getpixel(xy)) < 400, (paper, xy)  # the cover's colour, not paper


def test_unknown_paper(doc: Document, html: str) -> None:
    with pytest.raises(ValueError, match="paper"):
        render_pdf(html, "a3", base_url=doc.path.parent, allowed_roots=roots(doc))


def test_figures_become_images_for_weasyprint_only(html: str) -> None:
    from rulepress.render.pdf import figures_as_images

    assert html.count("<svg") == 6  # the page keeps its SVG inline
    converted = figures_as_images(html)
    assert "<svg" not in converted
    assert converted.count('<img alt="before" src="data:image/svg+xml;base64,') == 3
    broken = "<figure><svg width='1'><g></svg></figure>"  # not XML: left alone
    assert figures_as_images(broken) == broken


def test_every_figure_image_is_named_by_its_own_figure() -> None:
    """A tagged PDF needs alt text on every image: the figure's caption, else the drawing's
    aria-label, else its title; never the caption of the next figure."""
    from rulepress.render.pdf import figures_as_images

    page = ('<figure><svg aria-label="A worm backs out"><title>A course</title></svg></figure>'
            '<figure><svg><title>Twelve cells</title></svg></figure>'
            '<figure><svg role="img"><g/></svg><figcaption>The <b>last</b> one</figcaption>'
            '</figure>')
    assert re.findall(r'<img alt="([^"]*)"', figures_as_images(page)) == [
        "A worm backs out", "Twelve cells", "The last one"]


def test_reproducible_without_an_epoch_or_harfbuzz(doc: Document, html: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The fontTools subsetting path stamps fonts with the clock unless an epoch is pinned."""
    import fontTools.misc.timeTools as time_tools

    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    monkeypatch.setattr("weasyprint.pdf.fonts.harfbuzz_subset", None)
    ticks = iter(range(1_800_000_000, 1_900_000_000, 86_400))
    monkeypatch.setattr(time_tools.time, "time", lambda: float(next(ticks)))
    short = html.split('<main class="rules">')[0] + "</body></html>"  # cover + contents only
    first, second = (render_pdf(short, "a4", base_url=doc.path.parent, allowed_roots=roots(doc))
                     for _ in range(2))
    assert first == second
    assert "SOURCE_DATE_EPOCH" not in __import__("os").environ


def test_the_running_head_names_the_section_in_force_at_the_top_of_the_page(
        tmp_path: Path) -> None:
    # A long section that ends halfway down a page, then a new one under it: that page belongs
    # to the long section (its head said the next section's name before).
    long = "\n\n".join(f"Paragraph {n} of the long section, " + "words to fill a line. " * 20
                       for n in range(14))
    folder = tmp_path / "game"
    folder.mkdir()
    source = LANTERN.read_text(encoding="utf-8").split("\n# Lantern Walk\n")[0]
    (folder / "rules.md").write_text(
        source + "\n# Lantern Walk\n\n## Long section\n\n" + long
        + "\n\n## Short section\n\nIt starts under the long one.\n", encoding="utf-8")
    doc = read_document(folder / "rules.md")
    pdf_bytes = render_pdf(render_html(doc, {}), "a4", base_url=folder, allowed_roots=roots(doc))
    with pdfplumber.open(io.BytesIO(pdf_bytes)) as pdf:
        # The head sits in the top margin (its baseline about 28 mm down), on the right.
        heads = [" ".join(w["text"] for w in page.extract_words()
                          if w["top"] < 90 and w["x0"] > page.width / 2) for page in pdf.pages]
        bodies = [[ln["text"] for ln in page.extract_text_lines() if ln["top"] >= 90]
                  for page in pdf.pages]
    shared = [n for n, lines in enumerate(bodies)
              if "Short section" in lines and lines[0] != "Short section"]
    assert shared, bodies
    assert heads[shared[0]] == "Long section", heads

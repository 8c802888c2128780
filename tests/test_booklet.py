"""`rulepress build --booklet`: the player edition on half-sheet pages, imposed for saddle
stitching, read back from the PDF it writes."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from pypdf import PdfReader
from test_build_pipeline import ROOTS, run

from rulepress.render.booklet import PRINTING, saddle_order

pytestmark = pytest.mark.slow  # booklets typeset and imposed

FOOTER = re.compile(r"page (\d+) of (\d+)")
# Landscape sheet and the booklet page on each half, in points.
PT_PER_MM = 72 / 25.4
SHEET = {"a4": (297 * PT_PER_MM, 210 * PT_PER_MM), "letter": (11 * 72.0, 8.5 * 72)}
PAGE = {"a4": (148 * PT_PER_MM, 210 * PT_PER_MM), "letter": (5.5 * 72, 8.5 * 72)}


def folded(sides: list[tuple[int | None, int | None]]) -> list[int | None]:
    """The pages in reading order once the printed sheets are stacked, in print order, and
    folded in half: the right half of each front and left of each back come first, then the
    other halves from the innermost sheet out."""
    fronts, backs = sides[0::2], sides[1::2]
    first = [p for front, back in zip(fronts, backs, strict=True) for p in (front[1], back[0])]
    second = [p for front, back in reversed(list(zip(fronts, backs, strict=True)))
              for p in (back[1], front[0])]
    return first + second


@pytest.mark.parametrize("pages", range(1, 14))
def test_saddle_order_folds_back_into_reading_order(pages: int) -> None:
    sides = saddle_order(pages)
    total = len(sides) * 2
    assert total % 4 == 0 and pages <= total < pages + 4
    assert folded(sides) == [n if n <= pages else None for n in range(1, total + 1)]


def test_saddle_order_of_eight_pages() -> None:
    assert saddle_order(8) == [(8, 1), (2, 7), (6, 3), (4, 5)]
    assert saddle_order(5) == [(None, 1), (2, None), (None, 3), (4, 5)]


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny game, lengthened to a book of several A5 pages."""
    src = tmp_path_factory.mktemp("src")
    shutil.copytree(ROOTS / "good", src, dirs_exist_ok=True)
    rules = src / "tiny" / "rules.md"
    sentence = "The pawn moves along the track one square at a time, and nothing else happens. "
    rounds = "".join(f"\n## Round {n}\n\n{sentence * 24}\n\n{sentence * 18}\n" for n in range(9))
    rules.write_text(rules.read_text().replace("## Clarifications", rounds + "\n## Clarifications"))
    return src


def build_booklet(src: Path, out: Path, *papers: str) -> Path:
    code, err = run("build", "--sources", str(src), "--out", str(out), "--booklet",
                    "--edition", "player", *(("--paper", *papers) if papers else ()), "-j", "1")
    assert code == 0, err
    return out / "tiny"


@pytest.fixture(scope="module")
def built(sources: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_booklet(sources, tmp_path_factory.mktemp("build"))


Half = tuple[str, list[dict[str, Any]]]  # its text and its characters


def halves(path: Path, paper: str) -> list[tuple[Half, Half]]:
    width, height = SHEET[paper]
    sides = []
    with pdfplumber.open(path) as pdf:
        for sheet in pdf.pages:
            assert float(sheet.width) == pytest.approx(width, abs=0.01)
            assert float(sheet.height) == pytest.approx(height, abs=0.01)
            width, height = float(sheet.width), float(sheet.height)
            left, right = (sheet.crop((x, 0, x + width / 2, height)) for x in (0, width / 2))
            sides.append(((left.extract_text(), left.chars), (right.extract_text(), right.chars)))
    return sides


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_booklet_sheets_hold_unscaled_half_pages_in_saddle_order(built: Path, paper: str) -> None:
    sides = halves(built / f"tiny-{paper}-booklet.pdf", paper)
    footers = [[FOOTER.search(text) for text, _ in side] for side in sides]
    counts = {int(m.group(2)) for side in footers for m in side if m}
    assert len(counts) == 1
    pages = counts.pop()
    assert pages >= 6 and pages % 4 != 0  # several sheets, and blank pages to pad them
    assert len(sides) * 2 == -(-pages // 4) * 4
    width, height = SHEET[paper]
    page_w, page_h = PAGE[paper]
    for n, (side, found, want) in enumerate(zip(sides, footers, saddle_order(pages),
                                                strict=True)):
        for slot, ((text, chars), m, number) in enumerate(zip(side, found, want, strict=True)):
            where = f"sheet side {n + 1}, {'left' if slot == 0 else 'right'} half"
            if number is None:
                assert not chars, f"{where} should be blank"
                continue
            if number == 1:  # the cover prints no page number
                assert m is None and "Tiny Race" in text, where
                continue
            assert m is not None and int(m.group(1)) == number, where
            # Typeset at its own size, not shrunk from a full sheet: the footer is still 9 pt,
            # and everything stays on the half-sheet page that meets the fold.
            footer = [c for c in chars if c["top"] > height - 40]  # in the bottom margin
            assert {round(c["size"], 1) for c in footer} == {9.0}, where
            left, top = (width / 2 - page_w if slot == 0 else width / 2), (height - page_h) / 2
            assert all(left <= c["x0"] and c["x1"] <= left + page_w for c in chars), where
            assert all(top <= c["top"] and c["bottom"] <= top + page_h for c in chars), where


def test_booklet_says_how_to_print_it(built: Path) -> None:
    reader = PdfReader(built / "tiny-a4-booklet.pdf")
    assert reader.metadata is not None
    assert reader.metadata.title == "Tiny Race" and reader.metadata.subject == PRINTING
    assert "short edge" in PRINTING
    preferences = reader.trailer["/Root"]["/ViewerPreferences"]
    assert preferences["/Duplex"] == "/DuplexFlipShortEdge"
    assert preferences["/PrintScaling"] == "/None"


def test_booklets_are_linked(built: Path) -> None:
    html = (built / "tiny.html").read_text()
    index = (built.parent / "index.html").read_text()
    for paper, label in (("a4", "A4"), ("letter", "US Letter")):
        assert f'<a href="tiny-{paper}-booklet.pdf">Booklet ({label})</a>' in html
        assert f'href="tiny/tiny-{paper}-booklet.pdf">Rulebook, booklet ({label})</a>' in index


def test_a_booklet_is_reproducible(sources: Path, built: Path, tmp_path: Path) -> None:
    again = build_booklet(sources, tmp_path, "a4") / "tiny-a4-booklet.pdf"
    assert again.read_bytes() == (built / "tiny-a4-booklet.pdf").read_bytes()


def test_a_booklet_needs_the_player_edition(tmp_path: Path) -> None:
    code, err = run("build", "--sources", str(ROOTS / "good"), "--out", str(tmp_path / "o"),
                    "--booklet", "--edition", "reference")
    assert code == 2
    assert "--booklet imposes the player edition" in err
    assert not (tmp_path / "o").exists()

"""How full the pages of a rulebook PDF are, measured from the rendered pages themselves.

A page's *blank share* is the part of its type area (inside the @page margins of print.css, so
without the running header and footer) below its last ink: a page whose text stops halfway is
50% empty. Run as a script to print the figures of a PDF: ``python tests/pagefill.py book.pdf``.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
from pypdf import PdfReader

from rulepress.paths import templates_dir
from rulepress.render.pdf import COMMON_PAGE_MM

# The @page margins of the theme's print.css on the common page (a booklet's come first); a
# paper taller than it adds half the difference to each.
_MARGINS = re.search(r"\{% else %\}([\d.]+)mm [\d.]+mm ([\d.]+)mm\{% endif %\}",
                     (templates_dir() / "print.css").read_text(encoding="utf-8"))
assert _MARGINS is not None, "print.css no longer gives its page margins as pagefill reads them"
MARGIN_TOP_MM, MARGIN_BOTTOM_MM = float(_MARGINS[1]), float(_MARGINS[2])
DPI = 40
INK = 235  # a pixel darker than this (0-255 grey) is ink; lighter tints count as paper


@dataclass(frozen=True)
class Page:
    number: int  # 1-based
    blank: float  # share of the type area below the last ink
    text: str


def blank_shares(pdf: Path) -> list[Page]:
    doc = pdfium.PdfDocument(str(pdf))
    reader = PdfReader(pdf)
    pages = []
    for n in range(len(doc)):
        image = doc[n].render(scale=DPI / 72, grayscale=True).to_pil().convert("L")
        width, height = image.size
        px_per_mm = DPI / 25.4
        extra = (height / px_per_mm - COMMON_PAGE_MM[1]) / 2
        top = round((MARGIN_TOP_MM + extra) * px_per_mm)
        bottom = height - round((MARGIN_BOTTOM_MM + extra) * px_per_mm)
        data = image.load()
        assert data is not None
        last = top - 1
        for y in range(bottom - 1, top - 1, -1):
            if any(data[x, y] < INK for x in range(width)):  # type: ignore[operator]
                last = y
                break
        pages.append(Page(n + 1, (bottom - 1 - last) / (bottom - top),
                          reader.pages[n].extract_text() or ""))
    return pages


def outline_pages(pdf: Path) -> dict[str, int]:
    """Bookmark title -> its 1-based page (the PDF's outline, flattened)."""
    reader = PdfReader(pdf)
    found: dict[str, int] = {}

    def walk(items: list[object]) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                found.setdefault(str(item.title), reader.get_destination_page_number(item) + 1)  # type: ignore[attr-defined]

    walk(reader.outline)  # type: ignore[arg-type]
    return found


def destinations(pdf: Path) -> dict[str, int]:
    """Named destination (an element's id) -> its 1-based page."""
    reader = PdfReader(pdf)
    return {name: reader.get_destination_page_number(dest) + 1  # type: ignore[arg-type]
            for name, dest in reader.named_destinations.items()}


def split_examples(pdf: Path) -> list[tuple[str, int, int]]:
    """(example id, first page, last page) of every example box that parts across pages: its
    id and the marker closing it (``<id>--end``) on different pages."""
    dests = destinations(pdf)
    return [(name, page, dests[f"{name}--end"]) for name, page in dests.items()
            if f"{name}--end" in dests and dests[f"{name}--end"] != page]


def last_lines(pdf: Path) -> list[str]:
    """The last line of text inside each page's type area (the running header and footer
    left out), by position on the page rather than the order the PDF draws in. Positions are
    pdfium's glyph boxes (the font's full height, so one line's glyphs share a bottom): pypdf's
    text matrices placed a line below its true place once a page held columns."""
    out = []
    for page in pdfium.PdfDocument(str(pdf)):
        height = page.get_height()
        extra = (height / 72 * 25.4 - COMMON_PAGE_MM[1]) / 2
        top = height - (MARGIN_TOP_MM + extra) * 72 / 25.4
        bottom = (MARGIN_BOTTOM_MM + extra) * 72 / 25.4
        text = page.get_textpage()
        rows: dict[int, list[tuple[float, str]]] = {}
        row: list[tuple[float, str]] | None = None
        for i in range(text.count_chars()):
            char = text.get_text_range(i, 1)
            left, low, _, high = text.get_charbox(i, loose=True)
            if char.isspace():  # a space belongs to the line of the glyph before it
                if row is not None:
                    row.append((row[-1][0] + 0.01, " "))
                continue
            middle = (low + high) / 2
            row = rows.setdefault(round(middle), []) if bottom <= middle <= top else None
            if row is not None:
                row.append((left, char))
        lowest = rows[min(rows)] if rows else []
        out.append(" ".join("".join(c for _, c in sorted(lowest)).split()))
    return out


def stranded_headings(pdf: Path, headings: list[str]) -> list[tuple[int, str]]:
    """(page, heading) of every page whose type area ends with a heading."""
    return [(n, line) for n, line in enumerate(last_lines(pdf), 1) if line in headings]


if __name__ == "__main__":
    for path in sys.argv[1:]:
        shares = blank_shares(Path(path))
        print(f"{path}: {len(shares)} pages")
        for page in shares:
            print(f"  page {page.number:2d}: {page.blank:5.0%} blank")
        for name, first, last in split_examples(Path(path)):
            print(f"  example {name} parts across pages {first}-{last}")

"""Paper and ink of every bundled kit, measured from the PDFs: `make kit-report`.

For each game, paper and mode (double-sided, --sides one; normal and --ink low):

- sheets: pages, less those printed on the reverse of another (their footers say so);
- fill: the share of each sheet of pieces' printable area that trimmed faces cover (the plan's
  figure, which tests/test_pnp_measure.py checks against the rendered pages), mean and lowest;
- ink: the mean darkness (0 white to 1 black) of every rendered page at 100 dpi, normal and low.
  A renderer draws a line finer than a pixel a pixel wide, so a coarse rendering counts low
  ink's hairlines several times over: at 20 dpi Pigeon Race's low-ink kit measured 49% of its
  normal ink, at 100 dpi 33%, at 150 dpi 32% (100 dpi is within a few percent of converged).
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pypdf
import pypdfium2

from rulepress.document.reader import read_sources
from rulepress.games import contract, load_engine
from rulepress.pnp.kit import Kit, Options, build_kit, versions

ROOT = Path(__file__).parents[1]
REVERSE = ("backs:", "printer check, back", "back of the cover")
DPI = 100


def sheets(pdf: bytes) -> int:
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    return sum(1 for page in reader.pages
               if not any(r in page.extract_text() for r in REVERSE))


def ink(pdf: bytes) -> float:
    """Mean darkness over every page, rendered in grey."""
    doc = pypdfium2.PdfDocument(pdf)
    total = 0.0
    for page in doc:
        img = page.render(scale=DPI / 72, grayscale=True).to_pil()
        data = img.tobytes()
        total += 1 - sum(data) / (255 * len(data))
    return total / len(doc)


def kits() -> list[tuple[str, str, str, Kit, Kit]]:
    """(game, paper, sides, normal kit, low-ink kit) for every bundled kit."""
    out = []
    for doc in read_sources(ROOT / "sources", ()):
        engine = load_engine(doc.meta.engine) if doc.meta.engine else None
        drawers = engine.drawers() if engine else {}
        tables = contract.tables(engine)
        for variant, version in versions(doc):
            name = doc.slug + (f" ({variant})" if variant else "")
            for paper in ("a4", "letter"):
                for sides in ("two", "one"):
                    normal, low = (build_kit(version, drawers, paper, tables=tables,
                                             options=Options(sides=sides, ink=ink))
                                   for ink in ("normal", "low"))
                    out.append((name, paper, sides, normal, low))
    return out


def main() -> int:
    print("| kit | paper | sides | sheets | fill mean | fill lowest | ink normal | ink low | "
          "low / normal |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, paper, sides, normal, low in kits():
        fill = normal.fill
        a, b = ink(normal.pdf), ink(low.pdf)
        assert sheets(normal.pdf) == normal.sheets, name
        print(f"| {name} | {paper} | {sides} | {sheets(normal.pdf)} | "
              f"{sum(fill) / len(fill):.0%} | {min(fill):.0%} | {a:.1%} | {b:.1%} | "
              f"{b / a:.0%} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

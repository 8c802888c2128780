"""A saddle-stitched booklet: the book typeset on half-sheet pages (A5, or 5.5 x 8.5 in), two
to a side of each landscape sheet (A4, or Letter), in the order that folding the printed stack
in half gives back.

Imposition libraries were considered: pdfimpose is AGPL-3.0 and needs PyMuPDF (AGPL), which an
MIT project cannot ship, so the page order is ours and pypdf (BSD) places the pages.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rulepress.media import PAPERS

if TYPE_CHECKING:
    from pypdf import PageObject, PdfReader, PdfWriter
    from pypdf.generic import IndirectObject

# Landscape sheets, in points.
SHEETS_PT = {key: (p.height_pt, p.width_pt) for key, p in PAPERS.items()}
PRINTING = ("Saddle-stitched booklet: print both sides at actual size, flipping on the short "
            "edge; fold the stack in half and staple along the fold.")

KEPT_METADATA = ("/Title", "/Author", "/Creator", "/CreationDate", "/ModDate")

Side = tuple[int | None, int | None]  # (left, right) page numbers from 1; None: a blank page


def saddle_order(pages: int) -> list[Side]:
    """Every side of every sheet, in printing order (sheet 1 front, sheet 1 back, ...), for a
    book of ``pages`` pages padded with blank pages at its end to a multiple of four."""
    total = -(-pages // 4) * 4

    def page(n: int) -> int | None:
        return n if n <= pages else None

    sides: list[Side] = []
    for sheet in range(total // 4):
        outer, inner = 2 * sheet + 1, total - 2 * sheet
        sides += [(page(inner), page(outer)), (page(outer + 1), page(inner - 1))]
    return sides


def impose(pdf: bytes, paper: str) -> bytes:
    """The pages of ``pdf`` (each half of a ``paper`` sheet) as a saddle-stitched booklet.

    Each page becomes a form XObject drawn once on its half, at its own size: no page is
    scaled, and no content stream is parsed or rewritten.
    """
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    reader = PdfReader(io.BytesIO(pdf))
    writer = PdfWriter()
    width, height = SHEETS_PT[paper]
    forms = [_form(writer, page) for page in reader.pages]
    for side in saddle_order(len(forms)):
        draw, xobjects = [], DictionaryObject()
        for slot, number in enumerate(side):
            if number is None:
                continue
            form, box = forms[number - 1]
            # The two pages meet at the fold, each centred top to bottom.
            x = width / 2 - (box[2] - box[0] if slot == 0 else 0) - box[0]
            y = (height - (box[3] - box[1])) / 2 - box[1]
            name = f"/Page{number}"
            xobjects[NameObject(name)] = form
            draw.append(f"q 1 0 0 1 {x:.4f} {y:.4f} cm {name} Do Q")
        sheet = writer.add_blank_page(width, height)
        sheet[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): xobjects})
        content = DecodedStreamObject()
        content.set_data("\n".join(draw).encode("ascii"))
        sheet.replace_contents(content.flate_encode())
    _describe(writer, reader)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _form(writer: PdfWriter, page: PageObject) -> tuple[IndirectObject, list[float]]:
    """``page`` as a form XObject in ``writer`` (its resources shared with the other pages')."""
    from pypdf.generic import ArrayObject, DecodedStreamObject, FloatObject, NameObject

    box = [float(v) for v in page.mediabox]
    contents = page.get_contents()
    form = DecodedStreamObject()
    form.set_data(contents.get_data() if contents is not None else b"")
    encoded = form.flate_encode()
    encoded.update({
        NameObject("/Type"): NameObject("/XObject"),
        NameObject("/Subtype"): NameObject("/Form"),
        NameObject("/BBox"): ArrayObject(FloatObject(v) for v in box),
        NameObject("/Resources"): page["/Resources"].clone(writer),
    })
    # pypdf has no public call that adds a new indirect object; every stream must be one.
    return writer._add_object(encoded), box


def _describe(writer: PdfWriter, reader: PdfReader) -> None:
    """The book's title, author and dates, and how to print it, in words and as the viewer
    preferences a print dialog reads (duplex on the short edge, no fitting to the page)."""
    from pypdf.generic import NameObject

    info = reader.metadata
    if info is not None:
        writer.add_metadata({key: info[key] for key in KEPT_METADATA if key in info})
    writer.add_metadata({"/Subject": PRINTING, "/Producer": "rulepress (pypdf)"})
    preferences = writer.create_viewer_preferences()
    preferences[NameObject("/Duplex")] = NameObject("/DuplexFlipShortEdge")
    preferences[NameObject("/PrintScaling")] = NameObject("/None")


def render_booklet(html: str, paper: str, *, base_url: Path,
                   allowed_roots: Sequence[Path]) -> bytes:
    """Typeset ``html`` on half-``paper`` pages and impose them as a booklet."""
    from rulepress.render.pdf import render_pdf  # WeasyPrint: a slow import

    return impose(render_pdf(html, paper, base_url=base_url, allowed_roots=allowed_roots,
                             booklet=True), paper)

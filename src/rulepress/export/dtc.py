"""``export --to dtc``: DriveThruCards' one PDF per deck: a page per side of every card (back,
then front, card after card, each copy), the trim plus 1/8 in of bleed, drawn as vectors by the
kit's own drawers with every colour converted to CMYK (grey to black ink alone), fonts embedded
(ReportLab embeds a subset of every TrueType font it draws with).

PDF/X-1a is not reached, and cannot be with ReportLab alone: it writes no OutputIntent (an ICC
output profile, e.g. FOGRA39 or GRACoL, which no Debian package ships under a free licence for
embedding), no ``GTS_PDFXVersion`` key, and keeps raster images (a layout's PNG or JPEG) in
RGB. Ghostscript's ``-dPDFX`` needs that same profile. DriveThruCards accepts a CMYK PDF with
embedded fonts and its trim and bleed boxes, which this is.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

from reportlab import rl_config
from reportlab.pdfgen.canvas import Canvas

from rulepress.diagnostics import RulepressError
from rulepress.document.model import Document
from rulepress.export.houses import Placed
from rulepress.export.preflight import to_cmyk
from rulepress.export.raster import POINTS_PER_IN, Shot, SideFaces, draw_page
from rulepress.pnp.draw import REGULAR
from rulepress.pnp.fonts import register_fonts


def deck_pdf(doc: Document, part: Placed, found: Mapping[tuple[str, bool], SideFaces]) -> bytes:
    """The deck's PDF: for each copy, its back's page then its front's."""
    p = part.fit.product
    front = found[(part.comp.id, False)]
    back = found.get((part.comp.id, True))
    pixels = p.pixels  # at 300 dpi: the page is the same size in points at 72
    shots: list[Shot] = []
    for i in range(part.comp.count):
        sides: Sequence[SideFaces] = (back, front) if back is not None else (front,)
        for side in sides:
            shots.append(Shot(side, side.keys[i], part.fit.size, pixels, 300,
                              (p.width, p.height), part.fit.turned))
    register_fonts()
    buf = io.BytesIO()
    saved = rl_config.useA85
    rl_config.useA85 = 0
    try:
        c = Canvas(buf, invariant=1, pageCompression=1, initialFontName=REGULAR)
        c._enforceColorSpace = to_cmyk
        c.setTitle(f"{doc.meta.title}: {part.comp.name}")
        c.setAuthor(doc.meta.designer)
        c.setCreator("rulepress")
        bleed = p.bleed * POINTS_PER_IN
        pw, ph = (n * POINTS_PER_IN / 300 for n in pixels)
        for shot in shots:
            c.setTrimBox((bleed, bleed, pw - bleed, ph - bleed))
            c.setBleedBox((0, 0, pw, ph))
            draw_page(c, shot)
            c.showPage()
        c.save()
    except ValueError as exc:  # a colour the conversion does not know
        raise RulepressError.at(part.comp.loc, f"dtc: component '{part.comp.id}': {exc}"
                                ) from None
    finally:
        rl_config.useA85 = saved
    return buf.getvalue()

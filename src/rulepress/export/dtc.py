"""``export --to dtc``: DriveThruCards' one PDF per deck, PDF/X-1a:2003: a page per side of
every card (back, then front, card after card, each copy), the trim plus 1/8 in of bleed in its
TrimBox and BleedBox, drawn as vectors by the kit's own drawers with every colour converted to
CMYK (grey to black ink alone), fonts embedded (ReportLab embeds a subset of every TrueType font
it draws with). ``pdfx.make`` adds the OutputIntent and the PDF/X keys; ``pdfx.check`` reads
each file back and any rule it breaks is an error at the component's line.

PDF/X-1a allows no transparency, so what the drawers ask for is flattened as it is drawn: a
translucent colour prints as its tint over the paper, a raster image is converted to CMYK and
its alpha kept as a colour-key mask (a pixel at least half opaque prints, the rest not).
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image
from reportlab import rl_config
from reportlab.lib.colors import CMYKColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from rulepress.diagnostics import RulepressError, error
from rulepress.document.model import Document
from rulepress.export.houses import Placed
from rulepress.export.raster import POINTS_PER_IN, Shot, SideFaces, draw_page
from rulepress.pnp.draw import REGULAR
from rulepress.pnp.fonts import register_fonts
from rulepress.press import pdfx
from rulepress.press.colour import cmyk_image, opaque, tint, to_cmyk


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
        c = _PrintCanvas(buf, invariant=1, pageCompression=1, initialFontName=REGULAR)
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
    title = f"{doc.meta.title}: {part.comp.name}"
    made = pdfx.make(buf.getvalue(), title)
    problems = pdfx.check(made)
    if problems:
        name = f"{doc.slug}-{part.comp.id}.pdf"
        raise RulepressError([error(part.comp.loc, (
            f"dtc: component '{part.comp.id}': {name}"
            f"{f' page {p.page}' if p.page else ''} is not PDF/X-1a: {p.text}"))
            for p in problems])
    return made


class _PrintCanvas(Canvas):  # type: ignore[misc]
    """A canvas that writes only opaque CMYK: each colour as ``tint`` gives it at the opacity
    in force (a colour's own alpha, or setFillAlpha's), images through ``cmyk_image``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._enforceColorSpace = opaque  # text objects convert their colours with it
        # (fill colour, stroke colour, fill alpha, stroke alpha) per saved state.
        self._asked: list[list[Any]] = [[None, None, 1.0, 1.0]]
        self._painting = False

    def saveState(self) -> None:  # noqa: N802
        super().saveState()
        self._asked.append(list(self._asked[-1]))

    def restoreState(self) -> None:  # noqa: N802
        super().restoreState()
        if len(self._asked) > 1:
            self._asked.pop()

    def _paint(self, stroke: bool, colour: Any, alpha: Any) -> None:
        if self._painting:  # ReportLab's own setFillAlpha(1) for the colour we hand it
            return
        state = self._asked[-1]
        if colour is not None:
            state[int(stroke)] = colour
            own = getattr(to_cmyk(colour), "alpha", None)
            alpha = own if alpha is None and own is not None else alpha
        if alpha is not None:
            state[2 + int(stroke)] = float(alpha)
        if state[int(stroke)] is None:
            return
        shown = tint(state[int(stroke)], state[2 + int(stroke)])
        self._painting = True
        try:
            (super().setStrokeColor if stroke else super().setFillColor)(shown)
        finally:
            self._painting = False

    def setFillColor(self, aColor: Any, alpha: Any = None) -> None:  # noqa: N802, N803
        self._paint(False, aColor, alpha)

    def setStrokeColor(self, aColor: Any, alpha: Any = None) -> None:  # noqa: N802, N803
        self._paint(True, aColor, alpha)

    def setFillGray(self, gray: float, alpha: Any = None) -> None:  # noqa: N802
        self._paint(False, CMYKColor(0, 0, 0, 1 - gray), alpha)

    def setStrokeGray(self, gray: float, alpha: Any = None) -> None:  # noqa: N802
        self._paint(True, CMYKColor(0, 0, 0, 1 - gray), alpha)

    def _setFillAlpha(self, v: float) -> None:  # noqa: N802 - ReportLab's hook
        self._paint(False, None, v)

    def _setStrokeAlpha(self, v: float) -> None:  # noqa: N802 - ReportLab's hook
        self._paint(True, None, v)

    def drawImage(self, image: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N802
        picture = getattr(image, "_image", None) if isinstance(image, ImageReader) else None
        if picture is None and isinstance(image, (str, Image.Image)):
            picture = Image.open(image) if isinstance(image, str) else image
        if isinstance(picture, Image.Image):
            converted, key = cmyk_image(picture)
            image = ImageReader(converted)
            kwargs["mask"] = key
        return super().drawImage(image, *args, **kwargs)

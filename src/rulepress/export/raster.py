"""Every face an export needs, drawn by the kit's own drawers (a layout, or the engine's code)
onto PDF pages of the exact size asked for, and rasterized by PDFium: the exported images are
the kit's faces, never a second drawing of them.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from rulepress.diagnostics import Diagnostic, RulepressError
from rulepress.document.model import Component, Document
from rulepress.games.base import Drawer
from rulepress.pnp.api import Face
from rulepress.pnp.draw import REGULAR, saved
from rulepress.pnp.faces import SHARED, Art, Tables, is_layout
from rulepress.pnp.faces.elements import compile_layout
from rulepress.pnp.faces.layoutfile import read_layout
from rulepress.pnp.fonts import register_fonts
from rulepress.pnp.kit import side_drawer
from rulepress.units import Size

POINTS_PER_IN = 72.0


@dataclass(frozen=True)
class SideFaces:
    """One side of one component: its drawer, the face each copy shows (a key) and, for each
    distinct key in order, the copy drawn for it."""

    comp: Component
    back: bool
    draw: Drawer
    keys: tuple[int, ...]  # copy index -> face key

    def distinct(self) -> list[int]:
        return list(dict.fromkeys(self.keys))

    def drawn(self, key: int) -> int:
        """The copy drawn for face ``key``."""
        return self.keys.index(key)

    def copies(self, key: int) -> int:
        return self.keys.count(key)


def sides(doc: Document, drawers: Mapping[str, Drawer], tables: Tables,
          only: Sequence[Component] | None = None) -> dict[tuple[str, bool], SideFaces]:
    """Every printed side of the components (``only``: of these), with the faces its copies
    show; RulepressError with every problem, as the kit would raise."""
    art = Art(doc, tables)
    problems: list[Diagnostic] = []
    found: dict[tuple[str, bool], SideFaces] = {}
    for comp in only if only is not None else doc.meta.components:
        for back, name in ((False, comp.front), (True, comp.back)):
            if name is None or comp.size is None:
                continue
            draw = side_drawer(comp, back, drawers, art, problems)
            if draw is None:
                continue
            if is_layout(name):
                side = art.side(comp, back)
                keys = tuple(side.key(i) for i in range(comp.count))
            elif back and not comp.back_varies:
                keys = (SHARED,) * comp.count
            else:
                keys = tuple(range(comp.count))
            found[(comp.id, back)] = SideFaces(comp, back, draw, keys)
    if problems:
        raise RulepressError(problems)
    return found


def round_cut(doc: Document, comp: Component) -> bool:
    """Whether a square component's front layout cuts it round: a circle element centred on
    the face and as wide as it (a coin's cut line), whatever its background fills."""
    if comp.size is None or comp.front is None or not is_layout(comp.front):
        return False
    w, h = comp.size.points
    if abs(w - h) > 0.01 * w:
        return False
    try:
        layout = compile_layout(read_layout(doc.folder, comp.front, comp.loc), comp.size.width,
                                comp.size.height)
    except RulepressError:
        return False  # the kit's own check reports it
    for el in layout.elements:
        if el.type != "circle":
            continue
        try:
            cx, cy, r = float(el.get("cx")), float(el.get("cy")), float(el.get("r"))
        except (TypeError, ValueError):  # a templated value: not a fixed cut line
            continue
        if max(abs(cx - w / 2), abs(cy - h / 2), abs(2 * r - w)) <= 0.01 * w:
            return True
    return False


@dataclass(frozen=True)
class Shot:
    """One face to rasterize: ``pixels`` wide and high at ``dpi``; the trim (``trim``,
    inches, in the image's orientation) centred with the bleed around it; ``turned``: the
    component's face is drawn a quarter turn (landscape art on a portrait product);
    ``clear``: transparent where nothing is drawn (a token's shape)."""

    side: SideFaces
    key: int
    size: Size  # the component's size this face is drawn at (its own or a variant's)
    pixels: tuple[int, int]
    dpi: float
    trim: tuple[float, float]
    turned: bool = False
    clear: bool = False


def pdf(shots: Sequence[Shot], canvas: type[Canvas] = Canvas) -> bytes:
    """One page per shot, each page the shot's image size at its dpi (``canvas``: the class
    drawn on, e.g. one ink's separation)."""
    register_fonts()
    buf = io.BytesIO()
    c = canvas(buf, invariant=1, pageCompression=0, initialFontName=REGULAR)
    for shot in shots:
        draw_page(c, shot)
        c.showPage()
    c.save()
    return buf.getvalue()


def draw_page(c: Canvas, shot: Shot) -> None:
    pw, ph = (n * POINTS_PER_IN / shot.dpi for n in shot.pixels)
    tw, th = (n * POINTS_PER_IN for n in shot.trim)
    c.setPageSize((pw, ph))
    cw, ch = shot.size.points
    comp = shot.side.comp
    bleed = (pw - tw) / 2
    with saved(c):
        c.translate(bleed, (ph - th) / 2)
        if shot.turned:  # the face's width runs up the page
            c.translate(tw, 0)
            c.rotate(90)
            sx, sy = th / cw, tw / ch
        else:
            sx, sy = tw / cw, th / ch
        c.scale(sx, sy)
        inner = bleed / min(sx, sy)
        face = Face(shot.side.drawn(shot.key), comp.count, cw, ch, inner, back=shot.side.back)
        c.addLiteral(f"{-inner:.3f} {-inner:.3f} {cw + 2 * inner:.3f} {ch + 2 * inner:.3f} "
                     "re W n")
        shot.side.draw(c, face)


def rasterize(shots: Sequence[Shot], canvas: type[Canvas] = Canvas) -> list[Image.Image]:
    """Each shot as an image of exactly its pixels: RGB, or RGBA where ``clear``."""
    return render(pdf(shots, canvas), shots)


def render(data: bytes, shots: Sequence[Shot]) -> list[Image.Image]:
    """The pages of ``data``, a PDF of one page per shot drawn by pdf(), as rasterize gives."""
    try:
        import pypdfium2
    except ImportError:  # a test dependency today: the lead adds it to the runtime lock
        raise RulepressError.at(None, "export rasterizes faces with pypdfium2, which is not "
                                      "installed: pip install pypdfium2") from None
    document = pypdfium2.PdfDocument(data)
    images = []
    try:
        for n, shot in enumerate(shots):
            page = document[n]
            fill = (255, 255, 255, 0) if shot.clear else (255, 255, 255, 255)
            # PDFium takes the ceiling of points x scale: a hair under the exact scale gives
            # exactly the shot's pixels (the page is that many pixels at its dpi).
            scale = shot.dpi / POINTS_PER_IN * (1 - 1e-9)
            bitmap = page.render(scale=scale, fill_color=fill, may_draw_forms=False,
                                 rev_byteorder=True)
            image = bitmap.to_pil()
            mode = "RGBA" if shot.clear else "RGB"
            if image.mode != mode:
                image = image.convert(mode)
            if image.size != shot.pixels:  # never by more than a pixel
                image = image.resize(shot.pixels, Image.Resampling.LANCZOS)
            images.append(image)
    finally:
        document.close()
    return images


def png(image: Image.Image, dpi: float | None = None) -> bytes:
    """PNG bytes with nothing but the pixels (no date, no software): reproducible; ``dpi``:
    recorded in a pHYs chunk (pixels a metre), so an editor or a print house reads the
    print size rather than assuming 72 dpi."""
    buf = io.BytesIO()
    extra = {"dpi": (dpi, dpi)} if dpi else {}
    image.save(buf, format="PNG", compress_level=1, **extra)  # 4x faster than 6, ~15% larger
    return buf.getvalue()

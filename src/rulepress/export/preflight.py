"""Preflight for a print house, in the check phase: what the house would print badly, at the
layout element's line. Text, symbols, tables and images of a layout must keep inside the
house's safe area (and so off the cut); a raster image must have 300 dpi at its printed size;
a face's total ink must stay within the house's limit.

Ink is measured on the CMYK the face prints with, not on its RGB picture: the face is drawn
once per ink (cyan, magenta, yellow, black), each colour it sets converted as the DTC export
converts it (a CMYK colour an engine sets, such as a rich black of 100% of every ink, stays
as set; RGB goes through ``cmyk``, grey to black alone), and painted as that ink's share in
grey; the four renderings' darkness summed per pixel is the total ink there (up to 400%).
Measured on the RGB rendering, a rich black would read as 100% black and never reach a limit.

Faces an engine draws in code have no element lines: only their ink is checked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
from PIL import Image
from reportlab.lib.colors import Color
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from rulepress.diagnostics import Diagnostic, RulepressError, SourceLoc, error, warning
from rulepress.document.model import Component
from rulepress.export.products import DPI, MM_PER_IN, Fit
from rulepress.export.raster import Shot, rasterize
from rulepress.pnp.api import Face
from rulepress.pnp.faces import Art, Side, is_layout
from rulepress.pnp.faces.elements import Element
from rulepress.pnp.faces.images import ImageProblem, open_image
from rulepress.press.colour import to_cmyk
from rulepress.units import POINTS_PER_MM

KEPT_INSIDE = ("text", "symbol", "table", "image", "index")
Say = Callable[[SourceLoc | None, str], Diagnostic]
SAFE = Face(0, 1, 1.0, 1.0, 0.0).safe  # where a corner index sits unless placed
INK_AREA = 0.01  # share of a face over the limit that counts (a few dots are no problem)


def _box(el: Element) -> tuple[float, float, float, float] | None:
    """The element's box, points from the trim's top-left: x0, y0, x1, y1."""
    if el.type in ("text", "table", "image"):
        x, y = el.get("x"), el.get("y")
        return x, y, x + el.get("width"), y + el.get("height")
    if el.type == "symbol":
        half = el.get("size") / 2
        return el.get("cx") - half, el.get("cy") - half, el.get("cx") + half, el.get("cy") + half
    return None


def elements(art: Art, comp: Component, back: bool, where: Fit, target: str,
             strict: bool) -> list[Diagnostic]:
    """A layout's text and images against the house's safe area and 300 dpi."""
    name = comp.back if back else comp.front
    if name is None or not is_layout(name):
        return []
    say: Say = error if strict else warning
    side = art.side(comp, back)
    w, h = where.size.points
    # The product's safe margin in the face's own points (the face is scaled onto the trim).
    scale = min(where.product.trim_mm) / min(where.size.width, where.size.height)
    safe = where.product.safe * 72 / scale
    found: list[Diagnostic] = []
    product = f"{target}: {where.product.name}"
    for el in side.layout.elements:
        if el.type not in KEPT_INSIDE or "repeat" in el.values:
            continue
        if el.type == "index":  # a corner index: its copy turned half round mirrors it
            room = min(el.values.get("x", SAFE), el.values.get("y", SAFE))
            x0 = y0 = x1 = y1 = 0.0
        else:
            box = _box(el)
            if box is None:
                continue
            x0, y0, x1, y1 = box
            room = min(x0, y0, w - x1, h - y1)
        if room < 0:
            found.append(say(el.loc, f"{product}: {el.type} '{el.name}' crosses the cut "
                                     f"({-room / POINTS_PER_MM:.1f} mm past the trim)"))
        elif room < safe - 0.01:
            found.append(say(el.loc, (
                f"{product}: {el.type} '{el.name}' is {room / POINTS_PER_MM:.1f} mm from the "
                f"trim, outside the safe area ({safe / POINTS_PER_MM:.1f} mm inside the trim)")))
        if el.type == "image":
            found += _image_dpi(art, side, el, (x1 - x0) * scale, (y1 - y0) * scale, say,
                                product)
    return found


def _image_dpi(art: Art, side: Side, el: Element, w: float, h: float, say: Say,
               product: str) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    seen: set[str] = set()
    for key in side.distinct():
        ctx, where = side.context(key)
        try:
            name = str(el.get("src").render(ctx, where))
            if name in seen:
                continue
            seen.add(name)
            picture = open_image(art.doc.folder, name)
        except (ImageProblem, RulepressError):
            continue  # the kit's own check reports it
        if picture.reader is None:
            continue  # SVG: drawn as vectors, sharp at any size
        shown = min(w / picture.width, h / picture.height)  # points per pixel, as placed
        dpi = 72 / shown
        if dpi < DPI - 0.5:
            found.append(say(el.at("src"), f"{product}: image '{name}' prints at {dpi:.0f} "
                                           f"dpi at its size on the face, below {DPI} dpi"))
    return found


def ink(shots: Iterable[tuple[Sequence[Shot], Component, bool]], limit: int, target: str,
        strict: bool) -> list[Diagnostic]:
    """Faces whose total ink (C + M + Y + K, as printed) passes ``limit`` percent over more
    than 1% of the face."""
    say: Say = error if strict else warning
    found = []
    for taken, comp, back in shots:
        for total in ink_totals(taken):
            share = float((total > limit + 0.5).mean()) if total.size else 0.0
            if share > INK_AREA:
                side = "back" if back else "front"
                found.append(say(comp.keys.get(side, comp.loc), (
                    f"{target}: a {side} of '{comp.id}' has more than {limit}% total ink "
                    f"(up to {total.max():.0f}%) over {share:.0%} of its area: lighten its "
                    "darkest colours")))
                break
    return found


def ink_totals(shots: Sequence[Shot]) -> list[Any]:
    """Each shot's total ink per pixel, percent (0 to 400): its four inks' separations summed."""
    totals = [np.zeros(s.pixels[::-1]) for s in shots]
    for channel in range(4):
        for total, image in zip(totals, rasterize(shots, _separation(channel)), strict=True):
            total += 100 - np.asarray(image.convert("L"), dtype=np.float64) * (100 / 255)
    return totals


def _separation(channel: int) -> type[Canvas]:
    """A canvas that paints one ink: each colour as grey, black where the ink is 100%."""

    def grey(colour: Any) -> Color:
        inks = to_cmyk(colour)
        share = (inks.cyan, inks.magenta, inks.yellow, inks.black)[channel] * inks.density
        return Color(1 - share, 1 - share, 1 - share, alpha=inks.alpha)

    class Separation(Canvas):  # type: ignore[misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._enforceColorSpace = grey

        def setFillGray(self, gray: float, alpha: Any = None) -> None:  # noqa: N802
            self.setFillColor(Color(gray, gray, gray), alpha)

        def setStrokeGray(self, gray: float, alpha: Any = None) -> None:  # noqa: N802
            self.setStrokeColor(Color(gray, gray, gray), alpha)

        def drawImage(self, image: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N802
            return super().drawImage(_separated(image, channel), *args, **kwargs)

    return Separation


def _separated(image: Any, channel: int) -> Any:
    """A raster image as one ink's grey (its alpha kept), converted as ``cmyk`` converts."""
    picture = getattr(image, "_image", None) if isinstance(image, ImageReader) else None
    if picture is None and isinstance(image, (str, Image.Image)):
        picture = Image.open(image) if isinstance(image, str) else image
    if not isinstance(picture, Image.Image):
        return image
    rgba = np.asarray(picture.convert("RGBA"), dtype=np.float64) / 255
    rgb = rgba[..., :3]
    k = 1 - rgb.max(axis=2)
    rest = np.where(k < 1, 1 - k, 1.0)
    share = k if channel == 3 else (1 - rgb[..., channel] - k) / rest
    grey = np.round((1 - share) * 255).astype(np.uint8)
    out = Image.fromarray(np.stack([grey, grey, grey, (rgba[..., 3] * 255).astype(np.uint8)],
                                   axis=2), "RGBA")
    return ImageReader(out)


def over_limit(image: Image.Image, limit: int) -> float:
    """The share of an RGB image's pixels whose C + M + Y + K, as ``cmyk`` converts them,
    passes ``limit`` percent (at most 300%: RGB never asks for all four inks)."""
    rgb = np.asarray(image.convert("RGB"), dtype=np.float64) / 255
    k = 1 - rgb.max(axis=2)
    rest = np.where(k < 1, 1 - k, 1.0)
    total = ((1 - rgb - k[..., None]) / rest[..., None]).sum(axis=2) + k
    return float((total * 100 > limit + 0.5).mean()) if total.size else 0.0


__all__ = ["MM_PER_IN", "elements", "ink", "ink_totals"]

"""Preflight for a print house, in the check phase: what the house would print badly, at the
layout element's line. Text, symbols, tables and images of a layout must keep inside the
house's safe area (and so off the cut); a raster image must have 300 dpi at its printed size;
a face's total ink (as rulepress converts it to CMYK) must stay within the house's limit.

Faces an engine draws in code have no element lines: only their ink is checked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PIL import Image

from rulepress.diagnostics import Diagnostic, RulepressError, SourceLoc, error, warning
from rulepress.document.model import Component
from rulepress.export.products import DPI, MM_PER_IN, Fit
from rulepress.pnp.api import Face
from rulepress.pnp.faces import Art, Side, is_layout
from rulepress.pnp.faces.elements import Element
from rulepress.pnp.faces.images import ImageProblem, open_image
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


def ink(images: Iterable[tuple[Image.Image, Component, bool]], limit: int, target: str,
        strict: bool) -> list[Diagnostic]:
    """Faces whose total ink, as rulepress converts them to CMYK, passes ``limit`` percent
    over more than 1% of the face."""
    say: Say = error if strict else warning
    found = []
    for image, comp, back in images:
        share = over_limit(image, limit)
        if share > INK_AREA:
            side = "back" if back else "front"
            found.append(say(comp.keys.get(side, comp.loc), (
                f"{target}: a {side} of '{comp.id}' has more than {limit}% total ink over "
                f"{share:.0%} of its area: lighten its darkest colours")))
    return found


def over_limit(image: Image.Image, limit: int) -> float:
    """The share of pixels whose C + M + Y + K passes ``limit`` percent."""
    import numpy as np

    rgb = np.asarray(image.convert("RGB"), dtype=np.float64) / 255
    k = 1 - rgb.max(axis=2)
    rest = np.where(k < 1, 1 - k, 1.0)
    total = ((1 - rgb - k[..., None]) / rest[..., None]).sum(axis=2) + k
    return float((total * 100 > limit + 0.5).mean()) if total.size else 0.0


def cmyk(r: float, g: float, b: float) -> tuple[float, float, float, float]:
    """The conversion rulepress applies (black generation: grey goes to K alone)."""
    k = 1 - max(r, g, b)
    if k >= 1:
        return 0.0, 0.0, 0.0, 1.0
    return (1 - r - k) / (1 - k), (1 - g - k) / (1 - k), (1 - b - k) / (1 - k), k


__all__ = ["MM_PER_IN", "elements", "ink", "cmyk"]

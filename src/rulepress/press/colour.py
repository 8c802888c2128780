"""Colours as a press prints them: the one RGB to CMYK conversion rulepress applies (grey to
black alone), a translucent colour as its tint over the paper, and pictures in CMYK. Books
(``build --press``), kits (``pnp --press``) and the print-house exports all convert through
here, so one colour prints alike in each."""

from __future__ import annotations

from typing import Any

import numpy as np
from PIL import Image
from reportlab.lib.colors import CMYKColor, Color, toColor


def to_cmyk(colour: Any) -> CMYKColor:
    """Any colour a drawer sets, as CMYK: a CMYK colour stays, RGB and names are converted."""
    if isinstance(colour, CMYKColor):
        return colour
    if isinstance(colour, (tuple, list)) and len(colour) == 4:
        return CMYKColor(*colour)
    found = toColor(tuple(colour) if isinstance(colour, list) else colour)
    if isinstance(found, CMYKColor):
        return found
    if not isinstance(found, Color):
        raise ValueError(f"not a colour: {colour!r}")
    c, m, y, k = cmyk(found.red, found.green, found.blue)
    return CMYKColor(c, m, y, k, alpha=found.alpha)


def cmyk(r: float, g: float, b: float) -> tuple[float, float, float, float]:
    """The conversion rulepress applies (black generation: grey goes to K alone)."""
    k = 1 - max(r, g, b)
    if k >= 1:
        return 0.0, 0.0, 0.0, 1.0
    return (1 - r - k) / (1 - k), (1 - g - k) / (1 - k), (1 - b - k) / (1 - k), k


def tint(colour: Any, alpha: float) -> CMYKColor:
    """The colour as opaque CMYK ink: translucent (``alpha`` < 1), as its tint over paper."""
    inks = to_cmyk(colour)
    a = max(0.0, min(1.0, alpha))
    return CMYKColor(inks.cyan * a, inks.magenta * a, inks.yellow * a, inks.black * a,
                     density=inks.density)


def opaque(colour: Any) -> CMYKColor:
    """The colour as opaque CMYK ink, its own alpha (if any) as a tint."""
    alpha = getattr(to_cmyk(colour), "alpha", None)
    return tint(colour, 1.0 if alpha is None else float(alpha))


def cmyk_image(picture: Image.Image) -> tuple[Image.Image, list[int] | None]:
    """A picture in CMYK as ``cmyk`` converts colours, and its colour-key mask (None when every
    pixel prints): the pixels under half opaque take an ink value no printed pixel has."""
    rgba = np.asarray(picture.convert("RGBA"), dtype=np.float64) / 255
    rgb = rgba[..., :3]
    k = 1 - rgb.max(axis=2)
    rest = np.where(k < 1, 1 - k, 1.0)
    inks = np.concatenate([(1 - rgb - k[..., None]) / rest[..., None], k[..., None]], axis=2)
    out = np.round(inks * 255).astype(np.uint8)
    hidden = rgba[..., 3] < 0.5
    if not hidden.any():
        return Image.fromarray(out, "CMYK"), None
    for channel in range(4):
        free = sorted(set(range(256)) - set(np.unique(out[~hidden][:, channel]).tolist()))
        if free:
            out[hidden, channel] = free[0]
            ranges = [0, 255] * 4
            ranges[2 * channel:2 * channel + 2] = [free[0], free[0]]
            return Image.fromarray(out, "CMYK"), ranges
    raise ValueError("an image with transparency uses every value of every ink, so no "
                     "colour can mark its clear pixels")

"""What the compiler adds to every inline figure, whichever engine drew it: an accessible name,
and the narrowest width at which its smallest label is still legible."""

from __future__ import annotations

import math
import re
from html import escape
from xml.etree import ElementTree

MIN_LABEL_PX = 9.0  # the smallest label a figure may show on any screen
INITIAL_FONT_PX = 16.0  # CSS 'medium': a text no font-size reaches is taken to be this size

_ROOT_TAG = re.compile(r"""<svg\b(?:[^>"']|"[^"]*"|'[^']*')*>""", re.I)
# The compiler names the figure; an engine's own name (or hiding) would override or fight it.
_OWN_NAME = re.compile(
    r"""\s(?:role|aria-label|aria-labelledby|aria-hidden)\s*=\s*(?:"[^"]*"|'[^']*')""", re.I)
_LENGTH = re.compile(r"\s*([0-9]*\.?[0-9]+(?:e[-+]?[0-9]+)?)\s*(px|pt|em|%)?\s*$", re.I)
_STYLE_FONT_SIZE = re.compile(r"(?:^|;)\s*font-size\s*:\s*([^;]+)", re.I)
_TRANSFORM = re.compile(r"([a-zA-Z]+)\s*\(([^)]*)\)")
_NUMBER = re.compile(r"[-+]?[0-9]*\.?[0-9]+(?:e[-+]?[0-9]+)?", re.I)
TEXT_TAGS = frozenset({"text", "tspan", "textPath"})


def named(svg: str, name: str) -> str:
    """``svg`` as an image whose accessible name is ``name`` (role and aria-label on its root)."""
    m = _ROOT_TAG.search(svg)
    if m is None:
        return svg
    tag = _OWN_NAME.sub("", m.group(0))
    tag = f'<svg role="img" aria-label="{escape(name, quote=True)}"{tag[len("<svg"):]}'
    return svg[: m.start()] + tag + svg[m.end():]


def legible_width(svg: str) -> int | None:
    """The width in CSS px below which the figure's smallest label would fall under
    MIN_LABEL_PX; None when it has no label, no width, or is not well-formed XML.

    Font sizes come from font-size attributes and style declarations (px, pt, em, %), scaled
    by scale() and matrix() transforms; rules in a <style> element are not read.
    """
    try:
        root = ElementTree.fromstring(svg)
    except ElementTree.ParseError:
        return None
    width = _view_width(root)
    smallest = min((size for size in label_sizes(root) if size > 0), default=None)
    if width is None or smallest is None:
        return None
    return math.ceil(width * MIN_LABEL_PX / smallest - 1e-9)


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]


def view_box(root: ElementTree.Element) -> tuple[float, float] | None:
    """The figure's (width, height) in its own units: its viewBox's, else its px size."""
    box = _NUMBER.findall(root.get("viewBox", ""))
    if len(box) == 4:
        return float(box[2]), float(box[3])
    sizes = [_LENGTH.match(root.get(side, "")) for side in ("width", "height")]
    if all(m is not None and (m.group(2) or "px") == "px" for m in sizes):
        return float(sizes[0].group(1)), float(sizes[1].group(1))  # type: ignore[union-attr]
    return None


def _view_width(root: ElementTree.Element) -> float | None:
    box = _NUMBER.findall(root.get("viewBox", ""))
    if len(box) == 4:
        return float(box[2])
    m = _LENGTH.match(root.get("width", ""))
    return float(m.group(1)) if m and (m.group(2) or "px") == "px" else None


def _font_size(el: ElementTree.Element, inherited: float) -> float:
    declared = [el.get("font-size", "")]
    declared += _STYLE_FONT_SIZE.findall(el.get("style", ""))  # style wins: it comes last
    size = inherited
    for value in declared:
        m = _LENGTH.match(value)
        if m is None:
            continue
        number, unit = float(m.group(1)), (m.group(2) or "px").lower()
        size = {"px": number, "pt": number * 4 / 3, "em": number * inherited,
                "%": number * inherited / 100}[unit]
    return size


def _scale(el: ElementTree.Element) -> float:
    """How much ``el``'s transform scales areas (rotations and translations do not)."""
    area = 1.0
    for name, args in _TRANSFORM.findall(el.get("transform", "")):
        n = [float(a) for a in _NUMBER.findall(args)]
        if name == "scale" and n:
            area *= n[0] * (n[1] if len(n) > 1 else n[0])
        elif name == "matrix" and len(n) == 6:
            area *= n[0] * n[3] - n[1] * n[2]
    return area


def label_sizes(root: ElementTree.Element) -> list[float]:
    """Rendered size, in the figure's user units, of every text that shows letters (walked
    without recursion: an engine's figure may nest deeper than Python's stack)."""
    sizes = []
    stack = [(root, INITIAL_FONT_PX, 1.0)]
    while stack:
        el, inherited, area = stack.pop()
        size = _font_size(el, inherited)
        area *= _scale(el)
        if _local(el.tag) in TEXT_TAGS:
            own = (el.text or "") + "".join(child.tail or "" for child in el)
            if own.strip():
                sizes.append(size * math.sqrt(abs(area)))
        stack += [(child, size, area) for child in el]
    return sizes

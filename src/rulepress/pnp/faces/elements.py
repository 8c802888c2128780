"""The elements a layout may place, their properties, and the check that turns a layout file
into a compiled :class:`Layout` for one face size (lengths in points, templates compiled).

Positions are measured from the trim's top-left corner, x to the right and y downwards, in
lengths with units (``3mm``, ``0.5in``, ``9pt``) or percentages of the face (``50%``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rulepress.diagnostics import Diagnostic, RulepressError, SourceLoc, error, warning
from rulepress.pnp.faces.errors import LayoutError
from rulepress.pnp.faces.layoutfile import Prop, RawElement, RawLayout
from rulepress.pnp.faces.templates import Expression, Template
from rulepress.pnp.faces.text import ALIGN, BUILT_IN
from rulepress.suggest import suggest
from rulepress.units import POINTS_PER_MM, UnitError, parse_length, parse_offset

# property kind -> how its value is read. x/w: percentages of the width; y/h: of the height.
BOX = {"x": "x", "y": "y", "width": "w", "height": "h"}
STROKE = {"stroke": "colour", "stroke_width": "len", "dash": "len"}
COMMON = {"type": "type", "when": "expr", "repeat": "expr", "step": "pair"}
CHOICES: dict[str, tuple[str, ...]] = {
    "align": tuple(ALIGN),
    "valign": ("top", "middle", "bottom"),
    "rotate": ("0", "90", "180", "270"),
    "font": BUILT_IN,
    "side": ("top", "bottom", "left", "right"),
    "corners": ("both", "top-left"),
}
TEXT_STYLE = {"font": "font", "size": "pt", "min_size": "pt", "leading": "number",
              "colour": "colour"}
# element type -> (its properties, the required ones)
TYPES: dict[str, tuple[dict[str, str], tuple[str, ...]]] = {
    "rect": ({**BOX, "fill": "colour", **STROKE, "radius": "len", "bleed": "bool"},
             tuple(BOX)),
    "circle": ({"cx": "x", "cy": "y", "r": "w", "fill": "colour", **STROKE, "bleed": "bool"},
               ("cx", "cy", "r")),
    "line": ({"x1": "x", "y1": "y", "x2": "x", "y2": "y", **STROKE}, ("x1", "y1", "x2", "y2")),
    "text": ({**BOX, "text": "text", **TEXT_STYLE, "align": "align", "valign": "valign",
              "rotate": "rotate"}, (*BOX, "text")),
    "image": ({**BOX, "src": "text"}, (*BOX, "src")),
    "symbol": ({"cx": "x", "cy": "y", "char": "text", "size": "pt", "colour": "colour",
                "font": "font", "rotate": "rotate"}, ("cx", "cy", "char")),
    "index": ({"value": "text", "symbol": "text", "x": "x", "y": "y", "size": "pt",
               "symbol_size": "pt", "font": "font", "symbol_font": "font", "colour": "colour",
               "corners": "corners"}, ("value",)),
    "band": ({"side": "side", "depth": "len", "fill": "colour"}, ("side", "depth", "fill")),
    "table": ({**BOX, "rows": "expr", "columns": "names", "titles": "names", "header": "bool",
               "font": "font", "header_font": "font", "cell_font": "text", "size": "pt",
               "colour": "colour", "header_colour": "colour", "fill": "colour",
               "header_fill": "colour", "cell_fill": "colour", **STROKE},
              (*BOX, "rows", "columns")),
}
MIN_SIZE = 6.0  # points: the smallest printed text; text shrinks to fit down to its min_size
_HEX = re.compile(r"^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})\Z")


@dataclass(frozen=True)
class Colour:
    """A fixed colour ("#rrggbb", or None for none) or a template giving a name or a code."""

    fixed: str | None
    template: Template | None = None


@dataclass(frozen=True)
class Element:
    name: str
    type: str
    loc: SourceLoc
    values: Mapping[str, Any]
    locs: Mapping[str, SourceLoc]

    def get(self, key: str) -> Any:
        return self.values.get(key, DEFAULTS.get(key))

    def at(self, key: str) -> SourceLoc:
        return self.locs.get(key, self.loc)


@dataclass(frozen=True)
class Layout:
    loc: SourceLoc
    background: Colour
    palette: Mapping[str, str]
    elements: tuple[Element, ...]
    notes: tuple[Diagnostic, ...] = ()  # warnings: what the cut or its margin would spoil
    fonts: Mapping[str, str] = field(default_factory=dict)  # a game font's name -> its key


DEFAULTS: dict[str, Any] = {
    "font": "regular", "size": 10.0, "leading": 1.2, "colour": Colour("#000000"),
    "align": "left", "valign": "top", "rotate": "0", "stroke_width": 0.5, "radius": 0.0,
    "dash": 0.0, "bleed": False, "corners": "both", "header": True, "symbol_font": "symbols",
    "header_font": "bold", "header_colour": Colour("#ffffff"), "header_fill": Colour("#333333"),
    "stroke": Colour(None), "fill": Colour(None), "cell_fill": Colour(None),
}


def colour_code(text: str, palette: Mapping[str, str]) -> str | None:
    """'#abc', '#aabbcc', a palette name, or 'none'/'' -> '#rrggbb' or None; ValueError if not."""
    value = text.strip()
    if value in ("", "none"):
        return None
    if value in palette:
        return palette[value]
    if _HEX.match(value):
        digits = value[1:]
        return "#" + ("".join(d * 2 for d in digits) if len(digits) == 3 else digits).lower()
    known = ", ".join(palette) or "none declared"
    raise ValueError(f"'{value}' is not a colour: write #rrggbb, none, or a name of the "
                     f"layout's colours ({known}){suggest(value, list(palette))}")


class _Compiler:
    def __init__(self, width_mm: float, height_mm: float, palette: Mapping[str, str],
                 fonts: Mapping[str, str]) -> None:
        self.w, self.h, self.palette, self.fonts = width_mm, height_mm, palette, fonts
        self.problems: list[Diagnostic] = []

    def value(self, kind: str, prop: Prop) -> Any:
        v = prop.value
        if kind in ("x", "y", "w", "h", "len", "pt", "pair"):
            return self.length(kind, v)
        if kind == "colour":
            return self.colour(v, prop.loc)
        if kind == "text":
            if isinstance(v, bool) or not isinstance(v, str | int | float):
                raise ValueError("must be text")
            return Template(str(v), prop.loc)
        if kind == "expr":
            return Expression(str(v), prop.loc)
        if kind == "bool":
            if not isinstance(v, bool):
                raise ValueError(f"must be true or false, not {v!r}")
            return v
        if kind == "number":
            if isinstance(v, bool) or not isinstance(v, int | float) or not 0.5 <= v <= 4:
                raise ValueError(f"must be a number from 0.5 to 4 (times the size), not {v!r}")
            return float(v)
        if kind == "names":
            if not isinstance(v, list) or not all(isinstance(n, str | int) for n in v) or not v:
                raise ValueError("must be a list of names, e.g. [place, points]")
            return tuple(str(n) for n in v)
        if kind == "font" and str(v) in self.fonts:
            return self.fonts[str(v)]
        options = CHOICES[kind] + (tuple(self.fonts) if kind == "font" else ())
        if str(v) not in options:
            raise ValueError(f"'{v}' is not one of {', '.join(options)}"
                             f"{suggest(str(v), list(options))}")
        return str(v)

    def length(self, kind: str, v: Any) -> Any:
        if kind == "pair":
            if not isinstance(v, list) or len(v) != 2:
                raise ValueError("must be [x, y], e.g. [0mm, 8mm]")
            return (self.length("x", v[0]), -self.length("y", v[1]))
        if kind == "pt":
            size = parse_length(str(v)) * POINTS_PER_MM
            if size < MIN_SIZE - 1e-6:  # every pt property is a text size
                raise ValueError(f"{size:g} pt is below the {MIN_SIZE:g} pt floor of printed "
                                 "text: a player cannot read it at the table")
            return size
        whole = {"x": self.w, "w": self.w, "y": self.h, "h": self.h}.get(kind)
        return parse_offset(str(v), whole) * POINTS_PER_MM

    def colour(self, v: Any, loc: SourceLoc) -> Colour:
        if v is None:
            return Colour(None)
        t = Template(str(v), loc)
        return Colour(colour_code(str(v), self.palette)) if t.constant else Colour(None, t)

    def element(self, raw: RawElement) -> Element | None:
        type_prop = raw.props.get("type")
        if type_prop is None:
            self.problems.append(error(raw.loc, f"element '{raw.name}' has no type: give one of "
                                                f"{', '.join(TYPES)}"))
            return None
        kind = str(type_prop.value)
        if kind not in TYPES:
            self.problems.append(error(type_prop.loc, f"unknown element type '{kind}'"
                                                      f"{suggest(kind, list(TYPES))}; the "
                                                      f"types are {', '.join(TYPES)}"))
            return None
        spec, required = TYPES[kind]
        allowed = {**spec, **COMMON}
        values: dict[str, Any] = {}
        ok = True
        for key, prop in raw.props.items():
            if key == "type":
                continue
            if key not in allowed:
                self.problems.append(error(prop.loc, f"{kind} '{raw.name}': unknown property "
                                                     f"'{key}'{suggest(key, list(allowed))}"
                                                     f"; a {kind} has {', '.join(spec)}"))
                ok = False
                continue
            try:
                values[key] = self.value(allowed[key], prop)
            except (UnitError, ValueError) as exc:
                self.problems.append(error(prop.loc, f"{kind} '{raw.name}': {key}: {exc}"))
                ok = False
            except RulepressError as exc:
                self.problems += exc.diagnostics
                ok = False
        missing = [k for k in required if k not in raw.props]
        if missing:
            self.problems.append(error(raw.loc, f"{kind} '{raw.name}' needs "
                                                f"{', '.join(missing)}"))
            return None
        if not ok:
            return None
        return Element(raw.name, kind, raw.loc, values,
                       {k: p.loc for k, p in raw.props.items()})


def compile_layout(raw: RawLayout, width_mm: float, height_mm: float,
                   fonts: Mapping[str, str] | None = None) -> Layout:
    """The checked layout at one face size; RulepressError with every problem otherwise.
    ``fonts``: the game's own fonts a layout may name, each to its key among text.FONTS."""
    fonts = fonts or {}
    problems: list[Diagnostic] = []
    palette: dict[str, str] = {}
    for name, prop in raw.colours.items():
        try:
            code = colour_code(str(prop.value), {})
        except ValueError:  # a name is declared with a code: naming another is no help here
            problems.append(error(prop.loc, f"colours: {name}: '{str(prop.value).strip()}' is "
                                            "not a colour code: write #rrggbb or #rgb"))
            continue
        if code is None:
            problems.append(error(prop.loc, f"colours: {name} must be a colour, not none"))
        else:
            palette[name] = code
    c = _Compiler(width_mm, height_mm, palette, fonts)
    background = Colour(None)
    if raw.background is not None:
        try:
            background = c.colour(raw.background.value, raw.background.loc)
        except ValueError as exc:
            problems.append(error(raw.background.loc, f"background: {exc}"))
        except LayoutError as exc:
            problems += exc.diagnostics
    elements = [e for e in (c.element(r) for r in raw.elements.values()) if e is not None]
    problems += c.problems
    if not raw.elements and raw.background is None:
        problems.append(error(raw.loc, "the layout draws nothing: add a background or elements"))
    if problems:
        raise RulepressError(problems)
    notes = [n for e in elements if (n := _placement(e, width_mm, height_mm))]
    return Layout(raw.loc, background, palette, tuple(elements), tuple(notes), fonts)


SAFE_MM = 3.0  # the safe area's inset from the trim, as the proof page draws it


def _placement(e: Element, width_mm: float, height_mm: float) -> Diagnostic | None:
    """A warning for an element the cut would clip, or text in the safe area's margin; only
    for a box given in fixed lengths (a repeat's copies are not followed)."""
    if e.type not in ("text", "image", "rect", "table") or e.get("bleed"):
        return None
    box = [e.values.get(k) for k in ("x", "y", "width", "height")]
    if not all(isinstance(v, float | int) for v in box):
        return None
    x, y, w, h = (float(v) / POINTS_PER_MM for v in box if v is not None)
    size = f"{width_mm:g} x {height_mm:g} mm"
    what = f"{e.type} '{e.name}'"
    left, top, right, bottom = x, y, width_mm - x - w, height_mm - y - h
    if min(left, top, right, bottom) < -0.01:
        hint = ("; give it bleed: true if it should run into the bleed" if e.type == "rect"
                else "")
        past = _sides(left, top, right, bottom, 0)
        return warning(e.loc, f"{what} runs off the {size} face ({past}): the cut clips it"
                              f"{hint}")
    if e.type in ("text", "table") and min(left, top, right, bottom) < SAFE_MM - 0.01:
        near = _sides(left, top, right, bottom, SAFE_MM)
        return warning(e.loc, f"{what} reaches into the {SAFE_MM:g} mm margin inside the cut "
                              f"({near}): keep text in "
                              "the safe area, where a cut a little off does not touch it")
    return None


def _sides(left: float, top: float, right: float, bottom: float, inset: float) -> str:
    edges = {"left": left, "top": top, "right": right, "bottom": bottom}
    return ", ".join(f"{max(v, 0):.3g} mm from the {name} edge" if inset else
                     f"{-v:.3g} mm past the {name} edge"
                     for name, v in edges.items() if v < inset - 0.01)

"""Drawing one face from a compiled layout and one row's context.

The canvas origin is the trim's bottom-left corner (as for every drawer); layouts measure y
downwards from the top, so every y is turned here, once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from rulepress.diagnostics import RulepressError
from rulepress.games.fault import library_raised
from rulepress.pnp.api import Face
from rulepress.pnp.draw import saved
from rulepress.pnp.faces.elements import MIN_SIZE, Colour, Element, Layout, colour_code
from rulepress.pnp.faces.errors import LayoutError
from rulepress.pnp.faces.images import ImageProblem, open_icon, open_image
from rulepress.pnp.faces.text import (
    BUILT_IN,
    CLOSE,
    FACE_OF,
    FONTS,
    ICON,
    ICONS,
    OPEN,
    GlyphMissing,
    blocks,
    covered,
    draw_fitted,
    fit,
    fonts_ready,
    glyph_missing,
    plain,
    plain_line,
)
from rulepress.pnp.fonts import SYMBOLS
from rulepress.pnp.ink import SmallText
from rulepress.units import POINTS_PER_MM


def _top(valign: str, y0: float, h: float, block: float) -> float:
    """The top of a block of text ``block`` high, set in a box from y0 up h."""
    return {"top": y0 + h, "middle": y0 + (h + block) / 2, "bottom": y0 + block}[valign]


def _mm(points: float) -> str:
    return f"{points / POINTS_PER_MM:.1f}"


class Painter:
    def __init__(self, c: Canvas, layout: Layout, face: Face, folder: Path,
                 ctx: Mapping[str, Any], where: str) -> None:
        self.c, self.layout, self.face, self.folder = c, layout, face, folder
        self.ctx, self.where = ctx, where
        self.w, self.h, self.b = face.width, face.height, face.bleed

    # -- values ---------------------------------------------------------------------------------
    def colour(self, value: Colour, ctx: Mapping[str, Any], loc_key: str) -> str | None:
        if value.template is None:
            return value.fixed
        text = value.template.render(ctx, self.where)
        try:
            return colour_code(text, self.layout.palette)
        except ValueError as exc:
            raise LayoutError(value.template.loc, f"{loc_key}: {exc}{self.where}") from None

    def text(self, el: Element, key: str, ctx: Mapping[str, Any]) -> str:
        return str(el.get(key).render(ctx, self.where))

    def paint_colour(self, code: str | None, stroke: bool = False) -> bool:
        if code is None:
            return False
        if stroke:
            self.c.setStrokeColor(HexColor(code))
        else:
            self.c.setFillColor(HexColor(code))
        return True

    # -- the face -------------------------------------------------------------------------------
    def paint(self) -> None:
        c, b = self.c, self.b
        if self.paint_colour(self.colour(self.layout.background, self.ctx, "background")):
            c.rect(-b, -b, self.w + 2 * b, self.h + 2 * b, stroke=0, fill=1)
        for el in self.layout.elements:
            when = el.values.get("when")
            if when is not None and not when.value(self.ctx, self.where):
                continue
            repeat = el.values.get("repeat")
            if repeat is None:
                self.element(el, self.ctx)
                continue
            dx, dy = el.values.get("step", (0.0, 0.0))
            for k, item in enumerate(repeat.items(self.ctx, self.where)):
                with saved(c):
                    c.translate(dx * k, dy * k)
                    self.element(el, {**self.ctx, "item": item, "i": k})

    def element(self, el: Element, ctx: Mapping[str, Any]) -> None:
        draw: Callable[[Element, Mapping[str, Any]], None] = getattr(self, f"_{el.type}")
        try:
            with saved(self.c):
                draw(el, ctx)
        except SmallText as exc:
            raise LayoutError(el.loc, f"element '{el.name}': {exc}{self.where}") from None
        except RulepressError:
            raise
        except Exception as exc:
            # ReportLab, svglib or Pillow failing on what the layout gave them: the layout's
            # element (its image) at its line, never the engine (which ran no code here).
            library = library_raised(exc)
            if library is None:
                raise
            what = (f"image '{self.text(el, 'src', ctx)}'" if el.type == "image"
                    else f"element '{el.name}'")
            raise LayoutError(el.at("src") if el.type == "image" else el.loc,
                              f"{what} cannot be drawn: {library} failed on it "
                              f"({type(exc).__name__}){self.where}") from None

    def stroke_style(self, el: Element, ctx: Mapping[str, Any], default: str | None = None
                     ) -> bool:
        stroke = el.values.get("stroke")
        code = self.colour(stroke, ctx, "stroke") if stroke is not None else default
        if not self.paint_colour(code, stroke=True):
            return False
        self.c.setLineWidth(el.get("stroke_width"))
        if el.get("dash"):
            self.c.setDash(el.get("dash"), el.get("dash"))
        return True

    def box(self, el: Element) -> tuple[float, float, float, float]:
        """x0, y0 (bottom-left, PDF) and the width and height of the element's box."""
        x, y = el.get("x"), el.get("y")
        w, h = el.get("width"), el.get("height")
        return x, self.h - y - h, w, h

    # -- shapes ---------------------------------------------------------------------------------
    def _rect(self, el: Element, ctx: Mapping[str, Any]) -> None:
        x0, y0, w, h = self.box(el)
        x1, y1 = x0 + w, y0 + h
        if el.get("bleed"):  # edges on the trim run on through the bleed
            eps = 0.01
            x0 = x0 - self.b if x0 <= eps else x0
            y0 = y0 - self.b if y0 <= eps else y0
            x1 = x1 + self.b if x1 >= self.w - eps else x1
            y1 = y1 + self.b if y1 >= self.h - eps else y1
        fill = self.paint_colour(self.colour(el.get("fill"), ctx, "fill"))
        stroke = self.stroke_style(el, ctx)
        if not (fill or stroke):
            return
        r = el.get("radius")
        if r:
            self.c.roundRect(x0, y0, x1 - x0, y1 - y0, r, stroke=int(stroke), fill=int(fill))
        else:
            self.c.rect(x0, y0, x1 - x0, y1 - y0, stroke=int(stroke), fill=int(fill))

    def _circle(self, el: Element, ctx: Mapping[str, Any]) -> None:
        r = el.get("r") + (self.b if el.get("bleed") else 0)
        fill = self.paint_colour(self.colour(el.get("fill"), ctx, "fill"))
        stroke = self.stroke_style(el, ctx)
        if fill or stroke:
            self.c.circle(el.get("cx"), self.h - el.get("cy"), r, stroke=int(stroke),
                          fill=int(fill))

    def _line(self, el: Element, ctx: Mapping[str, Any]) -> None:
        if self.stroke_style(el, ctx, default="#000000"):
            self.c.line(el.get("x1"), self.h - el.get("y1"), el.get("x2"), self.h - el.get("y2"))

    def _band(self, el: Element, ctx: Mapping[str, Any]) -> None:
        b, w, h, d = self.b, self.w, self.h, el.get("depth")
        rects = {
            "top": (-b, h - d, w + 2 * b, d + b),
            "bottom": (-b, -b, w + 2 * b, d + b),
            "left": (-b, -b, d + b, h + 2 * b),
            "right": (w - d, -b, d + b, h + 2 * b),
        }
        if self.paint_colour(self.colour(el.get("fill"), ctx, "fill")):
            self.c.rect(*rects[el.get("side")], stroke=0, fill=1)

    def _image(self, el: Element, ctx: Mapping[str, Any]) -> None:
        name = self.text(el, "src", ctx)
        try:
            picture = open_image(self.folder, name)
        except ImageProblem as exc:
            raise LayoutError(el.at("src"), f"{exc}{self.where}") from None
        picture.place(self.c, *self.box(el))

    # -- text -----------------------------------------------------------------------------------
    def _text(self, el: Element, ctx: Mapping[str, Any]) -> None:
        x0, y0, w, h = self.box(el)
        rotate = int(el.get("rotate"))
        if rotate:
            self.c.translate(x0 + w / 2, y0 + h / 2)
            self.c.rotate(rotate)
            if rotate in (90, 270):
                w, h = h, w
            x0, y0 = -w / 2, -h / 2
        self.set_text(el, self.text(el, "text", ctx), ctx, x0, y0, w, h)

    def set_text(self, el: Element, text: str, ctx: Mapping[str, Any], x0: float, y0: float,
                 w: float, h: float) -> None:
        """The text inside the box, wrapped and shrunk to fit; an error when it cannot."""
        font, size = el.get("font"), el.get("size")
        leading = el.get("leading")
        colour = self.colour(el.get("colour"), ctx, "colour") or "#000000"
        align, valign = el.get("align"), el.get("valign")
        if not text.strip():
            return
        fonts_ready()
        text = self.icons(el, text)
        if plain_line(text, font):
            face = FACE_OF[font]
            if self.c.stringWidth(text, face, size) <= w and size * leading <= h + 0.01:
                self.c.setFillColor(HexColor(colour))
                self.c.setFont(face, size)
                base = _top(valign, y0, h, size * leading) - size
                if align == "center":
                    self.c.drawCentredString(x0 + w / 2, base, text)
                elif align == "right":
                    self.c.drawRightString(x0 + w, base, text)
                else:
                    self.c.drawString(x0, base, text)
                return
        smallest = min(el.values.get("min_size", MIN_SIZE), size)
        try:
            paras = blocks(text, FONTS[font][0])
        except GlyphMissing as exc:
            raise LayoutError(el.at("text"), f"{exc}{self.where}") from None
        fitted = fit(paras, font, size, smallest, leading, align, colour, w, h)
        if fitted is None:
            raise LayoutError(el.at("text"), f"text '{el.name}' does not fit its box "
                                             f"({_mm(w)} x {_mm(h)} mm) even at {smallest:g} pt"
                                             f"{self.where}: shorten it, enlarge the box or "
                                             "lower min_size")
        draw_fitted(self.c, fitted, x0, _top(valign, y0, h, fitted.height))

    def icons(self, el: Element, text: str) -> str:
        """``:name:`` replaced by the mark of the game's icon of that name."""
        if ":" not in text:
            return text

        def mark(m: re.Match[str]) -> str:
            picture = open_icon(self.folder, m[1])
            ICONS[picture.digest] = picture
            return f"{OPEN}{picture.digest}{CLOSE}"

        try:
            return ICON.sub(mark, text)
        except ImageProblem as exc:
            raise LayoutError(el.at("text"), f"{exc}{self.where}") from None

    def glyphs(self, el: Element, key: str, font_key: str, text: str) -> str:
        """The font that has every character of ``text``: the chosen one, else the symbols."""
        fonts_ready()
        own = FACE_OF[el.get(font_key)]
        for face in (own, SYMBOLS):
            if all(ord(ch) in covered(face) for ch in text):
                return face
        neither = [ch for ch in text if ord(ch) not in covered(own) | covered(SYMBOLS)]
        if not neither:  # each font has some of it, neither has all: one string, one font
            raise LayoutError(el.at(key), f"{text!r} mixes characters of two fonts: put the "
                                          f"symbols in a symbol element of their own{self.where}")
        missing = glyph_missing(neither[0], FONTS[el.get(font_key)][0])
        raise LayoutError(el.at(key), f"{text!r}: {missing}{self.where}")

    def centred(self, el: Element, key: str, font_key: str, text: str, size: float,
                x: float, y: float, colour: str) -> None:
        face = self.glyphs(el, key, font_key, text)
        self.c.setFillColor(HexColor(colour))
        self.c.setFont(face, size)
        self.c.drawCentredString(x, y - size * 0.35, text)

    def _symbol(self, el: Element, ctx: Mapping[str, Any]) -> None:
        text = self.text(el, "char", ctx)
        if not text:
            return
        colour = self.colour(el.get("colour"), ctx, "colour") or "#000000"
        x, y = el.get("cx"), self.h - el.get("cy")
        size = el.values.get("size", 24.0)
        rotate = int(el.get("rotate"))
        if rotate:
            self.c.translate(x, y)
            self.c.rotate(rotate)
            x = y = 0.0
        self.centred(el, "char", "font" if "font" in el.values else "symbol_font", text, size,
                     x, y, colour)

    def _index(self, el: Element, ctx: Mapping[str, Any]) -> None:
        value = self.text(el, "value", ctx)
        symbol = self.text(el, "symbol", ctx) if "symbol" in el.values else ""
        colour = self.colour(el.get("colour"), ctx, "colour") or "#000000"
        size = el.values.get("size", 14.0)
        small = el.values.get("symbol_size", size * 0.8)
        inset = self.face.safe
        x, y = el.values.get("x", inset), el.values.get("y", inset)
        face = self.glyphs(el, "value", "font", value)
        half = max(self.c.stringWidth(value, face, size), small) / 2
        corners = [(0, 0)] if el.get("corners") == "top-left" else [(0, 0), (180, 0)]
        for turn, _ in corners:
            with saved(self.c):
                if turn:
                    self.c.translate(self.w, self.h)
                    self.c.rotate(180)
                cx, top = x + half, self.h - y
                self.centred(el, "value", "font", value, size, cx, top - size * 0.4, colour)
                if symbol:
                    self.centred(el, "symbol", "symbol_font", symbol, small, cx,
                                 top - size * 0.85 - small * 0.55, colour)

    # -- tables ---------------------------------------------------------------------------------
    def _table(self, el: Element, ctx: Mapping[str, Any]) -> None:
        rows = el.get("rows").items(ctx, self.where)
        columns = el.get("columns")
        titles = el.values.get("titles", columns)
        if len(titles) != len(columns):
            raise LayoutError(el.at("titles"), f"table '{el.name}' has {len(columns)} columns "
                                               f"but {len(titles)} titles")
        header = el.get("header")
        x0, y0, w, h = self.box(el)
        n = len(rows) + (1 if header else 0)
        if not n:
            return
        cw, ch = w / len(columns), h / n
        stroke = el.values.get("stroke", Colour("#333333"))
        grid = self.colour(stroke, ctx, "stroke")
        size = el.values.get("size", ch * 0.55)
        top = y0 + h
        if header:
            fill = self.colour(el.get("header_fill"), ctx, "header_fill")
            ink = self.colour(el.get("header_colour"), ctx, "header_colour") or "#000000"
            for k, title in enumerate(titles):
                self.cell(x0 + k * cw, top - ch, cw, ch, title, el.get("header_font"), size,
                          fill, ink, grid, el)
            top -= ch
        for r, entry in enumerate(rows):
            if not isinstance(entry, Mapping):
                raise LayoutError(el.at("rows"), f"table '{el.name}': row {r + 1} is "
                                                 f"{entry!r}, not a mapping of columns")
            for k, column in enumerate(columns):
                if column not in entry:
                    raise LayoutError(el.at("columns"), f"table '{el.name}': no column "
                                                        f"'{column}' in its rows (they have "
                                                        f"{', '.join(map(str, entry))})")
                here = {**ctx, "cell": entry[column], "column": column, "entry": entry}
                fill = self.colour(el.get("cell_fill"), here, "cell_fill")
                if fill is None:
                    fill = self.colour(el.get("fill"), here, "fill")
                font = el.get("font")
                if "cell_font" in el.values:
                    font = self.text(el, "cell_font", here) or font
                    font = self.layout.fonts.get(font, font)
                    if font not in FONTS:
                        names = ", ".join([*BUILT_IN, *self.layout.fonts])
                        raise LayoutError(el.at("cell_font"), f"cell_font gives '{font}', not "
                                                              f"one of {names}")
                ink = self.colour(el.get("colour"), here, "colour") or "#000000"
                self.cell(x0 + k * cw, top - (r + 1) * ch, cw, ch, plain(str(entry[column])), font,
                          size, fill, ink, grid, el)

    def cell(self, x: float, y: float, w: float, h: float, text: str, font: str, size: float,
             fill: str | None, ink: str, grid: str | None, el: Element) -> None:
        c = self.c
        filled = self.paint_colour(fill)
        stroked = self.paint_colour(grid, stroke=True)
        if stroked:
            c.setLineWidth(el.get("stroke_width"))
        if filled or stroked:
            c.rect(x, y, w, h, stroke=int(stroked), fill=int(filled))
        if text:
            face = self.glyphs(el, "columns", "font", text)
            fitted = min(size, size * (w * 0.9) / max(c.stringWidth(text, face, size), 0.01))
            c.setFillColor(HexColor(ink))
            c.setFont(FACE_OF[font] if face != FACE_OF["symbols"] else face, fitted)
            c.drawCentredString(x + w / 2, y + h / 2 - fitted * 0.35, text)


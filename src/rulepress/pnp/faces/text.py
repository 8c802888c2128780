"""Text on a face: a little Markdown (paragraphs, lists, **bold**, *italic*, tables) set in the
bundled fonts, wrapped inside a box and shrunk until it fits.

A glyph the text font lacks is set in the symbol font; one neither font has is an error.
An icon (``:shell:``, the game's images/shell.svg or .png) is set inline, as tall as the text:
ReportLab's own ``<img>`` reserves its room on the line (a blank spacer image, so the fit
measures it), and the icon itself is drawn into that room when the paragraph draws the spacer.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from markdown_it.token import Token
from reportlab.lib.colors import Color
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT, TA_RIGHT
from reportlab.lib.fonts import addMapping
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from rulepress.document.markdown import make_parser
from rulepress.document.model import GameFont
from rulepress.emoji import is_emoji
from rulepress.pnp.faces.images import Picture
from rulepress.pnp.fonts import SYMBOLS, register_fonts, register_game_font, register_symbols

# Layout font names -> (ReportLab family, markup around the text)
BUILT_IN = ("regular", "bold", "italic", "symbols")  # the fonts every layout may name
FONTS = {
    "regular": ("Carlito", ""),
    "bold": ("Carlito", "b"),
    "italic": ("Carlito", "i"),
    "symbols": (SYMBOLS, ""),
}
FACE_OF = {"regular": "Carlito", "bold": "Carlito-Bold", "italic": "Carlito-Italic",
           "symbols": SYMBOLS}
ALIGN = {"left": TA_LEFT, "center": TA_CENTER, "right": TA_RIGHT, "justify": TA_JUSTIFY}
_PLAIN_UNSAFE = set("*_`[<>&\\!#|-+\n")
GAP = 0.35  # space between paragraphs, in font sizes
REGULAR = {"Carlito": "Carlito", SYMBOLS: SYMBOLS}  # family -> its regular face
GAME_NAMES: dict[str, str] = {}  # a game font's ReportLab family -> the name its game gives it
# ``:name:`` (not after a letter, digit or backslash, so 10:30 and \\:x: stay text)
ICON = re.compile(r"(?<![\\\w]):([A-Za-z][A-Za-z0-9_-]*):")
OPEN, CLOSE = "\ue000", "\ue001"  # an icon in a block's markup, by digest (private-use marks)
_MARK = re.compile("\ue000([0-9a-f]+)\ue001")
SPACER = str(Path(__file__).with_name("spacer.png"))  # 1 x 1, transparent: never drawn
ICONS: dict[str, Picture] = {}  # digest -> the icon's picture, for the markup's marks
ICON_DROP = 0.15  # an icon's bottom sits this many font sizes below the baseline
VARIATIONS = ("\ufe0e", "\ufe0f")  # text/emoji presentation: the font draws what it has


class GlyphMissing(ValueError):
    pass


@cache
def fonts_ready() -> None:
    register_fonts()
    register_symbols()
    for bold in (0, 1):
        for italic in (0, 1):
            addMapping(SYMBOLS, bold, italic, SYMBOLS)


def game_font(font: GameFont) -> str:
    """A game's own font, registered: its key among FONTS (a layout's ``font: Grenze`` becomes
    this key when the layout compiles)."""
    family = register_game_font(font)
    FONTS[family] = (family, "")
    FACE_OF[family] = REGULAR[family] = family
    GAME_NAMES[family] = font.family
    return family


@cache
def covered(font: str) -> frozenset[int]:
    fonts_ready()
    face = pdfmetrics.getFont(font).face
    return frozenset(face.charToGlyph)


def glyph_missing(ch: str, family: str) -> str:
    """The message for a character no font of a face draws; an emoji gets the way out."""
    code = ord(ch)
    fonts = ("the bundled fonts (Carlito, DejaVu Sans)" if family in ("Carlito", SYMBOLS)
             else f"the fonts ({GAME_NAMES.get(family, family)}, DejaVu Sans)")
    if is_emoji(ch):
        return (f"the emoji {ch!r} (U+{code:04X}) is in none of {fonts}: a printed "
                "kit draws no colour emoji; draw it as an icon instead: save it as "
                "images/NAME.svg (or .png) and write :NAME: in the text")
    return f"the character {ch!r} (U+{code:04X}) is in none of {fonts}"


def _glyphs(text: str, family: str) -> str:
    """Escaped text; each character the family lacks is set in the symbol font."""
    own, symbols = covered(REGULAR[family]), covered(SYMBOLS)
    out = []
    for ch in text:
        code = ord(ch)
        if code in own or ch.isspace() or ch in (OPEN, CLOSE):
            out.append(escape(ch))
        elif code in symbols:
            out.append(f'<font name="{SYMBOLS}">{escape(ch)}</font>')
        elif ch in VARIATIONS:
            continue
        else:
            raise GlyphMissing(glyph_missing(ch, family))
    return "".join(out)


@dataclass(frozen=True)
class Block:
    """One paragraph in ReportLab's markup, with its bullet ("" for none)."""

    markup: str
    bullet: str = ""


@cache
def _parser() -> object:
    return make_parser()


def _inline(token: Token, family: str) -> str:
    out = []
    for child in token.children or []:
        t = child.type
        if t in ("text", "code_inline", "html_inline"):
            out.append(_glyphs(child.content, family))
        elif t == "softbreak":
            out.append(" ")
        elif t == "hardbreak":
            out.append("<br/>")
        elif t in ("strong_open", "strong_close", "em_open", "em_close"):
            tag = "b" if t.startswith("strong") else "i"
            out.append(f"<{'/' if t.endswith('close') else ''}{tag}>")
        elif t == "image":
            out.append(_glyphs(child.content, family))
    return "".join(out)


def blocks(text: str, family: str) -> tuple[Block, ...]:
    """Markdown -> paragraphs. Lists keep their bullets or numbers; a table row becomes one
    paragraph, its first cell in bold; headings are bold; code fences are left out."""
    tokens = _parser().parse(text)  # type: ignore[attr-defined]
    out: list[Block] = []
    bullets: list[list[int] | None] = []  # per open list: None bullet, or [next number]
    row: list[str] = []
    head = False
    for i, tok in enumerate(tokens):
        t = tok.type
        if t == "bullet_list_open":
            bullets.append(None)
        elif t == "ordered_list_open":
            bullets.append([int(tok.attrGet("start") or 1)])
        elif t in ("bullet_list_close", "ordered_list_close"):
            bullets.pop()
        elif t == "thead_open":
            head = True
        elif t == "thead_close":
            head = False
        elif t == "tr_open":
            row = []
        elif t == "tr_close" and not head and row:
            first, rest = row[0], [c for c in row[1:] if c]
            out.append(Block(f"<b>{first}</b>" + (": " + " \u00b7 ".join(rest) if rest else "")))
        elif t == "inline" and tokens[i - 1].type in ("th_open", "td_open"):
            row.append(_inline(tok, family))
        elif t == "inline" and tokens[i - 1].type == "heading_open":
            out.append(Block(f"<b>{_inline(tok, family)}</b>"))
        elif t == "inline" and tokens[i - 1].type == "paragraph_open":
            out.append(Block(_inline(tok, family), _bullet(bullets, tokens, i)))
    return tuple(out)


def _bullet(bullets: list[list[int] | None], tokens: Sequence[Token], i: int) -> str:
    """The bullet of the paragraph at ``i`` when it opens a list item, else ""."""
    if not bullets or i < 2 or tokens[i - 2].type != "list_item_open":
        return ""
    counter = bullets[-1]
    if counter is None:
        return "\u2022"
    counter[0] += 1
    return f"{counter[0] - 1}."


def plain(text: str) -> str:
    """Inline Markdown as plain text: a table cell shows ``**wins**`` as ``wins``."""
    if not any(ch in _PLAIN_UNSAFE for ch in text):
        return text
    tokens = _parser().parse(text)  # type: ignore[attr-defined]
    return " ".join(
        "".join(ch.content for ch in tok.children or [] if ch.type in ("text", "code_inline"))
        for tok in tokens if tok.type == "inline"
    )


def plain_line(text: str, font: str) -> bool:
    """Text that is one line of ordinary characters the font has: drawn without Paragraph."""
    if not text or any(ch in _PLAIN_UNSAFE for ch in text):
        return False
    own = covered(FACE_OF[font])
    return all(ord(ch) in own for ch in text)


@lru_cache(maxsize=256)
def _style(family: str, size: float, leading: float, align: str, colour: str) -> ParagraphStyle:
    return ParagraphStyle(
        "face", fontName=family, fontSize=size, leading=size * leading, alignment=ALIGN[align],
        textColor=Color(*(int(colour[k:k + 2], 16) / 255 for k in (1, 3, 5))),
        leftIndent=0, bulletFontName=family, bulletFontSize=size,
    )


@dataclass(frozen=True)
class Fitted:
    size: float
    paragraphs: tuple[tuple[Paragraph, float], ...]  # each with its height
    height: float  # of the whole block, gaps included
    icons: tuple[str, ...] = ()  # digests of the icons, in the order they are drawn


def _icon(digest: str, size: float) -> str:
    """The room of an icon on a line: ``size`` tall, as wide as its proportions make it."""
    pic = ICONS[digest]
    return (f'<img src={quoteattr(SPACER)} width="{size * pic.width / pic.height:.3f}" '
            f'height="{size:.3f}" valign="{-size * ICON_DROP:.3f}"/>')


def _set(paras: tuple[Block, ...], font: str, size: float, leading: float, align: str,
         colour: str, width: float) -> Fitted | None:
    """The blocks set at ``size`` in ``width``; None when a word is wider than the box."""
    family, wrap = FONTS[font]
    style = _style(family, size, leading, align, colour)
    indent = size * 0.9
    set_paras = []
    icons: list[str] = []
    total = 0.0
    for k, block in enumerate(paras):
        markup = f"<{wrap}>{block.markup}</{wrap}>" if wrap else block.markup
        if OPEN in markup:
            icons += _MARK.findall(markup)
            markup = _MARK.sub(lambda m: _icon(m[1], size), markup)
        style_k = style
        if block.bullet:
            style_k = ParagraphStyle("item", parent=style, leftIndent=indent, bulletIndent=0)
        p = Paragraph(markup, style_k, bulletText=block.bullet or None)
        _, h = p.wrap(width, 1e6)
        if p.minWidth() > width - (indent if block.bullet else 0) + 0.01:
            return None
        set_paras.append((p, h))
        total += h + (size * GAP if k else 0)
    return Fitted(size, tuple(set_paras), total, tuple(icons))


@lru_cache(maxsize=4096)
def fit(paras: tuple[Block, ...], font: str, size: float, smallest: float, leading: float,
        align: str, colour: str, width: float, height: float) -> Fitted | None:
    """The largest size from ``size`` down to ``smallest`` (0.1 pt steps) at which the text fits
    the box; None when it does not fit even at ``smallest``."""
    fonts_ready()

    def fits(s: float) -> Fitted | None:
        got = _set(paras, font, s, leading, align, colour, width)
        return got if got is not None and got.height <= height + 0.01 else None

    best = fits(size)
    if best is not None or smallest >= size:
        return best
    low = fits(smallest)
    if low is None:
        return None
    lo, hi = smallest, size  # fits at lo, not at hi
    while hi - lo > 0.1:
        mid = (lo + hi) / 2
        got = fits(mid)
        if got is None:
            hi = mid
        else:
            lo, low = mid, got
    return low


@contextmanager
def _icons_drawn(c: Canvas, icons: Sequence[str]) -> Iterator[None]:
    """While paragraphs draw: each spacer image they place is the next icon instead, drawn
    into the spacer's box (so justified lines, whose spaces stretch, put it right too)."""
    if not icons:
        yield
        return
    queue = list(icons)
    original = c.drawImage

    def draw_image(image: Any, x: float, y: float, width: float, height: float,
                   *args: Any, **kwargs: Any) -> Any:
        if getattr(image, "fileName", None) == SPACER and queue:
            ICONS[queue.pop(0)].place(c, x, y, width, height)
            return None
        return original(image, x, y, width, height, *args, **kwargs)

    c.drawImage = draw_image  # this canvas, this text only
    try:
        yield
    finally:
        delattr(c, "drawImage")


def draw_fitted(c: Canvas, fitted: Fitted, x: float, top: float) -> None:
    y = top
    with _icons_drawn(c, fitted.icons):
        for k, (p, h) in enumerate(fitted.paragraphs):
            if k:
                y -= fitted.size * GAP
            p.drawOn(c, x, y - h)
            y -= h

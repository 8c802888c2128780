"""The faces page of a game for the preview server: every distinct face of its kit, drawn by
the kit's own drawers (its layouts, or its engine's code) and rasterized as the exports are
(export/raster.py), at screen size, with its trim and safe-area lines as toggles of the page.

Written to ``<game>/faces/`` in the output folder: ``index.html`` and one JPEG per face, named
by a digest of the face's drawing (drawing_key: what its canvas holds, which follows from every
input the face has: the layout, its data row, its images, its fonts, the engine's code as it
drew). A rebuild draws every face again, which is quick, and rasterizes only those whose image
is not on disk already, which is what takes time; a changed face also gets a new address, so
no browser shows a stale copy.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import astuple, dataclass
from functools import partial
from hashlib import sha256
from html import escape
from pathlib import Path

from PIL import Image
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfdoc import PDFFormXObject, PDFImageXObject, PDFPage, PDFType1Font
from reportlab.pdfgen.canvas import Canvas

from rulepress import memo
from rulepress.books import book_name
from rulepress.cache import digest
from rulepress.diagnostics import Diagnostic
from rulepress.document.editions import EDITION_NAMES
from rulepress.document.model import Document
from rulepress.export.raster import POINTS_PER_IN, Shot, SideFaces, draw_page, pdf, render
from rulepress.games import contract
from rulepress.games.base import Drawer
from rulepress.host import EngineJob, caught, on_stop
from rulepress.media import DEFAULT_LANGUAGE
from rulepress.pipeline import Base, Files, Unit
from rulepress.pnp.api import Face
from rulepress.pnp.draw import REGULAR
from rulepress.pnp.faces import Tables
from rulepress.pnp.fonts import register_fonts
from rulepress.pnp.kit import DEFAULT_BLEED_MM
from rulepress.pnp.proof import Shown, faces
from rulepress.serve.site import FACES_FOLDER as FOLDER
from rulepress.serve.site import FACES_PAGE as PAGE
from rulepress.units import mm
from rulepress.validate.check import DocumentCheck
from rulepress.words import SOURCE_WORDS, Words

CSS_DPI = 96  # CSS pixels per inch: a face is shown at its printed size on a typical screen
DPI = 2 * CSS_DPI  # its image has twice that, sharp on a high-density screen too
MAX_PIXELS = 4096  # the longest side of a face's image: a board's has fewer dots an inch


@dataclass(frozen=True)
class FaceOptions:
    """What the faces are drawn with: all of it goes in their key. ``editions``: those of the
    game's pages the faces page links back to."""

    bleed_mm: float = DEFAULT_BLEED_MM
    dpi: int = DPI
    editions: tuple[str, ...] = ()


@dataclass(frozen=True)
class Drawn:
    """One face on the page: what it is, its image's file name and its geometry."""

    shown: Shown
    image: str
    pixels: tuple[int, int]
    dpi: float
    bleed: float  # points
    safe: float  # points


class Faces(Base):
    """The preview's faces page of each game with printed faces. ``out``: the output folder,
    whose images from the last build are reused for faces drawn the same."""

    name = "faces"
    home = "../../index.html"  # the games' page, from <game>/faces/

    def words(self, doc: Document) -> Words:
        """The words of the page (its faces are drawn from ``doc``, in its language)."""
        return SOURCE_WORDS

    def __init__(self, options: FaceOptions, out: Path, project: Path | None = None) -> None:
        self.options = options
        self.out = out
        self.project = project

    def units(self, game: DocumentCheck, key: str) -> list[Unit]:
        doc, engine = game.doc, game.engine
        if not any(c.size is not None and (c.front or c.back) for c in doc.meta.components):
            return []

        # Keyed by what the faces are drawn from (the folder and the front matter, not the
        # prose): a saved paragraph leaves the page as it was, and it is not drawn again.
        own = memo.engine_key(doc.folder, doc.path, doc.meta.engine, self.project, "faces")
        if own is not None:
            key = digest(own, *astuple(self.options))
        return [Unit(f"{doc.slug}/{FOLDER}/", key, partial(self._draw, game),
                     f"drawing the {doc.slug} faces", guarded=engine is not None,
                     stopped=on_stop(engine, "drawing its kit", doc.meta.engine_loc))]

    def _draw(self, game: DocumentCheck) -> Files | list[Diagnostic]:
        doc, engine = game.doc, game.engine
        return caught(EngineJob(
            lambda: self.files(doc, contract.drawers(engine), contract.tables(engine)), engine,
            "drawing its kit", doc.meta.engine_loc))

    def files(self, doc: Document, drawers: Mapping[str, Drawer], tables: Tables) -> Files:
        """The faces page and its images; RulepressError as the kit would raise."""
        o = self.options
        folder = f"{doc.slug}/{FOLDER}"
        made: dict[str, bytes | str] = {}
        drawn: list[Drawn] = []
        todo: dict[str, Shot] = {}
        bleed = mm(o.bleed_mm)
        register_fonts()
        for shown in faces(doc, drawers, tables):
            shot = _shot(shown, o.bleed_mm, o.dpi)
            c = Canvas(io.BytesIO(), invariant=1, pageCompression=0, initialFontName=REGULAR)
            draw_page(c, shot)
            c.showPage()
            key = drawing_key(c) or sha256(c.getpdfdata()).hexdigest()
            side = "back" if shown.back else "front"
            name = f"{shown.comp.id}-{side}-{key[:16]}.jpg"
            face = Face(shown.index, shown.comp.count, *shot.size.points, 0.0, back=shown.back)
            drawn.append(Drawn(shown, name, shot.pixels, shot.dpi, bleed, face.safe))
            path = f"{folder}/{name}"
            if path in made or path in todo:
                continue
            try:
                made[path] = (self.out / path).read_bytes()
            except OSError:  # not drawn before: rasterized below
                todo[path] = shot
        if todo:  # drawn again, all on one PDF: its fonts subset once, not once per face
            shots = list(todo.values())
            for path, image in zip(todo, render(pdf(shots), shots), strict=True):
                made[path] = jpeg(image)
        made[f"{folder}/{PAGE}"] = faces_page(doc, drawn, o, self.words(doc), self.home)
        return made


def drawing_key(c: Canvas) -> str | None:
    """A digest of what a canvas of one shown page holds: the page's and its forms' content,
    the images (named by a digest of their data), the fonts with the glyphs each code stands
    for, the transparency states. Equal for equal drawings, and quick: the PDF itself, with
    its fonts subset, takes four times as long to make. None if the canvas holds an object
    it does not know (a shading, a link), or ReportLab's insides have changed: then the PDF's
    own digest is the key."""
    try:
        return _drawing_key(c)
    except AttributeError:  # read from ReportLab's insides, which a new version may rename
        return None


def _drawing_key(c: Canvas) -> str | None:
    doc = c._doc
    h = sha256()
    for name, obj in doc.idToObject.items():
        h.update(f"\0{name}\0".encode())
        if isinstance(obj, PDFPage):
            h.update(f"{obj.pagewidth} {obj.pageheight} {obj.Rotate}\0".encode())
        elif isinstance(obj, PDFFormXObject):
            h.update(f"{obj.lowerx} {obj.lowery} {obj.upperx} {obj.uppery}\0".encode())
        elif isinstance(obj, PDFType1Font):  # one of PDF's 14 fonts: its name says it all
            h.update(f"{obj.BaseFont} {obj.Encoding}\0".encode())
        elif not (isinstance(obj, PDFImageXObject) or name == "BasicFonts"):
            return None
        stream = getattr(obj, "stream", "")
        h.update(stream.encode("latin-1") if isinstance(stream, str) else stream)
    h.update(repr(sorted(map(repr, c._extgstate._c.items()))).encode())
    for font_name, internal in sorted(doc.fontMapping.items()):
        font = pdfmetrics.getFont(font_name)
        state = getattr(font, "state", {}).get(doc)
        h.update(f"\0{font_name} {internal} {state.subsets if state else ''}".encode())
        h.update(_font_digest(getattr(font, "face", None)))
    return h.hexdigest()


_font_digests: dict[int, tuple[object, bytes]] = {}


def _font_digest(face: object) -> bytes:
    """A digest of a TrueType font's file, once per font a process loads."""
    data = getattr(face, "_ttf_data", b"")
    if not data:
        return b""
    known = _font_digests.get(id(face))
    if known is None or known[0] is not face:
        known = _font_digests[id(face)] = (face, sha256(data).digest())
    return known[1]


def jpeg(image: Image.Image) -> bytes:
    """The image as a JPEG: encoded six times faster than a PNG of the same size, and with
    no chroma subsampling its text and hairlines stay sharp enough for a preview."""
    buf = io.BytesIO()
    image.save(buf, format="JPEG", quality=92, subsampling=0)
    return buf.getvalue()


def _shot(shown: Shown, bleed_mm: float, dpi: float) -> Shot:
    assert shown.comp.size is not None  # proof.faces lists sized components only
    w, h = (p / POINTS_PER_IN for p in shown.comp.size.points)
    bleed = bleed_mm / 25.4
    dpi = min(dpi, MAX_PIXELS / (max(w, h) + 2 * bleed))  # a board: fewer dots, not 60 MB
    pixels = (round((w + 2 * bleed) * dpi), round((h + 2 * bleed) * dpi))
    side = SideFaces(shown.comp, shown.back, shown.draw, tuple(range(shown.comp.count)))
    return Shot(side, shown.index, shown.comp.size, pixels, dpi, (w, h))


STYLE = """
body{margin:0;font:15px/1.45 system-ui,sans-serif;color:#1d1d1d;background:#eceae4}
header{padding:1em 1.5em .5em}
h1{font-size:1.4em;margin:0 0 .3em}
header p{margin:.2em 0}
.toggles{display:flex;flex-wrap:wrap;gap:.4em 1.4em;padding:.4em 1.5em;background:#fff;
  border-block:1px solid #c9c6bd;position:sticky;top:0;z-index:1}
.toggles label{cursor:pointer;white-space:nowrap}
.faces{display:flex;flex-wrap:wrap;gap:1.5em;padding:1.5em;align-items:flex-start}
figure{margin:0;max-width:100%}
.face{position:relative;line-height:0;overflow:hidden;box-shadow:0 1px 4px #0003;max-width:100%}
.face img{display:block;max-width:100%;height:auto}
.line{position:absolute;pointer-events:none;box-sizing:border-box}
.trim{border:1px solid #e0e}
.safe{border:1px dashed #08c}
figcaption{font-size:.85em;margin-top:.4em;max-width:100%}
figcaption code{font-size:1em}
body:has(#trim:not(:checked)) .trim,body:has(#safe:not(:checked)) .safe{display:none}
body:has(#bleed:not(:checked)) .face{clip-path:var(--cut)}
"""


def _pct(part: float, whole: float) -> str:
    return f"{100 * part / whole:.3f}%"


def _figure(d: Drawn, _: Words) -> str:
    comp = d.shown.comp
    assert comp.size is not None
    w, h = comp.size.points
    full_w, full_h = w + 2 * d.bleed, h + 2 * d.bleed
    trim = (f"left:{_pct(d.bleed, full_w)};right:{_pct(d.bleed, full_w)};"
            f"top:{_pct(d.bleed, full_h)};bottom:{_pct(d.bleed, full_h)}")
    inset = d.bleed + d.safe
    safe = (f"left:{_pct(inset, full_w)};right:{_pct(inset, full_w)};"
            f"top:{_pct(inset, full_h)};bottom:{_pct(inset, full_h)}")
    cut = f"inset({_pct(d.bleed, full_h)} {_pct(d.bleed, full_w)})"
    css_w, css_h = (round(p * CSS_DPI / d.dpi) for p in d.pixels)
    side = "back" if d.shown.back else "front"
    # proof's caption after "<id> <side>": ", cards.csv:7" (a data row), " (shared)" (one back
    # for every copy), " 13" (copy 13, drawn by code) or nothing (a layout without data)
    rest = d.shown.caption.removeprefix(f"{comp.id} {side}")
    where = rest.removeprefix(", ") if rest.startswith(", ") else ""
    said = _("back") if d.shown.back else _("front")
    # Translators: a face shared by every copy ("back × 40"), or copy 13 of 40 ("front 13 of 40").
    shown = (_("{side} × {count}", side=said, count=comp.count) if rest == " (shared)" else
             _("{side} {n} of {count}", side=said, n=d.shown.index + 1, count=comp.count)
             if rest.strip().isdigit() else said)
    alt = f"{comp.name or comp.id}, {shown}" + (f" ({where})" if where else "")
    return (f'<figure><div class="face" style="width:{css_w}px;--cut:{cut}">'
            f'<img src="{escape(d.image)}" width="{css_w}" height="{css_h}" alt="{escape(alt)}">'
            f'<div class="line trim" style="{trim}"></div>'
            f'<div class="line safe" style="{safe}"></div></div>'
            f"<figcaption><strong>{escape(comp.id)}</strong> {escape(shown)}"
            + (f" · <code>{escape(where)}</code>" if where else "")
            + "</figcaption></figure>\n")


def faces_page(doc: Document, drawn: Sequence[Drawn], options: FaceOptions,
               _: Words = SOURCE_WORDS, home: str = "../../index.html") -> str:
    """The page: a header, the toggles (CSS only: the page runs no script of its own) and
    every face; its words in the language of ``_``; ``home``: the games' page from here."""
    books = " · ".join(f'<a href="../{escape(book_name(doc.slug, e))}">'
                       f"{escape(_(EDITION_NAMES.get(e, e)))}</a>" for e in options.editions)
    heading = escape(_("{title}: every face of the kit", title=doc.meta.title))
    n = len(drawn)
    about = _.ngettext("{n} distinct face, each once, at printed size with {bleed} mm bleed.",
                       "{n} distinct faces, each once, at printed size with {bleed} mm bleed.",
                       n, bleed=_.number(options.bleed_mm))
    lines = _("Magenta: the trim line; dashed blue: the safe area (keep text inside).")
    every = escape(_("All games"))  # (a word in an f-string is not found by the extractor)
    games = f'<a href="{home}">{every}</a>'
    lang = escape(_.lang or DEFAULT_LANGUAGE)
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{heading}</title><style>{STYLE}</style></head><body>\n"
        f"<header><h1>{heading}</h1><p>{escape(about)} {escape(lines)}</p>"
        + (f"<p>{books} · {games}</p>" if books else f"<p>{games}</p>")
        + "</header>\n<main>" + _toggles(_) + '<div class="faces">\n'
        + "".join(_figure(d, _) for d in drawn) + "</div></main>\n</body></html>\n")


def _toggles(_: Words) -> str:
    boxes = (("trim", _("Trim line")), ("safe", _("Safe area")), ("bleed", _("Bleed")))
    inputs = "".join(f'<label><input type="checkbox" id="{i}" checked> {escape(label)}</label>'
                     for i, label in boxes)
    group = escape(_("Show on each face"))
    return f'<div class="toggles" role="group" aria-label="{group}">{inputs}</div>'


def generator(out: Path, editions: Sequence[str], project: Path | None = None) -> Faces:
    """The faces generator of serve's rebuilds: its page links back to the game's books."""
    return Faces(FaceOptions(editions=tuple(editions)), out, project)

"""Images on faces: PNG and JPEG through ReportLab, SVG as vectors through svglib.

Only files inside the game's folder are read (no ``..``, no absolute paths, no symlinks out).
An SVG may not reach outside itself (no external ``href``, no ``@import``) and may not hold
text, which would need fonts the kit does not embed. Each image is read and checked once, and
drawn into the PDF once, as a form every face that shows it places.
"""

from __future__ import annotations

import base64
import hashlib
import io
import warnings
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from lxml import etree
from PIL import Image, UnidentifiedImageError
from reportlab.graphics import renderPDF
from reportlab.graphics.renderbase import renderScaledDrawing
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from rulepress.document.rows import inside
from rulepress.images import (
    ICON_FOLDER,
    ICON_SUFFIXES,
    LABELS,
    BadImage,
    check_data,
    damage,
    decode_data_url,
    icon_names,
    xml_problem,
)
from rulepress.jail import PathRefused, read_regular
from rulepress.limits import MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS
from rulepress.pnp.fonts import register_fonts
from rulepress.suggest import suggest

SUFFIXES = {".png": "raster", ".jpg": "raster", ".jpeg": "raster", ".svg": "svg"}
_SVG = "{http://www.w3.org/2000/svg}"
_XLINK = "{http://www.w3.org/1999/xlink}href"


class ImageProblem(ValueError):
    pass


def _drawable(url: str, name: str) -> str:
    """An embedded image's data: URL as svglib draws it (base64 PNG or JPEG: anything else it
    leaves out without a word)."""
    kind, data = decode_data_url(url)  # it decoded in check_data
    if kind not in ("image/png", "image/jpeg"):
        raise ImageProblem(f"refused image '{name}': its embedded {LABELS.get(kind, kind)} "
                           "cannot be drawn in a kit, which draws embedded PNG and JPEG images; "
                           "convert it to PNG")
    return f"data:{kind};base64,{base64.b64encode(data).decode('ascii')}"


@dataclass(frozen=True)
class Picture:
    digest: str  # of the file's bytes: names the form, so equal files share one
    width: float  # intrinsic size, in the image's own units (points for SVG, pixels for PNG)
    height: float
    drawing: Any = None  # svglib's Drawing for SVG
    reader: ImageReader | None = None  # for PNG and JPEG

    @property
    def form(self) -> str:
        return f"rpImg_{self.digest}"

    def place(self, c: Canvas, x: float, y: float, w: float, h: float) -> None:
        """Draw it as large as fits the box (x, y, w, h), centred, keeping its proportions."""
        if not c.hasForm(self.form):
            register_fonts()  # the drawing's initial font is Carlito, set even with no text
            c.beginForm(self.form, 0, 0, self.width, self.height)
            if self.drawing is not None:
                _FormRenderer().draw(renderScaledDrawing(self.drawing), c, 0, 0)
            else:
                c.drawImage(self.reader, 0, 0, self.width, self.height, mask="auto")
            c.endForm()
        scale = min(w / self.width, h / self.height)
        c.saveState()
        c.translate(x + (w - self.width * scale) / 2, y + (h - self.height * scale) / 2)
        c.scale(scale, scale)
        c.doForm(self.form)
        c.restoreState()


class _FormRenderer(renderPDF._PDFRenderer):  # type: ignore[misc]
    """ReportLab's PDF renderer, drawing an SVG's embedded rasters as image objects: its own
    inline images break a form (ReportLab joins their bytes into the form's text)."""

    def drawImage(self, image: Any) -> None:  # noqa: N802 (ReportLab's name)
        if hasattr(image.path, "mode"):  # svglib hands over the decoded PIL image
            self._canvas.drawImage(ImageReader(image.path), image.x, image.y, image.width,
                                   image.height, mask="auto")


def open_image(folder: Path, name: str) -> Picture:
    """The image file ``name`` of the game folder, read and checked; ImageProblem if not."""
    kind = SUFFIXES.get(Path(name).suffix.lower())
    if kind is None:
        raise ImageProblem(f"image '{name}' must be a PNG, JPEG or SVG file "
                           f"({', '.join(SUFFIXES)})")
    target = inside(folder, name)
    if target is None:
        raise ImageProblem(f"image '{name}' must be inside the game's folder")
    if not target.is_file():
        raise ImageProblem(f"image '{name}' does not exist in {folder.name}/")
    stat = target.stat()
    return _load(target, stat.st_mtime_ns, stat.st_size, kind, name)


@lru_cache(maxsize=256)
def _load(path: Path, mtime: int, size: int, kind: str, name: str) -> Picture:
    try:
        data = read_regular(path, MAX_IMAGE_BYTES)
    except PathRefused:
        raise ImageProblem(f"image '{name}' is larger than {MAX_IMAGE_BYTES:,} bytes") from None
    except OSError as exc:
        raise ImageProblem(f"image '{name}' cannot be read: {exc.strerror}") from None
    digest = hashlib.sha1(data).hexdigest()[:16]
    return _svg(data, digest, name) if kind == "svg" else _raster(data, digest, name)


def _raster(data: bytes, digest: str, name: str) -> Picture:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as probe:
                if probe.format not in ("PNG", "JPEG"):
                    raise ImageProblem(f"image '{name}' is {probe.format}, not PNG or JPEG")
                if probe.width * probe.height > MAX_IMAGE_PIXELS:
                    raise ImageProblem(f"image '{name}' has more than {MAX_IMAGE_PIXELS:,} pixels")
                probe.verify()
            with Image.open(io.BytesIO(data)) as img:
                img.load()  # verify() checks the structure; decoding finds a cut-off file
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError,
            Image.DecompressionBombWarning, Image.DecompressionBombError) as exc:
        if isinstance(exc, ImageProblem):
            raise
        if isinstance(exc, (Image.DecompressionBombWarning, Image.DecompressionBombError)):
            raise ImageProblem(f"image '{name}' has more than {MAX_IMAGE_PIXELS:,} "
                               "pixels") from None
        if isinstance(exc, UnidentifiedImageError):
            raise ImageProblem(f"image '{name}' is not a PNG or JPEG image") from None
        kind = "JPEG" if data.startswith(b"\xff\xd8") else "PNG"
        raise ImageProblem(f"image '{name}' cannot be read: {damage(data, kind)}") from None
    reader = ImageReader(io.BytesIO(data))
    w, h = reader.getSize()
    return Picture(digest, float(w), float(h), reader=reader)


def _svg(data: bytes, digest: str, name: str) -> Picture:
    from svglib.svglib import SvgRenderer

    try:  # the limits a rulebook's SVG keeps to, everything it embeds and copies included
        check_data("image/svg+xml", data)
    except BadImage as exc:
        raise ImageProblem(f"refused image '{name}': {exc}") from None
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                             huge_tree=False, remove_comments=True)
    try:
        root = etree.fromstring(data, parser=parser)
    except etree.XMLSyntaxError as exc:
        raise ImageProblem(f"image '{name}': {xml_problem(exc)}") from None
    if root.tag != f"{_SVG}svg":
        raise ImageProblem(f"image '{name}' is not an SVG document (its root is {root.tag})")
    for node in root.iter():
        tag = node.tag if isinstance(node.tag, str) else ""
        key = _XLINK if node.get(_XLINK) is not None else "href"
        href = (node.get(key) or "").strip()
        if href.startswith("data:"):
            node.set(key, _drawable(href, name))
        elif href and not href.startswith("#"):
            raise ImageProblem(f"image '{name}' refers to '{href[:60]}': an SVG for a kit must "
                               "hold everything it shows")
        if tag in (f"{_SVG}text", f"{_SVG}style") and "@import" in (node.text or ""):
            raise ImageProblem(f"image '{name}' imports a style sheet: inline it")
        if tag == f"{_SVG}text":
            raise ImageProblem(f"image '{name}' holds text: convert it to paths (the kit only "
                               "embeds its own fonts), or put the text in the layout")
    # A source that is not a file path: svglib then refuses any outside reference itself too.
    drawing = SvgRenderer(io.BytesIO(data)).render(root)
    if drawing is None or not drawing.width or not drawing.height:
        raise ImageProblem(f"image '{name}' has no size: give the svg a width and height or "
                           "a viewBox")
    # Its text is refused above; this keeps ReportLab's default (Helvetica, never embedded) out
    # of the PDF's fonts.
    drawing.initialFontName = "Carlito"
    return Picture(digest, float(drawing.width), float(drawing.height), drawing=drawing)


def open_icon(folder: Path, name: str) -> Picture:
    """The icon ``:name:`` (images/name.svg, else images/name.png); ImageProblem if none."""
    where = folder / ICON_FOLDER
    try:
        listed = where.stat().st_mtime_ns  # a file added or removed changes the folder's time
    except OSError:
        listed = 0
    rel = _icon_file(folder, name, listed)
    if rel is None:
        names = icon_names(folder)
        have = (", ".join(f":{n}:" for n in names) if names
                else f"none: {ICON_FOLDER}/ holds no SVG or PNG")
        raise ImageProblem(f"unknown icon ':{name}:'{suggest(name, names)}: an icon is an SVG "
                           f"or PNG file in {ICON_FOLDER}/ (this game's icons: {have}); write "
                           "\\: for a colon that starts no icon")
    return open_image(folder, rel)


@lru_cache(maxsize=1024)
def _icon_file(folder: Path, name: str, listed: int) -> str | None:
    """Which file the icon is, looked up once per listing of the folder (every card's icons
    would otherwise check the jail for each suffix)."""
    for suffix in ICON_SUFFIXES:
        rel = f"{ICON_FOLDER}/{name}{suffix}"
        target = inside(folder, rel)
        if target is not None and target.is_file():
            return rel
    return None

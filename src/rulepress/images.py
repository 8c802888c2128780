"""Image files checked before the typesetter sees them.

WeasyPrint drops an image it cannot decode with a log line and goes on, so a corrupt PNG or a
malformed SVG would vanish from the PDF without a word. Every image is decoded here first, by
Pillow (the library WeasyPrint decodes rasters with) or a safe XML parser, within the limits.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import io
import re
import struct
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, unquote_to_bytes
from xml.etree.ElementTree import Element
from xml.parsers import expat

from rulepress.limits import (
    MAX_IMAGE_NESTING,
    MAX_IMAGE_PIXELS,
    MAX_SVG_DEPTH,
    MAX_SVG_ELEMENTS,
)
from rulepress.suggest import suggest

if TYPE_CHECKING:
    from PIL import ImageFile

# File extension -> media type, and the Pillow format a raster of that type must be.
MEDIA_TYPES = {
    ".svg": "image/svg+xml", ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
    ".gif": "image/gif", ".webp": "image/webp",
}
PILLOW_FORMATS = {"image/png": "PNG", "image/jpeg": "JPEG", "image/gif": "GIF",
                  "image/webp": "WEBP"}
# How a diagnostic names an image embedded in an SVG ("its embedded PNG: ...").
LABELS = {"image/svg+xml": "SVG", "image/png": "PNG", "image/jpeg": "JPEG", "image/gif": "GIF",
          "image/webp": "WebP"}
# Elements that draw a copy of the element their href names.
_COPIES = frozenset({f"{{http://www.w3.org/2000/svg}}{name}" for name in ("use", "tref")})
SVG_NS = "{http://www.w3.org/2000/svg}"
_HREF = re.compile(r"(^|})href$")
_CSS_URL = re.compile(r"url\(\s*['\"]?\s*(?!#)", re.I)


ICON_FOLDER = "images"  # a game's icons (``:shell:`` in card text, ``:icon[shell]`` in prose)
ICON_SUFFIXES = (".svg", ".png")  # an SVG wins over a PNG of the same name


def icon_names(folder: Path) -> list[str]:
    """The icons a game's text may name: its images/ folder's SVG and PNG files."""
    where = folder / ICON_FOLDER
    if not where.is_dir():
        return []
    return sorted({p.stem for p in where.iterdir() if p.suffix.lower() in ICON_SUFFIXES})


def icon_file(name: str, folder: Path) -> str | None:
    """The game's file of the icon ``name`` (relative to its folder), or None."""
    for suffix in ICON_SUFFIXES:
        if (folder / ICON_FOLDER / f"{name}{suffix}").is_file():
            return f"{ICON_FOLDER}/{name}{suffix}"
    return None


def unknown_icon(name: str, folder: Path) -> str:
    """Why ``name`` is no icon of the game: the icons it has, the nearest first."""
    names = icon_names(folder)
    have = ", ".join(names) or f"none: {ICON_FOLDER}/ holds no SVG or PNG"
    return (f"no such icon{suggest(name, names)}: an icon is an SVG or PNG file in "
            f"{ICON_FOLDER}/ (this game's icons: {have})")


class BadImage(ValueError):
    pass


_PASSED: set[tuple[str, bytes]] = set()  # (media type, SHA-256) of images that passed


def decode_data_url(url: str) -> tuple[str, bytes]:
    """'data:image/png;base64,....' -> ('image/png', b'...')."""
    header, sep, payload = url[len("data:") :].partition(",")
    if not sep:
        raise ValueError("a data: URL needs a comma before its payload")
    parts = header.split(";")
    media_type = parts[0].strip().lower() or "text/plain"
    if "base64" in parts[1:]:
        try:
            return media_type, base64.b64decode(unquote(payload), validate=False)
        except binascii.Error:  # its text ("Incorrect padding") is Python's
            raise ValueError("its base64 payload does not decode") from None
    return media_type, unquote_to_bytes(payload)


def media_type(path: Path) -> str:
    """The media type an image file's extension promises; BadImage for any other file."""
    found = MEDIA_TYPES.get(path.suffix.lower())
    if found is None:
        raise BadImage("images must be SVG, PNG, JPEG, GIF or WebP files")
    return found


def check_image(path: Path, data: bytes) -> str:
    """The image's media type, once ``data`` decodes as what its name says, within the limits,
    with every image it embeds; else BadImage."""
    kind = media_type(path)
    check_data(kind, data)
    return kind


def check_data(kind: str, data: bytes) -> None:
    """``data`` decodes as an image of media type ``kind``, and it and everything it embeds
    keep to the limits together; else BadImage."""
    key = (kind, hashlib.sha256(data).digest())
    if key in _PASSED:  # the check, the page and the typesetter meet the same image
        return
    pixels, _ = _weigh_image(kind, data, 0)
    if pixels > MAX_IMAGE_PIXELS:
        raise BadImage(f"it and the images it embeds hold {pixels:,} pixels, counting each "
                       f"copy a <use> makes: more than the limit of {MAX_IMAGE_PIXELS:,}")
    if len(_PASSED) > 256:
        _PASSED.clear()
    _PASSED.add(key)


def _weigh_image(kind: str, data: bytes, nesting: int) -> tuple[int, int]:
    """(pixels, SVG elements) an image decodes to, everything it embeds included."""
    if kind == "image/svg+xml":
        return _check_svg(data, nesting)
    if kind not in PILLOW_FORMATS:
        raise BadImage(f"{kind} is not an image type rulepress draws (SVG, PNG, JPEG, GIF, WebP)")
    return _check_raster(data, PILLOW_FORMATS[kind]), 0


def _check_raster(data: bytes, expected: str) -> int:
    from PIL import Image, ImageFile, UnidentifiedImageError

    # WeasyPrint lets Pillow pad a truncated image with grey; a damaged image is refused here.
    lenient, bombs = ImageFile.LOAD_TRUNCATED_IMAGES, Image.MAX_IMAGE_PIXELS
    ImageFile.LOAD_TRUNCATED_IMAGES = False
    # Opening reads the header only: our pixel limit (_check_decoded) comes before any decoding,
    # and before Pillow's own (which it words itself, and may change).
    Image.MAX_IMAGE_PIXELS = None
    try:
        with Image.open(io.BytesIO(data)) as image:
            return _check_decoded(image, expected)
    except BadImage:
        raise
    except UnidentifiedImageError:
        raise BadImage(f"the file is not a {expected} image") from None
    # Pillow reports damaged data through all of these, depending on the format and the damage.
    except (OSError, SyntaxError, ValueError, EOFError, struct.error):
        raise BadImage(damage(data, expected)) from None
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES, Image.MAX_IMAGE_PIXELS = lenient, bombs


def damage(data: bytes, kind: str) -> str:
    """What is wrong with raster ``data`` of format ``kind`` that its decoder refused, in our
    words (Pillow's change between releases): cut short, when its end marker is missing."""
    if kind == "WEBP":
        cut = len(data) < 8 + int.from_bytes(data[4:8], "little")  # RIFF: the size after 8 bytes
    else:
        end = {"PNG": b"IEND\xaeB`\x82", "JPEG": b"\xff\xd9", "GIF": b";"}.get(kind, b"")
        cut = end not in data[-64:]
    return f"the {kind} file is cut short" if cut else f"the {kind} data is damaged"


_MISMATCH = "a closing tag does not match the element it closes"
_CUT = "the file ends before its elements are closed"
_TWICE = "an attribute is given twice"
_AFTER = "something follows the end of its root element"
# The parsers' error codes (stable: they are the C libraries' numbers) -> our words.
_EXPAT_REASONS = {expat.errors.codes[m]: why for m, why in [
    (expat.errors.XML_ERROR_TAG_MISMATCH, _MISMATCH), (expat.errors.XML_ERROR_NO_ELEMENTS, _CUT),
    (expat.errors.XML_ERROR_UNCLOSED_TOKEN, _CUT),
    (expat.errors.XML_ERROR_DUPLICATE_ATTRIBUTE, _TWICE),
    (expat.errors.XML_ERROR_JUNK_AFTER_DOC_ELEMENT, _AFTER)]}
# lxml.etree.ErrorTypes: TAG_NAME_MISMATCH, TAG_NOT_FINISHED, DOCUMENT_EMPTY, ATTRIBUTE_REDEFINED,
# DOCUMENT_END (without importing lxml for a rulebook)
_LIBXML_REASONS = {76: _MISMATCH, 77: _CUT, 4: _CUT, 42: _TWICE, 5: _AFTER}


def xml_problem(exc: Exception) -> str:
    """Where and why expat (an xml.etree ParseError) or libxml2 (lxml's XMLSyntaxError) gave
    up on an SVG, in our words: their texts differ between the two and between releases."""
    line, column = getattr(exc, "position", (1, 0))
    code = getattr(exc, "code", 0)
    if type(exc).__module__.startswith("lxml"):
        why = _LIBXML_REASONS.get(code)
    else:  # expat counts columns from 0
        why, column = _EXPAT_REASONS.get(code), column + 1
    return f"not well-formed SVG{f': {why}' if why else ''} (its line {line}, column {column})"


def _check_decoded(image: ImageFile.ImageFile, expected: str) -> int:
    if image.format != expected:
        raise BadImage(f"the file is {image.format or 'not an image'}, not {expected}")
    width, height = image.size
    if width * height > MAX_IMAGE_PIXELS:
        raise BadImage(f"{width} x {height} pixels is more than the limit of "
                       f"{MAX_IMAGE_PIXELS:,} pixels")
    image.load()
    return width * height


def _check_svg(data: bytes, nesting: int) -> tuple[int, int]:
    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import ParseError, fromstring

    try:
        root = fromstring(data, forbid_dtd=True)
    except DefusedXmlException:
        raise BadImage("an SVG may not declare a DTD or entities") from None
    except ParseError as exc:
        raise BadImage(xml_problem(exc)) from None
    if root.tag != f"{SVG_NS}svg":
        raise BadImage("the file's root element is not an SVG <svg> element")
    for elements, element in enumerate(root.iter(), 1):
        if elements > MAX_SVG_ELEMENTS:
            raise BadImage(f"more than {MAX_SVG_ELEMENTS:,} elements")
        _check_element(element)
    return _weigh_tree(root, _embedded(root, nesting))


def href_of(element: Element) -> str:
    return next((v.strip() for k, v in element.attrib.items() if _HREF.search(k)), "")


def _embedded(root: Element, nesting: int) -> dict[int, tuple[int, int]]:
    """id(element) -> (pixels, elements) of the data: image each element embeds, checked."""
    weights: dict[int, tuple[int, int]] = {}
    seen: dict[str, tuple[int, int]] = {}  # the same data twice is checked once
    for element in root.iter():
        url = href_of(element)
        if not url.startswith("data:"):
            continue
        if url not in seen:
            try:
                kind, data = decode_data_url(url)
            except ValueError as exc:
                raise BadImage(f"its embedded image{_named(element)} is damaged ({exc})") from None
            what = f"its embedded {LABELS.get(kind, kind)}{_named(element)}"
            if nesting + 1 > MAX_IMAGE_NESTING:
                raise BadImage(f"{what} is nested more than {MAX_IMAGE_NESTING} images deep")
            try:
                seen[url] = _weigh_image(kind, data, nesting + 1)
            except BadImage as exc:
                raise BadImage(f"{what}: {exc}") from None
        weights[id(element)] = seen[url]
    return weights


def _named(element: Element) -> str:
    ident = element.get("id")
    return f" ('{ident[:40]}')" if ident else ""


def _weigh_tree(root: Element, embedded: dict[int, tuple[int, int]]) -> tuple[int, int]:
    """(pixels, elements) the SVG draws, each <use> counted as a copy of what it names: a few
    <use> of <use> make a million elements from a hundred. Walked without recursion, so no
    nesting can exhaust the stack; nesting itself is limited (the renderers recurse)."""
    ids = {el.get("id"): el for el in root.iter() if el.get("id")}

    def parts(el: Element) -> list[Element]:
        url = href_of(el) if el.tag in _COPIES else ""
        target = ids.get(url[1:]) if url.startswith("#") else None
        return [*el, *([target] if target is not None else [])]

    done: dict[int, tuple[int, int, int]] = {}  # id -> (pixels, elements, depth)
    active: set[int] = set()
    stack: list[tuple[Element, bool]] = [(root, False)]
    cap = MAX_SVG_ELEMENTS + 1
    while stack:
        el, finished = stack.pop()
        key = id(el)
        if key in done:
            continue
        if not finished:
            if key in active:
                raise BadImage(f"a <use> refers to an element that holds it{_named(el)}")
            active.add(key)
            stack.append((el, True))
            stack.extend((part, False) for part in parts(el) if id(part) not in done)
            continue
        active.discard(key)
        below = [done[id(part)] for part in parts(el)]
        own_pixels, own_elements = embedded.get(key, (0, 0))
        pixels = min(own_pixels + sum(b[0] for b in below), 10**15)  # small ints, still over
        elements = min(1 + own_elements + sum(b[1] for b in below), cap)
        depth = 1 + max((b[2] for b in below), default=0)
        if depth > MAX_SVG_DEPTH:
            raise BadImage(f"elements nested more than {MAX_SVG_DEPTH} deep, counting each "
                           "<use> as holding what it names")
        done[key] = (pixels, elements, depth)
    pixels, elements, _ = done[id(root)]
    if elements > MAX_SVG_ELEMENTS:
        raise BadImage(f"more than {MAX_SVG_ELEMENTS:,} elements, counting each copy a <use> "
                       "makes and those of the SVGs it embeds")
    return pixels, elements


def _check_element(element: Element) -> None:
    """An SVG is drawn on its own: it may refer to its own parts (#id) and to data: images only,
    never to a file or an address (the typesetter would fetch it)."""
    for name, value in element.attrib.items():
        if _HREF.search(name) and not value.strip().startswith(("#", "data:image/")):
            raise BadImage(f"the SVG refers to '{value[:60]}'; an image must be self-contained")
        if _CSS_URL.search(value):
            raise BadImage("the SVG's style loads a url(); an image must be self-contained")
    if element.tag == f"{SVG_NS}style" and element.text and _CSS_URL.search(element.text):
        raise BadImage("the SVG's style loads a url(); an image must be self-contained")

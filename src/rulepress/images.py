"""Image files checked before the typesetter sees them.

WeasyPrint drops an image it cannot decode with a log line and goes on, so a corrupt PNG or a
malformed SVG would vanish from the PDF without a word. Every image is decoded here first, by
Pillow (the library WeasyPrint decodes rasters with) or a safe XML parser, within the limits.
"""

from __future__ import annotations

import io
import re
import struct
from pathlib import Path
from typing import TYPE_CHECKING
from xml.etree.ElementTree import Element

from rulepress.limits import MAX_IMAGE_PIXELS, MAX_SVG_ELEMENTS

if TYPE_CHECKING:
    from PIL import ImageFile

# File extension -> media type, and the Pillow format a raster of that type must be.
MEDIA_TYPES = {
    ".svg": "image/svg+xml", ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
    ".gif": "image/gif", ".webp": "image/webp",
}
PILLOW_FORMATS = {"image/png": "PNG", "image/jpeg": "JPEG", "image/gif": "GIF",
                  "image/webp": "WEBP"}
SVG_NS = "{http://www.w3.org/2000/svg}"
_HREF = re.compile(r"(^|})href$")
_CSS_URL = re.compile(r"url\(\s*['\"]?\s*(?!#)", re.I)


class BadImage(ValueError):
    pass


def media_type(path: Path) -> str:
    """The media type an image file's extension promises; BadImage for any other file."""
    found = MEDIA_TYPES.get(path.suffix.lower())
    if found is None:
        raise BadImage("images must be SVG, PNG, JPEG, GIF or WebP files")
    return found


def check_image(path: Path, data: bytes) -> str:
    """The image's media type, once ``data`` decodes as what its name says; else BadImage."""
    kind = media_type(path)
    if kind == "image/svg+xml":
        _check_svg(data)
    else:
        _check_raster(data, PILLOW_FORMATS[kind])
    return kind


def _check_raster(data: bytes, expected: str) -> None:
    from PIL import Image, ImageFile, UnidentifiedImageError

    # WeasyPrint lets Pillow pad a truncated image with grey; a damaged image is refused here.
    lenient = ImageFile.LOAD_TRUNCATED_IMAGES
    ImageFile.LOAD_TRUNCATED_IMAGES = False
    try:
        with Image.open(io.BytesIO(data)) as image:
            _check_decoded(image, expected)
    except BadImage:
        raise
    except UnidentifiedImageError:
        raise BadImage(f"the file is not a {expected} image") from None
    except Image.DecompressionBombError:
        raise BadImage(f"more than the limit of {MAX_IMAGE_PIXELS:,} pixels") from None
    # Pillow reports damaged data through all of these, depending on the format and the damage.
    except (OSError, SyntaxError, ValueError, EOFError, struct.error) as exc:
        raise BadImage(f"the {expected} data is damaged ({exc})") from None
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = lenient


def _check_decoded(image: ImageFile.ImageFile, expected: str) -> None:
    if image.format != expected:
        raise BadImage(f"the file is {image.format or 'not an image'}, not {expected}")
    width, height = image.size
    if width * height > MAX_IMAGE_PIXELS:
        raise BadImage(f"{width} x {height} pixels is more than the limit of "
                       f"{MAX_IMAGE_PIXELS:,} pixels")
    image.load()


def _check_svg(data: bytes) -> None:
    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import ParseError, fromstring

    try:
        root = fromstring(data, forbid_dtd=True)
    except DefusedXmlException:
        raise BadImage("an SVG may not declare a DTD or entities") from None
    except ParseError as exc:
        raise BadImage(f"not well-formed SVG ({exc})") from None
    if root.tag != f"{SVG_NS}svg":
        raise BadImage("the file's root element is not an SVG <svg> element")
    for elements, element in enumerate(root.iter(), 1):
        if elements > MAX_SVG_ELEMENTS:
            raise BadImage(f"more than {MAX_SVG_ELEMENTS:,} elements")
        _check_element(element)


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

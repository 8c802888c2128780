"""A rulebook for a manufacturer (``build --press``): PDF/X-1a:2003 on the paper's own page
size, 3 mm of bleed on every page (the cover's colour runs into it), crop marks outside the
bleed, every colour CMYK.

WeasyPrint typesets it with the press stylesheet (``PRESS_CSS``: the bleed, crop marks, the
output profile, and the theme's few translucent touches made opaque) and writes it with its
``pdf/x-1a`` variant, which adds the OutputIntent but leaves colours RGB, opacity as
transparency groups and the profile as an ICCBased colour space. ``to_press`` converts what it
wrote: RGB operators to CMYK ink as the exports convert them (grey to black alone), the
ICCBased CMYK space to DeviceCMYK, fills painted at opacity 0 (its crop marks are stroked paths
filled with 'transparent') to no fill, transparency groups (left with nothing translucent) to
plain forms, RGB images to CMYK; the BleedBox drawn in to 3 mm (the media keeps room for the
marks). ``export.pdfx.make`` then marks it PDF/X and ``pdfx.check`` reads it back: what is
left (a game's own translucent CSS, gradients) is an error at the game's print.css.
"""

from __future__ import annotations

import io
import logging
from typing import Any

from pypdf import PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    ContentStream,
    DictionaryObject,
    FloatObject,
    NameObject,
    NumberObject,
)

from rulepress.export.preflight import cmyk
from rulepress.units import POINTS_PER_MM

BLEED_MM = 3.0
MARKS_MM = 9.0  # WeasyPrint draws crop marks in the outer half of its bleed: 4.5 to 9 mm out
PAGE_SIZES = {"a4": "210mm 297mm", "letter": "8.5in 11in"}
# The theme's translucent touches, opaque: on a press there is no transparency.
PRESS_CSS = """
@color-profile device-cmyk {{ src: url("{profile}"); components: cyan, magenta, yellow, black }}
@page {{ size: {size}; bleed: {marks}mm; marks: crop; }}
@page :first {{ bleed: {marks}mm; }}
.cover-kicker, .cover-subtitle {{ opacity: 1; }}
.cover-facts div {{ background: none; border: 0.3mm solid currentColor; }}
* {{ box-shadow: none !important; }}
"""
# A path-painting operator by whether its fill and its stroke show: what paints only those.
PAINT: dict[bytes, dict[tuple[bool, bool], bytes]] = {
    **{op: {(True, True): op, (True, False): op, (False, True): b"n", (False, False): b"n"}
       for op in (b"f", b"F", b"f*")},
    **{op: {(True, True): op, (False, True): op, (True, False): b"n", (False, False): b"n"}
       for op in (b"S", b"s")},
    **{op: {(True, True): op, (True, False): fill, (False, True): stroke, (False, False): b"n"}
       for op, fill, stroke in ((b"B", b"f", b"S"), (b"B*", b"f*", b"S"), (b"b", b"f", b"s"),
                                (b"b*", b"f*", b"s"))},
}
DRAWN = {b"Tj", b"TJ", b"'", b'"', b"Do", b"sh", b"INLINE IMAGE"}  # kept at opacity 0


def press_css(paper: str, profile_url: str) -> str:
    return PRESS_CSS.format(profile=profile_url, size=PAGE_SIZES[paper], marks=MARKS_MM)


def to_press(data: bytes, bleed_mm: float | None = BLEED_MM) -> bytes:
    """A PDF (WeasyPrint's, written with ``PRESS_CSS``; or a kit's) in CMYK, with no
    transparency left that it can remove, and the BleedBox ``bleed_mm`` outside the TrimBox
    (None: the boxes as they are)."""
    quiet = _Unlogged("Object count %(object_count)d exceeds defined trailer size")
    logging.getLogger("pypdf._writer").addFilter(quiet)
    try:  # the clone copies shared objects again, then warns of its own count
        writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    finally:
        logging.getLogger("pypdf._writer").removeFilter(quiet)
    # The links' named destinations go with the links (the bookmarks stay).
    writer.root_object.pop("/Names", None)
    writer.root_object.pop("/Dests", None)
    writer.root_object.pop("/OutputIntents", None)  # pdfx.make writes ours
    done: set[int] = set()
    for page in writer.pages:
        page.pop("/Annots", None)  # links: no use on paper, and PDF/X keeps the trim clear
        _convert(page, writer, done)
        if bleed_mm is not None:
            trim = [float(v) for v in page.trimbox]
            out = bleed_mm * POINTS_PER_MM
            page[NameObject("/BleedBox")] = ArrayObject(
                FloatObject(round(v, 4)) for v in (trim[0] - out, trim[1] - out,
                                                   trim[2] + out, trim[3] + out))
        page.pop("/Group", None)
        page.compress_content_streams()
    # pypdf's clone copies the profile once per reference to it; those copies, and the
    # colour spaces and groups dropped above, leave unused objects behind.
    writer.compress_identical_objects(remove_duplicates=True, remove_unreferenced=True)
    out_buf = io.BytesIO()
    writer.write(out_buf)
    return out_buf.getvalue()


class _Unlogged(logging.Filter):
    """Drops one message of pypdf's, by its format."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(self.text)


def _convert(owner: Any, writer: PdfWriter, done: set[int]) -> None:
    """Rewrite ``owner``'s content (a page or form) and, once each, the forms and images it
    uses."""
    res = owner.get("/Resources")
    res = res.get_object() if res is not None else DictionaryObject()
    states = {str(k): v.get_object() for k, v in res.get("/ExtGState", {}).items()}
    spaces = res.get("/ColorSpace")
    cmyk_names = set()
    if spaces is not None:
        spaces = spaces.get_object()
        for key in list(spaces):
            space = spaces[key].get_object()
            if (isinstance(space, ArrayObject) and space and space[0] == "/ICCBased"
                    and int(space[1].get_object().get("/N", 0)) == 4):
                cmyk_names.add(str(key))
                del spaces[key]
            elif isinstance(space, ArrayObject) and space and space[0] == "/Lab":
                del spaces[key]  # declared on every page, used by none of ours; check() sees
    for ref in res.get("/XObject", {}).values():
        x = ref.get_object()
        key = ref.idnum if hasattr(ref, "idnum") else id(x)
        if key in done:
            continue
        done.add(key)
        if x.get("/Subtype") == "/Form":
            x.pop("/Group", None)
            _convert(x, writer, done)
        elif x.get("/Subtype") == "/Image":
            _image_to_cmyk(x)
    contents = owner.get_contents() if hasattr(owner, "get_contents") else owner
    if contents is None:
        return
    rewritten, hidden_drawing = _rewrite(ContentStream(contents, writer), states, cmyk_names)
    if hasattr(owner, "replace_contents"):
        owner.replace_contents(rewritten)
    else:
        owner.set_data(rewritten.get_data())
    if hidden_drawing:
        return  # text or images drawn unseen: kept, and the check reports their opacity
    for gs in states.values():  # opacity 0 paints nothing now: its state can be opaque
        for key in ("/ca", "/CA"):
            if float(gs.get(key, 1)) == 0:
                gs[NameObject(key)] = NumberObject(1)


def _rewrite(stream: ContentStream, states: dict[str, Any], cmyk_names: set[str]
             ) -> tuple[ContentStream, bool]:
    """RGB colour operators as CMYK; what is filled or stroked at opacity 0 left unpainted.
    Also says whether text, an image, a form or a shading was drawn at opacity 0 (those are
    kept, so their opacity must stay for the check to report)."""
    ops: list[tuple[Any, bytes]] = []
    alpha = [(1.0, 1.0)]  # the fill and stroke opacity in force, per saved state
    hidden_drawing = False
    for operands, op in stream.operations:
        fill, stroke = alpha[-1]
        if op == b"q":
            alpha.append(alpha[-1])
        elif op == b"Q" and len(alpha) > 1:
            alpha.pop()
        elif op == b"gs":
            gs = states.get(str(operands[0]))
            if gs is not None:
                alpha[-1] = (float(gs.get("/ca", fill)), float(gs.get("/CA", stroke)))
        elif op in (b"rg", b"RG"):
            operands = [FloatObject(round(v, 6)) for v in cmyk(*(float(v) for v in operands))]
            op = b"k" if op == b"rg" else b"K"
        elif op in (b"cs", b"CS") and str(operands[0]) in cmyk_names:
            operands = [NameObject("/DeviceCMYK")]
        elif op in PAINT:
            op = PAINT[op][(fill > 0, stroke > 0)]
        elif op in DRAWN and fill == 0:
            hidden_drawing = True
        ops.append((operands, op))
    stream.operations = ops
    return stream, hidden_drawing


def _image_to_cmyk(x: Any) -> None:
    """An RGB image XObject as CMYK (its soft mask as a colour-key mask), in place."""
    from PIL import Image

    from rulepress.export.dtc import cmyk_image

    space = x.get("/ColorSpace")
    space = space.get_object() if space is not None else None
    if space in ("/DeviceCMYK", "/DeviceGray") or x.get("/ImageMask"):
        return
    picture = x.decode_as_image()
    if "/SMask" in x:
        mask = x["/SMask"].get_object().decode_as_image().convert("L")
        picture = picture.convert("RGB")
        picture.putalpha(mask.resize(picture.size))
        del x["/SMask"]
    elif not isinstance(picture, Image.Image):
        return
    converted, key = cmyk_image(picture)
    x[NameObject("/Filter")] = NameObject("/FlateDecode")  # set_data encodes with it
    x.pop("/DecodeParms", None)
    x.set_data(converted.tobytes())
    x.pop("/Decode", None)
    x[NameObject("/ColorSpace")] = NameObject("/DeviceCMYK")
    x[NameObject("/BitsPerComponent")] = NumberObject(8)
    if key:
        x[NameObject("/Mask")] = ArrayObject(NumberObject(v) for v in key)


__all__ = ["BLEED_MM", "PAGE_SIZES", "press_css", "to_press"]

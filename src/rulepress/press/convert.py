"""A rulebook for a manufacturer (``build --press``): PDF/X-1a:2003 on the paper's own page
size, 3 mm of bleed on every page (the cover's colour runs into it), crop marks outside the
bleed, every colour CMYK.

WeasyPrint typesets it with the press stylesheet (``PRESS_CSS``: the bleed, crop marks, the
output profile, and the theme's few translucent touches made opaque) and writes it with its
``pdf/x-1a`` variant, which adds the OutputIntent but leaves colours RGB, opacity as
transparency groups and the profile as an ICCBased colour space. ``to_press`` converts what it
wrote (and a kit's PDF, for ``pnp --press``): colours to CMYK ink as the exports convert them
(grey to black alone), a translucent colour as its tint over the paper (as the exports and kits
draw one), what is filled or stroked at opacity 0 unpainted (WeasyPrint's crop marks are
stroked paths filled 'transparent'), the ICCBased CMYK space to DeviceCMYK, transparency groups
to plain forms, RGB images to CMYK; links go, and the BleedBox is drawn in to 3 mm (the media
keeps room for the marks). ``press.pdfx.make`` then marks it PDF/X and ``pdfx.check`` reads it
back: what is left (an image, a form or a shading drawn translucent, as CSS opacity draws;
gradients) is an error at the game's print.css.
"""

from __future__ import annotations

import io
import logging
from typing import Any

from PIL import Image
from pypdf import PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    ContentStream,
    DictionaryObject,
    FloatObject,
    NameObject,
    NumberObject,
)

from rulepress.media import PAPERS
from rulepress.press.colour import cmyk, cmyk_image
from rulepress.units import POINTS_PER_MM

BLEED_MM = 3.0
MARKS_MM = 9.0  # WeasyPrint draws crop marks in the outer half of its bleed: 4.5 to 9 mm out
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
DRAWN = {b"Tj", b"TJ", b"'", b'"'}  # text: kept at opacity 0, so not flattened
UNTINTED = {b"Do", b"sh", b"INLINE IMAGE"}  # drawn in colours of their own: not flattened


def press_css(paper: str, profile_url: str) -> str:
    return PRESS_CSS.format(profile=profile_url, size=PAPERS[paper].page_css, marks=MARKS_MM)


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
    states: list[Any] = []  # every graphics state met (pages and forms share them)
    unflattened = False
    for page in writer.pages:
        page.pop("/Annots", None)  # links: no use on paper, and PDF/X keeps the trim clear
        unflattened |= _convert(page, writer, done, states)
        if bleed_mm is not None:
            trim = [float(v) for v in page.trimbox]
            out = bleed_mm * POINTS_PER_MM
            page[NameObject("/BleedBox")] = ArrayObject(
                FloatObject(round(v, 4)) for v in (trim[0] - out, trim[1] - out,
                                                   trim[2] + out, trim[3] + out))
        page.pop("/Group", None)
        page.compress_content_streams()
    if not unflattened:  # every colour now carries its opacity as a tint
        for gs in states:
            for key in ("/ca", "/CA"):
                if float(gs.get(key, 1)) < 1:
                    gs[NameObject(key)] = NumberObject(1)
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


def _convert(owner: Any, writer: PdfWriter, done: set[int], met: list[Any]) -> bool:
    """Rewrite ``owner``'s content (a page or form) and, once each, the forms and images it
    uses; add the graphics states they name to ``met``. True if something drawn translucent
    could not be flattened (then no state's opacity may be dropped)."""
    res = owner.get("/Resources")
    res = res.get_object() if res is not None else DictionaryObject()
    states = {str(k): v.get_object() for k, v in res.get("/ExtGState", {}).items()}
    met += states.values()
    unflattened = False
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
            unflattened |= _convert(x, writer, done, met)
        elif x.get("/Subtype") == "/Image":
            _image_to_cmyk(x)
    contents = owner.get_contents() if hasattr(owner, "get_contents") else owner
    if contents is None:
        return unflattened
    rewritten, kept = _rewrite(ContentStream(contents, writer), states, cmyk_names)
    if hasattr(owner, "replace_contents"):
        owner.replace_contents(rewritten)
    else:
        owner.set_data(rewritten.get_data())
    return unflattened or kept


def _rewrite(stream: ContentStream, states: dict[str, Any], cmyk_names: set[str]
             ) -> tuple[ContentStream, bool]:
    """Colours as CMYK ink, a translucent one as its tint over the paper (as the exports and
    kits draw it); what is filled or stroked at opacity 0 left unpainted. Also says whether
    something could not be flattened so: an image, a form or a shading drawn translucent, or
    text at opacity 0 (kept, so their opacity stays for the check to report)."""
    ops: list[tuple[Any, bytes]] = []
    # Per saved state: fill and stroke opacity, fill and stroke colour (CMYK) asked for.
    state: list[list[Any]] = [[1.0, 1.0, None, None]]
    cmyk_space = [False, False]  # the fill and stroke colour spaces are CMYK (scn/SCN)
    unflattened = False

    def ink(stroke: bool) -> tuple[list[Any], bytes]:
        inks = state[-1][3 if stroke else 2]
        a = state[-1][1 if stroke else 0]
        return [FloatObject(round(v * a, 6)) for v in inks], (b"K" if stroke else b"k")

    for operands, op in stream.operations:
        top = state[-1]
        colour: tuple[bool, Any] | None = None  # (stroke?, CMYK) set by this operator
        if op == b"q":
            state.append(list(top))
        elif op == b"Q" and len(state) > 1:
            state.pop()
        elif op == b"gs":
            gs = states.get(str(operands[0]))
            if gs is not None:
                top[0], top[1] = float(gs.get("/ca", top[0])), float(gs.get("/CA", top[1]))
                ops.append((operands, op))
                ops += [ink(stroke) for stroke in (False, True) if top[3 if stroke else 2]]
                continue
        elif op in (b"rg", b"RG"):
            colour = (op == b"RG", cmyk(*(float(v) for v in operands)))
        elif op in (b"k", b"K"):
            colour = (op == b"K", tuple(float(v) for v in operands))
        elif op in (b"g", b"G"):
            colour = (op == b"G", (0.0, 0.0, 0.0, 1 - float(operands[0])))
        elif op in (b"cs", b"CS"):
            cmyk_now = str(operands[0]) in cmyk_names or operands[0] == "/DeviceCMYK"
            cmyk_space[op == b"CS"] = cmyk_now
            if str(operands[0]) in cmyk_names:
                operands = [NameObject("/DeviceCMYK")]
        elif (op in (b"sc", b"scn", b"SC", b"SCN") and cmyk_space[op.isupper()]
              and len(operands) == 4):
            colour = (op.isupper(), tuple(float(v) for v in operands))
        elif op in PAINT:
            op = PAINT[op][(top[0] > 0, top[1] > 0)]
        elif op in UNTINTED and (top[0] < 1 or top[1] < 1) or op in DRAWN and top[0] == 0:
            unflattened = True
        if colour is not None:
            stroke, inks = colour
            top[3 if stroke else 2] = inks
            ops.append(ink(stroke))
            continue
        ops.append((operands, op))
    stream.operations = ops
    return stream, unflattened


def _image_to_cmyk(x: Any) -> None:
    """An RGB image XObject as CMYK (its soft mask as a colour-key mask), in place."""
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


__all__ = ["BLEED_MM", "press_css", "to_press"]

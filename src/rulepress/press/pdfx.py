"""PDF/X-1a:2003 for a print house: what makes a written PDF one (``make``), and the read-back
check of a written file against the rules a printer's preflight applies (``check``).

``make`` adds to a CMYK PDF ReportLab wrote: the OutputIntent (GTS_PDFX) with the shipped
FOGRA39 characterisation profile (``icc/README-FOGRA39L.txt`` says how it was made and its
licence), ``GTS_PDFXVersion`` / ``GTS_PDFXConformance`` and ``Trapped`` in the Info dict and
the same in XMP metadata, and a subset tag per embedded font program drawn from its bytes
(ReportLab names the first subset of every font ``AAAAAA+``).

``check`` reads any PDF and returns what stops it being PDF/X-1a:2003, page by page: the
markers, a TrimBox and BleedBox on every page (trim inside bleed inside media), colours only
CMYK or grey (operators, colour spaces, images, inline images; form XObjects followed), no
transparency (soft masks, constant alpha below 1, blend modes), fonts embedded with distinct
subset tags, no encryption, PDF 1.4 at most.
"""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from defusedxml import ElementTree as SafeXML
from pypdf import PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    ContentStream,
    DictionaryObject,
    IndirectObject,
    NameObject,
    NumberObject,
    StreamObject,
    TextStringObject,
)

VERSION = "PDF/X-1:2003"  # ISO 15930-4: the version key names the part, ...
CONFORMANCE = "PDF/X-1a:2003"  # ... the conformance key the level
CONDITION = "FOGRA39"  # the characterisation the profile was made from (ICC registry name)
REGISTRY = "http://www.color.org"
CONDITION_TEXT = ("Offset printing on coated paper (ISO 12647-2:2004/Amd 1), characterised by "
                  "FOGRA39")
PROFILE = "rulepress-FOGRA39L.icc"
NS = {"x": "adobe:ns:meta/", "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
      "dc": "http://purl.org/dc/elements/1.1/", "xmp": "http://ns.adobe.com/xap/1.0/",
      "pdf": "http://ns.adobe.com/pdf/1.3/", "pdfx": "http://ns.adobe.com/pdfx/1.3/"}
TAG = re.compile(r"^([A-Z]{6})\+(.+)$")
# Colour operators that carry their own space: grey and CMYK only.
RGB_OPERATORS = {b"rg", b"RG"}
DEVICE_OK = {"/DeviceCMYK", "/DeviceGray", "/CMYK", "/G", "/Pattern"}


def profile() -> bytes:
    """The shipped CMYK output profile (ICC v2, class prtr)."""
    return (files("rulepress.press") / "icc" / PROFILE).read_bytes()


def profile_path() -> Path:
    """The profile's file, for a stylesheet's @color-profile (the package is a folder)."""
    return Path(__file__).parent / "icc" / PROFILE


def make(data: bytes, title: str) -> bytes:
    """``data`` (a CMYK PDF with embedded fonts and page boxes) made PDF/X-1a:2003."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.pdf_header = b"%PDF-1.4"
    icc = StreamObject()
    icc.set_data(profile())
    icc[NameObject("/N")] = NumberObject(4)
    intent = DictionaryObject({
        NameObject("/Type"): NameObject("/OutputIntent"),
        NameObject("/S"): NameObject("/GTS_PDFX"),
        NameObject("/OutputConditionIdentifier"): TextStringObject(CONDITION),
        NameObject("/RegistryName"): TextStringObject(REGISTRY),
        NameObject("/OutputCondition"): TextStringObject(CONDITION_TEXT),
        NameObject("/Info"): TextStringObject(CONDITION_TEXT),
        NameObject("/DestOutputProfile"): writer._add_object(icc.flate_encode()),
    })
    writer.root_object[NameObject("/OutputIntents")] = ArrayObject([intent])
    writer.add_metadata({})  # makes the Info dict if the file has none
    info = writer._info.get_object() if writer._info is not None else None
    assert isinstance(info, DictionaryObject)  # pypdf's Info dict, set as PdfObjects below
    info[NameObject("/Title")] = TextStringObject(title)
    info[NameObject("/GTS_PDFXVersion")] = TextStringObject(VERSION)
    info[NameObject("/GTS_PDFXConformance")] = TextStringObject(CONFORMANCE)
    info[NameObject("/Trapped")] = NameObject("/False")
    meta = StreamObject()
    meta.set_data(_xmp(info))
    meta[NameObject("/Type")] = NameObject("/Metadata")
    meta[NameObject("/Subtype")] = NameObject("/XML")
    writer.root_object[NameObject("/Metadata")] = writer._add_object(meta)
    _retag_fonts(writer)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _xmp_date(value: Any) -> str:
    """A PDF date (D:YYYYMMDDHHmmSS+HH'mm') as XMP's ISO 8601."""
    m = re.match(r"D:(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)(?:([+-])(\d\d)'?(\d\d)|Z)?",
                 str(value))
    if not m:
        return ""
    y, mo, d, h, mi, s, sign, zh, zm = m.groups()
    zone = f"{sign}{zh}:{zm}" if sign else "Z"
    return f"{y}-{mo}-{d}T{h}:{mi}:{s}{zone}"


def _xmp(info: DictionaryObject) -> bytes:
    """XMP metadata saying what the Info dict says (title, author, dates, PDF/X keys)."""
    for prefix, uri in NS.items():
        ElementTree.register_namespace(prefix, uri)

    def tag(name: str) -> str:
        prefix, local = name.split(":")
        return f"{{{NS[prefix]}}}{local}"

    meta = ElementTree.Element(tag("x:xmpmeta"))
    rdf = ElementTree.SubElement(meta, tag("rdf:RDF"))
    desc = ElementTree.SubElement(rdf, tag("rdf:Description"), {tag("rdf:about"): ""})
    alt = ElementTree.SubElement(ElementTree.SubElement(desc, tag("dc:title")), tag("rdf:Alt"))
    ElementTree.SubElement(alt, tag("rdf:li"), {
        "{http://www.w3.org/XML/1998/namespace}lang": "x-default"}).text = str(info["/Title"])
    if "/Author" in info:
        seq = ElementTree.SubElement(ElementTree.SubElement(desc, tag("dc:creator")),
                                     tag("rdf:Seq"))
        ElementTree.SubElement(seq, tag("rdf:li")).text = str(info["/Author"])
    for key, name in (("/CreationDate", "xmp:CreateDate"), ("/ModDate", "xmp:ModifyDate")):
        if key in info and _xmp_date(info[key]):
            ElementTree.SubElement(desc, tag(name)).text = _xmp_date(info[key])
    for key, name in (("/Creator", "xmp:CreatorTool"), ("/Producer", "pdf:Producer")):
        if key in info:
            ElementTree.SubElement(desc, tag(name)).text = str(info[key])
    ElementTree.SubElement(desc, tag("pdf:Trapped")).text = "False"
    ElementTree.SubElement(desc, tag("pdfx:GTS_PDFXVersion")).text = VERSION
    ElementTree.SubElement(desc, tag("pdfx:GTS_PDFXConformance")).text = CONFORMANCE
    body: bytes = ElementTree.tostring(meta, encoding="utf-8")
    return (b'<?xpacket begin="\xef\xbb\xbf" id="W5M0MpCehiHzreSzNTczkc9d"?>\n' + body
            + b'\n<?xpacket end="r"?>')


def _fonts(reader_or_writer: PdfReader | PdfWriter) -> Iterator[tuple[int, DictionaryObject]]:
    """Every font dict a page uses (forms followed), with its page's number (from 1)."""
    for number, page in enumerate(reader_or_writer.pages, 1):
        for res, _ in _resources(page):
            for ref in _dict(res.get("/Font")).values():
                font = ref.get_object()
                if isinstance(font, DictionaryObject):
                    yield number, font


def _descriptor(font: DictionaryObject) -> DictionaryObject | None:
    """The font's FontDescriptor (a Type0 font's through its descendant)."""
    if "/DescendantFonts" in font:
        kids: Any = font["/DescendantFonts"].get_object()
        font = kids[0].get_object() if kids else DictionaryObject()
    found = font.get("/FontDescriptor")
    return found.get_object() if found is not None else None


def _program(desc: DictionaryObject | None) -> bytes | None:
    """The embedded font program's bytes, or None when the font is not embedded."""
    if desc is None:
        return None
    for key in ("/FontFile", "/FontFile2", "/FontFile3"):
        if key in desc:
            stream: Any = desc[key].get_object()
            return bytes(stream.get_data())
    return None


def _retag_fonts(writer: PdfWriter) -> None:
    """Give every subset a tag drawn from its own font program, so two differ."""
    done: set[int] = set()
    for _, font in _fonts(writer):
        if id(font) in done:
            continue
        done.add(id(font))
        m = TAG.match(str(font.get("/BaseFont", "")).lstrip("/"))
        desc = _descriptor(font)
        program = _program(desc)
        if m is None or program is None:
            continue
        digest = hashlib.sha256(program + m.group(2).encode()).digest()
        name = NameObject("/" + "".join(chr(65 + b % 26) for b in digest[:6]) + "+" + m.group(2))
        font[NameObject("/BaseFont")] = name
        if "/DescendantFonts" in font:
            kids: Any = font["/DescendantFonts"].get_object()
            kids[0].get_object()[NameObject("/BaseFont")] = name
        if desc is not None:
            desc[NameObject("/FontName")] = name


def _dict(value: Any) -> DictionaryObject:
    found = value.get_object() if value is not None else None
    return found if isinstance(found, DictionaryObject) else DictionaryObject()


def _resources(page: DictionaryObject) -> Iterator[tuple[DictionaryObject, Any]]:
    """The page's resources and content, then each form XObject's it draws, once each."""
    seen: set[int] = set()
    todo: list[tuple[DictionaryObject, Any]] = [(_dict(page.get("/Resources")),
                                                 page.get("/Contents"))]
    while todo:
        res, content = todo.pop()
        yield res, content
        for ref in _dict(res.get("/XObject")).values():
            key = ref.idnum if isinstance(ref, IndirectObject) else id(ref)
            form = ref.get_object()
            if key in seen or form.get("/Subtype") != "/Form":
                continue
            seen.add(key)
            todo.append((_dict(form.get("/Resources")), form))


@dataclass(frozen=True)
class Problem:
    """What stops a file being PDF/X-1a; ``page`` 0 for the whole file."""

    page: int
    text: str


def check(data: bytes) -> list[Problem]:
    """Everything in the PDF ``data`` that PDF/X-1a:2003 does not allow (empty: none found)."""
    found: list[Problem] = []
    reader = PdfReader(io.BytesIO(data))
    head = re.match(rb"%PDF-(\d\.\d)", data[:16])
    if head is None or head.group(1) > b"1.4":
        found.append(Problem(0, f"is PDF {head.group(1).decode() if head else '?'}: PDF/X-1a:"
                                "2003 needs PDF 1.4 or older"))
    if reader.is_encrypted:
        return [*found, Problem(0, "is encrypted")]
    found += _markers(reader)
    tags: dict[str, tuple[str, bytes | None]] = {}
    fonts_seen: set[int] = set()
    for number, page in enumerate(reader.pages, 1):
        found += [Problem(number, t) for t in _boxes(page)]
        for res, content in _resources(page):
            found += [Problem(number, t) for t in _colours_and_transparency(res, content)]
    for number, font in _fonts(reader):
        if id(font) in fonts_seen:
            continue
        fonts_seen.add(id(font))
        found += [Problem(number, t) for t in _font(font, tags)]
    return list(dict.fromkeys(found))


def _markers(reader: PdfReader) -> list[Problem]:
    found: list[Problem] = []
    info = reader.trailer.get("/Info")
    info = info.get_object() if info is not None else DictionaryObject()
    for key, want in (("/GTS_PDFXVersion", VERSION), ("/GTS_PDFXConformance", CONFORMANCE)):
        if str(info.get(key, "")) != want:
            found.append(Problem(0, f"Info {key[1:]} is {info.get(key)!r}, not '{want}'"))
    if str(info.get("/Trapped")) not in ("/True", "/False"):
        found.append(Problem(0, "Info Trapped must be True or False"))
    for key in ("/Title", "/CreationDate", "/ModDate"):
        if key not in info:
            found.append(Problem(0, f"Info has no {key[1:]}"))
    if "/ID" not in reader.trailer:
        found.append(Problem(0, "the trailer has no ID"))
    root: Any = reader.trailer["/Root"].get_object()
    intents = [i.get_object() for i in root.get("/OutputIntents", [])]
    pdfx = [i for i in intents if i.get("/S") == "/GTS_PDFX"]
    if len(pdfx) != 1:
        found.append(Problem(0, f"has {len(pdfx)} GTS_PDFX OutputIntents, not 1"))
    for intent in pdfx:
        if not str(intent.get("/OutputConditionIdentifier", "")):
            found.append(Problem(0, "the OutputIntent has no OutputConditionIdentifier"))
        icc = intent.get("/DestOutputProfile")
        head = bytes(icc.get_object().get_data()[:20]) if icc is not None else b""
        if head[12:20] != b"prtrCMYK":
            found.append(Problem(0, "the OutputIntent's profile is not a CMYK output profile"))
    return found + [Problem(0, t) for t in _xmp_markers(reader)]


def _xmp_markers(reader: PdfReader) -> list[str]:
    root: Any = reader.trailer["/Root"].get_object()
    meta = root.get("/Metadata")
    if meta is None:
        return ["has no XMP metadata"]
    if meta.get_object().get("/Subtype") != "/XML":
        return ["its XMP metadata stream is not /Subtype /XML"]
    try:
        root = SafeXML.fromstring(bytes(meta.get_object().get_data()).strip(b"\x00 \r\n"))
    except Exception as exc:  # noqa: BLE001 - any parse failure is the finding
        return [f"its XMP metadata does not parse ({exc})"]
    found = []
    for name, want in (("pdfx:GTS_PDFXVersion", VERSION),
                       ("pdfx:GTS_PDFXConformance", CONFORMANCE)):
        prefix, local = name.split(":")
        values = [e.text for e in root.iter(f"{{{NS[prefix]}}}{local}")]
        if values != [want]:
            found.append(f"XMP {name} is {values or 'missing'}, not '{want}'")
    return found


def _boxes(page: Any) -> list[str]:
    found = []
    marks = ("/PrinterMark", "/TrapNet")
    if any(a.get_object().get("/Subtype") not in marks for a in page.get("/Annots", [])):
        found.append("has annotations (links, notes): a press file takes none")
    media = [float(v) for v in page.mediabox]
    boxes = {}
    for key in ("/TrimBox", "/BleedBox"):
        if key not in page:
            found.append(f"has no {key[1:]}")
        else:
            boxes[key] = [float(v) for v in page[key]]

    def inside(a: list[float], b: list[float]) -> bool:
        return (min(a[0], a[2]) >= min(b[0], b[2]) - 0.01 and max(a[0], a[2]) <= max(b[0], b[2])
                + 0.01 and min(a[1], a[3]) >= min(b[1], b[3]) - 0.01
                and max(a[1], a[3]) <= max(b[1], b[3]) + 0.01)

    if len(boxes) == 2:
        if not inside(boxes["/TrimBox"], boxes["/BleedBox"]):
            found.append("its TrimBox is not inside its BleedBox")
        if not inside(boxes["/BleedBox"], media):
            found.append("its BleedBox is not inside its MediaBox")
    return found


def _space_ok(space: Any, named: DictionaryObject) -> bool:
    """A colour space PDF/X-1a allows: CMYK, grey, a separation or DeviceN, an indexed one of
    those (a name of the page's ColorSpace resources followed)."""
    space = space.get_object() if space is not None else None
    if isinstance(space, NameObject):
        if space in DEVICE_OK:
            return True
        if space in named:
            return _space_ok(named[space], DictionaryObject())
        return False
    if isinstance(space, ArrayObject) and space:
        kind = space[0]
        if kind in ("/Separation", "/DeviceN"):
            return _space_ok(space[2], named)
        if kind in ("/Indexed", "/I"):
            return _space_ok(space[1], named)
        if kind == "/Pattern":
            return len(space) < 2 or _space_ok(space[1], named)
    return False


def _colours_and_transparency(res: DictionaryObject, content: Any) -> list[str]:
    found = []
    named = _dict(res.get("/ColorSpace"))
    for key, space in named.items():
        name = key.lstrip("/")
        if not _space_ok(space, DictionaryObject()):
            found.append(f"colour space {name} is {_show(space)}: only CMYK or grey")
    for key, ref in _dict(res.get("/XObject")).items():
        name, x = key.lstrip("/"), ref.get_object()
        if x.get("/Subtype") != "/Image":
            if "/Group" in x:
                found.append(f"form {name} is a transparency group")
            continue
        if "/SMask" in x:
            found.append(f"image {name} has a soft mask (transparency)")
        if not x.get("/ImageMask") and not _space_ok(x.get("/ColorSpace"), named):
            found.append(f"image {name} is in {_show(x.get('/ColorSpace'))}, not CMYK or grey")
    for key, ref in _dict(res.get("/ExtGState")).items():
        name, gs = key.lstrip("/"), ref.get_object()
        for key in ("/CA", "/ca"):
            if key in gs and float(gs[key]) < 1:
                found.append(f"graphics state {name} sets {key[1:]} {float(gs[key]):g} "
                             "(transparency)")
        if str(gs.get("/SMask", "/None")) != "/None":
            found.append(f"graphics state {name} sets a soft mask (transparency)")
        if str(gs.get("/BM", "/Normal")) not in ("/Normal", "/Compatible"):
            found.append(f"graphics state {name} sets blend mode {str(gs['/BM']).lstrip('/')} "
                         "(transparency)")
        if "/TR" in gs:
            found.append(f"graphics state {name} sets a transfer function")
    for ref in _dict(res.get("/Shading")).values():
        if not _space_ok(ref.get_object().get("/ColorSpace"), named):
            found.append("a shading is not in CMYK or grey")
    if content is None:
        return found
    ops = ContentStream(content.get_object(), None).operations
    for operands, op in ops:
        if op in RGB_OPERATORS:
            found.append(f"sets an RGB colour ({op.decode()})")
        elif op in (b"cs", b"CS") and operands and not _space_ok(operands[0], named):
            found.append(f"selects colour space {operands[0]} ({op.decode()}): not CMYK or grey")
        elif op == b"INLINE IMAGE":
            settings = operands.get("settings", {})
            cs = settings.get("/CS", settings.get("/ColorSpace"))
            if not settings.get("/IM", settings.get("/ImageMask")) and not _space_ok(cs, named):
                found.append(f"an inline image is in {_show(cs)}, not CMYK or grey")
    return found


def _show(space: Any) -> str:
    space = space.get_object() if space is not None else None
    if isinstance(space, ArrayObject) and space:
        return str(space[0]).lstrip("/")
    return str(space).lstrip("/") if space is not None else "no colour space"


def _font(font: DictionaryObject, tags: dict[str, tuple[str, bytes | None]]) -> list[str]:
    if font.get("/Subtype") == "/Type3":
        return []  # glyphs drawn by the file's own procedures: nothing to embed
    base = str(font.get("/BaseFont", "")).lstrip("/")
    program = _program(_descriptor(font))
    if program is None:
        return [f"font {base} is not embedded"]
    m = TAG.match(base)
    if m is None:
        return []
    digest = hashlib.sha256(program).digest()
    seen = tags.setdefault(m.group(1), (m.group(2), digest))
    if seen != (m.group(2), digest):
        return [f"font {base} shares its subset tag {m.group(1)}+ with {seen[0]} (each "
                "subset needs its own)"]
    return []


__all__ = ["CONFORMANCE", "VERSION", "Problem", "check", "make", "profile"]

"""A game's own fonts, declared in its front matter::

    fonts:
      - family: Grenze
        regular: fonts/Grenze-Regular.ttf
        bold: fonts/Grenze-Bold.ttf        # optional, as is italic
        book: headings                     # body, headings or none (the default)

Each file is a TrueType font (.ttf, or .otf with TrueType outlines) inside the game's folder,
with its licence file beside it (a font's licence travels with it, and the kit and the book
embed it). Everything is checked here, at the declaring line, before anything draws.
"""

from __future__ import annotations

import io
import struct
from pathlib import Path
from typing import Any

from rulepress.document.rows import inside
from rulepress.jail import PathRefused, read_regular
from rulepress.limits import MAX_FONT_BYTES, MAX_FONT_CODES

FONT_KEYS = {"family": True, "regular": True, "bold": False, "italic": False, "book": False}
STYLES = ("regular", "bold", "italic")
BOOK_USES = ("none", "body", "headings")
SUFFIXES = (".ttf", ".otf")
# The layouts' own font names, and the bundled families: a game font may not take them.
RESERVED = ("regular", "bold", "italic", "symbols", "carlito", "rpsymbols", "dejavusans")
LICENCE_NAMES = ("ofl", "licen", "copying", "copyright")  # how a licence file's name starts


def licence_beside(font: Path) -> bool:
    """A licence file in the font's own folder (OFL.txt, LICENSE, Grenze-LICENCE.md...)."""
    for other in font.parent.iterdir():
        name = other.name.lower()
        if other.is_file() and (name.startswith(LICENCE_NAMES) or "licen" in name):
            return True
    return False


def font_file_problem(folder: Path, name: Any) -> tuple[str, Path | None]:
    """('', the file) when ``name`` is a usable font file of the game; else (why, None)."""
    if not isinstance(name, str) or not name.strip():
        return "must name a font file, e.g. fonts/Grenze-Regular.ttf", None
    if Path(name).suffix.lower() not in SUFFIXES:
        return f"'{name}' must be a TrueType font file (.ttf or .otf)", None
    target = inside(folder, name)
    if target is None:
        return (f"'{name}' must be inside the game's folder: copy the font (and its licence) "
                "into it"), None
    if not target.is_file():
        return f"'{name}' does not exist in {folder.name}/", None
    if not licence_beside(target):
        parent = Path(name).parent
        where = f"{parent.as_posix()}/" if parent != Path() else "the game's folder"
        return (f"'{name}' has no licence file beside it: put the font's licence (OFL.txt, "
                f"LICENSE...) in {where}, as the licence asks; the kit and the book embed "
                "the font"), None
    try:
        data = read_regular(target, MAX_FONT_BYTES)
    except PathRefused:
        return f"'{name}' is larger than {MAX_FONT_BYTES:,} bytes", None
    except OSError as exc:
        return f"'{name}' cannot be read: {exc.strerror}", None
    return _outline_problem(data, name), target


def cmap_codes(raw: bytes) -> int:
    """How many character codes a font's cmap table maps, all its subtables added up, read
    from the table's bytes (struct.error when they are cut short)."""
    def u16(at: int) -> int:
        return int(struct.unpack_from(">H", raw, at)[0])

    def u32(at: int) -> int:
        return int(struct.unpack_from(">I", raw, at)[0])

    total = 0
    for n in range(u16(2)):
        at = u32(4 + 8 * n + 4)
        kind = u16(at)
        if kind == 4:  # segments of 16-bit codes
            segments = u16(at + 6) // 2
            total += sum(max(0, u16(at + 14 + 2 * s) - u16(at + 16 + 2 * segments + 2 * s) + 1)
                         for s in range(segments))  # each end code less its start code
        elif kind == 6:
            total += u16(at + 8)
        elif kind == 10:
            total += u32(at + 16)
        elif kind in (8, 12, 13):  # groups of 32-bit code ranges
            start = at + (8208 if kind == 8 else 16)
            total += sum(max(0, u32(start + 4 + 12 * g) - u32(start + 12 * g) + 1)
                         for g in range(u32(start - 4)))
        elif kind == 14:  # variation sequences: default ranges and explicit mappings
            for r in range(u32(at + 6)):
                default, explicit = u32(at + 10 + 11 * r + 3), u32(at + 10 + 11 * r + 7)
                if default:
                    total += sum(raw[at + default + 4 + 4 * k + 3] + 1
                                 for k in range(u32(at + default)))
                if explicit:
                    total += u32(at + explicit)
        else:  # formats 0 and 2: 8-bit and mixed codes, at most 65,536
            total += 256 if kind == 0 else 65_536
        if total > MAX_FONT_CODES:
            break
    return total


def _outline_problem(data: bytes, name: str) -> str:
    """'' for a font both renderers embed: a character map and TrueType (glyf) outlines."""
    from fontTools.ttLib import TTFont, TTLibError

    try:
        font = TTFont(io.BytesIO(data), lazy=True)
        # Counted on the table's bytes first: fontTools expands every range into a mapping.
        codes = cmap_codes(font.reader["cmap"]) if "cmap" in font.reader else 0
        if codes > MAX_FONT_CODES:
            return (f"'{name}' maps at least {codes:,} characters, more than the limit of "
                    f"{MAX_FONT_CODES:,} (all of Unicode is 1,114,112)")
        cmap = font.getBestCmap()
    except (TTLibError, OSError, ValueError, KeyError, AssertionError, IndexError,
            struct.error):
        return f"'{name}' is not a font file (damaged, or not TrueType/OpenType)"
    if not cmap:
        return f"'{name}' has no character map: it cannot set text"
    if "glyf" not in font:
        return (f"'{name}' has PostScript (CFF) outlines, which the kit's renderer cannot "
                "embed: use the family's TrueType (.ttf) files")
    return ""

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
from pathlib import Path
from typing import Any

from rulepress.document.rows import inside
from rulepress.jail import Refused, read_regular
from rulepress.limits import MAX_FONT_BYTES

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
    except Refused:
        return f"'{name}' is larger than {MAX_FONT_BYTES:,} bytes", None
    except OSError as exc:
        return f"'{name}' cannot be read: {exc.strerror}", None
    return _outline_problem(data, name), target


def _outline_problem(data: bytes, name: str) -> str:
    """'' for a font both renderers embed: a character map and TrueType (glyf) outlines."""
    from fontTools.ttLib import TTFont, TTLibError

    try:
        font = TTFont(io.BytesIO(data), lazy=True)
        cmap = font.getBestCmap()
    except (TTLibError, OSError, ValueError, KeyError, AssertionError, IndexError):
        return f"'{name}' is not a font file (damaged, or not TrueType/OpenType)"
    if not cmap:
        return f"'{name}' has no character map: it cannot set text"
    if "glyf" not in font:
        return (f"'{name}' has PostScript (CFF) outlines, which the kit's renderer cannot "
                "embed: use the family's TrueType (.ttf) files")
    return ""

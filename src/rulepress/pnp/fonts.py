"""The project font (Carlito, SIL OFL) registered with ReportLab, once per process; a game's
own fonts too, by the digest of their bytes."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from rulepress.diagnostics import RulepressError
from rulepress.document.model import GameFont
from rulepress.jail import PathRefused, read_regular
from rulepress.limits import MAX_FONT_BYTES
from rulepress.paths import fonts_dir as bundled_fonts

FAMILY = "Carlito"
# ReportLab name -> file name in templates/fonts/
FACES = {
    "Carlito": "Carlito-Regular.ttf",
    "Carlito-Bold": "Carlito-Bold.ttf",
    "Carlito-Italic": "Carlito-Italic.ttf",
}  # Bold italic is left out: nobody needs it and each face costs ~25 ms to load.


def _candidates(fonts_dir: Path | None) -> list[Path]:
    """Where the fonts may be: an explicit folder, else the bundled theme's."""
    return [Path(fonts_dir)] if fonts_dir is not None else [bundled_fonts()]


def find_fonts_dir(fonts_dir: Path | None = None) -> Path:
    """The first candidate folder holding every Carlito face; a RulepressError if none does."""
    tried = _candidates(fonts_dir)
    for folder in tried:
        if all((folder / name).is_file() for name in FACES.values()):
            return folder
    where = ", ".join(str(p) for p in tried)
    raise RulepressError.at(
        None, f"the Carlito fonts were not found (looked in {where}): rulepress is not installed "
              "whole; reinstall it"
    )


SYMBOLS = "DejaVuSans"  # arrows, suits and shapes Carlito lacks (the rulebooks' RPSymbols)
SYMBOLS_FILE = "DejaVuSans.ttf"


def register_symbols(fonts_dir: Path | None = None) -> None:
    """Make "DejaVuSans" usable in ReportLab (only layouts load it). Idempotent."""
    if SYMBOLS in pdfmetrics.getRegisteredFontNames():
        return
    folder = Path(fonts_dir) if fonts_dir is not None else bundled_fonts()
    path = folder / SYMBOLS_FILE
    if not path.is_file():
        raise RulepressError.at(None, f"the symbol font was not found ({path}): rulepress is "
                                      "not installed whole; reinstall it")
    pdfmetrics.registerFont(TTFont(SYMBOLS, str(path)))


def register_fonts(fonts_dir: Path | None = None) -> None:
    """Make "Carlito", "Carlito-Bold" and "Carlito-Italic" usable in ReportLab. Idempotent."""
    registered = set(pdfmetrics.getRegisteredFontNames())
    if all(name in registered for name in FACES):
        return
    folder = find_fonts_dir(fonts_dir)
    for name, filename in FACES.items():
        if name not in registered:
            pdfmetrics.registerFont(TTFont(name, str(folder / filename)))
    # Lets <b>/<i> in Paragraphs pick the right face.
    addMapping(FAMILY, 0, 0, "Carlito")
    addMapping(FAMILY, 1, 0, "Carlito-Bold")
    addMapping(FAMILY, 0, 1, "Carlito-Italic")
    addMapping(FAMILY, 1, 1, "Carlito-Bold")


def register_game_font(font: GameFont) -> str:
    """Register a game's own font's faces with ReportLab; the name of its regular face, which
    is also its family's (``<b>`` and ``<i>`` in a text pick the bold and italic faces).

    Faces are named by a digest of their bytes, so two games' fonts of one family name (or one
    font edited while ``serve`` runs) never take each other's place. A missing bold or italic
    face is the regular one under another name: ReportLab maps each name to one style.
    """
    data: dict[str, bytes] = {}
    for style, path in font.faces:
        try:
            data[style] = read_regular(path, MAX_FONT_BYTES)
        except (OSError, PathRefused) as exc:
            raise RulepressError.at(font.loc, f"font '{font.family}': {path.name} cannot be "
                                              f"read ({exc})") from None
    family = f"rpFont_{hashlib.sha1(data['regular']).hexdigest()[:16]}"
    faces = {  # (bold, italic) -> (name, bytes)
        (0, 0): (family, data["regular"]),
        (1, 0): _face(family, "B", data.get("bold"), data["regular"]),
        (0, 1): _face(family, "I", data.get("italic"), data["regular"]),
        (1, 1): _face(family, "BI", None, data.get("bold", data["regular"])),
    }
    registered = set(pdfmetrics.getRegisteredFontNames())
    for (bold, italic), (name, raw) in faces.items():
        if name not in registered:
            try:
                pdfmetrics.registerFont(TTFont(name, io.BytesIO(raw)))
            except TTFError as exc:
                raise RulepressError.at(font.loc, f"font '{font.family}' cannot be embedded "
                                                  f"in a kit ({exc})") from None
        addMapping(family, bold, italic, name)
    return family


def _face(family: str, style: str, own: bytes | None, fallback: bytes) -> tuple[str, bytes]:
    """A style's face: its own file's bytes under their digest, else the fallback's bytes."""
    if own is None:
        return f"{family}-{style}", fallback
    return f"rpFont_{hashlib.sha1(own).hexdigest()[:16]}", own

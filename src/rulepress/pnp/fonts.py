"""The project font (Carlito, SIL OFL) registered with ReportLab, once per process."""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from rulepress.diagnostics import RulepressError
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

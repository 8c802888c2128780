"""Where the theme lives: one answer for the renderer, the glyph check and the kits' fonts."""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from pathlib import Path


@cache
def templates_dir() -> Path:
    """The bundled theme (templates, CSS, fonts): package data of rulepress, read through
    importlib.resources. In a checkout it is the top-level templates/ folder (linked into the
    package), in an installed wheel a copy inside it."""
    return Path(str(files("rulepress") / "templates")).resolve()


def fonts_dir() -> Path:
    return templates_dir() / "fonts"

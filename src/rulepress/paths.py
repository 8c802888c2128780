"""Where the theme lives: one answer for the renderer and the print-and-play fonts."""

from __future__ import annotations

import os
from pathlib import Path

TEMPLATES_ENV = "RULEPRESS_TEMPLATES"


def templates_dir() -> Path:
    """$RULEPRESS_TEMPLATES, else <checkout>/templates (the project installs editable)."""
    if os.environ.get(TEMPLATES_ENV):
        return Path(os.environ[TEMPLATES_ENV]).resolve()
    return Path(__file__).resolve().parents[2] / "templates"

"""The project font, registered with ReportLab."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from reportlab.pdfbase import pdfmetrics

from rulepress.diagnostics import RulepressError
from rulepress.pnp import fonts


def test_register_fonts_is_idempotent_and_makes_the_faces_usable() -> None:
    fonts.register_fonts()
    fonts.register_fonts()
    names = set(pdfmetrics.getRegisteredFontNames())
    assert {"Carlito", "Carlito-Bold", "Carlito-Italic"} <= names
    assert pdfmetrics.stringWidth("Pigeon", "Carlito-Bold", 10) > 0


def test_fonts_dir_found_from_an_explicit_folder(tmp_path: Path) -> None:
    source = fonts.find_fonts_dir()
    for name in fonts.FACES.values():
        shutil.copy(source / name, tmp_path / name)
    assert fonts.find_fonts_dir(tmp_path) == tmp_path


def test_missing_fonts_are_a_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(fonts, "_candidates", lambda d: [tmp_path])
    with pytest.raises(RulepressError, match="Carlito fonts were not found"):
        fonts.find_fonts_dir()

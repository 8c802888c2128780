"""The drawers' shared toolkit: fonts, colours, canvas state, bleed and fitted text."""

from __future__ import annotations

import importlib
import io
from pathlib import Path

import pytest
from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import Canvas

from rulepress.diagnostics import RulepressError
from rulepress.pnp import draw
from rulepress.pnp import fonts as font_files
from rulepress.pnp.api import Face

FACE = Face(index=1, count=4, width=180.0, height=252.0, bleed=8.5)


class Recorder:
    """Just enough of a canvas (ReportLab's method names) to see what a helper asked for."""

    def __init__(self) -> None:
        self.calls: list[tuple[object, ...]] = []

    def saveState(self) -> None:
        self.calls.append(("save",))

    def restoreState(self) -> None:
        self.calls.append(("restore",))

    def setFillColor(self, fill: Color) -> None:
        self.calls.append(("fill", fill))

    def rect(self, *args: float, **kwargs: int) -> None:
        self.calls.append(("rect", *args, kwargs["stroke"], kwargs["fill"]))


@pytest.fixture
def missing_fonts(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """As if nothing were registered yet and the font files were nowhere to be found."""
    monkeypatch.setattr(font_files.pdfmetrics, "getRegisteredFontNames", lambda: [])
    monkeypatch.setattr(font_files, "_candidates", lambda fonts_dir: [tmp_path])


def _rgb(c: Color) -> tuple[float, float, float]:
    return (round(c.red, 6), round(c.green, 6), round(c.blue, 6))


def test_fonts_are_the_project_font_and_usable() -> None:
    regular, bold = draw.fonts()
    assert (regular, bold) == ("Carlito", "Carlito-Bold")
    c = Canvas(io.BytesIO())
    assert c.stringWidth("Pigeon", bold, 10) > c.stringWidth("Pigeon", regular, 10) > 0


@pytest.mark.usefixtures("missing_fonts")
def test_missing_fonts_raise_instead_of_falling_back() -> None:
    with pytest.raises(RulepressError, match="Carlito fonts were not found"):
        draw.fonts()


@pytest.mark.usefixtures("missing_fonts")
@pytest.mark.parametrize(
    ("game", "drawer"),
    [
        ("go_stop", "player_card"),
        ("pigeon", "card_front"),
        ("pigeon_race", "board"),
        ("worm_derby", "tile_face"),
    ],
)
def test_every_game_drawer_reports_missing_fonts(game: str, drawer: str) -> None:
    engine = importlib.import_module(f"rulepress.games.{game}").ENGINE
    with pytest.raises(RulepressError):
        engine.drawers()[drawer](Canvas(io.BytesIO()), FACE)


def test_saved_restores_the_state_even_when_the_block_raises() -> None:
    c = Recorder()
    with pytest.raises(ValueError), draw.saved(c):
        raise ValueError("drawing went wrong")
    assert c.calls == [("save",), ("restore",)]


def test_colour_tint_and_shade() -> None:
    assert _rgb(draw.colour("#ff8000")) == _rgb(Color(1, 128 / 255, 0))
    assert _rgb(draw.tint("#ff8000", 0)) == _rgb(draw.colour("#ff8000"))
    assert _rgb(draw.tint("#ff8000", 1)) == (1, 1, 1)
    assert _rgb(draw.tint("#000000", 0.25)) == (0.25, 0.25, 0.25)
    assert _rgb(draw.shade("#ff8000", 0)) == _rgb(draw.colour("#ff8000"))
    assert _rgb(draw.shade("#ff8000", 1)) == (0, 0, 0)
    assert _rgb(draw.shade("#ffffff", 0.25)) == (0.75, 0.75, 0.75)


def test_fill_bleed_covers_trim_and_bleed() -> None:
    c = Recorder()
    fill = draw.colour("#123456")
    draw.fill_bleed(c, FACE, fill)
    assert c.calls == [("fill", fill), ("rect", -8.5, -8.5, 197.0, 269.0, 0, 1)]


def test_fit_text_keeps_a_short_text_and_shrinks_a_long_one() -> None:
    regular, _ = draw.fonts()
    c = Canvas(io.BytesIO())
    assert draw.fit_text(c, "Go", regular, 10, 100) == 10
    text = "ADDITIONAL POINT, AND THEN SOME"
    size = draw.fit_text(c, text, regular, 10, 60)
    assert size < 10
    assert c.stringWidth(text, regular, size) == pytest.approx(60)

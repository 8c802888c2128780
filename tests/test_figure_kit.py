"""The SVG figure kit (rulepress.plugin): widths from the bundled TTF, letters placed one by one."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from rulepress.figure import advances
from rulepress.plugin import Lettering, Marks, text_width


def test_widths_are_the_bundled_carlitos() -> None:
    regular, bold = advances(), advances(bold=True)
    # Carlito is metric-compatible with Calibri: every digit 1038/2048 em, in both weights.
    assert {regular[d] for d in "0123456789"} == {bold[d] for d in "0123456789"} == {1038 / 2048}
    assert round(bold["A"], 3) == 0.606 and round(regular["m"], 3) == 0.799
    assert bold["m"] > regular["m"]
    assert text_width("10", 12) == 2 * 1038 / 2048 * 12


def test_lettering_places_each_letter_and_centres_a_run() -> None:
    lettering = Lettering(10, bold=True)
    width = lettering.add(50, 20, "A B", centre=True)
    assert width == text_width("A B", 10, bold=True)
    root = ET.fromstring(lettering.svg('font-size="10"'))
    assert root.text == "AB"  # a space only moves on
    xs = [float(x) for x in root.get("x", "").split()]
    assert xs[0] == round(50 - width / 2, 1)
    assert abs(xs[1] - (50 + width / 2 - advances(True)["B"] * 10)) < 0.06
    assert root.get("y") == "20.0 20.0"


def test_marks_of_a_kind_are_one_path_in_the_styles_order() -> None:
    marks = Marks()
    marks.path("b", "M0,0h1")
    marks.path("a", "M1,1h1")
    marks.path("b", "M2,2h1")
    assert marks.elements({"a": 'fill="red"', "b": 'fill="blue"', "c": ""}) == [
        '<path d="M1,1h1" fill="red"/>', '<path d="M0,0h1 M2,2h1" fill="blue"/>']

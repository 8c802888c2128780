"""Pigeon colours and patterns, shared by the diagrams and the print-and-play drawers.

Colour alone does not survive a greyscale printer, so every pigeon also has its own pattern.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PigeonStyle:
    number: int
    name: str  # a colour word for the rules text ("the red pigeon")
    fill: str  # hex colour
    ink: str  # text colour readable on the fill
    pattern: str  # one of PATTERNS


PATTERNS = ("plain", "stripes", "dots", "checks", "diagonal", "rings")

PIGEON_STYLES: dict[int, PigeonStyle] = {
    1: PigeonStyle(1, "red", "#d7263d", "#ffffff", "plain"),
    2: PigeonStyle(2, "orange", "#f08a24", "#1b1b1b", "stripes"),
    3: PigeonStyle(3, "yellow", "#f4d03f", "#1b1b1b", "dots"),
    4: PigeonStyle(4, "green", "#2e9e5b", "#ffffff", "checks"),
    5: PigeonStyle(5, "blue", "#2d6cdf", "#ffffff", "diagonal"),
    6: PigeonStyle(6, "purple", "#7b3fa0", "#ffffff", "rings"),
}

INK = "#1f2430"
PAPER = "#fbf8f1"
TRACK = "#e9f1e4"
TRACK_ALT = "#dde9d6"
LINE = "#8c9a86"
START_COLOUR = "#3b7d3b"
FINISH_COLOUR = "#b23a48"

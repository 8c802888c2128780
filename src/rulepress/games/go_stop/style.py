"""Colours and labels shared by the diagrams and the print-and-play faces.

Each value class has a colour band of its own lightness (so greyscale prints still sort) and a
word, so nothing depends on colour alone.
"""

from __future__ import annotations

INK = "#1f1d1a"
PAPER = "#fbf7ee"
LINE = "#8a8275"

# class -> (band colour, text colour on the band, word)
CLASS_STYLE: dict[str, tuple[str, str, str]] = {
    "A": ("#e3b21b", INK, "bright"),
    "B": ("#9e2a2b", "#ffffff", "animal"),
    "C": ("#3d6fb6", "#ffffff", "ribbon"),
    "D": ("#c9d6b8", INK, "junk"),
}

# Month motif colours: (main, accent)
MONTH_COLOURS: tuple[tuple[str, str], ...] = (
    ("#2f6b3a", "#c8412f"),  # 1 pine, red sun
    ("#7b3f61", "#e9a3c1"),  # 2 plum blossom
    ("#c9557a", "#f3c4d3"),  # 3 cherry
    ("#6a4c93", "#b9a2d8"),  # 4 wisteria
    ("#3b4fa0", "#86a6e0"),  # 5 iris
    ("#b8325a", "#f08aa8"),  # 6 peony
    ("#8a3d6e", "#d98bb8"),  # 7 bush clover
    ("#5d6b3a", "#f1e3a0"),  # 8 pampas and moon
    ("#c98a12", "#f4cf5f"),  # 9 chrysanthemum
    ("#b23a1e", "#e8793f"),  # 10 maple
    ("#3f6b45", "#9b7fc0"),  # 11 paulownia
    ("#3e5a68", "#8fb0bd"),  # 12 willow in rain
)

PLAYER_STYLES: tuple[tuple[str, str], ...] = (
    ("#c0392b", "circle"),  # player 1
    ("#2e86c1", "square"),  # player 2
    ("#e0a800", "triangle"),  # player 3
)

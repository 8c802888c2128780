"""What a component drawer receives. Drawers draw one face; the sheet engine places it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Face:
    """One face to draw, in PDF points.

    The canvas origin is the bottom-left corner of the trim box; the trim box spans
    (0, 0)-(width, height). Artwork must fill the bleed, out to (-bleed, -bleed)-(width + bleed,
    height + bleed); text and symbols belong inside ``safe`` of the trim edge.

    A back shared by every copy (``back_varies: false``) is drawn once, with index 0, into a
    PDF form that the sheet engine places behind each front.
    """

    index: int  # 0-based: which copy of the component (card 0 to 51 of a deck)
    count: int  # how many copies the component declares
    width: float
    height: float
    bleed: float
    back: bool = False  # True when drawing the reverse side
    # The kit is printed with --ink low: the canvas already lightens fills and lines, and a
    # drawer may also leave out what only decorates (the paper shows instead).
    low_ink: bool = False

    @property
    def safe(self) -> float:
        return 8.5  # 3 mm in points

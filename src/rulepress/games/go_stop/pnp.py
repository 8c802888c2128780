"""Print-and-play faces for Go-Stop (placeholder while the art is drawn)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulepress.games.base import Drawer

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from rulepress.pnp.api import Face


def _blank(canvas: Canvas, face: Face) -> None:
    canvas.saveState()
    canvas.rect(0, 0, face.width, face.height)
    canvas.restoreState()


DRAWERS: dict[str, Drawer] = {
    name: _blank
    for name in (
        "player_card", "card_back", "reserve_card", "point_card", "player_token", "reference_card"
    )
}

"""Print-and-play drawers for a complete piecepack (filled in by the kit step)."""

from __future__ import annotations

from rulepress.games.base import Drawer

DRAWERS: dict[str, Drawer] = {}

"""Print-and-play drawers for Pigeon Race (being written)."""

from __future__ import annotations

from rulepress.games.base import Drawer

DRAWERS: dict[str, Drawer] = {}

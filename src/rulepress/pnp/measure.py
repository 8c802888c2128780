"""The kits' part of the check: each game's kit drawn and measured (in the engine's worker)."""

from __future__ import annotations

from collections.abc import Mapping

from rulepress.diagnostics import Diagnostic
from rulepress.document.model import Document
from rulepress.document.numbers import Tables
from rulepress.games.base import Drawer
from rulepress.validate.hooks import KitHook


def measured(doc: Document, drawers: Mapping[str, Drawer],
             tables: Tables | None) -> list[Diagnostic]:
    # Imported in the worker, while the check goes on: ReportLab is a slow import.
    from rulepress.pnp.kit import kit_diagnostics

    return kit_diagnostics(doc, drawers, tables)


KIT = KitHook("kit", measured)

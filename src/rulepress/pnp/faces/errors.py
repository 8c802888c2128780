"""The one error a layout, its data or its drawing raises: a diagnostic at a file:line."""

from __future__ import annotations

from rulepress.diagnostics import RulepressError, SourceLoc, error


class LayoutError(RulepressError):
    def __init__(self, loc: SourceLoc | None, message: str) -> None:
        super().__init__([error(loc, message)])

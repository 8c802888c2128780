"""A printing's changelog told what changed since an older one (build --changelog-since)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rulepress.diagnostics import SourceLoc
from rulepress.document.model import Document, Version


def with_changes(doc: Document, since: str, lines: Sequence[str]) -> Document:
    """``doc`` with ``lines`` under its newest version in the changelog (one is made, named by
    the game's version, if it lists none)."""
    meta = doc.meta
    latest = meta.versions[-1] if meta.versions else Version(
        meta.version or "(this printing)", f"Changes since {since}:", SourceLoc(doc.path, 1),
        meta.date)
    latest = replace(latest, changes=tuple(lines))
    return replace(doc, meta=replace(meta, versions=(*meta.versions[:-1], latest)))

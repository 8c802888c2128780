"""Every distinct face of a game's printed components, drawn alone, to compare two printings.

A face is a side of one data row (a layout drawn from data), of one copy (an engine's drawer,
which draws by copy) or the one face every copy shares. Each is drawn on a page of its own, at
its trim size, without bleed and without the version stamp (a face that changed only in its
stamp has not changed). Engine drawers run in a worker, within the engine's budget, as in a kit.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from functools import partial

from rulepress.diagnostics import Diagnostic, RulepressError
from rulepress.document.model import Component, Document, Row
from rulepress.games import contract
from rulepress.games.base import Drawer
from rulepress.host import EngineJob, engine_jobs
from rulepress.pnp.api import Face
from rulepress.pnp.faces import SHARED, Art, is_layout
from rulepress.pnp.fonts import register_fonts
from rulepress.pnp.ink import KitCanvas
from rulepress.pnp.kit import side_drawer
from rulepress.validate.check import DocumentCheck

FaceId = tuple[str, bool, int]  # component id, back?, row or copy index (SHARED: every copy)


@dataclass(frozen=True)
class Drawn:
    """A face drawn alone: the digest it is compared by and, when asked for, a one-page PDF."""

    digest: str
    label: str  # 'row 3 (RESERVE)', 'copy 7', 'every copy'
    pdf: bytes = b""


class _Digesting(KitCanvas):
    """A canvas that keeps the drawing operators of its page and of every form it makes: what
    a face's digest is taken of, without writing a PDF (which costs more than the drawing).
    Fonts, images and forms are named in those operators by their content, so a changed
    image or glyph changes them too."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.forms: list[str] = []

    def endForm(self, **extra: object) -> None:  # noqa: N802 - ReportLab's name
        self.forms.append("\n".join(self._code))
        super().endForm(**extra)

    def digest(self) -> str:
        return hashlib.sha256("\n\0".join([*self.forms, *self._code]).encode()).hexdigest()


def unstamped(doc: Document) -> Document:
    """``doc`` without its version and date: what a face shows of them is not a change."""
    return replace(doc, meta=replace(doc.meta, version="", date=""))


def draw_faces(doc: Document, drawers: Mapping[str, Drawer], tables: Mapping[str, object],
               pdfs: Collection[FaceId] = ()) -> dict[FaceId, Drawn]:
    """Every distinct face of every printed component of ``doc``; those in ``pdfs`` also as a
    one-page PDF each (to show them)."""
    register_fonts()
    doc = unstamped(doc)
    art = Art(doc, tables)  # type: ignore[arg-type]
    problems: list[Diagnostic] = []
    out: dict[FaceId, Drawn] = {}
    for comp in doc.meta.components:
        if not comp.in_kit or comp.size is None:
            continue
        for back in (False, True) if comp.back else (False,):
            drawer = side_drawer(comp, back, drawers, art, problems)
            if drawer is None:
                continue
            name = comp.back if back else comp.front
            assert name is not None
            for index, label in _distinct(comp, back, art, is_layout(name)):
                key = (comp.id, back, index)
                out[key] = _draw(comp, back, index, label, art, drawer, is_layout(name),
                                 key in pdfs)
    if problems:
        raise RulepressError(problems)
    return out


def _distinct(comp: Component, back: bool, art: Art, layout: bool) -> list[tuple[int, str]]:
    if back and not comp.back_varies:
        return [(SHARED, "every copy")]
    if layout:
        rows = art.side(comp, back).rows
        if not rows:
            return [(SHARED, "every copy")]
        return [(i, row_label(i, row)) for i, row in enumerate(rows)]
    return [(i, f"copy {i + 1}") for i in range(comp.count)]


def row_label(index: int, row: Row) -> str:
    """'row 3 (RESERVE)': its number and its first text field, as a player would name it."""
    named = next((str(v) for k, v in row.fields.items() if isinstance(v, str) and v.strip()
                  and not str(v).startswith("#")), "")
    return f"row {index + 1}" + (f" ({named[:40]})" if named else "")


def _draw(comp: Component, back: bool, index: int, label: str, art: Art, drawer: Drawer,
          layout: bool, pdf: bool) -> Drawn:
    assert comp.size is not None
    w, h = comp.size.points
    buf = io.BytesIO()
    c = _Digesting(buf, pagesize=(w, h), invariant=1, pageCompression=1)
    face = Face(max(index, 0), comp.count, w, h, 0.0, back=back)
    if layout:
        art.side(comp, back).paint(c, face, index)
    else:
        drawer(c, face)
    digest = c.digest()
    if pdf:
        c.showPage()
        c.save()
    return Drawn(digest, label, buf.getvalue() if pdf else b"")


def faces_of(results: list[DocumentCheck],
             pdfs: Collection[FaceId] = ()) -> list[dict[FaceId, Drawn]]:
    """Each checked game's faces, drawn in a worker when its engine draws (as a kit is); those
    in ``pdfs`` as PDFs too."""

    def drawn(result: DocumentCheck) -> dict[FaceId, Drawn]:
        engine = result.engine
        return draw_faces(result.doc, contract.drawers(engine), contract.tables(engine), pdfs)

    found = engine_jobs([EngineJob(partial(drawn, result), result.engine, "drawing its faces",
                                   result.doc.meta.engine_loc) for result in results],
                        count=2)  # two games (both printings) at once
    problems = [d for value in found if isinstance(value, list) for d in value]
    if problems:
        raise RulepressError(problems)
    return [value for value in found if not isinstance(value, list)]


def png(pdf: bytes, scale: float = 2.0) -> bytes:
    """A face's drawing as a PNG, ``scale`` pixels a point (for the errata sheet)."""
    try:  # in requirements.lock; an environment of your own may lack it
        import pypdfium2
    except ImportError:
        raise RulepressError.at(None, "drawing the changed faces on the errata sheet needs "
                                      "pypdfium2: pip install pypdfium2") from None

    document = pypdfium2.PdfDocument(pdf)
    try:
        image = document[0].render(scale=scale).to_pil()
        out = io.BytesIO()
        image.save(out, format="PNG", optimize=True)
        return out.getvalue()
    finally:
        document.close()

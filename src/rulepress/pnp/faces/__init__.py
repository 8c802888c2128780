"""Faces from data: a component whose ``front`` or ``back`` names a layout file is drawn by
rulepress itself, one distinct face per data row, with no Python.

A layout's text may use the row's fields, the rulebook's sections (``rules.section(...)``) and
the engine's tables (``tables.scores``), so the rules a part prints are stated only once.
Each distinct face is drawn once per PDF, into a form every copy places.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from rulepress.diagnostics import Diagnostic, RulepressError, SourceLoc, error
from rulepress.document.model import Component, Document, Row
from rulepress.document.rows import QTY, copies, field_problem, qty_problem
from rulepress.document.schema import is_layout
from rulepress.games.base import Drawer
from rulepress.i18n.engine import (
    translated_tables,  # Babel comes with it: a translation's alone
)
from rulepress.pnp.api import Face
from rulepress.pnp.faces.elements import Layout, compile_layout
from rulepress.pnp.faces.layoutfile import read_layout
from rulepress.pnp.faces.paint import Painter
from rulepress.pnp.faces.rulebook import RuleBook
from rulepress.pnp.faces.text import game_font
from rulepress.suggest import suggest

Tables = Mapping[str, Sequence[Mapping[str, Any]]]
SHARED = -1  # the key of the one face every copy shows (no data, or a shared back)


def _where(row: Row) -> str:
    return f" (in the row at {row.loc.path}:{row.loc.line})"


_ROW = re.compile(r" \(in the row at (.+?):(\d+)\)")


def merged(found: Sequence[Diagnostic]) -> list[Diagnostic]:
    """One diagnostic per mistake: the same message at the same place for many rows of one
    file is said once, naming the rows (``cards.csv:2–17``)."""
    groups: dict[tuple[Any, ...], list[int]] = {}
    firsts: dict[tuple[Any, ...], Diagnostic] = {}
    for d in found:
        m = _ROW.search(d.message)
        key: tuple[Any, ...] = (d.severity, d.loc, d.message)
        if m:
            key = (d.severity, d.loc, d.message[:m.start()], m[1], d.message[m.end():])
        firsts.setdefault(key, d)
        groups.setdefault(key, []).extend([int(m[2])] if m else [])
    out = []
    for key, d in firsts.items():
        lines = sorted(set(groups[key]))
        if len(lines) > 1:
            rows = f" (in the rows at {key[3]}:{_spans(lines)})"
            d = replace(d, message=f"{key[2]}{rows}{key[4]}")
        out.append(d)
    return out


def _spans(lines: list[int]) -> str:
    """[2, 3, 4, 7] as '2–4, 7'."""
    spans: list[list[int]] = []
    for n in lines:
        if spans and n == spans[-1][1] + 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    return ", ".join(f"{a}–{b}" if b > a else str(a) for a, b in spans)


@dataclass
class Side:
    """One side (front or back) of one component drawn from a layout."""

    comp: Component
    back: bool
    layout: Layout
    rows: tuple[Row, ...]  # empty: every copy shows one face
    art: Art

    def __post_init__(self) -> None:
        self.owners = copies(self.rows)

    def key(self, index: int) -> int:
        return self.owners[index] if self.rows else SHARED

    def distinct(self) -> list[int]:
        return list(range(len(self.rows))) if self.rows else [SHARED]

    def context(self, key: int) -> tuple[dict[str, Any], str]:
        base = self.art.context(self.comp)
        if key == SHARED:
            return base, ""
        row = self.rows[key]
        return {**row.fields, **base, "row": row.fields}, _where(row)

    def paint(self, c: Canvas, face: Face, key: int) -> None:
        ctx, where = self.context(key)
        Painter(c, self.layout, face, self.art.doc.folder, ctx, where).paint()

    def draw(self, c: Canvas, face: Face) -> None:
        """The kit's drawer: each distinct face drawn once into a form, then placed."""
        key = self.key(face.index)
        side = "back" if self.back else "front"
        name = f"rpFace_{self.comp.id.replace('-', '_')}_{side}_{key + 1}"
        if not c.hasForm(name):
            b = face.bleed
            c.beginForm(name, -b, -b, face.width + b, face.height + b)
            self.paint(c, face, key)
            c.endForm()
        c.doForm(name)


class Art:
    """The layout-drawn sides of one document's components, with what their text may use."""

    def __init__(self, doc: Document, tables: Tables) -> None:
        if doc.language is not None:  # the engine's words in its tables ("1st") translated

            tables = translated_tables(tables, doc.language, doc.folder)
        self.doc, self.tables = doc, tables
        self.rulebook = RuleBook(doc, tables)
        self._sides: dict[tuple[str, bool], Side] = {}
        self._fonts: dict[str, str] | None = None

    def fonts(self) -> dict[str, str]:
        """The game's own fonts, registered on first use: family -> key among text.FONTS."""
        if self._fonts is None:
            self._fonts = {f.family: game_font(f) for f in self.doc.meta.fonts}
        return self._fonts

    def context(self, comp: Component) -> dict[str, Any]:
        meta = self.doc.meta
        return {
            "game": {"title": meta.title, "subtitle": meta.subtitle, "players": meta.players,
                     "min_players": meta.players_min, "max_players": meta.players_max,
                     "duration": meta.duration, "ages": meta.ages, "designer": meta.designer,
                     "version": meta.version, "date": meta.date},
            "component": {"id": comp.id, "name": comp.name, "count": comp.count},
            "rules": self.rulebook,
            "tables": self.tables,
        }

    def drawer(self, comp: Component, back: bool) -> Drawer:
        """The drawer of a layout side; RulepressError with every problem of its files."""
        return self.side(comp, back).draw

    def side(self, comp: Component, back: bool) -> Side:
        key = (comp.id, back)
        if key not in self._sides:
            name = comp.back if back else comp.front
            assert name is not None and comp.size is not None
            loc = comp.keys.get("back" if back else "front", comp.loc)
            raw = read_layout(self.doc.folder, name, loc)
            if self.doc.language is not None:
                from rulepress.i18n.apply import (  # Babel: a translation's alone
                    translate_layout,  # Babel comes with it: a translation's alone
                )

                translate_layout(raw, self.doc.language)
            layout = compile_layout(raw, comp.size.width, comp.size.height, self.fonts())
            shared = back and not comp.back_varies
            rows = () if shared else self.rows(comp)
            self._sides[key] = Side(comp, back, layout, rows, self)
        return self._sides[key]

    def rows(self, comp: Component) -> tuple[Row, ...]:
        data = comp.data
        if data is None:
            return ()
        if data.engine is None:
            return data.rows
        loc = data.loc
        if data.engine not in self.tables:
            offered = ", ".join(sorted(self.tables)) or "none"
            hint = suggest(data.engine, list(self.tables))
            raise RulepressError.at(loc, f"component '{comp.id}': the engine has no table "
                                         f"'{data.engine}'{hint} (its tables: {offered})")
        rows = _engine_rows(comp, data.engine, self.tables[data.engine], loc)
        made = sum(r.qty for r in rows)
        if comp.count and made != comp.count:  # 0: no count given, the table's copies
            raise RulepressError.at(comp.keys.get("count", comp.loc),
                                    f"component '{comp.id}': count is {comp.count} but the "
                                    f"engine's table '{data.engine}' makes {made} copies")
        return rows

    def sides(self) -> list[tuple[Component, bool]]:
        return [(c, back) for c in self.doc.meta.components
                for back, name in ((False, c.front), (True, c.back))
                if name is not None and is_layout(name)]

    def proofread(self) -> list[Diagnostic]:
        """Every distinct face of every layout drawn on a scratch canvas: what a kit would hit
        (a missing field, a text that cannot fit, a bad image) is found by ``check``."""
        found: list[Diagnostic] = []
        scratch = Canvas(io.BytesIO())
        for comp, back in self.sides():
            try:
                side = self.side(comp, back)
            except RulepressError as exc:
                found += [d for d in exc.diagnostics if d not in found]
                continue
            found += [n for n in side.layout.notes if n not in found]
            assert comp.size is not None
            w, h = comp.size.points
            for key in side.distinct():
                face = Face(0, comp.count, w, h, 8.5, back=back)
                try:
                    side.paint(scratch, face, key)
                except RulepressError as exc:
                    found += [d for d in exc.diagnostics if d not in found]
        return merged(found)


def _engine_rows(comp: Component, name: str, table: Sequence[Mapping[str, Any]],
                 loc: SourceLoc) -> tuple[Row, ...]:
    rows = []
    for n, entry in enumerate(table, 1):
        fields = {str(k): v for k, v in entry.items() if k != QTY}
        bad = [p for k in fields if (p := field_problem(k))]
        if bad:
            raise RulepressError([error(loc, f"the engine's table '{name}': {p}") for p in bad])
        qty = entry.get(QTY, 1)
        problem = qty_problem(qty)
        if problem:
            raise RulepressError.at(loc, f"the engine's table '{name}', row {n}: {problem}")
        rows.append(Row(fields, int(str(qty).strip()), loc))
    if not rows:
        raise RulepressError.at(loc, f"component '{comp.id}': the engine's table '{name}' is "
                                     "empty")
    return tuple(rows)


__all__ = ["Art", "Side", "Tables", "is_layout"]

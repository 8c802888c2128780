"""Print-and-play kits: one PDF per game and paper, from the components a source declares.

Page order (always front/back pairs, so the whole kit prints double-sided in one go):
cover, its blank back; the printer check, its back (the duplex target); then for each printed
component in declaration order, each sheet of fronts followed by its backs or a blank page.

Page boxes: on a sheet of components the TrimBox is the union of the trims on it and the
BleedBox the union of the artwork as clipped (trims plus outer bleed); on the cover, the
printer check and blank pages both are the whole page (nothing there is cut).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from reportlab import rl_config
from reportlab.pdfgen.canvas import Canvas

from rulepress.diagnostics import Diagnostic, RulepressError, disproved, error
from rulepress.document.model import Component, Document
from rulepress.games.base import Drawer
from rulepress.limits import MAX_SHEETS_PER_COMPONENT
from rulepress.pnp import layout, marks, pages
from rulepress.pnp.api import Face
from rulepress.pnp.draw import saved
from rulepress.pnp.faces import Art, Tables, is_layout
from rulepress.pnp.faces.layoutfile import did_you_mean
from rulepress.pnp.fonts import register_fonts
from rulepress.pnp.layout import Paper, Plan, Sheet, Slot
from rulepress.units import mm

DEFAULT_BLEED_MM = 3.0


@dataclass(frozen=True)
class Kit:
    slug: str
    paper: str
    pdf: bytes
    pages: int
    drawn: Mapping[str, int]  # component id -> distinct fronts drawn
    backs: Mapping[str, int] = field(default_factory=dict)  # component id -> backs placed


@dataclass(frozen=True)
class _Job:
    component: Component
    plan: Plan
    front: Drawer
    back: Drawer | None


def side_drawer(
    comp: Component, back: bool, drawers: Mapping[str, Drawer], art: Art, out: list[Diagnostic]
) -> Drawer | None:
    """The drawer of one side: a layout file drawn by rulepress, or a drawer of the engine."""
    name, what = (comp.back, "back") if back else (comp.front, "front")
    assert name is not None
    if is_layout(name):
        try:
            return art.drawer(comp, back)
        except RulepressError as exc:
            out += [d for d in exc.diagnostics if d not in out]
            return None
    if name in drawers:
        return drawers[name]
    engine = art.doc.meta.engine
    offered = (f"its engine '{engine}' offers {', '.join(sorted(drawers)) or 'none'}"
               if engine else "this game names no engine")
    out.append(error(comp.keys.get(what, comp.loc), (
        f"component '{comp.id}': no {what} drawer '{name}'{did_you_mean(name, list(drawers))}. "
        f"Drawers are Python code a game's engine provides ({offered}); to draw it without "
        f"code, name a layout file instead, e.g. `{what}: layouts/{comp.id}.yml`")))
    return None


def plan_component(comp: Component, p: Paper, bleed: float) -> Plan:
    """Impose one printed component on a paper; RulepressError at its line if it cannot be."""
    if comp.size is None:
        raise RulepressError.at(comp.loc, f"component '{comp.id}' is printed but has no size")
    w, h = comp.size.points
    try:
        plan = layout.grid_plan(p, w, h, bleed, comp.count)
        _within_limit(comp, p, len(plan.sheets))
        return plan
    except layout.DoesNotFit as exc:
        room = exc
    if not comp.tileable:
        raise RulepressError.at(
            comp.loc,
            f"component '{comp.id}' ({comp.size}) does not fit on {p.label} paper ({room} inside "
            "the printable margin with bleed and crop marks); declare it `tileable: true` to "
            "split it over several sheets, or make it smaller",
        )
    if comp.back is not None:
        raise RulepressError.at(
            comp.loc,
            f"component '{comp.id}' must be tiled on {p.label} paper, and a tiled board "
            "cannot have a back: remove `back` or make it smaller",
        )
    try:
        one = layout.tile_plan(p, w, h, bleed, 1)  # the sheets of one copy, counted first
        _within_limit(comp, p, len(one.sheets) * comp.count)
        return layout.tile_plan(p, w, h, bleed, comp.count)
    except layout.DoesNotFit as exc:
        raise RulepressError.at(comp.loc, f"component '{comp.id}' cannot be tiled: {exc}") from None


def _within_limit(comp: Component, p: Paper, sheets: int) -> None:
    if sheets > MAX_SHEETS_PER_COMPONENT:
        raise TooManySheets([error(
            comp.loc, f"component '{comp.id}' needs {sheets} sheets of {p.label} paper, more "
            f"than the limit of {MAX_SHEETS_PER_COMPONENT}")])


class TooManySheets(RulepressError):
    """A kit past the sheet limit: bad input, not a count the check may disagree with."""


def _jobs(
    doc: Document, drawers: Mapping[str, Drawer], p: Paper, bleed: float, tables: Tables | None
) -> list[_Job]:
    """Every printed component planned; all problems reported together."""
    problems: list[Diagnostic] = []
    jobs = []
    art = Art(doc, tables or {})
    for comp in doc.meta.components:
        if comp.front is None:
            continue
        front = side_drawer(comp, False, drawers, art, problems)
        back = side_drawer(comp, True, drawers, art, problems) if comp.back else None
        try:
            plan = plan_component(comp, p, bleed)
        except TooManySheets:
            raise
        except RulepressError as exc:
            problems += exc.diagnostics
            continue
        if front is not None and (back is not None or comp.back is None):
            jobs.append(_Job(comp, plan, front, back))
    if problems:
        raise RulepressError(problems)
    return jobs


def count_drawn(
    doc: Document,
    drawers: Mapping[str, Drawer],
    papers: Sequence[str] = ("a4", "letter"),
    *,
    bleed_mm: float = DEFAULT_BLEED_MM,
    tables: Tables | None = None,
) -> dict[str, int]:
    """How many copies of each printed component the kit draws (the fewest over the papers).

    Cheap: plans the sheets without drawing. Raises RulepressError as build_kit would.
    """
    counts: dict[str, int] = {}
    for key in papers:
        for job in _jobs(doc, drawers, layout.paper(key), mm(bleed_mm), tables):
            n = job.plan.drawn()
            counts[job.component.id] = min(n, counts.get(job.component.id, n))
    return counts


def kit_diagnostics(
    doc: Document, drawers: Mapping[str, Drawer], tables: Tables | None = None
) -> list[Diagnostic]:
    """For ``rulepress check``: a printed component drawn a different number of times than
    declared, in the kit or in any size variant's kit, is an error at its declaration; so is
    every problem of a layout or its data, found by drawing each distinct face once."""
    found: list[Diagnostic] = []
    for variant, version in versions(doc):
        kit = f" ({variant} kit)" if variant else ""
        try:
            drawn = count_drawn(version, drawers, tables=tables)
        except TooManySheets:
            raise
        except RulepressError as exc:
            found += [d for d in exc.diagnostics if d not in found]
            continue
        found += [d for d in Art(version, tables or {}).proofread() if d not in found]
        found += [
            disproved(c.loc, f"the kit{kit} draws {drawn.get(c.id, 0)} of '{c.id}' but the "
                             f"source declares {c.count}")
            for c in version.meta.components
            if c.in_kit and drawn.get(c.id, 0) != c.count
        ]
    return found


class _Renderer:
    def __init__(self, doc: Document, p: Paper, duplex: str, bleed: float) -> None:
        self.doc, self.p, self.duplex, self.bleed = doc, p, duplex, bleed
        self.buf = io.BytesIO()
        c = Canvas(self.buf, pagesize=(p.width, p.height), invariant=1, pageCompression=1)
        c.setTitle(f"{doc.meta.title}: print-and-play kit ({p.label})")
        c.setAuthor(doc.meta.designer)
        c.setSubject("Print-and-play kit")
        c.setCreator("rulepress")
        c.setKeywords(f"print-and-play, {p.key}")
        self.c = c
        self.pages = 0
        self.drawn: dict[str, set[int]] = {}
        self.backs: dict[str, int] = {}

    def page(self, trim: layout.Rect | None = None, bleed: layout.Rect | None = None) -> None:
        whole = (0.0, 0.0, self.p.width, self.p.height)
        marks.set_boxes(self.c, trim or whole, bleed or whole)
        self.c.showPage()
        self.pages += 1

    def footer(self, left: str, *, back: bool = False) -> None:
        """The sheet's footer; a short-edge back mirrors the band to the top of the page."""
        marks.footer(self.c, self.p, left, self.p.label, top=back and self.duplex == "short")

    def blank(self, text: str, footer: str) -> None:
        pages.blank(self.c, self.p, text)
        self.footer(footer, back=True)
        self.page()

    def face(self, slot: Slot, draw: Callable[..., None], *args: object) -> None:
        c = self.c
        with saved(c):
            x0, y0, x1, y1 = slot.clip
            # The clip as literal text: same operators as clipPath, without ReportLab's slow
            # per-number formatting (the face's artwork is cut to its bleed here).
            c.addLiteral(f"{x0:.3f} {y0:.3f} {x1 - x0:.3f} {y1 - y0:.3f} re W n")
            c.transform(*slot.transform)
            draw(*args)

    def component(self, job: _Job) -> None:
        comp, plan, c = job.component, job.plan, self.c
        w, h = comp.size.points if comp.size else (0.0, 0.0)
        title, n = self.doc.meta.title, len(plan.sheets)
        form = None
        for k, sheet in enumerate(plan.sheets, 1):
            label = f" \u00b7 tile {sheet.slots[0].label}" if plan.tiled else ""
            several = plan.tiled and comp.count > 1
            copies = f" \u00b7 copy {sheet.slots[0].index + 1}" if several else ""
            where = f"sheet {k} of {n}"
            for slot in sheet.slots:
                face = Face(slot.index, comp.count, w, h, self.bleed)
                self.face(slot, job.front, c, face)
                self.drawn.setdefault(comp.id, set()).add(slot.index)
            marks.glue_strips(c, sheet.glue)
            marks.crop_marks(c, sheet.marks)
            left = f"{title} \u00b7 {comp.name} \u00b7 fronts{label}{copies} \u00b7 {where}"
            self.footer(left)
            if plan.tiled:
                cols, rows = plan.tiles
                cell = mm(2.8)
                x = (self.p.width - cols * cell) / 2 + mm(30)
                marks.tile_map(c, x, layout.MARGIN + mm(0.6), cols, rows, cell,
                               sheet.slots[0].label)
            self.page(sheet.trim_box, sheet.bleed_box)
            if job.back is None:
                self.blank("(back of the previous sheet: intentionally blank)",
                           f"{title} \u00b7 {comp.name} \u00b7 blank back \u00b7 {where}")
                continue
            if form is None and not comp.back_varies:
                form = self._form(comp, job.back, w, h)
            self.back_sheet(job, sheet.flipped(self.p, self.duplex, w), form, w, h, where)

    def _form(self, comp: Component, drawer: Drawer, w: float, h: float) -> str:
        """The shared back, drawn once into a form and placed by reference."""
        name = f"rpBack_{comp.id.replace('-', '_')}"
        b = self.bleed
        self.c.beginForm(name, -b, -b, w + b, h + b)
        drawer(self.c, Face(0, comp.count, w, h, b, back=True))
        self.c.endForm()
        return name

    def back_sheet(
        self, job: _Job, sheet: Sheet, form: str | None, w: float, h: float, where: str
    ) -> None:
        comp, c, back = job.component, self.c, job.back
        assert back is not None
        for slot in sheet.slots:
            if form is not None:
                self.face(slot, c.doForm, form)
            else:
                face = Face(slot.index, comp.count, w, h, self.bleed, back=True)
                self.face(slot, back, c, face)
            self.backs[comp.id] = self.backs.get(comp.id, 0) + 1
        marks.crop_marks(c, sheet.marks)
        left = f"{self.doc.meta.title} \u00b7 {comp.name} \u00b7 backs \u00b7 {where}"
        self.footer(left, back=True)
        self.page(sheet.trim_box, sheet.bleed_box)


def build_kit(
    doc: Document,
    drawers: Mapping[str, Drawer],
    paper: str,
    *,
    bleed_mm: float = DEFAULT_BLEED_MM,
    duplex: str = "long",
    tables: Tables | None = None,
) -> Kit:
    """Draw one game's kit on one paper ("a4" or "letter"); duplex is "long" or "short"."""
    p = layout.paper(paper)
    layout.sheet_flip(p, duplex)  # rejects an unknown edge before any work
    if bleed_mm < 0:
        raise ValueError("bleed cannot be negative")
    bleed = mm(bleed_mm)
    jobs = _jobs(doc, drawers, p, bleed, tables)
    register_fonts()
    with _binary_streams():
        return _render(doc, jobs, p, duplex, bleed)


@contextmanager
def _binary_streams() -> Iterator[None]:
    """Flate-only streams: ASCII85 on top makes files 25% larger and slower to write.

    ReportLab reads this switch from its global config when it serialises; restored after.
    """
    saved = rl_config.useA85
    rl_config.useA85 = 0
    try:
        yield
    finally:
        rl_config.useA85 = saved


def _render(doc: Document, jobs: list[_Job], p: Paper, duplex: str, bleed: float) -> Kit:
    r = _Renderer(doc, p, duplex, bleed)
    planned = {j.component.id: j.plan for j in jobs}
    entries = [pages.Entry(comp, planned.get(comp.id)) for comp in doc.meta.components]
    title = doc.meta.title
    cover_footer = f"{title} \u00b7 print-and-play kit \u00b7 cover"

    def turn() -> None:
        r.footer(cover_footer)
        r.page()

    pages.cover(r.c, doc, p, entries, duplex, turn)
    turn()
    if r.pages % 2:  # keep every later sheet's front on an odd page
        r.blank("(back of the cover: intentionally blank)", f"{title} \u00b7 back of the cover")
    pages.calibration(r.c, doc, p)
    r.footer(f"{title} \u00b7 printer check")
    r.page()
    pages.calibration_back(r.c, p, duplex)
    r.footer(f"{title} \u00b7 printer check, back", back=True)
    r.page()
    for job in jobs:
        r.component(job)
    r.c.save()
    return Kit(
        doc.slug,
        p.key,
        r.buf.getvalue(),
        r.pages,
        {cid: len(ix) for cid, ix in r.drawn.items()},
        dict(r.backs),
    )


def kit_path(out_dir: Path, slug: str, paper: str, variant: str = "") -> Path:
    suffix = f"-{variant}" if variant else ""
    return out_dir / slug / f"{slug}-{paper}{suffix}.pdf"


def variant_names(doc: Document) -> list[str]:
    """Every named size variant the components declare: each makes a kit of its own."""
    return sorted({name for c in doc.meta.components for name in c.variants})


def versions(doc: Document) -> Iterator[tuple[str, Document]]:
    """("", the document), then (name, the document at that size) for each size variant."""
    yield "", doc
    for variant in variant_names(doc):
        yield variant, with_variant(doc, variant)


def with_variant(doc: Document, variant: str) -> Document:
    """The document with each component that has ``variant`` at that size."""
    comps = tuple(
        replace(c, size=c.variants[variant]) if variant in c.variants else c
        for c in doc.meta.components
    )
    return replace(doc, meta=replace(doc.meta, components=comps))


def draw_kits(
    doc: Document,
    drawers: Mapping[str, Drawer],
    papers: Sequence[str],
    out_dir: Path,
    *,
    bleed_mm: float = DEFAULT_BLEED_MM,
    duplex: str = "long",
    tables: Tables | None = None,
) -> dict[Path, bytes]:
    """Every kit of ``doc`` by the path it goes to: out_dir/<slug>/<slug>-<paper>.pdf for each
    paper, and <slug>-<paper>-<variant>.pdf for each size variant. Nothing is written."""
    outputs: dict[Path, bytes] = {}
    for variant, version in versions(doc):
        for key in papers:
            kit = build_kit(version, drawers, key, bleed_mm=bleed_mm, duplex=duplex,
                            tables=tables)
            outputs[kit_path(out_dir, doc.slug, kit.paper, variant)] = kit.pdf
    return outputs

"""Print-and-play kits: one PDF per game and paper, from the components a source declares.

Page order: the cover, with the printer check at its foot (two-sided: its back holds the
duplex target, and the cover's pages come in front/back pairs); then every small piece packed
onto shared sheets (pack.py), sheets with backs first, each followed by its backs, then sheets
with nothing on the back; then the tiles of boards too large for one sheet. Single-sided
(``sides="one"``) prints no backs: a component with a back is printed as gutter-fold pairs.

Page boxes: on a sheet of components the TrimBox is the union of the trims on it and the
BleedBox the union of the artwork as clipped (trims plus outer bleed); on the cover and blank
pages both are the whole page (nothing there is cut).
"""

from __future__ import annotations

import functools
import io
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from reportlab import rl_config
from reportlab.pdfbase import pdfmetrics

from rulepress.diagnostics import Diagnostic, RulepressError, SourceLoc, disproved, error
from rulepress.document.model import Component, Document
from rulepress.games.base import Drawer
from rulepress.i18n.engine import word_translator
from rulepress.limits import MAX_SHEETS_PER_COMPONENT
from rulepress.media import PAPER_KEYS
from rulepress.pnp import layout, marks, pack, pages
from rulepress.pnp.api import Face
from rulepress.pnp.draw import REGULAR, saved
from rulepress.pnp.faces import Art, Tables, is_layout
from rulepress.pnp.fonts import register_fonts
from rulepress.pnp.ink import INKS, KitCanvas, SmallText, speaking
from rulepress.pnp.layout import Paper, Plan, Sheet, Slot
from rulepress.suggest import suggest
from rulepress.units import mm
from rulepress.words import Words
from rulepress.workers import unit

DEFAULT_BLEED_MM = 3.0
STAMP_SIZE = 6.0  # pt: the version stamp, the smallest print a kit allows (ink.MIN_TEXT)
# The stamp's box (its font's ascent to descent) sits in a corner of the safe area, a little
# further in (clear of the frames faces draw between the safe line and the cut): the first
# corner where every front of the component leaves the box and a margin round it blank.
STAMP_INSET = Face(0, 1, 0.0, 0.0, 0.0).safe + mm(0.5)
STAMP_CLEAR = mm(0.5)  # blank room round the stamp's box
STAMP_CORNERS = ("bottom left", "bottom right", "top left", "top right")
_STAMP_DPI = 150
_STAMP_FACES = 64  # fronts looked at, at most, per component


SIDES = ("two", "one")


@dataclass(frozen=True)
class Options:
    """How to print a kit. ``sides``: "two" prints backs on the reverse of their sheet, "one"
    prints fronts only, each component with a back as gutter-fold pairs. ``only``: component
    ids to print (None: all)."""

    sides: str = "two"
    duplex: str = "long"  # the edge the printer flips on (two-sided only)
    ink: str = "normal"  # or "low": outlines and light tints
    only: frozenset[str] | None = None
    bleed_mm: float = DEFAULT_BLEED_MM
    since: str = ""  # a reprint of the faces changed since this printing (pnp --changed-since)
    press: bool = False  # PDF/X-1a for a print shop: opaque CMYK, read back (pnp --press)

    def __post_init__(self) -> None:
        layout.sheet_flip(layout.PAPERS["a4"], self.duplex)  # rejects an unknown edge
        for name, value, allowed in (("sides", self.sides, SIDES), ("ink", self.ink, INKS)):
            if value not in allowed:
                raise ValueError(f"unknown {name} '{value}': use {' or '.join(allowed)}")
        if self.bleed_mm < 0:
            raise ValueError("bleed cannot be negative")

    @property
    def low_ink(self) -> bool:
        return self.ink == "low"

    @property
    def suffix(self) -> str:
        """What the kit's file name adds for these options ("" for the defaults)."""
        parts = ["one-sided"] if self.sides == "one" else []
        parts += ["low-ink"] if self.low_ink else []
        parts += ["press"] if self.press else []
        if self.since:  # its pieces are chosen by the comparison, not by --only
            safe = "".join(ch if ch.isalnum() or ch in "._+" else "-" for ch in self.since)
            return "".join(f"-{part}" for part in parts) + f"-changed-since-{safe}"
        parts += [f"only-{'+'.join(sorted(self.only))}"] if self.only else []
        return "".join(f"-{part}" for part in parts)


def kit_options(docs: Sequence[Document], *, sides: str = "two", ink: str = "normal",
                duplex: str = "long", bleed_mm: float = DEFAULT_BLEED_MM,
                only: Sequence[str] | None = None, press: bool = False) -> Options:
    """The options of ``rulepress pnp``, checked against the games: a value it does not know,
    or an --only id no game prints, is a usage error naming the option."""
    try:
        opts = Options(sides=sides, duplex=duplex, ink=ink, bleed_mm=bleed_mm,
                       only=None if only is None else frozenset(only), press=press)
    except ValueError as exc:
        raise RulepressError.at(None, f"pnp: {exc}") from None
    if only is not None:
        printed = sorted({c.id for d in docs for c in d.meta.components if c.in_kit})
        unknown = [i for i in only if i not in printed]
        if unknown or not only:
            hint = suggest(unknown[0], printed) if unknown else ""
            raise RulepressError.at(None, (
                f"--only: no printed component '{unknown[0] if unknown else ''}'{hint}; the "
                f"games chosen print {', '.join(printed) or 'nothing'}"))
    return opts


@dataclass(frozen=True)
class Kit:
    slug: str
    paper: str
    pdf: bytes
    pages: int
    drawn: Mapping[str, int]  # component id -> distinct fronts drawn
    backs: Mapping[str, int] = field(default_factory=dict)  # component id -> backs placed
    sheets: int = 0  # sheets of paper
    fill: tuple[float, ...] = ()  # per sheet of pieces: trimmed faces / printable area
    duplex_pages: int = 0  # pages 1 to this print double-sided, the rest single-sided


@dataclass(frozen=True)
class Printed:
    """One sheet of pieces: its fronts, their backs (two-sided), the board it tiles, if any."""

    front: Sheet
    back: Sheet | None = None
    board: tuple[Component, Plan] | None = None


@dataclass(frozen=True)
class _Job:
    component: Component
    front: Drawer
    back: Drawer | None


def _budgeted(drawer: Drawer, words: Callable[[str], str | None] | None = None) -> Drawer:
    """An engine's drawer, each face within the engine's CPU budget (in a worker), its texts
    said in ``words`` (a translation's)."""

    @functools.wraps(drawer)
    def draw(canvas: Any, face: Face) -> None:
        with unit(0), speaking(canvas, words):
            try:
                drawer(canvas, face)
            except SmallText as exc:
                raise RulepressError([error(_drawer_line(exc), str(exc))]) from None

    return draw


def _engine_words(doc: Document) -> Callable[[str], str | None] | None:
    """What a translation's engine drawers print in its language (None: as written)."""
    if doc.language is None:
        return None

    return word_translator(doc.language.strings, doc.language.code, doc.folder)


def _drawer_line(exc: BaseException) -> SourceLoc | None:
    """The drawer's line that set the text: the innermost frame outside ReportLab and the kit's
    own canvas code."""
    canvas = str(Path(__file__).parent)
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if "reportlab" not in frame.filename and not frame.filename.startswith(canvas):
            return SourceLoc(Path(frame.filename), frame.lineno or 1)
    return None


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
        return _budgeted(drawers[name], _engine_words(art.doc))
    engine = art.doc.meta.engine
    offered = (f"its engine '{engine}' offers {', '.join(sorted(drawers)) or 'none'}"
               if engine else "this game names no engine")
    out.append(error(comp.keys.get(what, comp.loc), (
        f"component '{comp.id}': no {what} drawer '{name}'{suggest(name, list(drawers))}. "
        f"Drawers are Python code a game's engine provides ({offered}); to draw it without "
        f"code, name a layout file instead, e.g. `{what}: layouts/{comp.id}.yml`")))
    return None


def _chosen(doc: Document, opts: Options) -> list[Component]:
    return [c for c in doc.meta.components
            if c.in_kit and (opts.only is None or c.id in opts.only)]


def _too_big(comp: Component, p: Paper, bleed: float, what: str, fix: str) -> Diagnostic:
    room_w, room_h = layout.block_area(p, bleed)
    return error(comp.loc, (
        f"component '{comp.id}' ({comp.size}){what} does not fit on {p.label} paper (room "
        f"{room_w / mm(1):.1f} x {room_h / mm(1):.1f} mm inside the printable margin with bleed "
        f"and crop marks); {fix}"))


def plan_kit(doc: Document, p: Paper, opts: Options,
             edges: Mapping[str, str] | None = None) -> list[Printed]:
    """Every sheet of pieces of the kit, in print order: sheets with backs (two-sided), then
    sheets without, then board tiles. RulepressError at each component that cannot be placed.
    ``edges``: what each component's cut edges show (edge_keys): pieces butt only on the same
    edge, never those whose colour varies at their cut."""
    edges = edges or {}
    bleed = mm(opts.bleed_mm)
    problems: list[Diagnostic] = []
    pieces: list[pack.Piece] = []
    boards: list[tuple[Component, Plan]] = []
    for comp in _chosen(doc, opts):
        if comp.size is None:
            problems.append(error(comp.loc, f"component '{comp.id}' is printed but has no size"))
            continue
        w, h = comp.size.points
        pair = opts.sides == "one" and comp.back is not None
        if pack.fits(p, pack.Piece(comp.id, 0, w, h, pair), bleed):
            # Counted alone first: what it would take on sheets of its own bounds the packing.
            unit = pack.Piece(comp.id, 0, w, h, pair).unit
            _within_limit(comp, p, len(layout.grid_plan(p, *unit, bleed, comp.count).sheets))
            pieces += [pack.Piece(comp.id, i, w, h, pair, edges.get(comp.id, ""))
                       for i in range(comp.count)]
        elif pair and pack.fits(p, pack.Piece(comp.id, 0, w, h), bleed):
            problems.append(_too_big(comp, p, bleed, " beside its back (a gutter-fold pair)",
                                     "print it double-sided (--sides two) or make it smaller"))
        elif not comp.tileable:
            problems.append(_too_big(comp, p, bleed, "", "declare it `tileable: true` to split "
                                                         "it over several sheets, or make it "
                                                         "smaller"))
        elif comp.back is not None:
            problems.append(error(comp.loc, (
                f"component '{comp.id}' must be tiled on {p.label} paper, and a tiled board "
                "cannot have a back: remove `back` or make it smaller")))
        else:
            try:
                one = layout.tile_plan(p, w, h, bleed, 1)  # the sheets of one copy, counted first
                _within_limit(comp, p, len(one.sheets) * comp.count)
                boards.append((comp, layout.tile_plan(p, w, h, bleed, comp.count)))
            except layout.DoesNotFit as exc:
                problems.append(error(comp.loc, f"component '{comp.id}' cannot be tiled: {exc}"))
    if problems:
        raise RulepressError(problems)
    sheets = pack.pack(p, pieces, bleed)
    backed = {c.id for c in doc.meta.components if c.back is not None}
    two = opts.sides == "two"
    with_backs = [s for s in sheets if two and any(x.component in backed for x in s.slots)]
    printed = [Printed(s, s.flipped(p, opts.duplex, backed)) for s in with_backs]
    printed += [Printed(s) for s in sheets if s not in with_backs]
    for comp, plan in boards:
        for sheet in plan.sheets:
            slots = tuple(replace(x, component=comp.id) for x in sheet.slots)
            printed.append(Printed(replace(sheet, slots=slots), board=(comp, plan)))
    return printed


def _within_limit(comp: Component, p: Paper, sheets: int) -> None:
    if sheets > MAX_SHEETS_PER_COMPONENT:
        raise TooManySheets([error(
            comp.loc, f"component '{comp.id}' needs {sheets} sheets of {p.label} paper, more "
            f"than the limit of {MAX_SHEETS_PER_COMPONENT}")])


class TooManySheets(RulepressError):
    """A kit past the sheet limit: bad input, not a count the check may disagree with."""


def _jobs(
    doc: Document, drawers: Mapping[str, Drawer], tables: Tables | None, opts: Options
) -> dict[str, _Job]:
    """The drawers of every printed component; all problems reported together."""
    problems: list[Diagnostic] = []
    jobs = {}
    art = Art(doc, tables or {})
    for comp in _chosen(doc, opts):
        front = side_drawer(comp, False, drawers, art, problems)
        back = side_drawer(comp, True, drawers, art, problems) if comp.back else None
        if front is not None and (back is not None or comp.back is None):
            jobs[comp.id] = _Job(comp, front, back)
    if problems:
        raise RulepressError(problems)
    return jobs


def _prepared(doc: Document, drawers: Mapping[str, Drawer], tables: Tables | None, p: Paper,
              opts: Options, *, measure: bool = False
              ) -> tuple[dict[str, _Job], list[Printed], dict[str, str]]:
    """The drawers and the sheets of a kit, and its pieces' edges (``measure``: drawn and
    looked at, else left out: how many pieces are printed does not depend on them); every
    problem reported together."""
    problems: list[Diagnostic] = []
    jobs: dict[str, _Job] = {}
    printed: list[Printed] = []
    edges: dict[str, str] = {}
    try:
        jobs = _jobs(doc, drawers, tables, opts)
        if measure and opts.bleed_mm > 0:  # in full ink: both inks share one layout
            edges = edge_keys(jobs.values())
    except RulepressError as exc:
        problems += exc.diagnostics
    try:
        printed = plan_kit(doc, p, opts, edges)
    except TooManySheets:
        raise
    except RulepressError as exc:
        problems += exc.diagnostics
    if problems:
        raise RulepressError(problems)
    return jobs, printed, edges


def drawn_in(printed: Sequence[Printed]) -> dict[str, int]:
    """Distinct copies of each component drawn (a tiled board counts once)."""
    seen: dict[str, set[int]] = {}
    for sheet in printed:
        for slot in sheet.front.slots:
            if not slot.back:
                seen.setdefault(slot.component, set()).add(slot.index)
    return {cid: len(ix) for cid, ix in seen.items()}


def count_drawn(
    doc: Document,
    drawers: Mapping[str, Drawer],
    papers: Sequence[str] = PAPER_KEYS,
    *,
    bleed_mm: float = DEFAULT_BLEED_MM,
    tables: Tables | None = None,
    options: Options | None = None,
) -> dict[str, int]:
    """How many copies of each printed component the kit draws (the fewest over the papers).

    Cheap: plans the sheets without drawing. Raises RulepressError as build_kit would.
    """
    opts = replace(options or Options(), bleed_mm=bleed_mm)
    counts: dict[str, int] = {}
    for key in papers:
        _, printed, _ = _prepared(doc, drawers, tables, layout.paper(key), opts)
        for cid, n in drawn_in(printed).items():
            counts[cid] = min(n, counts.get(cid, n))
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


def _sheet_count(opts: Options, cover_pages: int, printed: Sequence[Printed]) -> tuple[int, int]:
    """(sheets of paper, pages printed double-sided) for a kit whose cover takes
    ``cover_pages`` pages (two-sided: the printer check's back included)."""
    if opts.sides == "one":
        return cover_pages + len(printed), 0
    duplex = cover_pages + cover_pages % 2 + 2 * sum(1 for x in printed if x.back is not None)
    return duplex // 2 + sum(1 for x in printed if x.back is None), duplex


class _Renderer:
    def __init__(self, doc: Document, p: Paper, opts: Options, jobs: Mapping[str, _Job],
                 canvas: KitCanvas) -> None:
        self.doc, self.p, self.opts, self.jobs = doc, p, opts, jobs
        self._ = kit_words(doc)
        self.bleed = mm(opts.bleed_mm)
        self.c = canvas
        self.pages = 0
        self.backs: dict[str, int] = {}
        self.forms: dict[str, str] = {}
        # component id -> where each front's stamp goes (None: nowhere blank)
        self.stamps: dict[str, tuple[layout.Rect | None, ...]] = {}

    def page(self, trim: layout.Rect | None = None, bleed: layout.Rect | None = None) -> None:
        whole = (0.0, 0.0, self.p.width, self.p.height)
        marks.set_boxes(self.c, trim or whole, bleed or whole)
        self.c.showPage()
        self.pages += 1

    def footer(self, left: str, *, back: bool = False, sheet: Sheet | None = None) -> None:
        """The sheet's footer; a short-edge back mirrors the band to the top of the page, and
        a full-height sheet has it up its left side, beside the middle row."""
        if sheet is not None and sheet.full_height:
            marks.side_footer(self.c, self.p, left, self.p.label, sheet.trim_box)
            return
        top = back and self.opts.sides == "two" and self.opts.duplex == "short"
        marks.footer(self.c, self.p, left, self.p.label, top=top)

    def face(self, slot: Slot, draw: Callable[..., None], *args: object) -> None:
        c = self.c
        comp = self.jobs[slot.component].component
        w, h = comp.size.points if comp.size else (0.0, 0.0)
        with saved(c):
            x0, y0, x1, y1 = slot.clip
            # The clip as literal text: same operators as clipPath, without ReportLab's slow
            # per-number formatting (the face's artwork is cut to its bleed here).
            c.addLiteral(f"{x0:.3f} {y0:.3f} {x1 - x0:.3f} {y1 - y0:.3f} re W n")
            c.transform(*slot.transform)
            with c.low_ink(w, h, self.opts.low_ink):
                draw(*args)

    def slot(self, slot: Slot) -> None:
        job = self.jobs[slot.component]
        comp = job.component
        w, h = comp.size.points if comp.size else (0.0, 0.0)
        if not slot.back:
            self.face(slot, job.front, self.c,
                      Face(slot.index, comp.count, w, h, self.bleed, low_ink=self.opts.low_ink))
            if self.doc.meta.version:
                text = f"v{self.doc.meta.version}"
                box = self._stamp_box(job, text, slot.index)
                if box is not None:
                    self.face(slot, stamp, self.c, text, box)
            return
        self.backs[comp.id] = self.backs.get(comp.id, 0) + 1
        assert job.back is not None
        if comp.back_varies:
            face = Face(slot.index, comp.count, w, h, self.bleed, back=True,
                        low_ink=self.opts.low_ink)
            self.face(slot, job.back, self.c, face)
        else:
            self.face(slot, self.c.doForm, self._form(job, w, h))

    def _stamp_box(self, job: _Job, text: str, index: int) -> layout.Rect | None:
        comp = job.component
        if comp.id not in self.stamps:
            self.stamps[comp.id] = stamp_places(job.front, comp, text, self.opts.low_ink)
        places = self.stamps[comp.id]
        return places[index % len(places)]

    def _form(self, job: _Job, w: float, h: float) -> str:
        """A shared back, drawn once into a form and placed by reference."""
        comp = job.component
        name = f"rpBack_{comp.id.replace('-', '_')}"
        if name not in self.forms:
            b = self.bleed
            self.c.beginForm(name, -b, -b, w + b, h + b)
            assert job.back is not None
            with self.c.low_ink(w, h, self.opts.low_ink):
                job.back(self.c, Face(0, comp.count, w, h, b, back=True, low_ink=self.opts.low_ink))
            self.c.endForm()
            self.forms[name] = name
        return name

    def sheet(self, printed: Printed, number: int, total: int) -> None:
        c, sheet, _ = self.c, printed.front, self._
        for slot in sheet.slots:
            self.slot(slot)
        marks.glue_strips(c, sheet.glue, _)
        marks.crop_marks(c, sheet.marks, self._printable(sheet))
        marks.fold_marks(c, sheet.folds)
        title, where = self.doc.meta.title, _("sheet {number} of {total}", number=number,
                                                 total=total)
        if printed.board is not None:
            comp, plan = printed.board
            label = sheet.slots[0].label
            copy = _("copy {n}", n=sheet.slots[0].index + 1)
            copy = f" \u00b7 {copy}" if comp.count > 1 else ""
            tile = _("tile {label}", label=label)
            self.footer(f"{title} \u00b7 {comp.name} \u00b7 {tile}{copy} \u00b7 {where}")
            cols, rows = plan.tiles
            cell = mm(2.8)
            x = (self.p.width - cols * cell) / 2 + mm(30)
            marks.tile_map(c, x, layout.MARGIN + mm(0.6), cols, rows, cell, label)
        else:
            names = self._names(sheet)
            side = (_("fronts: {names}", names=names) if printed.back is not None
                    else _("pieces: {names}", names=names))
            self.footer(f"{title} \u00b7 {side} \u00b7 {where}", sheet=sheet)
        self.page(sheet.trim_box, sheet.bleed_box)
        if printed.back is not None:
            for slot in printed.back.slots:
                self.slot(slot)
            marks.crop_marks(c, printed.back.marks, self._printable(printed.back))
            backs = _("backs: {names}", names=self._names(printed.back))
            self.footer(f"{title} \u00b7 {backs} \u00b7 {where}", back=True, sheet=printed.back)
            self.page(printed.back.trim_box, printed.back.bleed_box)

    def _printable(self, sheet: Sheet) -> layout.Rect | None:
        """Where a full-height sheet's marks may ink: inside the margin (its outer row cuts
        lie on the margin's edge)."""
        m = layout.MARGIN
        return (m, m, self.p.width - m, self.p.height - m) if sheet.full_height else None

    def _names(self, sheet: Sheet) -> str:
        ids = dict.fromkeys(s.component for s in sheet.slots)
        return ", ".join(self.jobs[i].component.name for i in ids)


def stamp(c: KitCanvas, text: str, box: layout.Rect) -> None:
    """The printing a front belongs to, in small grey print in ``box`` (stamp_place), so a
    loose piece says which printing it is from: drawn on every front of a game with a
    ``version``."""
    with saved(c):
        c.setFillGray(0.5)
        c.setFont(REGULAR, STAMP_SIZE)
        c.drawString(box[0], box[1] - pdfmetrics.getDescent(REGULAR, STAMP_SIZE), text)


def stamp_box(text: str, width: float, height: float, corner: str) -> layout.Rect:
    """The box of the stamp ``text`` in ``corner`` of a ``width`` x ``height`` face, inside
    its safe area."""
    register_fonts()
    w = pdfmetrics.stringWidth(text, REGULAR, STAMP_SIZE)
    h = pdfmetrics.getAscent(REGULAR, STAMP_SIZE) - pdfmetrics.getDescent(REGULAR, STAMP_SIZE)
    x = STAMP_INSET if corner.endswith("left") else width - STAMP_INSET - w
    y = STAMP_INSET if corner.startswith("bottom") else height - STAMP_INSET - h
    return x, y, x + w, y + h


def rendered_fronts(front: Drawer, comp: Component, low_ink: bool = False,
                    dpi: int = _STAMP_DPI) -> list[Any]:
    """``comp``'s fronts (at most _STAMP_FACES), each drawn alone to its trim and rendered
    (pypdfium2) at ``dpi``: RGB images, the trim's bottom-left at the image's bottom-left."""
    assert comp.size is not None
    w, h = comp.size.points
    buf = io.BytesIO()
    register_fonts()
    c = KitCanvas(buf, pagesize=(w, h), invariant=1, initialFontName=REGULAR)
    count = min(comp.count, _STAMP_FACES)
    for index in range(count):
        with c.low_ink(w, h, low_ink):
            front(c, Face(index, comp.count, w, h, 0.0, low_ink=low_ink))
        c.showPage()
    c.save()
    import pypdfium2  # only measuring needs it

    pdf = pypdfium2.PdfDocument(buf.getvalue())
    try:
        return [pdf[n].render(scale=dpi / 72).to_pil().convert("RGB") for n in range(count)]
    finally:
        pdf.close()


EDGE_STRIP = (mm(0.3), mm(1.0))  # where a piece's edge is looked at: this far inside its cut


def edge_keys(jobs: Iterable[_Job], low_ink: bool = False) -> dict[str, str]:
    """What each component's cut edges show, by id: its paper colour ('#f8f4ea') when every
    front's strip along every cut is that one colour, else pack.GUTTER (a band, a picture or
    a frame reaches the cut: its pieces get a gutter, so an off cut shows no neighbour's
    colour). Measured on the fronts as drawn."""
    found: dict[str, str] = {}
    dpi = 100
    k = dpi / 72
    for job in jobs:
        comp = job.component
        if comp.size is None:
            continue
        colours: set[tuple[int, ...]] = set()
        for image in rendered_fronts(job.front, comp, low_ink, dpi):
            wd, ht = image.size
            a, b = round(EDGE_STRIP[0] * k), max(round(EDGE_STRIP[1] * k), round(
                EDGE_STRIP[0] * k) + 1)
            for box in ((a, a, wd - a, b), (a, ht - b, wd - a, ht - a), (a, a, b, ht - a),
                        (wd - b, a, wd - a, ht - a)):
                bands = image.crop(box).getextrema()
                if any(high - low > 12 for low, high in bands):
                    colours.add((-1,))
                else:
                    colours.add(tuple((low + high) // 2 // 16 for low, high in bands))
        found[comp.id] = (pack.GUTTER if len(colours) != 1 or (-1,) in colours
                          else "#" + "".join(f"{v * 16:02x}" for v in next(iter(colours))))
    return found


def stamp_places(front: Drawer, comp: Component, text: str, low_ink: bool = False
                 ) -> tuple[layout.Rect | None, ...]:
    """Where the stamp goes on each of ``comp``'s fronts (by index; past _STAMP_FACES, as the
    face that many before): in the first of STAMP_CORNERS whose box, and STAMP_CLEAR round it,
    is blank (one colour) on every front, measured on the fronts rendered; failing that, each
    front's own first blank corner; a front with none has no stamp (a token its shape fills)."""
    assert comp.size is not None
    w, h = comp.size.points
    scale = _STAMP_DPI / 72
    images = [image.convert("L") for image in rendered_fronts(front, comp, low_ink)]
    count = len(images)
    boxes = [stamp_box(text, w, h, corner) for corner in STAMP_CORNERS]

    def blank(image: Any, box: layout.Rect) -> bool:
        x0, y0, x1, y1 = (box[0] - STAMP_CLEAR, box[1] - STAMP_CLEAR, box[2] + STAMP_CLEAR,
                          box[3] + STAMP_CLEAR)
        low, high = image.crop((round(x0 * scale), round((h - y1) * scale), round(x1 * scale),
                                round((h - y0) * scale))).getextrema()
        return bool(high - low <= 12)  # one colour, antialiasing aside

    for box in boxes:
        if all(blank(image, box) for image in images):
            return (box,) * count
    return tuple(next((b for b in boxes if blank(image, b)), None) for image in images)


def build_kit(
    doc: Document,
    drawers: Mapping[str, Drawer],
    paper: str,
    *,
    tables: Tables | None = None,
    options: Options | None = None,
    variant: str = "",
) -> Kit:
    """Draw one game's kit on one paper ("a4" or "letter"); ``options`` says how (sides, ink,
    duplex, bleed, only); ``variant``: the size variant ``doc`` is at (its file's name says
    it, and so does the cover where it names the kit's other edition)."""
    p = layout.paper(paper)
    opts = options or Options()
    front_only = not any(c.back for c in _chosen(doc, opts))
    if front_only:  # nothing to print on a back: no duplex pass, no duplex check
        opts = replace(opts, sides="one")
    jobs, printed, edges = _prepared(doc, drawers, tables, p, opts, measure=True)
    if front_only:
        register_fonts()
        with _binary_streams():
            return _render(doc, p, opts, jobs, printed, None, variant, front_only=True)
    try:  # for the cover: how many sheets the other mode takes
        other_printed: list[Printed] | None = plan_kit(doc, p, replace(
            opts, sides="one" if opts.sides == "two" else "two"), edges)
    except RulepressError:
        other_printed = None
    register_fonts()
    with _binary_streams():
        return _render(doc, p, opts, jobs, printed, other_printed, variant)


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


def _pressed(doc: Document, p: Paper, data: bytes) -> bytes:
    """The kit made PDF/X-1a (its images CMYK, press.pdfx's markers) and read back: a rule
    broken is an error at the components: line of the game's rules."""
    # Loaded for --press alone: pypdf is a slow import.
    from pypdf import PdfReader

    from rulepress.press import pdfx  # pypdf: for --press alone
    from rulepress.press.convert import to_press  # numpy, pypdf: for --press alone

    info = PdfReader(io.BytesIO(data)).metadata
    made = pdfx.make(to_press(data, bleed_mm=None),
                     str(info.get("/Title", "")) if info is not None else "")
    problems = pdfx.check(made)
    if problems:
        loc = doc.meta.components[0].loc if doc.meta.components else SourceLoc(doc.path, 1)
        name = kit_path(Path(), doc.slug, p.key, "", "-press").name
        raise RulepressError([error(loc, (
            f"pnp --press: {name}{f' page {x.page}' if x.page else ''} is not PDF/X-1a: "
            f"{x.text}")) for x in problems])
    return made


def kit_words(doc: Document) -> Words:
    """The words rulepress prints into ``doc``'s kit, in its language."""
    return Words(doc.language.code if doc.language else None, doc.folder)


def _canvas(doc: Document, p: Paper, buf: io.BytesIO) -> KitCanvas:
    _ = kit_words(doc)
    # A translation's kit says its language (/Lang); the source's is as it always was.
    lang = {"lang": doc.language.code} if doc.language else {}
    c = KitCanvas(buf, pagesize=(p.width, p.height), invariant=1, pageCompression=1,
                  initialFontName=REGULAR, **lang)
    c.setTitle(_("{title}: print-and-play kit ({paper})", title=doc.meta.title, paper=p.label))
    c.setAuthor(doc.meta.designer)
    c.setSubject(_("Print-and-play kit"))
    c.setCreator("rulepress")
    c.setKeywords(f"print-and-play, {p.key}")
    return c


def _render(doc: Document, p: Paper, opts: Options, jobs: Mapping[str, _Job],
            printed: list[Printed], other: list[Printed] | None, variant: str = "", *,
            front_only: bool = False) -> Kit:
    cover_pages = 2 if opts.sides == "two" else 1
    for _ in range(3):  # the cover's length and the page numbers it quotes settle at once
        text = _cover_text(doc, p, opts, printed, other, cover_pages, front_only, variant)
        counted = _draw_cover(KitCanvas(io.BytesIO()), doc, p, opts, text)
        if counted == cover_pages:
            break
        cover_pages = counted
    buf = io.BytesIO()
    c = _canvas(doc, p, buf)
    if opts.press:  # every colour as opaque CMYK ink, as the DriveThruCards export draws
        from rulepress.press.colour import opaque  # for --press alone: it loads numpy

        c._enforceColorSpace = opaque
    r = _Renderer(doc, p, opts, jobs, c)
    _draw_cover(c, doc, p, opts, text, r)
    if opts.sides == "two" and r.pages % 2:  # every sheet of pieces starts on a front
        _ = kit_words(doc)
        pages.blank(c, p, _("(back of the cover: intentionally blank)"))
        r.footer(_("{title} \u00b7 back of the cover", title=doc.meta.title), back=True)
        r.page()
    first = r.pages // 2 if opts.sides == "two" else r.pages
    total, duplex_pages = _sheet_count(opts, cover_pages, printed)
    for k, sheet in enumerate(printed, first + 1):
        r.sheet(sheet, k, total)
    c.save()
    printable = (p.width - 2 * layout.MARGIN) * (p.height - 2 * layout.MARGIN)
    return Kit(
        doc.slug,
        p.key,
        _pressed(doc, p, buf.getvalue()) if opts.press else buf.getvalue(),
        r.pages,
        drawn_in(printed),
        dict(r.backs),
        total,
        tuple(x.front.area() / printable for x in printed),
        duplex_pages,
    )


def _sheets_of(printed: Sequence[Printed], first: int) -> dict[str, str]:
    """Component id -> the sheet numbers it is printed on ("3", "2, 3", "4-6")."""
    found: dict[str, list[int]] = {}
    for k, sheet in enumerate(printed, first):
        for slot in sheet.front.slots:
            numbers = found.setdefault(slot.component, [])
            if k not in numbers:
                numbers.append(k)
    out = {}
    for cid, numbers in found.items():
        run = len(numbers) > 2 and numbers[-1] - numbers[0] == len(numbers) - 1
        out[cid] = (f"{numbers[0]}\u2013{numbers[-1]}" if run
                    else ", ".join(str(n) for n in numbers))
    return out


def _pages(_: Words, first: int, last: int) -> str:
    if first == last:
        return _("page {page}", page=first)
    return _("pages {first}\u2013{last}", first=first, last=last)


def _cover_text(doc: Document, p: Paper, opts: Options, printed: Sequence[Printed],
                other: Sequence[Printed] | None, cover_pages: int,
                front_only: bool = False, variant: str = "") -> pages.CoverText:
    """What the cover says, from what this kit holds: nothing about parts it does not have."""
    _ = kit_words(doc)
    two = opts.sides == "two"
    total, duplex_pages = _sheet_count(opts, cover_pages, printed)
    first = (cover_pages + cover_pages % 2) // 2 + 1 if two else cover_pages + 1
    on = _sheets_of(printed, first)
    boards = {x.board[0].id: x.board[1] for x in printed if x.board is not None}
    pairs = {x.component for sheet in printed for x in sheet.front.slots if x.back}
    rows = []
    for comp in doc.meta.components:
        size = "" if comp.size is None else _("{width} x {height} mm",
                                              width=_.number(comp.size.width),
                                              height=_.number(comp.size.height))
        if variant in comp.variants:  # the source's note speaks of the size it declares
            comp = replace(comp, note=_("printed at {variant} size in this kit",
                                        variant=variant))
        if comp.id not in on:
            why = (_("not in the kit") if not comp.in_kit else
                   _("unchanged since {since}", since=opts.since) if opts.since else
                   _("not chosen (--only)"))
            rows.append(pages.Row(comp.name, comp.count, size, why, "", comp.note))
            continue
        if comp.id in boards:
            cols, tiles = boards[comp.id].tiles
            how = _("{cols} x {rows} tiles", cols=cols, rows=tiles)
        elif comp.id in pairs:
            how = _("gutter-fold pairs")
        else:
            how = _("front and back") if comp.back is not None and two else _("front only")
        rows.append(pages.Row(comp.name, comp.count, size, how, on[comp.id], comp.note))
    sides = (_("single-sided") if not two else
             _("double-sided (flip on the long edge)") if opts.duplex == "long" else
             _("double-sided (flip on the short edge)"))
    mode = _("Print-and-play kit, {paper} paper, {sides}", paper=p.label, sides=sides)
    mode = _("{mode}, low ink", mode=mode) if opts.low_ink else mode
    if opts.since:
        mode = _("Replacement parts: the faces changed since {since}, to replace those pieces of "
                 "a kit printed from {since}. {mode}", since=opts.since, mode=mode)
    how = (_("The same kit for a single-sided printer (fronts and backs side by side, folded)")
           if two else _("The same kit printed double-sided"))
    if front_only:
        said = _("Every piece is printed on its front only: print single-sided.")
    elif other is None:
        said = _("{how} is not possible: a piece is too large to sit beside its back.", how=how)
    else:
        other_total, _n = _sheet_count(replace(opts, sides="one" if two else "two"),
                                       cover_pages - 1 if two else cover_pages + 1, other)
        said = _.ngettext("{how} takes {n} sheet.", "{how} takes {n} sheets.", other_total,
                          how=how)
    twin = None if front_only or other is None else _twin(doc.slug, p.key, variant, opts)
    if twin is not None:
        said += " " + _("That kit is the file {file}.", file=twin)
    paper = (_.ngettext("This kit: {n} sheet of {paper} paper.",
                        "This kit: {n} sheets of {paper} paper.", total, paper=p.label), said)
    printing = [_("Print at 100% (\"actual size\"): turn off \"fit to page\" and any scaling.")]
    covers = cover_pages + cover_pages % 2 if two else cover_pages
    if two:
        where = _pages(_, 1, covers)
        printing.append(
            _("Print {pages} first, double-sided, flipping on the long edge, and do the printer "
              "check at the foot of page 1.", pages=where) if opts.duplex == "long" else
            _("Print {pages} first, double-sided, flipping on the short edge, and do the printer "
              "check at the foot of page 1.", pages=where))
        if duplex_pages > covers:
            printing.append(_("Then print {pages} double-sided: each sheet of fronts is followed "
                              "by its backs.", pages=_pages(_, covers + 1, duplex_pages)))
        if total > duplex_pages // 2:
            last = duplex_pages + total - duplex_pages // 2
            printing.append(_("Print {pages} single-sided: nothing is printed on their backs.",
                              pages=_pages(_, duplex_pages + 1, last)))
    else:
        printing.append(_("Print page 1 first and do the printer check at its foot."))
        if total > covers:
            printing.append(_("Then print {pages} single-sided.",
                              pages=_pages(_, covers + 1, covers + total - covers)))
    return pages.CoverText(mode, tuple(rows), paper, tuple(printing),
                           _cutting(_, opts, printed),
                           tuple((x.board[0].name, x.board[1].tiles) for x in printed
                                 if x.board is not None and x.front.slots[0].label == "A1"
                                 and x.front.slots[0].index == 0),
                           twin)


def _twin(slug: str, paper: str, variant: str, opts: Options) -> str:
    """The file of the same kit printed on the other number of sides (``make`` writes both
    for the bundled games; docs/authoring.md gives the command)."""
    other = replace(opts, sides="one" if opts.sides == "two" else "two")
    return kit_path(Path(), slug, paper, variant, other.suffix).name


def _cutting(_: Words, opts: Options, printed: Sequence[Printed]) -> tuple[str, ...]:
    """Cutting and folding steps for the kinds of piece this kit has."""
    pieces = [x for x in printed if x.board is None]
    steps = []
    if pieces:
        steps.append(_("Cut along the lines that join facing crop marks, with a ruler and a "
                       "sharp blade; cut the long lines across a block first, then the short "
                       "ones."))
        butting = any(_butts(x.front) for x in pieces)
        if butting:
            steps.append(_("Where two pieces touch, one cut separates both."))
        full = any(x.front.full_height for x in pieces)
        if full:
            steps.append(_("Sheets filled from the top margin to the bottom one: row cuts are "
                           "marked at the sides, column cuts by ticks on the pieces' top and "
                           "bottom edges; cut those edges exactly on the marks."))
        if opts.bleed_mm > 0:
            steps.append(_("The artwork runs past every cut (bleed) except those top and bottom "
                           "edges, so a slightly off cut shows no white edge.") if full else
                         _("The artwork runs past every cut (bleed), so a slightly off cut "
                           "shows no white edge."))
    if any(x.back is not None for x in printed):
        steps.append(_("Backs are printed behind their fronts: cut with the fronts facing you."))
    if any(x.front.folds for x in printed):
        steps.append(_("Gutter-fold pieces (front and back side by side): cut out the pair on "
                       "its outer crop marks, fold it on the line the dashed marks show, and "
                       "glue the two halves back to back."))
    tiles = dict.fromkeys(x.front.slots[0].label for x in printed if x.board is not None)
    if tiles:
        steps.append(_("Boards: cut each tile on its crop marks and join the tiles in label "
                       "order ({labels}), each tile laid over its neighbour's shaded strip with "
                       "its edge on the dashed line; tape or glue them together.",
                       labels=", ".join(tiles)))
    return tuple(steps)


def _butts(sheet: Sheet) -> bool:
    """Whether any two faces on the sheet share a cut (touch without a gutter)."""
    trims = [s.trim for s in sheet.slots if not s.back]
    return any(
        (abs(a[2] - b[0]) < 1e-3 or abs(b[2] - a[0]) < 1e-3) and min(a[3], b[3]) > max(a[1], b[1])
        or (abs(a[3] - b[1]) < 1e-3 or abs(b[3] - a[1]) < 1e-3) and min(a[2], b[2]) > max(a[0],
                                                                                         b[0])
        for i, a in enumerate(trims) for b in trims[i + 1:]
    )


def _draw_cover(c: KitCanvas, doc: Document, p: Paper, opts: Options, text: pages.CoverText,
                r: _Renderer | None = None) -> int:
    """Draw the cover (with the printer check's back, two-sided); its number of pages."""
    two = opts.sides == "two"
    count = 0
    _ = kit_words(doc)
    footer = _("{title} \u00b7 print-and-play kit \u00b7 cover", title=doc.meta.title)

    def end_page(text: str, back: bool = False) -> None:
        nonlocal count
        if r is not None:
            r.footer(text, back=back)
            r.page()
        else:
            c.showPage()
        count += 1

    def turn() -> None:
        end_page(footer, back=two and count % 2 == 1)
        if two and count == 1:
            pages.check_back(c, p, opts.duplex, _, text.twin)
            end_page(_("{title} \u00b7 printer check, back", title=doc.meta.title), back=True)

    pages.cover(c, doc, p, text, turn, opts.duplex if two else None, _)
    turn()
    return count


def kit_path(out_dir: Path, slug: str, paper: str, variant: str = "", suffix: str = "") -> Path:
    tail = f"-{variant}" if variant else ""
    return out_dir / slug / f"{slug}-{paper}{tail}{suffix}.pdf"


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
    options: Options | None = None,
) -> dict[Path, bytes]:
    """Every kit of ``doc`` by the path it goes to: out_dir/<slug>/<slug>-<paper>.pdf for each
    paper, and <slug>-<paper>-<variant>.pdf for each size variant (the options add to the
    name: -one-sided, -low-ink, -only-<ids>). Nothing is written."""
    opts = options or Options(duplex=duplex, bleed_mm=bleed_mm)
    outputs: dict[Path, bytes] = {}
    for variant, version in versions(doc):
        for key in papers:
            kit = build_kit(version, drawers, key, tables=tables, options=opts,
                            variant=variant)
            outputs[kit_path(out_dir, doc.slug, kit.paper, variant, opts.suffix)] = kit.pdf
    return outputs

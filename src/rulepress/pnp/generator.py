"""The kits generator: each game's print-and-play kits (or, with ``proof``, its proof page)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

from rulepress.diagnostics import Diagnostic, RulepressError
from rulepress.document.model import Document
from rulepress.errata import only_changed
from rulepress.games import contract
from rulepress.host import EngineJob, caught, on_stop
from rulepress.media import PAPER_KEYS
from rulepress.pipeline import Base, Files, Unit
from rulepress.pnp.kit import DEFAULT_BLEED_MM, Options, draw_kits, kit_options
from rulepress.pnp.proof import proof as proof_page
from rulepress.render.readback import read_back_pdf, sources_of
from rulepress.validate.check import DocumentCheck

# A unit's part of its name: 'proof', or 'kit', the file names' suffix and the paper.
_PART = re.compile(r"proof|kit\S* \S+")


@dataclass(frozen=True)
class KitOptions:
    """What the kits are drawn with: all of it goes in their key. ``proof``: instead of the
    kits, one page per game showing each distinct face at 1:1. See pnp.kit.Options."""

    papers: tuple[str, ...] = PAPER_KEYS
    duplex: str = "long"
    bleed_mm: float = DEFAULT_BLEED_MM
    proof: bool = False
    sides: str = "two"
    ink: str = "normal"
    only: tuple[str, ...] | None = None
    # pnp --changed-since: the old printing's label and, by game, the faces that differ
    since: tuple[str, tuple[tuple[str, tuple[tuple[str, bool, int], ...]], ...]] | None = None
    press: bool = False  # pnp --press: PDF/X-1a for a print shop (GAME-a4-press.pdf)


class Kits(Base):
    name = "kits"
    reads_every_game = True  # --only is checked against every game chosen
    checks: tuple[str, ...] = ("kit",)  # its part of every check: each kit drawn and measured

    def __init__(self, options: KitOptions) -> None:
        if not 0 <= options.bleed_mm <= 10:
            raise RulepressError.at(None, f"--bleed {options.bleed_mm} mm is out of range "
                                          "(0 to 10)")
        self.options = options
        self._drawing: Options | None = None
        try:  # the kits' file names; checked here, as replaces() may be asked before prepare()
            self._suffix = Options(sides=options.sides, ink=options.ink,
                                   only=None if options.only is None else frozenset(options.only),
                                   since=options.since[0] if options.since else "").suffix
        except ValueError as exc:
            raise RulepressError.at(None, f"pnp: {exc}") from None

    def _parts(self) -> list[tuple[str, ...]]:
        """The papers of each unit: one unit per paper (the proof page has none)."""
        return [()] if self.options.proof else [(p,) for p in self.options.papers]

    def _part(self, papers: tuple[str, ...]) -> str:
        """What a unit of this run is named after its game: 'kit-low-ink a4', 'proof'."""
        return "proof" if self.options.proof else f"kit{self._suffix} {' '.join(papers)}"

    def replaces(self, slug: str, unit: str) -> bool:
        """A kit of another variant (ink, sides, paper, pieces, or the proof page) stays: only
        this run's variant is replaced, its units it no longer makes deleted."""
        parts = unit.split("/")  # slug/part, or slug/part/lang (translated-kits)
        if len(parts) not in (2, 3) or parts[0] != slug or not _PART.fullmatch(parts[1]):
            return True  # not a name of this scheme (an older manifest's): replaced
        return parts[1] in {self._part(papers) for papers in self._parts()}

    def prepare(self, docs: Sequence[Document]) -> None:
        o = self.options
        self._drawing = kit_options(docs, sides=o.sides, ink=o.ink, duplex=o.duplex,
                                    bleed_mm=o.bleed_mm, only=o.only, press=o.press)
        if o.since is not None:  # only the components with a face that changed
            label, changed = o.since
            ids = frozenset(cid for _, faces in changed for cid, _, _ in faces)
            self._drawing = replace(self._drawing, only=ids, since=label)

    def units(self, game: DocumentCheck, key: str) -> list[Unit]:
        doc, drawing = game.doc, self._drawing
        assert drawing is not None, "prepare() comes first"
        if self.unchanged(doc) or not any(
                c.in_kit and (drawing.only is None or c.id in drawing.only)
                for c in doc.meta.components):
            return []
        return [self._unit(game, key, papers) for papers in self._parts()]

    def _unit(self, game: DocumentCheck, key: str, papers: tuple[str, ...]) -> Unit:
        """The unit of one paper's kits (or the proof page), named 'go-stop/kit-low-ink a4'."""
        doc, engine = game.doc, game.engine
        what = "proof" if self.options.proof else f"kit ({', '.join(papers)})"

        return Unit(f"{doc.slug}/{self._part(papers)}", key, partial(self._draw, game, papers),
                    f"drawing the {doc.slug} {what}", guarded=engine is not None,
                    stopped=on_stop(engine, DRAWING, doc.meta.engine_loc))

    def unchanged(self, doc: Document) -> bool:
        """With --changed-since, whether no face of the game's kit changed: no reprint."""
        return self.changed(doc.slug) == set()

    def changed(self, key: str) -> set[tuple[str, bool, int]] | None:
        """With --changed-since, the faces of ``key`` (a game, or game/lang) that changed."""
        since = self.options.since
        return None if since is None else set(dict(since[1]).get(key, ()))

    def _draw(self, game: DocumentCheck, papers: tuple[str, ...],
              key: str | None = None) -> Files | list[Diagnostic]:
        """The game's kits on ``papers`` (or its proof), or what stops it; in a worker when its
        engine draws (workers.py), so a drawer that ends its process or crashes is reported.
        ``key``: whose changed faces it holds with --changed-since (default: the game's)."""
        return caught(EngineJob(partial(self._drawn, game, papers, key), game.engine, DRAWING,
                                game.doc.meta.engine_loc))

    def _drawn(self, game: DocumentCheck, papers: tuple[str, ...],
               key: str | None) -> Files | list[Diagnostic]:
        doc, engine, o = game.doc, game.engine, self.options
        drawing = self._drawing
        drawers, tables = contract.drawers(engine), contract.tables(engine)
        if o.proof:
            return {f"{doc.slug}/{doc.slug}-proof.pdf":
                    proof_page(doc, drawers, tables, bleed_mm=o.bleed_mm)}
        faces = self.changed(key or doc.slug)
        if faces is not None and drawing is not None:
            doc = only_changed(doc, faces)  # and only the components they are of
            drawing = replace(drawing, only=frozenset(cid for cid, _, _ in faces))
        kits = draw_kits(doc, drawers, papers, Path(), tables=tables, options=drawing)
        return _read_back(doc, kits) or {path.as_posix(): data for path, data in kits.items()}


DRAWING = "drawing its kit"  # what the engine was doing, in its errors

# Where a kit's printed words come from, besides the rules (its front matter): layouts, data.
KIT_FOLDERS, KIT_SOURCES = ("layouts", "data"), ("*.yml", "*.yaml", "*.csv")


def _read_back(doc: Document, kits: Mapping[Path, bytes]) -> list[Diagnostic]:
    """The kit's text read back, page by page: source markup on a card is an error at the
    line of the layout, data or rules file its words came from (render/readback.py)."""
    more = sorted({p for folder in KIT_FOLDERS for pattern in KIT_SOURCES
                   for p in (doc.folder / folder).rglob(pattern)
                   if p.is_file() and not p.is_symlink()})
    sources = sources_of(doc, *more)
    return [d for path, data in kits.items() if path.suffix == ".pdf"
            for d in read_back_pdf(path.name, data, sources)]

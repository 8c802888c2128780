"""``rulepress export GAME --to tts|tgc|mpc|dtc``: the kit's faces for Tabletop Simulator and
print-on-demand houses, as generators on the pipeline (checked, then written as one set)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import TypeVar
from urllib.parse import urlsplit

from rulepress.diagnostics import Diagnostic, RulepressError, error
from rulepress.document.model import Component, Document, Row
from rulepress.document.schema import is_layout
from rulepress.export import preflight
from rulepress.export.dtc import deck_pdf
from rulepress.export.houses import Placed, house_files, house_sides, placed, shots
from rulepress.export.raster import sides
from rulepress.export.tts import saved_object
from rulepress.games import contract
from rulepress.games.base import Drawer
from rulepress.host import EngineJob, caught, engine_job, on_stop
from rulepress.limits import MAX_EXPORT_PIECES
from rulepress.pipeline import Base, Files, Unit
from rulepress.pnp.faces import Art, Tables
from rulepress.pnp.kit import with_variant
from rulepress.suggest import suggest
from rulepress.validate.check import DocumentCheck

TARGETS = ("tts", "tgc", "mpc", "dtc")
T = TypeVar("T")


@dataclass(frozen=True)
class ExportOptions:
    """``base_url``: where TTS finds the images (ends in '/'); empty: each image's address is
    its name, relative to the saved object's folder. ``folder``: the output folder, absolute.
    ``skip``: component ids left out. ``strict``: preflight findings are errors."""

    target: str
    folder: str = ""
    base_url: str = ""
    skip: tuple[str, ...] = ()
    strict: bool = False


def base_url(value: str) -> str:
    """--base-url checked: an http(s) address of a folder, returned ending in '/'."""
    parts = urlsplit(value)
    if (parts.scheme not in ("http", "https") or not parts.netloc or parts.query
            or parts.fragment or any(ch.isspace() for ch in value)):
        raise RulepressError.at(None, (
            f"--base-url '{value}': give the http:// or https:// address of the folder you "
            "upload the export's images to, without ?query or #fragment, e.g. "
            "https://example.com/my-game/tts/"))
    return value if value.endswith("/") else value + "/"


class Exporter(Base):
    """One target's generator: its preflight in check(), its files in one unit per game."""

    def __init__(self, options: ExportOptions) -> None:
        if options.target not in TARGETS:
            raise RulepressError.at(None, f"--to {options.target}: use one of "
                                          f"{', '.join(TARGETS)}")
        self.options = options
        self.name = f"export-{options.target}"

    def check(self, game: DocumentCheck) -> list[Diagnostic]:
        doc = game.doc
        ids = [c.id for c in doc.meta.components]
        found = [error(None, f"--skip {s}: {doc.slug} has no component '{s}'"
                             f"{suggest(s, ids)}") for s in self.options.skip if s not in ids]
        kept = [c for c in doc.meta.components if c.id not in self.options.skip]
        pieces = sum(c.count for c in kept)
        if pieces > MAX_EXPORT_PIECES:  # each drawn at the target's resolution, all held
            most = max(kept, key=lambda c: c.count)
            return found + [error(most.loc, (
                f"the {self.options.target} export would draw {pieces:,} pieces ({most.id}: "
                f"{most.count:,}), more than the limit of {MAX_EXPORT_PIECES:,} for an "
                "export; leave components out with --skip"))]
        if self.options.target == "tts":
            return found
        parts, problems = placed(doc, self.options.target, frozenset(self.options.skip))
        if problems or found:
            return found + problems
        return in_worker(game, lambda drawers, tables: self._preflight(doc, drawers, tables,
                                                                         parts), "drawing")

    def _preflight(self, doc: Document, drawers: Mapping[str, Drawer], tables: Tables,
                   parts: Sequence[object]) -> list[Diagnostic]:
        target, strict = self.options.target, self.options.strict
        found: list[Diagnostic] = []
        chosen = [p for p in parts if isinstance(p, Placed)]
        faces = house_sides(doc, drawers, tables, chosen)
        arts = {v: Art(with_variant(doc, v) if v else doc, tables)
                for v in {p.fit.variant for p in chosen}}
        for part in chosen:
            for back in (False, True):
                side = faces.get((part.comp.id, back))
                if side is None:
                    continue
                found += preflight.elements(arts[part.fit.variant], side.comp, back, part.fit,
                                            target, strict)
                # A tenth of the dpi is plenty to measure ink over areas.
                small = [replace(s, pixels=(s.pixels[0] // 10, s.pixels[1] // 10),
                                 dpi=s.dpi / 10) for s in shots(side, part.fit)]
                found += preflight.ink([(small, part.comp, back)], part.fit.product.ink,
                                       target, strict)
        return list(dict.fromkeys(found))

    def units(self, game: DocumentCheck, key: str, sub: str = "") -> list[Unit]:
        """``sub``: a folder between the game's and the target's (a translation's, 'de/')."""
        doc, engine, target = game.doc, game.engine, self.options.target

        def files() -> Files:
            made = self._files(doc, contract.drawers(engine), contract.tables(engine), sub)
            return {f"{doc.slug}/{sub}{target}/{name}": data for name, data in made.items()}

        # In a worker when the game's engine draws (the pipeline's guarded units).
        job = EngineJob(files, engine, "drawing its export", doc.meta.engine_loc)
        return [Unit(f"{doc.slug}/{target}", key, partial(caught, job),
                     f"making the {doc.slug} {target} export", guarded=engine is not None,
                     stopped=on_stop(engine, job.doing, job.at))]

    def _files(self, doc: Document, drawers: Mapping[str, Drawer], tables: Tables,
               sub: str = "") -> dict[str, bytes | str]:
        opts = self.options
        skip = frozenset(opts.skip)
        if opts.target == "tts":
            comps = [c for c in doc.meta.components if c.in_kit and c.id not in skip]
            return saved_object(doc, sides(doc, drawers, tables, comps), opts.base_url,
                                _rows(doc, tables, comps))
        parts, problems = placed(doc, opts.target, skip)
        if problems:
            raise RulepressError(problems)
        found = house_sides(doc, drawers, tables, parts)
        if opts.target == "dtc":
            return {f"{doc.slug}-{p.comp.id}.pdf": deck_pdf(doc, p, found) for p in parts}
        return house_files(opts.target, parts, found,
                           _rows(doc, tables, [p.comp for p in parts]))


def _rows(doc: Document, tables: Tables, comps: Sequence[Component]
          ) -> dict[str, tuple[Row, ...]]:
    """The data rows of the components whose front is a layout (which name their cards):
    the rows check has already drawn every face from."""
    art = Art(doc, tables)
    return {c.id: art.rows(c) for c in comps
            if c.data is not None and c.front is not None and is_layout(c.front)}


def in_worker(game: DocumentCheck, work: Callable[[Mapping[str, Drawer], Tables], T],
              doing: str) -> T | list[Diagnostic]:
    """``work`` with the game's drawers and tables, in a worker when its engine draws (an
    engine that ends its process or crashes there is one error at its engine: line)."""
    engine = game.engine
    return engine_job(EngineJob(lambda: work(contract.drawers(engine), contract.tables(engine)),
                                engine, f"{doing} its export", game.doc.meta.engine_loc))


__all__ = ["TARGETS", "ExportOptions", "Exporter", "base_url"]

"""``export --to tgc|mpc``: one PNG per distinct face at the house's exact pixel size for the
product each component fits (300 dpi recorded in it), named in upload order with the card's
id, name and copies, and a manifest.csv saying the same."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PIL import Image

from rulepress.diagnostics import Diagnostic, error
from rulepress.document.model import Component, Document, Row
from rulepress.export.names import NAME_FIELDS, card_rows, field, file_slug
from rulepress.export.products import DPI, Fit, fit, nearest
from rulepress.export.raster import Shot, SideFaces, png, rasterize, round_cut, sides
from rulepress.games.base import Drawer
from rulepress.pnp.faces import Tables
from rulepress.pnp.kit import with_variant

HOUSES = {"tgc": "The Game Crafter", "mpc": "MakePlayingCards", "dtc": "DriveThruCards"}


@dataclass(frozen=True)
class Placed:
    """A component and the product it is printed as."""

    comp: Component
    fit: Fit


def placed(doc: Document, house: str, skip: frozenset[str]) -> tuple[list[Placed],
                                                                      list[Diagnostic]]:
    """The components ``house`` prints, each with its product; an error at each component no
    product fits (naming the nearest), unless it is skipped."""
    found: list[Placed] = []
    problems: list[Diagnostic] = []
    for comp in doc.meta.components:
        if not comp.in_kit or comp.size is None or comp.id in skip:
            continue
        chosen = fit(comp, house, round_cut(doc, comp))
        if chosen is None:
            near = ", ".join(p.label() for p in nearest(comp, house))
            sizes = " or ".join(f"{s.width:g} x {s.height:g} mm"
                                for s in (comp.size, *comp.variants.values()))
            problems.append(error(comp.loc, (
                f"component '{comp.id}' ({sizes}): no {HOUSES[house]} product fits it "
                f"(within 1 mm); the nearest are {near}. Resize it, add a size variant that "
                f"fits, or leave it out with --skip {comp.id}")))
            continue
        found.append(Placed(comp, chosen))
    return found, problems



def house_sides(doc: Document, drawers: Mapping[str, Drawer], tables: Tables,
                parts: Sequence[Placed]) -> dict[tuple[str, bool], SideFaces]:
    """The sides of the placed components, each drawn at the size its product fits: a
    component placed by a size variant is drawn (its layouts laid out) as that variant's kit
    draws it."""
    found: dict[tuple[str, bool], SideFaces] = {}
    for variant in dict.fromkeys(p.fit.variant for p in parts):
        version = with_variant(doc, variant) if variant else doc
        ids = {p.comp.id for p in parts if p.fit.variant == variant}
        found |= sides(version, drawers, tables,
                       [c for c in version.meta.components if c.id in ids])
    return found


def shots(side: SideFaces, where: Fit) -> list[Shot]:
    return [_shot(side, key, where) for key in side.distinct()]


def house_files(house: str, parts: Sequence[Placed],
                found: Mapping[tuple[str, bool], SideFaces],
                data: Mapping[str, tuple[Row, ...]] | None = None) -> dict[str, bytes | str]:
    """File name (inside the export folder) -> content: the PNGs, 300 dpi recorded in each,
    and manifest.csv; ``data``: each component's rows, which name its cards.

    Each distinct face is ``NN-CARD-NAME-SIDE-xQTY.png``: NN the upload order, CARD the card's
    id (``<component>-KKK``, KKK numbering the component's distinct faces), NAME its data row's
    ``name`` (or ``title``) as a slug (none without one), SIDE ``front`` or ``back``, QTY its
    copies. A component whose backs vary is numbered by front-and-back pairs, so each back has
    its front's name; a shared back is ``NN-COMPONENT-back-xQTY.png``."""
    files: dict[str, bytes | str] = {}
    rows: list[tuple[str, str, str, str, str, int, str]] = []

    def add(n: int, part: Placed, card: int | None, name: str, what: str, qty: int,
            image: Image.Image) -> None:
        comp = part.comp
        if card is None:  # the one back every copy shares
            card_id, file = "", f"{n:02d}-{comp.id}-{what}-x{qty}.png"
        else:  # a card named only by its component: its id says it all
            card_id = f"{comp.id}-{card:03d}"
            slug = f"-{file_slug(name)}" if name != comp.name else ""
            file = f"{n:02d}-{card_id}{slug}-{what}-x{qty}.png"
        files[file] = png(image, DPI)
        rows.append((file, comp.id, card_id, name, what, qty, part.fit.product.name))

    for n, part in enumerate(parts, 1):
        comp = part.comp
        # Each copy's name: its row's, else the component's (the card's id numbers it).
        names = [field(row, NAME_FIELDS) or comp.name
                 for row in card_rows(comp, (data or {}).get(comp.id, ()))]
        front, back = found[(comp.id, False)], found.get((comp.id, True))
        if back is not None and len(set(back.keys)) > 1:
            pairs = list(dict.fromkeys(zip(front.keys, back.keys, strict=True)))
            keys = list(zip(front.keys, back.keys, strict=True))
            for side, index in ((front, 0), (back, 1)):
                taken = [_shot(side, pair[index], part.fit) for pair in pairs]
                what = "back" if index else "front"
                for k, (pair, image) in enumerate(zip(pairs, rasterize(taken), strict=True), 1):
                    add(n, part, k, names[keys.index(pair)], what, keys.count(pair), image)
            continue
        for side in (s for s in (front, back) if s is not None):
            taken = shots(side, part.fit)
            what = "back" if side.back else "front"
            for k, (shot, image) in enumerate(zip(taken, rasterize(taken), strict=True), 1):
                card = None if side.back else k
                add(n, part, card, names[side.drawn(shot.key)] if card else comp.name, what,
                    side.copies(shot.key), image)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(("file", "component", "card", "name", "side", "copies", "product"))
    writer.writerows(rows)
    files["manifest.csv"] = out.getvalue()
    return files


def _shot(side: SideFaces, key: int, where: Fit) -> Shot:
    p = where.product
    return Shot(side, key, where.size, p.pixels, DPI, (p.width, p.height), where.turned)

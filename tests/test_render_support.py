"""Shared fixtures for the render tests: documents built by hand or read from fixtures/render."""

from __future__ import annotations

from pathlib import Path

from rulepress.diagnostics import SourceLoc
from rulepress.document.model import (
    Component,
    Document,
    Example,
    Heading,
    Licence,
    Meta,
    Part,
    Provenance,
)
from rulepress.document.reader import read_document
from rulepress.games.base import Figure
from rulepress.render import templates_dir
from rulepress.units import Size
from rulepress.validate.results import RenderedExample, Status

FIXTURES = Path(__file__).parent / "fixtures" / "render"
LANTERN = FIXTURES / "lantern" / "rules.md"


def track_svg(at: int) -> str:
    cells = "".join(
        f'<rect x="{8 + i * 23}" y="14" width="20" height="24" '
        f'fill="{"#1f5f6b" if i == at else "#fff"}" stroke="#555"/>'
        f'<text x="{18 + i * 23}" y="52" font-size="9" text-anchor="middle">{i}</text>'
        for i in range(10)
    )
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="240" height="60" viewBox="0 0 240 60" '
            f'font-family="Carlito, sans-serif">{cells}</svg>')


def rendered_examples(doc: Document, status: Status = Status.PROVEN) -> dict[str, RenderedExample]:
    """What the check phase would hand over; the prose's placeholders filled by hand."""
    out = {}
    for ex in doc.examples:
        prose = ex.text.replace("{{ setup.at }}", "four").replace("{{ claims.at }}", "five")
        out[ex.id] = RenderedExample(
            id=ex.id, title=ex.title, prose=prose,
            moves=tuple(str(m) for m in ex.data.get("moves", ())),
            claims=tuple((k, str(v)) for k, v in ex.claims.items()),
            figures=[Figure("before", track_svg(2)), Figure("after", track_svg(5))],
            status=status,
        )
    return out


def lantern() -> Document:
    return read_document(LANTERN)


def roots(doc: Document) -> list[Path]:
    return [doc.path.parent.resolve(), templates_dir()]


def make_doc(body: str, folder: Path, *, title: str = "Test Game",
             examples: tuple[Example, ...] = (), headings: tuple[Heading, ...] = (),
             body_line: int = 10, components: tuple[Component, ...] = ()) -> Document:
    """A Document built directly (bypassing the reader, e.g. to feed raw HTML through)."""
    path = folder / "rules.md"
    meta = Meta(
        title=title, designer="D. Signer", players_min=2, players_max=2, duration="5 minutes",
        licence=Licence("CC0", "https://creativecommons.org/publicdomain/zero/1.0/"),
        provenance=(Provenance("Original", "a test"),),
        components=components or (Component("deck", "Deck", 52, SourceLoc(path, 5),
                                            Size(63.5, 88.9)),),
    )
    return Document("test", path, meta, (Part(path, body, body_line),), headings, examples)

"""Nothing reaches the page unchecked: what a build wrote is read back, and source markup in
it is an error at the source line it came from (render/readback.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from support import Quiet, pigeon_race, run

from rulepress.build import build_rulebooks
from rulepress.diagnostics import Diagnostic, RulepressError, Severity
from rulepress.document.reader import read_document
from rulepress.errata.compare import _plain, blocks
from rulepress.render.readback import Sources, html_text, read_back, sources_of
from rulepress.validate.hooks import NONE
from rulepress.validate.printing import check_printing

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("go-stop", "pigeon", "pigeon-race", "worm-derby")

FRONT = """---
title: Tiny
designer: Someone
players: {min: 2, max: 2}
duration: 5 minutes
licence: {name: CC0, url: "https://creativecommons.org/publicdomain/zero/1.0/"}
provenance: [{title: Written for the tests, source: tests/test_readback.py}]
components: [{id: card, name: Card, count: 8}]
---

# Tiny

## Play

Lay a card in the row. Each player keeps a hand of cards.

A :dfn[column] is two cards of a number; [a column holds 2 cards]{rul=column.size}.

Cards in a column stay there for good.
"""


def line(needle: str, text: str = FRONT) -> int:
    return next(n for n, each in enumerate(text.split("\n"), 1) if needle in each)


def refused_build(tmp_path: Path, text: str) -> list[Diagnostic]:
    """What stops the build of a game whose rules are ``text``."""
    folder = tmp_path / "src" / "tiny"
    folder.mkdir(parents=True)
    (folder / "rules.md").write_text(text, encoding="utf-8")
    with pytest.raises(RulepressError) as caught:
        build_rulebooks(tmp_path / "src", tmp_path / "out", papers=("a4",), pdf=False,
                        reporter=Quiet())
    return caught.value.diagnostics


def test_markup_in_a_generated_text_is_an_error_at_its_source_line(tmp_path: Path) -> None:
    """A mistyped rule mark ({rul=...}) is read by nothing: the body and the glossary, which
    renders the term's sentence, would print it. The build stops at the sentence's line."""
    found = refused_build(tmp_path, FRONT)
    assert {d.severity for d in found} == {Severity.ERROR}
    assert {d.loc.line if d.loc else 0 for d in found} == {line("{rul=")}
    assert {d.loc.col if d.loc else 0 for d in found} == {FRONT.split("\n")[line("{rul=") - 1]
                                                          .index("]{rul=") + 1}
    # one error a page: the reference edition's glossary prints it too, from the same line
    assert sorted(d.message.split(" prints ")[0] for d in found) == ["tiny-reference.html",
                                                                     "tiny.html"]
    assert "the source markup ']{rul=column.size}'" in found[0].message
    assert "“…" in found[0].message and "holds 2 cards]{rul=column.size}" in found[0].message
    assert not (tmp_path / "out" / "tiny").exists()  # nothing written


def test_an_attribute_cut_off_from_its_mark_is_markup_too(tmp_path: Path) -> None:
    """':dfn[column]s{def=...}': the 's' ends the mark, and the attribute, which nothing reads,
    printed as '...columns{def=“A column...”}' with no ']' before it. It is an error now."""
    text = FRONT.replace("A :dfn[column] is two cards of a number; [a column holds 2 cards]"
                         "{rul=column.size}.", 'Pairs make :dfn[column]s{def="A column is two '
                         'cards of a number."} on the table.')
    found = refused_build(tmp_path, text)
    assert {d.loc.line if d.loc else 0 for d in found} == {line("]s{def=", text)}
    assert all("the source markup '{def=“'" in d.message for d in found), found[0].message


def test_the_line_is_found_by_the_words_printed_before_the_markup(tmp_path: Path) -> None:
    """Two source lines hold the same markup: the one whose words precede it on the page."""
    path = tmp_path / "rules.md"
    lines = ("Draw up to {{ tables.hand.size }} cards.", "",
             "Your hand holds {{ tables.hand.size }} cards at most.")
    sources = Sources(((path, lines),))
    (first,) = read_back("Glossary hand: Your hand holds {{ tables.hand.size }} cards at most.",
                         "page.html", sources)
    assert first.loc is not None and (first.loc.line, first.loc.col) == (3, 17)
    (other,) = read_back("… so draw up to {{ tables.hand.size }} cards.", "page.html", sources)
    assert other.loc is not None and (other.loc.line, other.loc.col) == (1, 12)
    # printed text no source line holds: the first file's first line, the text quoted
    (lost,) = read_back("a :icon[shell] here", "page.html", sources)
    assert lost.loc is not None and lost.loc.line == 1 and "“a :icon[shell] here”" in lost.message


def test_markup_shown_as_code_is_meant() -> None:
    page = ("<html><head><style>a{{x}}</style></head><body><p>Write <code>:dfn[term]</code> "
            "once.</p><p>A :icon[shell] slipped</p></body></html>")
    text, code = html_text(page)
    assert ":dfn[" not in text and ":dfn[term]" in code and "{{x}}" not in text
    found = read_back(text, "p.html", Sources(()))
    assert [d.message.split("'")[1] for d in found] == [":icon["]


def test_the_errata_sheet_says_the_rules_as_printed(tmp_path: Path) -> None:
    """The errata's plain words and its Rules page come from blocks as the book prints them."""
    assert _plain("Play [5 cards]{rule=hand.usual} to the :dfn[row]{def=\"A row is.\"}, "
                  ":icon[shell] then **draw**.") == "Play 5 cards to the row, then draw."
    doc = read_document(ROOT / "sources" / "pigeon" / "rules.md")
    check_printing([doc], hooks=NONE)  # as diff checks both printings: the engine's numbers known
    for block in blocks(doc):
        assert "{rule=" not in block.text and "{{" not in block.text or "```" in block.text


def test_sources_hold_every_part(tmp_path: Path) -> None:
    doc = read_document(ROOT / "sources" / "pigeon" / "rules.md")
    held = [path for path, _ in sources_of(doc).files]
    assert held[0] == doc.path and {p.path for p in doc.parts} <= set(held)


@pytest.mark.slow  # builds whole books
def test_the_bundled_books_print_no_markup(tmp_path: Path) -> None:
    """Both editions of the four games, read back: no error (a build with one would raise)."""
    built = build_rulebooks(ROOT / "sources", tmp_path, games=GAMES, papers=("a4",), pdf=False,
                            project=ROOT, reporter=Quiet())
    assert not [d for d in built.report.diagnostics if d.severity is Severity.ERROR]
    for game in GAMES:
        for name in (f"{game}.html", f"{game}-reference.html"):
            text, _ = html_text((tmp_path / game / name).read_text(encoding="utf-8"))
            assert read_back(text, name, Sources(())) == []


@pytest.mark.slow  # builds whole books
def test_markup_in_a_translation_is_an_error_at_its_catalog_line(tmp_path: Path) -> None:
    """The German book is read back too; its printed words are found in the catalog."""
    shutil.copy(ROOT / "rulepress.toml", tmp_path / "rulepress.toml")
    pigeon_race(tmp_path / "sources", locales=True)  # its report's first block alone
    po = tmp_path / "sources" / "pigeon-race" / "locales" / "de.po"
    said = 'Mischt diese Karten zurück. Gespielt wird im Uhrzeigersinn."'  # a msgstr line's end
    text = po.read_text(encoding="utf-8")
    assert text.count(said) == 1
    po.write_text(text.replace(said, 'Mischt diese Karten zurück. [Gespielt wird im '
                                     'Uhrzeigersinn.]{rul=x}"'), encoding="utf-8")
    at = line("{rul=x}", po.read_text(encoding="utf-8"))
    code, err = run("build", "pigeon-race", "--project", str(tmp_path), "--no-pdf", "--lang",
                    "de", "--edition", "player", "--out", str(tmp_path / "out"))
    assert code == 2
    assert f"de.po:{at}:" in err and "pigeon-race.html prints the source markup ']{rul=x}'" in err
    assert "Traceback" not in err


def test_markup_on_a_kit_is_an_error_at_its_layout_line(tmp_path: Path) -> None:
    """A kit's PDF is read back too; its words are found in the game's layouts and data."""
    from reportlab.pdfgen.canvas import Canvas

    from rulepress.pnp.generator import _read_back

    folder = tmp_path / "tiny"
    (folder / "layouts").mkdir(parents=True)
    (folder / "rules.md").write_text(FRONT, encoding="utf-8")
    layout = "size: [63.5mm, 88.9mm]\ntexts:\n  - text: 'Score {{ row.points } each'\n"
    (folder / "layouts" / "card.yml").write_text(layout, encoding="utf-8")
    pdf = tmp_path / "kit.pdf"
    canvas = Canvas(str(pdf))
    canvas.drawString(72, 720, "Score {{ row.points } each")
    canvas.showPage()
    canvas.save()
    doc = read_document(folder / "rules.md")
    (found,) = _read_back(doc, {Path("tiny/tiny-a4.pdf"): pdf.read_bytes()})
    assert found.loc is not None and found.loc.path.name == "card.yml"
    assert (found.loc.line, found.loc.col) == (3, 18)
    assert found.message.startswith("tiny-a4.pdf p. 1 prints the source markup '{{'")
    assert _read_back(doc, {Path("tiny/tiny-a4.pdf"): _clean_kit()}) == []


def _clean_kit() -> bytes:
    from io import BytesIO

    from reportlab.pdfgen.canvas import Canvas

    out = BytesIO()
    canvas = Canvas(out)
    canvas.drawString(72, 720, "Score 3 points each")
    canvas.showPage()
    canvas.save()
    return out.getvalue()

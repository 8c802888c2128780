"""What the compiler adds to every figure: an accessible name, and a width that keeps its labels
legible."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_render_support import make_doc, track_svg

from rulepress.diagnostics import SourceLoc
from rulepress.document.model import Example
from rulepress.games.base import Figure
from rulepress.render import render_html
from rulepress.render.figures import legible_width, named
from rulepress.validate.results import RenderedExample, Status

SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 50">{}</svg>'


def test_a_figure_is_named_by_the_compiler_over_what_the_engine_said() -> None:
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" role="presentation" aria-hidden="true" '
           "aria-label='old' data-x=\"a>b\" viewBox=\"0 0 9 9\"><text>x</text></svg>")
    out = named(svg, 'Pile "A" <before>')
    root = re.match(r"<svg[^>]*>", out.replace('"a>b"', '""'))
    assert root is not None
    assert root.group(0).count("role=") == 1 and "aria-hidden" not in out and "old" not in out
    assert out.startswith('<svg role="img" aria-label="Pile &quot;A&quot; &lt;before&gt;" ')
    assert 'data-x="a>b" viewBox="0 0 9 9"><text>x</text></svg>' in out


@pytest.mark.parametrize(("body", "width"), [
    ('<text font-size="10">a</text>', 270),  # 300 user units * 9 / 10
    ('<text font-size="10">a</text><text font-size="6">b</text>', 450),  # the smallest counts
    ('<g font-size="5"><text>a</text></g>', 540),  # inherited
    ('<g font-size="12"><text font-size="50%">a</text></g>', 450),
    ('<g font-size="12"><text style="fill: red; font-size: .5em">a</text></g>', 450),
    ('<text font-size="20" style="font-size: 6px">a</text>', 450),  # style wins
    ('<text font-size="4.5pt">a</text>', 450),  # 6 px
    ('<g transform="translate(3 4) scale(0.5)"><text font-size="12">a</text></g>', 450),
    ('<g transform="matrix(2 0 0 2 0 0)"><text font-size="3">a</text></g>', 450),
    ('<g transform="rotate(90)"><text font-size="10">a</text></g>', 270),
    ('<text font-size="4"> </text><text font-size="10">a</text>', 270),  # blank text: no label
    ('<text font-size="4"><tspan font-size="10">a</tspan></text>', 270),
    ('<text font-size="4">a<tspan font-size="10">b</tspan></text>', 675),
    ("<text>a</text>", 169),  # no size anywhere: CSS 'medium', 16 px
    ('<rect width="9" height="9"/>', None),  # nothing to read
    ('<g transform="scale(0)"><text font-size="2">a</text></g><text font-size="10">b</text>',
     270),  # a text scaled to nothing is not a label
    ("<g>" * 5000 + '<text font-size="10">a</text>' + "</g>" * 5000, 270),
])
def test_legible_width(body: str, width: int | None) -> None:
    assert legible_width(SVG.format(body)) == width


def test_legible_width_from_width_without_a_viewbox_and_from_nothing() -> None:
    assert legible_width('<svg width="200px"><text font-size="9">a</text></svg>') == 200
    assert legible_width('<svg width="50%"><text font-size="9">a</text></svg>') is None
    assert legible_width("<svg><text font-size='9'>a</svg>") is None  # not XML: left as drawn


def test_figures_are_named_framed_and_sized_in_the_page(tmp_path: Path) -> None:
    ex = Example("x", "Two moves", SourceLoc(tmp_path / "rules.md", 12), {}, {}, "")
    doc = make_doc("## Rules\n\n```example\nid: x\n```\n", tmp_path, examples=(ex,))
    figures = [Figure("", track_svg(1)), Figure("", track_svg(2)), Figure("after", track_svg(3))]
    page = render_html(doc, {"x": RenderedExample("x", "Two moves", "p", (), (), figures,
                                                    Status.PROVEN)})
    assert re.findall(r'<svg role="img" aria-label="([^"]*)"', page) == [
        "Two moves: figure 1 of 3", "Two moves: figure 2 of 3", "Two moves: after"]
    # track_svg: 240 units wide, labels of 9: 240 px at the least, in a frame that scrolls
    assert len(re.findall(r'<figure data-stage="example-x-fig\d" style="--legible-width: 240px">'
                          r'\n      <div class="figure-frame" tabindex="0"><svg role="img"',
                          page)) == 3
    assert page.count("<figcaption>after</figcaption>") == 1


def test_a_lone_uncaptioned_figure_takes_the_example_title(tmp_path: Path) -> None:
    ex = Example("x", "One move", SourceLoc(tmp_path / "rules.md", 12), {}, {}, "")
    doc = make_doc("## Rules\n\n```example\nid: x\n```\n", tmp_path, examples=(ex,))
    blank = '<svg viewBox="0 0 9 9"><rect width="9" height="9"/></svg>'
    page = render_html(doc, {"x": RenderedExample("x", "One move", "p", (), (),
                                                    [Figure("", blank)], Status.PROVEN)})
    assert ('<figure data-stage="example-x-fig1">\n      <div class="figure-frame"><svg role="img" '
            'aria-label="One move" ' in page)


def test_a_figure_with_a_phone_drawing_shows_one_of_the_two_and_prints_the_wide(
    tmp_path: Path,
) -> None:
    """Figure.narrow: both drawn in the figure's frame, named alike, told apart by class (the
    page's stylesheet shows one by the screen's width); the PDF's page keeps the wide only."""
    from rulepress.render.pdf import figures_as_images

    ex = Example("x", "A long race", SourceLoc(tmp_path / "rules.md", 12), {}, {}, "")
    doc = make_doc("## Rules\n\n```example\nid: x\n```\n", tmp_path, examples=(ex,))
    wide, narrow = track_svg(3), '<svg viewBox="0 0 90 90"><text font-size="9">n</text></svg>'
    page = render_html(doc, {"x": RenderedExample("x", "A long race", "p", (), (),
                                                    [Figure("", wide, narrow)], Status.PROVEN)})
    assert re.findall(r'<svg class="(figure-\w+)" role="img" aria-label="([^"]*)"', page) == [
        ("figure-wide", "A long race"), ("figure-narrow", "A long race")]
    assert "--legible-width" not in page.split('id="example-x"')[1]  # nothing to scroll
    printed = figures_as_images(page)
    assert '<svg class="figure-narrow"' not in printed
    assert printed.count("data:image/svg+xml") == 1


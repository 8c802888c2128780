"""What in a rendered page would fetch or run something (render.offline), case by case; the
hostile corpus (offline-*) checks the same through `rulepress build` with file:line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulepress.render import offline
from rulepress.render.offline import checked_page, css_urls, network_references, read_page

ALLOWED = [
    '<a href="https://boardgamegeek.com/boardgame/1">the original</a>',
    '<a href="#set-up">set-up</a> <a href="pigeon-race-a4.pdf">PDF</a>',
    '<link rel="license" href="https://creativecommons.org/licenses/by/4.0/">',
    '<img src="images/board.svg" alt=""> <img src="data:image/png;base64,AAAA" alt="">',
    '<svg><use href="#pawn"/><image href="data:image/svg+xml,%3Csvg/%3E"/></svg>',
    '<style>@font-face { src: url("fonts/Carlito-Regular.ttf") } p { color: red }</style>',
    '<p style="background: url(data:image/png;base64,AAAA)">x</p>',
    '<p>javascript: is only text here, and so is https://example.com</p>',
    '<img src="../fonts/../pig/board.svg" alt=""> <img src="./a/../../index.png" alt="">',
]

REFUSED = [
    ('<script>alert(1)</script>', "<script"),
    ('<iframe src="rules.html"></iframe>', "<iframe"),
    ('<base href="https://example.com/">', "<base"),
    ('<img src="https://example.com/p.png" alt="">', "https://example.com/p.png"),
    ('<img srcset="a.png 1x, //example.com/b.png 2x" alt="">', "//example.com/b.png"),
    ('<link rel="stylesheet" href="https://example.com/a.css">', "https://example.com/a.css"),
    ('<link rel="preload" href="file:///etc/passwd">', "file:///etc/passwd"),
    ('<svg><image href="http://example.com/a.svg"/></svg>', "http://example.com/a.svg"),
    ('<style>@import "https://example.com/a.css";</style>', "https://example.com/a.css"),
    ('<style>@media print { p { background: url(http://x/p.png) } }</style>', "http://x/p.png"),
    ("<p style=\"background-image: image-set('//x/a.png' 1x)\">x</p>", "//x/a.png"),
    ('<a href=" JavaScript:alert(1)">x</a>', " JavaScript:alert(1)"),
    ('<p onclick="x()">x</p>', "onclick"),
    ('<meta http-equiv="Refresh" content="0; url=https://example.com/">', "http-equiv"),
    ('<img src="/etc/passwd" alt="">', "/etc/passwd"),
    ('<p style="background: url(../../home/x.png)">x</p>', "../../home/x.png"),
    ('<img src="a/../..%2F..\\x.png" alt="">', "a/../..%2F..\\x.png"),
]


@pytest.mark.parametrize("html", ALLOWED)
def test_what_a_page_may_hold(html: str) -> None:
    assert network_references(html) == []


@pytest.mark.parametrize(("html", "named"), REFUSED)
def test_what_a_page_may_not_hold_is_named(html: str, named: str) -> None:
    refused = network_references(html)
    assert refused and refused[0][1] == named, refused


def test_css_urls_reads_nested_blocks_and_skips_comments() -> None:
    css = '/* url(http://no) */ @import url(a.css); @supports (x: y) { p { b: url("c.png") } }'
    assert list(css_urls(css)) == ["a.css", "c.png"]


def test_a_style_with_no_function_or_at_rule_fetches_nothing_and_escapes_still_count() -> None:
    """css_urls skips the tokenizer for a style with no '(' and no '@' (no url(), image(),
    @import can be written without them, escaped or not)."""
    assert list(css_urls("fill:#fff;stroke:#000;font-size:12px")) == []
    assert list(css_urls(r"background: u\72l(http://x/a.png)")) == ["http://x/a.png"]
    assert list(css_urls("@import 'b.css';")) == ["b.css"]
    page = '<svg><rect style="fill: u&#114;l(http://x/y.png)"/></svg>'
    assert network_references(page) == [("a reference to another place", "http://x/y.png")]


def test_templates_are_compiled_once_and_again_when_their_source_or_filters_change() -> None:
    """A page's environment is new each time; its templates are compiled once a process
    (sandbox.COMPILED), by source and by the filters the sandbox checked them against."""
    import jinja2

    from rulepress.sandbox import Compiled, Sandbox

    compiled = Compiled()
    sources = {"t.j2": "{{ x | upper }}"}

    def env() -> Sandbox:
        return Sandbox(loader=jinja2.DictLoader(sources), bytecode_cache=compiled)

    calls: list[str] = []
    first = env()
    original = Sandbox.compile

    def counted(self: Sandbox, source: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(str(source)[:20])
        return original(self, source, *args, **kwargs)

    Sandbox.compile = counted  # type: ignore[method-assign]
    try:
        assert first.get_template("t.j2").render(x="a") == "A"
        assert env().get_template("t.j2").render(x="b") == "B" and len(calls) == 1
        sources["t.j2"] = "{{ x | lower }}"
        assert env().get_template("t.j2").render(x="C") == "c" and len(calls) == 2
        fewer = env()
        del fewer.filters["lower"]
        with pytest.raises(jinja2.TemplateError):  # checked again, not taken from the cache
            fewer.get_template("t.j2")
        assert len(calls) == 3
    finally:
        Sandbox.compile = original  # type: ignore[method-assign]


# Pieces of pages for checked_page: figures (clean, bad, tricky ends) and what surrounds them.
PIECES = [
    '<svg><rect style="fill:#fff"/><text>3</text></svg>',
    '<svg viewBox="0 0 2 2"><image href="data:image/svg+xml,%3Csvg/%3E"/></svg>',
    '<svg><image href="http://example.com/a.svg"/></svg>',
    '<svg title="</svg>" onload="x()">',  # the figure's end is in an attribute
    '<svg><!-- </svg> -->',  # ... or in a comment
    '<svg><style></svg><p>x</p></style></svg>',  # ... or in a style
    '<p title="', '">', '<!--', '-->', '<style>', '</style>', 'url(http://x/p.png)',
    '<p>text &amp; more</p>', '<script>', '</script>', '<rulepress-spliced>',
    '<a href="#x">x</a>', '<img src="https://example.com/p.png" alt="">', "</svg>",
    "<svg a=b>", "</SVG>", "</svg >", "<p ", "<![CDATA[", "]]>", "<!DOCTYPE html>", "<?x ",
    '<img src="data:image/png;base64,AAAA" alt="">', "'", '"', ">", "<", "&",
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=12))
def test_a_page_checked_figure_by_figure_finds_what_the_whole_page_parse_finds(
        pieces: list[str]) -> None:
    """checked_page parses the figures apart from the rest of the page: it must find exactly
    what the parse of the whole finds, wherever a figure's text ends up (an attribute, a
    comment, a style) and whatever a figure leaves open."""
    page = "".join(pieces)
    whole = read_page(page)
    spliced = checked_page(page)
    assert (spliced.problems, spliced.bad_images) == (whole.problems, whole.bad_images)


def test_a_page_whose_figures_were_checked_before_parses_only_the_rest(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The memo keeps a page's set of figures as clean: the next process (a serve rebuild)
    parses only the text around them, and a changed figure is parsed again."""
    monkeypatch.setenv("RULEPRESS_CACHE", str(tmp_path))
    figures = [f'<svg><rect width="{n}"/><text>{n}</text></svg>' for n in range(3)]
    page = "<p>a</p>" + "<p>b</p>".join(figures)
    parsed: list[str] = []
    real = offline._parsed
    monkeypatch.setattr(offline, "_parsed",
                        lambda html, up: parsed.append(html) or real(html, up))
    monkeypatch.setattr(offline, "_clean", set())
    assert checked_page(page).problems == []
    assert len(parsed) == 4  # the rest, then each figure
    monkeypatch.setattr(offline, "_clean", set())  # as a fresh process
    parsed.clear()
    assert checked_page(page).problems == []
    assert parsed == ["<p>a</p><rulepress-spliced><p>b</p><rulepress-spliced><p>b</p>"
                      "<rulepress-spliced>"]
    parsed.clear()
    bad = page.replace("<text>2</text>", '<image href="http://x/a.png"/>')
    assert checked_page(bad).problems == [("a reference to another place", "http://x/a.png")]

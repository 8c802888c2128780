"""What in a rendered page would fetch or run something (render.offline), case by case; the
hostile corpus (offline-*) checks the same through `rulepress build` with file:line."""

from __future__ import annotations

import pytest

from rulepress.render.offline import css_urls, network_references

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

"""The jail: refused references are diagnostics at their file:line, and the fetcher never leaks."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_render_support import make_doc, track_svg

from rulepress.diagnostics import RulepressError
from rulepress.render import check_references, render_html, render_pdf, templates_dir
from rulepress.render.fetcher import JailedFetcher, RefusedFetch

BODY = """\
## Rules

A [safe link](#rules) and [the licence](https://example.org/licence).

Do not read [secrets](file:///etc/passwd).

![a probe](http://127.0.0.1:9/probe.png)

Climb out: ![escape](../../etc/passwd.png)

<link rel="attachment" href="rules.md">

[nowhere](#no-such-anchor) and ![missing](missing.png) and ![ok](board.svg)
"""
BODY_LINE = 20  # the body's first line in the (imagined) file


@pytest.fixture()
def game(tmp_path: Path) -> Path:
    folder = tmp_path / "sources" / "game"
    folder.mkdir(parents=True)
    (folder / "board.svg").write_text(track_svg(3))
    (tmp_path / "sources" / "secret.png").write_bytes(b"not for the rulebook")
    return folder


def test_each_refused_reference_is_reported_at_its_line(game: Path) -> None:
    from rulepress.diagnostics import SourceLoc
    from rulepress.document.model import Heading

    heading = Heading(2, "Rules", "rules", SourceLoc(game / "rules.md", BODY_LINE))
    doc = make_doc(BODY, game, body_line=BODY_LINE, headings=(heading,))
    found = [(d.loc.line if d.loc else 0, d.message) for d in check_references(doc)]
    line = {key: BODY_LINE + n for n, text in enumerate(BODY.splitlines())
            for key in ("file:", "127.0.0.1", "../../", "attachment", "no-such") if key in text}
    expected = [
        (line["file:"], "refused link 'file:///etc/passwd'"),
        (line["127.0.0.1"], "refused image 'http://127.0.0.1:9/probe.png'"),
        (line["../../"], "refused image '../../etc/passwd.png'"),
        (line["attachment"], "raw HTML is not allowed in rules"),
        (line["no-such"], "no heading, example, ruling or term has the anchor '#no-such-anchor'"),
        (line["no-such"], "refused image 'missing.png'"),
    ]
    for where, message in expected:
        assert any(ln == where and message in msg for ln, msg in found), (where, message, found)
    assert len(found) == len(expected), found
    assert all(d.loc is not None and d.loc.path == doc.path for d in check_references(doc))


def test_columns_point_at_the_url(game: Path) -> None:
    doc = make_doc("Text [x](file:///etc/passwd)\n", game, body_line=7)
    (diag,) = check_references(doc)
    assert str(diag).startswith(f"{doc.path}:7:10: error: refused link")


def test_a_clean_document_has_no_diagnostics(game: Path) -> None:
    body = "## Rules\n\nSee ![board](board.svg) and [the web](https://example.org).\n"
    doc = make_doc(body, game)
    assert check_references(doc) == []


def test_rendering_refuses_an_escaping_image_at_its_line(game: Path) -> None:
    doc = make_doc("## Rules\n\nText.\n\n![x](../secret.png)\n", game, body_line=30)
    with pytest.raises(RulepressError) as err:
        render_html(doc, {})
    (diag,) = err.value.diagnostics
    assert diag.loc is not None and diag.loc.line == 34 and "'..' escapes" in diag.message


@pytest.mark.parametrize("url", [
    "file:///etc/passwd",
    "http://127.0.0.1:9/",
    "https://example.org/font.ttf",
    "ftp://127.0.0.1/x",
    "file://otherhost/etc/passwd",
])
def test_fetcher_refuses_outside_urls(game: Path, url: str) -> None:
    fetcher = JailedFetcher([game])
    with pytest.raises(RefusedFetch):
        fetcher.fetch(url)
    assert fetcher.refused and fetcher.refused[0].url == url


def test_fetcher_refuses_dot_dot_escapes_and_symlinks(game: Path) -> None:
    fetcher = JailedFetcher([game])
    with pytest.raises(RefusedFetch):
        fetcher.fetch(game.as_uri() + "/../secret.png")
    (game / "link.png").symlink_to(game.parent / "secret.png")
    with pytest.raises(RefusedFetch, match="outside"):
        fetcher.fetch((game / "link.png").as_uri())


def test_fetcher_serves_files_in_the_jail_and_data(game: Path) -> None:
    fetcher = JailedFetcher([game])
    response = fetcher.fetch((game / "board.svg").as_uri())
    assert response.read().startswith(b"<svg") and response.content_type == "image/svg+xml"
    assert fetcher.fetch("data:text/plain;base64,aGk=").read() == b"hi"
    assert fetcher.fetch("data:,a%20b").read() == b"a b"
    assert fetcher.refused == []


def _page(inner: str) -> str:
    return f"<!DOCTYPE html><html lang=en><head><title>t</title></head><body>{inner}</body></html>"


@pytest.mark.parametrize("inner", [
    '<img src="file:///etc/passwd">',
    '<img src="http://127.0.0.1:9/probe.png">',
    '<img src="../secret.png">',
    '<p style="background: url(http://127.0.0.1:9/bg.png)">x</p>',
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
    '<image href="file:///etc/passwd" width="10" height="10"/></svg>',
    '<a rel="attachment" href="board.svg">kit</a>',
    '<link rel="attachment" href="board.svg">',
])
def test_render_pdf_fails_instead_of_fetching(game: Path, inner: str) -> None:
    with pytest.raises(RulepressError) as err:
        render_pdf(_page(inner), "a4", base_url=game, allowed_roots=[game, templates_dir()])
    assert "refused" in str(err.value)


def test_render_pdf_reads_files_inside_the_jail(game: Path) -> None:
    pdf = render_pdf(_page('<p>Board:</p><img src="board.svg">'), "a4", base_url=game,
                     allowed_roots=[game, templates_dir()])
    assert pdf.startswith(b"%PDF")


def test_hrefs_built_from_names_cannot_become_a_scheme_query_or_fragment() -> None:
    from rulepress.render import IndexEntry, render_index

    name = "javascript:alert(document.domain)%2F%2F"
    page = render_index([IndexEntry(title="T", html=f"{name}/{name}.html",
                                    links=(("PDF (A4)", f"{name}/a#b?c.pdf"),))])
    assert 'href="javascript%3Aalert%28document.domain%29%252F%252F/' in page
    assert 'href="javascript:' not in page
    assert "a%23b%3Fc.pdf" in page

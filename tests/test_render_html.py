"""The HTML rulebook page: structure, anchors, escaping, self-containment, overrides."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from test_render_support import lantern, make_doc, rendered_examples, track_svg

from rulepress.diagnostics import RulepressError, SourceLoc
from rulepress.document.model import Example
from rulepress.games.base import Figure
from rulepress.render import IndexEntry, render_html, render_index
from rulepress.validate.results import RenderedExample, Status


class Page(HTMLParser):
    """Collects ids, hrefs, TOC links and headings from a page."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.hrefs: list[str] = []
        self.toc: list[str] = []
        self.headings: list[tuple[str, str]] = []  # (tag, id)
        self.tags: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append(tag)
        if a.get("id"):
            self.ids.append(str(a["id"]))
        if tag == "a" and a.get("href"):
            self.hrefs.append(str(a["href"]))
            if "toc-link" in (a.get("class") or ""):
                self.toc.append(str(a["href"]))
        if re.fullmatch(r"h[1-6]", tag):
            self.headings.append((tag, str(a.get("id", ""))))


@pytest.fixture(scope="module")
def page() -> str:
    doc = lantern()
    return render_html(doc, rendered_examples(doc), links={"PDF (A4)": "lantern-a4.pdf"})


def test_every_anchor_and_toc_link_resolves(page: str) -> None:
    parsed = Page(page)
    assert len(parsed.ids) == len(set(parsed.ids)), "duplicate ids"
    internal = [h[1:] for h in parsed.hrefs if h.startswith("#")]
    assert internal, "no internal links"
    assert set(internal) <= set(parsed.ids)
    assert len(parsed.toc) >= 8


def test_toc_lists_the_headings_in_order() -> None:
    doc = lantern()
    parsed = Page(render_html(doc, rendered_examples(doc)))
    wanted = [f"#{h.anchor}" for h in doc.headings if h.level in (2, 3)]
    # no terms nor rulings, but a table: its rows are indexed
    assert parsed.toc == wanted + ["#rp-notation", "#rp-index", "#rp-credits"]
    # every body heading carries the reader's anchor
    heading_ids = {i for _, i in parsed.headings}
    assert {h.anchor for h in doc.headings} <= heading_ids


def test_cover_components_examples_and_credits(page: str) -> None:
    assert '<h1 class="cover-title" id="lantern-walk">Lantern Walk</h1>' in page
    assert page.count("<h1") == 1  # the body's "# Lantern Walk" is folded into the cover
    for fact in ("2–4", "15 minutes", "7+", "Ada Tester"):
        assert fact in page
    # the components table sits in the author's "Components" section, before "Setup"
    table = page.index('class="components-table"')
    assert page.index('id="components"') < table < page.index('id="setup"')
    assert "63.5 × 88.9 mm" in page and "In the print-and-play kit (double-sided)" in page
    assert "any small tokens will do" in page
    assert page.count('class="example status-proven"') == 3
    assert 'id="example-first-steps"' in page and "Proven by the rules engine" in page
    assert "The pawn starts on space four and walks to space five." in page
    assert '<a href="https://creativecommons.org/licenses/by/4.0/">CC BY 4.0</a>' in page
    assert "Lantern Walk, a made-up game" in page and "Clarifications" in page
    assert '<a href="lantern-a4.pdf">PDF (A4)</a>' in page


def test_self_contained_and_responsive(page: str) -> None:
    assert "<script" not in page and "<link" not in page
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page.replace(
        'href="https://creativecommons.org/licenses/by/4.0/"', ""))
    assert "url(" not in page  # no font or image fetched by the page (no fonts_href given)
    assert 'name="viewport" content="width=device-width, initial-scale=1"' in page
    assert "max-width: 100%" in page
    assert "<svg" in page  # figures are inline


def test_fonts_href_adds_font_faces_for_screens_only() -> None:
    doc = lantern()
    html = render_html(doc, rendered_examples(doc), fonts_href="../fonts")
    assert 'url("../fonts/Carlito-Bold.ttf")' in html
    assert "@media screen" in html


def test_autoescape(tmp_path: Path) -> None:
    doc = make_doc("## Rules\n\nPlain <em>raw</em> & text.\n", tmp_path,
                   title='<script>alert("x")</script>')
    html = render_html(doc, {})
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in html
    assert "&lt;em&gt;raw&lt;/em&gt; &amp; text" in html


def test_example_fields_are_escaped(tmp_path: Path) -> None:
    ex = Example("x", "t", SourceLoc(tmp_path / "rules.md", 12), {}, {}, "")
    doc = make_doc("## Rules\n\n```example\nid: x\n```\n", tmp_path, examples=(ex,))
    rendered = RenderedExample("x", "<b>bold</b>", "A <i>claim</i>.", ("<m>",),
                               (("k<", "v>"),), [], Status.NOT_CHECKABLE)
    html = render_html(doc, {"x": rendered})
    assert "&lt;b&gt;bold&lt;/b&gt;" in html and "&lt;i&gt;claim&lt;/i&gt;" in html
    assert "<code>&lt;m&gt;</code>" in html and "k&lt;" in html and "v&gt;" in html
    assert "Not checkable: no rules engine" in html


def test_missing_rendering_is_an_error_at_the_example(tmp_path: Path) -> None:
    loc = SourceLoc(tmp_path / "rules.md", 12)
    ex = Example("x", "t", loc, {}, {}, "")
    doc = make_doc("## Rules\n\n```example\nid: x\n```\n", tmp_path, examples=(ex,))
    with pytest.raises(RulepressError) as err:
        render_html(doc, {})
    assert err.value.diagnostics[0].loc == loc


@pytest.mark.parametrize("svg", [
    '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><image href="http://127.0.0.1:9/x.png"/></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>',
])
def test_unsafe_figures_are_refused(tmp_path: Path, svg: str) -> None:
    ex = Example("x", "t", SourceLoc(tmp_path / "rules.md", 12), {}, {}, "")
    doc = make_doc("## Rules\n\n```example\nid: x\n```\n", tmp_path, examples=(ex,))
    rendered = RenderedExample("x", "t", "p", (), (), [Figure("c", svg)], Status.PROVEN)
    with pytest.raises(RulepressError, match="self-contained SVG"):
        render_html(doc, {"x": rendered})


def test_images_are_inlined(tmp_path: Path) -> None:
    (tmp_path / "board.svg").write_text(track_svg(1))
    doc = make_doc("## Rules\n\n![the board](board.svg)\n", tmp_path)
    html = render_html(doc, {})
    assert '<img src="data:image/svg+xml;base64,' in html and 'alt="the board"' in html


def test_components_section_is_added_before_setup(tmp_path: Path) -> None:
    doc = make_doc("Intro.\n\n## Story\n\nOnce.\n\n## Setting up\n\nDeal.\n", tmp_path)
    parsed = Page(render_html(doc, {}))
    assert parsed.toc[:3] == ["#story", "#rp-components", "#setting-up"]


def test_a_game_folder_may_override_a_template(tmp_path: Path) -> None:
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "components.html.j2").write_text(
        "<p class='mine'>{{ components|length }} kinds</p>")
    doc = make_doc("## Rules\n\nText.\n", tmp_path)
    html = render_html(doc, {})
    assert "<p class='mine'>1 kinds</p>" in html


def test_index_lists_every_game() -> None:
    entries = [
        IndexEntry(title="Lantern Walk", html="lantern/lantern.html", subtitle="A walk",
                   players="2–4", duration="15 minutes",
                   links=(("PDF (A4)", "lantern/lantern-a4.pdf"),
                          ("PDF (US Letter)", "lantern/lantern-letter.pdf"),
                          ("Print-and-play kit (A4)", "../pnp/lantern/lantern-a4.pdf"))),
        IndexEntry(title="<Odd> & Co", html="odd/odd.html"),
    ]
    html = render_index(entries)
    for href in ("lantern/lantern.html", "lantern/lantern-a4.pdf", "lantern/lantern-letter.pdf",
                 "../pnp/lantern/lantern-a4.pdf", "odd/odd.html"):
        assert f'href="{href}"' in html
    assert '<a href="lantern/lantern-a4.pdf">PDF (A4)</a>' in html
    assert "&lt;Odd&gt; &amp; Co" in html and "2–4 players · 15 minutes" in html


def test_characters_the_font_lacks_are_warned_at_their_line(tmp_path: Path) -> None:
    from rulepress.render import check_glyphs

    ex = Example("x", "t", SourceLoc(tmp_path / "rules.md", 40), {}, {}, "")
    doc = make_doc("## Rules\n\nA → B ⇒ C is fine.\n\nA 漢 B is not.\n", tmp_path, body_line=30,
                   examples=(ex,))
    rendered = RenderedExample("x", "t", "p", (), (), [Figure("c", "<svg><text>◂ ༀ</text></svg>")],
                               Status.PROVEN)
    found = check_glyphs(doc, {"x": rendered})
    assert [(d.loc.line if d.loc else 0, d.severity.value) for d in found] == [
        (34, "warning"), (40, "warning")]
    assert "U+6F22" in found[0].message and "U+0F00" in found[1].message
    assert "U+21D2" not in found[0].message and "U+25C2" not in found[1].message


def test_the_generated_credits_never_repeat_an_authors_section_title(tmp_path: Path) -> None:
    doc = make_doc("## Rules\n\nText.\n\n## Credits and licence\n\nThanks.\n", tmp_path)
    parsed = Page(render_html(doc, {}))
    assert parsed.toc[-2:] == ["#credits-and-licence", "#rp-credits"]
    assert '<h2 class="rank-1" id="rp-credits">Colophon</h2>' in render_html(doc, {})


@pytest.mark.parametrize("width", [375, 1280])
def test_nothing_spills_past_the_screen_width(page: str, width: int) -> None:
    """Lay the page out as a screen `width` px wide (WeasyPrint, screen media): every glyph
    and figure stays inside, so nothing needs sideways scrolling on a phone or a desktop."""
    import io

    import pdfplumber
    from weasyprint import CSS, HTML

    sheet = CSS(string=f"@page {{ size: {width}px 12000px; margin: 0 }}")
    pdf = HTML(string=page, media_type="screen").write_pdf(stylesheets=[sheet])
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        right = width * 0.75  # px -> pt
        for p in doc.pages:
            assert p.chars
            assert max(ch["x1"] for ch in p.chars) <= right + 0.5
            assert min(ch["x0"] for ch in p.chars) >= 0
            assert all(im["x1"] <= right + 0.5 for im in p.images)


def test_a_translation_places_the_components_by_the_sources_headings(tmp_path: Path) -> None:
    """The French "Mise en place" is the source's "Setting up" and "Matériel" its "What you
    need": the table goes where the English book puts it, whatever the headings now say."""
    from dataclasses import replace

    from rulepress.document.model import Language
    from rulepress.document.reader import read_document

    front = (Path(__file__).parent / "fixtures" / "roots" / "plain" / "plain" / "rules.md"
             ).read_text().split("# Plain Game")[0]
    for text, toc in (("## Story\n\nOnce.\n\n## Setting up\n\nDeal.\n",
                       ["#story", "#rp-components", "#setting-up"]),
                      ("## Story\n\nOnce.\n\n## What you need\n\nCards.\n\n## Play\n\nGo.\n",
                       ["#story", "#what-you-need", "#play"])):
        (tmp_path / "rules.md").write_text(front + text)
        doc = read_document(tmp_path / "rules.md")
        french = {"Story": "Setup", "Setting up": "Mise en place", "What you need": "Matériel",
                  "Play": "Components"}  # English words in the wrong places, as a trap
        doc = replace(doc, headings=tuple(replace(h, text=french.get(h.text, h.text))
                                          for h in doc.headings),
                      language=Language("fr", "en", french))
        page = render_html(doc, {})
        assert Page(page).toc[:3] == toc
        assert "Mise en place" in page or "Matériel" in page
        if "#what-you-need" in toc:  # at the end of its section, before "Play"
            assert page.index("Cards.") < page.index('class="components') < page.index("Go.")

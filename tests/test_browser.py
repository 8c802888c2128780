"""Every bundled rulebook page in a real browser (Debian's headless Chromium through Playwright):
axe-core finds nothing, nothing logs an error or reaches the network, nothing is wider than the
screen, every figure is named and every diagram label is drawn at 9 px or more; on a phone,
every example's figure is whole on screen (its stages one under another), with nothing to
scroll sideways."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from shared import made_once
from support import Quiet

from rulepress.books import book_name
from rulepress.build import build_rulebooks
from rulepress.document.editions import EDITIONS
from rulepress.i18n.books import TranslatedBooks, TranslationOptions
from rulepress.render.figures import MIN_LABEL_PX

pytestmark = pytest.mark.slow  # headless Chromium

SOURCES = Path(__file__).parents[1] / "sources"
GAMES = sorted(p.name for p in SOURCES.iterdir() if (p / "rules.md").is_file())
PAGES = ["index.html", *(f"{game}/{book_name(game, e)}" for game in GAMES for e in EDITIONS)]
# The shipped translations, in the language their catalog names (a game's own theme words,
# <lang>-theme.po, are no language of their own).
CATALOGS = [p for p in sorted(SOURCES.glob("*/locales/*.po")) if not p.stem.endswith("-theme")]
TRANSLATED = [f"{p.parents[1].name}/{p.stem}/{book_name(p.parents[1].name, e)}"
              for p in CATALOGS for e in EDITIONS]
PAGES += TRANSLATED
WIDTHS = {"desktop": 1280, "phone": 375}



@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every bundled page and its translations, built once a run (shared.made_once): both
    workers open pages, and neither changes one."""
    langs = tuple(sorted({p.stem for p in CATALOGS}))

    def make(out: Path) -> None:
        build_rulebooks(SOURCES, out, papers=(), reporter=Quiet(),
                        also=[TranslatedBooks(TranslationOptions(langs, papers=()), pdf=False)])

    return made_once(tmp_path_factory, "bundled-site", make)[0]


def axe_script() -> str:
    from axe_playwright_python.base import AXE_SCRIPT

    return str(AXE_SCRIPT)


# Rendered font size of every SVG label shown (not those of a figure's other drawing, hidden
# on this screen): its computed size times its on-screen scale.
LABEL_SIZES = """() => [...document.querySelectorAll('svg text, svg tspan')]
  .filter(t => t.textContent.trim() && t.getScreenCTM() && t.getClientRects().length)
  .map(t => { const m = t.getScreenCTM(), scale = Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
              return [parseFloat(getComputedStyle(t).fontSize) * scale,
                      t.textContent.trim(), t.closest('aside')?.id ?? ''] })"""
# Each figure's image: its role, its name and what the name should come from.
FIGURES = """() => [...document.querySelectorAll('figure')].map(f => {
  const svg = f.querySelector('svg');
  return { role: svg?.getAttribute('role'), name: svg?.getAttribute('aria-label'),
           caption: f.querySelector('figcaption')?.textContent ?? '',
           title: f.closest('aside')?.querySelector('.example-title')?.textContent ?? '' } })"""

# Each figure's image as shown (the one of its two drawings on screen), examples' and a
# playtest report's plots alike: where it lies, and how far its frame would scroll sideways.
SHOWN = """() => [...document.querySelectorAll('aside .figure-frame')].map(f => {
  const svg = [...f.querySelectorAll(':scope > svg')].find(s => s.getClientRects().length);
  const r = svg.getBoundingClientRect();
  return [f.closest('aside').id, Math.floor(r.left), Math.ceil(r.right),
          f.scrollWidth - f.clientWidth] })"""

# The font faces the page has loaded once its fonts are ready (the bundled ones, or the same
# installed locally).
FONTS = """() => document.fonts.ready.then(
  all => [...all].filter(f => f.status === 'loaded').map(f => f.family.replaceAll('"', '')))"""


@pytest.mark.parametrize("width", WIDTHS.values(), ids=WIDTHS.keys())
@pytest.mark.parametrize("name", PAGES)
def test_page_in_a_browser(site: Path, browser: Any, name: str, width: int) -> None:
    path = site / name
    assert path.is_file(), f"{name} was not built"
    context = browser.new_context(viewport={"width": width, "height": 900})
    errors: list[str] = []

    def refuse(route: Any) -> None:
        errors.append(f"fetched {route.request.url}")
        route.abort()

    context.route("http*://**", refuse)
    page = context.new_page()
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(path.as_uri(), wait_until="load")
        page.evaluate(axe_script())
        violations = page.evaluate(
            "axe.run(document, {resultTypes: ['violations']}).then(r => r.violations)")
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth")
        labels = page.evaluate(LABEL_SIZES)
        figures = page.evaluate(FIGURES)
        shown = page.evaluate(SHOWN)
        fonts = page.evaluate(FONTS)
        lang = page.evaluate("document.documentElement.lang")
    finally:
        context.close()

    assert not violations, "axe-core: " + "; ".join(
        f"{v['id']} ({v['help']}) at {[n['target'] for n in v['nodes'][:3]]}" for v in violations)
    assert not errors
    assert overflow <= 0, f"the page is {overflow} px wider than a {width} px screen"
    small = [(round(size, 2), text, where) for size, text, where in labels
             if size < MIN_LABEL_PX - 0.01]
    assert not small, f"{len(small)} diagram labels under {MIN_LABEL_PX} px, e.g. {small[:3]}"
    for fig in figures:
        assert fig["role"] == "img", fig
        assert fig["name"] in (f"{fig['title']}: {fig['caption']}", fig["title"]) or (
            not fig["caption"] and fig["name"].startswith(fig["title"] + ": figure ")), fig
    off = [s for s in shown if s[1] < 0 or s[2] > width or s[3] > 0]
    assert not off, f"figures not whole on a {width} px screen (id, left, right, scroll): {off}"
    assert "Carlito" in fonts, f"the page's text is not in the bundled Carlito: {fonts}"
    assert lang == (name.split("/")[1] if name in TRANSLATED else "en")
    if name != "index.html":
        assert figures and labels  # every bundled book has diagrams

"""The faces page `rulepress serve` writes and serves for each game's kit (serve/faces.py): every
distinct face as an image, drawn by the kit's own drawers; only the faces whose drawing changed
rasterized again; in a browser, the toggles, axe-core, a layout save and a broken layout."""

from __future__ import annotations

import io
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from test_browser import axe_script
from test_serve import Server, serving

from rulepress.build import build_rulebooks
from rulepress.games import contract
from rulepress.pnp.proof import faces
from rulepress.serve import faces as faces_module
from rulepress.serve.faces import DPI, FaceOptions, Faces, generator
from rulepress.validate.hooks import NONE
from rulepress.validate.printing import check_printing

pytestmark = pytest.mark.slow  # faces rasterized, and a browser

BASE = Path(__file__).parent / "designer" / "base"  # a 16-row CSV deck, a pad, 4 markers
IMAGE = re.compile(r'<img src="([^"]+)"')


class Quiet:
    def progress(self, message: str) -> None:
        pass

    def diagnostics(self, diagnostics: list[Any]) -> None:
        pass


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return Path(shutil.copytree(BASE, tmp_path / "catch"))


def _checked(project: Path) -> tuple[Any, Any]:
    from rulepress.document.reader import read_sources

    doc = read_sources(project / "sources", ["catch"])[0]
    result = check_printing([doc], project=project, hooks=NONE).documents[0]
    return result.doc, result.engine


def _files(project: Path, out: Path) -> dict[str, bytes | str]:
    doc, engine = _checked(project)
    made = generator(out, ("player",)).files(doc, contract.drawers(engine),
                                             contract.tables(engine))
    return dict(made)


def _write(out: Path, made: dict[str, bytes | str]) -> None:
    for name, data in made.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(data if isinstance(data, bytes) else data.encode())


def test_the_page_shows_every_distinct_face_once_at_printed_size(project: Path,
                                                                  tmp_path: Path) -> None:
    doc, engine = _checked(project)
    distinct = faces(doc, contract.drawers(engine), contract.tables(engine))
    assert len(distinct) == 21  # the pad, 16 rows, 4 suits
    made = _files(project, tmp_path / "out")
    page = str(made["catch/faces/index.html"])
    images = IMAGE.findall(page)
    assert len(images) == len(set(images)) == 21
    card = Image.open(io.BytesIO(bytes(made[f"catch/faces/{images[1]}"])))
    # 63.5 x 88.9 mm with 3 mm bleed each side, at DPI
    assert card.size == (round((63.5 + 6) / 25.4 * DPI), round((88.9 + 6) / 25.4 * DPI))
    shown = re.search(rf'<img src="{images[1]}" width="(\d+)" height="(\d+)"', page)
    assert shown is not None  # shown at 96 px an inch: its printed size on screen
    assert abs(int(shown[1]) - 69.5 / 25.4 * 96) <= 1 and abs(int(shown[2]) - 94.9 / 25.4 * 96) <= 1
    assert "<code>cards.csv:2</code>" in page and "<code>cards.csv:17</code>" in page
    # The face is the layout's: its name band is navy (#1f3a5f) text on white.
    pixels = card.convert("RGB").getcolors(1 << 20)
    assert pixels is not None and any(abs(r - 0x1f) + abs(g - 0x3a) + abs(b - 0x5f) < 40
                                      for _, (r, g, b) in pixels)


def test_only_the_faces_whose_drawing_changed_are_rasterized_again(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    first = _files(project, out)
    _write(out, first)
    rasterized: list[int] = []
    real = faces_module.render

    def counting(data: bytes, shots: Any) -> Any:
        rasterized.append(len(shots))
        return real(data, shots)

    monkeypatch.setattr(faces_module, "render", counting)
    assert _files(project, out) == first and rasterized == []  # nothing changed: none
    csv = project / "sources/catch/data/cards.csv"
    csv.write_text(csv.read_text().replace("Fish 3,bay", "Fish 3b,bay"))
    second = _files(project, out)
    assert rasterized == [1]  # that row's face alone
    assert len(set(second) - set(first)) == 1 and len(set(first) - set(second)) == 1
    layout = project / "sources/catch/layouts/card.yml"
    layout.write_text(layout.read_text().replace("font: bold", "font: regular"))
    _write(out, _files(project, out))
    assert rasterized == [1, 16]  # the same text in another font: every card again
    image = project / "sources/catch/images/fish.svg"
    image.write_text(image.read_text().replace("<circle", '<circle fill="#2a7fa0"', 1))
    _files(project, out)
    assert rasterized == [1, 16, 16]  # the image every card shows


def test_faces_an_engine_draws_are_on_the_page_each_once(tmp_path: Path) -> None:
    """Pigeon's 52 cards and their shared back are drawn by its engine."""
    from rulepress.document.reader import read_sources
    from rulepress.games import load_engine

    doc = read_sources(Path(__file__).parents[1] / "sources", ["pigeon"])[0]
    engine = load_engine(doc.meta.engine)
    made = Faces(FaceOptions(dpi=48), tmp_path).files(doc, engine.drawers(),
                                                      contract.tables(engine))
    page = str(made["pigeon/faces/index.html"])
    images = IMAGE.findall(page)
    # 52 fronts and a shared back, the pigeon card, the coin, the reference card
    assert len(images) == len(set(images)) == 52 + 1 + 1 + 1 + 1
    assert "<strong>deck</strong> back × 52" in page
    assert "<strong>deck</strong> front 13 of 52" in page  # each copy its own face
    assert 'alt="Deck of 52 cards, front 13 of 52"' in page


def _served(tmp_path: Path) -> Iterator[tuple[Server, Path]]:
    project = Path(shutil.copytree(BASE, tmp_path / "catch"))
    with serving(project) as srv:
        yield srv, project


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Server, Path]]:
    yield from _served(tmp_path)


FACES = "/build/catch/faces/index.html"


def test_in_a_browser_the_faces_page_shows_each_face_its_toggles_work_and_axe_finds_nothing(
        served: tuple[Server, Path], browser: Any) -> None:
    srv, project = served
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("response", lambda r: errors.append(f"{r.status} {r.url}")
                if r.status >= 400 else None)
        page.goto(srv.base + "/build/catch/catch.html", wait_until="load")
        page.click("text=Kit faces")  # the book's served page links to its faces page
        try:
            page.wait_for_url("**" + FACES)
        except Exception as exc:  # say what the server said (seen once: it refused, under load)
            alive = "running" if srv.proc.poll() is None else f"exited {srv.proc.returncode}"
            raise AssertionError(f"{exc}\nserver {alive}; it said:\n"
                                 + "\n".join(srv.lines)) from exc
        shown = page.evaluate("[...document.images].map(i => [i.complete, i.naturalWidth])")
        assert len(shown) == 21 and all(done and width > 0 for done, width in shown), shown

        face = page.locator(".face").nth(1)
        lines = "() => [...document.querySelectorAll('.face')].slice(0, 3).map(f => " \
                "[...f.querySelectorAll('.line')].map(l => getComputedStyle(l).display))"
        assert page.evaluate(lines) == [["block", "block"]] * 3
        before = face.screenshot()
        page.uncheck("#trim")
        assert page.evaluate(lines) == [["none", "block"]] * 3
        no_trim = face.screenshot()
        page.uncheck("#safe")
        page.uncheck("#bleed")
        bare = face.screenshot()
        assert len({before, no_trim, bare}) == 3  # each toggle changes what is drawn
        # Without bleed the face is cut at its trim: its corner is the page's background.
        corner = Image.open(io.BytesIO(bare)).convert("RGB").getpixel((2, 2))
        assert corner == (0xec, 0xea, 0xe4), corner
        page.check("#trim")
        page.check("#safe")
        page.check("#bleed")

        page.evaluate(axe_script())
        violations = page.evaluate(
            "axe.run(document, {resultTypes: ['violations']}).then(r => r.violations)")
        assert not violations, "axe-core: " + "; ".join(
            f"{v['id']} ({v['help']}) at {[n['target'] for n in v['nodes'][:3]]}"
            for v in violations)
        assert not errors, errors
    finally:
        context.close()


def _image_bytes(srv: Server) -> dict[str, bytes]:
    _, page = srv.get(FACES)
    return {src: srv.fetch(f"/build/catch/faces/{src}")[2] for src in IMAGE.findall(page)}


def test_a_layout_save_changes_the_served_faces_and_a_broken_layout_shows_its_diagnostic(
        served: tuple[Server, Path], browser: Any) -> None:
    srv, project = served
    layout = project / "sources/catch/layouts/card.yml"
    good = layout.read_text()
    before = _image_bytes(srv)
    context = browser.new_context()
    try:
        page = context.new_page()
        with page.expect_request(lambda r: "/_rulepress/wait?since=" in r.url, timeout=30_000):
            page.goto(srv.base + FACES, wait_until="load")
        with page.expect_navigation(timeout=30_000):  # the page reloads itself after a save
            layout.write_text(good.replace('sea: "#2a7fa0"', 'sea: "#2a7fa0"\n  red: "#c00000"')
                              .replace("colour: navy", "colour: red"))
        after = _image_bytes(srv)
        assert len(after) == 21
        assert len(set(before.values()) - set(after.values())) == 16  # the cards, not the rest
        kept = sorted(p.name for p in (project / "build/catch/faces").iterdir())
        assert kept == sorted([*after, "index.html"])  # the replaced images are deleted
        src = page.evaluate("document.images[1].getAttribute('src')")
        assert src in after and src not in before
        card = Image.open(io.BytesIO(after[src])).convert("RGB")
        assert any(r > 180 and g < 40 and b < 40 for _, (r, g, b) in card.getcolors(1 << 20))

        with page.expect_navigation(timeout=30_000):
            layout.write_text(good.replace("font: bold", "font: bolder"))
        overlay = page.locator("#rulepress-overlay")
        assert overlay.is_visible()
        line = next(n for n, text in enumerate(good.splitlines(), 1) if "font: bold" in text)
        assert f"sources/catch/layouts/card.yml:{line}:" in overlay.inner_text()
        assert "bolder" in overlay.inner_text()
        assert page.evaluate("document.images.length") == 21  # the last good faces, under it
        with page.expect_navigation(timeout=30_000):
            layout.write_text(good)
        assert page.locator("#rulepress-overlay").count() == 0
    finally:
        context.close()


def test_a_game_without_printed_faces_has_no_faces_page(tmp_path: Path) -> None:
    from rulepress.scaffold import new_project

    project = new_project("demo", tmp_path)
    rules = project / "sources/demo/rules.md"
    text = rules.read_text()
    rules.write_text(re.sub(r"\n  - id: score-pad\n(    .*\n)+", "\n", text))
    out = project / "build"
    build_rulebooks(project / "sources", out, papers=(), pdf=False, project=project,
                    reporter=Quiet(), also=[generator(out, ("player",))])
    assert (out / "demo/demo.html").is_file()
    assert not (out / "demo/faces").exists()


def test_a_drawer_that_raises_is_one_error_at_its_line_and_no_faces_are_written(
        project: Path) -> None:
    from rulepress.diagnostics import RulepressError

    engine = project / "engines/catch.py"
    engine.write_text(engine.read_text().replace(
        "    def agents(self)",
        "    def drawers(self) -> Mapping[str, Any]:\n"
        "        def pad(c: Any, face: Any) -> None:\n"
        "            raise ValueError('no pad today')\n"
        "        return {'pad': pad}\n\n"
        "    def agents(self)"))
    line = engine.read_text().splitlines().index("            raise ValueError('no pad today')")
    rules = project / "sources/catch/rules.md"
    rules.write_text(rules.read_text().replace("front: layouts/score-pad.yml", "front: pad"))
    out = project / "build"
    with pytest.raises(RulepressError) as caught:
        build_rulebooks(project / "sources", out, papers=(), pdf=False, project=project,
                        reporter=Quiet(), jobs=1, also=[generator(out, ("player",))])
    said = [str(d) for d in caught.value.diagnostics]
    assert len(said) == 1 and f"engines/catch.py:{line + 1}:" in said[0], said
    assert "no pad today" in said[0] and "drawing its kit" in said[0]
    assert not (out / "catch").exists()  # nothing half-written: not even the book


def test_a_board_is_shown_whole_on_a_phone_from_an_image_of_at_most_4096_pixels(
        tmp_path: Path, browser: Any) -> None:
    """Pigeon Race's track is 672 mm long: at the page's 192 dpi it would be 5,125 px."""
    from rulepress.document.reader import read_sources
    from rulepress.games import load_engine

    doc = read_sources(Path(__file__).parents[1] / "sources", ["pigeon-race"])[0]
    engine = load_engine(doc.meta.engine)
    made = Faces(FaceOptions(), tmp_path).files(doc, engine.drawers(), contract.tables(engine))
    _write(tmp_path, made)
    sizes = {name: Image.open(io.BytesIO(bytes(data))).size for name, data in made.items()
             if name.endswith(".jpg")}
    assert max(max(size) for size in sizes.values()) == 4096
    context = browser.new_context(viewport={"width": 375, "height": 800})
    try:
        page = context.new_page()
        page.goto((tmp_path / "pigeon-race/faces/index.html").as_uri(), wait_until="load")
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth")
        widest = page.evaluate("Math.max(...[...document.images].map(i => i.clientWidth))")
    finally:
        context.close()
    assert overflow <= 0 and widest <= 375


def test_a_drawing_key_follows_the_drawing_and_gives_way_to_the_pdf_for_what_it_does_not_know(
        ) -> None:
    from reportlab.lib.colors import Color
    from reportlab.pdfgen.canvas import Canvas

    from rulepress.pnp.draw import BOLD, REGULAR
    from rulepress.pnp.fonts import register_fonts
    from rulepress.serve.faces import drawing_key

    register_fonts()

    def drawn(text: str, font: str = REGULAR, alpha: float = 1.0,
              shade: bool = False) -> Canvas:
        c = Canvas(io.BytesIO(), invariant=1, initialFontName=REGULAR)
        c.setFillAlpha(alpha)
        c.setFont(font, 12)
        c.drawString(10, 10, text)
        if shade:
            c.linearGradient(0, 0, 50, 50, (Color(1, 0, 0), Color(0, 0, 1)))
        c.showPage()
        return c

    def page(c: Canvas) -> Any:
        return c._doc.idToObject["Page1"].stream

    key = drawing_key(drawn("Fish"))
    assert key is not None and key == drawing_key(drawn("Fish"))
    others = {drawing_key(drawn("Fosh")), drawing_key(drawn("Fish", BOLD)),
              drawing_key(drawn("Fish", alpha=0.5)), drawing_key(drawn("é")),
              drawing_key(drawn("ü"))}
    # "é" and "ü" are each the font's first code past ASCII: the same page, other glyphs
    assert page(drawn("é")) == page(drawn("ü"))
    assert key not in others and len(others) == 5
    assert drawing_key(drawn("Fish", shade=True)) is None  # a shading: the PDF's digest


def test_a_served_page_links_to_its_faces_page_only_when_given_one() -> None:
    from rulepress.serve.site import live_page

    page = live_page("<body><p>x</p></body>", 2, [], "/build/a&b/faces/index.html")
    assert '<a href="/build/a&amp;b/faces/index.html"' in page
    assert page.index("Kit faces") < page.index("<script") < page.index("</body>")
    assert "Kit faces" not in live_page("<body></body>", 2, [])


def test_a_saved_paragraph_draws_no_face_again_and_a_saved_layout_does(
        project: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"

    class Told(Quiet):
        def __init__(self) -> None:
            self.said: list[str] = []

        def progress(self, message: str) -> None:
            self.said.append(str(message))

    def drawn() -> list[str]:
        told = Told()
        build_rulebooks(project / "sources", out, papers=(), pdf=False, project=project,
                        reporter=told, jobs=1, also=[generator(out, ("player",), project)])
        return [m for m in told.said if "faces" in m]

    assert drawn(), "the first build draws the faces"
    rules = project / "sources/catch/rules.md"
    rules.write_text(rules.read_text() + "\nOne more sentence of prose.\n")
    assert drawn() == [], "the faces' key is what they are drawn from, not the prose"
    assert "One more sentence of prose." in (out / "catch/catch.html").read_text()
    layout = project / "sources/catch/layouts/card.yml"
    layout.write_text(layout.read_text().replace("font: bold", "font: regular"))
    assert drawn()

"""What a game's files hold inside them is used as the files themselves are: an SVG's embedded
PNG is drawn in kits and books, and a print.css naming a font installed on the machine gets the
theme's fonts, never the machine's. (Hostile cases: tests/hostile/*nested*.)"""

from __future__ import annotations

import base64
import io
import shutil
from pathlib import Path

import pypdfium2
import pytest
from PIL import Image
from pypdf import PdfReader
from support import run

from rulepress.paths import templates_dir

FRONT = """---
title: Nested
designer: The rulepress tests
players: {min: 1, max: 2}
duration: 1 minute
licence: {name: CC0 1.0, url: "https://creativecommons.org/publicdomain/zero/1.0/"}
provenance: [{title: Written for the tests, source: tests}]
components:
  - {id: card, name: Card, count: 1, size: 63.5mm x 88.9mm, front: layouts/card.yml}
---
# Nested

## Rules

![A red field](images/pic.svg)
"""
LAYOUT = """elements:
  pic:
    type: image
    x: 0mm
    y: 0mm
    width: 63.5mm
    height: 88.9mm
    src: images/pic.svg
"""
RED = (200, 30, 30)


def inkscape_svg(encoded: str) -> str:
    """An SVG as Inkscape saves one with an embedded PNG (namespaces, a layer, base64 in
    lines)."""
    return f"""<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
   xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"
   xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"
   width="40mm" height="30mm" viewBox="0 0 40 30" version="1.1" id="svg1">
  <sodipodi:namedview id="namedview1" inkscape:document-units="mm"/>
  <defs id="defs1"/>
  <g inkscape:label="Layer 1" inkscape:groupmode="layer" id="layer1">
    <image width="40" height="30" preserveAspectRatio="none" id="image1" x="0" y="0"
       xlink:href="{encoded}"/>
  </g>
</svg>
"""


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 30), RED).save(out, "PNG")
    return out.getvalue()


def game(tmp_path: Path, encoded: str) -> Path:
    src = tmp_path / "src"
    folder = src / "game"
    (folder / "images").mkdir(parents=True)
    (folder / "layouts").mkdir()
    (folder / "rules.md").write_text(FRONT)
    (folder / "layouts" / "card.yml").write_text(LAYOUT)
    (folder / "images" / "pic.svg").write_text(inkscape_svg(encoded))
    return src


def base64_lines() -> str:
    text = base64.b64encode(png()).decode("ascii")
    return "data:image/png;base64," + "\n".join(text[i:i + 76] for i in range(0, len(text), 76))


def images_in(page: object) -> list[tuple[int, int]]:
    """(width, height) of every image XObject a page shows, in forms at any depth."""
    found = []
    todo = [page["/Resources"]]  # type: ignore[index]
    while todo:
        resources = todo.pop().get_object()
        for xobject in (resources.get("/XObject") or {}).values():
            xobject = xobject.get_object()
            if xobject.get("/Subtype") == "/Image":
                found.append((int(xobject["/Width"]), int(xobject["/Height"])))
            elif "/Resources" in xobject:
                todo.append(xobject["/Resources"])
    return found


def red_share(pdf: Path, page: int) -> float:
    image = pypdfium2.PdfDocument(pdf)[page].render(scale=0.5).to_pil().convert("RGB")
    data = image.tobytes()
    pixels = [data[i:i + 3] for i in range(0, len(data), 3)]
    near = sum(1 for p in pixels if all(abs(a - b) < 40 for a, b in zip(p, RED, strict=True)))
    return near / len(pixels)


@pytest.mark.parametrize("encoded", [base64_lines(),
                                     "data:image/png," + "".join(f"%{b:02X}" for b in png())],
                         ids=["base64", "percent-encoded"])
def test_a_kit_draws_the_png_an_inkscape_svg_embeds(tmp_path: Path, encoded: str) -> None:
    src = game(tmp_path, encoded)
    status, err = run("pnp", "--sources", str(src), "--out", str(tmp_path / "pnp"),
                      "--paper", "a4", "--sides", "one")
    assert status == 0, err
    pdf = tmp_path / "pnp" / "game" / "game-a4-one-sided.pdf"
    reader = PdfReader(pdf)
    card = next(n for n, page in enumerate(reader.pages) if images_in(page))
    assert images_in(reader.pages[card]) == [(40, 30)]
    assert red_share(pdf, card) > 0.02  # the card's picture, drawn in the PNG's colour


def test_a_rulebook_draws_the_png_an_inkscape_svg_embeds(tmp_path: Path) -> None:
    src = game(tmp_path, base64_lines())
    status, err = run("build", "--sources", str(src), "--out", str(tmp_path / "build"),
                      "--paper", "a4", "--edition", "player", "--jobs", "1")
    assert status == 0, err
    pdf = next((tmp_path / "build" / "game").glob("*.pdf"))
    reader = PdfReader(pdf)
    assert any((40, 30) in images_in(page) for page in reader.pages)
    assert max(red_share(pdf, n) for n in range(len(reader.pages))) > 0.005


def embedded_fonts(pdf: Path) -> set[str]:
    names = set()
    for page in PdfReader(pdf).pages:
        for ref in (page["/Resources"].get_object().get("/Font") or {}).values():
            names.add(str(ref.get_object()["/BaseFont"]).split("+")[-1])
    return names


@pytest.mark.parametrize("css", [
    "body, p, h1, h2 { font-family: 'Liberation Serif', 'DejaVu Serif', 'Liberation Mono'; }",
    "@font-face { font-family: Machine; src: local('Liberation Serif'), local('DejaVu Serif'); }"
    " body, p, h1, h2 { font-family: Machine; }",
], ids=["font-family", "local"])
def test_a_print_css_naming_installed_fonts_gets_only_the_themes(tmp_path: Path,
                                                                 css: str) -> None:
    src = game(tmp_path, base64_lines())
    templates = src / "game" / "templates"
    templates.mkdir()
    theme = (templates_dir() / "print.css").read_text(encoding="utf-8")
    (templates / "print.css").write_text(f"{theme}\n{css}\n", encoding="utf-8")
    status, err = run("build", "--sources", str(src), "--out", str(tmp_path / "build"),
                      "--paper", "a4", "--edition", "player", "--jobs", "1")
    assert status == 0, err
    fonts = embedded_fonts(next((tmp_path / "build" / "game").glob("*.pdf")))
    bundled = ("Carlito", "DejaVu-Sans")  # the theme's faces, as WeasyPrint names them
    assert fonts and all(name.startswith(bundled) for name in fonts), fonts


def test_a_game_folder_font_is_still_used(tmp_path: Path) -> None:
    src = game(tmp_path, base64_lines())
    folder = src / "game"
    (folder / "fonts").mkdir()
    shutil.copy(templates_dir() / "fonts" / "DejaVuSans.ttf", folder / "fonts" / "Own.ttf")
    (folder / "templates").mkdir()
    theme = (templates_dir() / "print.css").read_text(encoding="utf-8")
    (folder / "templates" / "print.css").write_text(theme + """
@font-face { font-family: Own; src: url(fonts/Own.ttf); }
body, p, h1, h2 { font-family: Own; }
""", encoding="utf-8")
    status, err = run("build", "--sources", str(src), "--out", str(tmp_path / "build"),
                      "--paper", "a4", "--edition", "player", "--jobs", "1")
    assert status == 0, err
    assert "Own" in embedded_fonts(next((tmp_path / "build" / "game").glob("*.pdf")))

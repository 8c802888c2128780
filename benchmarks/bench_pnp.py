"""Print-and-play benchmarks; prints one JSON object per line.

pnp_cards_per_s: a 100-card poker-size deck with fronts and a shared back, drawn on A4 and on
Letter (200 cards) by a fresh Python process, imports and font loading included.
pnp_cards_per_cpu_s: the same per second of the child's CPU time (steadier on a busy machine).
pnp_kit_48_kb: the size of a 48-card A4 kit with one shared back.
layout_faces_per_s: a 100-card deck drawn from data (CSV) and a layout (text, two images, an SVG
and a PNG, corner indices), every card distinct, drawn on A4 by a fresh process on one core:
faces per second of CPU time spent drawing the kit (reading the source and loading the fonts
excluded; the images and text fitting start cold).
layout_kit_54_kb: the A4 kit of a 54-card data deck whose faces share the two images.
layout_icon_faces_per_s: layout_faces_per_s with two inline icons (:emblem: and :stamp:) in
every card's text; layout_icon_ratio: it over layout_faces_per_s, measured in the same run.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import Canvas

from rulepress.diagnostics import SourceLoc
from rulepress.document.model import Component, Document, Licence, Meta
from rulepress.pnp.api import Face
from rulepress.pnp.draw import fill_bleed, saved
from rulepress.units import Size

SUITS = "SHDC"
RUNS = 5  # best of: the machine may be busy


def card_front(c: Canvas, face: Face) -> None:
    """A plausible card: coloured bleed, white panel, rank and suit in the corners, a pip."""
    with saved(c):
        fill_bleed(c, face, Color(0.15, 0.3, 0.55))
        c.setFillColorRGB(1, 1, 1)
        s = face.safe
        c.roundRect(s, s, face.width - 2 * s, face.height - 2 * s, 6, stroke=0, fill=1)
        rank, suit = face.index % 13 + 1, SUITS[face.index // 13 % 4]
        c.setFillColorRGB(0, 0, 0)
        c.setFont("Carlito-Bold", 14)
        c.drawString(s + 4, face.height - s - 16, f"{rank}{suit}")
        c.drawRightString(face.width - s - 4, s + 4, f"{rank}{suit}")
        c.circle(face.width / 2, face.height / 2, 14, stroke=1, fill=0)
        c.setFont("Carlito", 9)
        c.drawCentredString(face.width / 2, face.height / 2 - 3, f"card {face.index + 1}")


def card_back(c: Canvas, face: Face) -> None:
    b = face.bleed
    with saved(c):
        fill_bleed(c, face, Color(0.55, 0.1, 0.1))
        c.setStrokeColorRGB(1, 1, 1)
        step = 9.0
        x = -b
        while x < face.width + b:
            c.line(x, -b, x + face.height / 2, face.height + b)
            x += step
        c.setFont("Carlito-Bold", 16)
        c.setFillColorRGB(1, 1, 1)
        c.drawCentredString(face.width / 2, face.height / 2, "BENCH")


DRAWERS = {"front": card_front, "back": card_back}


def deck(count: int) -> Document:
    path = Path("sources/bench/rules.md")
    comp = Component("deck", "Poker deck", count, SourceLoc(path, 10), Size(63.5, 88.9),
                     front="front", back="back")
    meta = Meta("Bench", "Nobody", 2, 4, "5 minutes", Licence("CC0", ""), (), (comp,))
    return Document("bench", path, meta, (), (), ())


LAYOUT = """\
background: "#fffdf8"
colours: {red: "#c0392b", black: "#222222"}
elements:
  band: {type: band, side: bottom, depth: 9mm, fill: "{{ colour }}"}
  corner: {type: index, value: "{{ rank }}", symbol: "{{ suit }}", colour: "{{ colour }}"}
  emblem: {type: image, x: 20mm, y: 14mm, width: 23.5mm, height: 23.5mm, src: images/emblem.svg}
  stamp: {type: image, x: 27mm, y: 40mm, width: 9.5mm, height: 9.5mm, src: images/stamp.png}
  name: {type: text, x: 8mm, y: 51mm, width: 47.5mm, height: 7mm, text: "{{ name }}",
         font: bold, size: 13pt, align: center}
  words: {type: text, x: 8mm, y: 59mm, width: 47.5mm, height: 18mm, text: "{{ text }}",
          size: 9pt, align: center, valign: middle}
"""
EMBLEM = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="60" height="60" viewBox="0 0 60 60">'
    '<circle cx="30" cy="30" r="28" fill="#2e86de"/><path d="M10 40 L30 8 L50 40 Z" '
    'fill="#f6b93b"/><rect x="22" y="36" width="16" height="14" fill="#ffffff"/></svg>'
)


def data_deck(folder: Path, cards: int, icons: bool = False) -> Path:
    """A game folder with a ``cards``-card deck drawn from a CSV and a layout (``icons``: its
    text sets the two images inline too)."""
    from PIL import Image, ImageDraw

    game = folder / "deck"
    for sub in ("layouts", "images", "data"):
        (game / sub).mkdir(parents=True, exist_ok=True)
    (game / "layouts" / "card.yml").write_text(LAYOUT)
    (game / "images" / "emblem.svg").write_text(EMBLEM)
    img = Image.new("RGB", (64, 64), "#ffffff")
    ImageDraw.Draw(img).ellipse((6, 6, 58, 58), fill="#8e44ad")
    img.save(game / "images" / "stamp.png")
    rows = ["rank,suit,colour,name,text"]
    for i in range(cards):
        suit, colour = (("\u2665", "red"), ("\u2660", "black"))[i % 2]
        rows.append(f"{i % 13 + 1},{suit},{colour},Card {i + 1},"
                    f"Move {i % 5 + 1} steps forward and draw a card; card {i + 1} of the deck."
                    + (" Pay :emblem: or :stamp:." if icons else ""))
    (game / "data" / "cards.csv").write_text("\n".join(rows) + "\n")
    (game / "rules.md").write_text(
        "---\ntitle: Bench deck\ndesigner: Nobody\nplayers: {min: 2, max: 4}\n"
        "duration: 5 minutes\nlicence: {name: CC0, url: ''}\n"
        "provenance: [{title: bench, source: benchmarks}]\ncomponents:\n"
        "  - {id: deck, name: Deck, size: 63.5mm x 88.9mm, front: layouts/card.yml, "
        "data: data/cards.csv}\n---\n# Bench deck\n"
    )
    return game / "rules.md"


def layout_child(folder: str, icons: bool = False) -> None:
    """Prints the CPU seconds spent drawing the 100-card data deck's A4 kit."""
    from rulepress.document.reader import read_document
    from rulepress.pnp.faces.text import fonts_ready
    from rulepress.pnp.kit import build_kit

    doc = read_document(data_deck(Path(folder), 100, icons))
    fonts_ready()
    start = time.process_time()
    build_kit(doc, {}, "a4")
    print(time.process_time() - start)


def child(out: str) -> None:
    from rulepress.pnp.kit import draw_kits
    from rulepress.write import write_set

    write_set(Path(out), draw_kits(deck(100), DRAWERS, ["a4", "letter"], Path(out)))


def main() -> None:
    from rulepress.pnp.kit import build_kit

    best = best_cpu = float("inf")
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(RUNS):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run([sys.executable, __file__, "--child", tmp], check=True)
            best = min(best, time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
            best_cpu = min(best_cpu, cpu)
    cards = 100 * 2
    print(json.dumps({"name": "pnp_cards_per_s", "value": round(cards / best, 1),
                      "unit": "cards/s"}))
    # The same on CPU time: steadier than wall time when the machine is busy.
    print(json.dumps({"name": "pnp_cards_per_cpu_s", "value": round(cards / best_cpu, 1),
                      "unit": "cards/s"}))
    kit = build_kit(deck(48), DRAWERS, "a4")
    print(json.dumps({"name": "pnp_kit_48_kb", "value": round(len(kit.pdf) / 1024, 1),
                      "unit": "KB"}))
    layouts()


def layouts() -> None:
    from rulepress.document.reader import read_document
    from rulepress.pnp.kit import build_kit

    best = {"--layout-child": float("inf"), "--icon-child": float("inf")}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(RUNS):
            for flag in best:  # interleaved: a busy spell slows both alike
                got = subprocess.run([sys.executable, __file__, flag, f"{tmp}/{flag}"],
                                     check=True, capture_output=True, text=True,
                                     env={**os.environ, "OMP_NUM_THREADS": "1"})
                best[flag] = min(best[flag], float(got.stdout.strip()))
        plain, icons = 100 / best["--layout-child"], 100 / best["--icon-child"]
        print(json.dumps({"name": "layout_faces_per_s", "value": round(plain, 1),
                          "unit": "faces/s"}))
        print(json.dumps({"name": "layout_icon_faces_per_s", "value": round(icons, 1),
                          "unit": "faces/s"}))
        print(json.dumps({"name": "layout_icon_ratio", "value": round(icons / plain, 2),
                          "unit": "x"}))
        kit = build_kit(read_document(data_deck(Path(tmp) / "54", 54)), {}, "a4")
    print(json.dumps({"name": "layout_kit_54_kb", "value": round(len(kit.pdf) / 1024, 1),
                      "unit": "KB"}))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        child(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] in ("--layout-child", "--icon-child"):
        layout_child(sys.argv[2], icons=sys.argv[1] == "--icon-child")
    else:
        main()

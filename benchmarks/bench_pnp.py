"""Print-and-play benchmarks; prints one JSON object per line.

pnp_cards_per_s: a 100-card poker-size deck with fronts and a shared back, drawn on A4 and on
Letter (200 cards) by a fresh Python process, imports and font loading included.
pnp_cards_per_cpu_s: the same per second of the child's CPU time (steadier on a busy machine).
pnp_kit_48_kb: the size of a 48-card A4 kit with one shared back.
"""

from __future__ import annotations

import json
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


def child(out: str) -> None:
    from rulepress.pnp.kit import draw_kits
    from rulepress.write import atomic_write

    for path, pdf in draw_kits(deck(100), DRAWERS, ["a4", "letter"], Path(out)).items():
        atomic_write(path, pdf)


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


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        child(sys.argv[2])
    else:
        main()

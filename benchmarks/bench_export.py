"""Export benchmarks; prints one JSON object per line.

tts_sheet_52_s: the Tabletop Simulator export of a 52-card poker deck (every front distinct,
one shared back): each face drawn and rasterized, the 10 x 6 sheet assembled, the PNGs encoded
and the saved object written out (in memory). Best of 5, wall time; the target is 2 s.
tgc_faces_per_cpu_s: the same deck as The Game Crafter's 300 dpi poker-card PNGs (825 x 1125
px, 53 images with the back), faces per second of this process's CPU time: one core. The
target is 50.
"""

from __future__ import annotations

import json
import time

from bench_pnp import DRAWERS, deck  # the kit benchmark's deck: the same faces

from rulepress.export.houses import house_files, placed
from rulepress.export.raster import sides
from rulepress.export.tts import saved_object
from rulepress.pnp.faces.text import fonts_ready

RUNS = 5


def main() -> None:
    doc = deck(52)
    fonts_ready()
    best = float("inf")
    for _ in range(RUNS):
        start = time.perf_counter()
        files = saved_object(doc, sides(doc, DRAWERS, {}), "https://example.com/bench/")
        best = min(best, time.perf_counter() - start)
    assert "deck.faces.png" in files
    print(json.dumps({"name": "tts_sheet_52_s", "value": round(best, 3), "unit": "s"}))
    parts, problems = placed(doc, "tgc", frozenset())
    assert not problems
    best_cpu = float("inf")
    for _ in range(3):
        start = time.process_time()
        made = house_files("tgc", parts, sides(doc, DRAWERS, {}))
        best_cpu = min(best_cpu, time.process_time() - start)
    faces = sum(1 for name in made if name.endswith(".png"))
    print(json.dumps({"name": "tgc_faces_per_cpu_s", "value": round(faces / best_cpu, 1),
                      "unit": "faces/s"}))


if __name__ == "__main__":
    main()

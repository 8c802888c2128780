"""The faces page of `rulepress serve` (serve/faces.py) on a 50-face deck.

The deck: tests/designer/base (a CSV deck drawn by a layout, a score pad, suit markers drawn
from the engine's table) with 45 rows in its CSV, so 50 distinct faces.

- serve_faces_reload_s: `rulepress serve` running, the median time (5 saves) from saving a
  colour change to the cards' layout (45 faces change) to the served faces page listing the
  new images and every one of them fetched; serve_faces_reload_max_s the slowest.
- serve_faces_rules_reload_s: the same for a text change to rules.md (no face changes: none is
  rasterized again), measured alternately with the layout saves;
  faces_reload_over_rules_reload the ratio of the two medians (what rasterizing 45 faces adds).

- faces_all_changed_s, faces_none_changed_s: the faces page's own part, in one warm process
  (median of 5): drawing the 50 faces with none on disk (each rasterized), and with all on
  disk (none rasterized); faces_all_over_none their ratio.

Prints one JSON object per line: {"name", "value", "unit"}.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASE = ROOT / "tests" / "designer" / "base"
ENV = {**os.environ, "SOURCE_DATE_EPOCH": "1767225600", "CI": "1"}
ROWS = 45  # + the score pad and 4 suit markers: 50 distinct faces
IMAGE = re.compile(r'<img src="([^"]+)"')


def emit(name: str, value: float, unit: str) -> None:
    print(json.dumps({"name": name, "value": round(value, 4), "unit": unit}), flush=True)


def deck(tmp: Path) -> Path:
    project = tmp / "catch"
    shutil.copytree(BASE, project)
    suits = ["reef", "deep", "shore", "bay"]
    rows = [f"Fish {n},{suits[n % 4]},{n % 5 + 1},1" for n in range(ROWS)]
    (project / "sources/catch/data/cards.csv").write_text("name,suit,need,qty\n"
                                                          + "\n".join(rows) + "\n")
    return project


def shown(page: str) -> list[str]:
    """The faces page's image addresses, once each is fetched; [] while any is missing."""
    html = urllib.request.urlopen(page, timeout=30).read().decode()
    images = IMAGE.findall(html)
    for image in images:
        try:
            urllib.request.urlopen(page.rsplit("/", 1)[0] + "/" + image, timeout=30).read()
        except urllib.error.HTTPError:  # replaced since the page was read: read it again
            return []
    return images


def until_changed(page: str, before: list[str], start: float, what: str) -> float:
    while True:
        images = shown(page)
        if images and images != before:
            return time.perf_counter() - start
        if time.perf_counter() - start > 60:
            raise SystemExit(f"the faces page never changed after {what}")
        time.sleep(0.01)


def in_process(project: Path) -> None:
    from rulepress.document.reader import read_sources
    from rulepress.games import contract
    from rulepress.serve.faces import generator
    from rulepress.validate.hooks import NONE
    from rulepress.validate.printing import check_printing

    doc = read_sources(project / "sources", ["catch"])[0]
    checked = check_printing([doc], project=project, hooks=NONE).documents[0]
    drawers, tables = contract.drawers(checked.engine), contract.tables(checked.engine)
    out = project / "in-process"
    times: dict[str, list[float]] = {"all": [], "none": []}
    for _ in range(5):
        for case in ("all", "none"):
            start = time.perf_counter()
            made = generator(out, ("player",)).files(checked.doc, drawers, tables)
            times[case].append(time.perf_counter() - start)
            for name, data in made.items():  # on disk for the next call: none rasterized
                (out / name).parent.mkdir(parents=True, exist_ok=True)
                (out / name).write_bytes(data if isinstance(data, bytes) else data.encode())
        shutil.rmtree(out)
    emit("faces_all_changed_s", statistics.median(times["all"]), "s")
    emit("faces_none_changed_s", statistics.median(times["none"]), "s")
    emit("faces_all_over_none", statistics.median(times["all"]) / statistics.median(times["none"]),
         "ratio")


def main() -> None:
    with tempfile.TemporaryDirectory() as name:
        project = deck(Path(name))
        proc = subprocess.Popen([sys.executable, "-m", "rulepress.cli", "serve", "--project",
                                 str(project), "--port", "0"], env=ENV, stderr=subprocess.PIPE,
                                stdout=subprocess.DEVNULL, text=True)
        layout_times: list[float] = []
        rules_times: list[float] = []
        try:
            assert proc.stderr is not None
            url = None
            while url is None:
                line = proc.stderr.readline()
                if not line:
                    raise SystemExit("rulepress serve stopped before serving")
                found = re.search(r"serving (http://\S+/)index\.html", line)
                url = found[1] if found else None
            threading.Thread(target=proc.stderr.read, daemon=True).start()
            page = f"{url}catch/faces/index.html"
            while not (faces := shown(page)):
                time.sleep(0.01)
            if len(faces) != 50:
                raise SystemExit(f"the deck has {len(faces)} distinct faces, not 50")
            card = project / "sources/catch/layouts/card.yml"
            rules = project / "sources/catch/rules.md"
            for n in range(5):
                time.sleep(0.5)
                while not (before := shown(page)):
                    time.sleep(0.01)
                start = time.perf_counter()
                card.write_text(re.sub(r'navy: "#\w+"', f'navy: "#1f3a{n}f"', card.read_text()))
                layout_times.append(until_changed(page, before, start, "a layout save"))
                # A rules edit: the page is written again (a new version), its images kept.
                time.sleep(0.5)
                marker = f"Served{n}"
                book = f"{url}catch/catch.html"
                start = time.perf_counter()
                rules.write_text(rules.read_text().replace("## Aim\n", f"## Aim\n\n{marker}\n", 1))
                while marker not in urllib.request.urlopen(book, timeout=30).read().decode():
                    if time.perf_counter() - start > 60:
                        raise SystemExit("the book never showed the rules edit")
                    time.sleep(0.01)
                shown(page)
                rules_times.append(time.perf_counter() - start)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    emit("serve_faces_reload_s", statistics.median(layout_times), "s")
    emit("serve_faces_reload_max_s", max(layout_times), "s")
    emit("serve_faces_rules_reload_s", statistics.median(rules_times), "s")
    emit("faces_reload_over_rules_reload",
         statistics.median(layout_times) / statistics.median(rules_times), "ratio")
    with tempfile.TemporaryDirectory() as name:
        in_process(deck(Path(name)))


if __name__ == "__main__":
    main()

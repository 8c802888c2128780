"""Build benchmarks, each figure a ratio of runs made alternately in this one run.

- build_over_nocss_floor: a full serial build over WeasyPrint alone typesetting the same final
  HTML (figures as the build gives them) with no stylesheet at all, once per paper;
  build_over_nocss_floor_one_paper: the same over WeasyPrint typesetting each page once (the
  build typesets an edition once for both papers); build_over_floor: the same over our PDF
  rendering alone (render_pdfs, with our stylesheets, without the rest of the build).
- rebuild_one_over_full: after a full build, the largest game's rules.md gets a real text
  change and `rulepress build` runs again (the cache rebuilds that game only), over the full
  build; rebuild_<game>_over_full the same for each game in turn.
  rebuild_one_floor_over_full: that game's longest typesetting alone (its slowest page through
  render_pdfs, both papers, in a warm process), over the full build: a rebuild cannot beat it,
  as one page is one WeasyPrint document, typeset on one core. rebuild_one_over_floor: the
  rebuild over that floor (what the rest of a rebuild costs: start-up, check, writing).
- serve_reload_s: `rulepress serve` running, the median time from saving a change to the
  largest game's rules.md to the served page holding the new text (5 edits);
  serve_reload_<game>_s the same for each game (`bench_build.py serve`: these alone).
- parallel_over_serial, check_s, noop_make_s.

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
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
RULEPRESS = [PY, "-m", "rulepress.cli"]
ENV = {**os.environ, "SOURCE_DATE_EPOCH": "1767225600", "CI": "1"}
ROUNDS = 2

FLOOR = """
import re, sys, time
from pathlib import Path
import weasyprint
from rulepress.paths import templates_dir
from rulepress.render.fetcher import JailedFetcher
from rulepress.render.pdf import figures_as_images, render_pdfs
mode = sys.argv[1]
for html_path in sys.argv[3:]:
    game = Path(sys.argv[2]) / Path(html_path).parent.name
    if mode == "job":  # a warm process: the job as a build's worker runs it
        best = []
        for _ in range(3):
            start = time.perf_counter()
            render_pdfs(Path(html_path).read_text(), ("a4", "letter"), base_url=game,
                        allowed_roots=(game, templates_dir()))
            best.append(time.perf_counter() - start)
        print(min(best), html_path)
        continue
    if mode == "css":
        render_pdfs(Path(html_path).read_text(), ("a4", "letter"), base_url=game,
                    allowed_roots=(game, templates_dir()))
        continue
    page = figures_as_images(Path(html_path).read_text())
    for paper in ("a4", "letter") if mode == "nocss" else ("a4",):
        final = re.sub(r"<style\\b.*?</style>", "", page, flags=re.S)
        fetcher = JailedFetcher([game, templates_dir()])
        weasyprint.HTML(string=final, base_url=game.as_uri() + "/",
                        url_fetcher=fetcher).write_pdf()
"""


def emit(name: str, value: float, unit: str) -> None:
    print(json.dumps({"name": name, "value": round(value, 4), "unit": unit}), flush=True)


def timed(cmd: list[str], cwd: Path = ROOT) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, env=ENV, check=True, capture_output=True)
    return time.perf_counter() - start


def largest_game(sources: Path) -> Path:
    return max(sources.glob("*/rules.md"), key=lambda p: p.stat().st_size)


def edit(rules: Path, marker: str) -> None:
    """A real text change: a sentence added before the second heading."""
    text = rules.read_text(encoding="utf-8")
    text = re.sub(r"\n(## )", f"\n{marker} is a new sentence.\n\n\\1", text, count=1)
    rules.write_text(text, encoding="utf-8")


def build_rounds(tmp: Path, sources: Path) -> None:
    rules = largest_game(sources)
    games = [rules.parent.name, *sorted({p.parent.name for p in sources.glob("*/rules.md")}
                                        - {rules.parent.name})]
    serial, parallel, css, nocss, nocss1 = [], [], [], [], []
    rebuilt: dict[str, list[float]] = {game: [] for game in games}
    for n in range(ROUNDS):
        out = tmp / f"serial-{n}"
        serial.append(timed([*RULEPRESS, "build", "--sources", str(sources), "--out", str(out),
                             "--jobs", "1"]))
        htmls = sorted(str(p) for p in out.glob("*/*.html"))
        nocss.append(timed([PY, "-c", FLOOR, "nocss", str(sources), *htmls]))
        nocss1.append(timed([PY, "-c", FLOOR, "nocss1", str(sources), *htmls]))
        css.append(timed([PY, "-c", FLOOR, "css", str(sources), *htmls]))
        out = tmp / f"parallel-{n}"
        parallel.append(timed([*RULEPRESS, "build", "--sources", str(sources), "--out",
                               str(out), "--jobs", "2"]))
        for game in games:
            edit(sources / game / "rules.md", f"Bench{n}")
            rebuilt[game].append(timed([*RULEPRESS, "build", "--sources", str(sources),
                                        "--out", str(out), "--jobs", "2"]))
    emit("build_s", min(serial), "s")
    emit("weasyprint_nocss_floor_s", min(nocss), "s")
    emit("build_over_nocss_floor", min(serial) / min(nocss), "ratio")
    emit("weasyprint_nocss_one_paper_s", min(nocss1), "s")
    emit("build_over_nocss_floor_one_paper", min(serial) / min(nocss1), "ratio")
    emit("weasyprint_floor_s", min(css), "s")
    emit("build_over_floor", min(serial) / min(css), "ratio")
    emit("parallel_build_s", min(parallel), "s")
    emit("parallel_over_serial", min(parallel) / min(serial), "ratio")
    emit("rebuild_one_s", min(rebuilt[games[0]]), "s")
    emit("rebuild_one_over_full", min(rebuilt[games[0]]) / min(parallel), "ratio")
    pages = sorted(str(p) for p in (tmp / "serial-0" / games[0]).glob("*.html"))
    jobs = subprocess.run([PY, "-c", FLOOR, "job", str(sources), *pages], cwd=ROOT, env=ENV,
                          check=True, capture_output=True, text=True).stdout.split("\n")
    longest = max(float(line.split()[0]) for line in jobs if line.strip())
    emit("rebuild_one_floor_s", longest, "s")
    emit("rebuild_one_floor_over_full", longest / min(parallel), "ratio")
    emit("rebuild_one_over_floor", min(rebuilt[games[0]]) / longest, "ratio")
    print(json.dumps({"name": "rebuild_one_game", "value": games[0]}), flush=True)
    for game in sorted(games):
        emit(f"rebuild_{game}_over_full", min(rebuilt[game]) / min(parallel), "ratio")


def serve_reload(tmp: Path, sources: Path) -> None:
    largest = largest_game(sources).parent.name
    out = tmp / "served"
    proc = subprocess.Popen([*RULEPRESS, "serve", "--sources", str(sources), "--out", str(out),
                             "--port", "0"], cwd=ROOT, env=ENV, stderr=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, text=True)
    times: dict[str, list[float]] = {}
    try:
        assert proc.stderr is not None
        url = None
        while url is None:
            line = proc.stderr.readline()
            if not line:
                raise SystemExit("rulepress serve stopped before serving")
            found = re.search(r"serving (http://\S+/)index\.html", line)
            url = found[1] if found else None
        # Read on, so that serve never waits on a full pipe.
        threading.Thread(target=proc.stderr.read, daemon=True).start()
        for rules in sorted(sources.glob("*/rules.md")):
            game = rules.parent.name
            page = f"{url}{game}/{game}.html"
            times[game] = []
            for n in range(5):
                marker = f"Served{n}"
                time.sleep(0.5)
                start = time.perf_counter()
                edit(rules, marker)
                while marker not in urllib.request.urlopen(page, timeout=30).read().decode():
                    if time.perf_counter() - start > 60:
                        raise SystemExit(f"the served page never showed {marker}")
                    time.sleep(0.01)
                times[game].append(time.perf_counter() - start)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    emit("serve_reload_s", statistics.median(times[largest]), "s")
    emit("serve_reload_max_s", max(times[largest]), "s")
    for game, runs in times.items():
        emit(f"serve_reload_{game}_s", statistics.median(runs), "s")


def main() -> None:
    serve_only = sys.argv[1:] == ["serve"]  # `bench_build.py serve`: serve_reload alone
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        sources = tmp / "sources"
        shutil.copytree(ROOT / "sources", sources)
        if not serve_only:
            build_rounds(tmp, sources)
        serve_reload(tmp, sources)
    if serve_only:
        return

    from rulepress.checks import every
    from rulepress.document.reader import read_sources
    from rulepress.validate.check import check_documents

    # warm: engine imports are start-up
    check_documents(read_sources(ROOT / "sources"), checks=every())
    runs = []
    for _ in range(5):
        start = time.perf_counter()
        check_documents(read_sources(ROOT / "sources"), checks=every())
        runs.append(time.perf_counter() - start)
    emit("check_s", min(runs), "s")

    subprocess.run(["make"], cwd=ROOT, check=True, capture_output=True)
    emit("noop_make_s", timed(["make"]), "s")


if __name__ == "__main__":
    main()

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
- version_s, check_s: `rulepress --version` and `rulepress check` (this checkout's project: every
  game, every language) as processes, as users type them, best of 5 alternating; their CPU
  times (version_cpu_s, check_cpu_s, the process's and its workers'), and check_over_version,
  check_cpu_over_version_cpu: what checking costs over starting up (`bench_build.py commands`:
  these alone).
- The floors typeset every book the build wrote, the translations (de/) included.
- parallel_over_serial, noop_make_s.

Prints one JSON object per line: {"name", "value", "unit"}.
"""

from __future__ import annotations

import json
import os
import re
import resource
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
# The command as users type it: the venv's console script (else the module, as it runs).
_SCRIPT = Path(PY).parent / "rulepress"
RULEPRESS = [str(_SCRIPT)] if _SCRIPT.exists() else [PY, "-m", "rulepress"]
ENV = {**os.environ, "SOURCE_DATE_EPOCH": "1767225600", "CI": "1"}
ROUNDS = 2

FLOOR = """
import re, sys, time
from pathlib import Path
import weasyprint
from rulepress.paths import templates_dir
from rulepress.render.fetcher import JailedFetcher
from rulepress.render.pdf import figures_as_images, render_pdfs
mode, sources, out = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
for html_path in sys.argv[4:]:
    game = sources / Path(html_path).relative_to(out).parts[0]  # a translation's too
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


def books(out: Path) -> list[str]:
    """Every book page a build wrote: each game's editions and their translations (de/...), so
    the floor typesets all the build typesets."""
    return sorted(str(p) for p in out.glob("*/**/*.html") if p.parent != out)


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
        htmls = books(out)
        nocss.append(timed([PY, "-c", FLOOR, "nocss", str(sources), str(out), *htmls]))
        nocss1.append(timed([PY, "-c", FLOOR, "nocss1", str(sources), str(out), *htmls]))
        css.append(timed([PY, "-c", FLOOR, "css", str(sources), str(out), *htmls]))
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
    pages = [p for p in books(tmp / "serial-0") if Path(p).relative_to(tmp / "serial-0").parts[0]
             == games[0]]
    jobs = subprocess.run([PY, "-c", FLOOR, "job", str(sources), str(tmp / "serial-0"), *pages],
                          cwd=ROOT, env=ENV, check=True, capture_output=True,
                          text=True).stdout.split("\n")
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


def command_times(rounds: int = 5) -> None:
    """The commands users type, each timed as a process (start-up and imports included), best of
    ``rounds``, the two commands alternating: ``rulepress --version`` (the start-up floor) and
    ``rulepress check`` of this checkout's project (every game, every language)."""
    version: list[tuple[float, float]] = []
    check: list[tuple[float, float]] = []
    for _ in range(rounds):
        version.append(timed_cpu([*RULEPRESS, "--version"]))
        check.append(timed_cpu([*RULEPRESS, "check"]))
    (version_s, version_cpu), (check_s, check_cpu) = map(best, (version, check))
    emit("version_s", version_s, "s")
    emit("version_cpu_s", version_cpu, "s")
    emit("check_s", check_s, "s")
    emit("check_cpu_s", check_cpu, "s")
    emit("check_over_version", check_s / version_s, "ratio")
    emit("check_cpu_over_version_cpu", check_cpu / version_cpu, "ratio")


def best(runs: list[tuple[float, float]]) -> tuple[float, float]:
    """The fastest wall time and the least CPU time among ``runs``."""
    return min(w for w, _ in runs), min(c for _, c in runs)


def timed_cpu(cmd: list[str]) -> tuple[float, float]:
    """Wall time and CPU time (user and system, its children's included) of ``cmd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = timed(cmd)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    mode = sys.argv[1:]  # `serve` or `commands`: those figures alone
    if mode == ["commands"]:
        command_times()
        return
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        sources = tmp / "sources"
        shutil.copytree(ROOT / "sources", sources)
        if mode != ["serve"]:
            build_rounds(tmp, sources)
        serve_reload(tmp, sources)
    if mode == ["serve"]:
        return
    command_times()
    subprocess.run(["make"], cwd=ROOT, check=True, capture_output=True)
    emit("noop_make_s", timed(["make"]), "s")


if __name__ == "__main__":
    main()

"""Build benchmarks: whole-build time against WeasyPrint's own floor, parallel speed-up, check time.

Prints one JSON object per line: {"name", "value", "unit"}.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
RULEPRESS = [PY, "-m", "rulepress.cli"]
ENV = {**os.environ, "SOURCE_DATE_EPOCH": "1767225600", "CI": "1"}

FLOOR = """
import sys, time
from pathlib import Path
import weasyprint
from rulepress.render import render_pdf
t = time.perf_counter()
for html_path in sys.argv[2:]:
    html = Path(html_path).read_text()
    base = Path(sys.argv[1]) / Path(html_path).parent.name
    for paper in ("a4", "letter"):
        out = Path(html_path).with_suffix(f".floor-{paper}.pdf")
        roots = (base, Path("templates").resolve())
        out.write_bytes(render_pdf(html, paper, base_url=base, allowed_roots=roots))
"""


def emit(name: str, value: float, unit: str) -> None:
    print(json.dumps({"name": name, "value": round(value, 4), "unit": unit}), flush=True)


def timed(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, env=ENV, check=True, capture_output=True)
    return time.perf_counter() - start


def best(cmd: list[str], runs: int = 3) -> float:
    return min(timed(cmd) for _ in range(runs))


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        serial = best([*RULEPRESS, "build", "--out", str(out / "s"), "--jobs", "1"])
        parallel = best([*RULEPRESS, "build", "--out", str(out / "p"), "--jobs", "2"])
        htmls = sorted(str(p) for p in (out / "s").glob("*/*.html"))
        floor = best([PY, "-c", FLOOR, str(ROOT / "sources"), *htmls])
    emit("build_s", serial, "s")
    emit("weasyprint_floor_s", floor, "s")
    emit("build_over_floor", serial / floor, "ratio")
    emit("serial_build_s", serial, "s")
    emit("parallel_build_s", parallel, "s")
    emit("parallel_over_serial", parallel / serial, "ratio")

    from rulepress.document.reader import read_sources
    from rulepress.validate.check import check_documents

    check_documents(read_sources(ROOT / "sources"))  # warm: engine imports are start-up
    runs = []
    for _ in range(5):
        start = time.perf_counter()
        check_documents(read_sources(ROOT / "sources"))
        runs.append(time.perf_counter() - start)
    emit("check_s", min(runs), "s")

    subprocess.run(["make"], cwd=ROOT, check=True, capture_output=True)
    emit("noop_make_s", timed(["make"]), "s")


if __name__ == "__main__":
    main()

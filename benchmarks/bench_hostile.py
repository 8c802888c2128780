"""How fast each hostile input of tests/hostile is refused (in-process, CPU and wall time).

The limits promise an error in well under a second or two; the time limits themselves (1 s for
prose, 2 s for templates) are the floor of the cases that test them. Prints one JSON object per
line: {"name", "value", "unit"}; the slowest case last.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

from click.testing import CliRunner

TESTS = Path(__file__).resolve().parents[1] / "tests"
sys.path.insert(0, str(TESTS))

import conftest  # noqa: E402,F401 - registers the test engines the cases name
import test_hostile as corpus  # noqa: E402

from rulepress.cli import main  # noqa: E402


def refuse(case: str) -> tuple[float, float]:
    command, _, _ = corpus.expectation(corpus.HOSTILE / case)
    with tempfile.TemporaryDirectory() as tmp:
        src = corpus.prepare(corpus.HOSTILE / case, Path(tmp))
        args = [command, "--sources", str(src)]
        if command != "check":
            args += ["--out", str(Path(tmp) / "out")] + (["-j", "1"] if command == "build" else [])
        wall, cpu = time.perf_counter(), time.process_time()
        CliRunner().invoke(main, args)
        return time.perf_counter() - wall, time.process_time() - cpu


def main_() -> None:
    refuse("jail-query")  # warm: imports and the theme's templates are start-up, not refusal
    times = {case: refuse(case) for case in corpus.CASES}
    for case, (wall, cpu) in sorted(times.items(), key=lambda kv: kv[1][0]):
        print(json.dumps({"name": f"hostile_{case}_s", "value": round(wall, 3), "unit": "s",
                          "cpu": round(cpu, 3)}), flush=True)
    print(json.dumps({"name": "hostile_cases", "value": len(times), "unit": "count"}))


if __name__ == "__main__":
    main_()

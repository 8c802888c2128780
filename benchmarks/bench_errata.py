"""Errata benchmark: `rulepress diff` on the largest bundled game against one `check` of each of
its two printings, in runs made alternately in this one run.

A scratch git repository holds the game as committed (the old printing); the working tree gets a
small real change (a word of a ruling and the version). diff_over_check is the time of
`rulepress diff HEAD GAME` (read both, check both, draw and compare every face, write the errata
sheet's HTML and PDFs) over the time of `rulepress check GAME` on the old printing plus the
same on the new one, each a process of its own, none with the check's memo: the target is at
most 2. diff_s and check_both_s are the times.

Prints one JSON object per line: {"name", "value", "unit"}.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULEPRESS = [sys.executable, "-m", "rulepress.cli"]
# No memo (memo.py) for either: it keys a check by the game folder's place, which a revision's
# scratch folder never repeats, so check alone would take its answers from the last round.
ENV = {**os.environ, "SOURCE_DATE_EPOCH": "1767225600", "CI": "1", "RULEPRESS_CACHE": "off",
       "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.org",
       "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.org",
       "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
ROUNDS = 2


def emit(name: str, value: float, unit: str) -> None:
    print(json.dumps({"name": name, "value": round(value, 3), "unit": unit}), flush=True)


def timed(args: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(args, cwd=cwd, env=ENV, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    game = max((p.parent for p in (ROOT / "sources").glob("*/rules.md")),
               key=lambda folder: (folder / "rules.md").stat().st_size)
    with tempfile.TemporaryDirectory() as scratch:
        repo = Path(scratch) / "repo"
        shutil.copytree(game, repo / "sources" / game.name)
        shutil.copy(ROOT / "rulepress.toml", repo)
        subprocess.run(["git", "init", "-q"], cwd=repo, env=ENV, check=True)
        subprocess.run(["git", "add", "-A"], cwd=repo, env=ENV, check=True)
        subprocess.run(["git", "commit", "-qm", "old"], cwd=repo, env=ENV, check=True)
        old = Path(scratch) / "old"
        shutil.copytree(repo, old, ignore=shutil.ignore_patterns(".git"))
        rules = repo / "sources" / game.name / "rules.md"
        text = rules.read_text()
        edited = text.replace("## Rulings", "## Rulings\n\nEvery ruling below holds.", 1)
        assert edited != text, "the game has no Rulings section to change"
        rules.write_text(edited)
        diffs, checks = [], []
        for _ in range(ROUNDS):
            diffs.append(timed([*RULEPRESS, "diff", "HEAD", game.name, "--force", "-q"], repo))
            checks.append(timed([*RULEPRESS, "check", game.name, "-q"], old)
                          + timed([*RULEPRESS, "check", game.name, "-q"], repo))
    emit("diff_s", min(diffs), "s")
    emit("check_both_s", min(checks), "s")
    emit("diff_over_check", min(diffs) / min(checks), "ratio")


if __name__ == "__main__":
    main()

"""serve's rebuilds run a game's engine on its project's budget, and a slow game's rebuilds
never hold up another game's (README: "one game's render never holds up another's")."""

from __future__ import annotations

import shutil
import time
from concurrent.futures import Future
from pathlib import Path

from rulepress.serve.builder import Outcome, Rebuilds, Settings
from rulepress.workers import Budget

HOSTILE = Path(__file__).parent / "hostile"
LOOPING = HOSTILE / "engine-endless-evaluate"  # its replay() loops forever


def project(tmp_path: Path, games: dict[str, str]) -> Path:
    """A project of the hostile case's game under each name, its replay() made ``games``'s
    body (indented as a method's)."""
    root = tmp_path / "p"
    (root / "sources").mkdir(parents=True)
    shutil.copy(LOOPING / "rulepress.toml", root / "rulepress.toml")
    for name, body in games.items():
        game = root / "sources" / name
        shutil.copytree(LOOPING / "sources" / "g", game)
        rules = game / "rules.md"
        rules.write_text(rules.read_text().replace("sources/g/", f"sources/{name}/"))
        engine = game / "engine.py"
        engine.write_text(engine.read_text().replace("        while True:\n            pass\n",
                                                     body))
    return root


def settings(root: Path, budget: Budget) -> Settings:
    return Settings(root / "sources", root / "build", root, ("a4",), ("player",), "t",
                    budget=budget)


def test_a_rebuild_runs_the_engine_on_the_projects_budget(tmp_path: Path) -> None:
    """engine_seconds = 0.5 in the project: the looping replay is stopped past 0.5 s (it was
    the default 10 s, rulepress.toml ignored)."""
    root = project(tmp_path, {"g": "        while True:\n            pass\n"})
    rebuilds = Rebuilds()
    try:
        started = time.monotonic()
        outcome = rebuilds.submit(settings(root, Budget(0.5)), "g").result(timeout=120)
    finally:
        rebuilds.stop()
    assert not outcome.ok
    assert outcome.problems == [
        "sources/g/rules.md:22:1: error: the count engine ran past its time budget (0.5 s of "
        "CPU time; engine_seconds in rulepress.toml's [limits]) while replaying one-step"]
    assert time.monotonic() - started < 60


def test_a_slow_games_rebuilds_never_hold_up_another_games(tmp_path: Path) -> None:
    """Three rebuilds of a game whose engine takes minutes (more than the two processes), then
    one of a quick game: the quick one is done while the slow ones are still at work."""
    done = '        return {"at": example["setup"]["at"] + 1}\n'
    root = project(tmp_path, {"slow": "        import time\n        time.sleep(600)\n" + done,
                              "quick": done})
    chosen = settings(root, Budget(600))
    rebuilds = Rebuilds(2)
    try:
        slow: list[Future[Outcome]] = [rebuilds.submit(chosen, "slow") for _ in range(3)]
        time.sleep(1)
        started = time.monotonic()
        quick = rebuilds.submit(chosen, "quick").result(timeout=120)
        took = time.monotonic() - started
        assert not any(f.done() for f in slow)
    finally:
        rebuilds.stop()
    assert (quick.ok, quick.problems) == (True, []), quick.problems
    assert any(w.startswith("quick/") and w.endswith(".html") for w in quick.written), quick
    assert took < 60, took

"""rulepress simulate: reproducible figures, honest intervals, plots, bad input, a project's own
engine. Most tests play Coin Race (tests/fixtures/simulate), a game made to be fast; the bundled
games' own questions are checked in test_simulate_games.py."""

from __future__ import annotations

import hashlib
import json
import os
import random
import shlex
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from rulepress.cli import main
from rulepress.simulate.execute import batches
from rulepress.simulate.play import play_batch
from rulepress.simulate.spec import RunSpec, Table, game_seed
from rulepress.simulate.stats import SAMPLE, Tally, distribution, rate, table_figures, wilson

pytestmark = pytest.mark.slow  # rulepress simulate end to end on the bundled games

FIXTURE = Path(__file__).parent / "fixtures" / "simulate"
COIN = ["simulate", "coin-race", "--project", str(FIXTURE)]


def simulate(out: Path, *args: str) -> Result:
    return CliRunner().invoke(main, [*COIN, "--out", str(out), *args])


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def summary(folder: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / "summary.json").read_text())
    return data


RUN = ("-n", "300", "-p", "2-3", "-a", "random,cautious", "-q")


def test_the_same_seed_gives_the_same_bytes_whatever_the_jobs(tmp_path: Path) -> None:
    one = simulate(tmp_path / "one", *RUN, "--jobs", "1")
    two = simulate(tmp_path / "two", *RUN, "--jobs", "2")
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    written = files(tmp_path / "one")
    assert sorted(written) == ["agents.svg", "ends.svg", "length.svg", "margins.svg",
                               "scores.svg", "summary.json", "win-rates.svg"]
    assert written == files(tmp_path / "two")
    other = simulate(tmp_path / "other", *RUN, "--seed", "2")
    assert other.exit_code == 0
    assert files(tmp_path / "other")["summary.json"] != written["summary.json"]


def test_the_command_in_the_summary_makes_the_same_summary(tmp_path: Path) -> None:
    assert simulate(tmp_path / "first", "-n", "120", "-p", "3", "--variant", "long",
                    "-a", "cautious,random", "--seed", "7", "-q").exit_code == 0
    command = summary(tmp_path / "first")["command"]
    words = shlex.split(command)
    assert words[:3] == ["rulepress", "simulate", "coin-race"]
    again = CliRunner().invoke(main, [*words[1:], "--project", str(FIXTURE), "--out",
                                      str(tmp_path / "again"), "-q", "-j", "2"])
    assert again.exit_code == 0, again.output
    assert files(tmp_path / "again") == files(tmp_path / "first")


def test_the_figures_add_up(tmp_path: Path) -> None:
    assert simulate(tmp_path, *RUN).exit_code == 0
    data = summary(tmp_path)
    assert data["run"]["games"] == 300 and data["run"]["players"] == [2, 3]
    assert data["agents"] == {"random": "plays uniformly at random among the legal moves",
                              "cautious": "always steps"}
    assert [t["key"] for t in data["tables"]] == ["2-short", "3-short"]
    for table in data["tables"]:
        players = table["players"]
        assert table["games"] == table["finished"] == 300
        assert sum(e["count"] for e in table["ends"].values()) == 300
        assert sum(c for _, c in table["turns"]["histogram"]) == table["turns"]["n"] == 300
        assert table["scores"]["n"] == 300 * players
        wins = sum(s["count"] for s in table["seats"])
        decided = 300 - table["draws"]["count"]
        assert decided <= wins <= decided + table["shared_wins"]["count"] * (players - 1)
        assert sum(c for _, c in table["winning_score"]["histogram"]) == 300
        assert sum(a["of"] for a in table["agents"].values()) == 300 * players
        assert sum(a["count"] for a in table["agents"].values()) == wins
        q = table["turns"]["quantiles"]
        assert table["turns"]["min"] <= q["p5"] <= q["median"] <= q["p95"] <= table["turns"]["max"]
        assert table["minutes"]["mean"] == pytest.approx(table["turns"]["mean"] / 2)
        for r in [*table["seats"], *table["agents"].values(), table["first_player"]]:
            assert r["ci"][0] <= r["rate"] <= r["ci"][1]
        # Coin Race's seat 1 always moves first, and reaching the goal first is an edge.
        assert table["first_player"]["seats"] == {"1": 300}
        assert table["first_player"]["count"] == table["seats"][0]["count"]
        order = table["turn_order"]
        assert [o["count"] for o in order] == [s["count"] for s in table["seats"]]
        assert [o["place"] for o in order] == list(range(1, players + 1))
        flipped = table["questions"]["winner_flipped"]
        assert flipped["of"] == 300 - table["shared_wins"]["count"]
        assert table["questions"]["flips"]["n"] == 300
        assert table["sample"]["games"] == SAMPLE
    # A careful stepper loses to a coin flipper, who moves 1.5 squares a flip on average.
    assert data["tables"][0]["agents"]["random"]["rate"] > data["tables"][0]["agents"][
        "cautious"]["rate"]


def test_wilson_intervals_match_published_values() -> None:
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert rate(0, 0) == {"count": 0, "of": 0, "rate": None, "ci": None}


def test_distributions_from_counts_match_the_statistics_module() -> None:
    rng = random.Random(3)
    values = [rng.randint(3, 40) for _ in range(999)]
    counts: dict[float, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    dist = distribution(counts)
    assert dist["mean"] == pytest.approx(statistics.mean(values), abs=1e-6)
    assert dist["sd"] == pytest.approx(statistics.stdev(values), abs=1e-6)
    assert dist["quantiles"]["median"] == statistics.median_low(values)
    ordered = sorted(values)
    assert dist["quantiles"]["p25"] == ordered[int(0.25 * 999 + 0.999) - 1]
    half = 1.959963984540054 * statistics.stdev(values) / 999 ** 0.5
    assert dist["ci"] == pytest.approx([dist["mean"] - half, dist["mean"] + half], abs=1e-5)


def _spec(games: int) -> RunSpec:
    return RunSpec("coin-race", "engines/coin_race.py:ENGINE", FIXTURE, games, (2, 3),
                   ("short",), ("random", "cautious"))


def test_tallies_merge_to_the_same_figures_in_any_order() -> None:
    spec = _spec(90)
    table = Table(3, "short")
    kinds = {"winner_flipped": "rate", "flips": "mean"}
    parts = [play_batch(spec, table, b.start, b.stop) for b in batches(spec) if b.table == 1]
    assert len(parts) == 15
    forward, backward = Tally.empty(3, kinds), Tally.empty(3, kinds)
    for part in parts:
        forward.merge(part)
    for part in reversed(parts):
        backward.merge(part)
    whole = play_batch(spec, table, 0, 90)
    figures = table_figures(whole, spec.agents, 30)
    assert table_figures(forward, spec.agents, 30) == figures
    assert table_figures(backward, spec.agents, 30) == figures


def test_game_seeds_do_not_depend_on_the_process() -> None:
    expected = int.from_bytes(hashlib.sha256(b"5:17:deal").digest()[:8], "big")
    assert game_seed(5, 17) == expected != game_seed(5, 18)
    code = "from rulepress.simulate.spec import game_seed; print(game_seed(5, 17))"
    for salt in ("1", "2"):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True, env={**os.environ, "PYTHONHASHSEED": salt})
        assert int(out.stdout) == expected


def test_a_game_that_never_ends_stops_at_the_turn_cap(tmp_path: Path) -> None:
    result = simulate(tmp_path, "-n", "12", "--variant", "endless", "--max-turns", "40", "-q")
    assert result.exit_code == 0, result.output
    table = summary(tmp_path)["tables"][0]
    assert table["ends"] == {"turn cap (unfinished)": {
        "count": 12, "of": 12, "rate": 1.0, "ci": table["ends"]["turn cap (unfinished)"]["ci"]}}
    assert table["turns"]["min"] == table["turns"]["max"] == 40
    assert table["finished"] == 0 and table["seats"][0]["rate"] is None


def test_check_names_the_game_that_broke_an_invariant(tmp_path: Path) -> None:
    """Most games of the broken race break the invariant; whichever batch fails first, the
    error names the first game that does."""
    for jobs in ("1", "2"):
        result = simulate(tmp_path / "out", "-n", "400", "--variant", "broken", "--check", "-q",
                          "-j", jobs)
        assert result.exit_code == 1
        assert result.stderr.strip().splitlines() == [
            "rulepress: error: coin-race game 0 (2 players, broken, seed 1), after move "
            f"{_broken_at()}: nobody passes square 4 in the broken race"
        ]
        assert not (tmp_path / "out").exists()
    unchecked = simulate(tmp_path / "out", "-n", "50", "--variant", "broken", "-q")
    assert unchecked.exit_code == 0


def _broken_at() -> int:
    """The move after which game 0 of the broken race first has a pawn past square 4."""
    from rulepress.games import load_engine
    from rulepress.games.base import CHANCE, chance_move
    from rulepress.simulate.spec import game_random

    rules = load_engine("engines/coin_race.py:ENGINE", FIXTURE).rules()
    assert rules is not None
    state, rng, moves = rules.new_game(2, game_seed(1, 0), "broken"), game_random(1, 0), 0
    while not rules.invariants(state):
        if state.current_player() == CHANCE:
            move = chance_move(state, rng)
        else:
            options = state.legal_moves()
            move = options[rng.randrange(len(options))]
        state, moves = state.apply(move), moves + 1
    return moves


BAD = {
    "unknown game": (["simulate", "no-such-game", "--project", str(FIXTURE)],
                     "unknown game 'no-such-game'"),
    "unknown agent": ([*COIN, "-a", "random,greedy"], "no agent 'greedy'; the game has: "
                                                      "random, cautious"),
    "unknown variant": ([*COIN, "--variant", "slalom"], "no variant 'slalom'"),
    "too many players": ([*COIN, "-p", "2-5"], "Coin Race is for 2 to 4 players, not 5"),
    "not a count": ([*COIN, "-p", "two"], "write a count, a list (2,3) or a range (2-6)"),
    "an empty range": ([*COIN, "-p", "4-2"], "the range 4-2 is empty"),
    "a table refused": ([*COIN, "-p", "4", "--variant", "long"],
                        "cannot be set up for 4 players, long: the long race is for 2 or 3"),
    "no games": ([*COIN, "-n", "0"], "--games 0: play at least one game"),
    "fewer than none": ([*COIN, "-n", "-5"], "--games -5: play at least one game"),
    "no turns": ([*COIN, "--max-turns", "0"], "allow at least one turn"),
    "no time": ([*COIN, "--seconds-per-turn", "0"], "give a time above 0"),
    "endless time": ([*COIN, "--seconds-per-turn", "inf"],  # a matplotlib traceback before
                     "--seconds-per-turn inf: give a time above 0 and at most 86,400 (a day)"),
    "not a time": ([*COIN, "--seconds-per-turn", "nan"], "--seconds-per-turn nan: give a time"),
    "overflowing time": ([*COIN, "--seconds-per-turn", "1e308"], "--seconds-per-turn 1e+308: "),
    "negative jobs": ([*COIN, "-j", "-1"], "--jobs -1"),
    "not an address": ([*COIN, "--scheduler", "nowhere"], "not a scheduler's address"),
    "nobody there": ([*COIN, "--scheduler", "tcp://127.0.0.1:9"],
                     "cannot reach a Dask scheduler there"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_is_one_line_exit_2_and_nothing_written(case: str, tmp_path: Path) -> None:
    args, message = BAD[case]
    out = tmp_path / "out"
    result = CliRunner().invoke(main, [*args, "--out", str(out), "-q"])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rulepress: error: "), lines
    assert message in lines[0]
    assert "Traceback" not in result.output
    assert not out.exists()


def test_progress_is_a_line_a_batch_off_a_terminal(tmp_path: Path) -> None:
    result = simulate(tmp_path, "-n", "40", "-p", "2-3")
    assert result.exit_code == 0
    lines = result.stderr.splitlines()
    assert lines[:2] == ["coin-race: 3/80 games", "coin-race: 6/80 games"]
    assert len([line for line in lines if line.startswith("coin-race: ")]) == 28
    assert lines[-1].startswith("played 80 games of coin-race in ")
    assert lines[-1].endswith(f"wrote 6 files to {tmp_path}")
    quiet = simulate(tmp_path, "-n", "40", "-p", "2-3", "-q")
    assert quiet.stderr.splitlines() == [quiet.stderr.splitlines()[-1]]


def test_plots_are_the_same_bytes_and_say_what_they_show(tmp_path: Path) -> None:
    assert simulate(tmp_path / "a", *RUN).exit_code == 0
    assert simulate(tmp_path / "b", *RUN).exit_code == 0
    a, b = files(tmp_path / "a"), files(tmp_path / "b")
    assert a == b
    length = a["length.svg"].decode()
    assert "<dc:date>" not in length and "Matplotlib v" not in length
    assert "<!-- Game length (a turn taken as 30 s) -->" in length
    assert "<!-- 2 players: median" in length and "<!-- 3 players: median" in length
    assert "<!-- How games end -->" in a["ends.svg"].decode()
    assert "<!-- reached the goal -->" in a["ends.svg"].decode()
    one_agent = simulate(tmp_path / "a", "-n", "30", "-q")
    assert one_agent.exit_code == 0
    assert "agents.svg" not in files(tmp_path / "a"), "a plot of one agent says nothing"


def test_a_project_made_by_rulepress_new_simulates_its_own_engine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = CliRunner()
    monkeypatch.chdir(tmp_path)
    assert runner.invoke(main, ["new", "pig"]).exit_code == 0
    monkeypatch.chdir(tmp_path / "pig")
    result = runner.invoke(main, ["simulate", "pig", "-n", "200", "-a", "random,hold-at-20",
                                  "-q"])
    assert result.exit_code == 0, result.output
    data = summary(tmp_path / "pig" / "build" / "pig" / "simulation")
    assert data["engine"] == "engines/pig/__init__.py:ENGINE"
    assert data["agents"]["hold-at-20"] == "rolls until the turn total reaches 20, then holds"
    table = data["tables"][0]
    assert table["ends"]["reached 100"]["count"] == 200
    # Holding at 20 is the classic good strategy; random play rolls ones away.
    assert table["agents"]["hold-at-20"]["ci"][0] > 0.8


def test_help_imports_nothing_heavy() -> None:
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from rulepress.cli import main\n"
        "CliRunner().invoke(main, ['simulate', '--help'])\n"
        "heavy = [m for m in ('matplotlib', 'numpy', 'distributed', 'dask', 'rich',"
        " 'weasyprint', 'jinja2') if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_memory_stays_flat_in_the_number_of_games(tmp_path: Path) -> None:
    """Peak memory of a run of 2,000 games and of one of 20,000 (in this process, -j 1): only
    counts are kept, so ten times the games take no more memory. (The benchmark measures
    10^4 against 10^5 games of the bundled engines.)"""
    code = (
        "import resource, sys\n"
        "from click.testing import CliRunner\n"
        "from rulepress.cli import main\n"
        "r = CliRunner().invoke(main, sys.argv[1:])\n"
        "assert r.exit_code == 0, r.output\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    )
    peaks = []
    for games in (2000, 20000):
        args = [*COIN, "-n", str(games), "-j", "1", "-a", "random,cautious", "-q",
                "--out", str(tmp_path / str(games))]
        out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                             text=True, check=True)
        peaks.append(int(out.stdout))
    assert summary(tmp_path / "20000")["tables"][0]["games"] == 20000
    assert peaks[1] - peaks[0] < 4096, f"peak RSS {peaks[0]} KiB, then {peaks[1]} KiB"


def test_progress_goes_to_the_commands_reporter_as_steps(tmp_path: Path) -> None:
    """simulate has no bar of its own: its progress is pipeline Steps to the one reporter."""
    from rulepress.diagnostics import Diagnostic
    from rulepress.pipeline import Step
    from rulepress.simulate.generator import simulate_game
    from rulepress.simulate.summary import Options

    told: list[str] = []

    class Told:
        def progress(self, message: str) -> None:
            told.append(message)

        def diagnostics(self, diagnostics: list[Diagnostic]) -> None:
            raise AssertionError(diagnostics)

    done = simulate_game("coin-race", FIXTURE / "sources", FIXTURE, Options(40, "2-3"),
                         tmp_path / "out", jobs=1, reporter=Told())
    assert done.startswith("played 80 games of coin-race")
    assert told and all(isinstance(step, Step) for step in told)
    steps = [step for step in told if isinstance(step, Step)]
    assert [s.done for s in steps] == sorted(s.done for s in steps)
    assert (steps[0], steps[-1].done, steps[-1].total) == ("coin-race: 3/80 games", 80, 80)
    quiet = simulate_game("coin-race", FIXTURE / "sources", FIXTURE, Options(40, "2-3"),
                          tmp_path / "quiet", jobs=1, reporter=None)
    assert quiet.startswith("played 80 games")


def test_simulate_on_the_pipeline_plays_every_run_and_writes_only_its_files(
        tmp_path: Path) -> None:
    """simulate is a pipeline generator: the same files as before (summary, plots, the
    folder's manifest, nothing kept for a check it does not run), and a second run plays
    again (its unit is never fresh) with the same bytes."""
    from rulepress.simulate.generator import simulate_game
    from rulepress.simulate.summary import Options

    out = tmp_path / "out"
    first = simulate_game("coin-race", FIXTURE / "sources", FIXTURE, Options(40, "2-3"), out,
                          jobs=1)
    files = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*")
             if p.is_file()}
    assert ".rulepress/manifest.json" in files and "summary.json" in files
    assert all(n == ".rulepress/manifest.json" or not n.startswith(".") for n in files), files
    again = simulate_game("coin-race", FIXTURE / "sources", FIXTURE, Options(40, "2-3"), out,
                          jobs=1)
    assert first.startswith("played 80 games") and again.startswith("played 80 games")
    assert {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*")
            if p.is_file()} == files


def test_batches_are_made_as_asked_the_same_as_listed() -> None:
    import itertools
    import time

    from rulepress.simulate.execute import Batch, batch_size, batches

    def listed(spec: RunSpec, run: int, rounds: int) -> list[Batch]:
        """The batches as rulepress listed them before (every one made first)."""
        sized = []
        for t, table in enumerate(spec.tables):
            size = batch_size(spec.games) * spec.rotations(table.players)
            total = spec.plays(table.players)
            sized.append([Batch(t, s, min(s + size, total), run)
                          for s in range(0, total, size)])
        if not rounds:
            return [b for each in sized for b in each]
        per = max(1, -(-max(map(len, sized)) // rounds))
        return [Batch(b.table, b.start, b.stop, run, r) for r in range(rounds)
                for each in sized for b in each[r * per:(r + 1) * per]]

    for games, duplicate, run, rounds in [(1, False, 0, 0), (37, True, 1, 0), (1000, False, 2, 16),
                                          (4001, True, 0, 3), (5, False, 0, 16)]:
        spec = RunSpec("g", "e", None, games, (2, 3), ("standard", "other"), ("random",),
                       duplicate=duplicate)
        assert list(batches(spec, run, rounds)) == listed(spec, run, rounds)
    huge = RunSpec("g", "e", None, 10**12, (2, 3), ("standard",), ("random",))
    started = time.process_time()
    first = list(itertools.islice(batches(huge, 0, 16), 3))
    assert time.process_time() - started < 1 and first[0] == Batch(0, 0, 250, 0, 0)

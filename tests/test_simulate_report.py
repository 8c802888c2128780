"""The playtest report: a ```simulation block reads a committed summary, checks that it is the
named run's and that the rules still play it, and takes its prose's numbers from it."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from rulepress.cli import main

pytestmark = pytest.mark.slow  # rulepress simulate end to end, reports built

FIXTURE = Path(__file__).parent / "fixtures" / "simulate"
BLOCK = """
## Playtest report {{.reference}}

```simulation
id: playtest
title: Coin Race by simulation
summary: playtest/summary.json
run: {run}
plots: [win-rates, length]
text: |
  In {{{{ games }}}} simulated races at each table, the first player won
  {{{{ table["2-short"].first_player.percent }}}} of two-player races
  ({{{{ table["2-short"].first_player.interval }}}}).{extra}
```
"""
RUN = "{games: 200, players: 2-3, agents: [random, cautious], seed: 3}"


def project(tmp_path: Path, run: str = RUN, extra: str = "", **fields: str) -> Path:
    root = tmp_path / "project"
    shutil.copytree(FIXTURE, root)
    block = BLOCK.format(run=run, extra=extra)
    for key, value in fields.items():
        block = re.sub(rf"^{key}: .*$", f"{key}: {value}", block, flags=re.M)
    rules = root / "sources" / "coin-race" / "rules.md"
    rules.write_text(rules.read_text() + block)
    return root


def rulepress(root: Path, *args: str) -> Result:
    return CliRunner().invoke(main, [*args, "--project", str(root)])


def make_summary(root: Path) -> Result:
    """Run the command the missing summary's error gives, in the project folder, as a designer
    would."""
    result = rulepress(root, "check")
    assert result.exit_code == 2
    command = re.search(r"make it with: (rulepress simulate .*)$", result.stderr, re.M)
    assert command, result.stderr
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        return CliRunner().invoke(main, [*shlex.split(command[1])[1:], "-q"])


def test_a_missing_summary_is_an_error_at_its_line_with_the_command_to_make_it(
    tmp_path: Path,
) -> None:
    root = project(tmp_path)
    result = rulepress(root, "check")
    assert result.exit_code == 2
    line = (root / "sources/coin-race/rules.md").read_text().splitlines().index(
        "summary: playtest/summary.json") + 1
    assert f"rules.md:{line}:1: error: playtest: playtest/summary.json does not exist; make it "\
           "with: rulepress simulate coin-race --games 200 --players 2,3 --variant short " \
           "--agent random,cautious --seed 3 --max-turns 1000 --seconds-per-turn 30 --out " \
           "sources/coin-race/playtest" in result.stderr
    # a report not checked is bad input, no example the rules disproved
    assert "0 failed, 0 not checkable, 1 playtest report not up to date" in result.output
    made = make_summary(root)
    assert made.exit_code == 0, made.output
    checked = rulepress(root, "check")
    assert checked.exit_code == 0
    assert "0 failed, 0 not checkable, 1 playtest report up to date" in checked.output


def test_the_prose_takes_its_numbers_from_the_summary(tmp_path: Path) -> None:
    from rulepress.document.reader import read_sources
    from rulepress.render.html import render_html
    from rulepress.validate.printing import check_printing

    root = project(tmp_path)
    assert make_summary(root).exit_code == 0
    summary = json.loads((root / "sources/coin-race/playtest/summary.json").read_text())
    first = summary["tables"][0]["first_player"]
    low, high = first["ci"]
    expected = (f"In 200 simulated races at each table, the first player won "
                f"{100 * first['rate']:.1f}% of two-player races ({100 * low:.1f}–"
                f"{100 * high:.1f}%).")
    docs = read_sources(root / "sources", ["coin-race"])
    report = check_printing(docs, project=root, draw=True)
    assert not report.diagnostics
    rendered = report.documents[0].examples["playtest"]
    assert " ".join(rendered.prose.split()) == expected
    assert [f.caption for f in rendered.figures] == ["Share of the wins by seat and by place in "
                                                     "turn order",
                                                     "How long games last"]
    assert all(f.svg.startswith("<svg") for f in rendered.figures)
    reference = render_html(docs[0], report.documents[0].examples, edition="reference")
    player = render_html(docs[0], report.documents[0].examples, edition="player")
    assert 'class="example playtest status-simulated"' in reference
    # In the book a plot's words are text in the book's typeface, which a reader can search.
    assert re.search(r"<text [^>]*font-family: 'Carlito'[^>]*>Game length \(a turn taken as "
                     r"30 s\)</text>", reference)
    assert "<!-- Game length" not in reference, "not glyph outlines, as a standalone plot has"
    assert "Playtest report" in reference
    assert "Playtest" not in player and "simulated races" not in player


def test_the_prose_names_each_player_by_the_name_its_plots_show(tmp_path: Path) -> None:
    """One name per player: ``name`` gives the run's agents by their declared names, the ones
    the agents plot labels its bars with; a player the run does not have is an error at the
    block's text, not a name made up in prose."""
    from rulepress.document.reader import read_sources
    from rulepress.simulate.plots import agents_plot
    from rulepress.validate.printing import check_printing

    root = project(tmp_path, extra=" {{ name.cautious }} played {{ name.random }}.")
    assert make_summary(root).exit_code == 0
    docs = read_sources(root / "sources", ["coin-race"])
    report = check_printing(docs, project=root)
    assert not report.diagnostics
    prose = " ".join(report.documents[0].examples["playtest"].prose.split())
    assert prose.endswith(" cautious played random.")
    summary = json.loads((root / "sources/coin-race/playtest/summary.json").read_text())
    labels = [t.get_text() for t in agents_plot(summary).axes[0].get_xticklabels()]
    assert labels == ["random", "cautious"]

    (root / "sources/coin-race/playtest").rename(tmp_path / "kept")
    root = project(tmp_path / "other", extra=" {{ name.greedy }} is not in this run.")
    (tmp_path / "kept").rename(root / "sources/coin-race/playtest")
    result = rulepress(root, "check")
    assert result.exit_code == 2
    assert re.search(r"rules\.md:\d+:1: error: playtest: example text: .*greedy",
                     result.stderr), result.stderr


def test_the_bundled_reports_call_greedy_by_its_name() -> None:
    """Pigeon Race's and Pigeon's reports said "the simple player" where their plots say greedy
    (in German "die einfache Spielerin"); now they name it as the plots do."""
    sources = Path(__file__).parent.parent / "sources"
    for game in ("pigeon-race", "pigeon"):
        text = (sources / game / "playtest.md").read_text(encoding="utf-8")
        assert "simple player" not in text, game
        assert "{{ name.greedy }}" in text, game
    german = (sources / "pigeon-race/locales/de.po").read_text(encoding="utf-8")
    current = german.split("\n#~ ", 1)[0]  # obsolete entries aside
    assert "einfache Spielerin" not in current and "Schlussspielerin" not in current
    assert current.count("{{ name.greedy }}") >= 10


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, "[]", "NaN", "sparse"])
def test_a_summary_that_is_not_one_is_an_error_at_its_line(tmp_path: Path, text: str) -> None:
    root = project(tmp_path)
    summary = root / "sources/coin-race/playtest/summary.json"
    summary.parent.mkdir()
    if text == "sparse":  # it was read whole, however large
        with summary.open("wb") as fh:
            fh.truncate(50 * 2**30)
    else:
        summary.write_text(text)  # 100 000 brackets deep: a RecursionError traceback before
    result = rulepress(root, "check")
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2
    assert re.search(r"rules\.md:\d+:1: error: playtest: playtest/summary\.json is not a "
                     r"summary rulepress simulate wrote", result.stderr), result.stderr


def test_a_summary_of_another_run_is_refused(tmp_path: Path) -> None:
    root = project(tmp_path)
    assert make_summary(root).exit_code == 0
    rules = root / "sources/coin-race/rules.md"
    rules.write_text(rules.read_text().replace("seed: 3}", "seed: 4}"))
    result = rulepress(root, "check")
    assert result.exit_code == 2
    assert "playtest/summary.json is the summary of another run (rulepress simulate coin-race " \
           "--games 200" in result.stderr
    assert "--seed 4 --max-turns 1000 --seconds-per-turn 30 --out sources/coin-race/playtest" \
        in result.stderr


def checked_with_other_rules(root: Path) -> subprocess.CompletedProcess[str]:
    """`check` after the engine's heads are worth 2, not 3: in a fresh process, as the
    designer's next command is (this one has the old module loaded)."""
    engine = root / "engines" / "coin_race.py"
    engine.write_text(engine.read_text().replace("gain = {STEP: 1, HEADS: 3, TAILS: 0}",
                                                 "gain = {STEP: 1, HEADS: 2, TAILS: 0}"))
    return subprocess.run([sys.executable, "-c", "from rulepress.cli import main; main()",
                           "check", "--project", str(root)], capture_output=True, text=True)


def test_a_change_of_the_rules_makes_the_report_stale(tmp_path: Path) -> None:
    root = project(tmp_path)
    assert make_summary(root).exit_code == 0
    result = checked_with_other_rules(root)
    assert result.returncode == 1, result.stderr
    assert "the rules or agents no longer play the games of playtest/summary.json: its first " \
           "games at 2-short come out differently now; make it with:" in result.stderr


@pytest.mark.parametrize("case", ["bare number", "player edition", "unknown plot", "bad run",
                                  "unknown option", "outside"])
def test_a_bad_block_is_an_error_at_its_line(case: str, tmp_path: Path) -> None:
    fields = {
        "bare number": {"extra": " Seat 2 won less."},
        "player edition": {"extra": "\nedition: player"},
        "unknown plot": {"plots": "[win-rates, pie]"},
        "bad run": {"run": "{games: 200, players: 7}"},
        "unknown option": {"run": "{games: 200, jobs: 2}"},
        "outside": {"summary": "../pigeon/summary.json"},
    }[case]
    expected = {
        "bare number": "example text shows the bare number 2",
        "player edition": "a playtest report belongs to the reference edition only",
        "unknown plot": "plots: a list of length, scores, margins, win-rates, ends, agents, "
                        "ladder",
        "bad run": "run: --players 7: Coin Race is for 2 to 4 players, not 7",
        "unknown option": "run: 'jobs' is not an option of the run",
        "outside": "'../pigeon/summary.json' is not inside the game's folder",
    }[case]
    root = project(tmp_path, **fields)
    if case in ("unknown plot",):
        assert make_summary(root).exit_code == 0
    result = rulepress(root, "check")
    assert result.exit_code == 2
    assert re.search(r"rules\.md:\d+:1: error: .*" + re.escape(expected), result.stderr), \
        result.stderr


@pytest.mark.parametrize(("change", "said"), [
    ("import os\nos._exit(0)", "the coin_race engine ended its process (exit status 0) while "
                               "playing playtest"),
    ("while True:\n    pass", "the coin_race engine ran past its time budget (0.5 s of CPU "
                              "time; engine_seconds in rulepress.toml's [limits]) while "
                              "playing playtest"),
])
def test_an_engine_that_exits_or_loops_replaying_the_sample_is_an_error_at_the_block(
        tmp_path: Path, change: str, said: str) -> None:
    """The sample is played in the engine's worker, within its budget, as a run's games are."""
    root = project(tmp_path)
    assert make_summary(root).exit_code == 0
    (root / "rulepress.toml").write_text((root / "rulepress.toml").read_text()
                                         + "\n[limits]\nengine_seconds = 0.5\n")
    engine = root / "engines" / "coin_race.py"
    body = textwrap.indent(change, " " * 8)
    engine.write_text(engine.read_text().replace(
        "    def legal_moves(self) -> Sequence[Move]:\n",
        f"    def legal_moves(self) -> Sequence[Move]:\n{body}\n"))
    rules = root / "sources" / "coin-race" / "rules.md"
    line = rules.read_text().splitlines().index("```simulation") + 1
    result = subprocess.run([sys.executable, "-c", "from rulepress.cli import main; main()",
                             "check", "--project", str(root)], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2, result.stderr
    assert f"{rules.resolve()}:{line}:1: error: {said}\n" in result.stderr, result.stderr


def test_a_report_of_a_duplicate_run_replays_its_rotations_and_quotes_its_intervals(
    tmp_path: Path,
) -> None:
    from rulepress.document.reader import read_sources
    from rulepress.validate.printing import check_printing

    run = "{games: 50, players: 2-3, agents: [random, cautious], seed: 3, duplicate: true}"
    extra = ' Over deals, the first seat won {{ table["2-short"].duplicate.seats[0].interval }}.'
    root = project(tmp_path, run, extra)
    made = make_summary(root)
    assert made.exit_code == 0, made.output
    summary = json.loads((root / "sources/coin-race/playtest/summary.json").read_text())
    assert "--duplicate" in summary["command"]
    low, high = summary["tables"][0]["duplicate"]["seats"][0]["ci"]
    docs = read_sources(root / "sources", ["coin-race"])
    report = check_printing(docs, project=root, draw=False)
    assert not report.diagnostics
    prose = " ".join(report.documents[0].examples["playtest"].prose.split())
    assert prose.endswith(f"Over deals, the first seat won {100 * low:.1f}–{100 * high:.1f}%.")
    # the same run without duplicate play is another run
    other = project(tmp_path / "other", run.replace("true", "false"), extra)
    shutil.copytree(root / "sources/coin-race/playtest", other / "sources/coin-race/playtest")
    assert "is the summary of another run" in rulepress(other, "check").stderr
    bad = project(tmp_path / "bad", run.replace("true", "often"))
    assert "run: duplicate is true or false, not 'often'" in rulepress(bad, "check").stderr


def ladder_project(tmp_path: Path, run: str, text: str) -> Path:
    """A project whose report block plays ``run`` (a ladder), draws its plot and says ``text``."""
    root = project(tmp_path, run, plots="[ladder]")
    rules = root / "sources/coin-race/rules.md"
    rules.write_text(re.sub(r"text: \|\n(  .*\n)+", lambda _: f"text: |\n  {text}\n",
                            rules.read_text()))
    return root


def test_a_report_of_a_ladder_shows_its_plot_and_sentence_and_replays_each_pairs_first_game(
    tmp_path: Path,
) -> None:
    from rulepress.document.reader import read_sources
    from rulepress.validate.printing import check_printing

    run = "{games: 12, players: 2, ladder: [random, cautious, mcts:8], seed: 3}"
    root = ladder_project(tmp_path, run, "{{ ladder.sentence }}. The strongest in both seats: "
                          "the first player wins\n  {{ ladder.seat_balance.first_player.percent "
                          "}}; cautious scores {{ versus['cautious']['random'].percent }} "
                          "against random, {{ ladder.elo['cautious'].shown }} Elo.")
    result = rulepress(root, "check")
    assert "make it with: rulepress simulate coin-race --games 12 --players 2 --variant short " \
           "--ladder random,cautious,mcts:8 --seed 3" in result.stderr, result.stderr
    made = make_summary(root)
    assert made.exit_code == 0, made.output
    summary = json.loads((root / "sources/coin-race/playtest/summary.json").read_text())
    assert [t["first_game"]["games"] for t in summary["tables"]] == [1, 1, 1, 1]
    docs = read_sources(root / "sources", ["coin-race"])
    report = check_printing(docs, project=root, draw=True)
    assert not report.diagnostics
    rendered = report.documents[0].examples["playtest"]
    prose = " ".join(rendered.prose.split())
    seat = summary["ladder"]["seat_balance"]["first_player"]["rate"]
    pair = summary["ladder"]["pairs"][0]
    assert pair["agents"] == ["random", "cautious"]
    versus = 1 - pair["count"] / pair["of"]
    elo = summary["ladder"]["elo"]["cautious"]["elo"]
    assert prose == (f"{summary['ladder']['sentence']}. The strongest in both seats: the "
                          f"first player wins {100 * seat:.1f}%; cautious scores "
                          f"{100 * versus:.1f}% against random, {elo:.0f} Elo.")
    assert [f.caption for f in rendered.figures] == [
        "Skill ladder: each agent's Elo, with its 95% interval"]
    assert all(f"{name}" in rendered.figures[0].svg for name in ("random", "cautious", "mcts:8"))
    # A pair's first game played otherwise makes the report stale: its rules changed.
    stale = checked_with_other_rules(root)
    assert stale.returncode == 1, stale.stderr
    assert "its first games at random vs cautious come out differently now; make it with: " \
           "rulepress simulate coin-race --games 12 --players 2 --variant short --ladder " \
           "random,cautious,mcts:8" in stale.stderr
    both = project(tmp_path / "both", run.replace("seed: 3", "seed: 3, agents: random"))
    assert "run: a ladder names its agents and plays them duplicate: leave out agents and " \
           "duplicate" in rulepress(both, "check").stderr


def test_a_report_of_an_adaptive_ladder_gives_the_command_and_takes_its_summary(
    tmp_path: Path,
) -> None:
    run = "{games: 32, players: 2, ladder: [random, cautious, flat:8], seed: 3, adaptive: true}"
    root = ladder_project(tmp_path, run, "{{ ladder.sentence }}.")
    assert "--ladder random,cautious,flat:8 --seed 3 --max-turns 1000 --seconds-per-turn 30 " \
           "--adaptive --out" in rulepress(root, "check").stderr
    made = make_summary(root)
    assert made.exit_code == 0, made.output
    summary = json.loads((root / "sources/coin-race/playtest/summary.json").read_text())
    assert summary["run"]["adaptive"] is True and "adaptive" in summary["method"]
    checked = rulepress(root, "check")
    assert checked.exit_code == 0, checked.stderr
    # the same block without the ladder: adaptive has nothing to stop
    lone = project(tmp_path / "lone", "{games: 8, players: 2, agents: random, adaptive: true}")
    result = rulepress(lone, "check")
    assert result.exit_code == 2
    assert "error: playtest: run: adaptive stops a ladder's decided pairs early: it needs " \
           "ladder" in result.stderr


def test_a_report_of_a_run_with_the_rules_handicap_names_its_value(tmp_path: Path) -> None:
    run = "{games: 40, players: 2, agents: cautious, seed: 3, handicap: 2}"
    root = project(tmp_path, run)
    assert "--agent cautious --seed 3 --max-turns 1000 --seconds-per-turn 30 --handicap 2 " \
           "--out sources/coin-race/playtest" in rulepress(root, "check").stderr
    assert make_summary(root).exit_code == 0
    summary = json.loads((root / "sources/coin-race/playtest/summary.json").read_text())
    assert summary["run"]["handicap"] == 2
    assert rulepress(root, "check").exit_code == 0
    other = project(tmp_path / "other", run.replace("handicap: 2", "handicap: 3"))
    shutil.copytree(root / "sources/coin-race/playtest", other / "sources/coin-race/playtest")
    assert "is the summary of another run" in rulepress(other, "check").stderr


def test_a_report_of_a_compensation_quotes_the_suggested_handicap_and_replays_its_games(
    tmp_path: Path,
) -> None:
    run = "{games: 60, players: 2, agents: cautious, seed: 3, compensate: true}"
    root = project(tmp_path, run, extra=" Give the second player {{ compensation.suggested }}: "
                                        "{{ compensation.sentence }}.")
    made_with = rulepress(root, "check").stderr
    assert "--agent cautious --seed 3 --max-turns 1000 --seconds-per-turn 30 --compensate " \
           "--out sources/coin-race/playtest" in made_with, made_with
    assert make_summary(root).exit_code == 0
    summary = json.loads((root / "sources/coin-race/playtest/summary.json").read_text())
    best = summary["compensation"]["suggested"]
    assert summary["run"]["handicap"] == best
    checked = rulepress(root, "check")
    assert checked.exit_code == 0, checked.stderr
    from rulepress.document.reader import read_sources
    from rulepress.validate.printing import check_printing

    docs = read_sources(root / "sources", ["coin-race"])
    report = check_printing(docs, project=root, draw=False)
    prose = " ".join(report.documents[0].examples["playtest"].prose.split())
    assert f"Give the second player {best}: with the handicap at {best} (" in prose, prose
    # The summary's games are those at the suggested value: another value's summary is stale.
    fixed = project(tmp_path / "fixed", run.replace("compensate: true", f"handicap: {best}"))
    shutil.copytree(root / "sources/coin-race/playtest", fixed / "sources/coin-race/playtest")
    assert rulepress(fixed, "check").exit_code == 0
    summary["compensation"]["suggested"] = best + 1
    (root / "sources/coin-race/playtest/summary.json").write_text(json.dumps(summary))
    assert "is the summary of another run" in rulepress(root, "check").stderr
    both = project(tmp_path / "both", run.replace("seed: 3", "seed: 3, handicap: 1"))
    assert "run: compensate finds the handicap itself for the agents named" in rulepress(
        both, "check").stderr


def test_the_check_plays_the_confirmations_first_games_again(tmp_path: Path) -> None:
    """The handicap's confirmation, played on fresh deals, was not among the games an ordinary
    check plays again: its record could name another value or seed, digest and figures made to
    agree, and pass. Now its first games are played again at the value and seed it records."""
    from rulepress.simulate.records import DIGEST_KEY, records_digest
    from rulepress.simulate.refigure import derived
    from rulepress.simulate.stats import SAMPLE

    run = "{games: 60, players: 2, agents: cautious, seed: 3, compensate: true}"
    root = project(tmp_path, run)
    assert make_summary(root).exit_code == 0
    path = root / "sources/coin-race/playtest/summary.json"
    summary = json.loads(path.read_text())
    confirmation = summary["compensation"]["confirmation"]
    assert confirmation["sample"]["games"] == SAMPLE
    assert rulepress(root, "check").exit_code == 0
    line = (root / "sources/coin-race/rules.md").read_text().splitlines().index(
        "summary: playtest/summary.json") + 1

    def forged(**fields: Any) -> Result:
        edited = json.loads(json.dumps(summary))
        edited["compensation"]["confirmation"].update(fields)
        edited = derived(edited)
        path.write_text(json.dumps({**edited, DIGEST_KEY: records_digest(edited)}))
        return rulepress(root, "check")

    for edit in ({"seed": confirmation["seed"] + 1}, {"value": confirmation["value"] + 1}):
        result = forged(**edit)
        assert result.exit_code == 1, (edit, result.output)
        assert f"rules.md:{line}:1: error: playtest: the rules or agents no longer play the " \
               "games of playtest/summary.json: its first games at confirmation come out " \
               "differently now; make it with: rulepress simulate coin-race " in result.stderr
    # a confirmation recorded before its first games were: no check could play it again
    older = {k: v for k, v in confirmation.items() if k != "sample"}
    summary["compensation"]["confirmation"] = older
    result = forged()
    assert result.exit_code == 2, result.output
    assert f"rules.md:{line}:1: error: playtest: playtest/summary.json: its confirmation was " \
           "recorded without its first games' digest, so no check can play them again; " \
           "make it with: " in result.stderr

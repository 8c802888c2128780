"""A playtest's figures come from its records: an edited figure or record fails the check at
the report's summary line, and every committed summary recomputes exactly from its records."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from test_simulate_report import make_summary, project, rulepress

from rulepress.simulate.records import (
    DIGEST_KEY,
    first_difference,
    records_digest,
    tally_of,
    tally_records,
)
from rulepress.simulate.refigure import derived
from rulepress.simulate.summary import dumps

ROOT = Path(__file__).parent.parent
DUPLICATE = "{games: 40, players: 2, agents: [random, cautious], seed: 3, duplicate: true}"
COMMITTED = sorted((ROOT / "sources").glob("*/playtest/**/summary.json"))


def _made(tmp_path: Path) -> tuple[Path, Path, dict[str, Any]]:
    root = project(tmp_path, DUPLICATE)
    assert make_summary(root).exit_code == 0
    path = root / "sources/coin-race/playtest/summary.json"
    return root, path, json.loads(path.read_text())


def _error(root: Path) -> str:
    result = rulepress(root, "check")
    assert result.exit_code == 2, result.output
    line = (root / "sources/coin-race/rules.md").read_text().splitlines().index(
        "summary: playtest/summary.json") + 1
    found = re.search(rf"rules\.md:{line}:1: error: playtest: (.*)$", result.stderr, re.M)
    assert found, result.stderr
    return found[1]


def test_a_hand_edited_figure_fails_the_check_at_the_summary(tmp_path: Path) -> None:
    root, path, summary = _made(tmp_path)
    assert rulepress(root, "check").exit_code == 0
    agent = summary["tables"][0]["agents"]["cautious"]
    shown = agent["rate"]
    agent["rate"] = 0.9  # the figure raised, its counts left alone: the audit's edit
    agent["ci"] = [0.85, 0.95]
    path.write_text(dumps(summary) + "\n")
    said = _error(root)
    assert said.startswith(f"playtest/summary.json: tables[2-short].agents.cautious.rate is "
                           f"0.9, its records give {json.dumps(shown)}; a figure is computed "
                           f"from the records, never edited: make it with: rulepress simulate "
                           f"coin-race "), said


def test_an_edited_record_fails_the_check_by_its_digest(tmp_path: Path) -> None:
    root, path, summary = _made(tmp_path)
    table = summary["tables"][0]
    table["duplicate"]["units"]["agents"]["cautious"][0][2] += 1  # one more deal of some kind
    path.write_text(dumps(summary) + "\n")
    assert _error(root).startswith(
        "playtest/summary.json: its records do not match their digest (records_sha256): a "
        "record was changed after the run; make it with: rulepress simulate coin-race ")
    # a record edited and every figure made to agree still differs from the run's digest
    table["duplicate"]["units"]["agents"]["cautious"][0][2] -= 1
    table["agents"]["cautious"]["count"] += 1
    path.write_text(dumps({**derived(summary), DIGEST_KEY: summary[DIGEST_KEY]}) + "\n")
    assert "its records do not match their digest" in _error(root)
    # a summary without a digest is not one this version can trust
    del summary[DIGEST_KEY]
    path.write_text(dumps(summary) + "\n")
    assert "its records do not match their digest" in _error(root)


def test_the_records_are_every_count_a_table_is_computed_from(tmp_path: Path) -> None:
    """The counts read back from a run's table give that table's figures again, and reading
    those figures back gives the same counts: nothing printed comes from elsewhere."""
    from rulepress.simulate.records import kinds_of
    from rulepress.simulate.stats import table_figures

    _, _, summary = _made(tmp_path)
    kinds = kinds_of(summary)
    stored = summary["tables"][0]
    tally = tally_of(stored, kinds)
    assert tally.agent_units and tally.seat_units and tally.turns and tally.margins
    again = table_figures(tally, summary["run"]["agents"], 30.0)
    again["sample"] = stored["sample"]
    assert first_difference({k: stored[k] for k in again}, again) is None
    assert tally_records(tally_of({**stored, **again}, kinds)) == tally_records(tally)


@pytest.mark.parametrize("path", COMMITTED, ids=lambda p: str(p.relative_to(ROOT / "sources")))
def test_every_committed_summary_is_its_records_figures(path: Path) -> None:
    summary = json.loads(path.read_text())
    assert summary[DIGEST_KEY] == records_digest(summary)
    made = {**derived(summary), DIGEST_KEY: summary[DIGEST_KEY]}
    assert first_difference(summary, made) is None


def test_replay_all_plays_every_game_and_finds_a_forged_record(tmp_path: Path) -> None:
    """A record changed with its digest and figures made to agree passes the ordinary check
    (only the first games are played again); ``check --replay-all`` plays them all."""
    root, path, summary = _made(tmp_path)
    result = rulepress(root, "check", "--replay-all")
    assert result.exit_code == 0, result.output
    assert "1 playtest report up to date; 1 replayed in full" in result.output
    table = summary["tables"][0]
    units = table["duplicate"]["units"]["agents"]["cautious"]
    # one deal the agent won both games of, told as a deal it won one of
    assert units[-1][:2] == [2, 2] and units[-2][:2] == [1, 2]
    units[-1][2] -= 1
    units[-2][2] += 1
    table["agents"]["cautious"]["count"] -= 1
    forged = derived(summary)
    path.write_text(dumps({**forged, DIGEST_KEY: records_digest(forged)}) + "\n")
    assert rulepress(root, "check").exit_code == 0
    replayed = rulepress(root, "check", "--replay-all")
    assert replayed.exit_code == 1, replayed.output
    line = (root / "sources/coin-race/rules.md").read_text().splitlines().index(
        "summary: playtest/summary.json") + 1
    assert re.search(rf"rules\.md:{line}:1: error: playtest: playtest/summary\.json: its "
                     r"records are not what its games give played again in full \(first at "
                     r"tables\[2-short\]\.agent_wins\); make it with: rulepress simulate "
                     r"coin-race ", replayed.stderr), replayed.stderr
    assert "1 replayed in full, 1 not as recorded" in replayed.output


def test_replay_all_compares_a_summary_made_before_deal_units_on_the_records_it_keeps(
    tmp_path: Path,
) -> None:
    """Go-Stop's versus summary, recorded before each rate's units by deal were, failed
    --replay-all at tables[2-standard].deal_units though its games came out the same: a
    summary is compared on the records it keeps."""
    root, path, summary = _made(tmp_path)
    del summary["tables"][0]["duplicate"]["units"]["other"]  # as recorded before
    older = derived(summary)
    assert "other" not in older["tables"][0]["duplicate"]["units"]
    path.write_text(dumps({**older, DIGEST_KEY: records_digest(older)}) + "\n")
    result = rulepress(root, "check", "--replay-all")
    assert result.exit_code == 0, result.output
    assert "1 replayed in full" in result.output and "not as recorded" not in result.output
    # a record it keeps, forged, still fails
    units = older["tables"][0]["duplicate"]["units"]["agents"]["cautious"]
    units[-1][2] -= 1
    units[-2][2] += 1
    older["tables"][0]["agents"]["cautious"]["count"] -= 1
    forged = derived(older)
    path.write_text(dumps({**forged, DIGEST_KEY: records_digest(forged)}) + "\n")
    assert rulepress(root, "check", "--replay-all").exit_code == 1


def test_the_fair_handicap_is_a_curve_fitted_to_every_value_tried() -> None:
    """Pigeon Race's search picked the nearer of two straddling values (2) from 160 races
    each; a logistic fit over all 960 races puts the fair handicap at 2.3 [1.8, 2.9] (the
    audit's figure), and it is in the compensation's derived figures."""
    from rulepress.simulate.compensate import logistic_fit

    path = ROOT / "sources/pigeon-race/playtest/compensation/summary.json"
    summary = json.loads(path.read_text())
    fit = derived(summary)["compensation"]["fit"]
    assert (fit["games"], fit["shown"], fit["interval"]) == (960, "2.3", "1.8–2.9")
    assert fit["fair"] == pytest.approx(2.340261, abs=1e-6)
    # a curve that does not fall gives no interval, two values at least are needed
    flat = logistic_fit([(0, 80, 160), (1, 81, 160), (2, 79, 160)])
    assert flat is not None and flat["ci"] is None
    assert logistic_fit([(2, 84, 160)]) is None
    # every game won by the first player at one value, lost at the other: no curve, no error
    assert logistic_fit([(0, 30, 30), (1, 0, 30)]) is None
    assert logistic_fit([(0, 30, 30), (1, 30, 30)]) is None


def test_levels_come_from_holm_adjusted_tests_and_early_stops_are_named() -> None:
    """Pigeon Race's ladder put ismcts:100 a level below greedy, though their head to head is
    53.8% [44.9, 62.6]: levels came from uncorrected tests against the level's top only.
    Pigeon's adaptive ladder printed fixed-sample intervals for pairs stopped once decided."""
    from rulepress.simulate.ladder import holm

    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    race = derived(json.loads(
        (ROOT / "sources/pigeon-race/playtest/ladder/summary.json").read_text()))["ladder"]
    assert race["levels"] == [["ismcts:400", "greedy", "ismcts:100"], ["random"]]
    pairs = {frozenset(p["agents"]): p for p in race["pairs"]}
    for upper, lower in zip(race["levels"], race["levels"][1:], strict=False):
        assert all(pairs[frozenset((a, lower[0]))]["p_holm"] < 0.05 for a in upper)
    assert pairs[frozenset(("greedy", "ismcts:100"))]["p_holm"] > 0.05
    assert "stopped_early" not in race  # not an adaptive run
    pigeon = derived(json.loads(
        (ROOT / "sources/pigeon/playtest/ladder/summary.json").read_text()))["ladder"]
    assert len(pigeon["stopped_early"]) == 5 and ["flat:25", "flat:100"] in pigeon["stopped_early"]
    warned = ("stopped early once decided, so their scores are pushed away from an even one, "
              "though their intervals hold however early they stopped: random vs greedy, "
              "random vs flat:25,")
    assert warned in pigeon["sentence"]
    # each pair's always-valid interval: random vs greedy stopped at 16 deals (at 4, [0, 100],
    # before a pair needed 10; at 12 when it stopped at 0.05 alone), and it clears an even score
    cs = {tuple(p["agents"]): p["cs"] for p in pigeon["pairs"]}
    assert cs["random", "greedy"] == [0.0, 0.316] and cs["greedy", "flat:100"][1] < 0.5
    # the stopped pairs' always-valid p-values into Holm: stopped at 0.05 over the ten pairs,
    # each is told apart after the ten comparisons (stopped at 0.05 alone, none was, and the
    # ladder had one level), so the levels stand
    early = {tuple(p["agents"]): p for p in pigeon["pairs"]}
    for pair in pigeon["stopped_early"]:
        assert early[tuple(pair)]["p"] <= 0.005 and early[tuple(pair)]["p_holm"] < 0.05
    assert early["greedy", "flat:100"]["p_holm"] < 0.05  # played out: its fixed-sample test
    assert pigeon["levels"] == [["flat:400", "flat:100"], ["greedy", "flat:25"], ["random"]]

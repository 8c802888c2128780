"""rulepress simulate --ladder and --until: a round robin on equal luck, a Bradley-Terry fit
with intervals, the levels it tells apart and the luck share; a run that stops once its
interval is narrow enough, at the same game whatever the jobs. Played on Coin Race
(tests/fixtures/simulate)."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from rulepress.cli import main
from rulepress.simulate.ladder import ELO, fit, parse_until
from rulepress.simulate.spec import SpecError, game_seed
from rulepress.simulate.stats import wilson

pytestmark = pytest.mark.slow  # ladders played end to end

FIXTURE = Path(__file__).parent / "fixtures" / "simulate"
COIN = ["simulate", "coin-race", "--project", str(FIXTURE), "-q"]


def simulate(out: Path, *args: str) -> Result:
    return CliRunner().invoke(main, [*COIN, "--out", str(out), *args])


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def summary(folder: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / "summary.json").read_text())
    return data


def test_the_fit_recovers_known_strengths_within_its_intervals() -> None:
    truth = [0.0, 150.0, 400.0]
    rng = random.Random(5)
    pairs = []
    for i, j in [(0, 1), (0, 2), (1, 2)]:
        p = 1 / (1 + 10 ** ((truth[j] - truth[i]) / 400))
        n = 4000
        pairs.append((i, j, float(sum(rng.random() < p for _ in range(n))), float(n), 1.0))
    theta, cov = fit(["a", "b", "c"], pairs)
    assert theta[0] == 0.0 and cov[0] == [0.0, 0.0, 0.0]
    for k in (1, 2):
        half = 1.96 * ELO * math.sqrt(cov[k][k])
        assert 10 < half < 40  # some 4,000 games a pair: tens of Elo, not hundreds
        assert abs(ELO * theta[k] - truth[k]) < half
    # a pair won every time still fits (the virtual draw), far above the other
    theta, _ = fit(["a", "b"], [(0, 1, 0.0, 200.0, 1.0)])
    assert 700 < ELO * theta[1] < 1200


def test_a_smaller_design_effect_narrows_the_elo_interval() -> None:
    counts = [(0, 1, 60.0, 200.0, 1.0)]
    _, plain = fit(["a", "b"], counts)
    _, paired = fit(["a", "b"], [(0, 1, 60.0, 200.0, 0.8)])
    assert paired[1][1] == pytest.approx(plain[1][1] * 0.8, rel=1e-6)


def test_a_design_effect_near_zero_counts_a_pair_at_most_twice() -> None:
    """A few deals split evenly show a design effect of ~0; floored at 0.1 it gave the pair ten
    times its games' information, now at most twice."""
    _, plain = fit(["a", "b"], [(0, 1, 4.0, 8.0, 1.0)])
    _, even = fit(["a", "b"], [(0, 1, 4.0, 8.0, 0.0)])
    assert even[1][1] == pytest.approx(plain[1][1] / 2, rel=1e-6)


def test_a_ladder_ranks_the_agents_the_same_whatever_the_jobs(tmp_path: Path) -> None:
    run = ("-n", "120", "--ladder", "random,cautious,flat:8", "--until", "±20%")
    one = simulate(tmp_path / "one", *run, "-j", "1")
    two = simulate(tmp_path / "two", *run, "-j", "2")
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    assert files(tmp_path / "one") == files(tmp_path / "two")
    assert sorted(files(tmp_path / "one")) == ["ladder.svg", "summary.json"]
    data = summary(tmp_path / "one")
    ladder = data["ladder"]
    assert data["command"].endswith("--ladder random,cautious,flat:8 --seed 1 --max-turns "
                                    "1000 --seconds-per-turn 30 --until '±20%'")
    assert ladder["sentence"] in one.stderr
    assert [p["agents"] for p in ladder["pairs"]] == [
        ["random", "cautious"], ["random", "flat:8"], ["cautious", "flat:8"]]
    for pair, table in zip(ladder["pairs"], data["tables"], strict=False):
        assert table["games"] == 240  # every deal once per seat
        low, high = wilson(pair["count"], pair["of"])
        assert pair["ci"] == [round(low, 6), round(high, 6)]
    # Elo from the first agent; the ranking follows it; the levels partition the agents
    elo = ladder["elo"]
    assert elo["random"] == {"elo": 0.0, "ci": [0.0, 0.0]}
    assert ladder["ranking"] == sorted(elo, key=lambda n: -elo[n]["elo"])
    assert sorted(n for level in ladder["levels"] for n in level) == sorted(elo)
    # a search of 8 playouts beats random at Coin Race: it is above it, by an interval
    assert elo["flat:8"]["ci"][0] > 0
    # "skill explains X%" depended on which agents were ranked: it is no figure now
    assert "shares" not in ladder and "skill explains" not in ladder["sentence"]
    # the seat balance is the strongest's, stopped at ±20% or at the cap
    seat = ladder["seat_balance"]
    assert seat["agent"] == ladder["ranking"][0]
    low, high = seat["first_player"]["ci"]
    assert seat["reached"] == ((high - low) / 2 <= 0.2)
    assert seat["games"] < 120 if seat["reached"] else seat["games"] == 120
    svg = (tmp_path / "one" / "ladder.svg").read_text()
    assert svg.count("<path") > 20 and "<script" not in svg


def test_until_stops_once_the_first_player_is_known_that_well(tmp_path: Path) -> None:
    run = ("-n", "4000", "-a", "random", "--until", "±2%")
    one = simulate(tmp_path / "one", *run, "-j", "1")
    two = simulate(tmp_path / "two", *run, "-j", "2")
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    assert files(tmp_path / "one") == files(tmp_path / "two")
    table = summary(tmp_path / "one")["tables"][0]
    played = table["games"]
    assert played < 4000 and played % 250 == 0  # whole rounds (16 of 250 games)
    first = table["first_player"]
    low, high = first["ci"]
    assert (high - low) / 2 <= 0.02
    # a round fewer would not have been enough (at about the rate it found)
    assert played > 250
    p, n = first["rate"], played - 250
    assert 1.96 * math.sqrt(p * (1 - p) / n) > 0.019
    assert summary(tmp_path / "one")["run"]["until"] == 0.02
    assert f"played {played} games" in CliRunner().invoke(
        main, [*COIN[:-1], "--out", str(tmp_path / "three"), *run]).stderr


def test_adaptive_stops_each_pair_once_decided_and_plays_the_close_ones_out(
    tmp_path: Path,
) -> None:
    from rulepress.simulate.ladder import MIN_STOP_DEALS
    from rulepress.simulate.stats import confidence_sequence, rejects

    run = ("-n", "96", "--ladder", "random,cautious,flat:8", "--adaptive")
    one = simulate(tmp_path / "one", *run, "-j", "1")
    two = simulate(tmp_path / "two", *run, "-j", "2")
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    assert files(tmp_path / "one") == files(tmp_path / "two")
    data = summary(tmp_path / "one")
    assert data["run"]["adaptive"] is True and data["command"].endswith(" --adaptive")
    assert "confidence sequence" in data["method"]["adaptive"]
    played = []
    for pair, table in zip(data["ladder"]["pairs"], data["tables"], strict=False):
        n = table["games"]
        played.append(n)
        # whole rounds of 6 deals, twice each, and never fewer than MIN_STOP_DEALS deals
        assert n % 12 == 0 and 2 * MIN_STOP_DEALS <= n <= 192
        units = table["duplicate"]["units"]["other"][f"score:{pair['agents'][0]}"]
        scores: dict[float, int] = {}
        for half, of, count in units:
            scores[half / of] = scores.get(half / of, 0) + count
        decided = rejects(scores, 0.5)
        assert n == 192 or decided  # one that stopped short was decided
        # every pair's interval is the always-valid one, and it excludes 1/2 once decided
        cs = list(confidence_sequence(scores) or ())
        assert pair["cs"] == cs and (cs[0] > 0.5 or cs[1] < 0.5) == decided
    assert min(played) < 192, played  # random against the search is decided early
    # without --adaptive every pair plays every deal
    full = simulate(tmp_path / "full", *run[:-1], "-j", "2")
    assert full.exit_code == 0, full.output
    assert [t["games"] for t in summary(tmp_path / "full")["tables"][:3]] == [192] * 3


@pytest.mark.parametrize(("run", "tables"), [
    # each pair stops on its own, then the strongest plays every seat: four runs
    (("-n", "48", "--ladder", "random,cautious,flat:8", "--adaptive"), 4),
    # each handicap value the bisection tries is a run; the summary is the one suggested
    (("-n", "40", "--compensate"), 1),
])
def test_runs_played_one_after_another_share_one_pool_of_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: tuple[str, ...], tables: int,
) -> None:
    """An adaptive ladder's runs, or a compensation's values, on the same two workers (not a
    pool forked for each), to the same files."""
    from rulepress.simulate import execute
    from rulepress.workers import Workers

    pools: list[Workers[Any]] = []
    forked: list[int] = []

    class Counted(Workers[Any]):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            pools.append(self)

        def _new(self) -> Any:
            worker = super()._new()
            forked.append(worker.process.pid)
            return worker

    plain = simulate(tmp_path / "plain", *run, "-j", "2")
    monkeypatch.setattr(execute, "engine_workers", lambda run, count=1: Counted(run, count))
    counted = simulate(tmp_path / "counted", *run, "-j", "2")
    assert plain.exit_code == 0 and counted.exit_code == 0, plain.output + counted.output
    assert files(tmp_path / "plain") == files(tmp_path / "counted")
    assert len(summary(tmp_path / "counted")["tables"]) == tables
    assert len(pools) == 1 and len(forked) == 2, (len(pools), forked)


def test_adaptive_needs_a_ladder(tmp_path: Path) -> None:
    result = simulate(tmp_path / "out", "-n", "4", "-a", "random", "--adaptive")
    assert result.exit_code == 2
    assert "--adaptive stops a ladder's decided pairs early: use it with --ladder" \
        in result.stderr
    assert "Traceback" not in result.output and not (tmp_path / "out").exists()


@pytest.mark.parametrize(("text", "value"), [("±1%", 0.01), ("1%", 0.01), ("+-0.5%", 0.005),
                                             ("0.02", 0.02)])
def test_until_reads_a_half_width(text: str, value: float) -> None:
    assert parse_until(text) == pytest.approx(value)


@pytest.mark.parametrize("text", ["±0%", "60%", "soon", "-1%"])
def test_until_refuses_what_is_no_half_width(text: str) -> None:
    with pytest.raises(SpecError, match="--until"):
        parse_until(text)


def test_a_ladder_needs_two_player_tables(tmp_path: Path) -> None:
    result = simulate(tmp_path / "out", "-n", "4", "-p", "3", "--ladder", "random,cautious")
    assert result.exit_code == 2
    assert "--ladder plays agents head to head: it needs two-player games" in result.stderr
    assert "Traceback" not in result.output and not (tmp_path / "out").exists()


def test_games_stopped_by_the_turn_cap_are_named_with_their_seed_and_loop(
    tmp_path: Path,
) -> None:
    run = ("-n", "40", "-a", "cautious", "--variant", "circle,short", "--max-turns", "30")
    one = simulate(tmp_path / "one", *run, "-j", "1")
    two = simulate(tmp_path / "two", *run, "-j", "2")
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    assert files(tmp_path / "one") == files(tmp_path / "two")
    circle, short = summary(tmp_path / "one")["tables"]
    assert "stalls" not in short  # every short race ends
    assert [s["game"] for s in circle["stalls"]] == list(range(10))  # the first ten
    # two pawns going round three squares: after six steps the first state is back
    assert {s["found"] for s in circle["stalls"]} == {
        "loop: move 6 returns to the state after move 0"}
    assert circle["stalls"][0]["setup_seed"] == game_seed(1, 0)
    said = CliRunner().invoke(main, [*COIN[:-1], "--out", str(tmp_path / "three"), *run])
    assert ("40 games stopped by the turn cap at 2-circle (game 0: loop: move 6 returns to "
            "the state after move 0)") in said.stderr
    # a game that counts its turns never repeats a state: capped, but no loop
    endless = simulate(tmp_path / "endless", "-n", "3", "--variant", "endless",
                       "--max-turns", "5")
    assert endless.exit_code == 0, endless.output
    (table,) = summary(tmp_path / "endless")["tables"]
    assert {s["found"] for s in table["stalls"]} == {"no repeated state"}


def test_compensate_finds_the_head_start_that_evens_the_first_player(tmp_path: Path) -> None:
    run = ("-n", "400", "--compensate")
    one = simulate(tmp_path / "one", *run, "-j", "1")
    two = simulate(tmp_path / "two", *run, "-j", "2")
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    assert files(tmp_path / "one") == files(tmp_path / "two")
    data = summary(tmp_path / "one")
    found = data["compensation"]
    tried = {t["value"]: t["first_player"]["rate"] for t in found["tried"]}
    assert 0 in tried and 9 in tried  # both ends, then halves: 0, 9, 4, 2, 1
    assert len(tried) <= 2 + math.ceil(math.log2(9))
    best = found["suggested"]
    # the two values that straddle one half are neighbours, and the nearer is suggested
    above = max(v for v, r in tried.items() if r > 0.5)
    below = min(v for v, r in tried.items() if r <= 0.5)
    assert below == above + 1 and best in (above, below)
    assert abs(tried[best] - 0.5) <= abs(tried[above + below - best] - 0.5)
    # the summary is the run at that value: its command plays it again
    assert data["run"]["handicap"] == best
    assert data["command"].endswith(f"--handicap {best}")
    assert data["tables"][0]["first_player"]["rate"] == tried[best]
    assert found["sentence"] in one.stderr
    # the fitted fair value, rounded, played again on deals the search never played
    from rulepress.simulate.compensate import CONFIRM_OFFSET

    confirmation = found["confirmation"]
    assert confirmation["value"] == math.floor(found["fit"]["fair"] + 0.5)
    assert confirmation["seed"] == data["run"]["seed"] + CONFIRM_OFFSET
    assert confirmation["games"] == 400
    low, high = confirmation["first_player"]["ci"]
    assert confirmation["confirmed"] == (low <= 0.5 <= high)
    said = (f"{100 * confirmation['first_player']['rate']:.1f}% [{100 * low:.1f}, "
            f"{100 * high:.1f}] of 400 fresh games at {confirmation['value']}")
    assert said in found["sentence"]
    assert ("the handicap to try" in found["sentence"]) == confirmation["confirmed"]


def test_a_handicap_outside_the_rules_range_is_bad_input(tmp_path: Path) -> None:
    result = simulate(tmp_path / "out", "-n", "4", "--handicap", "10")
    assert result.exit_code == 2
    assert ("--handicap 10: the handicap (squares of head start for every player but the "
            "first) takes 0 to 9") in result.stderr
    assert not (tmp_path / "out").exists()


def test_pigeon_race_gives_its_handicap_in_points_that_every_view_shows() -> None:
    from rulepress.games.base import handicapped, sample_of, view_of
    from rulepress.games.pigeon_race.rules import RULES

    state = RULES.new_game(2, 3)
    given = handicapped(RULES, state, 4)
    first = state.current_player()
    assert given.scores() == tuple(s + 4 * (seat != first)
                                   for seat, s in enumerate(state.scores()))
    view = view_of(RULES, given, 1 - first)
    assert sample_of(RULES, view, random.Random(1)).bonus == given.bonus  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Scored:
    points: tuple[int, int]

    def standing(self) -> tuple[int, int]:
        return self.points


def test_lead_changes_count_a_new_sole_leader_and_comebacks_the_seats_behind() -> None:
    from rulepress.simulate.tension import tension

    game = [Scored(p) for p in [(0, 0), (1, 0), (1, 1), (1, 2), (3, 2), (3, 3), (3, 5),
                                (4, 5), (6, 5)]]
    # leaders: -, 0, (tie), 1, 0, (tie), 1, 1, 0: four changes of hands
    changes, behind = tension(game)  # type: ignore[misc, arg-type]
    assert changes == 4
    # checkpoints at turns 2, 4 and 6 of 8: a tie (nobody behind), seat 1, seat 0
    assert behind == ((), (1,), (0,))
    assert tension([object()]) is None  # type: ignore[list-item]


def test_tension_is_counted_for_pigeon_race_and_refused_without_running_scores(
    tmp_path: Path,
) -> None:
    result = CliRunner().invoke(main, ["simulate", "pigeon-race", "-n", "24", "-a", "greedy",
                                       "--tension", "-q", "--out", str(tmp_path / "pr")])
    assert result.exit_code == 0, result.output
    data = summary(tmp_path / "pr")
    assert data["command"].endswith(" --tension")
    tense = data["tables"][0]["tension"]
    assert tense["lead_changes"]["n"] == 24
    for name in ("quarter", "half", "three_quarters"):
        comeback = tense["comebacks"][name]
        assert 0 < comeback["of"] <= 24 and 0 <= comeback["count"] <= comeback["of"]
    refused = simulate(tmp_path / "coin", "-n", "4", "--tension")
    assert refused.exit_code == 2
    assert ("--tension follows running scores, and the coin_race engine keeps none"
            in refused.stderr)


def test_the_dashed_line_at_zero_does_not_strike_through_the_anchors_label() -> None:
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.colors import to_rgb

    from rulepress.simulate.plots import FAIR, _style, ladder_plot

    ladder = json.loads((Path(__file__).parents[1] / "sources" / "pigeon-race" / "playtest"
                         / "ladder" / "summary.json").read_text())
    with _style():
        figure = ladder_plot(ladder)
        (ax,) = figure.axes
        label = next(t for t in ax.texts if t.get_text() == "0")
        label.set_color((0, 0, 0, 0))  # only what lies under the glyphs is left to see
        canvas = FigureCanvasAgg(figure)
        canvas.draw()
        pixels = np.asarray(canvas.buffer_rgba())[..., :3] / 255
        box = label.get_window_extent()
    height = pixels.shape[0]
    inside = pixels[int(height - box.y1):int(height - box.y0), int(box.x0):int(box.x1)]
    line = np.abs(inside - np.array(to_rgb(FAIR))).sum(axis=2) < 0.05
    assert inside.size and not line.any()


def test_the_seat_balance_counts_games_won_at_the_deal_once() -> None:
    """Go-Stop: 3 hands of 60 won at the deal have no first player; the seats' wins were put
    over the 57 others (60 wins over 57 games, 105.3%), and the sentence said "of 60 games"
    for a rate of 57."""
    from rulepress.simulate.game import Game
    from rulepress.simulate.ladder import seat_balance, sentence
    from rulepress.simulate.stats import Tally

    tally = Tally.empty(2, {})
    for i in range(60):
        first = None if i < 3 else i % 2
        tally.add(Game(i, ("x", "x"), 10, "done", ((i // 2) % 2,), (1.0, 0.0), first, {}))
    balance = seat_balance(tally, "x", None)
    assert balance["first_player"]["of"] == 57
    assert [s["of"] for s in balance["seats"]] == [60, 60]
    assert sum(s["count"] for s in balance["seats"]) == 60
    ladder = {"spread": {"to": "x", "from": "y", "elo": 0.0, "ci": [0.0, 0.0]},
              "pairs": [{"agents": ["x", "y"], "rate": 0.5, "ci": [0.4, 0.6]}],
              "levels": [["x", "y"]],
              "seat_balance": balance}
    assert sentence(ladder).endswith("] of 57 games")



def test_the_ladder_sentence_says_beats_only_when_the_interval_excludes_an_even_score() -> None:
    """The audit: "beats" was printed whatever the interval; the top two of a ladder whose
    interval holds 1/2 are "no difference shown". The sentence prints the interval it says
    "beats" by: over deals where the pair has one, Wilson's only for older records."""
    from rulepress.simulate.ladder import sentence

    def said(ci: list[float], deal_ci: list[float] | None) -> str:
        return sentence({
            "spread": {"to": "x", "from": "y", "elo": 20.0, "ci": [-30.0, 70.0]},
            "pairs": [{"agents": ["y", "x"], "rate": 0.46, "ci": ci, "deal_ci": deal_ci}],
            "levels": [["x", "y"]]})

    assert said([0.40, 0.52], None).startswith(
        "no difference shown between x and y: the former scores 54.0% [48.0, 60.0] (a win 1, "
        "a draw or a shared win half), 20 Elo [-30, 70]; levels of play the games tell apart: 1")
    assert said([0.40, 0.52], [0.41, 0.49]).startswith("x beats y, scoring 54.0% [51.0, 59.0]")
    assert said([0.30, 0.45], [0.44, 0.51]).startswith("no difference shown between x and y: "
                                                       "the former scores 54.0% [49.0, 56.0]")
    assert said([0.30, 0.45], None).startswith("x beats y, scoring 54.0% [55.0, 70.0]")


def test_a_reports_versus_quotes_the_interval_the_sentence_decides_by() -> None:
    """Go-Stop's prose quoted each pair's Wilson interval over games (49.0-66.4%, holding an
    even score) where the interval over deals on the same score (50.4-65.4%) clears it."""
    from rulepress.simulate.report import _versus

    pair = {"agents": ["greedy", "ismcts:400"], "count": 50.5, "of": 120, "rate": 0.420833,
            "ci": [0.336304, 0.510274], "deal_ci": [0.346111, 0.495556]}
    versus = _versus({"pairs": [pair]})
    assert versus["ismcts:400"]["greedy"]["interval"] == "50.4–65.4%"
    assert versus["greedy"]["ismcts:400"]["interval"] == "34.6–49.6%"
    assert _versus({"pairs": [{**pair, "deal_ci": None}]})["ismcts:400"]["greedy"][
        "interval"] == "49.0–66.4%"  # records without scores by deal: Wilson's
    early = {**pair, "cs": [0.3, 0.55]}  # an adaptive pair: its always-valid interval
    assert _versus({"pairs": [early]})["ismcts:400"]["greedy"]["interval"] == "45.0–70.0%"


def test_a_pair_with_draws_has_its_interval_over_deals_on_its_score() -> None:
    """Go-Stop: the interval over deals counted wins only, draws as losses, beside a score
    counting them half, so its pairs fell back to Wilson over games; the interval is now over
    the deals' scores, t on n - 1, and so is the test of an even score."""
    from rulepress.simulate.game import Game
    from rulepress.simulate.ladder import figures
    from rulepress.simulate.stats import Tally, t975

    # a's score by deal: drawn twice (1/2), won twice (1), lost twice (0), split (1/2)
    winners = {0: (), 1: ("a", "a"), 2: ("b", "b"), 3: ("a", "b")}
    tally = Tally.empty(2, {})
    for deal in range(20):
        won = winners[deal % 4]
        games = [Game(2 * deal + r, lineup, 10, "done",
                      (lineup.index(won[r]),) if won else (), (1.0, 1.0), 0, {})
                 for r, lineup in enumerate((("a", "b"), ("b", "a")))]
        for game in games:
            tally.add(game)
        tally.add_deal(games)
    ladder, tables = figures(["a", "b"], [("a", "b")], "standard", [tally], 30.0)
    (pair,) = ladder["pairs"]
    scores = [0.5, 1.0, 0.0, 0.5] * 5
    sd = math.sqrt(sum((x - 0.5) ** 2 for x in scores) / 19)
    half = t975(19) * sd / math.sqrt(20)
    assert pair["rate"] == 0.5
    assert pair["deal_ci"] == pytest.approx([0.5 - half, 0.5 + half], abs=1e-6)
    assert pair["deal_ci"] == tables[0]["duplicate"]["score"]["a"]["ci"]
    assert pair["p"] == 1.0  # an even score exactly, over the deals
    # the score's ordinary interval is Wilson over the 40 games, not over 80 half points
    assert tables[0]["duplicate"]["score"]["a"]["ordinary_ci"] == pytest.approx(
        list(wilson(20, 40)), abs=1e-6)
    # wins alone over deals (draws as losses) would centre on 3/8, not the printed 1/2
    assert tables[0]["duplicate"]["agents"]["a"]["rate"] == 0.375


def _deal_scores(rng: random.Random, p: float, deals: int) -> list[float]:
    """Each deal's score for the first agent: two games, each won with probability p."""
    return [(int(rng.random() < p) + int(rng.random() < p)) / 2 for _ in range(deals)]


@pytest.mark.parametrize("p", [0.5, 0.55])
def test_the_confidence_sequence_holds_its_level_however_early_a_pair_stops(p: float) -> None:
    """The audit: --adaptive stopped a pair once a Wilson interval cleared 1/2 and then printed
    fixed-sample intervals, which covered 92.5% at p = 1/2 and 89% at 0.55. Here pairs of 60
    deals looked at every 4 deals (16 rounds) stop as --adaptive now does (10 deals or more,
    the confidence sequence clear of 1/2); the always-valid interval at the stop holds the true
    score in at least 95% of 1,000 runs, where the fixed-sample one at the same stops does
    not."""
    from rulepress.simulate.ladder import MIN_STOP_DEALS
    from rulepress.simulate.stats import rejects

    rng = random.Random(43)
    covered = fixed_covered = 0
    runs = 1000
    for _ in range(runs):
        scores = _deal_scores(rng, p, 60)
        seen: dict[float, int] = {}
        for deal, score in enumerate(scores, 1):
            seen[score] = seen.get(score, 0) + 1
            if deal % 4 == 0 and deal >= MIN_STOP_DEALS and rejects(seen, 0.5):
                break
        covered += not rejects(seen, p)
        wins = sum(k * v * 2 for k, v in seen.items())
        low, high = wilson(wins, 2 * sum(seen.values()))
        fixed_covered += low <= p <= high
    assert covered / runs >= 0.95, covered
    assert fixed_covered < covered


def test_a_pair_stops_only_after_the_least_number_of_deals() -> None:
    """A pair of an adaptive ladder won 4 deals of 4 and stopped after one round (Pigeon's
    random pairs); now it plays MIN_STOP_DEALS deals at least, and stops there once its
    confidence sequence clears 1/2."""
    from rulepress.simulate.ladder import MIN_STOP_DEALS, decided
    from rulepress.simulate.play import Game
    from rulepress.simulate.stats import Tally

    tally = Tally.empty(2, {})
    stop = decided("a", 0.05)
    for deal in range(MIN_STOP_DEALS):
        assert not stop([tally])
        games = [Game(2 * deal + r, lineup, 10, "done", (lineup.index("a"),), (1.0, 0.0), 0,
                      {}) for r, lineup in enumerate((("a", "b"), ("b", "a")))]
        for game in games:
            tally.add(game)
        tally.add_deal(games)
    assert stop([tally])


def test_a_pair_stopped_early_is_told_apart_after_holm_over_the_whole_ladder() -> None:
    """The audit: --adaptive stopped each pair at alpha 0.05 alone (capital 20), where Holm
    over Pigeon's 10 pairs needs 0.005 for its first comparison, so no stopped pair could
    start a level. It now stops at 0.05 over the pairs: every pair it stops keeps a Holm
    p-value under 0.05 whatever the others'."""
    from rulepress.simulate.ladder import deal_scores, decided, holm
    from rulepress.simulate.play import Game
    from rulepress.simulate.spec import RunSpec
    from rulepress.simulate.stats import Tally, anytime_p

    spec = RunSpec(game="pigeon", engine="pigeon", project=None, games=60, players=(2,),
                   variants=("standard",),
                   agents=("random", "greedy", "flat:25", "flat:100", "flat:400"),
                   adaptive=True)
    assert spec.stop_alpha() == 0.005 and spec.figures()["stop_alpha"] == 0.005

    def stopped_at(alpha: float) -> float:
        """Deals of 3 wins in 4 for a, played 4 at a time until the rule stops: a's p-value."""
        stop = decided("a", alpha)
        tally = Tally.empty(2, {})
        for deal in range(200):
            if deal % 4 == 0 and stop([tally]):
                break
            won = ("a", "a") if deal % 2 else ("a", "b")
            games = [Game(2 * deal + r, lineup, 10, "done", (lineup.index(won[r]),),
                          (1.0, 0.0), 0, {})
                     for r, lineup in enumerate((("a", "b"), ("b", "a")))]
            for game in games:
                tally.add(game)
            tally.add_deal(games)
        return anytime_p(deal_scores(tally, "a"))

    others = [1.0] * 9  # the ladder's other pairs, none told apart
    assert holm([stopped_at(0.05), *others])[0] >= 0.05  # the old rule: never a level
    assert holm([stopped_at(spec.stop_alpha()), *others])[0] < 0.05


def _shared_deals() -> tuple[list[str], list[tuple[str, str]], list[Any]]:
    """Three agents; a wins both games of a deal against b and against c on 'easy' deals and
    loses both on the others: b and c meet a on the same deals, and draw each other."""
    from rulepress.simulate.play import Game
    from rulepress.simulate.stats import Tally

    names = ["a", "b", "c"]
    matches = [("a", "b"), ("a", "c"), ("b", "c")]
    easy = [d % 3 != 0 for d in range(30)]
    tallies = []
    for a, b in matches:
        tally = Tally.empty(2, {})
        tally.keep_deals = True
        for deal in range(30):
            games = []
            for r, lineup in enumerate(((a, b), (b, a))):
                winners = ((0, 1) if a == "b" else
                           (lineup.index(a),) if easy[deal] else (lineup.index(b),))
                games.append(Game(2 * deal + r, lineup, 10, "done", winners, (1.0, 1.0), 0, {}))
            for game in games:
                tally.add(game)
            tally.add_deal(games)
        tallies.append(tally)
    return names, matches, tallies


def test_elo_intervals_resample_the_deals_of_every_pair_at_once() -> None:
    """The audit: Elo intervals took the pairs as independent though every pair played the
    same deals. Here a beats b exactly where it beats c, deal by deal: resampled jointly, b and
    c get the same score in every resample, so their difference is 0 with no spread, while the
    Fisher intervals (and any resampling of each pair on its own) give it one."""
    from rulepress.simulate.ladder import figures, resampled
    from rulepress.simulate.records import tally_of

    names, matches, tallies = _shared_deals()
    ladder, tables = figures(names, matches, "standard", tallies, 30.0)
    # the records number each deal, the same numbers in every pair
    assert {d for d, *_ in tables[0]["by_deal"]} == set(range(30))
    assert tables[0]["by_deal"][:2] == [[0, "a", 0, 2], [0, "b", 4, 2]]
    difference = {tuple(d["agents"]): d for d in ladder["differences"]}
    assert difference["b", "c"]["elo"] == 0.0 and difference["b", "c"]["ci"] == [0.0, 0.0]
    low, high = difference["a", "b"]["ci"]
    assert low < difference["a", "b"]["elo"] < high and high - low > 50
    assert ladder["resampled"] == {"deals": 30, "resamples": 2000}
    boot = resampled(names, matches, tallies)
    assert boot.shape == (2000, 3) and (boot[:, 1] == boot[:, 2]).all()
    # figured again from the stored tables, the same intervals (a fixed resampling)
    again, _ = figures(names, matches, "standard", [tally_of(t, {}) for t in tables], 30.0)
    assert again == ladder


def test_a_ladder_recorded_without_deal_numbers_keeps_the_fisher_intervals_and_says_so() -> None:
    from rulepress.simulate.ladder import figures, method, sentence

    names, matches, tallies = _shared_deals()
    for tally in tallies:
        tally.deal_scores.clear()  # as every ladder was recorded before
    ladder, _ = figures(names, matches, "standard", tallies, 30.0)
    assert "differences" not in ladder
    assert sentence(ladder).endswith("(Elo intervals from the Fisher information, as if the "
                                     "pairs had not played the same deals: these records do "
                                     "not say which deal is which)")
    assert "Fisher information" in method(False, False)["elo"]
    assert "resamples of the deals" in method(False, True)["elo"]


def _pair_tally(a: str, b: str, deals: Sequence[float]) -> Any:
    """A pair's tally, each deal two games (a in either seat) scoring ``a`` 1, 1/2 (one game
    each) or 0, as listed."""
    from rulepress.simulate.play import Game
    from rulepress.simulate.stats import Tally

    tally = Tally.empty(2, {})
    tally.keep_deals = True
    for deal, score in enumerate(deals):
        games = []
        for r, lineup in enumerate(((a, b), (b, a))):
            won = a if score == 1 or (score == 0.5 and r == 0) else b
            games.append(Game(2 * deal + r, lineup, 10, "done", (lineup.index(won),),
                              (1.0, 0.0), 0, {}))
        for game in games:
            tally.add(game)
        tally.add_deal(games)
    return tally


def test_a_pair_stopped_early_takes_its_always_valid_p_value_into_holm() -> None:
    """The audit: ladder levels came from Holm over fixed-sample tests, too small for a pair
    that --adaptive stopped early. Here a stopped after 10 deals against b and against c (8
    deals won twice, 2 split): t over those deals gives p = 0.0002, told apart after Holm; the
    confidence sequence's always-valid p is 0.040, and with three pairs Holm does not tell
    them apart. The method block names the pairs that took it."""
    from rulepress.simulate.ladder import figures, method
    from rulepress.simulate.stats import _r, anytime_p

    names, matches = ["a", "b", "c"], [("a", "b"), ("a", "c"), ("b", "c")]
    early = [1.0] * 8 + [0.5] * 2
    tallies = [_pair_tally("a", "b", early), _pair_tally("a", "c", early),
               _pair_tally("b", "c", [0.5] * 60)]
    ladder, _ = figures(names, matches, "standard", tallies, 30.0, planned=120)
    assert ladder["stopped_early"] == [["a", "b"], ["a", "c"]]
    p = {tuple(pair["agents"]): pair for pair in ladder["pairs"]}
    expected = _r(anytime_p({1.0: 8, 0.5: 2}))
    assert p["a", "b"]["p"] == p["a", "c"]["p"] == expected and 0.04 < expected < 0.0405
    assert p["a", "b"]["p_holm"] == _r(3 * expected)
    assert ladder["levels"] == [["a", "b", "c"]]
    # the same records played to the end (not stopped early): the fixed-sample t test
    fixed, _ = figures(names, matches, "standard", tallies, 30.0, planned=20)
    assert "stopped_early" not in fixed or fixed["stopped_early"] == []
    q = {tuple(pair["agents"]): pair for pair in fixed["pairs"]}
    assert q["a", "b"]["p"] < 0.001 and q["a", "b"]["p_holm"] < 0.05
    assert fixed["levels"] == [["a"], ["b", "c"]] or fixed["levels"] == [["a"], ["c", "b"]]
    levels = method(True, True, ladder["stopped_early"])["levels"]
    assert "always-valid p-value" in levels and "(here: a vs b, a vs c)" in levels
    assert "(here: none stopped early)" in method(True, True, [])["levels"]
    assert "always-valid" not in method(False, True)["levels"]


def test_holm_levels_of_an_adaptive_ladder_keep_their_family_wise_error() -> None:
    """Five agents of equal strength (ten pairs, the deals' two games each won at 1/2), each
    pair stopped as --adaptive stops it (60 deals looked at every 4, from 10 deals, when the
    confidence sequence clears 1/2): over 1,000 ladders (fixed seed), the fixed-sample tests
    told some pair apart after Holm in more than 5% of them (every such split wrong); with the
    stopped pairs' always-valid p-values, at most 5%."""
    from rulepress.simulate.ladder import MIN_STOP_DEALS, holm
    from rulepress.simulate.stats import anytime_p, rejects, t_two_sided

    def fixed_p(seen: dict[float, int]) -> float:  # the t test over deals, as _p_even's
        n = sum(seen.values())
        mean = math.fsum(k * v for k, v in seen.items()) / n
        var = math.fsum(v * (k - mean) ** 2 for k, v in seen.items()) / (n - 1)
        t = (mean - 0.5) / math.sqrt(var / n) if var else math.inf
        # below 2.5 no df of 9 or more gives p < 0.005, Holm's least threshold for 10 pairs
        return 1.0 if abs(t) < 2.5 else t_two_sided(t, n - 1)

    rng = random.Random(43)
    ladders = 1000
    wrong_fixed = wrong_valid = stopped = 0
    for _ in range(ladders):
        fixed, valid = [], []
        for _pair in range(10):
            seen: dict[float, int] = {}
            early = False
            for deal, score in enumerate(_deal_scores(rng, 0.5, 60), 1):
                seen[score] = seen.get(score, 0) + 1
                if deal % 4 == 0 and MIN_STOP_DEALS <= deal < 60 and rejects(seen, 0.5):
                    early = True
                    break
            stopped += early
            fixed.append(fixed_p(seen))
            valid.append(anytime_p(seen) if early else fixed[-1])
        wrong_fixed += min(holm(fixed)) < 0.05
        wrong_valid += min(holm(valid)) < 0.05
    assert stopped > 0
    assert wrong_fixed / ladders > 0.05, wrong_fixed
    assert wrong_valid / ladders <= 0.05, wrong_valid

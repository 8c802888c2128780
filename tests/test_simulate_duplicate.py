"""rulepress simulate --duplicate: every deal played once per rotation of the agents over the
seats, with the deal's own chance outcomes, and intervals over deals beside the ordinary ones.
Played on Coin Race (tests/fixtures/simulate), whose coin flips are chance nodes."""

from __future__ import annotations

import json
import math
import random
import shlex
import statistics
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from rulepress.cli import main
from rulepress.games import base, contract
from rulepress.games.base import GameState, chance_move
from rulepress.simulate.execute import batches
from rulepress.simulate.game import Game
from rulepress.simulate.play import engine_of, play_game
from rulepress.simulate.run import plan
from rulepress.simulate.spec import RunSpec, agents_for
from rulepress.simulate.stats import Tally, table_figures
from rulepress.simulate.summary import Options

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


def spec_of(games: int, players: str, agents: str, duplicate: bool = True) -> RunSpec:
    options = Options(games, players, None, agents, duplicate=duplicate)
    return plan("coin-race", FIXTURE / "sources", FIXTURE, options).spec


def chance_played(spec: RunSpec, players: int, index: int,
                  monkeypatch: pytest.MonkeyPatch) -> tuple[tuple[str, ...], list[Any]]:
    """Game ``index``'s lineup and the chance outcomes applied in it, in order."""
    drawn: list[Any] = []

    def recording(state: GameState[Any], rng: random.Random) -> Any:
        drawn.append(chance_move(state, rng))
        return drawn[-1]

    monkeypatch.setattr(base, "chance_move", recording)  # the one game loop draws through it
    engine = engine_of(spec)
    rules = contract.rules(engine)
    assert rules is not None
    table = spec.tables[[t.players for t in spec.tables].index(players)]
    lineup = spec.lineup(index, players)
    play_game(spec, rules, table, index, lineup, agents_for(engine, spec.agents),
              contract.questions(engine), engine.name)
    return lineup, drawn


@pytest.mark.parametrize("players", [2, 3])
def test_every_rotation_of_a_deal_gets_the_same_chance_outcomes(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = spec_of(12, str(players), "random,cautious")
    compared = 0
    for deal in range(spec.games):
        games = [chance_played(spec, players, deal * players + r, monkeypatch)
                 for r in range(players)]
        assert len({lineup for lineup, _ in games}) == players, "each rotation seats anew"
        # A game stops when someone wins, so rotations see more or fewer flips: the ones they
        # both see are the same.
        shortest = min(len(drawn) for _, drawn in games)
        assert all(drawn[:shortest] == games[0][1][:shortest] for _, drawn in games)
        compared += shortest
    assert compared > 20
    # Without --duplicate the random agent draws from the stream chance comes from, so the
    # lineups of a deal would not share their flips: the check above can fail.
    plain = spec_of(12, str(players), "random,cautious", duplicate=False)
    flips = [chance_played(plain, players, i, monkeypatch)[1] for i in range(players)]
    assert any(f[:8] != flips[0][:8] for f in flips)


def test_rotations_seat_every_agent_at_every_seat_of_a_deal() -> None:
    two = spec_of(5, "2", "random,cautious")
    assert two.rotations(2) == 2 and two.plays(2) == 10
    assert [two.lineup(i, 2) for i in range(4)] == [
        ("random", "cautious"), ("cautious", "random"),  # deal 0
        ("cautious", "random"), ("random", "cautious"),  # deal 1 starts where game 1 would
    ]
    assert [two.deal(i, 2) for i in range(4)] == [0, 0, 1, 1]
    three = spec_of(5, "3", "random,cautious")
    assert [three.lineup(i, 3) for i in range(3)] == [
        ("random", "cautious", "random"),
        ("cautious", "random", "random"),
        ("random", "random", "cautious"),
    ]
    for deal in range(5):
        seated = Counter((seat, name) for r in range(3)
                         for seat, name in enumerate(three.lineup(deal * 3 + r, 3)))
        base = Counter(three.lineup(deal * 3, 3))
        # every seat of the deal holds each agent as often as the deal's lineup holds it
        assert all(seated[seat, name] == n for seat in range(3) for name, n in base.items())
    # A batch holds whole deals, so a deal's rotations are tallied together.
    mixed = spec_of(1000, "2-3", "random,cautious")
    for batch in batches(mixed):
        rotations = mixed.tables[batch.table].players
        assert batch.start % rotations == 0 and batch.stop % rotations == 0


def test_a_duplicate_run_is_the_same_whatever_the_jobs_and_tells_its_intervals(
    tmp_path: Path,
) -> None:
    run = ("-n", "150", "-p", "2-3", "-a", "random,cautious", "--duplicate", "-q")
    one = simulate(tmp_path / "one", *run, "-j", "1")
    two = simulate(tmp_path / "two", *run, "-j", "2")
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    assert files(tmp_path / "one") == files(tmp_path / "two")
    assert "played 750 games" in one.stderr
    data = summary(tmp_path / "one")
    gains = [f"{t['key']}'s intervals are {t['duplicate']['narrower']['agents']} narrower by "
             f"agent, {t['duplicate']['narrower']['seats']} by seat" for t in data["tables"]]
    assert f"/s); over deals, {gains[0]}, {gains[1]}; wrote 7 files" in one.stderr
    data = summary(tmp_path / "one")
    assert data["run"]["duplicate"] is True
    assert data["command"].endswith(" --duplicate")
    assert "duplicate" in data["method"] and "sha256('seed:d:chance')" in data["method"]["seeds"]
    for table in data["tables"]:
        players = table["players"]
        assert table["games"] == 150 * players
        dup = table["duplicate"]
        assert dup["deals"] == 150 and dup["rotations"] == players
        assert [s["deals"] for s in dup["seats"]] == [150] * players
        for name, figure in dup["agents"].items():
            ordinary = table["agents"][name]
            assert figure["ordinary_ci"] == ordinary["ci"]
            assert figure["rate"] == ordinary["rate"]
            assert figure["ci"][0] <= figure["rate"] <= figure["ci"][1]
        for seat, ordinary in zip(dup["seats"], table["seats"], strict=True):
            assert seat["rate"] == ordinary["rate"]
    again = CliRunner().invoke(main, [*shlex.split(data["command"])[1:], "--project",
                                      str(FIXTURE), "--out", str(tmp_path / "again"), "-q"])
    assert again.exit_code == 0, again.output
    assert files(tmp_path / "again") == files(tmp_path / "one")
    # An ordinary run says nothing of duplicates (its summary keeps its bytes).
    assert simulate(tmp_path / "plain", "-n", "20", "-a", "random,cautious", "-q").exit_code == 0
    plain = summary(tmp_path / "plain")
    assert "duplicate" not in plain["run"] and "duplicate" not in plain["tables"][0]


def _game(index: int, lineup: tuple[str, ...], winner: int) -> Game:
    return Game(index, lineup, 10, "reached the goal", (winner,), (1.0, 0.0), 0, {})


def test_a_deal_decided_by_the_seat_alone_gives_a_duplicate_interval_of_no_width() -> None:
    """Seat 1 wins every game: each agent wins one of its two games in every deal, so over
    deals there is no spread at all, while the ordinary interval counts each game as a coin."""
    tally = Tally.empty(2, {})
    for deal in range(40):
        games = [_game(2 * deal, ("a", "b"), 0), _game(2 * deal + 1, ("b", "a"), 0)]
        for game in games:
            tally.add(game)
        tally.add_deal(games)
    half = Tally.empty(2, {})
    half.merge(tally)  # units merge like every other count
    dup = table_figures(half, ["a", "b"], 30)["duplicate"]
    assert dup["deals"] == 40
    assert dup["agents"]["a"]["rate"] == 0.5 and dup["agents"]["a"]["ci"] == [0.5, 0.5]
    assert dup["agents"]["a"]["ordinary_ci"][1] - dup["agents"]["a"]["ordinary_ci"][0] > 0.2
    assert dup["agents"]["a"]["width_ratio"] == 0.0
    assert dup["narrower"]["agents"] == "100%"
    assert dup["seats"][0]["rate"] == 1.0
    assert dup["seats"][0]["ci"] == [1.0, 1.0] and dup["seats"][0]["width_ratio"] == 0.0


BAD = {
    "one agent": (["-a", "random"], "--duplicate compares agents on the same deals, and "
                                    "--agent random is one: give two or more"),
    "the default agent": ([], "--agent random is one"),
    "one agent twice": (["-a", "cautious,cautious"], "--agent cautious,cautious is one"),
    "more agents than seats": (["-a", "random,cautious,random", "-p", "2-3"],
                               "--duplicate: 3 agents cannot all sit at a 2-player table; "
                               "give at most 2 agents, or more players"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_a_duplicate_run_that_compares_nothing_is_exit_2(case: str, tmp_path: Path) -> None:
    args, message = BAD[case]
    out = tmp_path / "out"
    result = simulate(out, *args, "--duplicate", "-q")
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert lines == [f"rulepress: error: {message}"] or (
        len(lines) == 1 and message in lines[0]), lines
    assert "Traceback" not in result.output
    assert not out.exists()


def test_the_interval_over_deals_is_the_deals_shares_mean_and_standard_error() -> None:
    """With as many games for each agent in every deal, the interval is that of the mean of the
    deals' shares, t s / sqrt(n), t on n - 1 degrees of freedom (checked against the statistics
    module and a printed t table)."""
    rng = random.Random(5)
    tally = Tally.empty(2, {})
    shares = []
    for deal in range(60):
        games = [_game(2 * deal, ("a", "b"), rng.randrange(2)),
                 _game(2 * deal + 1, ("b", "a"), rng.randrange(2))]
        for game in games:
            tally.add(game)
        tally.add_deal(games)
        shares.append(sum(g.lineup[g.winners[0]] == "a" for g in games) / 2)
    figure = table_figures(tally, ["a", "b"], 30)["duplicate"]["agents"]["a"]
    t59 = 2.000995378  # Student's t, 97.5th percentile, 59 degrees of freedom (tables)
    half = t59 * statistics.stdev(shares) / math.sqrt(len(shares))
    assert figure["rate"] == pytest.approx(statistics.mean(shares), abs=1e-6)
    assert figure["ci"] == pytest.approx([figure["rate"] - half, figure["rate"] + half], abs=2e-6)


def test_a_few_deals_give_no_interval_over_deals() -> None:
    """Four deals all won by one agent once printed [100, 100] ("100% narrower"): z on a
    spread of zero. Below MIN_DEALS deals there is no interval over deals, and from there on
    t on n - 1 is used (wider than z for few deals)."""
    from rulepress.simulate.stats import MIN_DEALS, t975

    def tallied(deals: int, won: int) -> dict[str, Any]:
        tally = Tally.empty(2, {})
        for deal in range(deals):
            w = 0 if deal < won else 1  # a wins both games of its first `won` deals
            games = [_game(2 * deal, ("a", "b"), w), _game(2 * deal + 1, ("b", "a"), 1 - w)]
            for game in games:
                tally.add(game)
            tally.add_deal(games)
        return table_figures(tally, ["a", "b"], 30)["duplicate"]

    few = tallied(4, 4)
    assert few["agents"]["a"]["ci"] is None and few["agents"]["a"]["rate"] == 1.0
    assert few["narrower"]["agents"] is None
    enough = tallied(MIN_DEALS, MIN_DEALS - 3)
    figure = enough["agents"]["a"]
    shares = [1.0] * (MIN_DEALS - 3) + [0.0] * 3
    half = t975(MIN_DEALS - 1) * statistics.stdev(shares) / math.sqrt(MIN_DEALS)
    assert figure["ci"] == pytest.approx([0.7 - half, min(1.0, 0.7 + half)], abs=2e-6)
    assert t975(MIN_DEALS - 1) == pytest.approx(2.262157, abs=1e-6)  # a printed t table's


def test_seat_shares_sum_to_the_wins_and_a_shared_win_counts_once_in_the_total() -> None:
    """Four players, a win shared by two seats in one game of three: the seats' shares once
    summed to 4/3 of the games; they are shares of the table's wins, summing to 1, and an even
    share is 1/4."""
    tally = Tally.empty(4, {})
    lineup = ("a", "a", "a", "a")
    for i in range(300):
        winners = (i % 4, (i + 1) % 4) if i % 3 == 0 else (i % 4,)
        tally.add(Game(i, lineup, 10, "done", winners, (1.0, 0.0, 0.0, 0.0), 0, {}))
    figures = table_figures(tally, ["a"], 30)
    assert sum(s["count"] for s in figures["seats"]) == 400
    assert [s["of"] for s in figures["seats"]] == [400] * 4
    assert math.fsum(s["rate"] for s in figures["seats"]) == pytest.approx(1.0, abs=1e-5)
    assert figures["shared_wins"]["count"] == 100 and figures["draws"]["count"] == 0


def test_turn_order_shares_sum_to_the_wins_with_shared_wins_at_four_players() -> None:
    """Pigeon Race at 4-6 players printed each place in turn order's wins over the games,
    summing to 107-110% (a shared win counted for each of its places), plotted against an even
    share of 1 / players that the places' average exceeded. Here the first player moves from
    seat to seat and the third to act wins every game, sharing one in three with the fourth:
    the places' shares of the wins sum to 1, and the third's is 300 / 400, not 300 / 300."""
    tally = Tally.empty(4, {})
    lineup = ("a", "a", "a", "a")
    for i in range(300):
        first = i % 4
        third, fourth = (first + 2) % 4, (first + 3) % 4
        winners = (third, fourth) if i % 3 == 0 else (third,)
        tally.add(Game(i, lineup, 10, "done", winners, (1.0, 0.0, 0.0, 0.0), first, {}))
    figures = table_figures(tally, ["a"], 30)
    order = figures["turn_order"]
    assert [o["count"] for o in order] == [0, 0, 300, 100]
    assert [o["of"] for o in order] == [400] * 4
    assert [o["rate"] for o in order] == [0.0, 0.0, 0.75, 0.25]
    assert math.fsum(o["rate"] for o in order) == 1.0
    assert figures["fair_share"] == 0.25
    # the first player's own figure stays a win rate over the games with a first player
    assert (figures["first_player"]["count"], figures["first_player"]["of"]) == (0, 300)


def test_every_rate_of_a_duplicate_table_has_its_interval_over_deals() -> None:
    """The first player, the ends, the yes/no answers and the score (a draw half) were printed
    with plain Wilson in duplicate tables, as if a deal's two games were independent, and the
    interval over deals was for wins only beside a score counting draws half."""
    from rulepress.simulate.stats import t975

    rng = random.Random(3)
    tally = Tally.empty(2, {"long": "rate"})
    firsts, scores = [], []
    for deal in range(30):
        first = rng.randrange(2)  # the same first seat in both games of a deal
        draw = deal % 5 == 0
        games = []
        for r, lineup in enumerate((("a", "b"), ("b", "a"))):
            winner = () if draw else ((first,) if rng.random() < 0.7 else (1 - first,))
            games.append(Game(2 * deal + r, lineup, 10, "nagari" if draw else "stop", winner,
                              (1.0, 0.0), first, {"long": deal % 3 == 0}))
        for game in games:
            tally.add(game)
        tally.add_deal(games)
        firsts.append(sum(g.first in g.winners for g in games) / 2)
        scores.append(sum(2 if g.winners and g.lineup[g.winners[0]] == "a" else
                          1 if not g.winners else 0 for g in games) / 4)
    dup = table_figures(tally, ["a", "b"], 30)["duplicate"]
    half = t975(29) * statistics.stdev(firsts) / math.sqrt(30)
    mean = statistics.mean(firsts)
    assert dup["first_player"]["rate"] == pytest.approx(mean, abs=1e-6)
    assert dup["first_player"]["ci"] == pytest.approx([mean - half, mean + half], abs=2e-6)
    half = t975(29) * statistics.stdev(scores) / math.sqrt(30)
    mean = statistics.mean(scores)
    assert dup["score"]["a"]["rate"] == pytest.approx(mean, abs=1e-6)
    assert dup["score"]["a"]["ci"] == pytest.approx([mean - half, mean + half], abs=2e-6)
    # every end, over all games, and the yes/no question, each with its interval over deals
    assert set(dup["ends"]) == {"nagari", "stop"}
    assert dup["ends"]["nagari"]["rate"] == pytest.approx(0.2) and dup["ends"]["nagari"]["ci"]
    assert dup["questions"]["long"]["rate"] == pytest.approx(10 / 30, abs=1e-6)
    # the records round-trip: a summary's table gives them back exactly
    from rulepress.simulate.records import tally_of, tally_records

    table = table_figures(tally, ["a", "b"], 30)
    again = tally_of({"players": 2, **table}, {"long": "rate"})
    assert tally_records(again)["deal_units"] == tally_records(tally)["deal_units"]
    assert table_figures(again, ["a", "b"], 30)["duplicate"] == dup

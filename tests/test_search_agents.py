"""The searching agents (simulate/search.py): honest about hidden information, the same moves
for the same seed, stronger than random, never an illegal move, named on the command line."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulepress.cli import main
from rulepress.games import available_engines, entry_point_module, load_engine
from rulepress.games.base import (
    CHANCE,
    GameState,
    IllegalMove,
    Outcome,
    Rules,
    chance_move,
    hides_information,
    random_agent,
)
from rulepress.simulate.play import play_game
from rulepress.simulate.search import SearchAgent, SearchError, search_agent
from rulepress.simulate.spec import RunSpec, Table, agents_for

SOURCES = Path(__file__).parents[1] / "sources"


def rules_of(name: str) -> Rules:
    rules = load_engine(name).rules()
    assert rules is not None
    return rules


# The bundled games that declare hidden information (by their rules, not by name).
HIDDEN = [n for n in available_engines() if str(entry_point_module(n)).startswith(
    "rulepress.games.") and hides_information(rules_of(n))]


def decisions(rules: Rules, count: int, skip: int = 4) -> list[GameState[Any]]:
    """States of random games, ``skip`` moves in or later, where the seat to move has a choice:
    one a game, from the first games that have one."""
    found = []
    for seed in range(100):
        state, rng, moves = rules.new_game(2, seed), random.Random(seed), 0
        while not state.is_over():
            if moves >= skip and state.current_player() != CHANCE \
                    and len(state.legal_moves()) > 1:
                found.append(state)
                break
            move = chance_move(state, rng) if state.current_player() == CHANCE \
                else random_agent(state, rng)
            state, moves = state.apply(move), moves + 1
        if len(found) == count:
            return found
    raise AssertionError("too few choices in 100 games")


class Spy:
    """A state that notes what is asked of it: an honest agent asks whose turn it is and what
    that seat can see, nothing else."""

    def __init__(self, state: GameState[Any]) -> None:
        self._state = state
        self.asked: set[str] = set()

    def __getattr__(self, name: str) -> Any:
        self.asked.add(name)
        return getattr(self._state, name)


@pytest.mark.parametrize("name", HIDDEN)
@pytest.mark.parametrize("agent", ["flat:40", "ismcts:40"])
def test_a_choice_depends_on_the_view_alone(name: str, agent: str) -> None:
    rules = rules_of(name)
    player = search_agent(agent, rules)
    for seed, state in enumerate(decisions(rules, 3)):
        seat = state.current_player()
        # Another true state with the same view: the hidden cards dealt otherwise, so whatever
        # the agent would gain by peeking is misleading.
        twin = rules.sample(state.view(seat), random.Random(1000 + seed))  # type: ignore[attr-defined]
        assert twin != state and twin.view(seat) == state.view(seat)
        spy = Spy(state)
        chosen = player(spy, random.Random(seed))  # type: ignore[arg-type]
        assert chosen == player(twin, random.Random(seed))
        assert chosen in state.legal_moves()
        assert spy.asked <= {"current_player", "view"}, spy.asked


# --- a small game of perfect information: Nim, whose best moves are known --------------------


@dataclass(frozen=True)
class Take:
    pile: int
    count: int

    def __str__(self) -> str:
        return f"{self.pile}:{self.count}"


@dataclass(frozen=True)
class Nim:
    """Take any number from one pile; whoever takes the last object wins."""

    piles: tuple[int, ...]
    to_move: int = 0

    def current_player(self) -> int:
        return self.to_move

    def legal_moves(self) -> list[Take]:
        return [Take(i, k) for i, n in enumerate(self.piles) for k in range(1, n + 1)]

    def chance_outcomes(self) -> tuple[()]:
        return ()

    def apply(self, move: Take) -> Nim:
        if not 1 <= move.count <= self.piles[move.pile]:
            raise IllegalMove(move, "not that many there")
        piles = list(self.piles)
        piles[move.pile] -= move.count
        return Nim(tuple(piles), 1 - self.to_move)

    def is_over(self) -> bool:
        return not any(self.piles)

    def outcome(self) -> Outcome | None:
        if not self.is_over():
            return None
        winner = 1 - self.to_move
        return Outcome((winner,), tuple(float(s == winner) for s in (0, 1)), "took the last")

    def turn(self) -> int:
        return 0


class NimRules:
    name = "nim"
    min_players = max_players = 2


@pytest.mark.parametrize("agent", ["mcts:3000", "ismcts:3000"])
@pytest.mark.parametrize("piles", [(2, 3, 0), (1, 2, 4), (1, 3, 4)])
def test_tree_search_finds_nims_winning_move(agent: str, piles: tuple[int, ...]) -> None:
    # Small heaps: random playouts mislead plain UCT on large Nim (a known weakness), so the
    # test asks what it does find, the one move that leaves a zero nim-sum.
    player = search_agent(agent, NimRules())  # type: ignore[arg-type]
    for seed in range(3):
        move = player(Nim(piles), random.Random(seed))
        after = Nim(piles).apply(move).piles
        assert after[0] ^ after[1] ^ after[2] == 0, f"{move} leaves {after}"


def test_uct_plays_through_chance_nodes() -> None:
    """Coin Race: step 1, or flip for 3 or 0. Needing 3 with the other seat one step from the
    goal, only a flip can win."""
    rules = load_engine("engines/coin_race.py:ENGINE",
                        Path(__file__).parent / "fixtures" / "simulate").rules()
    assert rules is not None
    state = rules.new_game(2, 0, "short")
    state = type(state)(at=(7, 9), variant="short")  # type: ignore[call-arg]
    move = search_agent("mcts:300", rules)(state, random.Random(1))
    assert str(move) == "flip"


def wins_against_random(rules: Rules, agent: SearchAgent, games: int) -> float:
    won = 0.0
    for game in range(games):
        state, rng, own = rules.new_game(2, game), random.Random(game), random.Random(-game)
        seat = game % 2  # each seat half the time
        while not state.is_over():
            player = state.current_player()
            if player == CHANCE:
                move = chance_move(state, rng)
            elif player == seat:
                move = agent(state, own)
            else:
                move = random_agent(state, rng)
            state = state.apply(move)
        outcome = state.outcome()
        assert outcome is not None
        won += (seat in outcome.winners) / len(outcome.winners) if outcome.winners else 0.5
    return won / games


@pytest.mark.slow  # enough searched games to tell strength
def test_search_beats_random_at_go_stop() -> None:
    rules = rules_of("go_stop")
    assert wins_against_random(rules, search_agent("ismcts:100", rules), 20) >= 0.7
    assert wins_against_random(rules, search_agent("flat:100", rules), 20) >= 0.7


@pytest.mark.slow  # enough searched games to tell strength
def test_is_mcts_beats_random_at_pigeon_race() -> None:
    # A race of much luck: 0.65 over these 20 at 100 playouts, 0.8 at 200 (measured).
    rules = rules_of("pigeon_race")
    assert wins_against_random(rules, search_agent("ismcts:100", rules), 20) >= 0.6


def test_uct_beats_random_at_nim() -> None:
    agent = search_agent("mcts:200", NimRules())  # type: ignore[arg-type]
    won = 0
    for game in range(20):
        state = Nim((2 + game % 3, 3, 4))
        rng, seat = random.Random(game), game % 2
        while not state.is_over():
            mover = agent if state.current_player() == seat else random_agent
            state = state.apply(mover(state, rng))
        outcome = state.outcome()
        won += outcome is not None and seat in outcome.winners
    assert won >= 17


# --- in simulation ------------------------------------------------------------------------------

RUNS = {
    "go_stop": ("go-stop", 4),
    "pigeon": ("pigeon", 3),
    "pigeon_race": ("pigeon-race", 3),
}


@pytest.mark.parametrize("engine", list(RUNS))
def test_search_agents_play_whole_games_without_an_illegal_move(engine: str) -> None:
    game, games = RUNS[engine]
    rules = rules_of(engine)
    names = ("flat:20", "ismcts:20", "random")
    spec = RunSpec(game, engine, None, games, (2,), ("standard",), names, seed=4, check=True)
    table = Table(2, "standard")
    agents = agents_for(load_engine(engine), names)
    for index in range(games):
        # play_game raises SimulationFailure on a refused move or a broken invariant.
        lineup = spec.lineup(index, 2)
        first = play_game(spec, rules, table, index, lineup, agents, (), engine)
        assert first == play_game(spec, rules, table, index, lineup, agents, (), engine)
        assert first.winners or first.end == "the stock runs out: nagari"


@pytest.mark.slow  # whole searched games of Worm Derby
def test_search_agents_choose_legal_moves_in_worm_derby() -> None:
    """Worm Derby's random games run to some 900 moves at about 0.7 ms a move: whole games
    with a search would take minutes, so the agents choose near the end of a random game."""
    rules = rules_of("worm_derby")
    state, rng = rules.new_game(2, 5, "basic"), random.Random(5)
    seen = []
    while not state.is_over():
        seen.append(state)
        move = chance_move(state, rng) if state.current_player() == CHANCE \
            else random_agent(state, rng)
        state = state.apply(move)
    # within 20 moves of the end, where a playout is short (60 moves out took 10 times as long)
    choices = [s for s in seen[-20:] if s.current_player() != CHANCE and len(s.legal_moves()) > 1]
    assert len(choices) >= 2
    for name in ("flat:10", "mcts:10", "ismcts:10"):
        agent = search_agent(name, rules)
        for k, state in enumerate(choices[:2]):
            move = agent(state, random.Random(k))
            assert move in state.legal_moves()
            assert move == agent(state, random.Random(k)), "the same seed, the same move"


@pytest.mark.slow  # simulate's worker processes
def test_a_run_with_search_agents_is_the_same_whatever_the_jobs(tmp_path: Path) -> None:
    args = ["simulate", "pigeon-race", "--sources", str(SOURCES), "-n", "6", "-p", "2,3",
            "-a", "ismcts:15,flat:15,random", "-q"]
    one = CliRunner().invoke(main, [*args, "-j", "1", "--out", str(tmp_path / "one")])
    two = CliRunner().invoke(main, [*args, "-j", "2", "--out", str(tmp_path / "two")])
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    summary = (tmp_path / "one" / "summary.json").read_text()
    assert summary == (tmp_path / "two" / "summary.json").read_text()
    assert "information-set tree search (single-observer IS-MCTS) of 15 playouts" in summary


@pytest.mark.parametrize(("agent", "message"), [
    ("mcts:50", "--agent mcts:50: UCT searches games of perfect information, and this game "
                "hides some of its state; use ismcts:50"),
    ("random,ismcts:0", "--agent random,ismcts:0: ismcts:0: give a budget of 1 to 1,000,000 "
                        "playouts"),
    ("mcts", "--agent mcts: no agent 'mcts'; the game has: random, greedy, and searches flat:N, "
             "mcts:N, ismcts:N (N playouts a move)"),
])
def test_a_search_agent_the_game_cannot_take_is_bad_input(agent: str, message: str,
                                                         tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["simulate", "pigeon", "--sources", str(SOURCES), "-a",
                                       agent, "-q", "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert result.stderr.strip() == f"rulepress: error: {message}"
    assert not out.exists()


def test_a_name_that_is_no_search_is_refused() -> None:
    with pytest.raises(SearchError, match="write flat:N, mcts:N or ismcts:N"):
        search_agent("uct:40", rules_of("pigeon"))


@dataclass(frozen=True)
class Points:
    """A long game of running points: ``gain`` scores one, ``wait`` nothing; after 400 turns
    the most points win. A random playout to its end says almost nothing of one move."""

    points: tuple[int, int] = (0, 0)
    turns: int = 0

    def current_player(self) -> int:
        return self.turns % 2

    def legal_moves(self) -> tuple[str, ...]:
        return () if self.is_over() else ("wait", "gain")

    def chance_outcomes(self) -> tuple[()]:
        return ()

    def apply(self, move: str) -> Points:
        seat = self.current_player()
        gained = tuple(p + (move == "gain" and s == seat) for s, p in enumerate(self.points))
        return Points((gained[0], gained[1]), self.turns + 1)

    def is_over(self) -> bool:
        return self.turns >= 400

    def outcome(self) -> Outcome | None:
        if not self.is_over():
            return None
        a, b = self.points
        return Outcome((0,) if a > b else (1,) if b > a else (), (a, b), "turns")

    def turn(self) -> int:
        return self.turns

    def standing(self) -> tuple[int, int]:
        return self.points


class PointsRules:
    name = "points"
    min_players = max_players = 2


def test_a_search_scores_a_playout_by_the_running_points_where_the_game_keeps_them() -> None:
    # Cut off where it starts, a playout tells the move that scores from the one that waits,
    # on every seed; to the end, 400 random turns drown that one point.
    for seed in range(10):
        agent = search_agent("flat:4", PointsRules())  # type: ignore[arg-type]
        assert agent(Points(), random.Random(seed)) == "gain"
        assert search_agent("ismcts:4", PointsRules())(  # type: ignore[arg-type]
            Points((3, 5), 7), random.Random(seed)) == "gain"


def test_the_most_visited_move_ties_are_broken_by_the_better_mean() -> None:
    from rulepress.simulate.search import Node, _most_visited

    root = Node(CHANCE)
    for move, total in (("a", 0.0), ("b", 1.0), ("c", 0.5)):
        root.children[move] = child = Node(0)
        child.visits, child.total = 1, total
    assert _most_visited(root, ["a", "b", "c"]) == "b"
    root.children["a"].visits, root.children["a"].total = 2, 0.2
    assert _most_visited(root, ["a", "b", "c"]) == "a"  # visits first


@pytest.mark.parametrize("name", HIDDEN)
def test_a_search_tries_the_games_own_player_first(name: str) -> None:
    # With one playout the tree holds one move at its root: the game's greedy player's choice
    # on the sample it drew (for the same random draws), never the first in the rules' order.
    rules = rules_of(name)
    greedy = load_engine(name).agents()["greedy"][1]
    agent = search_agent("ismcts:1", rules, {"greedy": greedy})
    assert agent.policy is greedy
    for seed, state in enumerate(decisions(rules, 3)):
        seat = state.current_player()
        rng = random.Random(seed)
        sample = rules.sample(state.view(seat), rng)  # type: ignore[attr-defined]
        assert agent(state, random.Random(seed)) == greedy(sample, rng)
    assert search_agent("ismcts:1:random", rules, {"greedy": greedy}).policy is None


def test_a_playout_player_the_game_lacks_is_refused() -> None:
    with pytest.raises(SearchError, match="no agent 'clever' to play the playouts; the game "
                                          "has: random, greedy"):
        search_agent("ismcts:40:clever", rules_of("pigeon"),
                     {"greedy": load_engine("pigeon").agents()["greedy"][1]})


# --- flat: candidates compared on common luck, and the playouts' player's shortlist ----------


@dataclass(frozen=True)
class Toss:
    """Seat 0 says 'heads' or 'tails' (the same thing, by two names); a fair coin then decides
    who wins."""

    said: str = ""
    coin: int = -1

    def current_player(self) -> int:
        return 0 if not self.said else CHANCE

    def legal_moves(self) -> tuple[str, ...]:
        return () if self.said else ("heads", "tails")

    def chance_outcomes(self) -> tuple[tuple[int, float], ...]:
        return ((0, 0.5), (1, 0.5)) if self.said and self.coin < 0 else ()

    def apply(self, move: Any) -> Toss:
        return Toss(move, -1) if not self.said else Toss(self.said, move)

    def is_over(self) -> bool:
        return self.coin >= 0

    def outcome(self) -> Outcome | None:
        return Outcome((self.coin,), (1 - self.coin, self.coin), "toss") if self.is_over() \
            else None

    def turn(self) -> int:
        return int(bool(self.said))


class TossRules:
    name = "toss"
    min_players = max_players = 2


def test_flat_compares_its_moves_on_the_same_luck() -> None:
    # Two names for one move meet the same coins, so they tie on every seed and the first in
    # the rules' order is played; scored on separate coins, either would win half the time.
    agent = search_agent("flat:40", TossRules())  # type: ignore[arg-type]
    assert {agent(Toss(), random.Random(seed)) for seed in range(20)} == {"heads"}


def test_flat_and_ismcts_search_only_the_playouts_players_shortlist_at_pigeon() -> None:
    from rulepress.games.pigeon.rules import Play
    from rulepress.simulate.search import SHORTLIST, Search

    rules = rules_of("pigeon")
    players = {n: a for n, (_, a) in load_engine("pigeon").agents().items()}
    forcing = [s for s in decisions(rules, 6, skip=10)
               if any(isinstance(m, Play) and m.force for m in s.legal_moves())]
    assert forcing
    for seed, state in enumerate(forcing):
        legal = list(state.legal_moves())
        search = Search(rules, players["greedy"], random.Random(seed))
        short = search.shortlist(state, legal)
        assert len(short) == min(SHORTLIST, len(legal)) < len(legal)
        assert players["greedy"](state, random.Random(seed)) in short
        # A Forceplay, greedy's last resort, is shortlisted only when too few others are legal.
        unforced = [m for m in legal if not (isinstance(m, Play) and m.force)]
        assert sum(m in unforced for m in short) == min(len(unforced), SHORTLIST)
        for name in ("flat:16", "ismcts:16"):
            chosen = search_agent(name, rules, players)(state, random.Random(seed))
            assert chosen in short, (name, chosen)


def test_pigeons_player_judges_a_position_by_the_race_of_cards_left_to_draw() -> None:
    from dataclasses import replace as changed

    from rulepress.games.pigeon.agents import greedy
    from rulepress.games.pigeon.rules import PENALTY_LIMIT, Seat

    state = decisions(rules_of("pigeon"), 1, skip=10)[0]
    mine = Seat(state.seats[0].deck, state.seats[0].hand)  # both at the usual limit
    even = changed(state, seats=(mine, Seat(mine.deck, state.seats[1].hand)))
    assert greedy.evaluate(even) == (0.5, 0.5)
    short = changed(even, seats=(Seat(even.seats[0].deck[3:], even.seats[0].hand),
                                 even.seats[1]))
    first, second = greedy.evaluate(short)  # three cards fewer to draw: ahead in the race
    assert 0.7 < first < 0.8 and first + second == pytest.approx(1)
    lowered = changed(short, seats=(Seat(short.seats[0].deck, short.seats[0].hand,
                                         PENALTY_LIMIT), short.seats[1]))
    assert 0.5 < greedy.evaluate(lowered)[0] < first  # a limit of four costs a card or two


def test_a_search_scores_a_playout_by_its_players_judgement_at_the_horizon() -> None:
    # Pigeon's player judges a position; a search's playouts stop its horizon on and take that
    # judgement, so early in a game the reward is a chance, never a whole win.
    from rulepress.games.pigeon.agents import HORIZON, greedy
    from rulepress.simulate.search import Search

    rules = rules_of("pigeon")
    from rulepress.simulate.search import rewards

    judged_at_horizon = 0
    for seed, state in enumerate(decisions(rules, 6, skip=10)):
        judged = tuple(Search(rules, greedy, random.Random(seed)).score(state))
        end = Search(rules, greedy, random.Random(seed)).playout(state, HORIZON)
        assert end is not None
        if end.is_over():  # a game over sooner is scored by its outcome
            assert judged == rewards(end)
            continue
        judged_at_horizon += 1
        assert end.turn() == state.turn() + HORIZON
        assert judged == greedy.evaluate(end) and 0 < judged[0] < 1
        # without a judgement (random playouts) the playout runs to the end: a win or a loss
        assert set(Search(rules, None, random.Random(seed)).score(state)) == {0.0, 1.0}
    assert judged_at_horizon >= 3

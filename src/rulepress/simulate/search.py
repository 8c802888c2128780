"""Agents that search, for any game on the rules protocol: flat Monte Carlo, UCT (Monte Carlo
tree search) for perfect-information games, and single-observer information-set MCTS (Cowling,
Powley & Whitehouse, 2012) for games with hidden hands.

Each is honest about hidden information: it takes what its seat knows (``view_of``) and plans
only on states sampled from that view (``sample_of``), never on the state it was handed. A
budget is counted in playouts (one random game played to its end from a leaf), so the strength
is the same on any machine; ``mcts:400`` names an agent as ``rulepress simulate -a`` takes it.
Chance nodes are drawn by their odds (``chance_outcomes``) in the tree and in playouts.

Every playout is scored by the outcome alone: 1 for a sole winner, shared out on a shared win,
an even share for everyone on a draw; a playout that runs past :data:`PLAYOUT_MOVES` is
nobody's win (no bundled game comes near it). A game whose states keep running scores
(``standing()``, e.g. Pigeon Race) has its playouts cut off :data:`CUTOFF_TURNS` turns on and
scored by each seat's share of the points: random play to the end of a forty-turn race drowns
the one move a playout is meant to judge (with it, ismcts:50 lost 93% of its races to the
one-step greedy player). Likewise a playouts' player that offers ``evaluate(state)`` (each
seat's chance from an unfinished state) and ``horizon`` (turns) has its playouts stop that many
turns on and scored by it (Pigeon's greedy player: the race of cards left to draw).
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

from rulepress.games.base import (
    CHANCE,
    Agent,
    GameState,
    JudgingAgent,
    RankingAgent,
    Rules,
    chance_move,
    hides_information,
    sample_of,
    standing_of,
    view_of,
)
from rulepress.workers import tick

RANDOM = "random"

PLAYOUT_MOVES = 10_000  # a playout still going after this many moves is nobody's win
CUTOFF_TURNS = 0  # with running scores, a playout stops this many turns on
EXPLORE = 0.7  # UCB1's exploration constant, for rewards in [0, 1]
NAME = re.compile(r"^(flat|mcts|ismcts):(\d+)(?::([A-Za-z_][\w-]*))?$")
EPSILON = 0.1  # a playout by the game's own player still makes this share of its moves at random
BIAS = 1.0  # progressive bias: the player's own choice at a node starts this much ahead
MAX_PLAYOUTS = 1_000_000
SHORTLIST = 8  # flat: the moves it compares, when the playouts' player can rank them

LINES = {
    "flat": "flat Monte Carlo: tries each legal move in turn with {n} random playouts in all, "
            "each on a deal sampled from what it can see, and plays the best on average",
    "mcts": "UCT tree search of {n} playouts (perfect-information games only)",
    "ismcts": "information-set tree search (single-observer IS-MCTS) of {n} playouts, each on a "
              "deal sampled from what it can see",
}


class SearchError(ValueError):
    """A search agent's name the game cannot take."""


def is_search_name(name: str) -> bool:
    return NAME.match(name) is not None


def describe(name: str) -> str:
    """The line a report prints for search agent ``name``."""
    m = NAME.match(name)
    assert m is not None
    line = LINES[m[1]].format(n=f"{int(m[2]):,}")
    if m[3] == RANDOM:
        return line + "; its playouts play at random"
    if m[3]:
        return line + f"; its playouts play as {m[3]} does, one move in ten at random"
    return line + ("; its playouts play as the game's own player does (if it offers one), one "
                   "move in ten at random, and its tree tries that player's move first")


def search_agent(name: str, rules: Rules, players: Mapping[str, Agent] | None = None
                 ) -> SearchAgent:
    """The agent ``name`` (``flat:200``, ``mcts:400``, ``ismcts:400``, ``ismcts:400:random``)
    for ``rules``; ``players``: the game's own agents, one of which plays its playouts (the one
    named after the budget, else ``greedy``, else the first; ``random`` for none)."""
    m = NAME.match(name)
    if m is None:
        raise SearchError(f"'{name}' is not a search agent: write flat:N, mcts:N or ismcts:N "
                          "(or ismcts:N:AGENT for its playouts' player)")
    kind, playouts, chosen = m[1], int(m[2]), m[3]
    if not 1 <= playouts <= MAX_PLAYOUTS:
        raise SearchError(f"give a budget of 1 to {MAX_PLAYOUTS:,} playouts")
    if kind == "mcts" and hides_information(rules):
        raise SearchError(f"UCT searches games of perfect information, and this game "
                          f"hides some of its state; use ismcts:{playouts}")
    own = dict(players or {})
    if chosen is not None and chosen != RANDOM and chosen not in own:
        offered = ", ".join([RANDOM, *own])
        raise SearchError(f"no agent '{chosen}' to play the playouts; the game has: {offered}")
    if chosen is None:
        chosen = "greedy" if "greedy" in own else next(iter(own), RANDOM)
    return SearchAgent(kind, playouts, rules, None if chosen == RANDOM else own[chosen])


class SearchAgent:
    """A searching player; called as any agent is, ``agent(state, rng) -> move``."""

    # rulepress's simulation gives such an agent a random source of its own, from the game's
    # seed and its seat, so its many draws leave the others' (and chance's) untouched.
    own_random = True

    def __init__(self, kind: str, playouts: int, rules: Rules, policy: Agent | None = None
                 ) -> None:
        self.kind = kind
        self.playouts = playouts
        self.rules = rules
        self.policy = policy
        self._choose = _CHOOSERS[kind]

    def __repr__(self) -> str:
        return f"search_agent('{self.kind}:{self.playouts}', {self.rules.name!r})"

    def __call__(self, state: GameState[Any], rng: random.Random) -> Any:
        seat = state.current_player()
        view = view_of(self.rules, state, seat)
        del state  # from here on, only what the seat knows
        return self._choose(Search(self.rules, self.policy, rng), view, seat, self.playouts)


class Search:
    """What a search needs besides its tree: the rules, the playouts' player, the random
    source."""

    __slots__ = ("rules", "policy", "rng", "ranker", "judge")

    def __init__(self, rules: Rules, policy: Agent | None, rng: random.Random) -> None:
        self.rules, self.policy, self.rng = rules, policy, rng
        # The policy's optional hooks, looked up once a search, not once a playout.
        self.ranker = policy if isinstance(policy, RankingAgent) else None
        self.judge = policy if isinstance(policy, JudgingAgent) else None

    def move(self, state: GameState[Any]) -> Any:
        """A playout's move: the policy's, or one at random (EPSILON of them, or all)."""
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        rng = self.rng
        if self.policy is not None and rng.random() >= EPSILON:
            return self.policy(state, rng)
        return moves[rng.randrange(len(moves))]

    def shortlist(self, state: GameState[Any], moves: Sequence[Any]) -> list[Any]:
        """The moves worth a search's playouts: the playouts' player's :data:`SHORTLIST` best
        by its own ``value(state, move)`` (ties in the rules' order) when it offers one (Pigeon's
        greedy player does: a Forceplay, most of the legal moves, is its last resort), else all
        of them."""
        ranker = self.ranker
        if ranker is None or len(moves) <= SHORTLIST:
            return list(moves)
        return sorted(moves, key=lambda move: -ranker.value(state, move))[:SHORTLIST]

    def hint(self, state: GameState[Any]) -> Any:
        """The policy's own choice at a node of the tree (None without a policy)."""
        return None if self.policy is None else self.policy(state, self.rng)

    def playout(self, state: GameState[Any], turns: int | None = None
                ) -> GameState[Any] | None:
        """``state`` played on by :meth:`move` (chance by its odds) to its end, or only until
        ``turns`` more turns are done; None when it runs past :data:`PLAYOUT_MOVES`."""
        tick()  # each playout within the engine's budget, not the whole game's thousands
        stop = PLAYOUT_MOVES if turns is None else state.turn() + turns
        rng = self.rng
        for _ in range(PLAYOUT_MOVES):
            if state.is_over() or state.turn() >= stop:
                return state
            if state.current_player() == CHANCE:
                state = state.apply(chance_move(state, rng))
            else:
                state = state.apply(self.move(state))
        return state if state.is_over() else None

    def score(self, state: GameState[Any]) -> Sequence[float]:
        judge = self.judge
        if judge is not None:  # the player judges a position its horizon's turns on (Pigeon's)
            end = self.playout(state, judge.horizon)
            if end is None:
                return _NOBODY
            return rewards(end) if end.is_over() else tuple(judge.evaluate(end))
        if standing_of(state) is not None:
            end = self.playout(state, CUTOFF_TURNS)
            if end is not None and not end.is_over():
                return _leaders(standing_of(end) or ())
        end = self.playout(state)
        return rewards(end) if end is not None else _NOBODY


# --- playouts -----------------------------------------------------------------------------------


def rewards(state: GameState[Any]) -> tuple[float, ...]:
    """Each seat's share of a finished game (see the module's doc)."""
    outcome = state.outcome()
    assert outcome is not None
    players = len(outcome.scores)
    if not outcome.winners:
        return (1 / players,) * players
    share = 1 / len(outcome.winners)
    return tuple(share if seat in outcome.winners else 0.0 for seat in range(players))


def playout(state: GameState[Any], rng: random.Random,
            turns: int | None = None) -> GameState[Any] | None:
    """``state`` played to its end by uniform random moves (chance by its odds), or only until
    ``turns`` more turns are done; None when it runs past :data:`PLAYOUT_MOVES`."""
    return Search(_NO_RULES, None, rng).playout(state, turns)


_NOBODY: tuple[float, ...] = ()
_NO_RULES: Any = None


def _leaders(standing: Sequence[float]) -> tuple[float, ...]:
    """A cut-off playout's reward: each seat's share of the running points (even shares when
    nobody has any), so a move that gains a point counts even when the lead does not change."""
    low = min(0.0, *standing)
    points = [s - low for s in standing]
    total = sum(points)
    if total <= 0:
        return (1 / len(points),) * len(points)
    return tuple(p / total for p in points)


def _reward(reward: Sequence[float], seat: int) -> float:
    return reward[seat] if reward else 0.0


# --- flat Monte Carlo ---------------------------------------------------------------------------


def flat(search: Search, view: Hashable, seat: int, playouts: int) -> Any:
    """Rollouts of the playouts' player, compared on common luck: each sample of the view is
    played on after every candidate move (every legal move, or the player's own shortlist, see
    :meth:`Search.shortlist`), each time from the same random source, so two moves meet the
    same deal and the same draws and a small difference between them shows through the luck
    (common random numbers). The best total wins; the player's own choice, then the first in
    the rules' order, on a tie. The budget buys as many whole rounds as it holds (one at
    least)."""
    rules, rng = search.rules, search.rng
    root = sample_of(rules, view, rng)
    moves = list(root.legal_moves())
    if len(moves) == 1:
        return moves[0]
    moves = search.shortlist(root, moves)
    hint = search.hint(root)
    if hint in moves:  # tried first, and first among equals
        moves.remove(hint)
    if hint is not None:
        moves.insert(0, hint)
    totals = [0.0] * len(moves)
    for round_ in range(max(1, playouts // len(moves))):
        state = root if round_ == 0 else sample_of(rules, view, rng)
        luck = rng.getrandbits(64)
        for k, move in enumerate(moves):
            same = Search(rules, search.policy, random.Random(luck))
            totals[k] += _reward(same.score(state.apply(move)), seat)
    return moves[totals.index(max(totals))]


# --- tree search --------------------------------------------------------------------------------


class Node:
    """A node of the search tree: reached by a move of ``mover`` (CHANCE for an outcome)."""

    __slots__ = ("mover", "children", "untried", "visits", "total", "seen", "hint")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.children: dict[Any, Node] = {}
        self.untried: list[Any] | None = None  # UCT only: moves not yet expanded
        self.visits = 0
        self.total = 0.0  # the mover's rewards summed over the playouts through here
        self.seen = 0  # IS-MCTS: times the move was legal when its parent was selected from
        self.hint: Any = _UNASKED  # the policy's choice here, asked when first expanded

    def ucb(self, parent_visits: int, bias: float = 0.0) -> float:
        return (self.total / self.visits + EXPLORE * math.sqrt(math.log(parent_visits)
                                                               / self.visits)
                + bias / (self.visits + 1))


_UNASKED = object()


def _hint(search: Search, node: Node, state: GameState[Any]) -> Any:
    if node.hint is _UNASKED:
        node.hint = search.hint(state)
    return node.hint


def _through_chance(node: Node, state: GameState[Any], rng: random.Random
                    ) -> tuple[Node, GameState[Any]]:
    move = chance_move(state, rng)
    child = node.children.get(move)
    if child is None:
        child = node.children[move] = Node(CHANCE)
    return child, state.apply(move)


def _backup(path: Sequence[Node], reward: Sequence[float]) -> None:
    for node in path:
        node.visits += 1
        if node.mover >= 0:
            node.total += _reward(reward, node.mover)


def _most_visited(root: Node, moves: Sequence[Any]) -> Any:
    """The root's most visited move among ``moves``, the better mean on a tie, then the first
    in order. Under a budget near the number of moves most are tried once: without the mean,
    the first in the rules' order would win those ties, which is no choice at all."""
    best, top = moves[0], (-1, -math.inf)
    for move in moves:
        child = root.children.get(move)
        key = (child.visits, child.total / child.visits) if child else (0, -math.inf)
        if key > top:
            best, top = move, key
    return best


def uct(search: Search, view: Hashable, seat: int, playouts: int) -> Any:
    """UCT on the state itself (a perfect-information game's view is its state); the policy's
    choice at a node is expanded first and keeps a bias of BIAS / (visits + 1)."""
    rng = search.rng
    root_state = sample_of(search.rules, view, rng)
    moves = search.shortlist(root_state, root_state.legal_moves())
    if len(moves) == 1:
        return moves[0]
    root = Node(CHANCE)
    for _ in range(playouts):
        node, state, path = root, root_state, [root]
        while not state.is_over():
            player = state.current_player()
            if player == CHANCE:
                node, state = _through_chance(node, state, rng)
                path.append(node)
                continue
            hint = _hint(search, node, state)
            if node.untried is None:
                node.untried = search.shortlist(state, state.legal_moves())
                if hint in node.untried:  # expanded last: popped first
                    node.untried.remove(hint)
                    node.untried.append(hint)
            if node.untried:
                move = node.untried.pop(-1 if node.untried[-1] == hint
                                        else rng.randrange(len(node.untried)))
                node.children[move] = node = Node(player)
                state = state.apply(move)
                path.append(node)
                break
            visits = node.visits
            move, node = max(node.children.items(),
                             key=lambda kv: kv[1].ucb(visits, BIAS * (kv[0] == hint)))
            state = state.apply(move)
            path.append(node)
        _backup(path, search.score(state))
    return _most_visited(root, moves)


def ismcts(search: Search, view: Hashable, seat: int, playouts: int) -> Any:
    """Single-observer IS-MCTS: one tree over the seat's information sets, each playout on a
    new sample of the view; a child competes only where its move is legal in that sample, and
    its exploration term counts those times (its availability), not the parent's visits. The
    policy's choice (asked on the sample that first reaches a node) is expanded first and keeps
    a bias of BIAS / (visits + 1)."""
    rules, rng = search.rules, search.rng
    first = sample_of(rules, view, rng)
    moves = search.shortlist(first, first.legal_moves())
    if len(moves) == 1:
        return moves[0]
    root = Node(CHANCE)
    for i in range(playouts):
        state = first if i == 0 else sample_of(rules, view, rng)
        node, path = root, [root]
        while not state.is_over():
            player = state.current_player()
            if player == CHANCE:
                node, state = _through_chance(node, state, rng)
                path.append(node)
                continue
            legal = search.shortlist(state, state.legal_moves())
            children = node.children
            hint = _hint(search, node, state)
            untried = [m for m in legal if m not in children]
            if untried:
                move = hint if hint in untried else untried[rng.randrange(len(untried))]
                children[move] = node = Node(player)
                state = state.apply(move)
                path.append(node)
                break
            best: tuple[Any, Node] | None = None
            top = -math.inf
            for move in legal:
                child = children[move]
                child.seen += 1
                value = child.total / child.visits + EXPLORE * math.sqrt(
                    math.log(child.seen) / child.visits)
                if move == hint:
                    value += BIAS / (child.visits + 1)
                if value > top:
                    best, top = (move, child), value
            assert best is not None
            move, node = best
            state = state.apply(move)
            path.append(node)
        _backup(path, search.score(state))
    return _most_visited(root, moves)


_CHOOSERS: dict[str, Callable[[Search, Hashable, int, int], Any]] = {
    "flat": flat,
    "mcts": uct,
    "ismcts": ismcts,
}

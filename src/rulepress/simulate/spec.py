"""What a simulation run plays: the game, the tables (player count x variant), the agents, the
seed, and how each game's own seed is derived from the run's.

Everything that changes a figure is in :class:`RunSpec` and nothing else is: how many processes
or which cluster play the games does not, so a summary is the same byte for byte whatever
``--jobs`` or ``--scheduler`` were.
"""

from __future__ import annotations

import hashlib
import random
import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulepress.games import contract
from rulepress.games.base import Agent, GameEngine, Rules, random_agent
from rulepress.simulate.search import SearchError, describe, is_search_name, search_agent

RANDOM = "random"  # the agent every game has: uniform over the legal moves
RANDOM_LINE = "plays uniformly at random among the legal moves"
DEFAULT_GAMES = 1000
DEFAULT_SEED = 1
DEFAULT_MAX_TURNS = 1000
DEFAULT_SECONDS_PER_TURN = 30.0
MAX_SECONDS_PER_TURN = 86_400  # a day: past it, game lengths in minutes overflow the plots
CAPPED = "turn cap (unfinished)"  # how a game that outlasted --max-turns "ends"
# --adaptive stops a pair once its confidence sequence excludes an even score at this level
# divided by the ladder's pairs: then Holm over all the pairs tells each stopped pair apart.
ADAPTIVE_ALPHA = 0.05

_RANGE = re.compile(r"^\s*(\d+)\s*-\s*(\d+)\s*$")


class SpecError(ValueError):
    """An option the game cannot take (bad input: exit 2)."""


@dataclass(frozen=True)
class Table:
    """One way the run sets the table: a player count and a variant."""

    players: int
    variant: str

    @property
    def key(self) -> str:
        """Its name in summary.json and in a report's prose: ``4-standard``."""
        return f"{self.players}-{self.variant}"


@dataclass(frozen=True)
class RunSpec:
    """A run: ``games`` games at every table, seat ``s`` of game ``i`` played by agent
    ``agents[(i + s) % len(agents)]`` so each agent takes each seat equally often.

    ``duplicate``: ``games`` deals at every table, each played once per rotation of its lineup
    over the seats (as many as there are players), all with the deal's own chance."""

    game: str  # the game's folder under sources/
    engine: str  # the engine as the front matter names it
    project: Path | None  # where an engine module of the project is loaded from
    games: int
    players: tuple[int, ...]
    variants: tuple[str, ...]
    agents: tuple[str, ...]
    seed: int = DEFAULT_SEED
    max_turns: int = DEFAULT_MAX_TURNS
    seconds_per_turn: float = DEFAULT_SECONDS_PER_TURN
    check: bool = False  # check the game's invariants on every state
    duplicate: bool = False
    until: float | None = None  # stop once the first player's interval is this narrow
    handicap: int | None = None  # the rules' numeric handicap (Rules.handicap), if given
    tension: bool = False  # lead changes and comebacks, from running scores (tension.py)
    adaptive: bool = False  # a ladder's pair stops once decided (ladder.py)
    # keep each deal's result by the deal's number: a ladder's pairs, whose deals are
    # resampled jointly across pairs (ladder.py); not a figure of the run
    by_deal: bool = False

    @property
    def tables(self) -> tuple[Table, ...]:
        return tuple(Table(p, v) for p in self.players for v in self.variants)

    def rotations(self, players: int) -> int:
        """Games played per deal: one, or (duplicate) one per seat."""
        return players if self.duplicate else 1

    def plays(self, players: int) -> int:
        """Games played at a table of ``players``."""
        return self.games * self.rotations(players)

    def deal(self, index: int, players: int) -> int:
        """The deal game ``index`` is played from: its seed and its chance."""
        return index // self.rotations(players)

    def lineup(self, index: int, players: int) -> tuple[str, ...]:
        k = len(self.agents)
        if not self.duplicate:
            return tuple(self.agents[(index + seat) % k] for seat in range(players))
        # deal d's lineup is game d's; rotation r moves it r seats to the left
        deal, turn = divmod(index, players)
        return tuple(self.agents[(deal + (seat + turn) % players) % k] for seat in range(players))

    def figures(self) -> dict[str, Any]:
        """The parameters that decide every figure (summary.json's ``run``)."""
        return {
            "games": self.games,
            "players": list(self.players),
            "variants": list(self.variants),
            "agents": list(self.agents),
            "seed": self.seed,
            "max_turns": self.max_turns,
            "seconds_per_turn": self.seconds_per_turn,
            # only when asked: the summaries of ordinary runs keep their bytes
            **({"duplicate": True} if self.duplicate else {}),
            **({"until": self.until} if self.until is not None else {}),
            **({"handicap": self.handicap} if self.handicap is not None else {}),
            **({"tension": True} if self.tension else {}),
            **({"adaptive": True, "stop_alpha": self.stop_alpha()} if self.adaptive else {}),
        }

    def stop_alpha(self) -> float:
        """The level at which --adaptive stops each pair: ADAPTIVE_ALPHA over the pairs."""
        pairs = max(1, len(self.agents) * (len(self.agents) - 1) // 2)
        return round(ADAPTIVE_ALPHA / pairs, 6)

    def command(self) -> str:
        """The command that makes these figures again (run from the project folder); options
        that only change where and how fast (--jobs, --scheduler, --out) are left out."""
        words = [
            "rulepress", "simulate", self.game,
            "--games", str(self.games),
            "--players", ",".join(map(str, self.players)),
            "--variant", ",".join(self.variants),
            "--agent", ",".join(self.agents),
            "--seed", str(self.seed),
            "--max-turns", str(self.max_turns),
            "--seconds-per-turn", f"{self.seconds_per_turn:g}",
            *(["--duplicate"] if self.duplicate else []),
            *(["--until", f"±{self.until * 100:g}%"] if self.until is not None else []),
            *(["--handicap", str(self.handicap)] if self.handicap is not None else []),
            *(["--tension"] if self.tension else []),
            *(["--adaptive"] if self.adaptive else []),
        ]
        return shlex.join(words)


def game_seed(run_seed: int, index: int, purpose: str = "deal") -> int:
    """Game ``index``'s seed: a stable hash of the run's seed and the index (never Python's
    ``hash()``, which changes between processes). ``purpose`` keeps the set-up and the play's
    own random draws (agents, chance outcomes) independent."""
    digest = hashlib.sha256(f"{run_seed}:{index}:{purpose}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def game_random(run_seed: int, index: int) -> random.Random:
    return random.Random(game_seed(run_seed, index, "play"))


def chance_random(run_seed: int, deal: int) -> random.Random:
    """The chance outcomes of a deal in duplicate play: from the deal alone, one draw a chance
    node, so every rotation gets the same outcomes whoever sits where."""
    return random.Random(game_seed(run_seed, deal, "chance"))


def agent_random(run_seed: int, index: int, seat: int) -> random.Random:
    """The random source of the agent at ``seat`` in game ``index``, for an agent that asks for
    its own (``own_random``): a search's draws then change nobody else's."""
    return random.Random(game_seed(run_seed, index, f"agent {seat}"))


# --- reading options ------------------------------------------------------------------------------


def parse_players(text: str | None, rules: Rules, title: str) -> tuple[int, ...]:
    """``2``, ``2,3`` or ``2-6`` -> player counts the game allows; default: its smallest."""
    allowed = f"{rules.min_players} to {rules.max_players}"
    if rules.min_players == rules.max_players:
        allowed = str(rules.min_players)
    if text is None:
        return (rules.min_players,)
    counts: list[int] = []
    for part in text.split(","):
        m = _RANGE.match(part)
        try:
            span = range(int(m[1]), int(m[2]) + 1) if m else range(int(part), int(part) + 1)
        except ValueError:
            raise SpecError(
                f"--players {text}: write a count, a list (2,3) or a range (2-6)") from None
        if not span:
            raise SpecError(f"--players {text}: the range {part.strip()} is empty")
        for n in span:
            if not rules.min_players <= n <= rules.max_players:
                raise SpecError(f"--players {text}: {title} is for {allowed} players, "
                                f"not {n}")
            if n not in counts:
                counts.append(n)
    return tuple(counts)


def parse_names(text: str | None, known: Sequence[str], what: str, option: str,
                default: str) -> tuple[str, ...]:
    """A comma-separated list of names, each one of ``known``, in the order given."""
    if text is None:
        return (default,)
    names = tuple(n.strip() for n in text.split(","))
    for name in names:
        if name not in known:
            raise SpecError(f"{option} {text}: no {what} '{name}'; the game has: "
                            f"{', '.join(known)}")
    if len(set(names)) != len(names) and option == "--variant":
        raise SpecError(f"{option} {text}: a variant is named twice")
    return names


def check_duplicate(agents: Sequence[str], players: Sequence[int]) -> None:
    """Duplicate play compares agents on the same luck: at least two, all at every table."""
    if len(set(agents)) < 2:
        raise SpecError(f"--duplicate compares agents on the same deals, and --agent "
                        f"{','.join(agents)} is one: give two or more (e.g. -a greedy,random)")
    if len(agents) > min(players):
        raise SpecError(f"--duplicate: {len(agents)} agents cannot all sit at a "
                        f"{min(players)}-player table; give at most {min(players)} agents, "
                        "or more players")


def agent_lines(engine: GameEngine) -> dict[str, str]:
    """Every agent the game offers, with its line: ``random`` first, then the engine's."""
    return {RANDOM: RANDOM_LINE, **{n: line for n, (line, _) in _agents(engine).items()}}


def parse_agents(text: str | None, engine: GameEngine, rules: Rules) -> tuple[str, ...]:
    """``--agent``: names of the game's agents, or of search agents (``mcts:400``)."""
    known = list(agent_lines(engine))
    if text is None:
        return (RANDOM,)
    names = tuple(n.strip() for n in text.split(","))
    for name in names:
        if is_search_name(name):
            try:
                search_agent(name, rules, _players(engine))
            except SearchError as exc:
                where = name if text.strip() == name else f"{text}: {name}"
                raise SpecError(f"--agent {where}: {exc}") from None
        elif name not in known:
            raise SpecError(f"--agent {text}: no agent '{name}'; the game has: "
                            f"{', '.join(known)}, and searches flat:N, mcts:N, ismcts:N "
                            "(N playouts a move)")
    return names


def agent_line(engine: GameEngine, name: str) -> str:
    """How agent ``name`` plays, in a line."""
    return describe(name) if is_search_name(name) else agent_lines(engine)[name]


def agents_for(engine: GameEngine, names: Sequence[str]) -> dict[str, Agent]:
    own = _agents(engine)
    found: dict[str, Agent] = {}
    for n in names:
        if is_search_name(n):
            rules = contract.rules(engine)
            assert rules is not None, "checked before the run"
            found[n] = search_agent(n, rules, _players(engine))
        else:
            found[n] = random_agent if n == RANDOM else own[n][1]
    return found


def _players(engine: GameEngine) -> dict[str, Agent]:
    """The game's own agents, for a search's playouts."""
    return {n: agent for n, (_, agent) in _agents(engine).items()}


def _agents(engine: GameEngine) -> Mapping[str, tuple[str, Agent]]:
    found = contract.agents(engine)
    if RANDOM in found:
        raise SpecError(f"the {engine.name} engine offers an agent named '{RANDOM}', the name of "
                        "the uniform player every game has: give it another name")
    return found

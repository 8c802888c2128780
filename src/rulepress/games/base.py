"""The contract between rulepress and a game: the rules protocol and the plug-in's parts.

A game plug-in is an :class:`Engine`, declared as data (or any object with the same
attributes, :class:`GameEngine`). Every part is optional:

- ``rules()``: the game's :class:`Rules`, following the protocol below. Simulation and the
  shared random-game test use nothing else.
- ``replay(example)``: replay an example's data, once; ``facts(replay)`` gives the *facts* the
  compiler compares each claim with (nested mappings key by key; a claim with no fact is an
  error, never a silent pass), and ``figures(replay, example)`` the SVG figures drawn from the
  example's states.
- ``component_counts()``: counts the rules rely on, cross-checked with the declared components.
- ``drawers()``: print-and-play drawers for art that needs code.
- ``tables()``: the engine's own data as tables (lists of rows), for printed parts drawn from
  layouts: a scoring table, the counts a slip asks for. Rules printed on a part come from here
  or from the rulebook, never from a second copy.
- ``agents()``: heuristic players for simulation (uniform random play needs none).
- ``questions()``: the designer's own questions that ``rulepress simulate`` answers from every
  game it plays ("how often does a 'go' pay off?"), beside the figures every game gets.

The rules protocol, in the manner of python-chess and OpenSpiel:

- A state is a frozen value. ``current_player()`` is the seat to act (0-based) or
  :data:`CHANCE` when the next input is chance (a die, a shuffle); ``legal_moves()`` lists the
  choices in a fixed order (at a chance node, the outcomes; ``chance_outcomes()`` gives their
  probabilities); ``apply(move)`` returns the next state and never changes this one;
  ``is_over()`` and ``outcome()`` say how it ended.
- Chance never hides inside: ``Rules.new_game(players, seed, variant)`` takes it as a seed, and
  later chance comes in as explicit outcomes applied like moves.
- Moves are frozen values that round-trip through text: ``parse_move(str(m)) == m``, and
  ``repr(m)`` is an expression that builds the move again, e.g. ``Move.parse('6H>6')``.
- One error family: :class:`NotationError` (not a move), :class:`IllegalMove` (a move the rules
  forbid here, with a stable ``reason``), :class:`AmbiguousMove` (the text fits several moves).
  All three are :class:`RulesError`, a ``ValueError``.
- New states are made with :func:`derive`, which copies the fields only: a ``cached_property``
  or any value derived from the fields is computed afresh, never carried over stale.

Hidden information, optional, in the manner of OpenSpiel's ``GameType`` and information states:

- ``Rules.game_type`` declares, as data, whether the game hides anything (:data:`PERFECT` or
  :data:`IMPERFECT`); a game that declares nothing is taken as perfect information.
- A game with hidden information gives its states ``view(seat)``: a frozen, hashable value
  holding what that seat knows (its own hand, the public piles, only the sizes of what it cannot
  see, the public part of what happened), and nothing else: two states that differ only in what
  the seat cannot see have equal views.
- ``Rules.sample(view, rng)`` returns a full state consistent with the view (whose ``view`` for
  that seat equals it), the hidden cards dealt at random from those the seat cannot see. It is
  on the rules, not the state, so it cannot peek at a true state. A searching agent plans only
  on such samples (see :func:`view_of` and :func:`sample_of`).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast, runtime_checkable

from rulepress.figure import DIAGRAM_FONT
from rulepress.games.data import game_data

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from rulepress.pnp.api import Face

CHANCE = -1  # current_player() when the next input is a chance outcome

# --- errors -------------------------------------------------------------------------------------


class RulesError(ValueError):
    """Base of the errors a rules engine raises about a move."""


class NotationError(RulesError):
    """Text that is not a move of this game (bad syntax)."""


class IllegalMove(RulesError):
    """A well-formed move the rules forbid in this position. ``reason`` is stable text (examples
    may claim it word for word)."""

    def __init__(self, move: object, reason: str) -> None:
        super().__init__(f"{move}: {reason}" if move is not None else reason)
        self.move = move
        self.reason = reason


class AmbiguousMove(RulesError):
    """Text that fits more than one legal move; ``reason`` says what to add."""

    def __init__(self, move: object, reason: str) -> None:
        super().__init__(f"{move}: {reason}" if move is not None else reason)
        self.move = move
        self.reason = reason


class ExampleDataError(Exception):
    """The example's data cannot be set up: bad notation, an impossible situation.

    ``path`` names the offending key inside the example, e.g. ``("moves", 2)``, so the
    diagnostic can point at its line.
    """

    def __init__(self, message: str, path: Sequence[str | int] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.path = tuple(path)


# --- the rules protocol ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winning seats (several on a shared win, none on a draw),
    each seat's score, and the end condition in the rulebook's words."""

    winners: tuple[int, ...]
    scores: tuple[float, ...]
    reason: str


@runtime_checkable
class Move(Protocol):
    """A frozen, hashable value; ``str`` gives its notation, ``repr`` pastes back as code."""

    def __hash__(self) -> int: ...


M = TypeVar("M", bound=Hashable)
S = TypeVar("S", bound="GameState[Any]")


@runtime_checkable
class GameState(Protocol[M]):
    """One position of a game. Frozen: ``apply`` returns a new state."""

    def current_player(self) -> int:
        """The seat to act (0-based), or CHANCE."""
        ...

    def legal_moves(self) -> Sequence[M]:
        """Every legal move (at a chance node: every outcome) in a fixed order; empty when over."""
        ...

    def chance_outcomes(self) -> Sequence[tuple[M, float]]:
        """At a chance node, each outcome with its probability (summing to 1); else empty."""
        ...

    def apply(self, move: M) -> GameState[M]:
        """The state after ``move``. Raises IllegalMove (or AmbiguousMove) when it is not legal."""
        ...

    def is_over(self) -> bool: ...

    def outcome(self) -> Outcome | None:
        """None while the game runs."""
        ...

    def turn(self) -> int:
        """Turns completed so far (a turn is a player's whole go, however many moves it takes)."""
        ...


@dataclass(frozen=True)
class Variant:
    """A named way to play: ``name`` as the command line spells it, and a line for --help."""

    name: str
    description: str


@runtime_checkable
class Rules(Protocol):
    """A game's rules as a whole: how to start a game and how to read a move."""

    name: str
    min_players: int
    max_players: int

    def variants(self) -> Sequence[Variant]:
        """Named variants; the first is the standard game."""
        ...

    def new_game(self, players: int, seed: int, variant: str | None = None) -> GameState[Any]:
        """A game set up with chance from ``seed``; ValueError for a player count or variant the
        game does not have."""
        ...

    def parse_move(self, text: str) -> Hashable:
        """The move ``text`` names; NotationError when it names none."""
        ...

    def invariants(self, state: GameState[Any]) -> Sequence[str]:
        """What is wrong with ``state`` (cards lost or doubled, a piece off the board...): each
        broken invariant in a sentence; empty when all hold. The shared random-game test and
        ``simulate --check`` call it on every state."""
        ...


PERFECT = "perfect"  # every seat sees the whole state (chance may still be to come)
IMPERFECT = "imperfect"  # some of the state is hidden from some seat (hands, a deck's order)


@dataclass(frozen=True)
class GameType:
    """What kind of game the rules make, declared as data (``Rules.game_type``)."""

    information: str = PERFECT  # PERFECT or IMPERFECT


PERFECT_INFORMATION = GameType(PERFECT)
IMPERFECT_INFORMATION = GameType(IMPERFECT)


@runtime_checkable
class HiddenState(Protocol):
    """A state of a game with hidden information."""

    def view(self, seat: int) -> Hashable:
        """What ``seat`` knows: equal for any two states that differ only in what it cannot see."""
        ...


class HiddenRules(Protocol):
    """The rules of a game with hidden information."""

    game_type: GameType

    def sample(self, view: Any, rng: random.Random) -> GameState[Any]:
        """A full state whose view for the view's seat is ``view``; the hidden part at random."""
        ...


def game_type(rules: Rules) -> GameType:
    """The rules' declared kind; perfect information when they declare none."""
    declared = getattr(rules, "game_type", None)
    return declared if isinstance(declared, GameType) else PERFECT_INFORMATION


def hides_information(rules: Rules) -> bool:
    return game_type(rules).information == IMPERFECT


def view_of(rules: Rules, state: GameState[Any], seat: int) -> Hashable:
    """What ``seat`` knows of ``state``: the state's ``view(seat)``, or the state itself in a game
    of perfect information."""
    if not hides_information(rules):
        return cast(Hashable, state)
    return cast(HiddenState, state).view(seat)


def sample_of(rules: Rules, view: Hashable, rng: random.Random) -> GameState[Any]:
    """A full state consistent with ``view`` (one made by :func:`view_of`), the hidden part
    drawn from ``rng``; in a game of perfect information, the state the view is."""
    if not hides_information(rules):
        return cast(GameState[Any], view)
    return cast(HiddenRules, rules).sample(view, rng)


@dataclass(frozen=True)
class Handicap:
    """A numeric handicap the rules offer (``Rules.handicap``, with ``Rules.handicapped(state,
    value)`` giving it to a game just set up): what it gives, to whom, and the whole numbers
    from ``low`` (none) to ``high`` it takes. ``simulate --compensate`` looks for the value
    that evens the first player's chances."""

    text: str  # "points added at the end to the second player's score"
    low: int
    high: int


# --- optional hooks: each a Protocol, checked with isinstance where rulepress looks for it ------


@runtime_checkable
class HandicapRules(Protocol):
    """Rules that offer a numeric handicap: ``handicap`` says what it gives, and
    ``handicapped(state, value)`` gives it to a game just set up."""

    handicap: Handicap

    def handicapped(self, state: Any, value: int) -> GameState[Any]: ...


@runtime_checkable
class ScoredState(Protocol):
    """A state that keeps running scores: ``standing()`` is each seat's points if the game
    ended now. Searching agents then judge a move by the share of the points it leaves."""

    def standing(self) -> Sequence[float]: ...


@runtime_checkable
class RankingAgent(Protocol):
    """An agent that ranks moves: ``value(state, move)``, higher better for the seat to act.
    A search it plays the playouts of compares only its best few moves."""

    def __call__(self, state: GameState[Any], rng: random.Random) -> Any: ...

    def value(self, state: Any, move: Any) -> float: ...


@runtime_checkable
class JudgingAgent(Protocol):
    """An agent that judges unfinished games: a search it plays the playouts of stops them
    ``horizon`` turns on and scores them by ``evaluate(state)``, each seat's chance of winning."""

    horizon: int

    def __call__(self, state: GameState[Any], rng: random.Random) -> Any: ...

    def evaluate(self, state: Any) -> Sequence[float]: ...


def handicap_of(rules: Rules) -> Handicap | None:
    """The handicap ``rules`` offer (see :class:`HandicapRules`), or None."""
    if isinstance(rules, HandicapRules) and isinstance(rules.handicap, Handicap):
        return rules.handicap
    return None


def handicapped(rules: Rules, state: GameState[Any], value: int) -> GameState[Any]:
    """``state`` (a game just set up) with the rules' handicap at ``value``."""
    return cast(HandicapRules, rules).handicapped(state, value)


def standing_of(state: GameState[Any]) -> tuple[float, ...] | None:
    """The running scores of a game in progress: each seat's points if it ended now, from the
    state's optional ``standing()`` (:class:`ScoredState`; a game with no running score has
    none: None)."""
    return tuple(state.standing()) if isinstance(state, ScoredState) else None


# --- deriving states ------------------------------------------------------------------------------

T = TypeVar("T")


_Layout = tuple[tuple[str, ...], frozenset[str], int, bool, Callable[..., None] | None]
_LAYOUTS: dict[type, _Layout] = {}  # per dataclass: what derive needs to know of it


def _layout(cls: type) -> _Layout:
    names = tuple(f.name for f in dataclasses.fields(cls))
    slotted = not hasattr(cls, "__dict__") or "__slots__" in cls.__dict__
    layout = names, frozenset(names), len(names), slotted, getattr(cls, "__post_init__", None)
    _LAYOUTS[cls] = layout
    return layout


def _no_field(cls: type, changes: Mapping[str, Any], known: frozenset[str]) -> TypeError:
    unknown = ", ".join(sorted(changes.keys() - known))
    return TypeError(f"{cls.__name__} has no field {unknown}")


def derive(state: T, **changes: Any) -> T:
    """A copy of the frozen dataclass ``state`` with ``changes``: ``dataclasses.replace`` without
    its per-call introspection. Only fields are copied, so anything derived from them (a
    ``cached_property``, a memo) is recomputed on the new state; ``__post_init__`` runs if the
    class has one. An unknown field name is a TypeError, as with ``replace``."""
    cls: type = state.__class__
    layout = _LAYOUTS.get(cls) or _layout(cls)
    names, known, count, slotted, post_init = layout
    new: T = object.__new__(cls)
    if slotted:
        if not changes.keys() <= known:
            raise _no_field(cls, changes, known)
        for name in names:
            value = changes[name] if name in changes else getattr(state, name)
            object.__setattr__(new, name, value)
    else:
        # The instance's dict holds the fields, and whatever was derived and cached since: it is
        # copied whole when that makes just the fields (the common case, and the fast one). The
        # new dict is a plain one, not sharing the class's keys: faster to copy again.
        old = state.__dict__
        fields = {**old, **changes}
        if len(fields) != count:  # derived values on the old state, or a name of no field
            fields = {name: old[name] for name in names}
            fields.update(changes)
            if len(fields) != count:
                raise _no_field(cls, changes, known)
        object.__setattr__(new, "__dict__", fields)
    if post_init is not None:
        post_init(new)
    return new


# --- playing through the protocol -----------------------------------------------------------------

Agent = Callable[[GameState[Any], random.Random], Any]
"""A player: given the state (its seat is ``state.current_player()``) and a random source,
return one of ``state.legal_moves()``. Must not change the state."""


def random_agent(state: GameState[Any], rng: random.Random) -> Any:
    """Uniformly random over the legal moves."""
    moves = state.legal_moves()
    return moves[rng.randrange(len(moves))] if len(moves) > 1 else moves[0]


def chance_move(state: GameState[Any], rng: random.Random) -> Any:
    """A chance outcome drawn by its probability."""
    outcomes = state.chance_outcomes()
    x = rng.random()
    total = 0.0
    for move, p in outcomes:
        total += p
        if x < total:
            return move
    return outcomes[-1][0]


class MoveRefused(RulesError):
    """The rules refused a move :func:`play_out` was given: by ``seat`` (CHANCE for a chance
    outcome) on ``state``. The rules' own error is the cause."""

    def __init__(self, state: GameState[Any], seat: int, move: Any, cause: RulesError) -> None:
        super().__init__(str(cause))
        self.state, self.seat, self.move, self.cause = state, seat, move, cause


@dataclass
class PlayedSoFar:
    """Where a :func:`play_out` has got to: the last state reached (whatever apply() returned)
    and the moves applied. Read after a failure to tell what failed, and where."""

    state: Any = None
    moves: int = 0


def play_out(
    state: GameState[Any],
    rng: random.Random,
    agents: Sequence[Agent] = (),
    *,
    randoms: Mapping[int, random.Random] | None = None,
    stop: Callable[[GameState[Any], int], bool] | None = None,
    on_move: Callable[[GameState[Any], Any], None] | None = None,
    progress: PlayedSoFar | None = None,
) -> GameState[Any]:
    """Play ``state`` to its end: seat ``k`` plays ``agents[k]`` (every seat random when none
    is given), chance is drawn from ``rng``. The one game loop: tests and simulation both play
    through it.

    ``randoms[seat]`` is a seat's own random source (``rng`` otherwise). ``stop(state, moves)``
    is asked before each move and ends the game early when true (a move cap); it may look at
    the state on the way (a trace, a check). ``on_move(state, move)`` sees each move before it
    is applied. A move the rules refuse raises :class:`MoveRefused`."""
    at = progress if progress is not None else PlayedSoFar()
    at.state, at.moves = state, 0
    while not state.is_over() and (stop is None or not stop(state, at.moves)):
        seat = state.current_player()
        if seat == CHANCE:
            move = chance_move(state, rng)
        elif agents:
            if not 0 <= seat < len(agents):  # a negative index would pick a seat silently
                raise IndexError(f"current_player() is {seat!r}, no seat of {len(agents)}")
            move = agents[seat](state, rng if randoms is None else randoms[seat])
        else:
            move = random_agent(state, rng if randoms is None else randoms[seat])
        if on_move is not None:
            on_move(state, move)
        try:
            state = state.apply(move)
        except RulesError as exc:
            raise MoveRefused(state, seat, move, exc) from exc
        at.state, at.moves = state, at.moves + 1
    return state


# The names these had (simulate/play.py imports them so until it moves to the new ones).


# --- the plug-in --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Figure:
    """A diagram of an example: a caption and a self-contained SVG document (no external refs).
    ``narrow``, when given, is the same diagram for a phone's screen (its stages one under
    another, no wider than PHONE_PX at a legible size): shown instead of ``svg`` there."""

    caption: str
    svg: str
    narrow: str = field(default="", repr=False)


PHONE_PX = 300  # CSS px: a figure's room on a 375 px phone, inside the page's and box's padding
STRIP_GAP = 10  # px between the strips of a figure cut for a phone


def in_strips(svg: str, height: float, strips: Sequence[Sequence[tuple[float, float]]]) -> str:
    """A wide figure cut for a phone: each strip is a row of x ranges of ``svg`` (its full
    ``height``; a range repeated on every strip, such as a board's row labels, stays in view),
    and the strips are stacked one under another. The drawing is referenced, not redrawn: the
    copies are nested viewports onto it. ``svg`` is a figure from one of a game's drawers (one
    root, a <title> kept once)."""
    head_end = svg.index(">", svg.index("<svg")) + 1
    body = svg[head_end:svg.rindex("</svg>")]
    title = ""
    if body.lstrip().startswith("<title>"):
        end = body.index("</title>") + len("</title>")
        title, body = body[:end], body[end:]
    width = max(sum(x1 - x0 for x0, x1 in row) for row in strips)
    total = len(strips) * height + (len(strips) - 1) * STRIP_GAP
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{total:g}" '
             f'viewBox="0 0 {width:g} {total:g}" font-family="{DIAGRAM_FONT}">', title]
    for k, row in enumerate(strips):
        x, y = 0.0, k * (height + STRIP_GAP)
        for x0, x1 in row:
            parts.append(f'<svg x="{x:g}" y="{y:g}" width="{x1 - x0:g}" height="{height:g}" '
                         f'viewBox="{x0:g} 0 {x1 - x0:g} {height:g}">{body}</svg>')
            x += x1 - x0
    parts.append("</svg>")
    return "".join(parts)


Drawer = Callable[["Canvas", "Face"], None]

Answer = bool | float | None
History = Sequence[tuple[GameState[Any], Any]]


@dataclass(frozen=True)
class Question:
    """A question about the game that simulation answers from every finished game it plays.

    ``ask(moves, end)`` gets the game's ``(state, move)`` pairs in order (chance outcomes
    included) and its final state. A ``rate`` question answers True or False and is reported as
    how often, with its 95% interval; a ``mean`` question answers a number and is reported as
    its mean and spread. Either answers None when the question does not arise in that game (the
    payoff of a 'go' in a game where nobody said 'go')."""

    name: str  # its key in summary.json and in a playtest report: a-z, 0-9 and _
    text: str  # the question, in a line
    ask: Callable[[History, GameState[Any]], Answer]
    kind: str = "rate"  # "rate" or "mean"


class GameEngine(Protocol):
    """What rulepress asks of a game plug-in: :class:`Engine` declares one. Each set-up part is
    a function of no argument, called when a command needs that part (so a game's kit code is
    imported only by a command that draws), timed, and blamed at its own line when it fails."""

    name: str

    def rules(self) -> Rules | None: ...

    @property
    def replay(self) -> Callable[[Mapping[str, Any]], Any] | None:
        """Replays an example's data once (ExampleDataError on bad data); None: no examples."""
        ...

    @property
    def facts(self) -> Callable[[Any], Mapping[str, Any]] | None:
        """The facts of a replay, which claims are compared with (None: the replay is them)."""
        ...

    @property
    def figures(self) -> Callable[[Any, Mapping[str, Any]], Sequence[Figure]] | None:
        """Figures drawn from a replay and its example's data (None: no figures)."""
        ...

    def component_counts(self) -> Mapping[str, int]:
        """Counts the engine itself relies on, by component id (e.g. {"deck": 52})."""
        ...

    def drawers(self) -> Mapping[str, Drawer]:
        """Print-and-play drawers by name, as the source's components name them."""
        ...

    def agents(self) -> Mapping[str, tuple[str, Agent]]:
        """Heuristic players by name: (one line saying how it plays, the agent)."""
        ...

    def questions(self) -> Sequence[Question]:
        """The game's own questions for simulation (may be empty)."""
        ...

    def tables(self) -> Mapping[str, Sequence[Mapping[str, Any]]]:
        """Data tables by name, each a list of rows (mappings of field to value)."""
        ...


def _none() -> None:
    return None


def _empty() -> Mapping[str, Any]:
    return {}


def _no_questions() -> Sequence[Question]:
    return ()


def _no_words() -> Sequence[str]:
    return ()


@dataclass(frozen=True)
class Engine:
    """A game plug-in declared as data: every part is optional.

    ``replay(example)`` replays an example's data once; ``facts(replay)`` and
    ``figures(replay, example)`` are read from that one replay (without ``facts``, the replay's
    value is the facts; without ``figures``, the example has none). The other parts are
    functions of no argument returning the part, called when a command needs it."""

    name: str
    rules: Callable[[], Rules | None] = _none
    replay: Callable[[Mapping[str, Any]], Any] | None = None
    facts: Callable[[Any], Mapping[str, Any]] | None = None
    figures: Callable[[Any, Mapping[str, Any]], Sequence[Figure]] | None = None
    component_counts: Callable[[], Mapping[str, int]] = _empty
    drawers: Callable[[], Mapping[str, Drawer]] = _empty
    tables: Callable[[], Mapping[str, Sequence[Mapping[str, Any]]]] = _empty
    agents: Callable[[], Mapping[str, tuple[str, Agent]]] = _empty
    questions: Callable[[], Sequence[Question]] = _no_questions
    # The words its figures print and its facts hold as text ("START", "home"): translators
    # see them in the game's catalog, and a translated book prints each as translated there.
    words: Callable[[], Sequence[str]] = _no_words

    def data(self, component: str) -> tuple[dict[str, Any], ...]:
        """The data rows of the game's component ``component``, as rulepress read them for
        its layouts (fields as written, ``qty`` a whole number): see rulepress.games.data."""
        return game_data(self, component)

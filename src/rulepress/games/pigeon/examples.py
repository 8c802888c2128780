"""Worked examples: build a position from an example's data, replay its moves, report facts.

Example schema (every key optional unless said)::

    seed: 12                  # instead of setup: the deal of a seeded game, before the opening
    setup:
      phase: opening          # or play (default): the opening is still under way
      turn: 1                 # whose turn, 1 or 2 (default 1; in the opening, whoever lays next)
      piles: {A: 7C, B: 5D 6S}       # bottom card first; a string or a list of cards
      hands: {1: 8H 9H 2C, 2: 5}     # the cards, or a number of unnamed cards
      decks: {1: 9H 3D, 2: 10}       # top card first, or a number of unnamed cards (default 10)
      limits: {1: 5, 2: 4}           # hand limits (default 5)
      pigeon: aside                  # aside (default), 1 or 2
      out: [KH, QH]                  # cards already out of play (named only if it matters)
    moves: ["8H 9H > A", "force KS > B", "pigeon", "sweep AC AD AS"]

Unnamed cards are the lowest cards (clubs A-K, then diamonds, hearts, spades) that the example
does not name elsewhere; cards named nowhere count as out of play, so the 52 always add up.

The replay stops at the first illegal move. Facts (players are 1 and 2; per-player mappings are
keyed "1" and "2"): legal, illegal_move, reason, moves_played, kinds (set, string, new pile,
forceplay, sweep, pigeon, draw, opening), piles {label: cards bottom first}, tops, pile_count,
completed (labels finished during the replay), pigeon (aside, 1 or 2), hands, hand_sizes,
limits, decks (cards left), drawn (cards drawn during the replay), out (cards out of play),
phase, turn (None once over), winner, win_reason, legal_moves, legal_move_count.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulepress.games.pigeon.cards import DECK, Card, parse_cards
from rulepress.games.pigeon.rules import (
    HAND_LIMIT,
    OPENING_ORDER,
    PENALTY_LIMIT,
    PILE_LABELS,
    Move,
    Phase,
    Pile,
    Play,
    Seat,
    State,
    Sweep,
    parse_move,
    play_kind,
    seeded_deal,
)
from rulepress.plugin import ExampleDataError, IllegalMove, NotationError, mapping

Path = tuple[str | int, ...]
DEFAULT_DECK = 10
SETUP_KEYS = {"phase", "turn", "piles", "hands", "decks", "limits", "pigeon", "out"}
DATA_KEYS = {"id", "title", "seed", "setup", "moves"}


@dataclass(frozen=True)
class Step:
    move: Move
    text: str
    kind: str
    player: int  # seat that made it
    before: State
    after: State | None  # None: the move was illegal
    reason: str = ""


@dataclass(frozen=True)
class Replay:
    start: State
    steps: tuple[Step, ...]

    @property
    def final(self) -> State:
        for step in reversed(self.steps):
            if step.after is not None:
                return step.after
        return self.start

    @property
    def illegal(self) -> Step | None:
        last = self.steps[-1] if self.steps else None
        return last if last is not None and last.after is None else None


# --- reading the data -------------------------------------------------------------------------



def _player(value: Any, path: Path) -> int:
    if str(value) not in ("1", "2"):
        raise ExampleDataError(f"'{value}' is not a player: write 1 or 2", path)
    return int(str(value)) - 1


def _per_player(value: Any, path: Path) -> dict[int, tuple[Any, Path]]:
    out: dict[int, tuple[Any, Path]] = {}
    for key, item in mapping(value, path, optional=True).items():
        out[_player(key, (*path, key))] = (item, (*path, key))
    return out


def _cards(value: Any, path: Path) -> tuple[Card, ...]:
    if isinstance(value, Card):
        return (value,)
    if not isinstance(value, str | list | tuple):
        raise ExampleDataError("expected cards, e.g. '7H 8H' or [7H, 8H]", path)
    try:
        return parse_cards(value)
    except NotationError as exc:
        raise ExampleDataError(str(exc), path) from None


class _Cards:
    """Hands out named cards (each once) and unnamed filler cards."""

    def __init__(self) -> None:
        self.named: dict[Card, Path] = {}

    def name(self, value: Any, path: Path) -> tuple[Card, ...]:
        cards = _cards(value, path)
        for c in cards:
            if c in self.named:
                where = ".".join(str(p) for p in self.named[c])
                raise ExampleDataError(f"{c} is named twice (also at {where})", path)
            self.named[c] = path
        return cards

    def filler(self, count: Any, path: Path) -> tuple[Card, ...]:
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ExampleDataError("expected cards or a number of cards", path)
        free = [c for c in DECK if c not in self.named]
        if count > len(free):
            raise ExampleDataError(f"only {len(free)} cards are left to deal", path)
        for c in free[:count]:
            self.named[c] = path
        return tuple(free[:count])


def build_state(setup_value: Any) -> State:
    base: Path = ("setup",)
    setup = mapping(setup_value, base, optional=True)
    for key in setup:
        if key not in SETUP_KEYS:
            raise ExampleDataError(
                f"unknown setup key '{key}' (known: {', '.join(sorted(SETUP_KEYS))})", (*base, key)
            )
    phase_text = str(setup.get("phase", "play"))
    if phase_text not in ("play", "opening"):
        raise ExampleDataError("phase is 'play' or 'opening'", (*base, "phase"))
    opening = phase_text == "opening"
    deal = _Cards()

    piles: list[Pile] = []
    for label, value in mapping(setup.get("piles"), (*base, "piles"), optional=True).items():
        path = (*base, "piles", label)
        name = str(label)
        if len(name) != 1 or name not in PILE_LABELS:
            raise ExampleDataError(f"'{label}' is not a pile: piles are letters A-Z", path)
        cards = deal.name(value, path)
        if not cards:
            raise ExampleDataError("a pile holds at least one card", path)
        piles.append(Pile(name, cards))
    if opening and len(piles) >= len(OPENING_ORDER):
        raise ExampleDataError("the opening lays only four piles", (*base, "piles"))

    limits = {0: HAND_LIMIT, 1: HAND_LIMIT}
    for seat, (value, path) in _per_player(setup.get("limits"), (*base, "limits")).items():
        if value not in (HAND_LIMIT, PENALTY_LIMIT) or isinstance(value, bool):
            raise ExampleDataError("a hand limit is 5, or 4 after a Forceplay", path)
        limits[seat] = value

    def cards_or_count(key: str, default: int) -> dict[int, tuple[Card, ...]]:
        given = _per_player(setup.get(key), (*base, key))
        out: dict[int, tuple[Card, ...]] = {}
        for seat in (0, 1):  # named cards first, so unnamed ones never collide with them
            value, path = given.get(seat, (None, (*base, key)))
            if value is not None and not isinstance(value, int):
                out[seat] = deal.name(value, path)
        for seat in (0, 1):
            value, path = given.get(seat, (None, (*base, key, seat + 1)))
            if seat not in out:
                out[seat] = deal.filler(default if value is None else value, path)
        return out

    out_cards = deal.name(setup.get("out", []), (*base, "out"))
    hands = cards_or_count("hands", HAND_LIMIT)
    decks = cards_or_count("decks", DEFAULT_DECK)
    for seat in (0, 1):
        if len(hands[seat]) > limits[seat] and not opening:
            raise ExampleDataError(
                f"Player {seat + 1} holds {len(hands[seat])} cards, more than the hand limit "
                f"of {limits[seat]}",
                (*base, "hands", seat + 1),
            )
        if not decks[seat]:
            raise ExampleDataError(
                f"Player {seat + 1}'s deck is empty: they would already have won",
                (*base, "decks", seat + 1),
            )

    pigeon_value = setup.get("pigeon", "aside")
    pigeon = None if pigeon_value == "aside" else _player(pigeon_value, (*base, "pigeon"))
    step = len(piles) if opening else 0
    default_turn = OPENING_ORDER[step] + 1 if opening else 1
    turn = _player(setup.get("turn", default_turn), (*base, "turn"))
    if opening and turn != OPENING_ORDER[step]:
        raise ExampleDataError(
            f"with {len(piles)} piles laid, Player {OPENING_ORDER[step] + 1} lays the next one",
            (*base, "turn"),
        )
    unnamed = tuple(c for c in DECK if c not in deal.named)
    state = State(
        seats=(
            Seat(decks[0], hands[0], limits[0]),
            Seat(decks[1], hands[1], limits[1]),
        ),
        piles=tuple(piles),
        pigeon=pigeon,
        out=out_cards + unnamed,
        to_move=turn,
        phase=Phase.OPENING if opening else Phase.PLAY,
        opening_step=step,
    )
    return state.at_turn_start()


def move_kind(state: State, move: Move) -> str:
    if isinstance(move, Play):
        if state.phase is Phase.OPENING:
            return "opening"
        if move.force:
            return "forceplay"
        if move.pile is None:
            return "new pile"
        return play_kind(move.cards) or "invalid"
    if isinstance(move, Sweep):
        return "sweep"
    return str(move)  # "pigeon", "draw"


def replay(example: Mapping[str, Any]) -> Replay:
    if "seed" in example and "setup" in example:
        raise ExampleDataError("give a seed or a setup, not both", ("seed",))
    if "seed" in example:
        seed = example["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ExampleDataError("a seed is a whole number", ("seed",))
        state = seeded_deal(seed)
    else:
        state = build_state(example.get("setup"))
    moves = example.get("moves", [])
    if isinstance(moves, str) or not isinstance(moves, Sequence):
        raise ExampleDataError("moves is a list, e.g. ['7H 8H > B']", ("moves",))
    steps: list[Step] = []
    current = state
    for i, text in enumerate(moves):
        try:
            move = parse_move(str(text))
            kind = move_kind(current, move)
            after = current.apply(move)
        except NotationError as exc:  # bad text, or a new pile with no letter left to name it
            raise ExampleDataError(str(exc), ("moves", i)) from None
        except IllegalMove as exc:
            steps.append(Step(move, str(text), kind, current.to_move, current, None, exc.reason))
            break
        steps.append(Step(move, str(text), kind, current.to_move, current, after))
        current = after
    return Replay(state, tuple(steps))


# --- facts ------------------------------------------------------------------------------------


def _who(seat: int | None) -> int | None:
    return None if seat is None else seat + 1


def _names(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def facts(r: Replay) -> dict[str, Any]:
    s = r.final
    bad = r.illegal
    drawn: dict[str, list[str]] = {"1": [], "2": []}
    for step in r.steps:
        if step.after is None:
            continue
        for seat in (0, 1):
            gone = len(step.before.seats[seat].deck) - len(step.after.seats[seat].deck)
            drawn[str(seat + 1)] += _names(step.before.seats[seat].deck[:gone])
    completed = list(s.completed[len(r.start.completed) :])
    legal_moves = [str(m) for m in s.legal_moves()]
    return {
        "legal": bad is None,
        "illegal_move": bad.text if bad else None,
        "reason": bad.reason if bad else None,
        "moves_played": sum(step.after is not None for step in r.steps),
        "kinds": [step.kind for step in r.steps if step.after is not None],
        "piles": {p.label: _names(p.cards) for p in s.piles},
        "tops": {p.label: str(p.top) for p in s.piles},
        "pile_count": len(s.piles),
        "completed": completed,
        "pigeon": "aside" if s.pigeon is None else s.pigeon + 1,
        "hands": {str(i + 1): _names(seat.hand) for i, seat in enumerate(s.seats)},
        "hand_sizes": {str(i + 1): len(seat.hand) for i, seat in enumerate(s.seats)},
        "limits": {str(i + 1): seat.limit for i, seat in enumerate(s.seats)},
        "decks": {str(i + 1): len(seat.deck) for i, seat in enumerate(s.seats)},
        "drawn": drawn,
        "out": len(s.out),
        "phase": s.phase.value,
        "turn": None if s.is_over() else s.to_move + 1,
        "winner": _who(s.winner),
        "win_reason": s.win_reason or None,
        "legal_moves": legal_moves,
        "legal_move_count": len(legal_moves),
    }


def checked_replay(example: Mapping[str, Any]) -> Replay:
    """The example replayed, once its keys are all known ones."""
    for key in example:
        if key not in DATA_KEYS:
            raise ExampleDataError(
                f"unknown example key '{key}' (known: {', '.join(sorted(DATA_KEYS))})", (key,)
            )
    return replay(example)

"""Worked examples: the data schema an ```example block uses, its replay, and the facts.

An example holds one of three kinds of data (any may be combined):

``allotment`` (who gets which pigeons)::

    allotment:
      players: [Elizabeth, Margaret, Silvia]
      dealt: {Elizabeth: [2, 6], Margaret: [1, 4], Silvia: [3, 5]}
      picks: {Elizabeth: 5}            # optional, per player
      orders: {Elizabeth: [6, 5, 2]}   # optional, per player

``first_draw`` (choosing the first player): each player's revealed cards, round by round::

    first_draw: {Elizabeth: [QH, 4C], Margaret: [9S], Silvia: [QD, 10H]}

``setup`` and ``moves`` (a race situation and the cards played from it)::

    setup:
      players: [Elizabeth, Margaret, Silvia]   # seat order; or a number 2..6
      to_move: Elizabeth                       # default: the first player listed
      trump: C                                 # the trump suit, or the turned-up card (9C)
      positions: {6: 0, 5: 4}                  # squares 0 (start line) to 30; default 0
      finished: [3]                            # pigeons across the finish line, in order
      hands: {Elizabeth: [6H, 2S]}             # up to five known cards; the rest unknown
      deck: 12                                 # cards left to draw: a number or a list (top first)
      orders: {Elizabeth: [6, 5, 2]}           # secret finishing orders
    moves: ["6H>6", "3C>2,5"]

A player whose hand is not fully listed is taken to hold, among her unknown cards, each card
she plays that is not seen elsewhere. The replay stops at the first illegal move.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulepress.games.pigeon_race.cards import DECK, Card
from rulepress.games.pigeon_race.rules import (
    ALLOTMENT,
    END_DECK_EMPTY,
    END_THREE_HOME,
    FINISHERS_TO_END,
    HAND_SIZE,
    HOME,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PIGEONS,
    SQUARES,
    START,
    Allotment,
    Move,
    SetupError,
    State,
    Step,
    check_allotment,
    first_player,
    half,
    tie_broken,
)
from rulepress.plugin import SUITS, ExampleDataError, IllegalMove, NotationError, listed, mapping

Path = tuple[str | int, ...]
_PIGEON_TEXT = {str(p) for p in PIGEONS}
HOME_WORD, FORWARD, BACKWARD = "home", "forward", "backward"  # as the facts say them
KNOWN_KEYS = {"setup", "moves", "allotment", "first_draw"}
SETUP_KEYS = {"players", "to_move", "trump", "positions", "finished", "hands", "deck", "orders"}


@dataclass(frozen=True)
class Replay:
    """An example's race: the states before and after each legal move, and where it stopped."""

    names: tuple[str, ...]
    states: tuple[State, ...]  # states[0] is the setup; one more per legal move
    moves: tuple[Move, ...]  # the legal moves played
    steps: tuple[tuple[Step, ...], ...]  # the movements of each legal move
    illegal: Move | None  # the move the replay stopped at
    reason: str | None  # why it is illegal


# --- small readers that name the offending key ----------------------------------------------




def _pigeon(value: Any, path: Path) -> int:
    if isinstance(value, bool) or str(value).strip() not in _PIGEON_TEXT:
        raise ExampleDataError(f"'{value}' is not a pigeon: pigeons are numbered 1 to 6", path)
    return int(value)


def _pigeons(value: Any, path: Path) -> tuple[int, ...]:
    items = listed(value, path)
    out = tuple(_pigeon(v, (*path, i)) for i, v in enumerate(items))
    if len(set(out)) != len(out):
        raise ExampleDataError("a pigeon is listed twice", path)
    return out


def _card(value: Any, path: Path) -> Card:
    try:
        return Card.parse(str(value))
    except NotationError as exc:
        raise ExampleDataError(str(exc), path) from None


def _names(value: Any, path: Path) -> tuple[str, ...]:
    if isinstance(value, int) and not isinstance(value, bool):
        names = tuple(f"Player {i + 1}" for i in range(value))
    else:
        names = tuple(str(v) for v in listed(value, path))
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise ExampleDataError(
            f"Pigeon Race is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(names)}", path
        )
    if len(set(names)) != len(names):
        raise ExampleDataError("a player is named twice", path)
    return names


def _seat(names: Sequence[str], value: Any, path: Path) -> int:
    if str(value) not in names:
        raise ExampleDataError(f"'{value}' is not one of the players ({', '.join(names)})", path)
    return names.index(str(value))


def _per_player(value: Any, names: Sequence[str], path: Path) -> dict[int, tuple[Any, Path]]:
    out: dict[int, tuple[Any, Path]] = {}
    for key, item in mapping(value, path).items():
        out[_seat(names, key, (*path, key))] = (item, (*path, key))
    return out


# --- facts -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Played:
    """An example replayed once: the facts of its allotment and first draw, and its race (None
    when it has no setup)."""

    facts: dict[str, Any]
    race: Replay | None


def replay_example(example: Mapping[str, Any]) -> Played:
    unknown = sorted(str(k) for k in example if k not in KNOWN_KEYS)
    if unknown:
        raise ExampleDataError(
            f"unknown example key '{unknown[0]}' (Pigeon Race examples use allotment, "
            "first_draw, setup and moves)",
            (unknown[0],),
        )
    if not any(k in example for k in KNOWN_KEYS):
        raise ExampleDataError("the example has no data: give allotment, first_draw or setup")
    facts: dict[str, Any] = {}
    race = None
    if "allotment" in example:
        facts.update(allotment_facts(example["allotment"]))
    if "first_draw" in example:
        facts.update(first_draw_facts(example["first_draw"]))
    if "setup" in example or "moves" in example:
        if "setup" not in example:
            raise ExampleDataError("moves need a setup to start from", ("moves",))
        if "allotment" in example:
            # Both kinds report legality; keep them apart rather than let one hide the other.
            raise ExampleDataError("give allotment or setup in an example, not both", ("setup",))
        race = replay(example)
    return Played(facts, race)


def played_facts(played: Played) -> dict[str, Any]:
    if played.race is None:
        return played.facts
    return {**played.facts, **race_facts(played.race)}


def allotment_facts(data: Any) -> dict[str, Any]:
    base: Path = ("allotment",)
    data = mapping(data, base)
    for key in data:
        if key not in {"players", "dealt", "picks", "orders"}:
            raise ExampleDataError(f"unknown allotment key '{key}'", (*base, key))
    if "players" not in data or "dealt" not in data:
        raise ExampleDataError("an allotment needs players and dealt", base)
    names = _names(data["players"], (*base, "players"))
    n = len(names)
    dealt_in = _per_player(data["dealt"], names, (*base, "dealt"))
    if len(dealt_in) != n:
        raise ExampleDataError("give the pigeons dealt to every player", (*base, "dealt"))
    dealt = tuple(_pigeons(*dealt_in[s]) for s in range(n))
    picks_in = _per_player(data.get("picks", {}), names, (*base, "picks"))
    orders_in = _per_player(data.get("orders", {}), names, (*base, "orders"))
    picks = {s: _pigeon(*picks_in[s]) for s in picks_in}
    orders = {s: _pigeons(*orders_in[s]) for s in orders_in}
    # Check with the engine's own rule: stand-ins for missing picks and orders check nothing.
    # A player dealt every pigeon has no stand-in pick; the count check rejects that first.
    full_picks = tuple(
        picks.get(s, next((p for p in PIGEONS if p not in dealt[s]), PIGEONS[0]))
        for s in range(n)
    )
    full_orders = tuple(orders.get(s, tuple(sorted(dealt[s] + (full_picks[s],)))) for s in range(n))
    allotment = Allotment(dealt, full_picks, full_orders)
    random_count, picked_count = ALLOTMENT[n]
    facts: dict[str, Any] = {
        "dealt_each": random_count,
        "picked_each": picked_count,
        "pigeons_each": random_count + picked_count,
        "set_aside": list(allotment.set_aside),
        "pigeons": {
            names[s]: sorted(dealt[s] + ((picks[s],) if s in picks else ())) for s in range(n)
        },
        "targets": {
            names[s]: {p: i + 1 for i, p in enumerate(order)} for s, order in orders.items()
        },
    }
    try:
        check_allotment(allotment)
    except SetupError as exc:
        facts.update(legal=False, reason=exc.reason)
    else:
        facts.update(legal=True, reason=None)
    return facts


def first_draw_facts(data: Any) -> dict[str, Any]:
    base: Path = ("first_draw",)
    data = mapping(data, base)
    names = _names(list(data), base)
    draws = [
        tuple(_card(c, (*base, name, i)) for i, c in enumerate(listed(data[name], (*base, name))))
        for name in data
    ]
    seen: set[Card] = set()
    for name, cards in zip(data, draws, strict=True):
        for i, card in enumerate(cards):
            if card in seen:
                raise ExampleDataError(f"{card} is turned up twice", (*base, name, i))
            seen.add(card)
    try:
        seat, rounds = first_player(draws)
    except SetupError as exc:
        raise ExampleDataError(exc.reason, base) from None
    return {"first_player": names[seat], "draw_rounds": rounds}


def race_facts(r: Replay) -> dict[str, Any]:
    state = r.states[-1]
    names = r.names
    seats = [s for s in range(len(names)) if state.orders[s]]
    facts: dict[str, Any] = {
        "legal": r.illegal is None,
        "illegal_move": str(r.illegal) if r.illegal else None,
        "reason": r.reason,
        "trump": state.trump,
        "positions": {p: _where(state.positions[p - 1]) for p in PIGEONS},
        "moved": _moved(r.steps),
        "push": [half(m.card.rank) for m in r.moves],
        "direction": [FORWARD if m.card.red else BACKWARD for m in r.moves],
        "finished": list(state.finished),
        "over": state.is_over(),
        "end": state.end,
        "to_move": None if state.is_over() else names[state.to_move],
        "deck": len(state.deck),
        "ranking": list(state.ranking()),
        "places": state.places(),
        "scores": None,
        "points": None,
        "winner": None,
        "winners": None,
        "tie_break": None,
    }
    if state.is_over() and seats:
        points = state.points()
        facts["scores"] = {names[s]: sum(points[s]) for s in seats}
        facts["points"] = {names[s]: list(points[s]) for s in seats}
        if len(seats) == len(names):
            won = state.winners()
            facts["winners"] = [names[s] for s in won]
            facts["winner"] = names[won[0]] if len(won) == 1 else None
            facts["tie_break"] = tie_broken(state)
    return facts


def _where(position: int) -> int | str:
    return HOME_WORD if position == HOME else position


def _moved(steps: Sequence[Sequence[Step]]) -> dict[int, int]:
    """Net squares each pigeon moved over the whole example (crossing counts to square 31)."""
    start: dict[int, int] = {}
    end: dict[int, int] = {}
    for turn in steps:
        for s in turn:
            start.setdefault(s.pigeon, s.start)
            end[s.pigeon] = s.end
    return {p: end[p] - start[p] for p in sorted(start)}


# --- building the race from the data -------------------------------------------------------


def replay(example: Mapping[str, Any]) -> Replay:
    setup = mapping(example.get("setup"), ("setup",))
    for key in setup:
        if key not in SETUP_KEYS:
            raise ExampleDataError(
                f"unknown setup key '{key}' (use {', '.join(sorted(SETUP_KEYS))})", ("setup", key)
            )
    moves = _parse_moves(example.get("moves", []))
    names, state = _build_state(setup, moves)
    states = [state]
    played: list[Move] = []
    steps: list[tuple[Step, ...]] = []
    for move in moves:
        try:
            state, turn = state.play(move)
        except IllegalMove as exc:
            return Replay(names, tuple(states), tuple(played), tuple(steps), move, exc.reason)
        states.append(state)
        played.append(move)
        steps.append(turn)
    return Replay(names, tuple(states), tuple(played), tuple(steps), None, None)


def _parse_moves(value: Any) -> list[Move]:
    out = []
    for i, text in enumerate(listed(value, ("moves",))):
        try:
            out.append(Move.parse(str(text)))
        except NotationError as exc:
            raise ExampleDataError(str(exc), ("moves", i)) from None
    return out


def _build_state(setup: Mapping[Any, Any], moves: Sequence[Move]) -> tuple[tuple[str, ...], State]:
    """A complete, consistent state from partial data; unknown cards are filled in a fixed
    order so that every card is somewhere exactly once."""
    if "players" not in setup:
        raise ExampleDataError("the setup needs players (their names in seat order)", ("setup",))
    names = _names(setup["players"], ("setup", "players"))
    n = len(names)
    to_move = _seat(names, setup["to_move"], ("setup", "to_move")) if "to_move" in setup else 0

    # Pigeons.
    finished = _pigeons(setup.get("finished", []), ("setup", "finished"))
    positions = [START] * len(PIGEONS)
    for p in finished:
        positions[p - 1] = HOME
    for key, value in mapping(setup.get("positions", {}), ("setup", "positions")).items():
        path: Path = ("setup", "positions", key)
        p = _pigeon(key, path)
        if p in finished:
            raise ExampleDataError(f"pigeon {p} is listed as finished", path)
        if isinstance(value, bool) or not isinstance(value, int) or not START <= value <= SQUARES:
            raise ExampleDataError(
                f"'{value}' is not a square: use 0 (the start line) to {SQUARES}; list pigeons "
                "across the finish line under finished",
                path,
            )
        positions[p - 1] = value

    # Orders.
    orders: list[tuple[int, ...]] = [()] * n
    size = sum(ALLOTMENT[n])
    for seat, (value, path) in _per_player(
        setup.get("orders", {}), names, ("setup", "orders")
    ).items():
        order = _pigeons(value, path)
        if len(order) != size:
            raise ExampleDataError(
                f"with {n} players each order lists {size} pigeons, not {len(order)}", path
            )
        orders[seat] = order

    # Cards: known ones first, then unknown slots (negative numbers) filled at the end.
    seen: dict[Card, Path] = {}

    def known(card: Card, path: Path) -> Card:
        if card in seen:
            raise ExampleDataError(f"{card} is in two places", path)
        seen[card] = path
        return card

    if "trump" not in setup:
        raise ExampleDataError("the setup needs the trump suit (trump: C, D, H or S)", ("setup",))
    trump_text = str(setup["trump"]).strip().upper()
    trump_card: Card | None = None
    if trump_text in SUITS:
        trump_suit = trump_text
    else:
        trump_card = known(_card(trump_text, ("setup", "trump")), ("setup", "trump"))
        trump_suit = trump_card.suit

    next_slot = -1
    hands: list[list[Card | int]] = [[] for _ in range(n)]
    for seat, (value, path) in _per_player(
        setup.get("hands", {}), names, ("setup", "hands")
    ).items():
        cards = listed(value, path)
        if len(cards) > HAND_SIZE:
            raise ExampleDataError(f"a hand holds {HAND_SIZE} cards", path)
        hands[seat] = [known(_card(c, (*path, i)), (*path, i)) for i, c in enumerate(cards)]
    for hand in hands:
        while len(hand) < HAND_SIZE:
            hand.append(next_slot)
            next_slot -= 1

    deck_value = setup.get("deck")
    deck: list[Card | int] = []
    if isinstance(deck_value, list):
        deck = [
            known(_card(c, ("setup", "deck", i)), ("setup", "deck", i))
            for i, c in enumerate(deck_value)
        ]
    elif deck_value is not None:
        if isinstance(deck_value, bool) or not isinstance(deck_value, int) or deck_value < 0:
            raise ExampleDataError(
                "deck is a number of cards or a list of cards", ("setup", "deck")
            )
        deck = [0] * deck_value  # unknown cards, filled from the pool below
    if not deck and deck_value is not None and len(finished) < FINISHERS_TO_END and moves:
        raise ExampleDataError("with an empty deck the race is already over", ("setup", "deck"))

    # Dry run: which unknown hand slot does each played card come from?
    assigned: dict[int, Card] = {}
    dry_hands = [list(h) for h in hands]
    draw_pile = list(deck)
    seat = to_move
    for move in moves:
        hand = dry_hands[seat]
        if move.card in hand:
            hand.remove(move.card)
        elif move.card not in seen and move.card not in assigned.values():
            slot = next((c for c in hand if isinstance(c, int) and c < 0), None)
            if slot is None:
                break  # the replay reports the card as not in hand
            assigned[slot] = move.card
            hand.remove(slot)
        else:
            break
        if draw_pile:
            hand.append(draw_pile.pop(0))
        seat = (seat + 1) % n

    pool = [c for c in DECK if c not in seen and c not in assigned.values()]
    if trump_card is None:
        trump_card = next((c for c in pool if c.suit == trump_suit), None)
        if trump_card is None:
            raise ExampleDataError(
                f"every {trump_suit} card is placed elsewhere, so none is left to turn up as trump",
                ("setup", "trump"),
            )
        pool.remove(trump_card)

    def fill(slot: Card | int) -> Card:
        if isinstance(slot, Card):
            return slot
        if slot in assigned:
            return assigned[slot]
        if not pool:
            raise ExampleDataError("more cards than a 52-card deck holds", ("setup",))
        return pool.pop(0)

    final_hands = tuple(tuple(fill(c) for c in hand) for hand in hands)
    if deck_value is None:  # no deck given: every card not placed elsewhere is still to draw
        final_deck = tuple(pool)
        pool.clear()
    else:
        final_deck = tuple(fill(c) for c in deck)
    end = None
    if len(finished) >= FINISHERS_TO_END:
        end = END_THREE_HOME
    elif not final_deck:
        end = END_DECK_EMPTY
    state = State(
        positions=tuple(positions),
        finished=finished,
        hands=final_hands,
        deck=final_deck,
        discard=tuple(pool),  # cards in no other place have been played already
        trump_card=trump_card,
        to_move=to_move,
        orders=tuple(orders),
        end=end,
    )
    return names, state

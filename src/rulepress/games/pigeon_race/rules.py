"""Pigeon Race rules: setup, moves, the race, the end and the scores. Pure and deterministic.

Decisions on everything the original leaves open are listed in the rulebook's Clarifications
appendix (sources/pigeon-race/rules.md); the short tags (PR-n) name them in comments here.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rulepress.games.pigeon_race.cards import DECK, Card, CardError

PIGEONS = (1, 2, 3, 4, 5, 6)
SQUARES = 30  # squares 1..30 of each lane; 0 is the start line
START = 0
HOME = SQUARES + 1  # a pigeon past square 30 has crossed the finish line
HAND_SIZE = 5
FINISHERS_TO_END = 3
MIN_PLAYERS, MAX_PLAYERS = 2, 6

# Players -> (pigeons dealt at random, pigeons picked); a player ranks the sum of both.
ALLOTMENT: Mapping[int, tuple[int, int]] = {2: (3, 1), 3: (2, 1), 4: (1, 1), 5: (1, 1), 6: (1, 1)}

# The wall rule: the two pigeons pushed when a pigeon moves (by lane number, not by position).
NEIGHBOURS: Mapping[int, tuple[int, int]] = {
    1: (2, 3),
    2: (1, 3),
    3: (2, 4),
    4: (3, 5),
    5: (4, 6),
    6: (4, 5),
}

END_THREE_HOME = "three pigeons home"
END_DECK_EMPTY = "deck empty"

# Stable reasons for illegal moves (examples claim them word for word).
R_GAME_OVER = "the game is over"
R_NOT_IN_HAND = "the card is not in the player's hand"
R_ONE_PIGEON = "a card that is not a trump moves exactly one pigeon"
R_TWO_DIFFERENT = "a trump moves one pigeon or two different pigeons"
R_FINISHED = "a pigeon that has crossed the finish line cannot be moved"

# Stable reasons for an invalid allotment.
R_ALLOT_COUNT = "each player must be dealt the number of pigeons the allotment table gives"
R_ALLOT_SHARED = "a pigeon can be dealt to only one player"
R_PICK_OWN = "the extra pigeon must be one the player was not dealt"
R_ORDER_PIGEONS = "the finishing order must list the player's own pigeons, each once"


class PigeonRaceError(ValueError):
    """Base of the engine's errors."""


class NotationError(PigeonRaceError):
    """Text that is not a move (bad syntax)."""


class IllegalMoveError(PigeonRaceError):
    """A well-formed move the rules forbid in this position; ``reason`` is stable text."""

    def __init__(self, move: Move, reason: str) -> None:
        super().__init__(f"{move} is illegal: {reason}")
        self.move = move
        self.reason = reason


class SetupError(PigeonRaceError):
    """A setup the rules forbid; ``reason`` is stable text."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}{': ' + detail if detail else ''}")
        self.reason = reason


def half(value: int) -> int:
    """Squares a neighbour is pushed: half the card's value, rounded up."""
    return (value + 1) // 2


def score(target: int, place: int) -> int:
    """The scoring table: 6 for the exact place, then 4, 3, 2, 1, 0 as the miss grows."""
    return 6 if target == place else max(0, 5 - abs(target - place))


SCORE_TABLE: tuple[tuple[int, ...], ...] = tuple(
    tuple(score(t, a) for a in PIGEONS) for t in PIGEONS
)

_MOVE = re.compile(r"^\s*(\w{2,3})\s*>\s*([1-6])\s*(?:,\s*([1-6])\s*)?$")


@dataclass(frozen=True, slots=True)
class Move:
    """Play ``card`` on one pigeon, or on two with a trump: ``6H>6``, ``3C>2,5``."""

    card: Card
    pigeons: tuple[int, ...]

    def __str__(self) -> str:
        return f"{self.card}>{','.join(map(str, self.pigeons))}"

    @classmethod
    def parse(cls, text: str) -> Move:
        m = _MOVE.match(str(text))
        if not m:
            raise NotationError(
                f"'{text}' is not a move: write card>pigeon (6H>6) or card>pigeon,pigeon "
                "for a trump (3C>2,5); pigeons are 1 to 6"
            )
        try:
            card = Card.parse(m.group(1))
        except CardError as exc:
            raise NotationError(str(exc)) from None
        pigeons = (int(m.group(2)),) if m.group(3) is None else (int(m.group(2)), int(m.group(3)))
        return cls(card, pigeons)


@dataclass(frozen=True, slots=True)
class Step:
    """One pigeon's movement inside a turn: the card's value (``push`` False) or half of it."""

    pigeon: int
    start: int
    end: int  # HOME when it crossed the finish line
    push: bool


@dataclass(frozen=True, slots=True)
class State:
    """Everything about a race in progress. Cards live in exactly one of hands, deck, discard
    or the trump indicator."""

    positions: tuple[int, ...]  # pigeon n at positions[n - 1]: 0 start line, 1..30, HOME
    finished: tuple[int, ...]  # pigeons across the finish line, in the order they crossed
    hands: tuple[tuple[Card, ...], ...]  # one per player, seat order (clockwise)
    deck: tuple[Card, ...]  # draw pile, top card first
    discard: tuple[Card, ...]  # played cards, latest last
    trump_card: Card  # turned up at setup; lies face up beside the deck, out of play
    to_move: int  # seat index of the player whose turn it is
    orders: tuple[tuple[int, ...], ...]  # each player's secret finishing order (may be ())
    end: str | None = None  # None while the race runs, else END_THREE_HOME / END_DECK_EMPTY

    @property
    def trump(self) -> str:
        return self.trump_card.suit

    @property
    def over(self) -> bool:
        return self.end is not None

    def ranking(self) -> tuple[int, ...]:
        """Pigeons by place: finishers in crossing order, then the rest by how far they are,
        the lower number first on a shared square (PR-23)."""
        rest = sorted(
            (p for p in PIGEONS if p not in self.finished),
            key=lambda p: (-self.positions[p - 1], p),
        )
        return self.finished + tuple(rest)

    def places(self) -> dict[int, int]:
        return {p: i + 1 for i, p in enumerate(self.ranking())}

    def points(self) -> tuple[tuple[int, ...], ...]:
        """Per player, the points of each pigeon in the order the player wrote."""
        places = self.places()
        return tuple(
            tuple(score(i + 1, places[p]) for i, p in enumerate(order)) for order in self.orders
        )

    def scores(self) -> tuple[int, ...]:
        return tuple(sum(p) for p in self.points())

    def winners(self) -> tuple[int, ...]:
        """Seats of the winners: most points, then the best-placed listed pigeons (PR-26)."""
        return winners(self.scores(), self.orders, self.ranking())


def winners(
    scores: Sequence[int], orders: Sequence[Sequence[int]], ranking: Sequence[int]
) -> tuple[int, ...]:
    if not scores:
        return ()
    best = max(scores)
    tied = [i for i, s in enumerate(scores) if s == best]
    if len(tied) == 1:
        return tuple(tied)
    place = {p: i + 1 for i, p in enumerate(ranking)}
    keys = {i: sorted(place[p] for p in orders[i]) for i in tied}
    top = min(keys.values())
    return tuple(i for i in tied if keys[i] == top)


def tie_broken(state: State) -> bool:
    """Did the tie-break decide (or share) the win, rather than points alone?"""
    scores = state.scores()
    return bool(scores) and scores.count(max(scores)) > 1


def resolve(state: State, move: Move) -> tuple[Step, ...]:
    """The pigeons' movements a legal move makes, in order: the moved pigeon(s) first, then
    each one's two neighbours, lower number first (PR-17). Order decides finishing order."""
    card = move.card
    sign = 1 if card.red else -1
    pos = list(state.positions)
    steps: list[Step] = []

    def shift(pigeon: int, amount: int, push: bool) -> None:
        start = pos[pigeon - 1]
        if start == HOME:  # finished pigeons are off the board (PR-11)
            return
        end = start + sign * amount
        if end < START:
            end = START  # the start line stops a backward move (PR-10)
        elif end > SQUARES:
            end = HOME
        pos[pigeon - 1] = end
        steps.append(Step(pigeon, start, end, push))

    for p in move.pigeons:
        shift(p, card.rank, False)
    amount = half(card.rank)
    for p in move.pigeons:
        for q in NEIGHBOURS[p]:
            shift(q, amount, True)
    return tuple(steps)


def check(state: State, move: Move) -> None:
    """Raise IllegalMoveError unless ``move`` is legal for the player to move."""
    if state.end is not None:
        raise IllegalMoveError(move, R_GAME_OVER)
    if move.card not in state.hands[state.to_move]:
        raise IllegalMoveError(move, R_NOT_IN_HAND)
    n = len(move.pigeons)
    if move.card.suit != state.trump_card.suit:
        if n != 1:
            raise IllegalMoveError(move, R_ONE_PIGEON)
    elif n not in (1, 2) or (n == 2 and move.pigeons[0] == move.pigeons[1]):
        raise IllegalMoveError(move, R_TWO_DIFFERENT)
    for p in move.pigeons:
        if p not in PIGEONS:
            raise IllegalMoveError(move, "there are only pigeons 1 to 6")
        if state.positions[p - 1] == HOME:
            raise IllegalMoveError(move, R_FINISHED)


def apply_move(state: State, move: Move) -> State:
    """The state after ``move``: pigeons moved, card discarded, a card drawn, next player."""
    return play(state, move)[0]


def play(state: State, move: Move) -> tuple[State, tuple[Step, ...]]:
    """Like apply_move, also returning the movements (for facts and diagrams)."""
    check(state, move)
    steps = resolve(state, move)
    return _apply(state, move, steps), steps


def _apply(state: State, move: Move, steps: tuple[Step, ...]) -> State:
    pos = list(state.positions)
    finished = state.finished
    for s in steps:
        pos[s.pigeon - 1] = s.end
        if s.end == HOME:
            finished += (s.pigeon,)
    seat = state.to_move
    hand = list(state.hands[seat])
    hand.remove(move.card)
    deck = state.deck
    end: str | None = None
    if len(finished) >= FINISHERS_TO_END:
        end = END_THREE_HOME  # the whole play resolves first, then the race ends (PR-20)
    else:
        if deck:
            hand.append(deck[0])
            deck = deck[1:]
        if not deck:
            end = END_DECK_EMPTY  # the draw took the last card (PR-21)
    hands = state.hands[:seat] + (tuple(hand),) + state.hands[seat + 1 :]
    return State(
        positions=tuple(pos),
        finished=finished,
        hands=hands,
        deck=deck,
        discard=state.discard + (move.card,),
        trump_card=state.trump_card,
        to_move=(seat + 1) % len(state.hands),
        orders=state.orders,
        end=end,
    )


# legal_moves is the hot loop of random games: moves are immutable, so build each list once.
_MOVES_CACHE: dict[tuple[Card, bool, tuple[int, ...]], tuple[Move, ...]] = {}


def _moves_for(card: Card, trump: bool, movable: tuple[int, ...]) -> tuple[Move, ...]:
    key = (card, trump, movable)
    moves = _MOVES_CACHE.get(key)
    if moves is None:
        single = [Move(card, (p,)) for p in movable]
        pairs = [Move(card, (a, b)) for a in movable for b in movable if a != b] if trump else []
        moves = _MOVES_CACHE[key] = tuple(single + pairs)
    return moves


def legal_moves(state: State) -> list[Move]:
    """Every legal move, in a fixed order: hand order, then single pigeons, then ordered pairs."""
    if state.end is not None:
        return []
    movable = tuple(p for p in PIGEONS if state.positions[p - 1] != HOME)
    trump = state.trump_card.suit
    out: list[Move] = []
    for card in state.hands[state.to_move]:
        out.extend(_moves_for(card, card.suit == trump, movable))
    return out


# --- setup -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Allotment:
    """Who was dealt which pigeons, each player's extra pick, and the secret orders."""

    dealt: tuple[tuple[int, ...], ...]
    picks: tuple[int, ...]
    orders: tuple[tuple[int, ...], ...]

    @property
    def set_aside(self) -> tuple[int, ...]:
        dealt = {p for d in self.dealt for p in d}
        return tuple(p for p in PIGEONS if p not in dealt)

    def pigeons(self, seat: int) -> tuple[int, ...]:
        return tuple(sorted(self.dealt[seat] + (self.picks[seat],)))


def check_players(n: int) -> None:
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise SetupError(f"Pigeon Race is for {MIN_PLAYERS} to {MAX_PLAYERS} players", str(n))


def check_allotment(a: Allotment) -> None:
    """Raise SetupError unless the allotment follows the table (PR-3, PR-4, PR-6)."""
    n = len(a.dealt)
    check_players(n)
    dealt_count, _ = ALLOTMENT[n]
    seen: set[int] = set()
    for seat, dealt in enumerate(a.dealt):
        if len(dealt) != dealt_count or any(p not in PIGEONS for p in dealt):
            raise SetupError(R_ALLOT_COUNT, f"player {seat + 1}")
        if seen & set(dealt) or len(set(dealt)) != len(dealt):
            raise SetupError(R_ALLOT_SHARED, f"player {seat + 1}")
        seen |= set(dealt)
    for seat, pick in enumerate(a.picks):
        if pick not in PIGEONS or pick in a.dealt[seat]:
            raise SetupError(R_PICK_OWN, f"player {seat + 1}")
    for seat, order in enumerate(a.orders):
        if sorted(order) != list(a.pigeons(seat)):
            raise SetupError(R_ORDER_PIGEONS, f"player {seat + 1}")


def deal_pigeons(n: int, rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """Shuffle the ace-to-six cards and deal them one at a time; leftovers are set aside."""
    check_players(n)
    cards = list(PIGEONS)
    rng.shuffle(cards)
    per = ALLOTMENT[n][0]
    return tuple(tuple(sorted(cards[seat::n][:per])) for seat in range(n))


def first_player(draws: Sequence[Sequence[Card]]) -> tuple[int, int]:
    """Seat of the first player from each player's revealed cards, and the rounds it took.

    ``draws[seat]`` lists the cards that player turned up, round by round; only the players tied
    for the highest card draw again (PR-13). Raises SetupError when the draws do not fit that.
    """
    contenders = list(range(len(draws)))
    rounds = 0
    while True:
        if any(len(draws[s]) <= rounds for s in contenders):
            raise SetupError("every player still tied for the highest card draws again")
        ranks = {s: draws[s][rounds].rank for s in contenders}
        rounds += 1
        best = max(ranks.values())
        dropped = [s for s in contenders if ranks[s] != best]
        contenders = [s for s in contenders if ranks[s] == best]
        for s in dropped:
            if len(draws[s]) > rounds:
                raise SetupError("only the players tied for the highest card draw again")
        if len(contenders) == 1:
            if len(draws[contenders[0]]) > rounds:
                raise SetupError("only the players tied for the highest card draw again")
            return contenders[0], rounds


@dataclass(frozen=True)
class Setup:
    """A seeded game's setup: the allotment, the first-player draws and the starting state."""

    allotment: Allotment
    draws: tuple[tuple[Card, ...], ...]
    state: State


def new_game(players: int, rng: random.Random, allotment: Allotment | None = None) -> Setup:
    """Set up a race with chance taken from ``rng``: pigeons and secret orders (random unless
    ``allotment`` is given), shuffle, hands, trump and the draw for the first player."""
    check_players(players)
    if allotment is None:
        dealt = deal_pigeons(players, rng)
        picks = tuple(rng.choice([p for p in PIGEONS if p not in d]) for d in dealt)
        lists = []
        for d, pick in zip(dealt, picks, strict=True):
            mine = list(d) + [pick]
            rng.shuffle(mine)
            lists.append(tuple(mine))
        allotment = Allotment(dealt, picks, tuple(lists))
    check_allotment(allotment)
    deck = list(DECK)
    rng.shuffle(deck)
    hands = tuple(tuple(deck[seat::players][:HAND_SIZE]) for seat in range(players))
    rest = deck[players * HAND_SIZE :]
    trump_card = rest.pop(0)
    # Each player turns up the top card; tied leaders turn up another; then all go back.
    revealed: list[list[Card]] = [[] for _ in range(players)]
    contenders = list(range(players))
    while len(contenders) > 1:
        for s in contenders:
            revealed[s].append(rest.pop(0))
        best = max(revealed[s][-1].rank for s in contenders)
        contenders = [s for s in contenders if revealed[s][-1].rank == best]
    for cards in revealed:
        rest.extend(cards)
    rng.shuffle(rest)
    draws = tuple(tuple(c) for c in revealed)
    state = State(
        positions=(START,) * len(PIGEONS),
        finished=(),
        hands=hands,
        deck=tuple(rest),
        discard=(),
        trump_card=trump_card,
        to_move=contenders[0],
        orders=allotment.orders,
    )
    return Setup(allotment, draws, state)


@dataclass(frozen=True)
class Game:
    """A complete game: its setup, the moves played and the final state."""

    setup: Setup
    moves: tuple[Move, ...]
    final: State


def random_game(seed: int, players: int | None = None) -> Game:
    """A complete game from ``seed``: random setup, then uniformly random legal moves."""
    rng = random.Random(seed)
    n = players if players is not None else rng.randint(MIN_PLAYERS, MAX_PLAYERS)
    setup = new_game(n, rng)
    state = setup.state
    moves: list[Move] = []
    while state.end is None:
        move = rng.choice(legal_moves(state))
        moves.append(move)
        state = _apply(state, move, resolve(state, move))
    return Game(setup, tuple(moves), state)


def all_cards(state: State) -> list[Card]:
    """Every card the state holds, wherever it is (for the one-place-each invariant)."""
    cards = [c for hand in state.hands for c in hand]
    return cards + list(state.deck) + list(state.discard) + [state.trump_card]

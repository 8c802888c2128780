"""Pigeon Race rules: setup, moves, the race, the end and the scores. Pure and deterministic.

The engine follows the rules protocol of :mod:`rulepress.games.base`. :data:`RULES` sets a race
up from a seed: the pigeons dealt and picked, the secret orders, the shuffle and the draw for the
first player all come from it, so a race holds no later chance (``chance_outcomes()`` is empty).
A :class:`State` lists its legal moves, applies one (one move is one player's whole turn) and,
once the race is over, gives its :class:`~rulepress.games.base.Outcome`: winners, points and the
end in the rulebook's words, "three pigeons home" or "deck empty".

Decisions on everything the original leaves open are listed in the rulebook's Clarifications
appendix (sources/pigeon-race/rules.md); the short tags (PR-n) name them in comments here.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import permutations
from typing import Any, NamedTuple

from rulepress.games.pigeon_race.cards import DECK, Card
from rulepress.plugin import (
    IMPERFECT_INFORMATION,
    GameState,
    Handicap,
    IllegalMove,
    NotationError,
    Outcome,
    Variant,
    derive,
    misplaced,
)

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


class SetupError(ValueError):
    """A setup the rules forbid (an allotment, the draw for the first player); ``reason`` is
    stable text. Not a move, so not one of the move errors."""

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

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Move:
        """'6H>6', '3C>2,5' -> Move. Raises NotationError."""
        m = _MOVE.match(str(text))
        if not m:
            raise NotationError(
                f"'{text}' is not a move: write card>pigeon (6H>6) or card>pigeon,pigeon "
                "for a trump (3C>2,5); pigeons are 1 to 6"
            )
        card = Card.parse(m.group(1))
        pigeons = (int(m.group(2)),) if m.group(3) is None else (int(m.group(2)), int(m.group(3)))
        return cls(card, pigeons)


class Step(NamedTuple):
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
    bonus: tuple[int, ...] = ()  # a handicap's points, added to each player's score (or none)

    @property
    def trump(self) -> str:
        return self.trump_card.suit

    # -- the rules protocol --

    def current_player(self) -> int:
        return self.to_move

    def legal_moves(self) -> list[Move]:
        """Every legal move, in a fixed order: hand order, then single pigeons, then ordered
        pairs."""
        if self.end is not None:
            return []
        return moves_with(self.hands[self.to_move], self.trump_card, self.finished)

    def chance_outcomes(self) -> tuple[()]:
        return ()  # every shuffle and draw happened at setup, from the seed

    def view(self, seat: int) -> View:
        """What ``seat`` knows: the lanes, the discards, the trump, its own hand and secret
        order; of the others' hands and orders and of the deck, only the sizes (every order
        once the race is over: the scoring shows them)."""
        return View(
            seat=seat,
            positions=self.positions,
            finished=self.finished,
            hand=self.hands[seat],
            hand_sizes=tuple(len(h) for h in self.hands),
            deck_size=len(self.deck),
            discard=self.discard,
            trump_card=self.trump_card,
            to_move=self.to_move,
            order=self.orders[seat],
            order_sizes=tuple(len(o) for o in self.orders),
            orders=self.orders if self.end is not None else None,
            end=self.end,
            bonus=self.bonus,
        )

    def apply(self, move: Move) -> State:
        """The state after ``move``: pigeons moved, card discarded, a card drawn, next player.
        Raises IllegalMove."""
        return self.play(move)[0]

    def play(self, move: Move) -> tuple[State, tuple[Step, ...]]:
        """Like apply, also returning the movements (for facts and diagrams)."""
        check(self, move)
        steps, positions, finished = resolve(self, move)
        return _after(self, move, positions, finished), steps

    def is_over(self) -> bool:
        return self.end is not None

    def outcome(self) -> Outcome | None:
        if self.end is None:
            return None
        return Outcome(self.winners(), self.scores(), self.end)

    def turn(self) -> int:
        """Turns completed: each discards the card it played, so the discard pile counts them
        (in an example's position, the cards placed nowhere else count as played)."""
        return len(self.discard)

    def standing(self) -> tuple[int, ...]:
        """The running scores (optional protocol): each player's points if the race ended now,
        by the pigeons' places and the player's secret order."""
        return self.scores()

    # -- places and points --

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
        points = tuple(sum(p) for p in self.points())
        return tuple(map(sum, zip(points, self.bonus, strict=True))) if self.bonus else points

    def winners(self) -> tuple[int, ...]:
        """Seats of the winners: most points, then the best-placed listed pigeons (PR-25)."""
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


def resolve(
    state: State, move: Move
) -> tuple[tuple[Step, ...], tuple[int, ...], tuple[int, ...]]:
    """The pigeons' movements a legal move makes, in order: the moved pigeon(s) first, then
    each one's two neighbours, lower number first (PR-17). Order decides finishing order.
    Also the positions and the finishers after them."""
    steps: list[Step] = []
    positions, crossed = _shifted(state.positions, move, steps)
    return tuple(steps), positions, state.finished + crossed


def landing(state: State | View, move: Move) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The positions and the finishers after a legal ``move``, as :func:`resolve` finds them
    without listing the steps or checking the move: what a player weighing every move of a
    turn asks for each of them."""
    positions, crossed = _shifted(state.positions, move, None)
    return positions, state.finished + crossed


def places_after(state: State | View, move: Move) -> tuple[int, ...]:
    """Each pigeon's place (pigeon n at index n - 1) if the race ended after a legal ``move``,
    ranked as :meth:`State.ranking` ranks them."""
    positions, finished = landing(state, move)
    # Sorting p - 8 * square puts the farther pigeon first, the lower number first on a shared
    # square, and gives the pigeon back as the key modulo 8: no key function to call.
    rest = sorted([p - 8 * x for p, x in zip(PIGEONS, positions, strict=True) if x != HOME])
    place = [0] * len(PIGEONS)
    for i, p in enumerate(finished):
        place[p - 1] = i + 1
    for i, k in enumerate(rest, len(finished) + 1):
        place[k % 8 - 1] = i
    return tuple(place)


def _shifted(start: tuple[int, ...], move: Move, steps: list[Step] | None
             ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The moved pigeon(s) by the card's value, then their neighbours by half of it; the
    steps appended to ``steps`` unless None (the inner loop of every player that looks
    ahead: no closure, no steps unless asked)."""
    card = move.card
    sign = 1 if card.red else -1
    pos = list(start)
    crossed: list[int] = []
    pushed = half(card.rank)
    shifts = [(p, card.rank, False) for p in move.pigeons]
    shifts += [(q, pushed, True) for p in move.pigeons for q in NEIGHBOURS[p]]
    for pigeon, amount, push in shifts:
        was = pos[pigeon - 1]
        if was == HOME:  # finished pigeons are off the board (PR-11)
            continue
        end = was + sign * amount
        if end < START:
            end = START  # the start line stops a backward move (PR-10)
        elif end > SQUARES:
            end = HOME
            crossed.append(pigeon)
        pos[pigeon - 1] = end
        if steps is not None:
            steps.append(Step(pigeon, was, end, push))
    return tuple(pos), tuple(crossed)


def check(state: State, move: Move) -> None:
    """Raise IllegalMove unless ``move`` is legal for the player to move."""
    if state.end is not None:
        raise IllegalMove(move, R_GAME_OVER)
    if move.card not in state.hands[state.to_move]:
        raise IllegalMove(move, R_NOT_IN_HAND)
    n = len(move.pigeons)
    if move.card.suit != state.trump_card.suit:
        if n != 1:
            raise IllegalMove(move, R_ONE_PIGEON)
    elif n not in (1, 2) or (n == 2 and move.pigeons[0] == move.pigeons[1]):
        raise IllegalMove(move, R_TWO_DIFFERENT)
    for p in move.pigeons:
        if p not in PIGEONS:
            raise IllegalMove(move, "there are only pigeons 1 to 6")
        if state.positions[p - 1] == HOME:
            raise IllegalMove(move, R_FINISHED)


def _after(
    state: State, move: Move, positions: tuple[int, ...], finished: tuple[int, ...]
) -> State:
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
    return derive(
        state,
        positions=positions,
        finished=finished,
        hands=state.hands[:seat] + (tuple(hand),) + state.hands[seat + 1 :],
        deck=deck,
        discard=state.discard + (move.card,),
        to_move=(seat + 1) % len(state.hands),
        end=end,
    )


def moves_with(hand: Sequence[Card], trump_card: Card, finished: tuple[int, ...]
               ) -> list[Move]:
    """The legal moves of a running race's player holding ``hand`` (a view knows all three,
    so a player can list them from what it sees)."""
    trump = trump_card.suit
    out: list[Move] = []
    for card in hand:
        moves = _MOVES.get((card, trump, finished))
        out += _moves_for(card, trump, finished) if moves is None else moves
    return out


# legal_moves is the hot loop of random games: moves are immutable, so build each card's list
# once for each trump suit and each set of finishers (fewer than three while the race runs).
_MOVES: dict[tuple[Card, str, tuple[int, ...]], tuple[Move, ...]] = {}


def _moves_for(card: Card, trump: str, finished: tuple[int, ...]) -> tuple[Move, ...]:
    movable = [p for p in PIGEONS if p not in finished]
    single = [Move(card, (p,)) for p in movable]
    pairs = [Move(card, (a, b)) for a in movable for b in movable if a != b]
    moves = tuple(single + pairs) if card.suit == trump else tuple(single)
    _MOVES[card, trump, finished] = moves
    return moves


@dataclass(frozen=True, slots=True)
class View:
    """One player's view of a race (see :meth:`State.view`)."""

    seat: int
    positions: tuple[int, ...]
    finished: tuple[int, ...]
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    deck_size: int
    discard: tuple[Card, ...]
    trump_card: Card
    to_move: int
    order: tuple[int, ...]
    order_sizes: tuple[int, ...]
    orders: tuple[tuple[int, ...], ...] | None  # every order, shown for the scoring at the end
    end: str | None
    bonus: tuple[int, ...] = ()


def sample(view: View, rng: random.Random) -> State:
    """A race ``view`` could be of: the unseen cards shuffled and dealt to the other hands and
    the deck; the others' secret orders drawn as the dealing and picking rules (:func:`allot`)
    make them likely given the seat's own order (in a two-player race the other player surely
    backs the two pigeons this one does not; a uniform draw missed that three times in five)."""
    seen = {*view.hand, *view.discard, view.trump_card}
    unseen = [c for c in DECK if c not in seen]
    rng.shuffle(unseen)
    hands: list[tuple[Card, ...]] = []
    at = 0
    for seat, size in enumerate(view.hand_sizes):
        if seat == view.seat:
            hands.append(view.hand)
            continue
        hands.append(tuple(unseen[at : at + size]))
        at += size
    if len(unseen) - at != view.deck_size:
        raise ValueError(f"a view with {len(unseen)} unseen cards for {at} in the other hands "
                         f"and {view.deck_size} in the deck")
    return State(
        positions=view.positions, finished=view.finished, hands=tuple(hands),
        deck=tuple(unseen[at:]), discard=view.discard, trump_card=view.trump_card,
        to_move=view.to_move, orders=_orders(view, rng), end=view.end, bonus=view.bonus,
    )


def _orders(view: View, rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """Every seat's order as ``view`` allows: the seat's own, the others' from the deals of
    pigeons that could have given the seat its own (each as likely as any other: a deal is
    a shuffle, and every pick the seat could have made is one of the same number), each other
    player's pick among the pigeons it was not dealt and its order shuffled, as :func:`allot`
    makes them. An order an example leaves out (or writes out of the table) is drawn as any
    pigeons of its length."""
    if view.orders is not None:
        return view.orders
    players = len(view.hand_sizes)
    size = sum(ALLOTMENT.get(players, (0, 0)))
    if len(view.order) != size or any(n != size for n in view.order_sizes):
        return tuple(view.order if seat == view.seat else tuple(rng.sample(PIGEONS, n))
                     for seat, n in enumerate(view.order_sizes))
    deals = _deals_giving(players, view.seat, frozenset(view.order))
    dealt = deals[rng.randrange(len(deals))]
    orders: list[tuple[int, ...]] = []
    for seat, mine in enumerate(dealt):
        if seat == view.seat:
            orders.append(view.order)
            continue
        pigeons = [*mine, rng.choice([p for p in PIGEONS if p not in mine])]
        rng.shuffle(pigeons)
        orders.append(tuple(pigeons))
    return tuple(orders)


@cache
def _deals_giving(players: int, seat: int, backed: frozenset[int]
                  ) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Every deal of pigeons (:func:`deal_pigeons`) after which ``seat`` could back ``backed``:
    it was dealt all of them but one, and picked that one. 20 to 720 deals in all, so listed
    once and drawn from exactly rather than by rejecting random allotments."""
    per = ALLOTMENT[players][0]
    deals = {tuple(tuple(sorted(cards[s::players][:per])) for s in range(players))
             for cards in permutations(PIGEONS)}
    return tuple(sorted(d for d in deals if set(d[seat]) <= backed
                        and len(backed) - len(d[seat]) == 1))


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


def allot(players: int, rng: random.Random) -> Allotment:
    """A random allotment: pigeons dealt, each player's pick among the others, and each
    player's secret order (at random: the simulated tables write theirs so)."""
    dealt = deal_pigeons(players, rng)
    picks = tuple(rng.choice([p for p in PIGEONS if p not in d]) for d in dealt)
    lists = []
    for d, pick in zip(dealt, picks, strict=True):
        mine = list(d) + [pick]
        rng.shuffle(mine)
        lists.append(tuple(mine))
    return Allotment(dealt, picks, tuple(lists))


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


def set_up(players: int, rng: random.Random, allotment: Allotment | None = None) -> Setup:
    """Set up a race with chance taken from ``rng``: pigeons and secret orders (random unless
    ``allotment`` is given), shuffle, hands, trump and the draw for the first player."""
    check_players(players)
    if allotment is None:
        allotment = allot(players, rng)
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


# --- the rules as a whole -----------------------------------------------------------------

STANDARD = Variant("standard", "the race as the rulebook describes it")


class PigeonRaceRules:
    """Pigeon Race for the rules protocol: 2 to 6 players, one variant."""

    name = "pigeon_race"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    game_type = IMPERFECT_INFORMATION  # hands, the deck and the secret orders are hidden
    # In two-player races the first player also plays the last card: a head start in points
    # for the others is the compensation a table would agree on.
    handicap = Handicap("points added at the end to the score of every player but the first "
                        "to play", 0, 12)

    def handicapped(self, state: State, points: int) -> State:
        """``state`` with ``points`` to every player but the one to move first."""
        return derive(state, bonus=tuple(0 if seat == state.to_move else points
                                         for seat in range(len(state.hands))))

    def variants(self) -> tuple[Variant, ...]:
        return (STANDARD,)

    def new_game(self, players: int, seed: int, variant: str | None = None) -> State:
        """A race set up with every chance (pigeons, orders, shuffle, first player) from
        ``seed``."""
        if variant not in (None, STANDARD.name):
            raise ValueError(f"Pigeon Race has no variant '{variant}' (only {STANDARD.name})")
        return set_up(players, random.Random(seed)).state

    def parse_move(self, text: str) -> Move:
        return Move.parse(text)

    def sample(self, view: View, rng: random.Random) -> State:
        return sample(view, rng)

    def invariants(self, state: GameState[Any]) -> list[str]:
        if not isinstance(state, State):
            return [f"not a Pigeon Race state: {type(state).__name__}"]
        return invariants(state)


RULES = PigeonRaceRules()


def invariants(state: State) -> list[str]:
    """What is wrong with ``state``, each in a sentence; empty when every invariant holds."""
    broken: list[str] = []
    lost = misplaced(DECK, all_cards(state))
    if lost:
        broken.append(lost)
    pos = state.positions
    if len(pos) != len(PIGEONS) or any(not START <= x <= SQUARES and x != HOME for x in pos):
        broken.append(f"each pigeon is on the start line, a square 1-30 or home: {pos}")
    elif sorted(state.finished) != [p for p in PIGEONS if pos[p - 1] == HOME]:
        broken.append(f"the finishers {state.finished} are the pigeons home, each once")
    n = len(state.hands)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS or len(state.orders) != n:
        return [*broken, f"{n} hands and {len(state.orders)} orders for 2 to 6 players"]
    if not 0 <= state.to_move < n:
        broken.append(f"seat {state.to_move} is to move among {n}")
    size = sum(ALLOTMENT[n])
    for seat, order in enumerate(state.orders):
        if order and (len(order) != size or sorted(set(order)) != sorted(order)
                      or not set(order) <= set(PIGEONS)):
            broken.append(f"player {seat + 1}'s order lists {size} different pigeons: {order}")
    sizes = [len(h) for h in state.hands]
    if state.end is None:
        if sizes != [HAND_SIZE] * n or not state.deck or len(state.finished) >= FINISHERS_TO_END:
            broken.append(
                f"a running race has full hands {sizes}, cards to draw ({len(state.deck)}) "
                f"and fewer than {FINISHERS_TO_END} pigeons home {state.finished}"
            )
    elif state.end == END_THREE_HOME:
        # The player whose play brought the third pigeon home drew no card.
        last = (state.to_move - 1) % n
        full = [HAND_SIZE - (seat == last) for seat in range(n)]
        if len(state.finished) < FINISHERS_TO_END or sizes not in (full, [HAND_SIZE] * n):
            broken.append(f"three pigeons home ended the race, yet {state.finished}, hands {sizes}")
    elif state.end == END_DECK_EMPTY:
        if state.deck or len(state.finished) >= FINISHERS_TO_END or sizes != [HAND_SIZE] * n:
            broken.append(
                f"an empty deck ended the race, yet {len(state.deck)} cards to draw, hands {sizes}"
            )
    else:
        broken.append(f"'{state.end}' is not a way the race ends")
    return broken


def all_cards(state: State) -> list[Card]:
    """Every card the state holds, wherever it is (for the one-place-each invariant)."""
    cards = [c for hand in state.hands for c in hand]
    return cards + list(state.deck) + list(state.discard) + [state.trump_card]

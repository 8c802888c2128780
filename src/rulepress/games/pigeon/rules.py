"""The rules of Pigeon, the two-player card game: pure, deterministic, immutable states.

The engine follows the rules protocol of :mod:`rulepress.games.base`. Seats are 0 and 1 inside
the engine and "Player 1" / "Player 2" in the rulebook. Chance is an input: :data:`RULES` shuffles
from a seed (``new_game``), or the decks are given in order (``deal``); nothing is left to
chance later, so ``chance_outcomes()`` is empty. A turn may take several moves: the action, then
(for the holder of the Pigeon at a hand limit of four) "pigeon" or "draw"; ``turn()`` counts
whole turns, the opening's three included.

A game ends in one of two ways, the rulebook's: a player draws the last card of their deck
(:data:`DREW_LAST`), or the player to move has no legal move and the opponent wins
(:data:`NO_MOVE`). It cannot lock up in Forceplays: every turn draws a card except a one-card
Forceplay from a full hand at limit 5, which leaves its player at limit 4, and only a Pigeon
discard brings the limit back to 5, in a turn that draws. So a player's turns without a draw
are at most one more than their turns with one, and a deck of 19 cards after the opening
bounds a game to :data:`MAX_TURNS` turns.

Every decision the seed texts leave open is recorded in the rulebook's Clarifications
appendix; the short reasons are below.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, overload

from rulepress.games.pigeon.cards import ACE, DECK, KING, Card, parse_cards
from rulepress.plugin import (
    IMPERFECT_INFORMATION,
    GameState,
    IllegalMove,
    NotationError,
    Outcome,
    Variant,
    derive,
    misplaced,
)

HAND_LIMIT = 5
PENALTY_LIMIT = 4
DECK_SIZE = 26
NEW_PILE_RANKS = frozenset({7, 8})
FREE_NEW_PILE_BELOW = 3  # a new pile may start anywhere while fewer piles than this are out
# The opening: Player 1 lays one pile, Player 2 two, Player 1 the last (seats 0, 1, 1, 0).
OPENING_ORDER = (0, 1, 1, 0)
PILE_LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
# After the opening each deck holds 19 cards (26, less the five drawn and the two refilled after
# laying two piles). A player has at most 19 turns that draw (the last card ends the game) and
# one more that does not (see the module's doc); the opening adds three turns (Player 1,
# Player 2 laying two piles, Player 1).
DECK_AFTER_OPENING = DECK_SIZE - HAND_LIMIT - len(OPENING_ORDER) // 2
MAX_TURNS = 3 + 2 * (2 * DECK_AFTER_OPENING + 1)

# How a game ends, as the rulebook words it.
DREW_LAST = "drew the last card of their deck"
NO_MOVE = "the opponent had no legal move"


class Phase(enum.Enum):
    OPENING = "opening"
    PLAY = "play"  # the player to move owes an action
    DRAW = "draw"  # action done; the holder of the Pigeon may still discard it before drawing
    OVER = "over"


class Reason:
    """Stable reason texts for illegal moves (examples quote them)."""

    GAME_OVER = "the game is over"
    NOT_IN_HAND = "a card played is not in the hand"
    REPEATED = "the same card is named twice"
    NOT_SET_OR_STRING = "the cards are neither a Set nor a String"
    STRING_COLOUR = "a String must be all red or all black"
    NO_PILE = "there is no such pile"
    CONNECTION = "the bottom card must be one rank above or below the top card of the pile"
    NEW_PILE = "a new pile needs a 7 or 8 at the bottom, or fewer than three piles on the table"
    FORCE_TARGET = "a Forceplay must go onto an existing pile"
    FORCE_LIMIT = "no Forceplay with a hand limit of four"
    SWEEP = "a Sweep needs exactly three Aces or exactly three Kings"
    NO_PIGEON = "only the holder of the Pigeon can discard it"
    PIGEON_LIMIT = "the Pigeon can only be discarded to restore a hand limit of four to five"
    OPENING = "the opening lays one card from the hand as a new pile"
    NOT_IN_OPENING = "only single cards laid as new piles are played in the opening"
    DRAW_FIRST = "the action is done: draw, or discard the Pigeon and draw"
    NO_DRAW = "drawing follows the action; there is nothing to draw yet"
    NOT_A_MOVE = "not a move of Pigeon"


# --- moves ------------------------------------------------------------------------------------


class Move:
    """What every move of Pigeon is: a frozen value whose text ``parse_move`` reads back, and
    whose repr pastes back as ``Move.parse('7H 8H > B')``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @staticmethod
    def parse(text: str) -> Move:
        return parse_move(text)


@dataclass(frozen=True, slots=True, repr=False)
class Play(Move):
    """A Set or String (cards bottom first) onto ``pile``, or a new pile when ``pile`` is None."""

    cards: tuple[Card, ...]
    pile: str | None
    force: bool = False

    def __str__(self) -> str:
        played = " ".join(str(c) for c in self.cards)
        return f"{'force ' if self.force else ''}{played} > {self.pile or 'new'}"


@dataclass(frozen=True, slots=True, repr=False)
class Sweep(Move):
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return "sweep " + " ".join(str(c) for c in self.cards)


@dataclass(frozen=True, slots=True, repr=False)
class DiscardPigeon(Move):
    def __str__(self) -> str:
        return "pigeon"


@dataclass(frozen=True, slots=True, repr=False)
class Draw(Move):
    def __str__(self) -> str:
        return "draw"


PIGEON = DiscardPigeon()
DRAW = Draw()


def parse_move(text: str) -> Move:
    """Moves round-trip: ``str(parse_move(t)) == t`` for canonical text.

    ``7H 8H 9H > B`` (onto pile B), ``7H 8H > new``, ``force KS > A``, ``sweep AC AD AS``,
    ``pigeon`` (discard it), ``draw`` (end the turn after an action, keeping the Pigeon).
    """
    words = str(text).split()
    if not words:
        raise NotationError("an empty move")
    head = words[0].lower()
    if head in ("pigeon", "draw") and len(words) == 1:
        return PIGEON if head == "pigeon" else DRAW
    if head == "sweep":
        cards = parse_cards(words[1:])
        if not cards:
            raise NotationError(f"'{text}': name the three cards swept, e.g. sweep AC AD AS")
        return Sweep(cards)
    force = head == "force"
    if force:
        words = words[1:]
    if len(words) < 3 or words[-2] != ">":
        raise NotationError(
            f"'{text}' is not a move: write the cards bottom first, '>' and a pile letter or "
            "'new' (e.g. '7H 8H > B'), or 'force ...', 'sweep ...', 'pigeon', 'draw'"
        )
    target = words[-1]
    pile: str | None
    if target.lower() == "new":
        pile = None
    elif len(target) == 1 and target.upper() in PILE_LABELS:
        pile = target.upper()
    else:
        raise NotationError(f"'{target}' is not a pile: use a letter A-Z or 'new'")
    return Play(parse_cards(words[:-2]), pile, force)


# --- what a play is ---------------------------------------------------------------------------


def play_kind(cards: tuple[Card, ...]) -> str | None:
    """'set', 'string', or None with the reason left to ``play_error``."""
    return None if play_error(cards) else ("set" if _is_set(cards) else "string")


def _is_set(cards: tuple[Card, ...]) -> bool:
    return all(c.rank == cards[0].rank for c in cards)


def play_error(cards: tuple[Card, ...]) -> str | None:
    if not cards:
        return Reason.NOT_SET_OR_STRING
    if len(set(cards)) != len(cards):
        return Reason.REPEATED
    if _is_set(cards):  # one card alone is a Set
        return None
    if any(abs(a.rank - b.rank) != 1 for a, b in zip(cards, cards[1:], strict=False)):
        return Reason.NOT_SET_OR_STRING
    if any(c.red != cards[0].red for c in cards):
        return Reason.STRING_COLOUR
    return None


def plays_from(hand: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
    """Every Set and String the hand can form, in a fixed order.

    A Set is listed once per choice of cards (in hand order); any order of the same cards is
    equally legal. A String is listed in every order its cards allow (the bottom card matters).
    """
    out: list[tuple[Card, ...]] = []
    by_rank: dict[int, list[Card]] = {}
    for c in hand:
        by_rank.setdefault(c.rank, []).append(c)
    for same in by_rank.values():
        out.extend((c,) for c in same)
        for n in range(2, len(same) + 1):
            out.extend(combinations(same, n))
    n = len(hand)
    links = [
        [j for j in range(n) if hand[j].red == a.red and abs(hand[j].rank - a.rank) == 1]
        for a in hand
    ]
    if not any(links):
        return tuple(out)

    def extend(chain: tuple[int, ...]) -> None:
        for j in links[chain[-1]]:
            if j not in chain:
                longer = (*chain, j)
                out.append(tuple(hand[i] for i in longer))
                extend(longer)

    for i in range(n):
        if links[i]:
            extend((i,))
    return tuple(out)


# --- state ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pile:
    label: str
    cards: tuple[Card, ...]  # bottom first

    @property
    def top(self) -> Card:
        return self.cards[-1]


@dataclass(frozen=True, slots=True)
class Seat:
    deck: tuple[Card, ...]  # face down, top card first
    hand: tuple[Card, ...]
    limit: int = HAND_LIMIT


@dataclass(frozen=True, slots=True)
class State:
    seats: tuple[Seat, Seat]
    piles: tuple[Pile, ...] = ()
    pigeon: int | None = None  # seat holding the Pigeon; None: set aside
    out: tuple[Card, ...] = ()  # removed from play: completed and swept piles, swept cards
    to_move: int = 0
    phase: Phase = Phase.PLAY
    opening_step: int = 0
    winner: int | None = None
    win_reason: str = ""
    turns: int = 0  # whole turns completed
    completed: tuple[str, ...] = field(default=(), compare=False)  # labels completed so far

    # -- the rules protocol (apply is below, with the moves) --

    def current_player(self) -> int:
        return self.to_move

    def chance_outcomes(self) -> tuple[()]:
        return ()  # the decks were shuffled before the deal

    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def outcome(self) -> Outcome | None:
        if self.winner is None:
            return None
        scores = tuple(int(seat == self.winner) for seat in (0, 1))
        return Outcome((self.winner,), scores, self.win_reason)

    def turn(self) -> int:
        return self.turns

    # -- queries --

    def pile(self, label: str) -> Pile | None:
        for p in self.piles:
            if p.label == label:
                return p
        return None

    def next_label(self) -> str:
        used = {p.label for p in self.piles}
        label = next((ch for ch in PILE_LABELS if ch not in used), None)
        if label is None:
            raise NotationError("every letter A-Z already names a pile: a new pile has no name")
        return label

    def legal_moves(self) -> MoveList:
        """Every legal move in a fixed order: Pigeon discard or draw, Sets and Strings onto
        piles and as new piles (in the opening: single cards as new piles), Forceplays, Sweeps.
        A lazy sequence: Forceplays are made only when asked for."""
        if _LAST[0] is self:  # a player asks again for the moves just listed (a search's playout)
            moves: MoveList = _LAST[1]
            return moves
        moves = self._legal_moves()
        _LAST[:] = (self, moves)
        return moves

    def _legal_moves(self) -> MoveList:
        seat = self.seats[self.to_move]
        special: list[Move] = []
        placed: list[tuple[tuple[Card, ...], str | None]] = []
        sweeps: list[Move] = []
        if self.phase is Phase.OVER:
            return MoveList(special, placed, (), (), sweeps)
        if self.phase is Phase.OPENING:
            placed.extend(((c,), None) for c in seat.hand)
            return MoveList(special, placed, (), (), sweeps)
        if self.pigeon == self.to_move and seat.limit == PENALTY_LIMIT:
            special.append(PIGEON)
        if self.phase is Phase.DRAW:
            special.append(DRAW)
            return MoveList(special, placed, (), (), sweeps)
        plays = plays_from(seat.hand)
        piles = self.piles
        free_new = len(piles) < FREE_NEW_PILE_BELOW
        targets: dict[int, list[str | None]] = {}  # bottom rank -> where it may go
        for cards in plays:
            bottom = cards[0].rank
            where = targets.get(bottom)
            if where is None:
                where = [p.label for p in piles if abs(bottom - p.cards[-1].rank) == 1]
                if free_new or bottom in NEW_PILE_RANKS:
                    where.append(None)
                targets[bottom] = where
            placed.extend((cards, label) for label in where)
        for rank in (ACE, KING):
            same = [c for c in seat.hand if c.rank == rank]
            sweeps.extend(Sweep(trio) for trio in combinations(same, 3))
        force_piles = tuple(p.label for p in piles) if seat.limit == HAND_LIMIT else ()
        return MoveList(special, placed, plays, force_piles, sweeps)

    def has_legal_move(self) -> bool:
        """Cheaper than ``legal_moves`` for the loss test at the start of a turn."""
        if self.phase is Phase.OVER:
            return False
        if self.phase is not Phase.PLAY:
            return True
        seat = self.seats[self.to_move]
        if not seat.hand:
            return False
        if seat.limit == HAND_LIMIT and self.piles:  # Forceplay (or New pile on an empty table)
            return True
        if len(self.piles) < FREE_NEW_PILE_BELOW or self.pigeon == self.to_move:
            return True
        tops = {p.cards[-1].rank for p in self.piles}
        for c in seat.hand:
            if c.rank in NEW_PILE_RANKS or c.rank - 1 in tops or c.rank + 1 in tops:
                return True
        return any(sum(c.rank == r for c in seat.hand) >= 3 for r in (ACE, KING))

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see: its own hand, the table, and only the sizes of hidden things
        (the other hand, both decks' orders)."""
        return PlayerView(
            seat=seat,
            hand=self.seats[seat].hand,
            opponent_hand_size=len(self.seats[1 - seat].hand),
            opponent_hand=self.seats[1 - seat].hand if self.win_reason == NO_MOVE else None,
            deck_sizes=(len(self.seats[0].deck), len(self.seats[1].deck)),
            limits=(self.seats[0].limit, self.seats[1].limit),
            piles=self.piles,
            pigeon=self.pigeon,
            out=self.out,
            to_move=self.to_move,
            phase=self.phase,
            opening_step=self.opening_step,
            winner=self.winner,
            win_reason=self.win_reason,
            turns=self.turns,
            completed=self.completed,
        )

    def at_turn_start(self) -> State:
        """This state, or the end of the game if the player to move has no legal move."""
        if self.phase is Phase.PLAY and not self.has_legal_move():
            return derive(self, phase=Phase.OVER, winner=1 - self.to_move, win_reason=NO_MOVE)
        return self

    # -- moves --

    def apply(self, move: Move) -> State:
        """The state after ``move`` by the player to move; IllegalMove says why not."""
        if self.phase is Phase.OVER:
            raise IllegalMove(move, Reason.GAME_OVER)
        if isinstance(move, Draw):
            if self.phase is not Phase.DRAW:
                raise IllegalMove(move, Reason.NO_DRAW)
            return self._end_turn(self.seats[self.to_move])
        if isinstance(move, DiscardPigeon):
            return self._discard_pigeon(move)
        if self.phase is Phase.DRAW:
            raise IllegalMove(move, Reason.DRAW_FIRST)
        if self.phase is Phase.OPENING:
            return self._open(move)
        if isinstance(move, Sweep):
            return self._sweep(move)
        if isinstance(move, Play):
            return self._play(move)
        raise IllegalMove(move, Reason.NOT_A_MOVE)

    def _hand_without(self, move: Move, cards: tuple[Card, ...]) -> tuple[Card, ...]:
        hand = self.seats[self.to_move].hand
        if len(set(cards)) != len(cards):
            raise IllegalMove(move, Reason.REPEATED)
        if any(c not in hand for c in cards):
            raise IllegalMove(move, Reason.NOT_IN_HAND)
        return tuple(c for c in hand if c not in cards)

    def _with_seat(self, seat: Seat) -> tuple[Seat, Seat]:
        s = self.seats
        return (seat, s[1]) if self.to_move == 0 else (s[0], seat)

    def _discard_pigeon(self, move: Move) -> State:
        seat = self.seats[self.to_move]
        if self.phase is Phase.OPENING or self.pigeon != self.to_move:
            raise IllegalMove(move, Reason.NO_PIGEON)
        if seat.limit != PENALTY_LIMIT:
            raise IllegalMove(move, Reason.PIGEON_LIMIT)
        restored = Seat(seat.deck, seat.hand, HAND_LIMIT)
        if self.phase is Phase.DRAW:
            return self._end_turn(restored, pigeon=None)
        return derive(self, seats=self._with_seat(restored), pigeon=None)

    def _open(self, move: Move) -> State:
        if not (isinstance(move, Play) and move.pile is None and not move.force):
            raise IllegalMove(move, Reason.NOT_IN_OPENING)
        if len(move.cards) != 1:
            raise IllegalMove(move, Reason.OPENING)
        hand = self._hand_without(move, move.cards)
        seat = Seat(self.seats[self.to_move].deck, hand, self.seats[self.to_move].limit)
        step = self.opening_step + 1
        piles = (*self.piles, Pile(self.next_label(), move.cards))
        seats = self._with_seat(seat)
        phase = self.phase
        if step < len(OPENING_ORDER):
            after = OPENING_ORDER[step]
        else:
            # Both refill to five (7 of 26 cards drawn: no deck can empty here); Player 2 starts.
            seats = (_refill(seats[0])[0], _refill(seats[1])[0])
            phase, after = Phase.PLAY, 1
        turns = self.turns + (after != self.to_move)  # Player 2 lays two piles in one turn
        return derive(
            self, seats=seats, piles=piles, opening_step=step, phase=phase, to_move=after,
            turns=turns,
        )

    def _sweep(self, move: Sweep) -> State:
        ranks = {c.rank for c in move.cards}
        if len(move.cards) != 3 or len(ranks) != 1 or not ranks <= {ACE, KING}:
            raise IllegalMove(move, Reason.SWEEP)
        hand = self._hand_without(move, move.cards)
        swept = tuple(c for p in self.piles for c in p.cards)
        seat = Seat(self.seats[self.to_move].deck, hand, self.seats[self.to_move].limit)
        return self._after_action(seat, piles=(), out=self.out + move.cards + swept)

    def _play(self, move: Play) -> State:
        seat = self.seats[self.to_move]
        hand = self._hand_without(move, move.cards)
        why = play_error(move.cards)
        if why:
            raise IllegalMove(move, why)
        bottom = move.cards[0].rank
        pigeon, out, completed = self.pigeon, self.out, self.completed
        piles = list(self.piles)
        if move.pile is None:
            if move.force:
                raise IllegalMove(move, Reason.FORCE_TARGET)
            if bottom not in NEW_PILE_RANKS and len(piles) >= FREE_NEW_PILE_BELOW:
                raise IllegalMove(move, Reason.NEW_PILE)
            # A new pile is never completed on the turn it is laid, even with an A or K on top.
            piles.append(Pile(self.next_label(), move.cards))
        else:
            index = next((i for i, p in enumerate(piles) if p.label == move.pile), None)
            if index is None:
                raise IllegalMove(move, Reason.NO_PILE)
            target = piles[index]
            grown = Pile(target.label, target.cards + move.cards)
            if move.force:
                if seat.limit != HAND_LIMIT:
                    raise IllegalMove(move, Reason.FORCE_LIMIT)
                seat = Seat(seat.deck, seat.hand, PENALTY_LIMIT)
                piles[index] = grown  # a Forceplay never completes a pile
            else:
                if abs(bottom - target.top.rank) != 1:
                    raise IllegalMove(move, Reason.CONNECTION)
                if grown.top.rank in (ACE, KING):
                    del piles[index]
                    out += grown.cards
                    pigeon = self.to_move
                    completed += (grown.label,)
                else:
                    piles[index] = grown
        return self._after_action(
            Seat(seat.deck, hand, seat.limit),
            piles=tuple(piles),
            pigeon=pigeon,
            out=out,
            completed=completed,
        )

    # One derive a move: the action's changes ride along to where the turn goes next.

    def _after_action(self, seat: Seat, **changes: Any) -> State:
        """The state once the action has left the player with ``seat`` and made ``changes``:
        the holder of the Pigeon at limit 4 may still discard it before drawing; anyone else
        draws, and the turn ends."""
        if changes.get("pigeon", self.pigeon) == self.to_move and seat.limit == PENALTY_LIMIT:
            return derive(self, seats=self._with_seat(seat), phase=Phase.DRAW, **changes)
        return self._end_turn(seat, **changes)

    def _end_turn(self, seat: Seat, **changes: Any) -> State:
        """Draw ``seat`` up to its limit and pass the turn, with the action's ``changes``."""
        seat, emptied = _refill(seat)
        seats = self._with_seat(seat)
        turns = self.turns + 1
        if emptied:
            return derive(
                self, seats=seats, phase=Phase.OVER, winner=self.to_move, win_reason=DREW_LAST,
                turns=turns, **changes,
            )
        after = derive(
            self, seats=seats, phase=Phase.PLAY, to_move=1 - self.to_move, turns=turns, **changes
        )
        return after.at_turn_start()


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One player's view: hands and deck orders are hidden, everything on the table is open."""

    seat: int
    hand: tuple[Card, ...]
    opponent_hand_size: int
    opponent_hand: tuple[Card, ...] | None  # shown at the end, when it held no legal move
    deck_sizes: tuple[int, int]
    limits: tuple[int, int]
    piles: tuple[Pile, ...]
    pigeon: int | None
    out: tuple[Card, ...]
    to_move: int
    phase: Phase
    opening_step: int
    winner: int | None
    win_reason: str
    turns: int
    completed: tuple[str, ...]


def sample(view: PlayerView, rng: random.Random) -> State:
    """A state ``view`` could be of: the cards its seat cannot see (neither in its hand, nor on
    the table, nor out) shuffled and dealt to the other hand and the two decks, by their sizes.
    Nobody knows a deck's order or which deck a card is in, the seat's own included. A game
    going on tells that the player to move has a legal move: a deal that gives them none is
    drawn again."""
    seen = {*view.hand, *view.out, *(c for pile in view.piles for c in pile.cards),
            *(view.opponent_hand or ())}
    unseen = [c for c in DECK if c not in seen]
    me, other = view.seat, 1 - view.seat
    k = 0 if view.opponent_hand is not None else view.opponent_hand_size
    if len(unseen) != k + sum(view.deck_sizes):
        raise ValueError(f"a view with {len(unseen)} unseen cards for {k} in hand and "
                         f"{sum(view.deck_sizes)} in the decks")
    mine = view.deck_sizes[me]
    for _ in range(SAMPLE_TRIES):
        rng.shuffle(unseen)
        seats = [Seat((), ()), Seat((), ())]
        seats[me] = Seat(tuple(unseen[k:k + mine]), view.hand, view.limits[me])
        seats[other] = Seat(tuple(unseen[k + mine:]), view.opponent_hand or tuple(unseen[:k]),
                            view.limits[other])
        state = State(
            seats=(seats[0], seats[1]), piles=view.piles, pigeon=view.pigeon, out=view.out,
            to_move=view.to_move, phase=view.phase, opening_step=view.opening_step,
            winner=view.winner, win_reason=view.win_reason, turns=view.turns,
            completed=view.completed,
        )
        if view.phase is not Phase.PLAY or state.has_legal_move():
            break
    return state


# The last state asked for its moves, and its moves (states are immutable, so they stay right).
_LAST: list[Any] = [None, None]

SAMPLE_TRIES = 1000  # a hand with no legal move is rare: never this many times in a row


class MoveList(Sequence[Move]):
    """The legal moves of a position, in their fixed order, made lazily: Forceplays (every play
    onto every pile) far outnumber the rest, and a random game needs only one move."""

    __slots__ = ("_special", "_placed", "_plays", "_force_piles", "_sweeps", "_size")

    def __init__(
        self,
        special: list[Move],  # Pigeon discard, draw
        placed: list[tuple[tuple[Card, ...], str | None]],  # Set or String onto a pile, or new
        plays: tuple[tuple[Card, ...], ...],  # each forced onto every one of force_piles
        force_piles: tuple[str, ...],
        sweeps: list[Move],
    ) -> None:
        self._special = special
        self._placed = placed
        self._plays = plays
        self._force_piles = force_piles
        self._sweeps = sweeps
        self._size = len(special) + len(placed) + len(plays) * len(force_piles) + len(sweeps)

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, k: int) -> Move: ...
    @overload
    def __getitem__(self, k: slice) -> tuple[Move, ...]: ...
    def __getitem__(self, k: int | slice) -> Move | tuple[Move, ...]:
        if isinstance(k, slice):
            return tuple(self[i] for i in range(self._size)[k])
        if k < 0:
            k += self._size
        if not 0 <= k < self._size:
            raise IndexError(f"move {k} of {self._size}")
        if k < len(self._special):
            return self._special[k]
        k -= len(self._special)
        if k < len(self._placed):
            cards, label = self._placed[k]
            return Play(cards, label)
        k -= len(self._placed)
        n_force = len(self._plays) * len(self._force_piles)
        if k < n_force:
            width = len(self._force_piles)
            return Play(self._plays[k // width], self._force_piles[k % width], True)
        return self._sweeps[k - n_force]

    def __iter__(self) -> Iterator[Move]:
        yield from self._special
        for cards, label in self._placed:
            yield Play(cards, label)
        piles = self._force_piles
        for cards in self._plays:
            for label in piles:
                yield Play(cards, label, True)
        yield from self._sweeps

    def unforced(self) -> list[Move]:
        """Every legal move but the Forceplays, in the same order: a player who only forces
        when nothing else is legal needs no more."""
        return [*self._special, *(Play(c, label) for c, label in self._placed), *self._sweeps]


def _refill(seat: Seat) -> tuple[Seat, bool]:
    """Draw to the hand limit; True when that draw took the last card of the deck (a win)."""
    need = seat.limit - len(seat.hand)
    if need <= 0 or not seat.deck:
        return seat, False
    drawn = seat.deck[:need]
    rest = seat.deck[need:]
    return Seat(rest, seat.hand + drawn, seat.limit), not rest


# --- starting a game --------------------------------------------------------------------------


def deal(deck1: tuple[Card, ...], deck2: tuple[Card, ...]) -> State:
    """The opening position: each player draws five from their own deck (top card first)."""
    seats = (
        Seat(deck1[HAND_LIMIT:], deck1[:HAND_LIMIT]),
        Seat(deck2[HAND_LIMIT:], deck2[:HAND_LIMIT]),
    )
    return State(seats=seats, phase=Phase.OPENING, to_move=OPENING_ORDER[0])


def shuffled_deck(seed: int) -> tuple[Card, ...]:
    cards = list(DECK)
    random.Random(seed).shuffle(cards)
    return tuple(cards)


def seeded_deal(seed: int) -> State:
    """Shuffle the 52 cards with ``seed`` and split them: the first 26 are Player 1's deck."""
    cards = shuffled_deck(seed)
    return deal(cards[:DECK_SIZE], cards[DECK_SIZE:])


# --- the rules as a whole ---------------------------------------------------------------------

STANDARD = Variant("standard", "the game as the rulebook describes it")


class PigeonRules:
    """Pigeon for the rules protocol: two players, one variant."""

    name = "pigeon"
    min_players = 2
    max_players = 2
    game_type = IMPERFECT_INFORMATION  # the other hand and both decks are face down

    def variants(self) -> tuple[Variant, ...]:
        return (STANDARD,)

    def new_game(self, players: int, seed: int, variant: str | None = None) -> State:
        """The deal of ``seed``, before the opening."""
        if players != 2:
            raise ValueError(f"Pigeon is for 2 players, not {players}")
        if variant not in (None, STANDARD.name):
            raise ValueError(f"Pigeon has no variant '{variant}' (only {STANDARD.name})")
        return seeded_deal(seed)

    def parse_move(self, text: str) -> Move:
        return parse_move(text)

    def sample(self, view: PlayerView, rng: random.Random) -> State:
        return sample(view, rng)

    def invariants(self, state: GameState[Any]) -> list[str]:
        if not isinstance(state, State):
            return [f"not a Pigeon state: {type(state).__name__}"]
        return invariants(state)


RULES = PigeonRules()


def invariants(state: State) -> list[str]:
    """What is wrong with ``state``, each in a sentence; empty when every invariant holds."""
    broken: list[str] = []
    held = [*state.out, *(c for seat in state.seats for c in seat.deck + seat.hand)]
    lost = misplaced(DECK, held + [c for pile in state.piles for c in pile.cards])
    if lost:
        broken.append(lost)
    if state.pigeon not in (None, 0, 1) or state.to_move not in (0, 1):
        broken.append(f"the Pigeon ({state.pigeon}) is aside or with a seat; seat {state.to_move}")
    labels = [p.label for p in state.piles]
    if len(set(labels)) != len(labels) or not all(p.cards for p in state.piles):
        broken.append(f"piles have different letters and a card at least: {labels}")
    opening = state.phase is Phase.OPENING
    for i, seat in enumerate(state.seats, 1):
        if seat.limit not in (PENALTY_LIMIT, HAND_LIMIT):
            broken.append(f"Player {i}'s hand limit is 4 or 5, not {seat.limit}")
        elif len(seat.hand) > (HAND_LIMIT if opening else seat.limit):
            broken.append(f"Player {i} holds {len(seat.hand)} cards, over the limit {seat.limit}")
    if opening and (state.opening_step != len(state.piles)
                    or state.to_move != OPENING_ORDER[state.opening_step]):
        broken.append(f"in the opening, pile {len(state.piles) + 1} is laid by the seat in turn")
    mover = state.seats[state.to_move]
    if state.phase is Phase.DRAW and (state.pigeon != state.to_move
                                      or mover.limit != PENALTY_LIMIT):
        broken.append("only the holder of the Pigeon at limit 4 stops before drawing")
    if state.phase is Phase.OVER:
        broken += _end_broken(state)
    elif state.winner is not None or not all(seat.deck for seat in state.seats):
        broken.append("a game with a winner or an empty deck is over")
    elif state.phase is Phase.PLAY and not state.has_legal_move():
        broken.append("the player to move has no legal move, yet the game goes on")
    return broken


def _end_broken(state: State) -> list[str]:
    """What is wrong with how a finished game ended."""
    winner = state.winner
    if winner not in (0, 1):
        return [f"a finished game has a winner, not {winner}"]
    if state.win_reason == DREW_LAST:
        if state.seats[winner].deck:
            return ["the winner drew the last card, yet their deck is not empty"]
        return []
    if state.win_reason == NO_MOVE:
        stuck = derive(state, phase=Phase.PLAY, to_move=1 - winner, winner=None, win_reason="")
        if stuck.has_legal_move():
            return ["the loser had no legal move, yet has one"]
        return []
    return [f"'{state.win_reason}' is not a way the game ends"]

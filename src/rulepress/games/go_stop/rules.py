"""Go-Stop for 2 and 3 players, on the rules protocol of games/base.py: the deal, moves, the
turn, bonuses, go/stop and the end.

``RULES`` starts games (``RULES.new_game(players, seed)``) and reads moves; a :class:`State`
says whose turn it is, lists the legal moves and applies one (``state.apply(move)`` returns
the next state). What happened in a move (cards drawn and captured, junk received, bonuses) is
returned by :func:`step`, for the worked examples and their diagrams.

Pure: all chance is the seed, taken whole at the deal (the stock's order), so no chance node
follows. Values are frozen dataclasses, each state made from the last by ``base.derive``; card
sets are bit masks (see cards.py), so scoring a pile is a few popcounts.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rulepress.games.go_stop.cards import (
    ALL,
    ANIMALS,
    CARDS,
    DOUBLE_JUNK,
    JUNK,
    MASK_BYTES,
    MONTH_MASK,
    card_points,
    card_text,
    cards_in,
    mask_of,
    parse_card,
)
from rulepress.plugin import (
    IMPERFECT_INFORMATION,
    AmbiguousMove,
    IllegalMove,
    NotationError,
    Outcome,
    Variant,
    derive,
)

PLAY, DRAW, DECIDE, OVER = 0, 1, 2, 3
PHASES = ("play", "draw", "go or stop", "over")

THRESHOLD = {2: 7, 3: 3}
DEAL = {2: (10, 8), 3: (7, 6)}  # cards per hand, cards in the row
ANIMAL_RESERVE_AT = 8  # "more than 7" animals, once per game

# Results
PLAYING = "playing"
STOPPED = "stop"
NAGARI = "nagari"  # the stock ran out and nobody stopped: no winner
REDEAL = "redeal"  # four of a number in the row: the deal is void
FOUR_IN_HAND = "four of a number"  # a starting hand holds a whole number: instant win

# How a game ended, in the words of the rulebook's "The end of the game".
END_REASONS = {
    STOPPED: "a player stops",
    NAGARI: "the stock runs out: nagari",
    FOUR_IN_HAND: "four of a number in a hand",
    REDEAL: "four of a number in the row: the deal does not count",
}

# Bonus names, as the rules call them
SHAKE = "shake"
BOMB = "bomb"
EMPTY_ROW = "empty row"
THREE_FOR_ONE = "3 for 1"
OWN_COLUMN = "own column"
OTHER_COLUMN = "other's column"
ANIMAL_RESERVE = "animal reserve"


NOT_A_SINGLE = "the card you pair with must lie alone in the row with the same number"
SAY_WHICH = "two cards of that number lie in the row: say which one you pair with"


@dataclass(frozen=True, repr=False)
class Move:
    """One decision: a card (with the row card it pairs with), shake, bomb, pass, go or stop.
    ``str`` is its notation; ``repr`` pastes back as ``Move.parse('08A>08Da')``."""

    kind: str  # "card", "shake", "bomb", "pass", "go", "stop"
    card: int = -1
    target: int = -1  # the single row card a played/drawn card pairs with, when it must be said
    month: int = 0  # 1..12 for shake and bomb

    def __str__(self) -> str:
        if self.kind == "card":
            s = card_text(self.card)
            return s if self.target < 0 else f"{s}>{card_text(self.target)}"
        if self.kind in ("shake", "bomb"):
            return f"{self.kind} {self.month:02d}"
        return self.kind

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: object) -> Move:
        s = " ".join(str(text).split())
        if s in ("go", "stop", "pass"):
            return _SIMPLE[s]
        head, _, rest = s.partition(" ")
        if head in ("shake", "bomb"):
            if not (rest.isdigit() and 1 <= int(rest) <= 12):
                raise NotationError(f"'{s}': write {head} and a number 01..12, e.g. '{head} 05'")
            return cls(head, month=int(rest))
        card, sep, target = s.partition(">")
        c = parse_card(card)
        if not sep:
            return cls("card", c)
        t = parse_card(target)
        return cls("card", c, t)


_SIMPLE = {k: Move(k) for k in ("go", "stop", "pass")}
_PLAYS = tuple(Move("card", c) for c in range(CARDS))
_PAIRS = {
    (c, t): Move("card", c, t) for c in range(CARDS) for t in range(CARDS) if c >> 2 == t >> 2
}
_SHAKES = tuple(Move("shake", month=m + 1) for m in range(12))
_BOMBS = tuple(Move("bomb", month=m + 1) for m in range(12))


@dataclass(frozen=True)
class State:
    """A whole game position. Players are 0-based; play goes 0 -> 1 -> 2 -> 0 (counter-clockwise).

    ``owners`` holds, per number (0-based), the player whose 3-card column lies in the row, or -1
    (a dealt group of three has no owner). ``tokens`` holds, per player, the number (1..12) of the
    column their token marks, or 0 when it is at home.
    """

    players: int
    dealer: int
    hands: tuple[int, ...]
    stores: tuple[int, ...]
    row: int
    owners: tuple[int, ...]
    tokens: tuple[int, ...]
    stock: tuple[int, ...]  # the stock as dealt, top card first
    drawn: int  # cards drawn from the stock so far: one a turn
    to_move: int
    phase: int
    gos: tuple[int, ...]
    reserves: tuple[int, ...]
    credits: tuple[int, ...]  # bomb passes left
    shaken: tuple[int, ...]  # bit m set: this player has shaken number m + 1
    animal_reserve: int  # bit p set: player p took the animal reserve card
    last_go: tuple[int, ...]  # card points at the player's last go
    pending: tuple[int, int, int] | None = None  # DRAW: (cards to take, D per opponent, drawn)
    winner: int = -1
    result: str = PLAYING
    redeals: int = 0

    @property
    def threshold(self) -> int:
        return THRESHOLD[self.players]

    @property
    def stock_left(self) -> int:
        return len(self.stock) - self.drawn

    def additional(self, p: int) -> int:
        """Additional point cards: one for each of the first two gos."""
        return min(self.gos[p], 2)

    @property
    def points(self) -> tuple[int, ...]:
        """The card points of each storage."""
        return tuple(map(card_points, self.stores))

    def current_points(self, p: int) -> int:
        return card_points(self.stores[p]) + self.additional(p)

    def final_score(self, p: int) -> int:
        if self.result == FOUR_IN_HAND:
            return card_points(self.hands[p])
        return self.current_points(p) << self.reserves[p]

    # -- the rules protocol -----------------------------------------------------------------
    def current_player(self) -> int:
        return self.to_move

    def legal_moves(self) -> Sequence[Move]:
        """Every legal move in a fixed order: number by number, its cards (by card), bomb,
        shake; then pass. A drawn card with two to pair: one move per row card. At the end of a
        turn: go, stop."""
        if self.phase == PLAY:
            p = self.to_move
            out: list[Move] = []
            at = 0  # the table's index of the byte's first number
            # A byte of the hand's mask (and of the row's) holds two numbers, low nibble first.
            hand = self.hands[p].to_bytes(MASK_BYTES, "little")
            row = self.row.to_bytes(MASK_BYTES, "little")
            for h, r in zip(hand, row, strict=True):
                if h:
                    if h & 15:
                        out += _MONTH_MOVES[at | (h & 15) << 4 | r & 15]
                    if h & 240:
                        out += _MONTH_MOVES[at | 256 | h & 240 | r >> 4]
                at += 512
            shaken = self.shaken[p]
            if shaken:  # a number is shaken once
                out = [m for m in out if m.kind != "shake" or not shaken >> (m.month - 1) & 1]
            if self.credits[p]:
                out.append(_SIMPLE["pass"])
            return out
        if self.phase == DRAW:
            assert self.pending is not None
            d = self.pending[2]
            return tuple(_PAIRS[d, t] for t in cards_in(self.row & MONTH_MASK[d >> 2]))
        if self.phase == DECIDE:
            if self.drawn >= len(self.stock):
                return (_SIMPLE["stop"],)
            return (_SIMPLE["go"], _SIMPLE["stop"])
        return ()

    def chance_outcomes(self) -> tuple[tuple[Move, float], ...]:
        """None: the deal took all the chance there is."""
        return ()

    def apply(self, move: Move) -> State:
        """The state after ``move``; raises IllegalMove or AmbiguousMove."""
        return _BY_PHASE[self.phase](self, move, None)

    def is_over(self) -> bool:
        return self.phase == OVER

    def outcome(self) -> Outcome | None:
        """The winner (none after nagari or a void deal) and every player's final score."""
        if self.phase != OVER:
            return None
        winners = (self.winner,) if self.winner >= 0 else ()
        scores = tuple(self.final_score(p) for p in range(self.players))
        return Outcome(winners, scores, END_REASONS[self.result])

    def view(self, seat: int) -> View:
        """What ``seat`` knows (see :class:`View`)."""
        return view(self, seat)

    def turn(self) -> int:
        """Turns completed: each turn draws one stock card, and is not over while the drawn
        card waits to be paired or the player to say go or stop."""
        return self.drawn - (self.phase == DRAW or self.phase == DECIDE)


def start(
    hands: list[int],
    row: int,
    stock: list[int],
    dealer: int = 0,
    *,
    check_deal: bool = True,
    redeals: int = 0,
) -> State:
    """A state at the start of play: the dealer moves first. Immediate ends are applied."""
    n = len(hands)
    zeros = (0,) * n
    # Made as derive() makes every later state, a plain dict of the fields, not by __init__:
    # once __init__ has run, CPython gives each new State a key-sharing layout to fill and
    # drop, and a game played through the protocol runs about a tenth slower.
    state = object.__new__(State)
    object.__setattr__(
        state,
        "__dict__",
        dict(
            players=n,
            dealer=dealer,
            hands=tuple(hands),
            stores=zeros,
            row=row,
            owners=(-1,) * 12,
            tokens=zeros,
            stock=tuple(stock),
            drawn=0,
            to_move=dealer,
            phase=PLAY,
            gos=zeros,
            reserves=zeros,
            credits=zeros,
            shaken=zeros,
            animal_reserve=0,
            last_go=zeros,
            redeals=redeals,
            pending=None,
            winner=-1,
            result=PLAYING,
        ),
    )
    if not check_deal:
        return state
    if has_four(row):
        return derive(state, phase=OVER, result=REDEAL)
    for i in range(n):
        p = (dealer + i) % n
        if has_four(hands[p]):
            return derive(state, phase=OVER, result=FOUR_IN_HAND, winner=p)
    return state


_LOW_NIBBLES = sum(1 << (4 * m) for m in range(12))


def has_four(mask: int) -> bool:
    """Does the set hold all four cards of some number?"""
    return bool(mask & mask >> 1 & mask >> 2 & mask >> 3 & _LOW_NIBBLES)


def deal(seed: int, players: int = 2) -> State:
    """A seeded game: dealer by lot, shuffle, deal; a row with four of a number is redealt."""
    if players not in DEAL:
        raise ValueError("Go-Stop is for 2 or 3 players")
    rng = random.Random(seed)
    dealer = int(rng.random() * players)
    per_hand, in_row = DEAL[players]
    redeals = 0
    rand = rng.random
    while True:
        # A uniform shuffle: sort by random keys (faster than random.shuffle).
        keys = [rand() for _ in _DECK]
        deck = sorted(_DECK, key=keys.__getitem__)
        hands = [mask_of(deck[i * per_hand : (i + 1) * per_hand]) for i in range(players)]
        k = players * per_hand
        state = start(
            hands, mask_of(deck[k : k + in_row]), deck[k + in_row :], dealer, redeals=redeals
        )
        if state.result != REDEAL:
            return state
        redeals += 1


_DECK = range(CARDS)


class GoStopRules:
    """Go-Stop as a whole (the :class:`rulepress.games.base.Rules` protocol)."""

    name = "Go-Stop"
    min_players = min(DEAL)
    max_players = max(DEAL)
    game_type = IMPERFECT_INFORMATION  # the other hands and the stock are face down

    def variants(self) -> tuple[Variant, ...]:
        return (Variant("standard", "the game as the rulebook gives it (no other variants)"),)

    def new_game(self, players: int, seed: int, variant: str | None = None) -> State:
        if variant not in (None, "standard"):
            raise ValueError(f"Go-Stop has no variant '{variant}'; it has: standard")
        return deal(seed, players)

    def parse_move(self, text: str) -> Move:
        return Move.parse(text)

    def sample(self, view: View, rng: random.Random) -> State:
        return sample(view, rng)

    def invariants(self, state: Any) -> list[str]:
        return invariants(state)


def invariants(s: State) -> list[str]:
    """What is wrong with a state reached by play from a deal: every card in exactly one place,
    tokens on their owners' columns, counts never negative, and hands
    (with bomb passes) lasting exactly as long as the stock."""
    broken: list[str] = []
    n = s.players
    if not 0 <= s.to_move < n or not 0 <= s.dealer < n:
        broken.append(f"player to move {s.to_move} or dealer {s.dealer} is not a seat")
    parts = [*s.hands, *s.stores, s.row, mask_of(s.stock[s.drawn :])]
    if s.pending is not None:
        parts.append(s.pending[0] | 1 << s.pending[2])
    seen = doubled = 0
    for part in parts:
        doubled |= seen & part
        seen |= part
    if doubled:
        broken.append(f"cards in two places: {', '.join(map(card_text, cards_in(doubled)))}")
    if seen != ALL:
        lost = ", ".join(map(card_text, cards_in(ALL & ~seen)))
        broken.append(f"cards nowhere: {lost}")
    for p in range(n):
        month = s.tokens[p] - 1
        if month >= 0 and (s.owners[month] != p or (s.row & MONTH_MASK[month]).bit_count() != 3):
            broken.append(f"player {p + 1}'s token is not on a three-card column of theirs")
    for month, owner in enumerate(s.owners):
        if owner >= 0 and (s.row & MONTH_MASK[month]).bit_count() != 3:
            broken.append(f"number {month + 1} has an owner but no three-card column")
    if any(v < 0 for v in (*s.reserves, *s.credits, *s.gos)):
        broken.append("a negative count of reserves, passes or gos")
    if s.result in (NAGARI, STOPPED) or s.phase in (PLAY, DECIDE):
        # Cards in hand plus passes = turns left: hands and stock run out together.
        first = s.to_move if s.phase == PLAY else s.to_move + 1
        for p in range(n):
            turns_left = sum(1 for k in range(s.stock_left) if (first + k) % n == p)
            if s.hands[p].bit_count() + s.credits[p] != turns_left:
                broken.append(
                    f"player {p + 1} holds cards and passes for other than {turns_left} turns left"
                )
    return broken


RULES = GoStopRules()


def _month_moves(m: int, hand: int, row: int) -> tuple[Move, ...]:
    """The moves with number m+1 for the hand's and the row's cards of that number (4-bit each)."""
    out: list[Move] = []
    singles = [m * 4 + i for i in range(4) if row >> i & 1]
    for i in range(4):
        if hand >> i & 1:
            c = m * 4 + i
            if len(singles) == 2:
                out += [_PAIRS[c, t] for t in singles]
            else:
                out.append(_PLAYS[c])
    if hand.bit_count() == 3:
        if len(singles) == 1:
            out.append(_BOMBS[m])
        out.append(_SHAKES[m])
    return tuple(out)


# (number, hand cards of it, row cards of it) -> moves, so legal_moves is a few lookups.
_MONTH_MOVES = tuple(_month_moves(m, h, r) for m in range(12) for h in range(16) for r in range(16))


Event = tuple[int, str, Any]  # (player, what, detail)


def step(s: State, move: Move) -> tuple[State, tuple[Event, ...]]:
    """The state after ``move`` and what happened on the way, in order: (player, what, detail)
    for each draw, capture, junk received and bonus. Raises as ``State.apply`` does."""
    events: list[Event] = []
    return _BY_PHASE[s.phase](s, move, events), tuple(events)


def _play(s: State, mv: Move, ev: list[Event] | None) -> State:
    p = s.to_move
    kind = mv.kind
    hand = s.hands[p]
    row = s.row
    if kind == "card":
        c = mv.card
        b = 1 << c
        if not hand & b:
            raise IllegalMove(mv, "that card is not in your hand")
        here = row & MONTH_MASK[c >> 2]
        k = here.bit_count()
        t = mv.target
        if t >= 0:
            if k == 3:
                raise IllegalMove(
                    mv, "three cards of that number lie in the row: all are taken together"
                )
            if not here >> t & 1:
                raise IllegalMove(mv, NOT_A_SINGLE)
        elif k == 2:
            raise AmbiguousMove(mv, SAY_WHICH)
        hands = s.hands
        hands = hands[:p] + (hand ^ b,) + hands[p + 1 :]
        if k == 0:
            return _draw(s, p, hands, row | b, 0, 0, c, ev)
        if k == 3:
            owners, tokens, bonus = _take_group(s.owners, s.tokens, p, c >> 2, ev)
            s = derive(s, owners=owners, tokens=tokens)
            return _draw(s, p, hands, row ^ here, here | b, bonus, -1, ev)
        pair = (1 << t) if t >= 0 else here
        return _draw(s, p, hands, row ^ pair, 0, 0, -1, ev, pair | b)
    if kind == "bomb":
        mm = MONTH_MASK[mv.month - 1]
        mine = hand & mm
        if mine.bit_count() < 3:
            raise IllegalMove(mv, "to bomb you need three cards of that number in your hand")
        here = row & mm
        if here.bit_count() != 1:
            raise IllegalMove(
                mv, "to bomb, the fourth card of that number must lie alone in the row"
            )
        if ev is not None:
            ev.append((p, BOMB, mv.month))
        s = derive(s, credits=_set(s.credits, p, s.credits[p] + 2))
        hands = _set(s.hands, p, hand ^ mine)
        return _draw(s, p, hands, row ^ here, here | mine, 1, -1, ev)
    if kind == "pass":
        if not s.credits[p]:
            raise IllegalMove(mv, "you have no pass left from a bomb")
        s = derive(s, credits=_set(s.credits, p, s.credits[p] - 1))
        return _draw(s, p, s.hands, row, 0, 0, -1, ev)
    if kind == "shake":
        m = mv.month - 1
        if (hand & MONTH_MASK[m]).bit_count() < 3:
            raise IllegalMove(mv, "to shake you need three cards of that number in your hand")
        if s.shaken[p] >> m & 1:
            raise IllegalMove(mv, "you have already shaken that number")
        if ev is not None:
            ev.append((p, SHAKE, mv.month))
        return derive(
            s,
            reserves=_set(s.reserves, p, s.reserves[p] + 1),
            shaken=_set(s.shaken, p, s.shaken[p] | 1 << m),
        )
    raise IllegalMove(mv, "you may go or stop only when your turn ends at or above the threshold")


def _set(t: tuple[int, ...], i: int, v: int) -> tuple[int, ...]:
    return t[:i] + (v,) + t[i + 1 :]


def _take_group(
    owners: tuple[int, ...], tokens: tuple[int, ...], p: int, m: int, ev: list[Event] | None
) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """Someone takes the three cards of number m+1 in the row with the fourth: which bonus."""
    owner = owners[m]
    if owner < 0:
        name, bonus = THREE_FOR_ONE, 1
    else:
        name, bonus = (OWN_COLUMN, 2) if owner == p else (OTHER_COLUMN, 1)
        owners = _set(owners, m, -1)
        if tokens[owner] == m + 1:
            # The token goes home, or on to another column its owner still has.
            others = [i + 1 for i in range(12) if owners[i] == owner]
            tokens = _set(tokens, owner, others[0] if others else 0)
    if ev is not None:
        ev.append((p, name, m + 1))
    return owners, tokens, bonus


def _draw(
    s: State,
    p: int,
    hands: tuple[int, ...],
    row: int,
    take: int,
    bonus: int,
    alone: int,
    ev: list[Event] | None,
    col: int = 0,
    resume: bool = False,
) -> State:
    """Turn the top stock card and place it (not when ``resume``: a choice placed it), then
    finish the turn: collect, junk for the bonuses, the empty-row bonus, the animal reserve,
    and the go/stop check. ``take`` is what the played card took, ``alone`` a played card that
    lies alone in the row, ``col`` a played card with the row card it paired."""
    drawn = s.drawn
    rare: dict[str, Any] = {}  # what changes on few turns: the columns, the animal reserve...
    if not resume and drawn < len(s.stock):
        d = s.stock[drawn]
        drawn += 1
        db = 1 << d
        mm = MONTH_MASK[d >> 2]
        if ev is not None:
            ev.append((p, "draw", d))
        if col & mm:
            rest = row & mm
            if rest:
                # Pair + the other single + the drawn card: all four, as "3 for 1".
                take |= col | db | rest
                row ^= rest
                bonus += 1
                if ev is not None:
                    ev.append((p, THREE_FOR_ONE, (d >> 2) + 1))
            else:
                # The drawn card lands on the pair just made: a 3-card column with a token.
                row |= col | db
                rare["owners"] = _set(s.owners, d >> 2, p)
                if not s.tokens[p]:
                    rare["tokens"] = _set(s.tokens, p, (d >> 2) + 1)
                if ev is not None:
                    ev.append((p, "column", (d >> 2) + 1))
            col = 0
        elif alone >= 0 and alone >> 2 == d >> 2:
            row ^= 1 << alone
            take |= (1 << alone) | db
        else:
            here = row & mm
            k = here.bit_count()
            if k == 0:
                row |= db
            elif k == 1:
                take |= here | db
                row ^= here
            elif k == 2:
                return derive(
                    s, hands=hands, row=row, drawn=drawn, phase=DRAW, pending=(take | col, bonus, d)
                )
            else:
                owners, tokens, more = _take_group(s.owners, s.tokens, p, d >> 2, ev)
                rare["owners"], rare["tokens"] = owners, tokens
                take |= here | db
                row ^= here
                bonus += more
    take |= col
    n = s.players
    stores = s.stores
    mine = stores[p] | take
    if take:
        if ev is not None:
            ev.append((p, "capture", take))
        if not row:
            bonus += 1
            if ev is not None:
                ev.append((p, EMPTY_ROW, 0))
    if bonus:
        st = list(stores)
        for i in range(1, n):
            q = (p + i) % n
            sq = st[q]
            for _ in range(bonus):
                # A plain D if there is one, else a D+ (given whole), else nothing.
                g = sq & JUNK or sq & DOUBLE_JUNK
                if not g:
                    break
                g &= -g
                sq ^= g
                mine |= g
                if ev is not None:
                    ev.append((p, "receive", (q, g.bit_length() - 1)))
            st[q] = sq
        st[p] = mine
        stores = tuple(st)
    elif take:
        stores = stores[:p] + (mine,) + stores[p + 1 :]
    if take and not s.animal_reserve >> p & 1 and (mine & ANIMALS).bit_count() >= ANIMAL_RESERVE_AT:
        rare["animal_reserve"] = s.animal_reserve | 1 << p
        rare["reserves"] = _set(s.reserves, p, s.reserves[p] + 1)
        if ev is not None:
            ev.append((p, ANIMAL_RESERVE, 0))
    gos = s.gos[p]
    phase, to_move = PLAY, (p + 1) % n
    # Points reach the threshold, or pass the last go, only on a turn that takes cards.
    if (
        take
        and (cp := card_points(mine)) + (gos if gos < 2 else 2) >= THRESHOLD[n]
        and (gos == 0 or cp > s.last_go[p])
    ):
        phase, to_move = DECIDE, p
    elif drawn >= len(s.stock):
        phase, to_move = OVER, p
        rare["result"] = NAGARI
    if resume:
        rare["pending"] = None
    new = derive(s, hands=hands, stores=stores, row=row, drawn=drawn, phase=phase, to_move=to_move)
    return derive(new, **rare) if rare else new


def _draw_choice(s: State, mv: Move, ev: list[Event] | None) -> State:
    assert s.pending is not None
    take, bonus, d = s.pending
    if mv.kind != "card" or mv.card != d:
        raise IllegalMove(mv, f"pair the drawn card {card_text(d)} with a row card first")
    t = mv.target
    if t < 0:
        raise AmbiguousMove(mv, "say which row card the drawn card pairs with")
    if not (s.row & MONTH_MASK[d >> 2]) >> t & 1:
        raise IllegalMove(mv, NOT_A_SINGLE)
    row = s.row ^ (1 << t)
    return _draw(s, s.to_move, s.hands, row, take | 1 << t | 1 << d, bonus, -1, ev, 0, True)


def _decide(s: State, mv: Move, ev: list[Event] | None) -> State:
    p = s.to_move
    if mv.kind == "stop":
        if ev is not None:
            ev.append((p, "stop", 0))
        return derive(s, phase=OVER, result=STOPPED, winner=p)
    if mv.kind != "go":
        raise IllegalMove(mv, "your points reached the threshold: say go or stop")
    if s.drawn >= len(s.stock):
        raise IllegalMove(mv, "no turn is left: you can only stop")
    gos = s.gos[p] + 1
    if ev is not None:
        ev.append((p, "go", gos))
    reserves = s.reserves if gos <= 2 else _set(s.reserves, p, s.reserves[p] + 1)
    return derive(
        s,
        gos=_set(s.gos, p, gos),
        reserves=reserves,
        last_go=_set(s.last_go, p, card_points(s.stores[p])),
        phase=PLAY,
        to_move=(p + 1) % s.players,
    )


def _over(s: State, mv: Move, ev: list[Event] | None) -> State:
    raise IllegalMove(mv, "the game is over")


# The move's effect by phase (PLAY, DRAW, DECIDE, OVER); each appends what happened to ``ev``
# when step() asks for it.
_BY_PHASE = (_play, _draw_choice, _decide, _over)


@dataclass(frozen=True)
class View:
    """What one player may know: their own hand; the others' hand sizes and the cards they showed
    by shaking and still hold; the cards drawn from the stock so far; everything public. The
    others' other cards and the stock's order are hidden."""

    player: int
    hand: int
    hand_sizes: tuple[int, ...]
    shown: tuple[int, ...]  # per player: cards shown (a shake, four of a number) still in hand
    row: int
    owners: tuple[int, ...]
    tokens: tuple[int, ...]
    stores: tuple[int, ...]
    drawn_cards: tuple[int, ...]  # the stock's cards turned so far, in order
    stock_left: int
    dealer: int
    to_move: int
    phase: int
    gos: tuple[int, ...]
    reserves: tuple[int, ...]
    credits: tuple[int, ...]
    shaken: tuple[int, ...]
    animal_reserve: int
    last_go: tuple[int, ...]
    pending: tuple[int, int, int] | None
    winner: int
    result: str
    redeals: int

    @property
    def drawn_card(self) -> int:
        """The drawn card waiting for a choice, or -1."""
        return self.pending[2] if self.pending is not None else -1


def _shaken_mask(shaken: int) -> int:
    return sum(MONTH_MASK[m] for m in range(12) if shaken >> m & 1)


def view(s: State, player: int) -> View:
    """The state as ``player`` sees it (the others' hands and the stock order are hidden)."""
    # Four of a number in a hand ends the game at the deal, scored by the hands shown.
    everything = ALL if s.result == FOUR_IN_HAND else 0
    shown = tuple(0 if p == player else s.hands[p] & (_shaken_mask(s.shaken[p]) | everything)
                  for p in range(s.players))
    return View(
        player=player,
        hand=s.hands[player],
        hand_sizes=tuple(h.bit_count() for h in s.hands),
        shown=shown,
        row=s.row,
        owners=s.owners,
        tokens=s.tokens,
        stores=s.stores,
        drawn_cards=s.stock[: s.drawn],
        stock_left=s.stock_left,
        dealer=s.dealer,
        to_move=s.to_move,
        phase=s.phase,
        gos=s.gos,
        reserves=s.reserves,
        credits=s.credits,
        shaken=s.shaken,
        animal_reserve=s.animal_reserve,
        last_go=s.last_go,
        pending=s.pending,
        winner=s.winner,
        result=s.result,
        redeals=s.redeals,
    )


_SAMPLE_TRIES = 10_000  # a view from play is met within a few; only a forged one runs out


def _dealt(v: View, unseen: list[int]) -> list[int] | None:
    """The hands ``v``'s shuffled ``unseen`` cards deal, or None if a hand could not be so."""
    hands: list[int] = []
    at = 0
    for p, size in enumerate(v.hand_sizes):
        if p == v.player:
            hands.append(v.hand)
            continue
        need = size - v.shown[p].bit_count()
        dealt = mask_of(unseen[at : at + need])
        at += need
        # A row of four is redealt before the hands are looked at, so only then may one hold four.
        if dealt and (dealt & _shaken_mask(v.shaken[p])
                      or v.result != REDEAL and has_four(dealt | v.shown[p])):
            return None
        hands.append(v.shown[p] | dealt)
    return hands


def sample(v: View, rng: random.Random) -> State:
    """A state ``v`` could be of: the cards its player has not seen are shuffled and dealt to
    the other hands (beside the cards each showed) and to the rest of the stock, by their sizes.
    A deal no true game reaches is drawn again: a hand holding the last card of a number it
    shook (the shake would have shown it) or all four of a number (that ends the game at the
    deal). Rejection keeps every consistent deal equally likely."""
    seen = v.hand | v.row | mask_of(v.drawn_cards)
    for part in (*v.stores, *v.shown):
        seen |= part
    if v.pending is not None:
        seen |= v.pending[0] | 1 << v.pending[2]
    unseen = cards_in(ALL & ~seen)
    hidden = sum(size - v.shown[p].bit_count()
                 for p, size in enumerate(v.hand_sizes) if p != v.player)
    if len(unseen) - hidden != v.stock_left:
        raise ValueError(f"a view with {len(unseen)} unseen cards for {hidden} in the other "
                         f"hands and {v.stock_left} in the stock")
    for _ in range(_SAMPLE_TRIES):
        rng.shuffle(unseen)
        hands = _dealt(v, unseen)
        if hands is not None:
            break
    else:
        raise ValueError(f"no deal of the unseen cards fits this view in {_SAMPLE_TRIES} tries")
    return State(
        players=len(v.hand_sizes), dealer=v.dealer, hands=tuple(hands), stores=v.stores,
        row=v.row, owners=v.owners, tokens=v.tokens, stock=v.drawn_cards + tuple(unseen[hidden:]),
        drawn=len(v.drawn_cards), to_move=v.to_move, phase=v.phase, gos=v.gos,
        reserves=v.reserves, credits=v.credits, shaken=v.shaken,
        animal_reserve=v.animal_reserve, last_go=v.last_go, pending=v.pending, winner=v.winner,
        result=v.result, redeals=v.redeals,
    )

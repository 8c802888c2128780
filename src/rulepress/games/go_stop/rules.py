"""Go-Stop for 2 and 3 players: state, moves, the turn, bonuses, go/stop and the end.

Pure: chance is the seed (or an explicit stock order). Values are frozen dataclasses; card sets
are bit masks (see cards.py), so scoring a pile is a few popcounts and only the piles that
changed in a turn are rescored.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from rulepress.games.go_stop.cards import (
    ANIMALS,
    CARDS,
    DOUBLE_JUNK,
    JUNK,
    MONTH_MASK,
    NotationError,
    card_points,
    card_text,
    cards_in,
    mask_of,
    parse_card,
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


class IllegalMove(ValueError):
    """A move the rules forbid here; ``reason`` is stable text an example may claim."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class AmbiguousMove(IllegalMove):
    """The move leaves open which row card it pairs with."""


@dataclass(frozen=True)
class Move:
    """One decision: a card (with the row card it pairs with), shake, bomb, pass, go or stop."""

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
_TRIPLES = frozenset(n for n in range(16) if n.bit_count() == 3)


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
    drawn: int  # cards drawn from the stock so far
    to_move: int
    phase: int
    gos: tuple[int, ...]
    reserves: tuple[int, ...]
    credits: tuple[int, ...]  # bomb passes left
    shaken: tuple[int, ...]  # bit m set: this player has shaken number m + 1
    animal_reserve: int  # bit p set: player p took the animal reserve card
    last_go: tuple[int, ...]  # card points at the player's last go
    points: tuple[int, ...]  # card points of each storage (kept up to date, not recomputed)
    pending: tuple[int, int, int] | None = None  # DRAW: (cards to take, D per opponent, drawn)
    winner: int = -1
    result: str = PLAYING
    redeals: int = 0

    def _evolve(self, **changes: Any) -> State:
        # A frozen copy without dataclasses.replace's per-field overhead (the hot path).
        new = object.__new__(State)
        d = new.__dict__
        d.update(self.__dict__)
        d.update(changes)
        return new

    @property
    def threshold(self) -> int:
        return THRESHOLD[self.players]

    @property
    def stock_left(self) -> int:
        return len(self.stock) - self.drawn

    def additional(self, p: int) -> int:
        """Additional point cards: one for each of the first two gos."""
        return min(self.gos[p], 2)

    def current_points(self, p: int) -> int:
        return self.points[p] + self.additional(p)

    def final_score(self, p: int) -> int:
        if self.result == FOUR_IN_HAND:
            return card_points(self.hands[p])
        return self.current_points(p) << self.reserves[p]


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
    state = object.__new__(State)
    state.__dict__.update(
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
        points=zeros,
        pending=None,
        winner=-1,
        result=PLAYING,
        redeals=redeals,
    )
    if not check_deal:
        return state
    if has_four(row):
        return state._evolve(phase=OVER, result=REDEAL)
    for i in range(n):
        p = (dealer + i) % n
        if has_four(hands[p]):
            return state._evolve(phase=OVER, result=FOUR_IN_HAND, winner=p)
    return state


_LOW_NIBBLES = sum(1 << (4 * m) for m in range(12))


def has_four(mask: int) -> bool:
    """Does the set hold all four cards of some number?"""
    return bool(mask & mask >> 1 & mask >> 2 & mask >> 3 & _LOW_NIBBLES)


def deal(seed: int, players: int = 2) -> State:
    """A seeded game: dealer by lot, shuffle, deal; a row with four of a number is redealt."""
    return _deal(random.Random(seed), players)


def _deal(rng: random.Random, players: int) -> State:
    if players not in DEAL:
        raise ValueError("Go-Stop is for 2 or 3 players")
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
    if hand.bit_count() == 3 and len(singles) == 1:
        out.append(_BOMBS[m])
    return tuple(out)


# (number, hand cards of it, row cards of it) -> moves, so legal_moves is a few lookups.
_MONTH_MOVES = tuple(_month_moves(m, h, r) for m in range(12) for h in range(16) for r in range(16))


_MONTH_MOVES_SHAKE = tuple(
    _MONTH_MOVES[i] + ((_SHAKES[i >> 8],) if ((i >> 4) & 15).bit_count() == 3 else ())
    for i in range(len(_MONTH_MOVES))
)


def legal_moves(s: State) -> tuple[Move, ...]:
    """Every legal move in a fixed order: number by number, its cards (by card), bomb, shake;
    then pass. At the end of a turn: go, stop."""
    if s.phase == PLAY:
        p = s.to_move
        row = s.row
        shaken = s.shaken[p]
        out: list[Move] = []
        h = s.hands[p]
        if not shaken:
            # Fast path: one lookup per number held, shakes included in the table.
            table = _MONTH_MOVES_SHAKE
            while h:
                sh = ((h & -h).bit_length() - 1) & ~3
                hn = (h >> sh) & 15
                out += table[(sh << 6) | (hn << 4) | ((row >> sh) & 15)]
                h ^= hn << sh
        else:
            table = _MONTH_MOVES
            while h:
                m = ((h & -h).bit_length() - 1) >> 2
                sh = m << 2
                hn = (h >> sh) & 15
                out += table[(m << 8) | (hn << 4) | ((row >> sh) & 15)]
                if hn in _TRIPLES and not shaken >> m & 1:
                    out.append(_SHAKES[m])
                h ^= hn << sh
        if s.credits[p]:
            out.append(_SIMPLE["pass"])
        return tuple(out)
    if s.phase == DRAW:
        assert s.pending is not None
        d = s.pending[2]
        return tuple(_PAIRS[d, t] for t in cards_in(s.row & MONTH_MASK[d >> 2]))
    if s.phase == DECIDE:
        if s.drawn >= len(s.stock):
            return (_SIMPLE["stop"],)
        return (_SIMPLE["go"], _SIMPLE["stop"])
    return ()


Event = tuple[int, str, Any]  # (player, what, detail)


def apply(s: State, move: Move, events: list[Event] | None = None) -> State:
    """The state after ``move``; raises IllegalMove. ``events``, if given, records what happened."""
    if s.phase == PLAY:
        return _play(s, move, events)
    if s.phase == DRAW:
        return _draw_choice(s, move, events)
    if s.phase == DECIDE:
        return _decide(s, move, events)
    raise IllegalMove("the game is over")


def _play(s: State, mv: Move, ev: list[Event] | None) -> State:
    p = s.to_move
    kind = mv.kind
    hand = s.hands[p]
    row = s.row
    if kind == "card":
        c = mv.card
        b = 1 << c
        if not hand & b:
            raise IllegalMove("that card is not in your hand")
        here = row & MONTH_MASK[c >> 2]
        k = here.bit_count()
        t = mv.target
        if t >= 0:
            if k == 3:
                raise IllegalMove(
                    "three cards of that number lie in the row: all are taken together"
                )
            if not here >> t & 1:
                raise IllegalMove(NOT_A_SINGLE)
        elif k == 2:
            raise AmbiguousMove(SAY_WHICH)
        hands = s.hands
        hands = hands[:p] + (hand ^ b,) + hands[p + 1 :]
        if k == 0:
            return _draw(s, p, hands, row | b, 0, 0, c, s.credits, ev)
        if k == 3:
            owners, tokens, bonus = _take_group(s.owners, s.tokens, p, c >> 2, ev)
            return _draw(
                s._evolve(owners=owners, tokens=tokens),
                p,
                hands,
                row ^ here,
                here | b,
                bonus,
                -1,
                s.credits,
                ev,
            )
        pair = (1 << t) if t >= 0 else here
        return _draw(s, p, hands, row ^ pair, 0, 0, -1, s.credits, ev, pair | b)
    if kind == "bomb":
        mm = MONTH_MASK[mv.month - 1]
        mine = hand & mm
        if mine.bit_count() < 3:
            raise IllegalMove("to bomb you need three cards of that number in your hand")
        here = row & mm
        if here.bit_count() != 1:
            raise IllegalMove("to bomb, the fourth card of that number must lie alone in the row")
        if ev is not None:
            ev.append((p, BOMB, mv.month))
        credits = _set(s.credits, p, s.credits[p] + 2)
        return _draw(
            s, p, _set(s.hands, p, hand ^ mine), row ^ here, here | mine, 1, -1, credits, ev
        )
    if kind == "pass":
        if not s.credits[p]:
            raise IllegalMove("you have no pass left from a bomb")
        credits = _set(s.credits, p, s.credits[p] - 1)
        return _draw(s, p, s.hands, row, 0, 0, -1, credits, ev)
    if kind == "shake":
        m = mv.month - 1
        if (hand & MONTH_MASK[m]).bit_count() < 3:
            raise IllegalMove("to shake you need three cards of that number in your hand")
        if s.shaken[p] >> m & 1:
            raise IllegalMove("you have already shaken that number")
        if ev is not None:
            ev.append((p, SHAKE, mv.month))
        return s._evolve(
            reserves=_set(s.reserves, p, s.reserves[p] + 1),
            shaken=_set(s.shaken, p, s.shaken[p] | 1 << m),
        )
    raise IllegalMove("you may go or stop only when your turn ends at or above the threshold")


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
    credits: tuple[int, ...],
    ev: list[Event] | None,
    col: int = 0,
    resume: bool = False,
) -> State:
    """Turn the top stock card and place it (not when ``resume``: a choice placed it), then
    finish the turn: collect, junk for the bonuses, the empty-row bonus, the animal reserve,
    and the go/stop check."""
    drawn = s.drawn
    owners, tokens = s.owners, s.tokens
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
                owners = _set(owners, d >> 2, p)
                if not tokens[p]:
                    tokens = _set(tokens, p, (d >> 2) + 1)
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
                return s._evolve(
                    hands=hands,
                    row=row,
                    owners=owners,
                    tokens=tokens,
                    drawn=drawn,
                    credits=credits,
                    phase=DRAW,
                    pending=(take | col, bonus, d),
                )
            else:
                owners, tokens, more = _take_group(owners, tokens, p, d >> 2, ev)
                take |= here | db
                row ^= here
                bonus += more
    take |= col
    n = s.players
    stores = s.stores
    points = s.points
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
        pts = list(points)
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
            if sq != st[q]:
                st[q] = sq
                pts[q] = card_points(sq)
        st[p] = mine
        pts[p] = card_points(mine)
        stores, points = tuple(st), tuple(pts)
    elif take:
        stores = stores[:p] + (mine,) + stores[p + 1 :]
        points = points[:p] + (card_points(mine),) + points[p + 1 :]
    new = object.__new__(State)
    fields = new.__dict__
    fields.update(s.__dict__)
    fields["hands"] = hands
    fields["stores"] = stores
    fields["row"] = row
    fields["drawn"] = drawn
    fields["points"] = points
    fields["owners"] = owners
    fields["tokens"] = tokens
    fields["credits"] = credits
    fields["pending"] = None
    if not s.animal_reserve >> p & 1 and (mine & ANIMALS).bit_count() >= ANIMAL_RESERVE_AT:
        fields["animal_reserve"] = s.animal_reserve | 1 << p
        fields["reserves"] = _set(s.reserves, p, s.reserves[p] + 1)
        if ev is not None:
            ev.append((p, ANIMAL_RESERVE, 0))
    cp = points[p]
    gos = s.gos[p]
    if cp + (gos if gos < 2 else 2) >= THRESHOLD[n] and (gos == 0 or cp > s.last_go[p]):
        fields["phase"] = DECIDE
        fields["to_move"] = p
    elif drawn >= len(s.stock):
        fields["phase"] = OVER
        fields["result"] = NAGARI
    else:
        fields["phase"] = PLAY
        fields["to_move"] = (p + 1) % n
    return new


def _draw_choice(s: State, mv: Move, ev: list[Event] | None) -> State:
    assert s.pending is not None
    take, bonus, d = s.pending
    if mv.kind != "card" or mv.card != d:
        raise AmbiguousMove("say which row card the drawn card pairs with")
    t = mv.target
    if t < 0 or not (s.row & MONTH_MASK[d >> 2]) >> t & 1:
        raise IllegalMove(NOT_A_SINGLE)
    p = s.to_move
    row = s.row ^ (1 << t)
    return _draw(s, p, s.hands, row, take | 1 << t | 1 << d, bonus, -1, s.credits, ev, 0, True)


def _decide(s: State, mv: Move, ev: list[Event] | None) -> State:
    p = s.to_move
    if mv.kind == "stop":
        if ev is not None:
            ev.append((p, "stop", 0))
        return s._evolve(phase=OVER, result=STOPPED, winner=p)
    if mv.kind != "go":
        raise IllegalMove("your points reached the threshold: say go or stop")
    if s.drawn >= len(s.stock):
        raise IllegalMove("no turn is left: you can only stop")
    gos = s.gos[p] + 1
    if ev is not None:
        ev.append((p, "go", gos))
    reserves = s.reserves if gos <= 2 else _set(s.reserves, p, s.reserves[p] + 1)
    return s._evolve(
        gos=_set(s.gos, p, gos),
        reserves=reserves,
        last_go=_set(s.last_go, p, s.points[p]),
        phase=PLAY,
        to_move=(p + 1) % s.players,
    )


@dataclass(frozen=True)
class View:
    """What one player may know: their own hand; the others' hand sizes; everything public."""

    player: int
    hand: int
    hand_sizes: tuple[int, ...]
    row: int
    owners: tuple[int, ...]
    stores: tuple[int, ...]
    stock_left: int
    to_move: int
    phase: int
    gos: tuple[int, ...]
    reserves: tuple[int, ...]
    credits: tuple[int, ...]
    drawn_card: int  # the drawn card waiting for a choice, or -1


def view(s: State, player: int) -> View:
    """The state as ``player`` sees it (hands and the stock order are hidden)."""
    return View(
        player=player,
        hand=s.hands[player],
        hand_sizes=tuple(h.bit_count() for h in s.hands),
        row=s.row,
        owners=s.owners,
        stores=s.stores,
        stock_left=s.stock_left,
        to_move=s.to_move,
        phase=s.phase,
        gos=s.gos,
        reserves=s.reserves,
        credits=s.credits,
        drawn_card=s.pending[2] if s.pending is not None else -1,
    )


def random_game(seed: int, players: int = 2) -> State:
    """A complete seeded game with uniformly random legal decisions (tests and benchmark)."""
    rng = random.Random(seed)
    state = _deal(rng, players)
    rand = rng.random
    while state.phase != OVER:
        moves = legal_moves(state)
        n = len(moves)
        if not n:
            break
        move = moves[int(rand() * n)] if n > 1 else moves[0]
        state = _play(state, move, None) if state.phase == PLAY else apply(state, move)
    return state

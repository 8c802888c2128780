"""Go-Stop test helpers shared by the engine test files (no tests here): cards by notation,
moves by notation, and a two-player position at the start of play."""

from __future__ import annotations

from rulepress.games.base import derive
from rulepress.games.go_stop.cards import mask_of, parse_card
from rulepress.games.go_stop.rules import Move, State, start


def m(*texts: str) -> int:
    return mask_of([parse_card(t) for t in texts])


def play(s: State, *moves: str) -> State:
    for text in moves:
        s = s.apply(Move.parse(text))
    return s


def two(hand1: int, hand2: int, row: int, stock: list[str], **changes: object) -> State:
    s = start([hand1, hand2], row, [parse_card(t) for t in stock], 0, check_deal=False)
    return derive(s, **changes) if changes else s

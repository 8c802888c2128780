"""The standard 52-card deck shared by Pigeon Race and Pigeon: suits, faces and their notation.

A card is written rank then suit, in any case: ``6H``, ``10s``, ``TD`` (T stands for 10), ``KC``.
What a rank is worth is each game's business, so ranks here may count the ace as 1 (Pigeon) or
14 (Pigeon Race): both name the same face, ``(rank - 1) % 13`` places it in FACES either way.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Protocol, TypeVar

from rulepress.games.base import NotationError

SUITS = ("C", "D", "H", "S")  # clubs, diamonds, hearts, spades
RED_SUITS = frozenset({"D", "H"})
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
CARD_NAME = "{rank} of {suit}"  # a card in words; a translation may order it otherwise

# The thirteen faces, ace first, as their rank letters and English words.
FACES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
FACE_WORDS = (
    "ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king",
)  # fmt: skip
_ALIASES = {"10": ("T",)}  # other ways to write a face when parsing; never printed


class _Card(Protocol):
    @property
    def rank(self) -> int: ...
    @property
    def suit(self) -> str: ...


CardT = TypeVar("CardT", bound=_Card)


def face(rank: int) -> str:
    """The rank letter printed on the card: 1 or 14 -> 'A', 10 -> '10', 12 -> 'Q'."""
    return FACES[(rank - 1) % 13]


def card_text(rank: int, suit: str) -> str:
    """The card's canonical notation: '6H', '10S', 'AD'."""
    return face(rank) + suit


def card_name(rank: int, suit: str) -> str:
    """The card in English: 'six of hearts', 'ace of spades'."""
    return CARD_NAME.format(rank=FACE_WORDS[(rank - 1) % 13], suit=SUIT_NAMES[suit])


def is_red(suit: str) -> bool:
    return suit in RED_SUITS


def notation_table(deck: Iterable[CardT]) -> dict[str, CardT]:
    """Every accepted spelling (upper case) of every card -> that card, for parse_card."""
    table: dict[str, CardT] = {}
    for card in deck:
        letter = face(card.rank)
        for spelling in (letter, *_ALIASES.get(letter, ())):
            table[spelling + card.suit] = card
    return table


def not_a_card(text: object) -> str:
    """The one message for text that names no card."""
    return (
        f"'{text}' is not a card: write a rank (A, 2-10, J, Q, K) then a suit (C, D, H, S), "
        "e.g. 6H, 10S or KD"
    )


def parse_card(table: Mapping[str, CardT], text: object) -> CardT:
    """Look ``text`` up in a notation_table; text that names no card is a NotationError."""
    card = table.get(str(text).strip().upper())
    if card is None:
        raise NotationError(not_a_card(text))
    return card


def misplaced(deck: Iterable[CardT], held: Iterable[CardT]) -> str | None:
    """None when ``held`` is every card of ``deck`` once; else which are doubled and missing
    (an invariant of any state that deals the whole deck)."""
    count = Counter(held)
    cards = list(deck)
    doubled = [str(c) for c in cards if count[c] > 1]
    missing = [str(c) for c in cards if count[c] == 0]
    if not doubled and not missing and count.total() == len(cards):
        return None
    return f"every card is in one place: doubled {doubled}, missing {missing}"

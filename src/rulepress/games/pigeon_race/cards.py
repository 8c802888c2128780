"""The standard 52-card deck as Pigeon Race values it: ranks 2..14, aces high.

Suits, notation and names come from rulepress.games.cards; only the values are this game's.
"""

from __future__ import annotations

from typing import NamedTuple

from rulepress.plugin import RED_SUITS, SUITS, card_name, card_text, notation_table, parse_card


class Card(NamedTuple):
    """A card as an immutable pair: a tuple hashes and compares in C, and the race's move loop
    looks cards up in hands and caches at every turn."""

    rank: int  # 2..10, J=11, Q=12, K=13, A=14
    suit: str  # one of SUITS

    @property
    def red(self) -> bool:
        return self.suit in RED_SUITS

    @property
    def name(self) -> str:
        """'six of hearts', 'ace of spades'."""
        return card_name(self.rank, self.suit)

    def __str__(self) -> str:
        return card_text(self.rank, self.suit)

    @classmethod
    def parse(cls, text: str) -> Card:
        """'6H', '10S', 'TS', 'qd' -> Card. Raises NotationError."""
        return parse_card(_BY_TEXT, text)


# The 52 cards, built once and shared, so states only ever hold these objects.
DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in range(2, 15))
_BY_TEXT = notation_table(DECK)

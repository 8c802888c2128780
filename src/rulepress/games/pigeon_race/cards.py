"""The standard 52-card deck as Pigeon Race uses it: ranks 2..14 (aces high), four suits."""

from __future__ import annotations

from dataclasses import dataclass

SUITS = ("C", "D", "H", "S")  # clubs, diamonds, hearts, spades
RED_SUITS = frozenset({"D", "H"})
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
RANK_LABELS = {11: "J", 12: "Q", 13: "K", 14: "A"}
RANK_NAMES = {11: "jack", 12: "queen", 13: "king", 14: "ace"}


class CardError(ValueError):
    """A card written in notation that names no card."""


@dataclass(frozen=True, slots=True)
class Card:
    rank: int  # 2..10, J=11, Q=12, K=13, A=14
    suit: str  # one of SUITS

    @property
    def red(self) -> bool:
        return self.suit in RED_SUITS

    @property
    def label(self) -> str:
        return RANK_LABELS.get(self.rank, str(self.rank))

    @property
    def name(self) -> str:
        """'six of hearts', 'ace of spades'."""
        words = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
        rank = RANK_NAMES.get(self.rank) or words[self.rank - 2]
        return f"{rank} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return f"{self.label}{self.suit}"

    @classmethod
    def parse(cls, text: str) -> Card:
        """'6H', '10S', 'TS', 'qd' -> Card. Raises CardError."""
        card = _BY_TEXT.get(str(text).strip().upper())
        if card is None:
            raise CardError(
                f"'{text}' is not a card: write a rank (2-10, J, Q, K, A) and a suit "
                "(C, D, H, S), e.g. 6H or 10S"
            )
        return card


# The 52 cards, built once and shared, so states only ever hold these objects.
DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in range(2, 15))
_BY_TEXT: dict[str, Card] = {}
for _card in DECK:
    _BY_TEXT[str(_card)] = _card
    if _card.rank == 10:
        _BY_TEXT[f"T{_card.suit}"] = _card

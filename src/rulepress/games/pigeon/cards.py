"""Playing cards for Pigeon: ranks 1..13 (aces low), interned cards and card lists.

Suits and notation (``7H``, ``10D``, ``KS``) come from rulepress.games.cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulepress.plugin import RED_SUITS, SUITS, card_text, face, notation_table, parse_card

ACE, KING = 1, 13


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    rank: int  # 1 (Ace, low) to 13 (King, high)
    suit: str  # one of SUITS
    red: bool = field(init=False, repr=False, compare=False)  # stored: the engine asks often

    def __post_init__(self) -> None:
        object.__setattr__(self, "red", self.suit in RED_SUITS)

    # Written out: the generated versions hash and compare field tuples, a hot path.
    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Card):
            return NotImplemented
        return self.rank == other.rank and self.suit == other.suit

    def __hash__(self) -> int:
        return hash((self.rank, self.suit))

    @property
    def rank_name(self) -> str:
        return face(self.rank)

    def __str__(self) -> str:
        return card_text(self.rank, self.suit)

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @staticmethod
    def parse(text: str) -> Card:
        return parse_card(_BY_NAME, text)


# Canonical deck order: clubs A..K, diamonds, hearts, spades. Cards are interned, so
# identity and equality agree and lookups stay cheap.
DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))
_BY_NAME = notation_table(DECK)


def parse_cards(text: str | list[str] | tuple[str, ...]) -> tuple[Card, ...]:
    """'7H 8H 9H' or ['7H', '8H'] -> cards, in the order written."""
    items = text.replace(",", " ").split() if isinstance(text, str) else [str(t) for t in text]
    return tuple(Card.parse(t) for t in items)

"""Playing cards for Pigeon: the 52-card deck and its short notation (``7H``, ``10D``, ``KS``)."""

from __future__ import annotations

from dataclasses import dataclass, field

RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")  # clubs, diamonds, hearts, spades
RED_SUITS = frozenset({"D", "H"})
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
ACE, KING = 1, 13


class NotationError(ValueError):
    """Text that is not a card or a move in Pigeon notation."""


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
        return RANK_NAMES[self.rank - 1]

    def __str__(self) -> str:
        return f"{self.rank_name}{self.suit}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @staticmethod
    def parse(text: str) -> Card:
        card = _BY_NAME.get(text.strip().upper())
        if card is None:
            raise NotationError(
                f"'{text}' is not a card: write rank then suit, e.g. 7H, 10D, KS "
                "(ranks A 2-10 J Q K; suits C D H S)"
            )
        return card


# Canonical deck order: clubs A..K, diamonds, hearts, spades. Cards are interned, so
# identity and equality agree and lookups stay cheap.
DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))
_BY_NAME: dict[str, Card] = {str(c): c for c in DECK}
_BY_NAME.update({f"T{c.suit}": c for c in DECK if c.rank == 10})
DECK_INDEX: dict[Card, int] = {c: i for i, c in enumerate(DECK)}


def parse_cards(text: str | list[str] | tuple[str, ...]) -> tuple[Card, ...]:
    """'7H 8H 9H' or ['7H', '8H'] -> cards, in the order written."""
    items = text.replace(",", " ").split() if isinstance(text, str) else [str(t) for t in text]
    return tuple(Card.parse(t) for t in items)


def cards_text(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(str(c) for c in cards)

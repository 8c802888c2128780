"""What each print house makes, from its published templates: the trim, the bleed and the safe
area of each product, in inches at the house's 300 dpi (each figure's source is noted at it).

The Game Crafter: every product's image is its trim plus 1/8 in of bleed on each side
(poker card 825 x 1125 px), with the safe area 1/8 in inside the trim. MakePlayingCards: the
trim plus 0.12 in (36 px) of bleed on each side (poker card 822 x 1122 px), safe area 0.12 in
inside the trim. DriveThruCards: 1/8 in of bleed (a poker card's page is 2.75 x 3.75 in), safe area
1/8 in inside the trim.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulepress.document.model import Component
from rulepress.units import Size

DPI = 300
MM_PER_IN = 25.4
FIT_MM = 1.0  # a component fits a product whose trim is within 1 mm of its size, each side


@dataclass(frozen=True)
class Product:
    house: str
    name: str
    width: float  # trim, inches, portrait (width <= height)
    height: float
    bleed: float  # inches, each side
    safe: float  # inches inside the trim
    ink: int = 300  # the house's total ink limit, percent (C + M + Y + K)

    @property
    def pixels(self) -> tuple[int, int]:
        """The image's size at the house's dpi, bleed included (portrait)."""
        return (round((self.width + 2 * self.bleed) * DPI),
                round((self.height + 2 * self.bleed) * DPI))

    @property
    def trim_mm(self) -> tuple[float, float]:
        return self.width * MM_PER_IN, self.height * MM_PER_IN

    def label(self) -> str:
        return f"{self.name} ({self.width:g} x {self.height:g} in)"


def _tgc(name: str, w: float, h: float) -> Product:
    return Product("tgc", name, w, h, 0.125, 0.125)


def _mpc(name: str, w: float, h: float) -> Product:
    return Product("mpc", name, w, h, 0.12, 0.12)


# Each product's image size at 300 dpi, bleed included, as the house publishes it; the trims
# below are those sizes less the bleed. Where a component fits two products of one size (a
# 2.5 in square: a card or a tile), the first listed wins.
PRODUCTS: dict[str, tuple[Product, ...]] = {
    # The Game Crafter: its product pages, https://www.thegamecrafter.com/make/products/<Id>
    # (image sizes as its API gives them, https://www.thegamecrafter.com/api/tgc/products/<Id>),
    # and https://help.thegamecrafter.com/article/33-dpi-dots-per-inch (1/8 in bleed and safe).
    "tgc": (
        _tgc("Poker Card", 2.5, 3.5),  # PokerDeck 825 x 1125
        _tgc("Bridge Card", 2.25, 3.5),  # BridgeDeck 750 x 1125
        _tgc("Business Card", 2.0, 3.5),  # BusinessDeck 675 x 1125
        _tgc("Domino Card", 1.75, 3.5),  # DominoDeck 600 x 1125
        _tgc("Mini Card", 1.75, 2.5),  # MiniDeck 600 x 825
        _tgc("Micro Card", 1.25, 1.75),  # MicroDeck 450 x 600
        _tgc("Tarot Card", 2.75, 4.75),  # TarotDeck 900 x 1500
        _tgc("Jumbo Card", 3.5, 5.5),  # JumboDeck 1125 x 1725
        _tgc("Square Card", 3.5, 3.5),  # SquareDeck 1125 x 1125
        _tgc("Small Square Card", 2.5, 2.5),  # SmallSquareDeck 825 x 825
        _tgc("Euro Square Card", 2.75, 2.75),  # EuroSquareDeck 900 x 900
        _tgc("Small Square Chit", 0.5, 0.5),  # SmallSquareChit 225 x 225
        _tgc("Medium Square Chit", 0.75, 0.75),  # MediumSquareChit 300 x 300
        _tgc("Large Square Chit", 1.0, 1.0),  # LargeSquareChit 375 x 375
        _tgc("Small Circle Chit", 0.5, 0.5),  # SmallCircleChit 225 x 225
        _tgc("Medium Circle Chit", 0.75, 0.75),  # MediumCircleChit 300 x 300
        _tgc("Large Circle Chit", 1.0, 1.0),  # LargeCircleChit 375 x 375
        _tgc("Mini Square Tile", 1.25, 1.25),  # MiniSquareTile 450 x 450
        _tgc("Small Square Tile", 2.0, 2.0),  # SmallSquareTile 675 x 675
        _tgc("Medium Square Tile", 2.5, 2.5),  # MediumSquareTile 825 x 825
        _tgc("Large Square Tile", 3.5, 3.5),  # LargeSquareTile 1125 x 1125
        _tgc("Small Square Board", 4.0, 4.0),  # SmallSquareBoard 1275 x 1275
        _tgc("Quarter Board", 5.0, 5.0),  # QuarterBoard 1575 x 1575
        _tgc("Square Board", 8.0, 8.0),  # SquareBoard 2475 x 2475
        _tgc("Large Square Board", 10.0, 10.0),  # LargeSquareBoard 3075 x 3075
        _tgc("Strip Board", 2.0, 10.0),  # StripBoard 675 x 3075
        _tgc("Sliver Board", 2.0, 8.0),  # SliverBoard 675 x 2475
        _tgc("Skinny Board", 4.0, 10.0),  # SkinnyBoard 1275 x 3075
        _tgc("Domino Board", 4.0, 8.0),  # DominoBoard 1275 x 2475
        _tgc("Half Board", 5.0, 10.0),  # HalfBoard 1575 x 3075
        _tgc("Accordion Board", 8.0, 16.0),  # AccordionBoard 2475 x 4875
        _tgc("Bi-Fold Board", 9.0, 18.0),  # BiFoldBoard 2775 x 5475
        _tgc("Quad-Fold Board", 18.0, 18.0),  # QuadFoldBoard 5475 x 5475
        _tgc("Six-Fold Board", 18.0, 27.0),  # SixFoldBoard 5475 x 8175
    ),
    # MakePlayingCards: its upload FAQ, https://www.makeplayingcards.com/faq-photo.aspx (36 px,
    # 0.12 in, of bleed cut off each side; the safe line 36 px further in). Only the sizes
    # whose pixels are confirmed are listed; its square cards are not.
    "mpc": (
        _mpc("Poker Card", 2.5, 3.5),  # 822 x 1122
        _mpc("Bridge Card", 2.25, 3.5),  # 747 x 1122
        _mpc("Business Card", 2.0, 3.5),  # 672 x 1122
        _mpc("Domino Card", 1.75, 3.5),  # 597 x 1122
        _mpc("Mini Card", 1.75, 2.5),  # 597 x 822
        _mpc("Micro Card", 1.25, 1.75),  # 447 x 597
        _mpc("Tarot Card", 2.75, 4.75),  # 897 x 1497
        _mpc("Jumbo Card", 3.5, 5.0),  # 1122 x 1572
    ),
    # DriveThruCards: a poker card's page is 2.75 x 3.75 in (1/8 in bleed), as its card
    # guidelines at https://www.drivethrucards.com give it; the square and tarot pages and the
    # 240% ink limit are assumed, not read from a published spec: check them there before
    # relying on the preflight for those sizes.
    "dtc": (
        Product("dtc", "Poker Card", 2.5, 3.5, 0.125, 0.125, ink=240),
        Product("dtc", "Square Card", 3.5, 3.5, 0.125, 0.125, ink=240),
        Product("dtc", "Tarot Card", 2.75, 4.75, 0.125, 0.125, ink=240),
    ),
}


@dataclass(frozen=True)
class Fit:
    """A product for a component: at which of its sizes, and turned a quarter or not."""

    product: Product
    size: Size
    variant: str  # "" for the component's own size
    turned: bool  # the component is landscape, the product's image portrait


def _gap(size: Size, p: Product) -> tuple[float, bool]:
    pw, ph = p.trim_mm
    straight = max(abs(size.width - pw), abs(size.height - ph))
    turned = max(abs(size.height - pw), abs(size.width - ph))
    return min(straight, turned), turned < straight


def fit(comp: Component, house: str, round_piece: bool = False) -> Fit | None:
    """The product of ``house`` that fits the component, at its size or else at one of its
    size variants (in their order), or None; ``round_piece``: a round product (a circle chit)
    before a square one of its size."""
    assert comp.size is not None
    products = sorted(PRODUCTS[house], key=lambda p: ("Circle" in p.name) != round_piece)
    for variant, size in (("", comp.size), *comp.variants.items()):
        for p in products:
            gap, turned = _gap(size, p)
            if gap <= FIT_MM:
                return Fit(p, size, variant, turned)
    return None


def nearest(comp: Component, house: str, most: int = 3) -> list[Product]:
    assert comp.size is not None
    size = comp.size
    return sorted(PRODUCTS[house], key=lambda p: _gap(size, p)[0])[:most]

"""What each print house makes, from its published templates: the trim, the bleed and the safe
area of each product, in inches at the house's 300 dpi.

The Game Crafter: every product's image is its trim plus 1/8 in of bleed on each side
(poker card 825 x 1125 px), with the safe area 1/8 in inside the trim. MakePlayingCards: the
trim plus 0.12 in of bleed on each side (poker card 822 x 1122 px), safe area 0.12 in inside
the trim. DriveThruCards: 1/8 in of bleed (a poker card's page is 2.75 x 3.75 in), safe area
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


PRODUCTS: dict[str, tuple[Product, ...]] = {
    "tgc": (
        _tgc("Poker Card", 2.5, 3.5),
        _tgc("Bridge Card", 2.25, 3.5),
        _tgc("Mini Card", 1.75, 2.5),
        _tgc("Tarot Card", 2.75, 4.75),
        _tgc("Jumbo Card", 3.5, 5.5),
        _tgc("Square Card", 3.5, 3.5),
        _tgc("Small Square Chit", 0.75, 0.75),
        _tgc("Medium Square Chit", 1.0, 1.0),
        _tgc("Large Square Chit", 1.5, 1.5),
        _tgc("Small Circle Chit", 0.75, 0.75),
        _tgc("Medium Circle Chit", 1.0, 1.0),
        _tgc("Large Circle Chit", 1.5, 1.5),
        _tgc("Small Square Tile", 2.0, 2.0),
        _tgc("Medium Square Tile", 3.0, 3.0),
        _tgc("Bi-Fold Board", 10.0, 10.0),
        _tgc("Quad-Fold Board", 18.0, 18.0),
    ),
    "mpc": (
        _mpc("Poker Card", 2.5, 3.5),
        _mpc("Bridge Card", 2.25, 3.5),
        _mpc("Mini Card", 1.75, 2.5),
        _mpc("Tarot Card", 2.75, 4.75),
        _mpc("Jumbo Card", 3.5, 5.75),
        _mpc("Square Card", 2.5, 2.5),
        _mpc("Small Square Card", 2.0, 2.0),
    ),
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


def fit(comp: Component, house: str) -> Fit | None:
    """The product of ``house`` that fits the component, at its size or else at one of its
    size variants (in their order), or None."""
    assert comp.size is not None
    for variant, size in (("", comp.size), *comp.variants.items()):
        for p in PRODUCTS[house]:
            gap, turned = _gap(size, p)
            if gap <= FIT_MM:
                return Fit(p, size, variant, turned)
    return None


def nearest(comp: Component, house: str, most: int = 3) -> list[Product]:
    assert comp.size is not None
    size = comp.size
    return sorted(PRODUCTS[house], key=lambda p: _gap(size, p)[0])[:most]

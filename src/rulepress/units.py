"""Physical lengths: parsed here and nowhere else."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulepress.limits import MAX_LENGTH_MM, MIN_LENGTH_MM

MM_PER_UNIT = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72}
POINTS_PER_MM = 72 / 25.4

_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*([a-z]+)\s*$")


class UnitError(ValueError):
    pass


def _measure(text: str) -> float:
    """A number and a unit, more than zero -> millimetres."""
    m = _LENGTH.match(str(text))
    if not m:
        raise UnitError(
            f"'{shorten(text)}' is not a length: write a number and a unit, e.g. 63.5mm")
    value, unit = float(m.group(1)), m.group(2)
    if unit not in MM_PER_UNIT:
        raise UnitError(f"'{text}' has unknown unit '{unit}': use one of {', '.join(MM_PER_UNIT)}")
    if value <= 0:
        raise UnitError(f"'{text}' must be greater than zero")
    return value * MM_PER_UNIT[unit]


def parse_length(text: str) -> float:
    """'63.5mm', '2.5in', '3 cm', '12pt' -> millimetres: more than zero, at most the longest
    printable length (a type size or a line width may be far below a component's smallest)."""
    length = _measure(text)
    if not length <= MAX_LENGTH_MM:  # also refuses inf, from 400 nines
        raise UnitError(f"'{shorten(text)}' is longer than the longest printable length, "
                        f"{MAX_LENGTH_MM:g} mm")
    return length


def shorten(text: str, most: int = 40) -> str:
    return text if len(text) <= most else f"{text[:most - 3]}..."


_OFFSET = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*([a-z]+|%)?\s*$")


def parse_offset(text: str, whole: float | None = None) -> float:
    """A position or extent inside a face -> millimetres: '3mm', '-2mm', '0', or '50%' of
    ``whole`` (millimetres) where a percentage makes sense. Zero and negatives are allowed."""
    m = _OFFSET.match(str(text))
    if not m:
        raise UnitError(f"'{text}' is not a length: write a number and a unit, e.g. 3mm")
    value, unit = float(m.group(1)), m.group(2)
    if unit is None:
        if value == 0:
            return 0.0
        raise UnitError(f"'{text}' has no unit: write e.g. {m.group(1)}mm")
    if unit == "%":
        if whole is None:
            raise UnitError(f"'{text}': a percentage has no meaning here; use mm, cm, in or pt")
        return value * whole / 100
    if unit not in MM_PER_UNIT:
        raise UnitError(f"'{text}' has unknown unit '{unit}': use one of {', '.join(MM_PER_UNIT)}"
                        + (" or %" if whole is not None else ""))
    return value * MM_PER_UNIT[unit]


@dataclass(frozen=True)
class Size:
    """A width x height in millimetres."""

    width: float
    height: float

    @classmethod
    def parse(cls, text: str) -> Size:
        """'63.5mm x 88.9mm' -> Size(63.5, 88.9)."""
        parts = re.split(r"\s*[x×]\s*", str(text).strip())
        if len(parts) != 2:
            raise UnitError(f"'{text}' is not a size: write width x height, e.g. 63.5mm x 88.9mm")
        sides = [_measure(part) for part in parts]
        for part, side in zip(parts, sides, strict=True):
            if not MIN_LENGTH_MM <= side <= MAX_LENGTH_MM:  # also refuses inf, from 400 nines
                raise UnitError(f"'{shorten(part)}' is outside the printable range, "
                                f"{MIN_LENGTH_MM:g} mm to {MAX_LENGTH_MM:g} mm")
        return cls(*sides)

    @property
    def points(self) -> tuple[float, float]:
        return self.width * POINTS_PER_MM, self.height * POINTS_PER_MM

    def __str__(self) -> str:
        return f"{self.width:g} x {self.height:g} mm"


def mm(value: float) -> float:
    """Millimetres to PDF points."""
    return value * POINTS_PER_MM

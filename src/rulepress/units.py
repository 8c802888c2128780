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


def parse_length(text: str) -> float:
    """'63.5mm', '2.5in', '3 cm', '12pt' -> millimetres, within the printable limits."""
    m = _LENGTH.match(str(text))
    if not m:
        raise UnitError(
            f"'{shorten(text)}' is not a length: write a number and a unit, e.g. 63.5mm")
    value, unit = float(m.group(1)), m.group(2)
    if unit not in MM_PER_UNIT:
        raise UnitError(f"'{text}' has unknown unit '{unit}': use one of {', '.join(MM_PER_UNIT)}")
    if value <= 0:
        raise UnitError(f"'{text}' must be greater than zero")
    length = value * MM_PER_UNIT[unit]
    if not MIN_LENGTH_MM <= length <= MAX_LENGTH_MM:  # also refuses inf, from 400 nines
        raise UnitError(f"'{shorten(text)}' is outside the printable range, "
                        f"{MIN_LENGTH_MM:g} mm to {MAX_LENGTH_MM:g} mm")
    return length


def shorten(text: str, most: int = 40) -> str:
    return text if len(text) <= most else f"{text[:most - 3]}..."


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
        return cls(parse_length(parts[0]), parse_length(parts[1]))

    @property
    def points(self) -> tuple[float, float]:
        return self.width * POINTS_PER_MM, self.height * POINTS_PER_MM

    def __str__(self) -> str:
        return f"{self.width:g} x {self.height:g} mm"


def mm(value: float) -> float:
    """Millimetres to PDF points."""
    return value * POINTS_PER_MM

"""Physical lengths: parsed here and nowhere else."""

from __future__ import annotations

import re
from dataclasses import dataclass

MM_PER_UNIT = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72}
POINTS_PER_MM = 72 / 25.4

_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*([a-z]+)\s*$")


class UnitError(ValueError):
    pass


def parse_length(text: str) -> float:
    """'63.5mm', '2.5in', '3 cm', '12pt' -> millimetres. Rejects zero and negatives."""
    m = _LENGTH.match(str(text))
    if not m:
        raise UnitError(f"'{text}' is not a length: write a number and a unit, e.g. 63.5mm")
    value, unit = float(m.group(1)), m.group(2)
    if unit not in MM_PER_UNIT:
        raise UnitError(f"'{text}' has unknown unit '{unit}': use one of {', '.join(MM_PER_UNIT)}")
    if value <= 0:
        raise UnitError(f"'{text}' must be greater than zero")
    return value * MM_PER_UNIT[unit]


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
        return cls(parse_length(parts[0]), parse_length(parts[1]))

    @property
    def points(self) -> tuple[float, float]:
        return self.width * POINTS_PER_MM, self.height * POINTS_PER_MM

    def __str__(self) -> str:
        return f"{self.width:g} x {self.height:g} mm"


def mm(value: float) -> float:
    """Millimetres to PDF points."""
    return value * POINTS_PER_MM

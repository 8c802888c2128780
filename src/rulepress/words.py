"""Numbers as a rulebook writes them."""

from __future__ import annotations

from typing import Any


def ordinal(n: Any) -> str:
    """1 -> 1st, 2 -> 2nd, 11 -> 11th."""
    k = int(n)
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"

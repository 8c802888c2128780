"""Emoji: no bundled font draws them (a colour emoji font is ~10 MB, a monochrome one ~2 MB),
so kits and books say so and point to icons instead."""

from __future__ import annotations

BLOCKS = ((0x1F000, 0x1FAFF), (0x2600, 0x27BF))  # pictographs, symbols and dingbats


def is_emoji(ch: str) -> bool:
    """A character of the emoji blocks (faces, animals, objects, flags, dingbats)."""
    return any(lo <= ord(ch) <= hi for lo, hi in BLOCKS)

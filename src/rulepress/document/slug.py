"""Stable anchors for headings and examples."""

from __future__ import annotations

import re
import unicodedata

# A game's folder name: it becomes file names and links, so it is kept to a safe alphabet.
# \Z, not $: $ also matches before a final newline (here and in every name pattern).
GAME_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}\Z")


def slugify(text: str, default: str = "section") -> str:
    """``text`` in a-z, 0-9 and '-'; ``default`` when nothing of it is left."""
    norm = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", norm.lower()).strip("-")
    return slug or default


def unique(slug: str, taken: set[str]) -> str:
    candidate, n = slug, 2
    while candidate in taken:
        candidate, n = f"{slug}-{n}", n + 1
    taken.add(candidate)
    return candidate


def game_name_problem(name: str) -> str | None:
    """Why a game folder's name cannot be used, or None."""
    if GAME_NAME.match(name):
        return None
    return (f"the game folder name {name!r} may use only a-z, 0-9, '-' and '_' (starting with a "
            "letter or digit, at most 64): it becomes file names and links; rename the folder")

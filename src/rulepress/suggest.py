"""The one "did you mean" of every message that names something unknown."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def nearest(name: str, options: Iterable[str], *, cutoff: float = 0.6) -> str | None:
    """The option nearest ``name``, or None when none is near enough."""
    near = difflib.get_close_matches(name, list(options), n=1, cutoff=cutoff)
    return near[0] if near else None


def suggest(name: str, options: Iterable[str], *, compare: str | None = None) -> str:
    """' (did you mean 'size'?)' for the option nearest ``name``, or '' when none is near.
    ``compare``: what to compare instead of ``name`` (a spelling normalized as the options are)."""
    near = nearest(name if compare is None else compare, options)
    return f" (did you mean '{near}'?)" if near else ""

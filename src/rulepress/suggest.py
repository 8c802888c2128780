"""The one "did you mean" of every message that names something unknown."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def suggest(name: str, options: Iterable[str], *, compare: str | None = None) -> str:
    """' (did you mean 'size'?)' for the option nearest ``name``, or '' when none is near.
    ``compare``: what to compare instead of ``name`` (a spelling normalized as the options are)."""
    near = difflib.get_close_matches(name if compare is None else compare, list(options), n=1)
    return f" (did you mean '{near[0]}'?)" if near else ""

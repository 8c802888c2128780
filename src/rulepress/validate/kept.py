"""``rulepress check``'s whole answer (its diagnostics and summary), kept (memo.py) by every
input it was checked from, so that checking an unchanged project again reads, parses and loads
nothing: the bytes of every file of each game's folder (its rules among them), the project's
settings, the command's options, rulepress's code and theme, and each game's engine files.

The engines are named in the rules' front matter, which the key covers but is not parsed to
make it: the answer records each engine's name and digest, and is taken only while they are
the same. A printing with an error is not kept (an engine's failure is reported afresh), nor
one checked with an engine registered in the process (no files to hash).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rulepress import memo
from rulepress.cache import cache_key, engine_digest, engine_files, tree_digest
from rulepress.diagnostics import Diagnostic
from rulepress.games import registered


def check_key(sources: Path, games: Sequence[str], project: Path | None,
              *options: object) -> str | None:
    """The key of the check of ``games`` (all when none is named) of the folder ``sources``
    with ``options``; None where the check itself is to say what is missing."""
    try:
        folders = ([sources / game for game in dict.fromkeys(games)] if games
                   else sorted(p.parent for p in sources.glob("*/rules.md")))
        if not folders or not all((folder / "rules.md").is_file() for folder in folders):
            return None
        hashed = [[str(f), str(f.resolve()), tree_digest(f)] for f in folders]
        # Where it runs from: a diagnostic's path is as the sources folder was given.
        return cache_key("check", hashed, str(project), os.getcwd(), *options)
    except (OSError, ValueError):
        return None


def kept_check(key: str | None, project: Path | None) -> tuple[list[Diagnostic], str] | None:
    """The diagnostics and summary kept for ``key``, if its engines are as they were."""
    value = memo.get(key)
    try:
        if not isinstance(value, dict) or any(
                engine_digest(spec, project) != digest for spec, digest in value["engines"]):
            return None
        found = memo.diagnostics_in(value["diagnostics"])
        summary = value["summary"]
    except (KeyError, TypeError, ValueError):
        return None
    return (found, summary) if found is not None and isinstance(summary, str) else None


def keep_check(key: str | None, project: Path | None, engines: Sequence[str | None],
               diagnostics: list[Diagnostic], summary: str) -> None:
    """Keep a check that passed (``engines``: the games' engines, as their rules name them)."""
    named = sorted({spec for spec in engines if spec})
    if any(registered(spec) or not engine_files(spec, project) for spec in named):
        return
    value: dict[str, Any] = {"engines": [[spec, engine_digest(spec, project)] for spec in named],
                             "diagnostics": memo.diagnostics_out(diagnostics),
                             "summary": summary}
    memo.put(key, value)

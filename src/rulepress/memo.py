"""Answers of a check's slowest engine tasks (a game's kit drawn and measured, a playtest
report's first games played, a proven example's figures), kept by the digest of everything
they depend on: rulepress's code and theme, the engine's files, the game's folder (and where it
is) but its prose, and the task's own data. The same inputs give the same answer (engines are
pure), so a check of an unchanged game, or of one whose prose alone changed (a save in `serve`),
takes it from here.

The folder is ``$RULEPRESS_CACHE``, else ``$XDG_CACHE_HOME/rulepress``, else
``~/.cache/rulepress``; ``RULEPRESS_CACHE=off`` keeps nothing. A file missing, unreadable or
not as written is a miss; a folder that cannot be written is no error (nothing is kept).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from rulepress.cache import cache_key, engine_digest, engine_files, tree_digest
from rulepress.diagnostics import Diagnostic, Severity, SourceLoc
from rulepress.games import registered

MAX_BYTES = 1 << 20  # an answer larger than this is not kept
MAX_FILES = 4000  # past it, the oldest half goes


def folder() -> Path | None:
    chosen = os.environ.get("RULEPRESS_CACHE")
    if chosen is not None:
        return None if chosen in ("", "off") else Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "rulepress"


def engine_key(game: Path, source: Path, engine: str | None, project: Path | None,
               task: str) -> str | None:
    """The key of ``task``'s answers for the game in ``game``: what its engine sees of it, the
    folder without the rules source ``source``, of which only the front matter (components,
    their data) counts; a task's own part of the source (an example's data) goes in its key
    besides. None if it cannot be made (a folder too large to hash is the check's to report,
    an engine registered in the process has no files to hash)."""
    if engine and (registered(engine) or not engine_files(engine, project)):
        return None
    try:
        text = source.read_bytes()
        front = text.split(b"\n---", 1)[0] if text.startswith(b"---") else b""
        return cache_key(task, str(game.resolve()), tree_digest(game, (source,)), front.hex(),
                         engine, engine_digest(engine, project))
    except (OSError, ValueError):
        return None


def key(task: str, *parts: object) -> str:
    """The key of ``task``'s answer computed from ``parts`` alone (their content, not where
    they are) by this version of rulepress."""
    return cache_key(task, *parts, theme=False)


def get(key: str | None) -> Any:
    """The answer kept for ``key``, or None."""
    where = folder()
    if key is None or where is None:
        return None
    try:
        with open(where / key[:2] / f"{key}.json", "rb") as fh:
            data = fh.read(MAX_BYTES + 1)
        kept = json.loads(data) if len(data) <= MAX_BYTES else None
    except (OSError, ValueError, RecursionError):
        return None
    return kept.get("value") if isinstance(kept, dict) and kept.get("key") == key else None


def put(key: str | None, value: Any) -> None:
    where = folder()
    if key is None or where is None:
        return
    text = json.dumps({"key": key, "value": value})
    if len(text) > MAX_BYTES:
        return
    with contextlib.suppress(OSError):
        shelf = where / key[:2]
        shelf.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=shelf, prefix=".tmp-")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
            os.replace(tmp, shelf / f"{key}.json")
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        _prune(where)


_pruned: set[Path] = set()


def _prune(where: Path) -> None:
    """Once a process: listing the folder costs more than writing an answer."""
    if where in _pruned:
        return
    _pruned.add(where)
    files = [p for shelf in where.iterdir() if shelf.is_dir() for p in shelf.glob("*.json")]
    if len(files) > MAX_FILES:
        files.sort(key=lambda p: p.stat().st_mtime)
        for old in files[: len(files) // 2]:
            with contextlib.suppress(OSError):
                old.unlink()


def diagnostics_out(found: list[Diagnostic]) -> list[dict[str, Any]]:
    return [{"loc": None if d.loc is None else [str(d.loc.path), d.loc.line, d.loc.col],
             "severity": d.severity.value, "message": d.message, "disproved": d.disproved}
            for d in found]


def diagnostics_in(kept: Any) -> list[Diagnostic] | None:
    """Diagnostics as put() kept them; None for anything else."""
    try:
        return [Diagnostic(None if d["loc"] is None else SourceLoc(Path(d["loc"][0]),
                                                                   int(d["loc"][1]),
                                                                   int(d["loc"][2])),
                           Severity(d["severity"]), str(d["message"]), bool(d["disproved"]))
                for d in kept]
    except (TypeError, KeyError, ValueError, IndexError):
        return None

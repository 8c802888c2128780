"""What an output is made from: the keys of every cache (the output folder's manifest, its
``.rulepress/kept``, memo's answers), in one style (``cache_key``). The manifest itself, which
records them with the files written, is the writer's (write.py).

A game's key covers everything its outputs are made from:
- every file of its source folder (rules, images, layouts, data, template overrides, licence),
  hashed before the game is read, so a file changed during a run rebuilds next time;
- its engine's module files (a project module, or every .py of an installed plug-in's package);
- the theme (templates, CSS, fonts);
- rulepress's own files as this process loaded them, the version of every distribution
  installed beside it (the libraries it renders with among them), and Python's;
- the command's options (papers, editions, paper size, bleed ...), added by the caller.

A playtest report's plots are kept by a key of only what they are drawn from: the summary, the
theme and rulepress's code. An edit to the rules' text reuses them.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import platform
import stat
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from rulepress.diagnostics import RulepressError, SourceLoc
from rulepress.games import MODULE, PACKAGE, entry_point_module
from rulepress.limits import MAX_FOLDER_DEPTH, MAX_FOLDER_FILES, MAX_HASHED_BYTES, MAX_READ_BYTES
from rulepress.paths import templates_dir
from rulepress.write import STAGING_NAME

FORMAT = 1  # of every key (cache_key)
_SKIPPED_DIRS = frozenset({"__pycache__", ".git", ".rulepress"})


def digest(*parts: object) -> str:
    """One SHA-256 over ``parts`` as canonical JSON (paths as text)."""
    text = json.dumps(parts, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def cache_key(kind: str, *parts: object, theme: bool = True) -> str:
    """The one style of key of every cache (the manifest's games, ``.rulepress/kept``, memo):
    what it is a key of, its own parts, then the code and the theme everything is made with.
    ``theme=False`` for what the theme cannot change (compiled prose, a page's parse)."""
    return digest(FORMAT, kind, *parts, code_digest(), theme_digest() if theme else None)


def file_key(key: str, name: str) -> str:
    """The key of the file ``name`` of a unit made from ``key``, when each of the unit's files
    is fresh or not on its own (a book per paper): the one rule, for every generator."""
    return digest(key, name)


def _files(folder: Path, excluded: Sequence[Path]) -> Iterator[Path]:
    """Every file under ``folder`` in a fixed order, symlinks as links (never followed).

    Walked without recursion (a folder 1,200 deep broke os.walk), at most MAX_FOLDER_DEPTH
    deep and MAX_FOLDER_FILES entries: past either, a TooLarge naming where."""
    todo: list[tuple[Path, int]] = [(folder, 0)]
    count = 0
    while todo:
        here, depth = todo.pop()
        if depth > MAX_FOLDER_DEPTH:
            raise TooLarge(folder, f"folders nested more than {MAX_FOLDER_DEPTH} deep "
                                   f"({_shown(here.relative_to(folder))})")
        try:
            with os.scandir(here) as entries:
                listed = sorted(entries, key=lambda e: e.name)
        except OSError:
            continue  # unreadable: its files are not read either; the build says why if used
        count += len(listed)
        if count > MAX_FOLDER_FILES:
            raise TooLarge(folder, f"more than {MAX_FOLDER_FILES:,} files and folders")
        subfolders = []
        for entry in listed:
            path = here / entry.name
            if entry.is_dir(follow_symlinks=False):
                if (entry.name not in _SKIPPED_DIRS and path not in excluded
                        and not STAGING_NAME.fullmatch(entry.name)):
                    subfolders.append((path, depth + 1))
            else:
                yield path  # a symlink to a folder is listed, not walked: hash the link
        todo.extend(reversed(subfolders))


def _shown(path: Path) -> str:
    text = path.as_posix()
    return text if len(text) <= 60 else f"{text[:57]}..."


class TooLarge(ValueError):
    """A folder past the limits of a walk: ``folder`` and why."""

    def __init__(self, folder: Path, reason: str) -> None:
        super().__init__(f"{folder}: {reason}")
        self.folder, self.reason = folder, reason


def tree_digest(folder: Path, excluded: Sequence[Path] = ()) -> str:
    """SHA-256 over every file's path (relative to ``folder``) and bytes; a symlink counts by
    its target's name, anything else that is not a regular file (a FIFO, a device) by its
    kind, never opened. ``excluded``: folders inside it that rulepress writes to (or files
    left out).

    Only a file a build could read is hashed by its bytes: one larger than every read limit
    (MAX_READ_BYTES), or past MAX_HASHED_BYTES in all, counts by its size and modification
    time (a 200 GB sparse file was read whole)."""
    h = hashlib.sha256()
    folder = Path(folder).resolve()
    excluded = [Path(p).resolve() for p in excluded]
    budget = [MAX_HASHED_BYTES]
    for path in _files(folder, excluded):
        if path in excluded:  # a file left out (a rules source, which a key reads part of)
            continue
        h.update(path.relative_to(folder).as_posix().encode("utf-8", "surrogateescape") + b"\0")
        h.update(_file_part(path, budget) + b"\0")
    return h.hexdigest()


def _file_part(path: Path, budget: list[int] | None = None) -> bytes:
    try:
        if path.is_symlink():
            return b"link:" + os.readlink(path).encode("utf-8", "surrogateescape")
        # Opened without blocking and checked on the descriptor: a FIFO cannot hang the hash.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_NOFOLLOW)
        with os.fdopen(fd, "rb") as fh:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                return f"kind:{stat.S_IFMT(info.st_mode)}".encode()
            if budget is not None:
                if info.st_size > min(MAX_READ_BYTES, budget[0]):
                    return f"stat:{info.st_size}:{info.st_mtime_ns}:{info.st_ino}".encode()
                budget[0] -= info.st_size
            return hashlib.file_digest(fh, "sha256").digest()
    except OSError as exc:  # unreadable: the build says why; the key just differs
        return f"unreadable:{exc.errno}".encode()


@cache
def code_digest() -> str:
    """rulepress's own files as this process found them (its version string never changes in
    a checkout) and the versions of what is installed beside it. Computed once: a
    running process keeps the code it imported."""
    package = Path(__file__).resolve().parent
    theme = package / "templates"  # hashed on its own, fresh each run (theme_digest)
    return digest(tree_digest(package, (theme,)), _versions(), platform.python_version())


def _versions() -> list[tuple[str, str, tuple[int, ...]]]:
    """Every distribution installed where this process imports from, by its metadata folder's
    name (its version is in it) and its METADATA file's size and times (a reinstall or an edit
    changes them): stat calls, as reading and parsing each one's metadata was most of what a
    kept check costs. More than rulepress uses, so installing anything misses every cache
    once; never less."""
    found: list[tuple[str, str, tuple[int, ...]]] = []
    for entry in sys.path:
        with contextlib.suppress(OSError), os.scandir(entry or ".") as listed:
            found += [(entry, e.name, _metadata_stamp(Path(e.path))) for e in listed
                      if e.name.endswith((".dist-info", ".egg-info"))]
    return sorted(found)


def _metadata_stamp(info: Path) -> tuple[int, ...]:
    for name in ("METADATA", "PKG-INFO"):
        with contextlib.suppress(OSError):
            return _stamp((info / name).stat())
    with contextlib.suppress(OSError):  # an .egg-info file, the metadata itself
        return _stamp(info.stat())
    return ()


def _stamp(info: os.stat_result) -> tuple[int, ...]:
    return info.st_mode, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns


def theme_digest() -> str:
    """The bundled theme: templates, stylesheets and fonts (its fonts are most of the bytes:
    hashed again only when a file's size, time or inode changed since this process did)."""
    folder = templates_dir()
    return _theme_digest(folder, tuple((path, _stamp(path.lstat()))
                                       for path in _files(folder, ())))


@lru_cache(maxsize=1)
def _theme_digest(folder: Path, stamps: tuple[tuple[Path, tuple[int, ...]], ...]) -> str:
    """The digest of ``folder``, whose files are as ``stamps`` says (they key the cache)."""
    return tree_digest(folder)


def module_files(dotted: str) -> list[Path]:
    """The files of the module ``dotted`` names (every .py of a package), found without
    importing it or its packages."""
    top, *rest = dotted.split(".")
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return []
    if spec is None:
        return []
    if spec.submodule_search_locations is None:
        return [Path(spec.origin)] if spec.origin and not rest else []
    for location in spec.submodule_search_locations:
        base = Path(location).joinpath(*rest)
        if base.is_dir():
            return sorted(p for p in base.rglob("*.py") if "__pycache__" not in p.parts)
        if base.with_suffix(".py").is_file():
            return [base.with_suffix(".py")]
    return []


def engine_files(spec: str | None, project: Path | None) -> list[Path]:
    """The module files of the engine a game names (an entry point or a project module)."""
    if not spec:
        return []
    m = MODULE.match(spec)
    if m is not None:
        if project is None:
            return []
        path = (project.resolve() / m["path"]).resolve()
        if path.name == PACKAGE and path.is_file():  # a package: every module of it
            return sorted(p for p in path.parent.rglob("*.py") if "__pycache__" not in p.parts)
        return [path] if path.is_file() else []
    module = entry_point_module(spec)
    return module_files(module) if module is not None else []


def engine_digest(spec: str | None, project: Path | None) -> str:
    h = hashlib.sha256(f"{spec}".encode())
    for path in engine_files(spec, project):
        h.update(str(path).encode("utf-8", "surrogateescape") + b"\0")
        h.update(_file_part(path))
    return h.hexdigest()


@dataclass(frozen=True)
class GameInputs:
    """A game's source folder as hashed before reading it; completed into a key by the engine
    it names."""

    slug: str
    folder_digest: str

    def key(self, engine: str | None, project: Path | None, options: Mapping[str, Any]) -> str:
        return cache_key("game", self.folder_digest, engine, engine_digest(engine, project),
                         dict(options))


def game_inputs(folder: Path, excluded: Sequence[Path] = ()) -> GameInputs:
    try:
        return GameInputs(folder.name, tree_digest(folder, excluded))
    except TooLarge as exc:
        raise RulepressError.at(SourceLoc(folder, 1), f"the game's folder holds {exc.reason}: "
                                                      "keep only the game's files in it") from None

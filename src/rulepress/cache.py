"""What an output was made from, and whether the one on disk still is what a build would make.

Each output folder keeps a manifest (``<out>/.rulepress/manifest.json``), written by write.py in
the same staged set as the outputs it describes, so it never describes files that are not there.
It records, for each unit of work (one rulebook file; one game's kit), the key of its inputs and
the SHA-256 of every file it wrote. A unit is fresh when its key is the one this run computes and
every file it wrote is on disk unchanged; anything else (a deleted or hand-edited output, a
manifest that cannot be read) rebuilds it.

A game's key covers everything its outputs are made from:
- every file of its source folder (rules, images, layouts, data, template overrides, licence),
  hashed before the game is read, so a file changed during a run rebuilds next time;
- its engine's module files (a project module, or every .py of an installed plug-in's package);
- the theme (templates, CSS, fonts);
- rulepress's own files as this process loaded them, its version, the versions of the
  libraries it renders with, and Python's;
- the command's options (papers, editions, paper size, bleed ...), added by the caller.

A playtest report's plots are units of their own, kept in ``<out>/.rulepress/kept/`` (Kept) and
keyed by only what they are drawn from: the summary, the theme and rulepress's code. An edit to
the rules' text reuses them.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import platform
import re
import stat
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import metadata
from pathlib import Path, PurePosixPath
from typing import Any

from rulepress.diagnostics import RulepressError, SourceLoc
from rulepress.limits import MAX_FOLDER_DEPTH, MAX_FOLDER_FILES, MAX_HASHED_BYTES, MAX_READ_BYTES
from rulepress.paths import templates_dir

MANIFEST = Path(".rulepress") / "manifest.json"
KEPT = Path(".rulepress") / "kept"  # what Kept keeps, by name
FORMAT = 1
_SKIPPED_DIRS = frozenset({"__pycache__", ".git", ".rulepress"})
_STAGING = re.compile(r"\.staging-[0-9a-f]{32}")  # a run's own, while it writes (write.py)


def digest(*parts: object) -> str:
    """One SHA-256 over ``parts`` as canonical JSON (paths as text)."""
    text = json.dumps(parts, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def file_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


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
                        and not _STAGING.fullmatch(entry.name)):
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
    a checkout), its version and the versions of what it renders with. Computed once: a
    running process keeps the code it imported."""
    package = Path(__file__).resolve().parent
    theme = package / "templates"  # hashed on its own, fresh each run (theme_digest)
    return digest(tree_digest(package, (theme,)), _versions(), platform.python_version())


def _versions() -> dict[str, str]:
    """rulepress and every distribution it requires, directly or not, by version."""
    seen: dict[str, str] = {}
    todo = ["rulepress"]
    while todo:
        name = _normal(todo.pop())
        if name in seen:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            seen[name] = "absent"
            continue
        seen[name] = dist.version
        for requirement in dist.requires or ():
            if "extra ==" in requirement:
                continue
            todo.append(re.split(r"[\s;<>=!~\[(]", requirement, maxsplit=1)[0])
    return dict(sorted(seen.items()))


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


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
    from rulepress.games import MODULE, PACKAGE, entry_point_module

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
        return digest(FORMAT, self.folder_digest, engine, engine_digest(engine, project),
                      theme_digest(), code_digest(), dict(options))


def game_inputs(folder: Path, excluded: Sequence[Path] = ()) -> GameInputs:
    try:
        return GameInputs(folder.name, tree_digest(folder, excluded))
    except TooLarge as exc:
        raise RulepressError.at(SourceLoc(folder, 1), f"the game's folder holds {exc.reason}: "
                                                      "keep only the game's files in it") from None


@dataclass
class Manifest:
    """The manifest of one output folder: what this run read, and what it will record."""

    out: Path
    units: dict[str, dict[str, Any]] = field(default_factory=dict)
    games: dict[str, dict[str, Any]] = field(default_factory=dict)
    _hashes: dict[Path, str | None] = field(default_factory=dict)

    @classmethod
    def load(cls, out: Path) -> Manifest:
        """The manifest of ``out``, if it was written for this very folder: one copied in (with
        a project, or its outputs) vouches for nothing, so everything is made again."""
        data = read_manifest(out)
        if data.get("folder") != folder_id(out):
            return cls(out)
        return cls(out, data["units"], data["games"])

    def fresh(self, unit: str, key: str) -> bool:
        """Whether ``unit`` was made from ``key`` and every file it wrote is on disk as written."""
        files = self._files(unit, key)
        return bool(files) and all(self._on_disk(name) == sha for name, sha in files.items())

    def kept(self, unit: str, key: str) -> bytes | None:
        """The one file ``unit`` wrote, if the unit was made from ``key`` and the file is on
        disk as written (checked on the bytes returned)."""
        files = self._files(unit, key)
        if len(files) != 1:
            return None
        (name, sha), = files.items()
        data = read_inside(self.out, name)
        return data if data is not None and file_digest(data) == sha else None

    def _files(self, unit: str, key: str) -> dict[str, str]:
        """The files ``unit`` wrote (name -> SHA-256), if it was made from ``key``; else none."""
        record = self.units.get(unit)
        files = record.get("files") if record is not None and record.get("key") == key else None
        return files if isinstance(files, dict) else {}

    def _on_disk(self, name: str) -> str | None:
        path = self.out / name
        if path not in self._hashes:
            data = read_inside(self.out, name)
            self._hashes[path] = None if data is None else file_digest(data)
        return self._hashes[path]

    def game(self, slug: str) -> dict[str, Any] | None:
        record = self.games.get(slug)
        return record if isinstance(record, dict) else None


@dataclass
class Record:
    """What one run adds to a manifest: units it made, games it built, games that are gone."""

    units: dict[str, dict[str, Any]] = field(default_factory=dict)
    games: dict[str, dict[str, Any]] = field(default_factory=dict)
    keep_games: frozenset[str] | None = None  # when set, drop the games not named
    dropped: set[str] = field(default_factory=set)  # units that no longer exist

    def unit(self, name: str, key: str, files: Mapping[str, bytes | str]) -> None:
        self.units[name] = {"key": key, "files": {
            f: file_digest(d.encode("utf-8") if isinstance(d, str) else d)
            for f, d in sorted(files.items())}}

    def merged(self, old: Mapping[str, Any]) -> dict[str, Any]:
        # Per game, each generator's part: serve's two rebuilds of one game (its source's pages,
        # its translations') write their parts at the same time.
        games = {**old["games"], **{slug: {**old["games"].get(slug, {}), **g}
                                    for slug, g in self.games.items()}}
        if self.keep_games is not None:
            games = {slug: g for slug, g in games.items() if slug in self.keep_games}
        units = {name: u for name, u in {**old["units"], **self.units}.items()
                 if name not in self.dropped}
        return {"format": FORMAT, "units": dict(sorted(units.items())),
                "games": dict(sorted(games.items())), "folder": old.get("folder")}


@dataclass
class Kept:
    """What a check makes along the way that a run may take from the output folder instead of
    making it again (a playtest report's plots: a second each), kept beside the manifest. Each
    is a unit of the manifest with its own key; those made anew are written with the run's
    outputs."""

    manifest: Manifest | None  # None: make everything
    made: dict[str, tuple[str, str]] = field(default_factory=dict)  # unit -> (key, text)

    def text(self, name: str, key: str, make: Callable[[], str]) -> str:
        """``name``'s text as made from ``key`` (``make`` makes it)."""
        unit = (KEPT / name).as_posix()
        data = self.manifest.kept(unit, key) if self.manifest is not None else None
        if data is not None:
            try:
                return data.decode("utf-8")
            except UnicodeDecodeError:
                pass
        text = make()
        self.made[unit] = (key, text)
        return text


def read_manifest(out: Path) -> dict[str, Any]:
    """The manifest in ``out``; an empty one if it is missing, unreadable or of another format."""
    return parse_manifest(out) or {"format": FORMAT, "units": {}, "games": {}}


def parse_manifest(out: Path) -> dict[str, Any] | None:
    """The manifest in ``out``, or None if there is none that rulepress could have written
    (missing, unreadable, of another format, or reached through a link: never followed)."""
    try:
        folder = os.open(out / MANIFEST.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        try:
            fd = os.open(MANIFEST.name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK,
                         dir_fd=folder)
        finally:
            os.close(folder)
        with os.fdopen(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                return None
            data = json.loads(fh.read().decode("utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return None
    units, games = data.get("units"), data.get("games")
    if not isinstance(units, dict) or not isinstance(games, dict):
        return None
    return {"format": FORMAT, "units": units, "games": games, "folder": data.get("folder")}


def folder_id(out: Path) -> list[int] | None:
    """The output folder's device and inode, recorded in its manifest (None: no such folder)."""
    try:
        info = os.stat(out)
    except OSError:
        return None
    return [info.st_dev, info.st_ino]


def manifest_files(data: Mapping[str, Any]) -> dict[str, str]:
    """Every file a manifest's units list (name -> SHA-256): the files rulepress wrote."""
    files: dict[str, str] = {}
    for unit in data["units"].values():
        listed = unit.get("files") if isinstance(unit, dict) else None
        if isinstance(listed, dict):
            files |= {str(k): str(v) for k, v in listed.items()}
    return files


def regular_inside(base: Path, name: str | PurePosixPath) -> bool:
    """Whether ``name`` stays inside ``base`` and is a regular file reached through real
    folders only: a run reads, replaces and deletes nothing through a link."""
    relative = PurePosixPath(name)
    if relative.is_absolute() or not relative.parts or ".." in relative.parts:
        return False
    here = base
    try:
        for part in relative.parts[:-1]:
            here = here / part
            if not stat.S_ISDIR(os.lstat(here).st_mode):
                return False
        return stat.S_ISREG(os.lstat(base / relative).st_mode)
    except (OSError, ValueError):
        return False


def read_inside(base: Path, name: str) -> bytes | None:
    """The bytes of ``name`` inside ``base`` if it is a regular file there (regular_inside)."""
    if not regular_inside(base, name):
        return None
    try:
        fd = os.open(base / name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        with os.fdopen(fd, "rb") as fh:
            return fh.read()
    except OSError:
        return None


def manifest_text(data: Mapping[str, Any]) -> str:
    return json.dumps(data, indent=1, sort_keys=True) + "\n"

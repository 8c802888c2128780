"""The one place outputs are written: a run's whole set of files changes together, or not at all,
and rulepress replaces or deletes only files it wrote.

Every output of a run is written first into a staging folder inside the output folder
(``<out>/.staging-<random>/``: the same filesystem, so a rename is atomic). Then a commit record
listing the files to move into place and those to delete is written into it, atomically: that is
the commit point. Then each file is renamed into place, with SIGINT and SIGTERM held until the
last one, and the staging folder goes.

- Killed before the commit point, a run leaves the previous set as it was; the next run that
  writes to the folder removes the staging folder.
- Killed after it (a few milliseconds of renames, and only by SIGKILL), a run leaves the commit
  record; the next run finishes the renames before anything else, so the folder holds the new
  set. Until then some files may be new and some old, each of them whole.
- One run at a time writes to a folder (a lock on the folder itself), so one run never clears
  another's staging folder.

What is rulepress's own:
- A file of the output folder is rulepress's when the folder's manifest (cache.py) lists it;
  every file written here is listed in it, in the same set. A run replaces only those, and
  deletes only those it no longer makes whose bytes are still as written. An output whose place
  holds a file the manifest does not list, or a link, stops the run before anything is written,
  naming it. Nothing is ever written through a symbolic link.
- A staging or scratch folder is rulepress's when it holds a mark rulepress wrote that names the
  folder's own device and inode and those of the folder it was made in: a folder copied in with
  a project (or planted in one) has others, so it is neither finished nor removed. The random
  part of the name is for uniqueness only; a name is never enough.

The promise is about processes stopped or killed, not about power cuts: nothing is fsynced.

The manifest (``<out>/.rulepress/manifest.json``) is written here, in the same staged set as the
outputs it describes, so it never describes files that are not there. It records, for each unit
of work (one rulebook file; one game's kit), the key of its inputs (cache.py) and the SHA-256 of
every file it wrote. A unit is fresh when its key is the one this run computes and every file it
wrote is on disk unchanged; anything else (a deleted or hand-edited output, a manifest that
cannot be read) rebuilds it. A playtest report's plots are units of their own, kept in
``<out>/.rulepress/kept/`` (Kept). Every read of the output folder, as every write, goes through
``regular_inside``: never through a link, never outside it.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import re
import secrets
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from rulepress.diagnostics import RulepressError
from rulepress.signals import deferred, raise_if_stopped

MANIFEST = Path(".rulepress") / "manifest.json"
KEPT = Path(".rulepress") / "kept"  # what Kept keeps, by name
FORMAT = 1  # of the manifest
STAGING_PREFIX = ".staging-"
COMMIT = ".commit"
SCRATCH_PREFIX = "rulepress-"
MARK = ".rulepress-mark"  # in each staging and scratch folder: see _mark
_MARK_BYTES = 4096
_TOKEN = r"[0-9a-f]{32}"
# The exact names made here: such a folder left empty (killed before its mark was written) holds
# nothing of anyone's, so it may go even unmarked.
STAGING_NAME = re.compile(rf"\.staging-{_TOKEN}")
_SCRATCH_NAME = re.compile(rf"rulepress-(\d+)-{_TOKEN}")
_SHOWN = 8  # foreign files named in an error, at most


def write_set(out: Path, outputs: Mapping[Path, bytes | str],
              record: Record | None = None) -> list[Path]:
    """Write ``outputs`` (paths inside ``out`` -> content) as one set; returns the paths (not
    those of rulepress's own files, in ``out``/.rulepress).
    ``record``: what to add to the folder's manifest, merged with the one on disk under the
    folder's lock and written in the same set (not at all when nothing changes). Outputs it does
    not cover are recorded each as a unit of its own. Files its units wrote before and no
    longer write are deleted, if unchanged.
    A file in the way that rulepress did not write, or an OSError (read-only folder, full
    disk ...), is a RulepressError naming the path."""
    where = out
    try:
        _output_folder(out)
        with _locked(out):
            recover(out)
            if record is None and not outputs:
                return []
            old = read_manifest(out)
            record = _covering(record or Record(), out, outputs)
            merged = record.merged(old) | {"folder": folder_id(out)}
            stale = _stale(out, old, merged, outputs)
            outputs = _with_manifest(out, outputs, merged, old)
            if not outputs and not stale:
                return []
            _check_owned(out, outputs, old)
            stage = _made_folder(out, STAGING_PREFIX, out)
            try:
                for path, data in sorted(outputs.items()):
                    where = path
                    _stage(stage, path.relative_to(out), data)
                where = out
                _prepare(out, list(outputs))
                raise_if_stopped()
                _write_record(stage, sorted(p.relative_to(out).as_posix() for p in outputs),
                              sorted(stale))
            except BaseException:
                shutil.rmtree(stage, ignore_errors=True)
                raise
            with deferred():
                _finish(out, stage)
    except OSError as exc:
        raise RulepressError.at(None, f"cannot write {where}: {exc.strerror or exc}") from None
    return sorted(p for p in outputs if not p.is_relative_to(out / MANIFEST.parent))


def _output_folder(out: Path) -> None:
    """Make ``out`` if needed; a link there is refused (its target may be anyone's)."""
    if out.is_symlink():
        raise RulepressError.at(None, f"{out} is a symbolic link (to {os.readlink(out)}): "
                                      "rulepress writes only into a real folder; name the "
                                      "folder it leads to instead")
    out.mkdir(parents=True, exist_ok=True)


def _covering(record: Record, out: Path, outputs: Mapping[Path, bytes | str]) -> Record:
    """``record`` with a unit of its own for each output no unit of it lists."""
    listed = {name for unit in record.units.values() for name in unit["files"]}
    for path, data in outputs.items():
        name = path.relative_to(out).as_posix()
        if name not in listed and path != out / MANIFEST:
            record.unit(name, "", {name: data})
    return record


def _stale(out: Path, old: Mapping[str, Any], merged: Mapping[str, Any],
           outputs: Mapping[Path, bytes | str]) -> set[str]:
    """Files the manifest listed that it no longer will, still as rulepress wrote them."""
    kept = set(manifest_files(merged))
    written = {p.relative_to(out).as_posix() for p in outputs}
    return {name for name, sha in manifest_files(old).items()
            if name not in kept and name not in written and _digest(read_inside(out, name)) == sha}


def _digest(data: bytes | None) -> str | None:
    return None if data is None else file_digest(data)


def _with_manifest(out: Path, outputs: Mapping[Path, bytes | str], merged: Mapping[str, Any],
                   old: Mapping[str, Any]) -> Mapping[Path, bytes | str]:
    text = manifest_text(merged)
    if not outputs and (out / MANIFEST).is_file() and text == manifest_text(old):
        return outputs
    return {**outputs, out / MANIFEST: text}


def check_free(out: Path, names: list[str]) -> None:
    """Fail now, as write_set would at the end, if a file rulepress did not write holds one of
    ``names`` in ``out``: for a run that works for minutes before it writes. (write_set checks
    again under the folder's lock.)"""
    _check_owned(out, dict.fromkeys((out / name for name in names), b""), read_manifest(out))


def _check_owned(out: Path, outputs: Mapping[Path, bytes | str], old: Mapping[str, Any]) -> None:
    """Stop before anything is written if an output's place holds something rulepress did not
    write: a file its manifest does not list, a link, a file where a folder goes."""
    owned = manifest_files(old)
    foreign: list[str] = []
    for path in sorted(outputs):
        relative = PurePosixPath(path.relative_to(out).as_posix())
        blocker = _blocker(out, relative)
        if blocker is not None:
            foreign.append(blocker)
        elif not os.path.lexists(path):
            continue
        elif stat.S_ISDIR(os.lstat(path).st_mode):
            foreign.append(f"{relative} (a folder)")
        elif relative == PurePosixPath(MANIFEST.as_posix()):
            if parse_manifest(out) is None:
                foreign.append(f"{relative} (not a manifest rulepress wrote)")
        elif str(relative) in owned:
            continue  # a link put in its place is replaced itself, its target never touched
        elif path.is_symlink():
            foreign.append(f"{relative} (a symbolic link)")
        else:
            foreign.append(str(relative))
    foreign = list(dict.fromkeys(foreign))  # a linked folder is in the way of each file in it
    if foreign:
        shown = ", ".join(foreign[:_SHOWN])
        more = f" and {len(foreign) - _SHOWN} more" if len(foreign) > _SHOWN else ""
        raise RulepressError.at(None, (
            f"{out} holds files rulepress did not write (its {MANIFEST} does not list them) "
            f"where this run writes: {shown}{more}; move them away, or choose another output "
            "folder. Nothing was written"))


def _blocker(out: Path, relative: PurePosixPath) -> str | None:
    """The first folder on the way to ``relative`` that is a link or not a folder, described."""
    here = out
    for n, part in enumerate(relative.parts[:-1], 1):
        here = here / part
        try:
            mode = os.lstat(here).st_mode
        except FileNotFoundError:
            return None
        if not stat.S_ISDIR(mode):
            what = "a symbolic link" if stat.S_ISLNK(mode) else "not a folder"
            return f"{PurePosixPath(*relative.parts[:n])} ({what})"
    return None


def recover(out: Path) -> None:
    """Finish a committed staging folder a killed run left in ``out``; remove uncommitted ones.
    Only folders carrying this folder's mark are touched."""
    for stage in sorted(out.glob(f"{STAGING_PREFIX}*")):
        if _mark_of(stage, out) is None:
            if STAGING_NAME.fullmatch(stage.name):
                _remove_if_empty(stage)
        elif os.path.lexists(stage / COMMIT):
            _finish(out, stage)
        else:
            shutil.rmtree(stage)


def _stage(stage: Path, relative: Path, data: bytes | str) -> None:
    target = stage / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    target.chmod(0o644)


def _prepare(out: Path, paths: list[Path]) -> None:
    """Everything a rename could fail on, checked before the commit point: the folders exist
    (making one can need space)."""
    for path in paths:
        _real_folders(out, PurePosixPath(path.relative_to(out).as_posix()).parent)


def _write_record(stage: Path, names: list[str], deleted: list[str]) -> None:
    """The commit point: the files to move into place and to delete, made visible by one
    rename."""
    partial = stage / f"{COMMIT}.partial"
    partial.write_text(json.dumps({"write": names, "delete": deleted}), encoding="utf-8")
    os.replace(partial, stage / COMMIT)


def _finish(out: Path, stage: Path) -> None:
    fd = os.open(stage / COMMIT, os.O_RDONLY | os.O_NOFOLLOW)
    with os.fdopen(fd, "rb") as fh:
        plan = json.loads(fh.read())
    for name in plan["write"]:
        relative = _relative(name)
        if regular_inside(stage, relative):  # else moved already by the run that was killed
            _real_folders(out, relative.parent)
            os.replace(stage / relative, out / relative)
    for name in plan["delete"]:
        relative = _relative(name)
        if regular_inside(out, relative):
            (out / relative).unlink()
    shutil.rmtree(stage)


def _relative(name: object) -> PurePosixPath:
    """A path a commit record names, which must stay inside its folder."""
    path = PurePosixPath(name) if isinstance(name, str) else PurePosixPath("/")
    if path.is_absolute() or not path.parts or ".." in path.parts or "\0" in str(path):
        raise OSError(errno.EINVAL, f"a commit record names {name!r}")
    return path


def _real_folders(base: Path, relative: PurePosixPath) -> None:
    """Make each folder of ``relative`` inside ``base``; one that is a link or a file is an
    error, never followed."""
    here = base
    for part in relative.parts:
        here = here / part
        try:
            here.mkdir()
        except FileExistsError:
            if not stat.S_ISDIR(os.lstat(here).st_mode):
                raise NotADirectoryError(errno.ENOTDIR, "a link or a file is in the way",
                                         str(here)) from None


def _made_folder(parent: Path, prefix: str, owner: Path) -> Path:
    """A new folder in ``parent``, named ``prefix`` and a random token, marked as made here."""
    folder = parent / f"{prefix}{secrets.token_hex(16)}"
    folder.mkdir(mode=0o700)
    try:
        _mark(folder, owner)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return folder


def _identity(owner: Path, folder_stat: os.stat_result) -> dict[str, Any]:
    """What a mark says: the folder it lives in by device and inode, and the folder it was made
    for (its path, device and inode). A copy, or a folder shipped with a project, has others."""
    made_for = os.stat(owner)
    return {"made by": "rulepress", "folder": [folder_stat.st_dev, folder_stat.st_ino],
            "for": str(owner.resolve()), "for id": [made_for.st_dev, made_for.st_ino]}


def _mark(folder: Path, owner: Path) -> None:
    mark = {**_identity(owner, os.lstat(folder)), "pid": os.getpid()}
    fd = os.open(folder / MARK, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(mark))


def _mark_of(folder: Path, owner: Path) -> dict[str, Any] | None:
    """The mark of ``folder``, if rulepress made it in ``owner`` (never through a link); else
    None."""
    try:
        dir_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        folder_stat = os.fstat(dir_fd)
        if folder_stat.st_uid != os.getuid():
            return None
        fd = os.open(MARK, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=dir_fd)
        with os.fdopen(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                return None
            mark = json.loads(fh.read(_MARK_BYTES))
        expected = _identity(owner, folder_stat)
    except (OSError, ValueError):
        return None
    finally:
        os.close(dir_fd)
    if not isinstance(mark, dict) or any(mark.get(k) != v for k, v in expected.items()):
        return None
    return mark


def _remove_if_empty(folder: Path) -> None:
    with suppress(OSError):
        folder.rmdir()


@contextmanager
def _locked(folder: Path) -> Iterator[None]:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


@contextmanager
def scratch_folder() -> Iterator[Path]:
    """A temporary folder that every ``tempfile`` user in this process (WeasyPrint keeps its
    font files in one and leaves it behind in worker processes) gets for the block; removed
    after it, and by the next run if this process is killed."""
    clear_stale_scratch()
    previous = tempfile.tempdir
    base = Path(tempfile.gettempdir())
    folder = _made_folder(base, f"{SCRATCH_PREFIX}{os.getpid()}-", base)
    tempfile.tempdir = str(folder)
    try:
        yield folder
    finally:
        tempfile.tempdir = previous
        shutil.rmtree(folder, ignore_errors=True)


def clear_stale_scratch() -> None:
    """Remove the scratch folders of rulepress processes that no longer run: those carrying a
    mark this user's rulepress wrote for this temporary folder, and nothing else."""
    base = Path(tempfile.gettempdir())
    for folder in base.glob(f"{SCRATCH_PREFIX}*"):
        mark = _mark_of(folder, base)
        if mark is not None:
            pid = mark.get("pid")
            if isinstance(pid, int) and not _running(pid):
                shutil.rmtree(folder, ignore_errors=True)
        else:
            m = _SCRATCH_NAME.fullmatch(folder.name)
            if m is not None and not _running(int(m[1])):
                _remove_if_empty(folder)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OverflowError:
        return False
    return not _zombie(pid)


def _zombie(pid: int) -> bool:
    """Whether ``pid`` has ended and waits to be reaped (a killed run's worker, until init gets
    to it): it writes nothing more."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state in ("Z", "X")


# --- the manifest: what of the output folder is rulepress's ---------------------------------

def file_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


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

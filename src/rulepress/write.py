"""The one place outputs are written: a run's whole set of files changes together, or not at all.

Every output of a run is written first into a staging folder inside the output folder
(``<out>/.staging-XXXX/``: the same filesystem, so a rename is atomic). Then a commit record
listing the files is written into it, atomically: that is the commit point. Then each file is
renamed into place, with SIGINT and SIGTERM held until the last one, and the staging folder goes.

- Killed before the commit point, a run leaves the previous set as it was; the next run that
  writes to the folder removes the staging folder.
- Killed after it (a few milliseconds of renames, and only by SIGKILL), a run leaves the commit
  record; the next run finishes the renames before anything else, so the folder holds the new
  set. Until then some files may be new and some old, each of them whole.
- Files rulepress did not write are never touched. One run at a time writes to a folder (a lock
  on the folder itself), so one run never clears another's staging folder.

The folder's manifest (cache.py: what each output was made from) is one file of the set, so it
never describes files that are not there.

The promise is about processes stopped or killed, not about power cuts: nothing is fsynced.
"""

from __future__ import annotations

import errno
import fcntl
import os
import re
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from rulepress.cache import MANIFEST, Record, manifest_text, read_manifest
from rulepress.diagnostics import RulepressError
from rulepress.signals import deferred, raise_if_stopped

STAGING_PREFIX = ".staging-"
COMMIT = ".commit"
SCRATCH_PREFIX = "rulepress-"
# Temporary files of the rulepress versions that wrote in place (tempfile.mkstemp names around
# the name of an output: a page, a PDF, a font or its licence).
_LEGACY_TMP = re.compile(r"^\..+\.(html|pdf|ttf|txt)\.[a-z0-9_]{8}\.tmp$")


def write_set(out: Path, outputs: Mapping[Path, bytes | str],
              record: Record | None = None) -> list[Path]:
    """Write ``outputs`` (paths inside ``out`` -> content) as one set; returns the paths (not
    those of rulepress's own files, in ``out``/.rulepress).
    ``record``: what to add to the folder's manifest, merged with the one on disk under the
    folder's lock and written in the same set (not at all when nothing changes).
    An OSError (read-only folder, full disk ...) is a RulepressError naming the path."""
    where = out
    try:
        out.mkdir(parents=True, exist_ok=True)
        with _locked(out):
            recover(out)
            if record is not None:
                outputs = _with_manifest(out, outputs, record)
            if not outputs:
                return []
            stage = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=out))
            try:
                for path, data in sorted(outputs.items()):
                    where = path
                    _stage(stage, path.relative_to(out), data)
                where = out
                _prepare(out, list(outputs))
                raise_if_stopped()
                _write_record(stage, sorted(p.relative_to(out).as_posix() for p in outputs))
            except BaseException:
                shutil.rmtree(stage, ignore_errors=True)
                raise
            with deferred():
                _finish(out, stage)
    except OSError as exc:
        raise RulepressError.at(None, f"cannot write {where}: {exc.strerror or exc}") from None
    return sorted(p for p in outputs if not p.is_relative_to(out / MANIFEST.parent))


def _with_manifest(out: Path, outputs: Mapping[Path, bytes | str],
                   record: Record) -> Mapping[Path, bytes | str]:
    old = read_manifest(out)
    text = manifest_text(record.merged(old))
    if not outputs and (out / MANIFEST).is_file() and text == manifest_text(old):
        return outputs
    return {**outputs, out / MANIFEST: text}


def recover(out: Path) -> None:
    """Finish a committed staging folder a killed run left in ``out``; remove uncommitted ones
    and the temporary files earlier rulepress versions could leave behind."""
    for stage in sorted(out.glob(f"{STAGING_PREFIX}*")):
        if stage.is_dir() and not stage.is_symlink():
            if (stage / COMMIT).is_file():
                _finish(out, stage)
            else:
                shutil.rmtree(stage)
    for folder in (out, *(p for p in out.iterdir() if p.is_dir() and not p.is_symlink())):
        for stale in folder.glob(".*.tmp"):
            if _LEGACY_TMP.match(stale.name) and stale.is_file():
                stale.unlink()


def _stage(stage: Path, relative: Path, data: bytes | str) -> None:
    target = stage / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    target.chmod(0o644)


def _prepare(out: Path, paths: list[Path]) -> None:
    """Everything a rename could fail on, checked before the commit point: the folders exist
    (making one can need space) and no output's place is taken by a folder."""
    for path in paths:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.is_dir() and not path.is_symlink():
            raise IsADirectoryError(errno.EISDIR, "a folder is in the way of an output", str(path))


def _write_record(stage: Path, names: list[str]) -> None:
    """The commit point: the list of files, made visible by one rename."""
    partial = stage / f"{COMMIT}.partial"
    partial.write_text("\n".join(names) + "\n", encoding="utf-8")
    os.replace(partial, stage / COMMIT)


def _finish(out: Path, stage: Path) -> None:
    names = (stage / COMMIT).read_text(encoding="utf-8").split()
    for name in names:
        staged = stage / name
        if staged.is_file():  # else moved already by the run that was killed
            (out / name).parent.mkdir(parents=True, exist_ok=True)
            os.replace(staged, out / name)
    shutil.rmtree(stage)


@contextmanager
def _locked(folder: Path) -> Iterator[None]:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
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
    with tempfile.TemporaryDirectory(prefix=f"{SCRATCH_PREFIX}{os.getpid()}-") as folder:
        tempfile.tempdir = folder
        try:
            yield Path(folder)
        finally:
            tempfile.tempdir = previous


def clear_stale_scratch() -> None:
    """Remove the scratch folders of rulepress processes that no longer run."""
    for folder in Path(tempfile.gettempdir()).glob(f"{SCRATCH_PREFIX}*-*"):
        pid = folder.name.removeprefix(SCRATCH_PREFIX).split("-")[0]
        if pid.isdigit() and folder.is_dir() and not _running(int(pid)):
            shutil.rmtree(folder, ignore_errors=True)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return not _zombie(pid)


def _zombie(pid: int) -> bool:
    """Whether ``pid`` has ended and waits to be reaped (a killed run's worker, until init gets
    to it): it writes nothing more."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state in ("Z", "X")

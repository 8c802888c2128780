"""The two sides of a diff: a git revision of the project, read by git itself into a scratch
folder, or a project folder as it is on disk (the working tree).

git runs as a command (``git archive``), each call within ``GIT_SECONDS``; rulepress never reads
git's objects itself. A revision's files land in a scratch folder and are read from there by the
normal reader, as if they were a project of their own.
"""

from __future__ import annotations

import os
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path

from rulepress.diagnostics import RulepressError
from rulepress.limits import MAX_READ_BYTES, MAX_REVISION_BYTES
from rulepress.project import CONFIG, load_project

GIT_SECONDS = 60.0  # one git command; a repository on a hung network drive must not hang us
WORKING = "working tree"


@dataclass(frozen=True)
class Side:
    """One side of a diff: where its sources are, and what to call it."""

    label: str  # as the user wrote it: 'v1.0', 'HEAD~2', 'working tree', a folder
    sources: Path
    project: Path  # its project folder (a module engine is found from there)
    commit: str = ""  # the commit, for a revision ('' for a folder)

    @property
    def slug(self) -> str:
        """The label as a file name's part: 'v1.0', 'HEAD-2', 'working'."""
        if self.label == WORKING:
            return "working"
        text = "".join(ch if ch.isalnum() or ch in "._+" else "-" for ch in self.label)
        return text.strip("-.") or self.commit[:12]


def git(args: list[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """Run git; its failure is returned (the caller words it), a missing git or a hang raised."""
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C", "GIT_PAGER": "cat"}
    try:
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True, env=env,
                              timeout=GIT_SECONDS, check=False)
    except FileNotFoundError:
        raise RulepressError.at(None, "reading a revision needs git, which is not installed "
                                      "(or not on PATH)") from None
    except subprocess.TimeoutExpired:
        raise RulepressError.at(None, f"git {args[0]} took more than {GIT_SECONDS:g} s in "
                                      f"{cwd}: is the repository on a drive that hangs?") from None


def _said(done: subprocess.CompletedProcess[bytes]) -> str:
    lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
    return lines[-1].removeprefix("fatal: ") if lines else f"git exited {done.returncode}"


@dataclass(frozen=True)
class Repository:
    """The git repository holding a project: its top folder and the project's place in it."""

    top: Path
    prefix: str  # the project folder, relative to the top ('' at the top)

    @classmethod
    def of(cls, project: Path, revision: str) -> Repository:
        done = git(["rev-parse", "--show-toplevel"], project)
        if done.returncode:
            raise RulepressError.at(None, f"'{revision}' is neither a folder nor a revision: "
                                          f"{project} is not in a git repository")
        top = Path(done.stdout.decode().strip()).resolve()
        prefix = project.resolve().relative_to(top).as_posix()
        return cls(top, "" if prefix == "." else prefix)

    def commit(self, revision: str) -> str:
        """The commit ``revision`` names; an error when git knows none by that name."""
        done = git(["rev-parse", "--verify", "--quiet", "--end-of-options",
                    f"{revision}^{{commit}}"], self.top)
        if done.returncode or not done.stdout.strip():
            raise RulepressError.at(None, f"unknown revision '{revision}': git knows no commit "
                                          f"by that name in {self.top}")
        return done.stdout.decode().strip()

    def dirty(self, sources: Path) -> list[str]:
        """The files under ``sources`` that differ from the last commit (git status)."""
        done = git(["status", "--porcelain", "--untracked-files=all", "--", str(sources)],
                   self.top)
        if done.returncode:
            raise RulepressError.at(None, f"git status failed in {self.top}: {_said(done)}")
        return [line[3:] for line in done.stdout.decode("utf-8", "replace").splitlines()]

    def extract(self, commit: str, into: Path, sources: str) -> Path:
        """The project folder at ``commit``, written under ``into`` (by git archive): its
        rulepress.toml, its sources folder ``sources`` and its Python files (an engine module
        of the project), no more. A link out of the folder is left out, as a missing file, and
        so is a file larger than any read of a game's file (MAX_READ_BYTES: it cannot be an
        input); more than MAX_REVISION_BYTES in all is an error, found before anything is
        unpacked (git reports each file's size)."""
        base = f"{self.prefix}/" if self.prefix else ""
        wanted = [f"{base}{CONFIG}", f"{base}{sources}"]
        listed = git(["ls-tree", "-r", "-z", "-l", commit, "--", base or "."], self.top)
        if listed.returncode:
            raise RulepressError.at(None, f"git ls-tree of {commit[:12]} failed: {_said(listed)}")
        sizes = dict(_sized(e) for e in listed.stdout.decode("utf-8", "replace").split("\0") if e)
        names = [n for n, size in sizes.items() if size <= MAX_READ_BYTES]
        paths = [n for n in names
                 if any(n == w or n.startswith(f"{w}/") for w in wanted)
                 or (n.endswith(".py") and not n.startswith(f"{wanted[1]}/"))]
        total = sum(sizes[n] for n in paths)
        if total > MAX_REVISION_BYTES:
            raise RulepressError.at(None, (
                f"revision {commit[:12]}: its project's files are {total:,} bytes, more than "
                f"the limit of {MAX_REVISION_BYTES:,} for a revision read"))
        if paths:
            into.parent.mkdir(parents=True, exist_ok=True)
            # Written to a file, not held: the revision is read from disk, a file at a time.
            done = git(["archive", "--format=tar", f"--output={into}.tar", commit, "--",
                        *paths], self.top)
            if done.returncode:
                raise RulepressError.at(None, f"git archive of {commit[:12]} failed: "
                                              f"{_said(done)}")
            try:
                with tarfile.open(f"{into}.tar") as tar:
                    tar.extractall(into, filter=_inside_only)
                os.unlink(f"{into}.tar")
            except (tarfile.TarError, OSError) as exc:
                raise RulepressError.at(None, f"cannot unpack revision {commit[:12]}: "
                                              f"{exc}") from None
        root = into / self.prefix if self.prefix else into
        root.mkdir(parents=True, exist_ok=True)
        return root


def _sized(entry: str) -> tuple[str, int]:
    """An ls-tree -l entry ('100644 blob <hash>     123\t<path>'): its path and size (0 for
    what is not a file's contents, a submodule's commit)."""
    head, _, name = entry.partition("\t")
    size = head.split()[-1]
    return name, int(size) if size.isdigit() else 0


def _inside_only(member: tarfile.TarInfo, path: str) -> tarfile.TarInfo | None:
    """tarfile's 'data' filter, a member it refuses (a link out) skipped instead of fatal."""
    try:
        return tarfile.data_filter(member, path)
    except tarfile.FilterError:
        return None


def open_side(spec: str | None, root: Path, sources: Path, scratch: Path, *,
              named_new: bool = False) -> Side:
    """``spec`` as one side of a diff: None is the working tree, an existing folder is a project
    folder (or a sources folder), anything else a git revision of the project at ``root``.
    ``named_new``: this is NEW given by name, which needs a clean tree (else the errata would
    describe a revision while the books beside it are built from other files)."""
    if spec is None:
        return Side(WORKING, sources, root)
    folder = Path(spec)
    if folder.is_dir():
        if (folder / CONFIG).is_file():
            found = load_project(folder)
            return Side(spec, found.path(found.sources), found.root)
        return Side(spec, folder, folder)
    repo = Repository.of(root, spec)
    commit = repo.commit(spec)
    within = _inside(sources, root, spec)
    if named_new:
        changed = repo.dirty(sources)
        if changed:
            raise RulepressError.at(None, (
                f"the working tree has uncommitted changes under {within}/ ({changed[0]}"
                f"{f' and {len(changed) - 1} more' if len(changed) > 1 else ''}): commit or "
                f"stash them to compare with '{spec}', or leave NEW out to compare with the "
                "working tree"))
    root = repo.extract(commit, scratch / commit[:12], within)
    if len(spec) > 12 and commit.startswith(spec.lower()):  # a hash: its short form will do
        spec = commit[:12]
    # The revision's own rulepress.toml may name another sources folder: it is the one read.
    if (root / CONFIG).is_file():
        found = load_project(root)
        where = found.path(found.sources)
        if not where.resolve().is_relative_to(root.resolve()):
            # Only what git holds of the revision is its printing: a folder named outside it
            # (an absolute path, '..') would put this machine's files in the errata.
            named = found.folder("sources")
            raise RulepressError.at(None, (
                f"revision '{spec}': its {CONFIG}"
                f"{f' line {named.loc.line}' if named.loc else ''} names {named.setting}, "
                "outside the project: a revision's sources are read from what git holds "
                "of it"))
        return Side(spec, where, root, commit)
    return Side(spec, root / within, root, commit)


def _inside(sources: Path, root: Path, spec: str) -> str:
    try:
        return sources.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        raise RulepressError.at(None, f"revision '{spec}': the sources folder {sources} is not "
                                      f"inside the project {root}, so git does not hold it "
                                      "there") from None

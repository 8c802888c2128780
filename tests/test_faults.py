"""Faults during a run: kills at every step of the write phase, SIGTERM and SIGINT while PDFs
render, read-only and full output folders, a full temporary folder, a file-size limit.

The filesystem faults need a small tmpfs (mount, as root: the machines here run as root). When
mounting is impossible the test fails saying so; it is never skipped.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # subprocesses killed and faulted on purpose

ROOT = Path(__file__).resolve().parents[1]
PLAIN = Path(__file__).parent / "fixtures" / "roots" / "plain"
RULEPRESS = [sys.executable, "-m", "rulepress.cli"]
ENV = {**os.environ, "CI": "1", "SOURCE_DATE_EPOCH": "1767225600"}

OLD = {"index.html": "old index", "game/game.html": "old page", "game/game-a4.pdf": "old pdf",
       "fonts/font.ttf": "old font"}
NEW = {"index.html": "new index", "game/game.html": "new page", "game/game-a4.pdf": "new pdf",
       "fonts/font.ttf": "new font", "other/other.html": "a new game"}
USER = {"notes.txt": "mine", "game/my-notes.txt": "mine too"}

# Runs write_set(OLD -> NEW) in a fresh process that SIGKILLs itself at its Nth filesystem
# operation (N < 0: never) and prints how many operations it made.
DRIVER = textwrap.dedent("""
    import os, pathlib, shutil, signal, sys, tempfile
    from rulepress import write
    out, stop = pathlib.Path(sys.argv[1]), int(sys.argv[2])
    new = dict(pair.split("=", 1) for pair in sys.argv[3:])
    count = 0
    def counted(fn):
        def wrapper(*args, **kwargs):
            global count
            if count == stop:
                os.kill(os.getpid(), signal.SIGKILL)
            count += 1
            return fn(*args, **kwargs)
        return wrapper
    os.replace = counted(os.replace)
    shutil.rmtree = counted(shutil.rmtree)
    tempfile.mkdtemp = counted(tempfile.mkdtemp)
    for name in ("write_bytes", "write_text", "mkdir", "chmod"):
        setattr(pathlib.Path, name, counted(getattr(pathlib.Path, name)))
    write.write_set(out, {out / k: v for k, v in new.items()})
    print(count)
""")


def files(out: Path, names: dict[str, str]) -> dict[str, str]:
    return {n: (out / n).read_text() for n in names if (out / n).is_file()}


def outputs(out: Path) -> dict[str, str]:
    """Every visible file rulepress writes (not the user's, not hidden ones)."""
    return {p.relative_to(out).as_posix(): p.read_text() for p in sorted(out.rglob("*"))
            if p.is_file() and not any(part.startswith(".") for part in p.relative_to(out).parts)
            and p.relative_to(out).as_posix() not in USER}


def write_old(out: Path) -> None:
    from rulepress.write import write_set

    write_set(out, {out / k: v for k, v in OLD.items()})
    for name, text in USER.items():
        (out / name).write_text(text)


def drive(out: Path, stop: int) -> subprocess.CompletedProcess[str]:
    pairs = [f"{k}={v}" for k, v in NEW.items()]
    return subprocess.run([sys.executable, "-c", DRIVER, str(out), str(stop), *pairs],
                          capture_output=True, text=True, env=ENV, timeout=60)


def test_a_kill_at_any_step_of_the_write_phase_leaves_the_old_or_the_new_set(
        tmp_path: Path) -> None:
    from rulepress.write import COMMIT, recover

    steps = int(drive(_fresh(tmp_path / "count"), -1).stdout)
    assert steps > 10
    seen = {"old": 0, "new": 0, "committed, finished by the next run": 0}
    for stop in range(steps):
        out = _fresh(tmp_path / f"kill-{stop}")
        result = drive(out, stop)
        assert result.returncode == -signal.SIGKILL, result.stderr
        after_kill = outputs(out)
        committed = any((stage / COMMIT).is_file() for stage in out.glob(".staging-*"))
        # Without a commit record the old set is untouched; a mix exists only with one.
        if after_kill not in (OLD, NEW):
            assert committed, (stop, after_kill)
        recover(out)
        after = outputs(out)
        assert after in (OLD, NEW), (stop, after)
        assert after == NEW or not committed
        assert not list(out.glob(".staging-*"))
        assert files(out, USER) == USER, "a user's file was touched"
        key = ("committed, finished by the next run" if after_kill != after
               else "old" if after == OLD else "new")
        seen[key] += 1
    print(f"{steps} kill points: {seen}")
    assert seen["old"] and seen["new"]


def _fresh(out: Path) -> Path:
    write_old(out)
    return out


def test_stale_files_of_a_killed_run_are_removed_by_the_next(tmp_path: Path) -> None:
    from rulepress.write import STAGING_PREFIX, _made_folder, write_set

    out = _fresh(tmp_path / "out")
    dead = _made_folder(out, STAGING_PREFIX, out)  # as a run killed before its commit left it
    (dead / "index.html").write_text("half")
    empty = out / f"{STAGING_PREFIX}{'0' * 32}"  # killed before it was even marked
    empty.mkdir()
    write_set(out, {out / k: v for k, v in NEW.items()})
    assert outputs(out) == NEW
    assert not dead.exists() and not empty.exists()
    assert sorted(p.name for p in out.rglob(".*")) == [".rulepress"]


def _build(out: Path, *extra: str, env: dict[str, str] | None = None,
           **kwargs: object) -> subprocess.Popen[str]:
    options: dict[str, object] = {"stderr": subprocess.PIPE, **kwargs}
    return subprocess.Popen([*RULEPRESS, "build", "--sources", str(PLAIN), "--out", str(out),
                             *extra], cwd=ROOT, env=env or ENV, text=True,
                            **options)  # type: ignore[call-overload]


def _children(pid: int) -> set[int]:
    """The build's forked workers: the children of its command's process (rulepress runs the
    command in a child of the process started: supervise.py), running its command line."""
    return {worker for command in _same(pid) for worker in _same(command)}


def _same(pid: int) -> set[int]:
    """The children of ``pid`` running its own command line (not a helper some library starts
    for a moment)."""
    found = set()
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return found
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            same = (stat.parent / "cmdline").read_bytes() == command
        except OSError:
            continue
        if int(fields[1]) == pid and same:
            found.add(int(stat.parent.name))
    return found


def _wait_for_workers(proc: subprocess.Popen[str], count: int) -> set[int]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        workers = _children(proc.pid)
        if len(workers) >= count:
            return workers
        assert proc.poll() is None, "the build ended before its workers started"
        time.sleep(0.05)
    raise AssertionError("the build started no workers in 60 s")


def _gone(pids: set[int]) -> bool:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if not any(Path(f"/proc/{p}").exists() for p in pids):
            return True
        time.sleep(0.05)
    return False


def _long_game(folder: Path) -> Path:
    """The plain game with a long rules text, so that its PDFs take seconds to render."""
    game = folder / "long"
    game.mkdir(parents=True)
    text = (PLAIN / "plain" / "rules.md").read_text()
    sections = "".join(f"\n## Part {chr(65 + n % 26)}\n\n" + "Flip the coin and call it. " * 250
                       for n in range(12))
    (game / "rules.md").write_text(text.replace("## Clarifications", sections + "\n## Clar"
                                                                                "ifications"))
    return folder


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_while_rendering_stops_the_workers_and_writes_nothing(
        tmp_path: Path, signum: int, status: int) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [*RULEPRESS, "build", "--sources", str(_long_game(tmp_path / "src")), "--out", str(out),
         "-j", "2"], cwd=ROOT, env={**ENV, "TMPDIR": str(scratch)}, stderr=subprocess.PIPE,
        text=True)
    workers = _wait_for_workers(proc, 2)
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == status, err
    assert err.splitlines()[-1] == f"rulepress: stopped by {signal.Signals(signum).name}"
    assert "Traceback" not in err
    assert _gone(workers), "a render worker outlived the build"
    assert not out.exists()
    assert list(scratch.iterdir()) == []


LOADING = """
import os, sys, tempfile
from rulepress.pipeline import _worker_ready
_worker_ready(os.getppid())
print(sys.modules["weasyprint"].LOADED_IN)
"""


def test_a_worker_loads_weasyprint_inside_its_scratch_folder(tmp_path: Path) -> None:
    """Loading WeasyPrint's libraries writes temporary files (ctypes.util.find_library runs the
    C compiler into one): a worker stopped meanwhile left one in TMPDIR, outside any folder a
    later run clears. A stand-in module says where its import's temporary files would go."""
    fake = tmp_path / "fake"
    fake.mkdir()
    (fake / "weasyprint.py").write_text("import tempfile\nLOADED_IN = tempfile.gettempdir()\n")
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {**ENV, "TMPDIR": str(scratch),
           "PYTHONPATH": os.pathsep.join([str(fake), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", LOADING], env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    loaded_in = Path(done.stdout.strip())
    assert loaded_in.parent == scratch and loaded_in.name.startswith("rulepress-"), loaded_in
    assert list(scratch.iterdir()) == []  # and it is gone once loaded


def test_a_worker_killed_while_rendering_fails_the_build_instead_of_hanging_it(
        tmp_path: Path) -> None:
    """The kernel's out-of-memory killer takes a worker: a pool would replace it and wait for
    its job forever; the build stops with one error, writes nothing and leaves no worker."""
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [*RULEPRESS, "build", "--sources", str(_long_game(tmp_path / "src")), "--out", str(out),
         "-j", "2"], cwd=ROOT, env=ENV, stderr=subprocess.PIPE, text=True)
    workers = _wait_for_workers(proc, 2)
    os.kill(min(workers), signal.SIGKILL)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2, err
    assert "error: a PDF worker process stopped (killed by signal 9)" in err
    assert "Traceback" not in err
    assert _gone(workers), "a render worker outlived the build"
    assert not out.exists()


def test_workers_die_with_a_killed_build_and_the_next_run_clears_their_scratch(
        tmp_path: Path) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {**ENV, "TMPDIR": str(scratch)}
    proc = _build(tmp_path / "out", "-j", "2", env=env, stderr=subprocess.DEVNULL)
    workers = _wait_for_workers(proc, 2)
    proc.kill()
    proc.wait(timeout=60)
    alive = not _gone(workers)
    for pid in workers if alive else ():
        os.kill(pid, signal.SIGKILL)
    assert not alive, "render workers outlived a killed build"
    again = _build(tmp_path / "out", "-j", "1", env=env)
    _, err = again.communicate(timeout=120)
    assert again.returncode == 0, err
    left = sorted(str(p.relative_to(scratch)) for p in scratch.rglob("*"))
    assert left == [], f"left in the temporary folder: {left}"


def test_a_default_build_leaves_nothing_in_the_temporary_folder(tmp_path: Path) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    proc = _build(tmp_path / "out", env={**ENV, "TMPDIR": str(scratch)})
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert list(scratch.iterdir()) == []


@pytest.fixture()
def tmpfs(tmp_path: Path) -> Iterator[Path]:
    """A 1 MiB tmpfs (a build needs 2 MiB) at tmp_path/fs, unmounted after the test."""
    yield from _mounted(tmp_path / "fs", "1m")


@pytest.fixture()
def tiny_tmpfs(tmp_path: Path) -> Iterator[Path]:
    """A 64 KiB tmpfs: too small for the font files WeasyPrint keeps while it renders."""
    yield from _mounted(tmp_path / "tiny", "64k")


def _mounted(point: Path, size: str) -> Iterator[Path]:
    point.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(point)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.fail("this test needs a small tmpfs to fill or make read-only, and mounting one "
                    f"failed ({mounted.stderr.strip() or mounted.returncode}): run the tests as "
                    "root, as CI and the developers' machines do")
    try:
        yield point
    finally:
        subprocess.run(["umount", "-l", str(point)], check=True)


def _one_error(proc: subprocess.Popen[str]) -> str:
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 2, err
    assert "Traceback" not in err
    (line,) = [ln for ln in err.splitlines() if "error" in ln]
    return line


def test_a_full_output_folder_is_one_error_and_keeps_the_old_set(tmpfs: Path) -> None:
    write_old(tmpfs)
    line = _one_error(_build(tmpfs, "-j", "1"))
    assert line.startswith(f"rulepress: error: cannot write {tmpfs}/")
    assert line.endswith(": No space left on device")
    assert outputs(tmpfs) == OLD and files(tmpfs, USER) == USER
    assert [p.name for p in tmpfs.iterdir() if p.name.startswith(".")] == [".rulepress"]


def test_a_read_only_output_folder_is_one_error(tmpfs: Path) -> None:
    write_old(tmpfs)
    subprocess.run(["mount", "-o", "remount,ro", str(tmpfs)], check=True)
    line = _one_error(_build(tmpfs, "-j", "1"))
    assert line == f"rulepress: error: cannot write {tmpfs}: Read-only file system"
    assert outputs(tmpfs) == OLD


def test_a_full_temporary_folder_is_one_error(tiny_tmpfs: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    line = _one_error(_build(out, "-j", "1", env={**ENV, "TMPDIR": str(tiny_tmpfs)}))
    assert line.startswith("rulepress: error: cannot render plain-a4.pdf: No space left on device")
    assert not out.exists()
    assert list(tiny_tmpfs.iterdir()) == []


def test_a_file_size_limit_is_one_error_and_writes_nothing(tmp_path: Path) -> None:
    """The same fault without a filesystem of its own: RLIMIT_FSIZE makes big writes fail."""
    import resource

    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (200_000, 200_000))

    out = tmp_path / "out"
    line = _one_error(_build(out, "-j", "1", preexec_fn=limit))
    assert line.startswith("rulepress: error: cannot ") and "File too large" in line
    assert [p for p in out.rglob("*") if p.is_file()] == []


def test_a_process_that_ended_unreaped_keeps_no_scratch(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A killed run's worker ends at once but stays a zombie until init reaps it: its scratch
    folder is stale already (it writes nothing more)."""
    import tempfile

    from rulepress.write import SCRATCH_PREFIX, _made_folder, clear_stale_scratch

    child = subprocess.Popen(["true"])
    os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT)  # ended, not reaped
    try:
        assert Path(f"/proc/{child.pid}").exists()
        monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
        monkeypatch.setattr(os, "getpid", lambda: child.pid)
        folder = _made_folder(tmp_path, f"{SCRATCH_PREFIX}{child.pid}-", tmp_path)
        monkeypatch.undo()
        monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
        mine = _made_folder(tmp_path, f"{SCRATCH_PREFIX}{os.getpid()}-", tmp_path)
        clear_stale_scratch()
        assert not folder.exists()
        assert mine.exists()
    finally:
        child.wait()


# Nothing of anyone else's is replaced, deleted or written through: each case below leaves the
# folders it plants, and the folder a planted link leads to, byte for byte as they were.

SIMULATE = Path(__file__).parent / "fixtures" / "simulate"


def snapshot(folder: Path) -> dict[str, bytes | str]:
    """Everything under ``folder`` (links as links, never followed), to compare whole."""
    found: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        found[name] = (f"link to {os.readlink(path)}" if path.is_symlink()
                       else path.read_bytes() if path.is_file() else "folder")
    return found


def _users_folder(out: Path) -> dict[str, bytes | str]:
    """An output folder holding what a user keeps there, none of it a name rulepress writes:
    files, a '.staging-' folder with a commit record, files named as the temporary files of old
    rulepress versions were."""
    (out / "plain").mkdir(parents=True)
    (out / "notes.txt").write_text("mine")
    (out / ".staging-x").mkdir()
    (out / ".staging-x" / ".commit").write_text("notes.txt\n")
    (out / ".staging-x" / "draft.md").write_text("a draft")
    (out / ".index.html.abcd1234.tmp").write_text("mine, however it is named")
    (out / "plain" / ".plain.html.k2j4_x9a.tmp").write_text("mine too")
    return snapshot(out)


def test_a_build_into_a_users_folder_leaves_everything_of_theirs(tmp_path: Path) -> None:
    out = tmp_path / "out"
    before = _users_folder(out)
    proc = _build(out, "--no-pdf")
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    after = snapshot(out)
    assert {name: after.get(name) for name in before} == before
    assert "plain/plain.html" in after


def test_a_users_file_where_the_build_writes_is_an_error_naming_it(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _users_folder(out)
    (out / "index.html").write_text("my own index")
    (out / "plain" / "plain.html").write_text("my own page")
    before = snapshot(out)
    line = _one_error(_build(out, "--no-pdf"))
    assert line == (f"rulepress: error: {out} holds files rulepress did not write (its "
                    ".rulepress/manifest.json does not list them) where this run writes: "
                    "index.html, plain/plain.html; move them away, or choose another output "
                    "folder. Nothing was written")
    assert snapshot(out) == before


def test_a_link_inside_the_output_folder_is_never_written_through(tmp_path: Path) -> None:
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("not rulepress's")
    out.mkdir()
    (out / "plain").symlink_to(elsewhere)
    line = _one_error(_build(out, "--no-pdf"))
    assert "where this run writes: plain (a symbolic link)" in line
    assert snapshot(elsewhere) == {"keep.txt": b"not rulepress's"}
    assert sorted(p.name for p in out.iterdir()) == ["plain"]


def test_scratch_folders_in_tmpdir_that_rulepress_did_not_make_are_left_alone(
        tmp_path: Path) -> None:
    from rulepress.write import MARK, SCRATCH_PREFIX, _made_folder

    scratch = tmp_path / "tmp"
    scratch.mkdir()
    unmarked = scratch / f"{SCRATCH_PREFIX}99999-x"
    unmarked.mkdir()
    (unmarked / "data").write_text("someone's")
    # A scratch folder of a rulepress process that is gone: the build clears it...
    stale = _made_folder(scratch, f"{SCRATCH_PREFIX}99999-", scratch)
    (stale / MARK).write_text((stale / MARK).read_text().replace(f'"pid": {os.getpid()}',
                                                                 '"pid": 99999'))
    # ... but not a copy of it: the mark names the first folder's inode, not the copy's.
    copied = scratch / f"{SCRATCH_PREFIX}99999-{'c' * 32}"
    shutil.copytree(stale, copied)
    (copied / "data").write_text("someone's too")
    assert '"pid": 99999' in (copied / MARK).read_text()
    before = snapshot(scratch)
    proc = _build(tmp_path / "out", env={**ENV, "TMPDIR": str(scratch)})
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    del before[stale.name], before[f"{stale.name}/{MARK}"]
    assert snapshot(scratch) == before


def _planted(out: Path, target: Path) -> dict[str, bytes | str]:
    """Staging folders as a killed run would have left them, each with a commit record, but
    copied in with a project: one carries a mark made for another folder, one of the old kind
    has none; each leads through a link 'd' to ``target``."""
    from rulepress.write import COMMIT, STAGING_PREFIX, _made_folder

    origin = out.parent / f"origin-of-{out.name}"
    origin.mkdir(parents=True)
    genuine = _made_folder(origin, STAGING_PREFIX, origin)
    (genuine / "d").symlink_to(target)
    (genuine / "evil.html").write_text("written through the link")
    (genuine / COMMIT).write_text('{"write": ["d/evil.html", "evil.html"], '
                                  '"delete": ["d/keep.txt"]}')
    out.mkdir(parents=True, exist_ok=True)
    shutil.copytree(genuine, out / genuine.name, symlinks=True)
    old = out / ".staging-zz"
    old.mkdir()
    (old / "d").symlink_to(target)
    (old / "d.html").write_text("moved through the link")
    (old / COMMIT).write_text("d/keep.txt\nd.html\n")
    (out / "d").symlink_to(target)
    return snapshot(out)


def test_a_staging_folder_copied_in_with_a_project_is_never_recovered(tmp_path: Path) -> None:
    target = tmp_path / "target"
    target.mkdir()
    (target / "keep.txt").write_text("not rulepress's")
    out = tmp_path / "project" / "build"
    before = _planted(out, target)
    proc = _build(out, "--no-pdf")
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert snapshot(target) == {"keep.txt": b"not rulepress's"}
    after = snapshot(out)
    assert {name: after.get(name) for name in before} == before
    assert not (out / "evil.html").exists()


def _simulate(out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*RULEPRESS, "simulate", "coin-race", "--project", str(SIMULATE),
                           "--out", str(out), "-n", "20", "-q", "--jobs", "1", *args],
                          cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=120)


def test_a_playtest_folder_with_a_planted_staging_folder_writes_nothing_outside(
        tmp_path: Path) -> None:
    game = tmp_path / "project" / "sources" / "coin-race"
    game.mkdir(parents=True)
    target = tmp_path / "target"
    target.mkdir()
    (target / "keep.txt").write_text("not rulepress's")
    before = _planted(game / "playtest", target)
    done = _simulate(game / "playtest")
    assert done.returncode == 0, done.stderr
    assert snapshot(target) == {"keep.txt": b"not rulepress's"}
    after = snapshot(game / "playtest")
    assert {name: after.get(name) for name in before} == before
    assert "summary.json" in after


def test_a_playtest_folder_that_is_a_link_is_refused(tmp_path: Path) -> None:
    project = tmp_path / "project"
    shutil.copytree(SIMULATE, project)
    target = tmp_path / "target"
    target.mkdir()
    (target / "keep.txt").write_text("not rulepress's")
    playtest = project / "sources" / "coin-race" / "playtest"
    playtest.symlink_to(target)
    done = subprocess.run([*RULEPRESS, "simulate", "coin-race", "-n", "20", "-q", "--out",
                           "sources/coin-race/playtest"], cwd=project, env=ENV,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (f"rulepress: error: --out sources/coin-race/playtest: {playtest} is a "
                           f"symbolic link (to {target}); rulepress writes only into real "
                           "folders: name the folder it leads to instead\n")
    assert snapshot(target) == {"keep.txt": b"not rulepress's"}


def test_simulate_deletes_only_the_plots_it_wrote(tmp_path: Path) -> None:
    out = tmp_path / "sim"
    out.mkdir()
    (out / "agents.svg").write_text("<svg>my own drawing</svg>")
    (out / "notes.txt").write_text("mine")
    assert _simulate(out).returncode == 0  # one agent: no agents.svg drawn
    assert (out / "agents.svg").read_text() == "<svg>my own drawing</svg>"
    two = _simulate(out, "-a", "random,cautious")  # draws agents.svg: the user's is in the way
    assert two.returncode == 2
    assert "where this run writes: agents.svg;" in two.stderr
    assert (out / "agents.svg").read_text() == "<svg>my own drawing</svg>"
    (out / "agents.svg").unlink()
    assert _simulate(out, "-a", "random,cautious").returncode == 0
    assert _simulate(out).returncode == 0  # its own agents.svg, unchanged, goes
    assert not (out / "agents.svg").exists()
    assert _simulate(out, "-a", "random,cautious").returncode == 0
    (out / "agents.svg").write_text("<svg>edited since</svg>")
    assert _simulate(out).returncode == 0  # edited: no longer only rulepress's, so it stays
    assert (out / "agents.svg").read_text() == "<svg>edited since</svg>"
    assert (out / "notes.txt").read_text() == "mine"


def test_many_files_in_the_way_are_counted_and_a_linked_folder_named_once(
        tmp_path: Path) -> None:
    from rulepress.diagnostics import RulepressError
    from rulepress.write import write_set

    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    elsewhere.mkdir()
    out.mkdir()
    (out / "linked").symlink_to(elsewhere)
    for n in range(10):
        (out / f"page-{n}.html").write_text(f"my page {n}")
    before = snapshot(out)
    new = {out / f"page-{n}.html": "new" for n in range(10)}
    new |= {out / "linked" / f"{n}.pdf": "new" for n in range(3)}
    with pytest.raises(RulepressError) as raised:
        write_set(out, new)
    (problem,) = raised.value.diagnostics
    assert problem.message.endswith(
        "where this run writes: linked (a symbolic link), page-0.html, page-1.html, page-2.html, "
        "page-3.html, page-4.html, page-5.html, page-6.html and 3 more; move them away, or "
        "choose another output folder. Nothing was written")
    assert snapshot(out) == before and list(elsewhere.iterdir()) == []


def _waiting_worker(parent: int) -> None:
    """A PDF worker's start, held inside its scratch folder until it is stopped."""
    from rulepress.signals import worker_started
    from rulepress.write import scratch_folder

    worker_started(parent)
    with scratch_folder():
        time.sleep(60)


def test_a_stop_while_the_workers_start_leaves_no_worker_and_no_scratch(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A signal while the pool of PDF workers was being made (a loaded machine) stopped the
    build without stopping them: they died with it, leaving their scratch folders."""
    import tempfile

    from rulepress import pipeline, workers
    from rulepress.signals import Interrupted, stop_on_signals

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(pipeline, "_worker_ready", _waiting_worker)
    starting = workers.Workers._new

    def signalled_while_starting(pool: workers.Workers[object]) -> object:
        worker = starting(pool)
        if len(pool._idle) == 1:  # the second and last is being started
            deadline = time.monotonic() + 30
            while len(list(tmp_path.iterdir())) < 2 and time.monotonic() < deadline:
                time.sleep(0.05)
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.1)  # still starting when the signal comes
        return worker

    monkeypatch.setattr(workers.Workers, "_new", signalled_while_starting)
    with pytest.raises(Interrupted), stop_on_signals(), pipeline._pool(2, 2):
        pass
    assert list(tmp_path.iterdir()) == []


def _loses_one_sigterm(parent: int) -> None:
    """A PDF worker as one is when the pool's SIGTERM reaches it while it is being forked:
    the signal is lost (here: swallowed once), then it is a worker like any other."""
    def swallow(signum: int, frame: object) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, swallow)


def test_stopping_the_pdf_workers_ends_even_a_worker_that_lost_its_sigterm() -> None:
    """The pool's terminate() waited forever for a worker whose SIGTERM was lost as it was
    forked (a build failing at once, as an engine that exits does, stops the pool at once)."""
    import threading

    from rulepress import workers

    pool = workers.Workers(time.sleep, 2, warm=True, guard=False, start=_loses_one_sigterm)
    pool.__enter__()
    for _ in range(2):  # busy when stopped: they would swallow a SIGTERM and wait for work again
        pool.submit(2)
    time.sleep(0.5)
    pids = set(pool.workers())
    assert len(pids) == 2
    stopping = threading.Thread(target=pool.__exit__, args=(None, None, None), daemon=True)
    stopping.start()
    stopping.join(30)
    assert not stopping.is_alive(), "stopping the PDF workers hangs"
    assert _gone(pids)

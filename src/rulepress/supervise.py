"""The console command runs in a child process; its parent watches the child's engine imports.

An engine's module is imported first in a worker (games._trial), then again in the command's
own process, where nothing guards it: a module that ends its process there (``os._exit(0)``)
would end the command with exit 0 having said and written nothing, and one that loops there
would never end. So ``rulepress`` (the console script, ``python -m rulepress``) forks at once:
the child runs the command; the parent only waits, passes signals on, and reads what the child
tells it over a pipe as it starts and ends importing engine code (:func:`importing`). If the
child ends during such an import, or the import outlives the engine's time budget, the parent
stops it and reports the engine at its file, exit 2; the write phase being atomic, nothing is
left half-written. Anything else the child does ends as the child ends: its exit status, or the
signal that ended it. Linux only (where a fork and /proc are at hand); elsewhere unsupervised.
"""

from __future__ import annotations

import json
import os
import select
import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

from rulepress.diagnostics import Diagnostic, ExitStatus, Severity, SourceLoc
from rulepress.signals import worker_started
from rulepress.workers import Budget, budget, ended, set_budget

WALL = 3.0  # an import waiting (not computing) is stopped past this many times its budget
POLL = 0.1  # seconds between looks at an import under way
PASSED_ON = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
_SI_KERNEL = 0x80  # si_code of a signal the terminal sent (to the child as well)

_channel: int | None = None  # in the command's process: the pipe's end to the parent
_owner = 0  # that process (a worker forked from it must not write)


@contextmanager
def importing(path: Path | None, what: str) -> Iterator[None]:
    """In the supervised command's own process, the parent watches the block: engine code
    ``what`` (its words, e.g. "engine module 'engines/g.py'") imported from ``path``."""
    if _channel is None or os.getpid() != _owner:
        yield
        return

    _tell({"enter": what, "path": None if path is None else str(path),
           "seconds": budget().seconds, "cpu": time.process_time(), "at": time.monotonic()})
    try:
        yield
    finally:
        _tell({"leave": what})


def _tell(message: dict[str, Any]) -> None:
    assert _channel is not None
    os.write(_channel, (json.dumps(message) + "\n").encode())


def supervised(command: Callable[[], Any]) -> Any:
    """Run ``command`` (the click command line) in a child process watched from here; returns
    only in the child (or where there is no supervising), the parent exits as the child ends."""
    global _channel, _owner
    if sys.platform != "linux":
        return command()
    read, write = os.pipe()
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {*PASSED_ON, signal.SIGCHLD})
    child = os.fork()
    if child == 0:
        os.close(read)
        _channel, _owner = write, os.getpid()
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)

        handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
        worker_started(os.getppid())  # ends with the parent should it be killed outright
        for signum, handler in handlers.items():  # the command's to handle, as before (nohup)
            if handler is not None:
                signal.signal(signum, handler)
        return command()
    os.close(write)
    _watch(child, read)


def _watch(child: int, read: int) -> NoReturn:
    """The parent's life: until the child ends, pass signals sent to this process on, and
    watch its engine imports."""
    pending = b""
    under_way: dict[str, Any] | None = None
    passed: set[int] = set()
    while True:
        info = signal.sigtimedwait({*PASSED_ON, signal.SIGCHLD}, POLL)
        if info is not None and info.si_signo in PASSED_ON and info.si_code != _SI_KERNEL \
                and info.si_signo not in passed:  # a terminal's reached the child already
            passed.add(info.si_signo)
            os.kill(child, info.si_signo)
        while select.select([read], [], [], 0)[0]:
            chunk = os.read(read, 65536)
            if not chunk:
                break
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in lines:
                message = json.loads(line)
                under_way = message if "enter" in message else None
        done, status = os.waitpid(child, os.WNOHANG)
        if done:
            if under_way is not None:
                _fault(under_way, os.waitstatus_to_exitcode(status))
            _end_as(status)
        if under_way is not None:
            late = _late(child, under_way)
            if late != 0:
                os.kill(child, signal.SIGKILL)
                os.waitpid(child, 0)
                _fault(under_way, late)


def _late(child: int, import_: dict[str, Any]) -> int | None:
    """0 while the import is within its budget; past it in CPU time, -SIGPROF (as a worker's
    kernel timer ends it), past WALL times it in wall time, None (a worker stopped waiting)."""
    seconds = float(import_["seconds"])
    try:
        with open(f"/proc/{child}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0
    if cpu - float(import_["cpu"]) > seconds:
        return -signal.SIGPROF
    if time.monotonic() - float(import_["at"]) > WALL * seconds:
        return None
    return 0


def _fault(import_: dict[str, Any], code: int | None) -> NoReturn:
    set_budget(Budget(float(import_["seconds"])))
    path = import_["path"]
    loc = None if path is None else SourceLoc(Path(path), 1, 1)
    print(Diagnostic(loc, Severity.ERROR, f"{import_['enter']} {ended(code)} as it was "
                     "imported again, in the command's own process"), file=sys.stderr)
    sys.stderr.flush()
    os._exit(ExitStatus.BAD_INPUT)


def _end_as(status: int) -> NoReturn:
    """End as the child did: its exit status, or the signal that ended it."""
    code = os.waitstatus_to_exitcode(status)
    if code < 0:
        signal.signal(-code, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {-code})
        os.kill(os.getpid(), -code)
    os._exit(code & 0xFF if code >= 0 else 128 - code)

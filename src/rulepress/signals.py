"""SIGINT and SIGTERM: the main process stops cleanly, its render workers stop with it.

In the main process both signals raise ``Interrupted`` (a BaseException, so no library's
``except Exception`` swallows it); the command stops its workers, leaves the outputs as the
writer guarantees, and exits 128 + the signal's number (130 for Ctrl-C). Workers leave Ctrl-C to
the main process and die with it, even when it is killed outright (Linux).
"""

from __future__ import annotations

import ctypes
import functools
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

STOP = (signal.SIGINT, signal.SIGTERM)
_PR_SET_PDEATHSIG = 1


class Interrupted(BaseException):
    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum
        self.name = signal.Signals(signum).name


_received: list[int] = []
_owner: list[int] = []  # the process that installed the handlers


def _interrupt(signum: int, frame: FrameType | None) -> None:
    if os.getpid() not in _owner:  # a worker just forked, before worker_started ran
        os._exit(128 + signum)
    if signum in _received:  # a second copy (the group's and the supervisor's): one stop
        return
    # Also remembered: raised while Python runs a __del__ or a GC callback, the exception is
    # dropped (see _quiet), and the run would go on as if nothing had happened.
    _received.append(signum)
    raise Interrupted(signum)


def _quiet(unraisable: sys.UnraisableHookArgs, default: Callable[..., object]) -> None:
    """Interrupted raised inside a finalizer: remembered already, not worth a traceback."""
    if not isinstance(unraisable.exc_value, Interrupted):
        default(unraisable)


def raise_if_stopped() -> None:
    """Raise Interrupted if a stop signal arrived and its exception was lost on the way."""
    if _received:
        raise Interrupted(_received[0])


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """SIGINT and SIGTERM raise Interrupted inside the block (main thread only; a signal the
    caller ignores, as nohup does, stays ignored)."""
    if not _main_thread():
        yield
        return
    _owner[:] = [os.getpid()]
    _received.clear()
    hook = sys.unraisablehook
    sys.unraisablehook = functools.partial(_quiet, default=hook)
    previous = {s: signal.signal(s, _interrupt) for s in STOP
                if signal.getsignal(s) is not signal.SIG_IGN}
    try:
        yield
        raise_if_stopped()
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        sys.unraisablehook = hook
        _received.clear()


def _remember(signum: int, frame: FrameType | None) -> None:
    if os.getpid() not in _owner:  # a worker forked in a deferred block, as in _interrupt
        os._exit(128 + signum)
    _received.append(signum)


@contextmanager
def deferred() -> Iterator[None]:
    """Inside stop_on_signals: SIGINT and SIGTERM wait until the block is done (it must not
    stop half-way), then raise Interrupted."""
    if not _main_thread():
        yield
        return
    swapped = {s: signal.signal(s, _remember) for s in STOP if signal.getsignal(s) is _interrupt}
    try:
        yield
    finally:
        for s, handler in swapped.items():
            signal.signal(s, handler)
    raise_if_stopped()


def worker_started(parent: int) -> None:
    """Set up a render worker forked from ``parent``: Ctrl-C is the parent's to handle, and
    SIGTERM (from the parent, or from the kernel when the parent dies) ends the worker at once.
    A Python-level handler would not do: the pool catches any exception a job raises and the
    worker would wait for work forever. The scratch folders it leaves go in the next run."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform == "linux":
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM))
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(128 + signal.SIGTERM)

"""The one way a reference in a game's text becomes a file, and the one way such a file is read.

The check and the renderer both call ``local_file``, so what the check passes is exactly what
the renderer opens. ``read_regular`` never blocks on a FIFO or a device and never reads more
than a limit.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

from rulepress.limits import MAX_SOURCE_BYTES


class PathRefused(ValueError):
    """Why a reference or a file may not be used; the message completes 'refused ...: '."""


def local_file(url: str, folder: Path) -> Path:
    """The regular file inside ``folder`` that the relative reference ``url`` names.

    Markdown percent-encodes what it cannot keep (``a b.svg`` -> ``a%20b.svg``), so the path is
    decoded once, here. A query or fragment means nothing for a file and could hide a path, so
    it is refused rather than dropped.
    """
    parts = urlsplit(url)
    if parts.scheme:
        raise PathRefused(f"{parts.scheme}: resources are not allowed; use a file in the game's "
                          "folder")
    if parts.netloc or url.startswith(("/", "\\")):
        raise PathRefused("absolute paths are not allowed; use a path relative to the game's "
                          "folder")
    if "?" in url or "#" in url:
        raise PathRefused("a file reference may not carry a query or fragment ('?' or '#')")
    path = unquote(parts.path)
    if not path or "\x00" in path:
        raise PathRefused("the reference names no file")
    if ".." in PurePosixPath(path).parts:
        raise PathRefused("'..' escapes the game's folder")
    root = folder.resolve()
    target = (root / path).resolve()
    if not target.is_relative_to(root):
        raise PathRefused("the path leaves the game's folder")
    try:
        mode = target.stat().st_mode
    except OSError:
        raise PathRefused("no such file in the game's folder") from None
    if not stat.S_ISREG(mode):
        raise PathRefused("not a regular file")
    return target


def read_regular(path: Path, limit: int = MAX_SOURCE_BYTES) -> bytes:
    """The bytes of the regular file ``path``; PathRefused for anything else or past ``limit``.

    Opened without blocking and checked on the open descriptor, so a FIFO swapped in after a
    check cannot hang the build. OSError (missing, unreadable) passes through.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    with os.fdopen(fd, "rb") as fh:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise PathRefused("not a regular file")
        if info.st_size > limit:
            raise PathRefused(f"{info.st_size} bytes is more than the limit of {limit}")
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise PathRefused(f"more than the limit of {limit} bytes")
    return data

"""The only way WeasyPrint reads anything: files inside a few folders, and data: URLs.

Everything else (http, https, ftp, file:// outside the jail, a ``..`` escape) is refused with an
exception WeasyPrint cannot swallow, and remembered so the caller can fail even when WeasyPrint
catches it (it logs and goes on for errors inside SVG images).
"""

from __future__ import annotations

import mimetypes
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit
from urllib.request import url2pathname

from weasyprint.urls import FatalURLFetchingError, URLFetcher, URLFetcherResponse

from rulepress.images import LABELS, BadImage, check_data, decode_data_url
from rulepress.jail import PathRefused, read_regular
from rulepress.limits import MAX_IMAGE_BYTES


class RefusedFetch(FatalURLFetchingError):  # type: ignore[misc]
    """A resource the jail does not serve.

    A BaseException (through FatalURLFetchingError): WeasyPrint's `except Exception` misses it.
    """

    def __init__(self, url: str, reason: str) -> None:
        shown = url if len(url) <= 80 else f"{url[:60]}..."  # a data: URL can be megabytes
        super().__init__(f"refused to fetch {shown}: {reason}")
        self.url = url
        self.reason = reason


def inside(path: Path, roots: Sequence[Path]) -> bool:
    return any(path.is_relative_to(root) for root in roots)


def jail_reason(url: str, roots: Sequence[Path]) -> str | None:
    """Why ``url`` (absolute) may not be fetched, or None when the jail serves it."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme == "data":
        return None
    if scheme != "file":
        return f"the {scheme or 'relative'} scheme is not allowed: only files of the game's folder"
    if parts.netloc not in ("", "localhost"):
        return f"file on another host ({parts.netloc})"
    if parts.query:
        return "a file URL may not carry a query"
    raw = url2pathname(parts.path)
    if ".." in Path(raw).parts:
        return "'..' escapes are not allowed"
    path = Path(raw).resolve()
    if not inside(path, roots):
        return "outside the game's folder and templates/"
    if not path.is_file():
        return "no such file"
    return None


class JailedFetcher(URLFetcher):  # type: ignore[misc]
    """A WeasyPrint URL fetcher serving only files under ``roots`` and data: URLs."""

    def __init__(self, roots: Sequence[Path]) -> None:
        super().__init__(
            timeout=1, allowed_protocols=("file", "data"), allow_redirects=False,
            fail_on_errors=True,
        )
        self.roots = tuple(Path(root).resolve() for root in roots)
        self.refused: list[RefusedFetch] = []

    def fetch(self, url: str, headers: object = None) -> URLFetcherResponse:
        reason = jail_reason(url, self.roots)
        if reason is not None:
            refusal = RefusedFetch(url, reason)
            self.refused.append(refusal)
            raise refusal
        try:
            if url.lower().startswith("data:"):
                media_type, body = decode_data_url(url)
            else:
                path = Path(url2pathname(urlsplit(url).path)).resolve()
                media_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
                body = read_regular(path, MAX_IMAGE_BYTES)
            # Every image, wherever it comes from (a stylesheet's url(), an SVG's <image>), is
            # held to the limits the check holds a rulebook's images to, before it is decoded.
            if media_type in LABELS:
                check_data(media_type, body)
        except (PathRefused, BadImage, OSError, ValueError) as exc:
            # strerror: not the errno and the absolute path
            refusal = RefusedFetch(url, f"cannot read it: {exc.strerror}"
                                   if isinstance(exc, OSError) else str(exc))
            self.refused.append(refusal)
            raise refusal from None
        return URLFetcherResponse(url, body, {"Content-Type": media_type})

"""What the preview server may serve, and what it adds to the pages it serves.

It serves what a reader of the books needs and nothing else of the project: the output folder
(``/build/pigeon/pigeon.html``; ``/_build/...`` when that folder is outside the project) and the
kits' folder, where the books' links to ``../pnp/`` lead (``/pnp/...``). Only the kinds of file
rulepress writes there are served (pages, PDFs, SVG plots, JSON summaries, fonts and their
licences), never a file or folder whose name starts with '.' (the manifest, a version-control
folder, ``.env``), nothing of the sources folder, and nothing outside those folders: no ``..``
segment, no absolute path, no symlink that leads out.

The pages on disk stay exactly as ``rulepress build`` writes them; the server adds to each HTML
page a small script that reloads it when a rebuild finishes, and, while the last rebuild of its
game failed, an overlay listing the diagnostics (the page itself is the last good one), and on
a game's pages a link to its faces page (serve/faces.py: the JPEGs of its kit's faces). Every
answer says how a browser may treat it (``headers``): a page may run that script and nothing
else; any other file is shown in a sandbox, with no script and an origin of its own.
"""

from __future__ import annotations

import base64
import hashlib
import json
import posixpath
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

EVENTS = "/_rulepress/wait"  # ?since=N: answers once the site's version is past N
OUT_MOUNT = "/_build"  # where the output folder is served when it is outside the project
KITS_LINK = "../pnp/"  # where the books link to the kits, from the output folder (build.kit_links)

# What rulepress writes into the output and kits' folders, and how each is sent. No other kind
# of file is served: a project's rulepress.toml, engines and sources have no place there.
MEDIA = {".html": "text/html; charset=utf-8", ".pdf": "application/pdf",
         ".svg": "image/svg+xml", ".json": "application/json", ".ttf": "font/ttf",
         ".txt": "text/plain; charset=utf-8", ".jpg": "image/jpeg"}


class RequestRefused(Exception):
    """A request the server answers with no file: one it does not serve, or a PDF whose render
    failed; ``status`` is the HTTP answer."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status


@dataclass(frozen=True)
class Site:
    """The folders a server may read, and where each appears in its URLs."""

    project: Path
    out: Path
    kits: Path | None = None
    sources: Path | None = None  # never served, even where another folder holds it

    @classmethod
    def of(cls, project: Path, out: Path, kits: Path | None = None,
           sources: Path | None = None) -> Site:
        return cls(project.resolve(), out.resolve(), kits and kits.resolve(),
                   sources and sources.resolve())

    @property
    def out_url(self) -> str:
        """The URL path of the output folder, ending in '/'."""
        if self.out.is_relative_to(self.project):
            relative = self.out.relative_to(self.project).as_posix()
            return "/" if relative == "." else f"/{relative}/"
        return f"{OUT_MOUNT}/"

    @property
    def kits_url(self) -> str:
        """The URL path of the kits' folder, ending in '/': where the books' links lead."""
        return posixpath.normpath(posixpath.join(self.out_url, KITS_LINK)) + "/"

    def url_of(self, path: Path) -> str:
        """The URL path of a file inside the output folder."""
        return self.out_url + path.resolve().relative_to(self.out).as_posix()

    def target(self, url: str) -> Path:
        """The path a request's URL names, which may not exist; RequestRefused (403) for a URL that
        tries to leave the served folders, 404 for one that names nothing served."""
        return self._locate(url)[1]

    def file_for(self, url: str) -> Path:
        """The file a request's URL names; RequestRefused (403 or 404) for anything else."""
        root, target = self._locate(url)
        try:
            resolved = target.resolve(strict=True)
        except (OSError, RuntimeError):
            raise RequestRefused(404, "no such file") from None
        if resolved.is_dir():
            resolved = (resolved / "index.html").resolve()
        if not resolved.is_relative_to(root):
            raise RequestRefused(403, "outside the project")
        if (not resolved.is_file() or resolved.suffix not in MEDIA
                or any(p.startswith(".") for p in resolved.relative_to(root).parts)
                or (self.sources is not None and resolved.is_relative_to(self.sources))):
            raise RequestRefused(404, "no such file")
        return resolved

    def _locate(self, url: str) -> tuple[Path, Path]:
        """The served folder a URL is in, and the path it names there."""
        path = unquote(urlsplit(url).path)
        if "\x00" in path or "\\" in path:
            raise RequestRefused(403, "not a file name")
        if not path.startswith("/") or path.startswith("//") or ".." in PurePosixPath(path).parts:
            raise RequestRefused(403, "outside the project")
        parts = [p for p in path.split("/") if p not in ("", ".")]
        if any(p.startswith(".") for p in parts):  # .git, .env, the manifest: never a reader's
            raise RequestRefused(404, "no such file")
        for root, url_path in self._mounts():
            mount = [p for p in url_path.split("/") if p]
            if parts[:len(mount)] == mount:
                return root, root.joinpath(*parts[len(mount):])
        raise RequestRefused(404, "no such file")

    def _mounts(self) -> list[tuple[Path, str]]:
        """Each served folder and its URL path, the most specific URL first."""
        mounts = [(self.out, self.out_url)]
        if self.kits is not None:
            mounts.append((self.kits, self.kits_url))
        return sorted(mounts, key=lambda m: -len(m[1]))

    def game_of(self, path: Path) -> str | None:
        """The game a file of the output folder belongs to (its first folder), if any."""
        if not path.is_relative_to(self.out):
            return None
        parts = path.relative_to(self.out).parts
        return parts[0] if len(parts) > 1 else None


# The reload script: the same text on every page (the version it waits past is an attribute),
# so the pages' policy can allow exactly it by its hash and run no other script.
RELOAD_SCRIPT = """
/* rulepress serve: reload this page when a rebuild finishes (added by the server only) */
(async (since) => {
  for (;;) {
    try {
      const answer = await fetch("EVENTS?since=" + since, {cache: "no-store"});
      if ((await answer.json()).version !== since) { location.reload(); return; }
    } catch (e) { await new Promise(done => setTimeout(done, 1000)); }
  }
})(JSON.parse(document.currentScript.dataset.since));
""".replace("EVENTS", EVENTS)
_RELOAD_HASH = base64.b64encode(hashlib.sha256(RELOAD_SCRIPT.encode()).digest()).decode()

# A served page: its own styles, fonts and inline images, the reload script and its request,
# nothing else (no other script, no frame, no form, no <base>).
PAGE_POLICY = ("default-src 'none'; "
               f"script-src 'sha256-{_RELOAD_HASH}'; connect-src 'self'; "
               "style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; "
               "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
# Any other file (an SVG, an error page...): a sandbox of its own origin where nothing runs, so
# a script in it cannot read what the server serves.
FILE_POLICY = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox"


def headers(path: Path | None, page: bool) -> dict[str, str]:
    """The headers that say how a browser may treat an answer: a page the server added its
    script to (``page``), a file (``path``), or neither (an error, an event)."""
    sent = {"X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"}
    if page:
        sent["Content-Security-Policy"] = PAGE_POLICY
    elif path is None or path.suffix != ".pdf":
        sent["Content-Security-Policy"] = FILE_POLICY
    # A PDF has none: browsers refuse to show one in a sandbox, and their viewers run a PDF's
    # scripts apart from the page's origin anyway.
    return sent


OVERLAY_STYLE = (
    "position:fixed;left:0;right:0;top:0;max-height:70vh;overflow:auto;z-index:2147483647;"
    "margin:0;padding:1em 1.5em;background:#fff4f4;color:#5c0000;border-bottom:4px solid #b00;"
    "font:14px/1.45 ui-monospace,monospace;white-space:pre-wrap;box-shadow:0 2px 8px #0004")


def overlay(problems: Sequence[str]) -> str:
    """The diagnostics of a failed rebuild, over the last good page."""
    items = "".join(f"<li>{escape(p)}</li>" for p in problems)
    return (f'<div id="rulepress-overlay" role="alert" style="{OVERLAY_STYLE}">'
            "<strong>rulepress: the last rebuild failed; this is the last good page.</strong>"
            f'<ul style="margin:.5em 0 0;padding-left:1.2em">{items}</ul></div>\n')


FACES_FOLDER = "faces"  # <game>/faces/: a game's faces page and its images (serve/faces.py)
FACES_PAGE = "index.html"


def faces_path(game: str) -> str:
    """The faces page of ``game``, inside the output folder."""
    return f"{game}/{FACES_FOLDER}/{FACES_PAGE}"


FACES_STYLE = (
    "position:fixed;right:.8em;bottom:.8em;z-index:2147483646;margin:0;padding:.35em .8em;"
    "background:#1f2a44;border-radius:1em;font:600 14px/1.4 system-ui,sans-serif;"
    "box-shadow:0 1px 4px #0004")


def faces_link(url: str) -> str:
    """The link from a game's served page to its faces page (serve/faces.py)."""
    return (f'<nav aria-label="rulepress preview" style="{FACES_STYLE}">'
            f'<a href="{escape(url)}" style="color:#fff">Kit faces</a></nav>\n')


def live_page(html: str, version: int, problems: Sequence[str], faces: str | None = None
              ) -> str:
    """``html`` with the reload script, when there are problems the overlay, and with
    ``faces`` a link to that URL, just before </body> (or at the end of a page without one)."""
    added = (overlay(problems) if problems else "") + (faces_link(faces) if faces else "") + (
        f"<script data-since=\"{escape(json.dumps(version))}\">{RELOAD_SCRIPT}</script>\n")
    at = html.rfind("</body>")
    return html + added if at < 0 else html[:at] + added + html[at:]

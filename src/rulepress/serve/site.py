"""What the preview server may serve, and what it adds to the pages it serves.

A URL path maps to a file in the project folder (``/build/pigeon/pigeon.html``), or in the output
folder when that is outside the project (``/_build/...``). Nothing outside those two folders is
ever served: no ``..`` segment, no absolute path, no symlink that leads out.

The pages on disk stay exactly as ``rulepress build`` writes them; the server adds to each HTML
page a small script that reloads it when a rebuild finishes, and, while the last rebuild of its
game failed, an overlay listing the diagnostics (the page itself is the last good one).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

EVENTS = "/_rulepress/wait"  # ?since=N: answers once the site's version is past N
OUT_MOUNT = "/_build"  # where the output folder is served when it is outside the project


class Refused(Exception):
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

    @classmethod
    def of(cls, project: Path, out: Path) -> Site:
        return cls(project.resolve(), out.resolve())

    @property
    def out_url(self) -> str:
        """The URL path of the output folder, ending in '/'."""
        if self.out.is_relative_to(self.project):
            relative = self.out.relative_to(self.project).as_posix()
            return "/" if relative == "." else f"/{relative}/"
        return f"{OUT_MOUNT}/"

    def url_of(self, path: Path) -> str:
        """The URL path of a file inside the output folder."""
        return self.out_url + path.resolve().relative_to(self.out).as_posix()

    def target(self, url: str) -> Path:
        """The path a request's URL names, which may not exist; Refused (403) for a URL that
        tries to leave the served folders."""
        path = unquote(urlsplit(url).path)
        if "\x00" in path or "\\" in path:
            raise Refused(403, "not a file name")
        if not path.startswith("/") or path.startswith("//") or ".." in PurePosixPath(path).parts:
            raise Refused(403, "outside the project")
        root, rest = self._mount(path)
        return root.joinpath(*rest)

    def file_for(self, url: str) -> Path:
        """The file a request's URL names; Refused (403 or 404) for anything else."""
        try:
            resolved = self.target(url).resolve(strict=True)
        except (OSError, RuntimeError):
            raise Refused(404, "no such file") from None
        if not self._inside(resolved):
            raise Refused(403, "outside the project")
        if resolved.is_dir():
            resolved = resolved / "index.html"
            if not resolved.is_file() or not self._inside(resolved.resolve()):
                raise Refused(404, "no such file")
        if not resolved.is_file():
            raise Refused(404, "no such file")
        return resolved

    def _mount(self, path: str) -> tuple[Path, Sequence[str]]:
        parts = [p for p in path.split("/") if p not in ("", ".")]
        mount = OUT_MOUNT.strip("/")
        if not self.out.is_relative_to(self.project) and parts[:1] == [mount]:
            return self.out, parts[1:]
        return self.project, parts

    def _inside(self, path: Path) -> bool:
        return path.is_relative_to(self.project) or path.is_relative_to(self.out)

    def game_of(self, path: Path) -> str | None:
        """The game a file of the output folder belongs to (its first folder), if any."""
        if not path.is_relative_to(self.out):
            return None
        parts = path.relative_to(self.out).parts
        return parts[0] if len(parts) > 1 else None


RELOAD = """<script>
/* rulepress serve: reload this page when a rebuild finishes (added by the server only) */
(async () => {{
  const since = {version};
  for (;;) {{
    try {{
      const answer = await fetch("{events}?since=" + since, {{cache: "no-store"}});
      if ((await answer.json()).version !== since) {{ location.reload(); return; }}
    }} catch (e) {{ await new Promise(done => setTimeout(done, 1000)); }}
  }}
}})();
</script>
"""

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


def live_page(html: str, version: int, problems: Sequence[str]) -> str:
    """``html`` with the reload script and, when there are problems, the overlay, just before
    </body> (or at the end of a page without one)."""
    added = (overlay(problems) if problems else "") + RELOAD.format(
        version=json.dumps(version), events=EVENTS)
    at = html.rfind("</body>")
    return html + added if at < 0 else html[:at] + added + html[at:]

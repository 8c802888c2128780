"""A page that works offline: nothing in a rendered HTML page may fetch or run anything.

WeasyPrint's fetcher guards the PDFs, but the HTML pages are opened in a browser, which would
follow whatever a template override wrote. So the page is parsed, as a browser would, and every
reference it makes is checked: scripts, frames and plug-ins are refused outright; a resource
(an image, a stylesheet, a font, a CSS ``url()``) must be a relative path that stays in the
output folder, or a data: URL; no
attribute may hold a ``javascript:`` URL. Links a reader clicks (``<a href>``) may go anywhere.
"""

from __future__ import annotations

import hashlib
import re
from collections import deque
from collections.abc import Iterable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

import tinycss2
import tinycss2.ast

from rulepress import memo
from rulepress.cache import cache_key
from rulepress.diagnostics import SourceLoc
from rulepress.images import LABELS, BadImage, check_data, decode_data_url
from rulepress.jail import PathRefused, read_regular

# Elements that run code or embed another document.
_FORBIDDEN = frozenset({"script", "iframe", "frame", "frameset", "object", "embed", "applet",
                        "base", "portal", "noscript"})
# Attributes whose value the browser fetches (a space- or comma-separated list for srcset).
_RESOURCE = frozenset({"src", "poster", "data", "background", "lowsrc", "dynsrc", "manifest",
                       "codebase", "archive", "ping", "srcset", "imagesrcset"})
# Attributes that name a URL the browser follows only when the reader asks.
_NAVIGATION = frozenset({"href", "action", "formaction", "cite", "longdesc", "xlink:href"})


def _local(url: str, up: int = 1) -> bool:
    """A relative path or a fragment (resolved next to the page) that stays in the output
    folder, or inline data. The page is ``up`` folders down (<game>/, a translation's
    <game>/<lang>/), so that many '..' are the most."""
    url = url.strip()
    if url.lower().startswith("data:"):
        return True
    parts = urlsplit(url)
    if parts.scheme or parts.netloc or url.startswith(("/", "\\")):
        return False  # '/etc/passwd' opens the machine's file from a page opened as a file
    depth = 0
    for step in unquote(parts.path).replace("\\", "/").split("/"):  # as a browser reads it
        depth += -1 if step == ".." else int(step not in ("", "."))
        if depth < -up:
            return False
    return True


def css_urls(text: str) -> Iterator[str]:
    """Every URL a stylesheet (or a style attribute) would fetch: url(), @import strings."""
    if "(" not in text and "@" not in text:
        return  # no function, url() or at-rule: nothing fetched (most figures' style="...")
    nodes: deque[tinycss2.ast.Node] = deque(tinycss2.parse_component_value_list(text))
    importing = False
    while nodes:
        node = nodes.popleft()
        fetched = tinycss2.ast.URLToken, *((tinycss2.ast.StringToken,) if importing else ())
        if isinstance(node, fetched):
            yield node.value
        elif isinstance(node, tinycss2.ast.FunctionBlock):
            if node.lower_name in ("url", "src", "image", "image-set"):
                yield from (a.value for a in node.arguments
                            if isinstance(a, tinycss2.ast.StringToken))
            nodes.extendleft(reversed(node.arguments))
        elif isinstance(getattr(node, "content", None), list):
            nodes.extendleft(reversed(node.content))
        if isinstance(node, tinycss2.ast.AtKeywordToken):
            importing = node.lower_value == "import"
        elif not isinstance(node, tinycss2.ast.WhitespaceToken | tinycss2.ast.Comment):
            importing = False


class _Page(HTMLParser):
    def __init__(self, up: int = 1) -> None:
        super().__init__(convert_charrefs=True)
        self.up = up
        self.problems: list[tuple[str, str]] = []  # (what, the URL or element)
        self.bad_images: list[tuple[str, str]] = []  # (why, the data: URL)
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _FORBIDDEN:
            self.problems.append((f"a <{tag}> element", f"<{tag}"))
            return
        self._in_style = tag == "style"
        rel = (dict(attrs).get("rel") or "").lower().split()
        for name, value in attrs:
            value = value or ""
            if name.startswith("on"):
                self.problems.append((f"an event handler ({name})", name))
            elif name == "style":
                self._resources(css_urls(value))
            elif value.strip().lower().startswith(("javascript:", "vbscript:")):
                self.problems.append(("a script URL", value))
            elif name in _RESOURCE:
                urls = ([u.strip().split()[0] for u in value.split(",") if u.strip()]
                        if name.endswith("srcset") else [value])
                self._resources(urls)
            elif name in _NAVIGATION and tag in ("link", "image", "use", "feimage"):
                if tag != "link" or not {"alternate", "author", "help", "license"} >= set(rel):
                    self._resources([value])
            elif tag == "meta" and name == "http-equiv" and value.lower() == "refresh":
                self.problems.append(("a <meta> refresh", "http-equiv"))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        self._in_style = False

    def handle_endtag(self, tag: str) -> None:
        if tag == "style":
            self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self._resources(css_urls(data))

    def _resources(self, urls: Iterable[str]) -> None:
        for url in urls:
            if not _local(url, self.up):
                self.problems.append(("a reference to another place", url))
            elif url.strip().lower().startswith("data:image/"):
                self._image(url.strip())

    def _image(self, url: str) -> None:
        """A data: image a template override wrote is held to the limits of the rulebook's
        own images (those are data: URLs here too, checked once already)."""
        try:
            kind, data = decode_data_url(url)
            if kind in LABELS:
                check_data(kind, data)
        except (BadImage, ValueError) as exc:
            self.bad_images.append((str(exc), url))


def network_references(html: str) -> list[tuple[str, str]]:
    """What in ``html`` would make a browser fetch or run something from elsewhere:
    (what it is, the URL or element as written), in page order."""
    return read_page(html).problems


def read_page(html: str, up: int = 1) -> _Page:
    """``html`` parsed: its ``problems`` (see network_references) and ``bad_images``, the
    data: images past the limits (why, the URL). ``up``: the page's depth in the output."""
    page = _Page(up)
    page.feed(html)
    page.close()
    return page


# The inline figures are most of a page (90% of Pigeon Race's) and the same from save to save.
_FIGURE = re.compile(r"<svg\b")
_MARK = "rulepress-spliced"  # stands for a figure in the rest of the page
_clean: set[tuple[str, int]] = set()  # (a figure's digest, up) parsed clean in this process


class _Spliced(_Page):
    """A page whose figures are marks; ``last``: its last two events, of any kind."""

    def __init__(self, up: int) -> None:
        super().__init__(up)
        self.marks = 0
        self.last: list[str] = []

    def _event(self, what: str) -> None:
        self.last = [*self.last[-1:], what]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._event(f"<{tag}>")
        if tag == _MARK:  # seen as a tag: the parser was between tags, as after a figure
            self.marks += 1
            self._in_style = False
            return
        super().handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        self._event(f"</{tag}>")
        super().handle_endtag(tag)

    def handle_data(self, data: str) -> None:
        self._event("data")
        super().handle_data(data)

    def handle_comment(self, data: str) -> None:
        self._event("comment")

    def handle_decl(self, decl: str) -> None:
        self._event("decl")

    def handle_pi(self, data: str) -> None:
        self._event("pi")

    def unknown_decl(self, data: str) -> None:
        self._event("decl")


def _parsed(html: str, up: int) -> _Spliced:
    page = _Spliced(up)
    page.feed(html)
    page.close()
    return page


def _figures(html: str) -> tuple[list[str], str]:
    """The page's ``<svg ...>...</svg>`` runs (to the first ``</svg>``), and the page with a
    mark in place of each."""
    figures, rest, at = [], [], 0
    while (found := _FIGURE.search(html, at)) is not None:
        end = html.find("</svg>", found.start())
        if end < 0:
            break
        end += len("</svg>")
        rest += [html[at:found.start()], f"<{_MARK}>"]
        figures.append(html[found.start():end])
        at = end
    rest.append(html[at:])
    return figures, "".join(rest)


def checked_page(html: str, up: int = 1) -> _Page:
    """read_page's answer, sparing the figures' parse when it can: each inline ``<svg>`` is
    parsed on its own (once a process, and not at all when the memo has seen this page's set
    of figures clean), the rest with a mark in its place. That is the parse of the whole only
    if every mark was read as a tag (the parser between tags there, not in an attribute, a
    comment or a style) and every figure, parsed alone with a mark after it, ends in its own
    ``</svg>`` read as an end tag, then the mark (no tag, comment or style of it runs on past
    its end); anything else, or any problem found, is parsed whole."""
    if _MARK in html:  # a mark of the page's own would be counted too
        return read_page(html, up)
    figures, spliced = _figures(html)
    if not figures:
        return read_page(html, up)
    rest = _parsed(spliced, up)
    if rest.problems or rest.bad_images or rest.marks != len(figures):
        return read_page(html, up)
    digests = {hashlib.sha256(f.encode()).hexdigest(): f for f in figures}
    key = cache_key("offline", up, sorted(digests), theme=False)
    if memo.get(key) is True:
        return rest
    for name, figure in digests.items():
        if (name, up) in _clean:
            continue
        alone = _parsed(f"{figure}<{_MARK}>", up)
        if (alone.problems or alone.bad_images or alone.marks != 1
                or alone.last != ["</svg>", f"<{_MARK}>"]):
            return read_page(html, up)
        _clean.add((name, up))
    memo.put(key, True)
    return rest


def refusal_loc(url: str, game_folder: Path) -> SourceLoc:
    """Where the game's folder asks for ``url``: the first line of its templates, then of its
    Markdown, naming it (or its path relative to the folder), in any case; else the first of
    its templates (the text may be written with entities), else its templates/ folder."""
    folder = game_folder.resolve()
    path = Path(url2pathname(urlsplit(url).path))
    needles = [url] + ([path.relative_to(folder).as_posix()] if path.is_relative_to(folder) else [])
    needles = [n.casefold() for n in needles]
    templates = [f for f in sorted((game_folder / "templates").glob("*"))
                 if f.is_file() and not f.is_symlink()]
    for file in [*templates, *sorted(game_folder.glob("*.md"))]:
        if file.is_symlink() or not file.is_file():
            continue
        try:
            lines = read_regular(file).decode("utf-8", "replace").splitlines()
        except (PathRefused, OSError):
            continue
        for n, line in enumerate(lines, 1):
            col = next((line.casefold().find(x) for x in needles if x in line.casefold()), -1)
            if col >= 0:
                return SourceLoc(file, n, col + 1)
    return SourceLoc(templates[0] if templates else game_folder / "templates", 1)

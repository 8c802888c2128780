"""Static check of every reference in a rule text, before anything is rendered.

Images must be files inside the game's folder that decode within the limits; links must be
``#anchors`` that exist, or http(s)/mailto addresses; raw HTML is refused.
Each refusal is a diagnostic at the reference's file:line, so the build stops before WeasyPrint.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

from markdown_it import MarkdownIt
from markdown_it.token import Token

from rulepress.diagnostics import Diagnostic, SourceLoc, error
from rulepress.document.editions import EDITIONS
from rulepress.document.markdown import DFN, make_parser
from rulepress.document.model import Document, Example
from rulepress.images import BadImage, check_image, icon_file, unknown_icon
from rulepress.jail import PathRefused, local_file, read_regular
from rulepress.limits import MAX_IMAGE_BYTES

# Ids the renderer itself puts on the page.
RESERVED_IDS = frozenset({"rp-cover", "rp-contents", "rp-contents-title", "rp-components",
                          "rp-credits", "rp-glossary", "rp-index", "rp-notation"})
LINK_SCHEMES = frozenset({"http", "https", "mailto"})


@dataclass(frozen=True)
class Reference:
    kind: str  # "image", "icon", "link" or "html"
    url: str
    line: int  # 0-based line within the Markdown text


@cache
def detection_parser() -> MarkdownIt:
    """The project's dialect, but keeping every link and raw HTML so that nothing hides from us.

    markdown-it drops links it finds unsafe (file:, javascript:) to plain text; we want to see them
    and report them, so validation is ours.
    """
    md = make_parser()
    md.options["html"] = True
    md.validateLink = lambda url: True  # type: ignore[method-assign]
    return md


def _inline_refs(token: Token) -> Iterator[Reference]:
    assert token.map is not None
    line = token.map[0]
    for child in token.children or ():
        if child.type in ("softbreak", "hardbreak"):
            line += 1
        elif child.type == DFN:  # its attributes may run over lines
            line += child.meta.get("breaks", 0)
        elif child.type == "image" and "icon" in child.meta:
            yield Reference("icon", str(child.meta["icon"]), line)
        elif child.type == "image":
            yield Reference("image", str(child.attrs.get("src", "")), line)
        elif child.type == "link_open":
            yield Reference("link", str(child.attrs.get("href", "")), line)
        elif child.type == "html_inline":
            yield Reference("html", "", line)
        line += child.content.count("\n") if child.type in ("text", "code_inline") else 0


def iter_references(markdown: str) -> Iterator[Reference]:
    """Every image, link and piece of raw HTML in ``markdown`` with its 0-based line."""
    yield from _references(markdown)


@lru_cache(maxsize=1024)
def _references(markdown: str) -> tuple[Reference, ...]:
    """Parsed once a process for each text (serve checks every game again on each edit)."""
    found: list[Reference] = []
    for token in detection_parser().parse(markdown):
        if token.type == "inline":
            found += _inline_refs(token)
        elif token.type == "html_block" and token.map is not None:
            found.append(Reference("html", "", token.map[0]))
    return tuple(found)


def load_image(url: str, folder: Path) -> tuple[str, bytes]:
    """The media type and bytes of the image ``url`` names in the game's ``folder``, checked
    to decode; PathRefused or BadImage says why not. The check and the renderer both call
    this."""
    if urlsplit(url).scheme.lower() == "data":
        raise PathRefused("data: images are not allowed; save the image as a file in the "
                          "game's folder")
    path = local_file(url, folder)
    data = read_regular(path, MAX_IMAGE_BYTES)
    return check_image(path, data), data


def resource_reason(url: str, folder: Path) -> str | None:
    """Why an image reference may not be used, or None. ``folder``: the game's source folder."""
    try:
        load_image(url, folder)
    except (PathRefused, BadImage) as exc:
        return str(exc)
    except OSError as exc:
        return f"cannot read it: {exc.strerror}"
    return None


def link_reason(url: str, anchors: frozenset[str]) -> str | None:
    """Why a hyperlink may not be used, or None."""
    if url.startswith("#"):
        target = unquote(url[1:])
        return None if target in anchors else (
            f"no heading, example, ruling or term has the anchor '#{target}'")
    scheme = urlsplit(url).scheme.lower()
    if scheme in LINK_SCHEMES:
        return None
    if scheme:
        return f"{scheme}: links are not allowed; link to a #anchor or an http(s) address"
    return "links to files are not allowed; link to a #anchor or an http(s) address"


def href(path: str) -> str:
    """A relative path made of file and folder names as an href: each name percent-encoded, so
    no name can become a scheme (``javascript:``), a query or a fragment."""
    return quote(path, safe="/")


def example_anchor(example_id: str) -> str:
    """The page anchor of an example: prefixed, so it never clashes with a heading's slug."""
    return f"example-{example_id}"


def prose_line(example: Example) -> int:
    """The file line of the example prose's first line: `text: |` starts it after the key."""
    return example.line_of(("text",)).line + 1


def known_anchors(doc: Document, edition: str | None = None) -> frozenset[str]:
    """The anchors of the page of ``edition`` (None: of either edition)."""
    examples = {example_anchor(e.id) for e in doc.boxes
                if edition is None or doc.has_example(e, edition)}
    marked = [(h.anchor, h.loc) for h in doc.headings] + [(t.anchor, t.loc) for t in doc.terms]
    marked += [(r.anchor, r.loc) for r in doc.rulings]
    headings = {anchor for anchor, loc in marked if edition is None or doc.keeps(edition, loc)}
    return frozenset(headings | examples | RESERVED_IDS)


def _judge(ref: Reference, folder: Path, anchors: frozenset[str]) -> str | None:
    if ref.kind == "link":
        return link_reason(ref.url, anchors)
    if ref.kind == "image":
        return resource_reason(ref.url, folder)
    if ref.kind == "icon":
        found = icon_file(ref.url, folder)
        return unknown_icon(ref.url, folder) if found is None else resource_reason(found, folder)
    return "raw HTML is not allowed in rules; write Markdown instead"


def _col(lines: Sequence[str], index: int, url: str) -> int:
    if 0 <= index < len(lines) and url:
        found = lines[index].find(url)
        if found >= 0:
            return found + 1
    return 1


def check_markdown(markdown: str, path: Path, first_line: int, folder: Path,
                   anchors: frozenset[str],
                   editions: Callable[[SourceLoc], Mapping[str, frozenset[str]]] | None = None,
                   ) -> list[Diagnostic]:
    """Diagnostics for ``markdown`` whose first line is line ``first_line`` of ``path``.

    ``anchors``: every anchor of the page. ``editions(loc)``: the anchors of each edition that
    prints the line at ``loc``, so a link to what one of them leaves out is refused there.
    """
    lines = markdown.split("\n")
    found: list[Diagnostic] = []
    for ref in iter_references(markdown):
        loc = SourceLoc(path, first_line + ref.line, _col(lines, ref.line, ref.url))
        reason = _judge(ref, folder, anchors)
        if reason is None and editions is not None and ref.kind == "link":
            target = unquote(ref.url[1:]) if ref.url.startswith("#") else None
            left_out = [name for name, kept in editions(loc).items()
                        if target is not None and target not in kept]
            if left_out:
                reason = f"the {left_out[0]} edition leaves '#{target}' out but prints this link"
        if reason is not None:
            what = {"image": "image", "icon": "icon", "link": "link", "html": "HTML"}[ref.kind]
            shown = f" '{ref.url}'" if ref.url else ""
            found.append(error(loc, f"refused {what}{shown}: {reason}"))
    return found


def check_references(doc: Document) -> list[Diagnostic]:
    """Every refused reference of ``doc`` (body, examples' prose, licence link), in file order."""
    folder = doc.folder
    anchors = known_anchors(doc)
    per_edition = {name: known_anchors(doc, name) for name in EDITIONS}

    def printed_by(loc: SourceLoc) -> dict[str, frozenset[str]]:
        return {name: kept for name, kept in per_edition.items() if doc.keeps(name, loc)}

    found = [d for part in doc.parts for d in check_markdown(
        part.text, part.path, part.first_line, folder, anchors, printed_by)]
    for example in doc.boxes:
        def in_example(loc: SourceLoc, example: Example = example) -> dict[str, frozenset[str]]:
            return {name: kept for name, kept in per_edition.items()
                    if doc.has_example(example, name)}

        found.extend(check_markdown(example.text, example.loc.path, prose_line(example), folder,
                                    anchors, in_example))
    url = doc.meta.licence.url
    if url and urlsplit(url).scheme.lower() not in ("http", "https"):
        found.append(error(SourceLoc(doc.path, 1),
                           f"licence.url '{url}' must be an http(s) address"))
    order = {part.path: n for n, part in enumerate(doc.parts)}
    return sorted(found, key=lambda d: (order.get(d.loc.path, 0), d.loc.line, d.loc.col)
                  if d.loc else (0, 0, 0))

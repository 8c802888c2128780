"""Page make-up, measured on the pages as typeset (WeasyPrint's boxes, the positions the PDF is
painted from), for every PDF edition a build writes:

- no page ends on a heading: a heading keeps with at least two lines of what follows it (a
  figure or a table counts as two);
- no page inside the book is more than 70% blank below its last ink, unless the next page
  starts a chapter whose heading the source marks ``{.new-page}`` (the page holds the end of
  the chapter before it) or the credits; the cover, the contents and the last page are not
  inside the book;
- no text in a figure prints under 6 pt: each label's size in the SVG times the scale the
  figure is printed at;
- no text runs past the foot of the type area.

A fault names the element it is reported at (a heading's or an example's id), which the
generator turns into the source line.
"""

from __future__ import annotations

import base64
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from xml.etree import ElementTree

from rulepress.render.figures import label_sizes, view_box

# The theme's own part the page before may be left blank for: the credits and licence, after
# the book's text.
THEME_PARTS = frozenset({"rp-credits"})
MOST_BLANK = 0.70  # share of a page's type area that may be left blank below its last ink
MIN_FIGURE_PT = 6.0  # the smallest text a printed figure may hold
KEEP_LINES = 2  # lines of what follows that a heading keeps with it
PT_PER_PX = 0.75  # CSS: 96 px to the inch, 72 pt
CONTENTS = "rp-contents"  # the id of the contents (nav), as its lines' owner
HEADINGS = frozenset({"h2", "h3", "h4", "h5", "h6"})
_SVG_DATA = "data:image/svg+xml;base64,"


@dataclass(frozen=True)
class Fault:
    """One page make-up fault: ``kind`` is heading, blank, figure or overflow; ``anchors``
    the ids of the elements it may be reported at, the likeliest first."""

    kind: str
    page: int  # 1-based
    anchors: tuple[str, ...]
    message: str


def measure(document: Any, asked: frozenset[str]) -> list[Fault]:
    """The make-up faults of a WeasyPrint ``document`` (rendered). ``asked``: the ids of the
    headings the source marks ``{.new-page}`` that start a chapter."""
    from weasyprint.formatting_structure import boxes

    pages = [list(_content(page._page_box, boxes)) for page in document.pages]
    faults: list[Fault] = []
    last_body = len(pages)
    first_body = _first_body_page(pages)
    for n, items in enumerate(pages, 1):
        faults += _stranded(n, items, pages[n] if n < len(pages) else [])
        faults += _small_figure_text(n, items)
        faults += _overflow(n, document.pages[n - 1]._page_box, items)
        if first_body <= n < last_body:
            faults += _blank(n, document.pages[n - 1]._page_box, items, pages[n], asked)
    return faults


@dataclass(frozen=True)
class _Item:
    """A box on a page that shows something, in reading order: a line of text or an image."""

    box: Any
    kind: str  # line, image, frame (a box's border or background)
    heading: str | None  # the id of the heading it belongs to, if it is a heading's line
    anchors: tuple[str, ...]  # ids of the elements it is the first item of (headings, examples)
    bottom: float
    owner: str = ""  # the id of the example box it is in (or of the contents), if any


def _content(page_box: Any, boxes: Any) -> Iterator[_Item]:
    """What a page's type area shows, in order (the running head and foot left out)."""
    stack: list[tuple[Any, str | None, tuple[str, ...], str]] = [
        (child, None, (), "") for child in reversed(page_box.children)
        if not isinstance(child, boxes.MarginBox)]
    seen: set[int] = set()
    while stack:
        box, heading, opened, owner = stack.pop()
        element = getattr(box, "element", None)
        tag = getattr(box, "element_tag", "")
        own = element.get("id") if element is not None and id(element) not in seen else None
        if element is not None:
            seen.add(id(element))
        if own and (tag in HEADINGS or tag == "aside"):
            opened = (*opened, own)
        if tag in HEADINGS and own:
            heading = own
        if tag == "aside" and element is not None:
            owner = element.get("id") or owner
        if tag == "nav" and element is not None and element.get("id") == "rp-contents":
            owner = CONTENTS
        if isinstance(box, boxes.LineBox):
            if _shows_text(box, boxes):
                yield _Item(box, "line", heading, opened, box.position_y + box.height, owner)
                opened = ()
            for image in box.descendants():  # an image is inline, on a line of its own
                if isinstance(image, boxes.ReplacedBox):
                    yield _Item(image, "image", heading, opened,
                                image.border_box_y() + image.border_height(), owner)
                    opened = ()
            continue
        if isinstance(box, boxes.ReplacedBox):
            yield _Item(box, "image", heading, opened, box.border_box_y() + box.border_height(),
                        owner)
            continue
        if _framed(box):
            yield _Item(box, "frame", heading, opened, box.border_box_y() + box.border_height(),
                        owner)
            opened = ()
        children = getattr(box, "children", [])
        stack += [(child, heading, opened if i == 0 else (), owner)
                  for i, child in reversed(list(enumerate(children)))]


def _shows_text(line: Any, boxes: Any) -> bool:
    return any(isinstance(b, boxes.TextBox) and b.text.strip() for b in line.descendants())


def _framed(box: Any) -> bool:
    style = getattr(box, "style", None)
    if style is None or not hasattr(box, "border_box_y"):
        return False
    colour = style["background_color"]
    return bool(style["border_bottom_width"]) or (colour is not None and colour.alpha > 0
                                                  and getattr(box, "element_tag", "") != "html")


def _first_body_page(pages: list[list[_Item]]) -> int:
    """The first page after the cover and the contents, however many pages they take
    (1-based)."""
    return 1 + max((n for n, items in enumerate(pages, 1)
                    if n == 1 or any(i.owner == CONTENTS for i in items)), default=1)


def _stranded(n: int, items: list[_Item], following: list[_Item]) -> list[Fault]:
    """The headings on page ``n`` followed there by fewer than KEEP_LINES lines, whose section
    goes on over the page (``following``: the next page's items; none after the last)."""
    goes_on = next((i.heading is None for i in following if i.kind != "frame"), False)
    if not goes_on:
        return []
    faults = []
    for i, item in enumerate(items):
        if item.heading is None or (i + 1 < len(items) and items[i + 1].heading == item.heading):
            continue  # not a heading, or not its last line
        after = sum(2 if x.kind == "image" else 1 for x in items[i + 1:]
                    if x.heading is None and x.kind != "frame")
        if after < KEEP_LINES:
            text = " ".join(_line_text(x.box) for x in items
                            if x.heading == item.heading and x.kind == "line")
            faults.append(Fault("heading", n, (item.heading,), (
                f"the heading '{' '.join(text.split())}' ends the page: a heading keeps with at "
                f"least {KEEP_LINES} lines of what follows it")))
    return faults


def _line_text(line: Any) -> str:
    return "".join(getattr(b, "text", "") for b in line.descendants())


def _blank(n: int, page_box: Any, items: list[_Item], following: list[_Item],
           asked: frozenset[str]) -> list[Fault]:
    """Page ``n`` if more than MOST_BLANK of its type area is left blank below its last ink,
    unless the next page starts a part (``asked``, THEME_PARTS)."""
    top = page_box.content_box_y()
    height = page_box.height
    last = max((i.bottom for i in items), default=top)
    share = max(0.0, (top + height - last) / height)
    if share <= MOST_BLANK:
        return []
    opened = following[0].anchors if following else ()
    if any(a in asked or a in THEME_PARTS for a in opened):
        return []  # the source starts the next chapter on a new page; or the credits
    # reported at what did not fit (the next page's first heading or example), else at the
    # last one this page holds
    after = [a for i in following for a in i.anchors]
    before = [a for i in reversed(items) for a in i.anchors]
    return [Fault("blank", n, (*after[:1], *before), (
        f"{share:.0%} of the page is blank: a page inside a book is at most "
        f"{MOST_BLANK:.0%} blank, unless the next starts a chapter the source marks "
        "{.new-page}"))]


def _overflow(n: int, page_box: Any, items: list[_Item]) -> list[Fault]:
    """Text set past the foot of the type area (WeasyPrint has done so after a columned
    section), reported at the last heading or example before it."""
    foot = page_box.content_box_y() + page_box.height
    past = [i for i in items if i.kind == "line" and i.bottom > foot + 1]
    if not past:
        return []
    before = [a for i in reversed(items[:items.index(past[0]) + 1]) for a in i.anchors]
    return [Fault("overflow", n, tuple(before), (
        f"text runs {(past[-1].bottom - foot) * PT_PER_PX / 72 * 25.4:.0f} mm past the foot of "
        "the page's type area"))]


def _small_figure_text(n: int, items: list[_Item]) -> list[Fault]:
    faults = []
    for item in items:
        if item.kind != "image":
            continue
        size = printed_label_pt(item.box)
        if size is not None and size < MIN_FIGURE_PT - 0.05:
            faults.append(Fault("figure", n, (item.owner, *item.anchors), (
                f"a figure's text prints at {size:.1f} pt, under {MIN_FIGURE_PT:g} pt: draw its "
                "labels larger, or the figure smaller in its own units")))
    return faults


def printed_label_pt(image_box: Any) -> float | None:
    """The size in points at which the smallest label of an SVG image prints: its size in the
    figure's units times the width it is printed at over the figure's width."""
    src = getattr(image_box, "element", None)
    src = src.get("src", "") if src is not None else ""
    if not src.startswith(_SVG_DATA):
        return None
    try:
        root = ElementTree.fromstring(base64.b64decode(src[len(_SVG_DATA):]))
    except (ElementTree.ParseError, ValueError):
        return None
    box = view_box(root)
    sizes = [s for s in label_sizes(root) if s > 0]
    if box is None or not sizes or not box[0] or not box[1]:
        return None
    scale = min(image_box.width / box[0], image_box.height / box[1])
    return float(math.floor(min(sizes) * scale * PT_PER_PX * 10 + 1e-6) / 10)

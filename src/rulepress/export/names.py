"""What an exported card is called: its name and text from its data row, and a file-safe slug
of the name, the same for every export target."""

from __future__ import annotations

import re

from rulepress.document.model import Component, Row
from rulepress.document.rows import copies
from rulepress.document.slug import slugify

NAME_FIELDS = ("name", "title")  # a data row's field that names its card, first found
TEXT_FIELDS = ("text", "effect", "rule", "description")  # ... and the card's text
SLUG_MAX = 40  # characters of a name kept in a file name


def plain(text: str) -> str:
    """A field's text without the little Markdown a layout sets (``**3**`` is 3)."""
    return re.sub(r"\*\*?([^*]+)\*\*?", r"\1", text).strip()


def field(row: Row | None, names: tuple[str, ...]) -> str:
    """The first of ``names`` the row has, not empty, as plain text; '' if none."""
    if row is None:
        return ""
    fields = {str(k).lower(): v for k, v in row.fields.items()}
    for name in names:
        value = fields.get(name)
        if value is not None and str(value).strip():
            return plain(str(value))
    return ""


def card_rows(comp: Component, rows: tuple[Row, ...]) -> list[Row | None]:
    """Copy index -> its data row (None without rows, or when they do not make the count)."""
    owners = copies(rows)
    if len(owners) != comp.count:
        return [None] * comp.count
    return [rows[n] for n in owners]


def card_name(comp: Component, row: Row | None, index: int) -> str:
    """Copy ``index``'s name: its row's, else the component's with its number."""
    return field(row, NAME_FIELDS) or (f"{comp.name} {index + 1}" if comp.count > 1
                                       else comp.name)


def file_slug(text: str) -> str:
    """``text`` as a short file-name part: a-z, 0-9 and '-' ("Tide Caller" -> tide-caller)."""
    slug = slugify(text, "card")
    if len(slug) > SLUG_MAX:  # cut at a word's end
        slug = slug[:SLUG_MAX + 1].rsplit("-", 1)[0] if "-" in slug[:SLUG_MAX] else slug[:SLUG_MAX]
    return slug

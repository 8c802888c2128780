"""Words and numbers as a rulebook writes them, in its language.

The theme's own words (the cover's "Players", an example box's "Example", the running "page 4
of 11") are msgids of the theme's catalog, ``templates/locales/<lang>.po``, read with Babel. A
game may bring its own, ``locales/<lang>-theme.po`` in its folder (``folder`` below): each word
it translates overrides rulepress's, so a project prints the theme in a language rulepress does
not ship. A word no catalog has prints in English and is counted (``theme_missing``). Numbers
and dates take the language's formats from Babel's CLDR data."""

from __future__ import annotations

import gettext
import io
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any

from rulepress.diagnostics import RulepressError
from rulepress.media import DEFAULT_LANGUAGE
from rulepress.paths import templates_dir

SOURCE = DEFAULT_LANGUAGE  # the language the theme is written in
Gettext = Callable[..., str]


def N_(msgid: str) -> str:  # noqa: N802 - gettext's name for a word marked, translated later
    """``msgid`` as it is: marks a word of the theme whose translation is looked up later."""
    return msgid


def N_plural(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802 - as N_
    """A word with a plural marked, its forms chosen later by ``ngettext``."""
    return singular, plural


def NP_(context: str, msgid: str) -> tuple[str, str]:  # noqa: N802 - as N_
    """A word with its context marked, looked up later by ``pgettext(context, msgid)``."""
    return context, msgid


def ordinal(n: Any, lang: str = SOURCE, folder: Path | None = None) -> str:
    """1 -> 1st, 2 -> 2nd, 11 -> 11th; German (and most languages Babel knows) 1 -> 1."""
    k = int(n)
    _ = theme_words(lang, folder)
    # Translators: a place or rank, any number: 1st, 2nd, 3rd, 4th (German "{n}.").
    if _base(lang) != SOURCE and _("{n}th") != "{n}th":
        return _("{n}th", n=k)
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


def _base(lang: str | None) -> str:
    return (lang or SOURCE).replace("-", "_").split("_")[0]


def is_source(lang: str | None) -> bool:
    """Whether ``lang`` is the theme's own language (en, en_GB, or none given)."""
    return _base(lang) == SOURCE


def theme_catalog_path(lang: str) -> Path:
    return templates_dir() / "locales" / f"{_base(lang)}.po"


@cache
def _theme_catalog(lang: str) -> Any:
    """``lang``'s theme catalog as Babel reads it (None: the source's language, or none)."""
    from babel.messages.pofile import read_po

    path = theme_catalog_path(lang)
    if _base(lang) == SOURCE or not path.is_file():
        return None
    with path.open("rb") as fh:
        return read_po(fh, locale=_base(lang))


def own_theme_path(folder: Path, lang: str) -> Path:
    """A game's own catalog of the theme's words in ``lang``, beside its rules' catalog."""
    return folder / "locales" / f"{lang}-theme.po"


OwnKey = tuple[str, int] | None  # the game's theme catalog and its mtime: a cache key


def _own_key(lang: str | None, folder: Path | None) -> OwnKey:
    if lang is None or folder is None or _base(lang) == SOURCE:
        return None
    path = own_theme_path(folder, lang)
    try:
        return str(path), path.stat().st_mtime_ns  # edited under serve: read again
    except OSError:
        return None


@cache
def _own_catalog(lang: str, key: tuple[str, int]) -> Any:
    """The game's theme catalog, read as untrusted input; one that does not read is left out
    here (the translated books' check reports it at its line)."""
    from rulepress.i18n.catalog import load  # Babel comes with it: a translation's alone

    try:
        return load(Path(key[0]), lang)
    except RulepressError:
        return None


def _catalogs(lang: str | None, own: OwnKey) -> list[Any]:
    """rulepress's catalog of ``lang``, then the game's own (its words win)."""
    found = [_theme_catalog(lang)] if lang else []
    if lang and own is not None:
        found.append(_own_catalog(lang, own))
    return [c for c in found if c is not None]


def _used(m: Any) -> bool:
    strings = m.string if isinstance(m.string, tuple) else (m.string,)
    return bool(m.id) and all(isinstance(t, str) and t for t in strings) and not m.fuzzy


def _key(m: Any) -> str:
    msgid = m.id if isinstance(m.id, str) else m.id[0]
    return f"{m.context}\x04{msgid}" if m.context else str(msgid)


def theme_translated(lang: str, folder: Path | None = None) -> frozenset[str]:
    """The theme's words ``lang``'s catalogs translate (fuzzy and empty entries left out), by
    msgid (a plural message by its singular; a word with a context as ``context\x04msgid``)."""
    return _translated(lang, _own_key(lang, folder))


@cache
def _translated(lang: str, own: OwnKey) -> frozenset[str]:
    return frozenset(_key(m) for c in _catalogs(lang, own) for m in c if _used(m))


def _translations(lang: str | None, folder: Path | None = None) -> gettext.NullTranslations:
    return _compiled(lang, _own_key(lang, folder))


@cache
def _compiled(lang: str | None, own: OwnKey) -> gettext.NullTranslations:
    """``lang``'s theme catalogs as gettext looks words up (plural forms by the last one's
    ``Plural-Forms``); the source's language, or no catalog: every word as written."""
    catalogs = _catalogs(lang, own)
    if not catalogs:
        return gettext.NullTranslations()
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo
    from babel.support import Translations

    used = Catalog(locale=catalogs[-1].locale)
    used.mime_headers = catalogs[-1].mime_headers  # Plural-Forms comes with them
    for catalog in catalogs:
        for m in catalog:
            if _used(m):  # a word of the game's catalog replaces rulepress's
                # (Catalog.add would keep the first one's string and merge only locations)
                used.delete(m.id, context=m.context)
                used.add(m.id, m.string, context=m.context)
    compiled = io.BytesIO()
    write_mo(compiled, used)
    compiled.seek(0)
    return Translations(compiled)


@cache
def theme_msgids() -> tuple[str, ...]:
    """Every word of the theme, as its template (``templates/locales/theme.pot``) lists them
    (a plural message by its singular)."""
    from babel.messages.pofile import read_po

    with (templates_dir() / "locales" / "theme.pot").open("rb") as fh:
        return tuple(_key(m) for m in read_po(fh) if m.id)


def theme_missing(lang: str, folder: Path | None = None) -> tuple[str, ...]:
    """The theme's words ``lang``'s catalogs do not translate: they print in English."""
    if _base(lang) == SOURCE:
        return ()
    translated = theme_translated(lang, folder)
    return tuple(m for m in theme_msgids() if m not in translated)


def _filled(text: str, values: Mapping[str, Any]) -> str:
    return text.format(**values) if values else text


def theme_words(lang: str | None, folder: Path | None = None) -> Gettext:
    """``_(msgid, **values)`` for ``lang`` (and the game in ``folder``): the translation (else
    the English), ``{name}`` placeholders filled from ``values``."""
    lookup = _translations(lang, folder).gettext
    # gettext answers "" with the catalog's header; an empty text stays empty.
    return lambda msgid, **values: _filled(lookup(msgid), values) if msgid else msgid


def theme_ngettext(lang: str | None, folder: Path | None = None) -> Callable[..., str]:
    """``ngettext(singular, plural, n, **values)`` for ``lang``: the form its catalog's
    ``Plural-Forms`` chooses for ``n`` (else the English one), ``{n}`` and the other
    placeholders filled (``n`` as ``values`` gives it, else as the number)."""
    lookup = _translations(lang, folder).ngettext
    return lambda singular, plural, n, **values: lookup(singular, plural, n).format(
        **{"n": n, **values})


@dataclass(frozen=True)
class Words:
    """The theme's words in one language, as the kit's drawing code prints them:
    ``_("...")``, ``_.ngettext(...)`` (both found by ``python -m rulepress.i18n.theme``) and
    ``_.number(...)``. ``lang`` None: the source's language."""

    lang: str | None = None
    folder: Path | None = None  # the game's: its own theme catalog, if any

    def __call__(self, msgid: str, **values: Any) -> str:
        return theme_words(self.lang, self.folder)(msgid, **values)

    def ngettext(self, singular: str, plural: str, n: int, **values: Any) -> str:
        return theme_ngettext(self.lang, self.folder)(singular, plural, n, **values)

    def pgettext(self, context: str, msgid: str, **values: Any) -> str:
        """``msgid`` where the same English says something else elsewhere ("Printing": a
        kit's printing steps, not a book's printing)."""
        return _filled(_translations(self.lang, self.folder).pgettext(context, msgid), values)

    def number(self, value: float) -> str:
        """A measure (63, 63.5) as the language writes it: 63,5 in German."""
        if self.lang is None or _base(self.lang) == SOURCE:
            return f"{value:g}"
        from babel.numbers import format_decimal

        return str(format_decimal(value, format="#,##0.###", locale=_base(self.lang)))


def css_content(text: str, counters: Mapping[str, str]) -> str:
    """A sentence with ``{placeholders}`` as a CSS ``content`` value: each placeholder the CSS
    of ``counters`` (``{page}`` -> ``counter(page)``), the rest quoted strings."""
    parts = []
    for n, piece in enumerate(re.split(r"\{(\w+)\}", text)):
        if n % 2:
            parts.append(counters[piece])
        elif piece:
            escaped = piece.replace("\\", "\\\\").replace('"', '\\"')
            # A CSS escape ends at a space, or where no hex digit follows.
            escaped = re.sub(r"\u00a0([0-9A-Fa-f ]?)",
                             lambda m: "\\A0" + (" " + m.group(1) if m.group(1) else ""), escaped)
            parts.append(f'"{escaped}"')
    return " ".join(parts)


# --- numbers and dates ---------------------------------------------------------------------


_NUMBER = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(%?)(?![\w]|[.,]\d)")
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")


def localize_numbers(text: str, lang: str | None) -> str:
    """``text`` (prose as filled from the data) with its decimal numbers, grouped thousands
    and percentages in ``lang``'s format: 52.3% -> 52,3 %, 10,000 -> 10.000 in German. Whole
    numbers are left as they are; so is the source's language."""
    if lang is None or _base(lang) == SOURCE:
        return text

    def one(m: re.Match[str]) -> str:
        number, percent = m.group(1), m.group(2)
        if not percent and "." not in number and "," not in number:
            return m.group(0)
        return _number(number.replace(",", ""), bool(percent), _base(lang))

    out = _NUMBER.sub(one, text)
    if out != text and _number("0.5", False, _base(lang)) == "0,5":
        # Two decimal commas apart by a comma read as one list: "[53,3; 68,7]".
        out = re.sub(r"(\d,\d+(?:\u00a0%)?), (?=\d+,\d)", r"\1; ", out)
    return out


def _number(number: str, percent: bool, lang: str) -> str:
    """One number as ``lang`` writes it (CLDR's patterns), as many decimals as written."""
    from decimal import Decimal

    from babel import Locale
    from babel.numbers import format_decimal, format_percent

    places = len(number.split(".")[1]) if "." in number else 0
    locale = Locale.parse(lang)
    if percent:
        pattern = str(locale.percent_formats[None].pattern)
        if places:
            pattern = pattern.replace("0", "0." + "0" * places, 1)
        return str(format_percent(Decimal(number) / 100, format=pattern, locale=locale))
    pattern = "#,##0" + ("." + "0" * places if places else "")
    return str(format_decimal(Decimal(number), format=pattern, locale=locale))


def localize_dates(text: str, lang: str | None) -> str:
    """ISO dates in ``text`` (a printing's "Version 1.0, 2026-11-27") as ``lang`` writes them
    (27.11.2026 in German)."""
    if lang is None or _base(lang) == SOURCE:
        return text
    from babel.dates import format_date

    def one(m: re.Match[str]) -> str:
        try:
            day = date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError:
            return m.group(0)
        return str(format_date(day, format="medium", locale=_base(lang)))

    return _ISO_DATE.sub(one, text)


SOURCE_WORDS = Words()  # the theme's words as written

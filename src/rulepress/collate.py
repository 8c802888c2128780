"""Alphabetical order as a language's readers expect it, for the index and the glossary.

A leading article is ignored ("Der Gleichstand" under G, "The deck" under D) and letters with
accents or umlauts sort with their base letter ("Übrige Karten" under U, DIN 5007-1's order
for German; ß as ss). Where two entries then tie, the one without the accent comes first."""

from __future__ import annotations

import re
import unicodedata

from rulepress.media import DEFAULT_LANGUAGE

# Leading articles per language (base code): dropped for sorting, kept in print.
ARTICLES: dict[str, tuple[str, ...]] = {
    "en": ("the", "an", "a"),
    "de": ("der", "die", "das", "dem", "den", "des", "ein", "eine", "einem", "einen",
           "einer", "eines"),
    "fr": ("les", "le", "la", "l'", "l\u2019", "une", "un", "des"),
    "es": ("los", "las", "el", "la", "unos", "unas", "un", "una"),
    "it": ("gli", "il", "lo", "la", "le", "i", "l'", "l\u2019", "uno", "una", "un"),
    "nl": ("de", "het", "een", "'t"),
}


def _base(lang: str | None) -> str:
    return (lang or DEFAULT_LANGUAGE).replace("-", "_").split("_")[0].lower()


def without_article(text: str, lang: str | None) -> str:
    """``text`` without its leading article in ``lang`` (a word that is all of ``text``
    stays: "Die" alone is a title, not an article)."""
    for article in ARTICLES.get(_base(lang), ()):
        elided = article.endswith(("'", "\u2019"))
        pattern = re.escape(article) + (r"(?=\w)" if elided else r"\s+(?=\w)")
        m = re.match(pattern, text, flags=re.IGNORECASE)
        if m:
            return text[m.end():]
    return text


def _letters(text: str) -> str:
    """``text`` casefolded with its accents and umlauts taken off (ß -> ss by casefold)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def sort_key(text: str, lang: str | None, key: str = "") -> tuple[str, str]:
    """The key that puts ``text`` where ``lang``'s index has it: its words without the
    leading article and without accents first, then with accents (entries still equal keep
    their order: a term before the ruling of the same name). ``key``: the author's own sort
    key for the entry, taken as written (no article dropped), in place of ``text``."""
    bare = key.strip() or without_article(text.strip(), lang)
    return (_letters(bare), bare.casefold())

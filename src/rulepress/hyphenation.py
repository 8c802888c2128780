"""Where a translated page may break its words, where the typesetter's patterns are wrong.

WeasyPrint breaks words by pyphen's patterns for the page's ``lang``. pyphen's German patterns
(LibreOffice's, of the old spelling, whose "k-k" for "ck" pyphen cannot apply) break
"rü-ckwärts", and patterns cannot see a compound's seam ("Zu-greihenfolge"). A word with
soft hyphens is broken only there (CSS Text 3, which WeasyPrint follows), so such a word is
given its right breaks as soft hyphens; every other word keeps the patterns' breaks."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

SOFT = "\u00ad"

# Compounds the patterns split at the wrong seam, as the language breaks them.
COMPOUNDS: dict[str, tuple[str, ...]] = {
    "de": ("Zug-rei-hen-fol-ge", "Zug-fol-ge", "Rück-wärts-zug", "Rück-wärts-zü-ge"),
}

_WORD = re.compile(r"[^\W\d_]{5,}")
_PARTS = re.compile(r"(<(?:style|script|pre|code)\b.*?</(?:style|script|pre|code)>|<[^>]*>)",
                    re.S | re.I)


def _base(lang: str | None) -> str:
    return (lang or "").replace("-", "_").split("_")[0].lower()


@cache
def _hyphenator(lang: str) -> Any:
    import pyphen

    return pyphen.Pyphen(lang=pyphen.language_fallback(lang) or lang)


def breaks(word: str, lang: str | None) -> str | None:
    """``word`` with soft hyphens where ``lang`` breaks it, when the patterns would break it
    elsewhere; None when the patterns are right (or the language is not known here)."""
    base = _base(lang)
    if base != "de":
        return None
    for compound in COMPOUNDS[base]:
        if compound.replace("-", "").casefold() == word.casefold():
            return _as_written(word, compound)
    positions = _hyphenator(base).positions(word)
    # German keeps "ck" with the syllable before it unless a vowel follows ("rück-wärts",
    # "Brü-cke"): a break before a "ck" that ends its syllable is the old spelling's.
    wrong = [p for p in positions if word[p:p + 2] == "ck"
             and (p + 2 >= len(word) or word[p + 2].casefold() not in "aeiouyäöü")]
    if not wrong:
        return None
    kept = sorted({p for p in positions if p not in wrong}
                  | {p + 2 for p in wrong if len(word) - p - 2 >= 2})
    return SOFT.join(word[a:b] for a, b in zip([0, *kept], [*kept, len(word)], strict=True))


def _as_written(word: str, compound: str) -> str:
    """``compound``'s breaks in ``word``'s own letters (its case)."""
    out, at = [], 0
    for part in compound.split("-"):
        out.append(word[at:at + len(part)])
        at += len(part)
    return SOFT.join(out)


def with_breaks(html: str, lang: str | None) -> str:
    """``html`` with the words its language's patterns break wrongly given their breaks, in
    the body's text only (no tag, style, script or code is touched)."""
    if _base(lang) not in COMPOUNDS:
        return html
    body = html.find("<body")
    if body < 0:
        return html
    pieces = _PARTS.split(html[body:])
    for n in range(0, len(pieces), 2):  # the text between the tags
        pieces[n] = _WORD.sub(lambda m: breaks(m.group(0), lang) or m.group(0), pieces[n])
    return html[:body] + "".join(pieces)

"""Where a page may break its words, where the typesetter's patterns are wrong.

WeasyPrint breaks words by pyphen's patterns for the page's ``lang``. pyphen's German patterns
(LibreOffice's, of the old spelling, whose "k-k" for "ck" pyphen cannot apply) break
"rü-ckwärts", and patterns cannot see a compound's seam ("Zu-greihenfolge"). A word with
soft hyphens is broken only there (CSS Text 3, which WeasyPrint follows), so such a word is
given its right breaks as soft hyphens; every other word keeps the patterns' breaks.

The words are data, per language: ``<lang>-hyphenation.txt``, one word a line with a hyphen at
each break ("Zug-rei-hen-fol-ge"), '#' starting a comment; rulepress's own beside its theme
catalogs (``templates/locales/``, for the theme's words), a game's in its ``locales/`` (its
words win). German's "ck" rule is code: it holds for every German word."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from rulepress.diagnostics import Diagnostic, SourceLoc, error, not_utf8
from rulepress.jail import PathRefused, local_file, read_regular
from rulepress.limits import MAX_HYPHENATED_CHARS, MAX_HYPHENATION_WORDS
from rulepress.paths import templates_dir

SOFT = "\u00ad"
SUFFIX = "-hyphenation.txt"
_ENTRY = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)+")  # letters, a hyphen between two at each break

Exceptions = dict[str, str]  # the word casefolded, without hyphens -> as written, with them


def _code(lang: str | None) -> str:
    return (lang or "").replace("-", "_")


def read_exceptions(folder: Path, name: str) -> tuple[Exceptions, list[Diagnostic]]:
    """The words of ``folder``'s file ``name`` (through the jail: a link out of the folder is
    refused), and an error at the line of each that is not one word with its breaks; no file:
    no words."""
    path = folder / name
    if not path.exists() and not path.is_symlink():
        return {}, []
    try:
        text = read_regular(local_file(name, folder)).decode("utf-8")
    except PathRefused as exc:
        return {}, [error(SourceLoc(path, 1), f"cannot read the hyphenation exceptions: "
                                              f"refused: {exc}")]
    except UnicodeDecodeError as exc:
        return {}, [error(*not_utf8(path, exc))]
    except OSError as exc:
        return {}, [error(SourceLoc(path, 1), f"cannot read the hyphenation exceptions: "
                                              f"{exc.strerror}")]
    found: Exceptions = {}
    first: dict[str, int] = {}
    problems: list[Diagnostic] = []
    for n, line in enumerate(text.split("\n"), 1):
        word = line.split("#", 1)[0].strip()
        if not word:
            continue
        at = SourceLoc(path, n)
        if len(word) > MAX_HYPHENATED_CHARS:
            problems.append(error(at, f"a word of {len(word)} characters, more than the limit "
                                      f"of {MAX_HYPHENATED_CHARS}"))
            continue
        if not _ENTRY.fullmatch(word):
            problems.append(error(at, f"'{word}' is not a word with its breaks: write one word "
                                      "a line, letters only, a hyphen at each place it may "
                                      "break (Zug-rei-hen-fol-ge)"))
            continue
        key = word.replace("-", "").casefold()
        if key in first:
            problems.append(error(at, f"'{word}' is given twice (first at line {first[key]}): "
                                      "keep one"))
            continue
        if len(found) == MAX_HYPHENATION_WORDS:
            problems.append(error(at, f"more than the limit of {MAX_HYPHENATION_WORDS} words"))
            break
        first[key], found[key] = n, word
    return found, problems


def check_exceptions(folder: Path) -> list[Diagnostic]:
    """What is wrong in each of a game's hyphenation files (``locales/*-hyphenation.txt``)."""
    locales = folder / "locales"
    if not locales.is_dir():
        return []
    return [d for path in sorted(locales.glob(f"*{SUFFIX}"))
            for d in read_exceptions(folder, f"locales/{path.name}")[1]]


def _key(folder: Path, name: str) -> tuple[str, str, int] | None:
    path = folder / name
    try:
        return str(folder), name, path.stat().st_mtime_ns  # edited under serve: read again
    except OSError:
        return None


@cache
def _read(folder: str, name: str, mtime: int) -> Exceptions:
    return read_exceptions(Path(folder), name)[0]  # its errors: the check's


def exceptions(lang: str | None, folder: Path | None = None) -> Exceptions:
    """The words ``lang`` breaks otherwise than its patterns: rulepress's, then the game's in
    ``folder`` (a word of the game's replaces rulepress's); a regional language (de_CH) takes
    its base language's, then its own."""
    code = _code(lang)
    names = list(dict.fromkeys([code.split("_")[0], code])) if code else []
    places = [(templates_dir(), f"locales/{n}{SUFFIX}") for n in names]
    if folder is not None:
        places += [(folder, f"locales/{n}{SUFFIX}") for n in names]
    found: Exceptions = {}
    for root, name in places:
        key = _key(root, name)
        if key is not None:
            found.update(_read(*key))
    return found


_WORD = re.compile(r"[^\W\d_]{2,}")
_PARTS = re.compile(r"(<(?:style|script|pre|code)\b.*?</(?:style|script|pre|code)>|<[^>]*>)",
                    re.S | re.I)


def _base(lang: str | None) -> str:
    return _code(lang).split("_")[0].lower()


@cache
def _hyphenator(lang: str) -> Any:
    import pyphen

    return pyphen.Pyphen(lang=pyphen.language_fallback(lang) or lang)


def breaks(word: str, lang: str | None, folder: Path | None = None,
           listed: Exceptions | None = None) -> str | None:
    """``word`` with soft hyphens where ``lang`` breaks it, when the patterns would break it
    elsewhere; None when the patterns are right (or the language is not known here).
    ``listed``: the language's exceptions, if read already (else read for ``folder``)."""
    known = (exceptions(lang, folder) if listed is None else listed).get(word.casefold())
    if known is not None:
        return _as_written(word, known)
    base = _base(lang)
    if base != "de" or len(word) < 5:
        return None
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


def with_breaks(html: str, lang: str | None, folder: Path | None = None) -> str:
    """``html`` with the words its language's patterns break wrongly given their breaks, in
    the body's text only (no tag, style, script or code is touched); ``folder``: the game's,
    whose exceptions join rulepress's."""
    listed = exceptions(lang, folder)
    if _base(lang) != "de" and not listed:
        return html
    body = html.find("<body")
    if body < 0:
        return html
    pieces = _PARTS.split(html[body:])
    for n in range(0, len(pieces), 2):  # the text between the tags
        pieces[n] = _WORD.sub(lambda m: breaks(m.group(0), lang, listed=listed) or m.group(0),
                              pieces[n])
    return html[:body] + "".join(pieces)

"""What a translation must keep of its source, checked at the catalog's own lines: the
placeholders, the markup, the numbers, the names an example's data holds, the glossary's words
and the font's characters. A translated example may say it in other words, never other facts."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import TemplateSyntaxError
from markdown_it import MarkdownIt

from rulepress.diagnostics import Diagnostic, SourceLoc, error, not_utf8, warning
from rulepress.document.markdown import DFN, make_parser
from rulepress.document.model import Document
from rulepress.i18n.apply import Catalogued, Entry
from rulepress.i18n.catalog import LOCALES
from rulepress.i18n.segments import Segment
from rulepress.jail import PathRefused, local_file, read_regular
from rulepress.limits import MAX_GLOSSARY_TERMS, MAX_TRANSLATION_GROWTH, TRANSLATION_SLACK_CHARS
from rulepress.prose import shows_a_number
from rulepress.render.glyphs import _describe, uncovered
from rulepress.sandbox import syntax_problem

_PLACEHOLDER = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_MARKUP = {"strong_open": "bold", "em_open": "italics", "code_inline": "code",
           "link_open": "link", "image": "image", "s_open": "strikethrough",
           DFN: "definition"}


@cache
def _parser() -> MarkdownIt:
    return make_parser()


_WORDS = re.compile(r"(['\"])[^'\"\d]*\1")  # a string without digits: words to translate
_STRING = re.compile(r"'((?:[^'\\]|\\.)*)'|\"((?:[^\"\\]|\\.)*)\"")
# A filter that writes a number as a place ("1st"): a language may write it its own way
# ("{{ n }}." in German), so a translation may drop or add it.
_ORDINAL_FILTER = re.compile(r"\|ordinal(?=[|})]|-?[}%])")


def _placeholders(text: str) -> Counter[str]:
    """The expressions of ``text`` whole, filters included, spaces and the words of their
    strings aside: a translation may join with " und " or write an ordinal its language's way,
    never print another datum or compute another number from the same data."""
    return Counter(_ORDINAL_FILTER.sub("", re.sub(r"\s+", "", _WORDS.sub('""', m)))
                   for m in _PLACEHOLDER.findall(text))


def _expanded(text: str) -> str:
    """``text`` with each placeholder replaced by the strings it holds, joined: what it can
    print besides the data, so that markup carried in a filter's string is counted."""
    def strings(m: re.Match[str]) -> str:
        said = "".join(a or b for a, b in _STRING.findall(m.group()))
        return f"x{said}x" if said else "x"  # a word still, where markup wraps it

    return _PLACEHOLDER.sub(strings, text)


_RULE = re.compile(r"\]\{rule=([^}\n]*)\}")  # a rule mark, [words]{rule=id}: its id stays
_ICON = re.compile(r"(?<![\\\w]):([A-Za-z][A-Za-z0-9_-]*):")  # a kit's icon (pnp/faces/text.py)


def _markup(text: str) -> Counter[str]:
    """The inline markup of ``text`` as its placeholders can print it: each kind counted
    (definitions, ``:dfn[...]``, too: a translation defines where the source does), each link
    with its target, each rule mark with its id."""
    found: Counter[str] = Counter(f"rule mark {m}" for m in _RULE.findall(text))
    found.update(f"icon :{m}:" for m in _ICON.findall(_expanded(text)))
    for block in _parser().parse(_expanded(text)):
        for child in block.children or ():
            if child.type in _MARKUP:
                target = child.attrGet("href") if child.type == "link_open" else None
                found[_MARKUP[child.type] + (f" to {target}" if target else "")] += 1
    return found


def _numbers(text: str) -> Counter[str]:
    return Counter(_NUMBER.findall(_PLACEHOLDER.sub(" ", text)))


def _names(data: Any) -> Iterator[str]:
    """The words an example's data holds that prose could print as written: names."""
    if isinstance(data, Mapping):
        for key, value in data.items():
            yield from _names(key)
            yield from _names(value)
    elif isinstance(data, list):
        for value in data:
            yield from _names(value)
    elif isinstance(data, str) and re.fullmatch(r"[A-Z][\w'-]+", data):
        yield data


def _differ(what: str, source: Counter[str], trans: Counter[str]) -> str | None:
    lost, added = source - trans, trans - source
    if not lost and not added:
        return None
    parts = ([f"drops {', '.join(sorted(lost))}"] if lost else []) + (
        [f"adds {', '.join(sorted(added))}"] if added else [])
    return f"the translation {' and '.join(parts)} ({what} must stay as in the source)"


def check_entry(seg: Segment, entry: Entry, names: set[str]) -> list[Diagnostic]:
    """Errors in one translated segment, at its entry's line."""
    source, trans = seg.text, entry.string
    most = MAX_TRANSLATION_GROWTH * len(source) + TRANSLATION_SLACK_CHARS
    if len(trans) > most:  # checked first: every check below reads it
        return [error(entry.loc, f"the translation is {len(trans):,} characters, more than the "
                                 f"limit of {most:,} for a source of {len(source):,} "
                                 f"({MAX_TRANSLATION_GROWTH} times it, and "
                                 f"{TRANSLATION_SLACK_CHARS})")]
    found: list[Diagnostic] = []
    bare = None
    if seg.kind == "example prose":
        try:
            bare = shows_a_number(trans)
        except TemplateSyntaxError as exc:
            return [error(entry.loc, f"the translated prose: {syntax_problem(exc)}")]
    for what, count in (("placeholders", _placeholders), ("markup", _markup),
                        ("numbers", _numbers)):
        problem = _differ(what, count(source), count(trans))
        if problem:
            found.append(error(entry.loc, problem))
    if bare and not any("numbers" in d.message for d in found):
        found.append(error(entry.loc, f"the translated prose shows the bare number {bare}; "
                                      "take it from the data as the source does"))
    if names:
        said = {n for n in names if re.search(rf"\b{re.escape(n)}\b", source)}
        kept = {n for n in names if re.search(rf"\b{re.escape(n)}\b", trans)}
        problem = _differ("the names the example's data holds", Counter(said), Counter(kept))
        if problem:
            found.append(error(entry.loc, problem))
    missing = uncovered(trans)
    if missing:
        found.append(error(entry.loc, f"the font has no {_describe(missing)}"))
    return found


def check_catalog(doc: Document, catalog: Catalogued) -> list[Diagnostic]:
    """Every translated segment checked against its source (errors), and against the
    language's glossary (warnings); a broken glossary is an error at its line."""
    names = {ex.id: set(_names(dict(ex.data, claims=ex.claims))) for ex in doc.boxes}
    glossary, found = read_glossary(doc.folder, f"{LOCALES}/{catalog.lang}-glossary")
    found = [*catalog.warnings, *found]
    for stray in catalog.strays():
        shown = stray.text if len(stray.text) <= 40 else stray.text[:39] + "…"
        found.append(warning(stray.loc, f"{shown!r} is no segment of the game nor a word of its "
                                        "engine: its translation is ignored"))
    seen: set[str] = set()
    quoted = re.compile(r'"[^"]*"|“[^”]*”')  # the original's words, quoted as written
    terms = [(re.compile(rf"\b{re.escape(term)}", re.I), term, words, line)
             for term, words, line in glossary]  # compiled once, not once a segment
    for seg in catalog.segments:
        entry = catalog.entries.get(seg.key)
        if seg.key in seen or entry is None or not entry.used:
            continue
        seen.add(seg.key)
        found += check_entry(seg, entry, names.get(seg.example or "", set()))
        unquoted = quoted.sub("", seg.text)
        for pattern, term, words, line in terms:
            if (pattern.search(unquoted)
                    and not any(w.casefold() in entry.string.casefold() for w in words)):
                found.append(warning(entry.loc, (
                    f"'{term}' is translated {' or '.join(repr(w) for w in words)} "
                    f"({catalog.lang}-glossary:{line}); this translation uses another word")))
    return found


Glossary = list[tuple[str, tuple[str, ...], int]]


def read_glossary(folder: Path, name: str) -> tuple[Glossary, list[Diagnostic]]:
    """``term = Wort | Wörter`` a line ('#' starts a comment): each defined term and the words
    its translation may take, from the file ``name`` of the game's ``folder`` (through the
    jail: a link out of it is refused, nothing of it read). No file: no glossary."""
    path = folder / name
    if not path.exists() and not path.is_symlink():
        return [], []
    try:
        text = read_regular(local_file(name, folder)).decode("utf-8")
    except PathRefused as exc:
        return [], [error(SourceLoc(path, 1), f"cannot read the glossary: refused: {exc}")]
    except UnicodeDecodeError as exc:
        return [], [error(*not_utf8(path, exc))]
    except OSError as exc:
        return [], [error(SourceLoc(path, 1), f"cannot read the glossary: {exc.strerror}")]
    terms: Glossary = []
    problems: list[Diagnostic] = []
    for n, line in enumerate(text.split("\n"), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        term, sep, words = line.partition("=")
        choices = tuple(w.strip() for w in words.split("|") if w.strip())
        if not sep or not term.strip() or not choices:
            problems.append(error(SourceLoc(path, n), "a glossary line reads 'term = "
                                                      "translation' (alternatives: 'a | b')"))
            continue
        terms.append((term.strip(), choices, n))
        if len(terms) > MAX_GLOSSARY_TERMS:
            return [], [error(SourceLoc(path, n), f"more than the limit of {MAX_GLOSSARY_TERMS}"
                                                  " terms in a glossary")]
    return terms, problems

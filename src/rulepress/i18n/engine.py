"""The words a game's engine prints (its figures' labels, facts said in words), as segments of
the game's catalog, and a translated book's figures and facts with them translated.

The engine lists them (``Engine.words``); it is asked in a worker, as every engine call is. An
example's figures are drawn once, in the source language, by the check; a translation replaces
each ``<text>`` of a figure that is one of those words (or an ordinal, ``1st``: the theme's),
so nothing is replayed. A playtest report's plots are drawn again in the language instead
(i18n/plots.py), laid out for its words."""

from __future__ import annotations

import html
import re
import textwrap
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, cast

from rulepress.diagnostics import RulepressError, SourceLoc
from rulepress.document.model import Document, Language
from rulepress.games import UnknownEngine, contract, load_engine
from rulepress.host import EngineJob, engine_job
from rulepress.i18n.segments import Segment
from rulepress.simulate.ladder import (
    EARLY_SENTENCE,
    FISHER_SENTENCE,
    LADDER_EVEN,
    LADDER_SENTENCE,
    SEAT_SENTENCE,
)
from rulepress.simulate.plots import LADDER_AXIS, LADDER_TITLE
from rulepress.words import N_, localize_numbers, ordinal, theme_words

KIND = "engine word (a figure's label, or a fact said in words)"
_TEXT = re.compile(r"(<text\b[^>]*>)([^<]+)(</text>)")
_ORDINAL = re.compile(r"^(\d+)(?:st|nd|rd|th)$")


_WORDS: dict[int, tuple[Any, frozenset[str] | None]] = {}  # by engine, kept alive with it


def engine_words(engine: Any) -> frozenset[str] | None:
    """The words a loaded engine lists (asked in a worker, once a process); None when it
    fails to list them (its own check says why); none without an engine."""
    if engine is None:
        return frozenset()
    if id(engine) in _WORDS:
        return _WORDS[id(engine)][1]
    # what stops it is reported where the engine is checked
    value = engine_job(EngineJob(lambda: contract.words(engine), engine, "listing its words",
                                 None))
    found = None if isinstance(value, list) else frozenset(value)
    _WORDS[id(engine)] = (engine, found)
    return found


def engine_segments(doc: Document, project: Path | None) -> list[Segment]:
    """The engine's words as segments, referenced at the front matter's ``engine:`` line."""
    if not doc.meta.engine:
        return []
    at = doc.meta.engine_loc or SourceLoc(doc.path, 1)
    try:
        engine = load_engine(doc.meta.engine, project)
    except UnknownEngine as exc:
        raise RulepressError.at(exc.loc or at, str(exc)) from None

    value = engine_job(EngineJob(lambda: contract.words(engine), engine, "listing its words",
                                 at))
    if isinstance(value, list):
        raise RulepressError(value)
    return [Segment(w, at, KIND) for w in dict.fromkeys(value)]


# What the playtest report's plots (simulate/plots.py) and its sentences print, for the
# theme's catalog; a sentence of a report's prose is translated as one of these patterns.
PLOT_TEXTS = (
    N_("{n} players"), N_("{label}: median {median}, mean {mean}"),
    N_("{label}: no finished game"), N_("share of games"), N_("turns"), N_("minutes"),
    N_("score"), N_("points"), N_("Game length (a turn taken as {seconds} s)"),
    N_("Scores (every player)"), N_("Winning margin (best score less the next)"),
    N_("Share of wins by seat (1, 2...) and turn order (1st, 2nd...), 95% intervals; dashed: "
       "an even share"),
    N_("Win rate of each agent's seats, 95% intervals (dashed: an even share)"),
    N_("How games end"), SEAT_SENTENCE, LADDER_SENTENCE, LADDER_EVEN, FISHER_SENTENCE,
    EARLY_SENTENCE, LADDER_AXIS, LADDER_TITLE,
    N_("random"), N_("greedy"),
)
_SEARCH = re.compile(r"^(?:flat|mcts|ismcts):\d+(?::\w+)?$")  # an agent's name, as typed


def word_translator(strings: Mapping[str, str], lang: str, folder: Path | None = None
                    ) -> Callable[[str], str | None]:
    """A word's translation: the game's catalog's (a word with ``{placeholders}``, such as a
    figure title's "After the {card} on {pigeons}", as a pattern whose values are translated
    in turn), else an ordinal or a plot's text as the theme writes it (its numbers in the
    language's format); a text of numbers alone in the language's format. None when there is
    none: a text with words is translated only by a translation, never by its numbers."""
    theme = theme_words(lang, folder)
    patterns = [(_pattern(m), m) for m in PLOT_TEXTS]
    games = [(_pattern(k), v) for k, v in strings.items()
             if _PLACEHOLDER.search(k) and "{{" not in k]  # not a prose block's Jinja

    def value(text: str) -> str | None:
        said = tr(text)
        if said is not None or any(c.isalpha() for c in text):
            return said
        return localize_numbers(text, lang)

    def filled(pattern: re.Pattern[str], key: str) -> dict[str, str] | None:
        matched = pattern.match(key)
        if matched is None:
            return None
        values = {k: value(v) for k, v in matched.groupdict().items()}
        return None if None in values.values() else cast(dict[str, str], values)

    def tr(word: str) -> str | None:
        key = word.strip()
        if key in strings:
            return strings[key]
        if _SEARCH.match(key):
            return key
        found = _ORDINAL.match(key)
        if found and ordinal(1, lang, folder) != "1st":
            return ordinal(int(found.group(1)), lang, folder)
        for pattern, said in games:
            if (values := filled(pattern, key)) is not None:
                return said.format(**values)
        for pattern, msgid in patterns:
            if theme(msgid) != msgid and (values := filled(pattern, key)) is not None:
                return theme(msgid, **values)
        if theme(key) != key:  # a word of rulepress's own (a plot's caption)
            return theme(key)
        if any(c.isalpha() for c in key):
            return None
        localized = localize_numbers(key, lang)  # a plot's tick, 20% -> 20 %
        return localized if localized != key else None

    return tr


_PLACEHOLDER = re.compile(r"\{\w+\}")


def _pattern(msgid: str) -> re.Pattern[str]:
    """``msgid`` as a regular expression, each ``{placeholder}`` a named group."""
    parts = re.split(r"\{(\w+)\}", msgid)
    return re.compile("".join(f"(?P<{p}>.+?)" if n % 2 else re.escape(p)
                              for n, p in enumerate(parts)) + "$")


def translate_svg(svg: str, tr: Callable[[str], str | None], untranslated: set[str],
                  lang: str | None = None) -> str:
    """``svg`` with each text that is a known word translated, and its title (what a screen
    reader says) sentence by sentence; the texts left in the source language are added to
    ``untranslated`` (their numbers still in ``lang``'s format)."""
    done: set[str] = set()
    svg = _GROUP.sub(lambda m: _wrapped_lines(m, tr, done), svg)

    def one(m: re.Match[str]) -> str:
        text = html.unescape(m.group(2))
        if text in done:
            return m.group(0)
        said = tr(text)
        if said is None:
            if any(c.isalpha() for c in text):
                untranslated.add(text.strip())
            said = localize_numbers(text, lang)
        return m.group(1) + html.escape(said, quote=False) + m.group(3)

    def title(m: re.Match[str]) -> str:
        text = html.unescape(m.group(3))
        said = _sentences(text, tr)
        if said is None:
            untranslated.add(text.strip())
            said = localize_numbers(text, lang)
        return m.group(1) + html.escape(said, quote=False) + m.group(4)

    return _TITLE.sub(title, _TEXT.sub(one, svg))


_TITLE = re.compile(r"(<(title|desc)\b[^>]*>)([^<]+)(</\2>)")
_CLAUSE_END = re.compile(r"(\.\s+|;\s+|\.$)")


def _sentences(text: str, tr: Callable[[str], str | None]) -> str | None:
    """A figure's title translated clause by clause ("After the six of hearts on pigeon 6.
    Pigeon 1 on square 3; pigeon 2 ..."), each clause as a word of the catalog (its first
    letter in the case it has there, then as the title has it); None if one is unknown."""
    out = []
    for n, part in enumerate(_CLAUSE_END.split(text)):
        if n % 2 or not part.strip():
            out.append(part)
            continue
        said = tr(part) or tr(part[:1].lower() + part[1:])
        if said is None:
            return None
        out.append(said[:1].upper() + said[1:] if part[:1].isupper() else said)
    return "".join(out)


_GROUP = re.compile(r"<g>\s*((?:<text\b[^>]*>[^<]+</text>\s*){2,})</g>")


def _wrapped_lines(group: re.Match[str], tr: Callable[[str], str | None], done: set[str]) -> str:
    """A title a figure wrapped over several texts (a group of them), translated whole and
    wrapped again over as many lines (left as it is when the whole is no known text); the lines
    written are added to ``done``. (A report's plots no longer come here: they are drawn in
    the language, i18n/plots.py.)"""
    lines = list(_TEXT.finditer(group.group(1)))
    said = tr(" ".join(html.unescape(m.group(2)).strip() for m in lines))
    if said is None:
        return group.group(0)
    width = max(1, -(-len(said) // len(lines)))
    while len(wrapped := textwrap.wrap(said, width)) > len(lines):
        width += 1
    wrapped += [""] * (len(lines) - len(wrapped))
    done.update(wrapped)
    out = group.group(0)
    for m, text in zip(lines, wrapped, strict=True):
        out = out.replace(m.group(0), m.group(1) + html.escape(text, quote=False) + m.group(3), 1)
    return out


def translate_values(value: Any, tr: Callable[[str], str | None]) -> Any:
    """An example's data with each string that is a known word translated (what its prose
    prints: "it is **home**" becomes "sie ist **im Ziel**")."""
    if isinstance(value, str):
        said = tr(value)
        return value if said is None else said
    if isinstance(value, Mapping):
        return {k: translate_values(v, tr) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(translate_values(v, tr) for v in value)
    return value


def translated_tables(tables: Mapping[str, Sequence[Mapping[str, Any]]], language: Language,
                      folder: Path | None = None) -> dict[str, list[dict[str, Any]]]:
    """An engine's tables with their words (not their fields' names) in ``language``."""
    tr = word_translator(language.strings, language.code, folder)
    return {name: [{k: translate_values(v, tr) for k, v in row.items()} for row in rows]
            for name, rows in tables.items()}

"""A translated book's playtest plots, drawn again from the report's summary in its words:
rulepress's from the theme's catalogs, the summary's own (an end's reason, an agent) from the
game's catalog, numbers in the language's format. matplotlib then lays each out around the
words it prints (a German row label is longer than the English one it replaces); nothing is
played again. Each is kept (memo.py) by everything it is drawn from: a second a plot."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence

from rulepress import memo
from rulepress.cache import digest, theme_digest
from rulepress.document.model import Document, Example
from rulepress.games.base import Figure
from rulepress.i18n.engine import word_translator
from rulepress.jail import PathRefused, read_regular
from rulepress.simulate.plots import Wording
from rulepress.simulate.report import draw, plotted
from rulepress.words import own_theme_path


def translated_plots(doc: Document, block: Example, checked: Sequence[Figure],
                     strings: Mapping[str, str], lang: str, left: set[str]) -> list[Figure]:
    """The plots of the simulation ``block``, as the check drew them (``checked``, captions
    in the source language), drawn in ``lang`` with the catalog's ``strings``; the texts that
    print in the source language are added to ``left``. RulepressError at the block's line
    if its summary no longer reads."""
    summary, names = plotted(doc, block)
    words = _words_key(doc, strings, lang)
    drawn_from = digest(json.dumps(summary, sort_keys=True))
    out = []
    for name, figure in zip(names, checked, strict=True):
        wide = _drawn(summary, name, False, doc, strings, lang, left, (drawn_from, words))
        narrow = figure.narrow and _drawn(summary, name, True, doc, strings, lang, left,
                                          (drawn_from, words))
        out.append(Figure(figure.caption, wide, narrow))
    return out


def _drawn(summary: Mapping[str, object], name: str, narrow: bool, doc: Document,
           strings: Mapping[str, str], lang: str, left: set[str],
           parts: tuple[str, str]) -> str:
    key = memo.key("translated plot", *parts, name, narrow, lang)
    kept = memo.get(key)
    if isinstance(kept, dict) and isinstance(kept.get("svg"), str) \
            and isinstance(kept.get("left"), list):
        left.update(str(w) for w in kept["left"])
        return str(kept["svg"])
    wording = Wording(lang, doc.folder, word_translator(strings, lang, doc.folder))
    svg = draw(summary, name, narrow, wording)
    memo.put(key, {"svg": svg, "left": sorted(wording.left)})
    left.update(wording.left)
    return svg


def _words_key(doc: Document, strings: Mapping[str, str], lang: str) -> str:
    """What a plot's words in ``lang`` come from: the game's catalog, its own theme catalog
    (if any) and the theme (rulepress's catalogs, and the fonts they are measured in)."""
    try:
        own: str | None = hashlib.sha256(read_regular(own_theme_path(doc.folder, lang))
                                         ).hexdigest()
    except (OSError, PathRefused):  # none, or one the check refuses at its line
        own = None
    return digest(sorted(strings.items()), own, theme_digest())

"""A translated book's playtest plots are drawn in its words (simulate/plots.py, Wording), so
matplotlib lays each out around the text it prints: a German label longer than the English one
stays whole, its numbers in the German format. Measured: each plot set by WeasyPrint as a book
sets it, every character's box inside the plot's own (support.cut_off)."""

from __future__ import annotations

import html
import json
import re
import warnings
from pathlib import Path
from typing import Any

import pytest
from support import cut_off

from rulepress.document.reader import read_document
from rulepress.i18n.apply import read_catalog
from rulepress.i18n.engine import translate_svg, word_translator
from rulepress.simulate.plots import Wording
from rulepress.simulate.report import draw

GAME = Path(__file__).parents[1] / "sources" / "pigeon-race"
# The English words the plots print (case matters: German has "Median" and "Elo" too).
ENGLISH = re.compile(r"\b(players?|games?|median|mean|turns|minutes|score|points|How|Share|"
                     r"Win rate|Scores|Winning|Skill|intervals?|greedy|random|deck empty|"
                     r"home|\d+(?:st|nd|rd|th))\b")
# Words each German plot must print (the theme's, the game's catalog's, numbers).
GERMAN = {
    "ends": ["Wie Partien enden", "2 Spielerinnen", "6 Spielerinnen", "Stapel leer",
             "drei Tauben im Ziel", "100 %"],
    "length": ["Minuten", "Züge", "Anteil der Partien", "Mittelwert 32,1"],
    "win-rates": ["2 Spielerinnen", "1.", "gestrichelt"],
    "margins": ["Punkte", "Mittelwert 5,0"],
    "ladder": ["Gierig", "Zufall", "ismcts:400", "Spielstärken"],
}


def _summary(name: str) -> dict[str, Any]:
    path = GAME / "playtest" / ("ladder/summary.json" if name == "ladder" else "summary.json")
    return dict(json.loads(path.read_text(encoding="utf-8")))


def _german() -> Wording:
    doc = read_document(GAME / "rules.md")
    strings = read_catalog(doc, "de").strings()
    return Wording("de", GAME, word_translator(strings, "de", GAME))


def _texts(svg: str) -> list[str]:
    return [html.unescape(t) for t in re.findall(r"<text\b[^>]*>([^<]*)</text>", svg)]


@pytest.mark.parametrize("narrow", [False, True], ids=["page", "phone"])
@pytest.mark.parametrize("name", list(GERMAN))
def test_each_german_plot_prints_german_words_inside_its_box(name: str, narrow: bool) -> None:
    wording = _german()
    svg = draw(_summary(name), name, narrow, wording)
    assert cut_off(svg) == []
    texts = _texts(svg)
    flat = " ".join(" ".join(texts).split())  # a phone's title wraps over several texts
    assert [w for w in GERMAN[name] if w not in flat] == [], flat
    assert not ENGLISH.search(flat), flat
    assert not re.search(r"\d\.\d", flat), flat  # decimal commas, on the axes too
    assert "2,5" in texts or name != "length" or narrow  # the page's minutes: 0,0 2,5 5,0
    assert wording.left == set()  # nothing printed in English


PO = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Language: de\\n"

msgid "{n} players"
msgstr "{n} Mitspielerinnen und Mitspieler am Tisch"

msgid "How games end"
msgstr "Wie die Partien zu Ende gehen"
"""
DATA = {"deck empty": "Nachziehstapel vollständig aufgebraucht",
        "three pigeons home": "drei Tauben sind über der Ziellinie"}


@pytest.mark.parametrize("narrow", [False, True], ids=["page", "phone"])
def test_labels_far_longer_than_the_english_widen_the_plot_and_stay_whole(
        tmp_path: Path, narrow: bool) -> None:
    (tmp_path / "locales").mkdir()
    (tmp_path / "locales" / "de-theme.po").write_text(PO, encoding="utf-8")
    summary = _summary("ends")
    wording = Wording("de", tmp_path, DATA.get)
    with warnings.catch_warnings():  # matplotlib's "constrained_layout not applied": squeezed
        warnings.simplefilter("error")
        svg = draw(summary, "ends", narrow, wording)
    texts = _texts(svg)
    # A row's long name goes over two lines, the rows as tall as they need.
    assert texts[texts.index(
        "6 Mitspielerinnen und"):][:2] == ["6 Mitspielerinnen und", "Mitspieler am Tisch"]
    assert "Nachziehstapel vollständig aufgebraucht" in texts
    assert "Wie die Partien zu Ende gehen" in texts
    assert cut_off(svg) == []
    assert wording.left == set()


def test_words_put_into_the_english_drawing_afterwards_run_past_its_edge() -> None:
    # As a translation did before: the measure sees what the reader saw, "…pielerinnen".
    words = {"6 players": "6 Mitspielerinnen und Mitspieler am Tisch"}
    replaced = translate_svg(draw(_summary("ends"), "ends"), words.get, set(), "de")
    assert "6 Mitspielerinnen und Mitspieler am Tisch" in _texts(replaced)
    assert any(c.startswith("'6' at [-") for c in cut_off(replaced)), cut_off(replaced)


def test_a_word_no_catalog_has_prints_in_english_and_is_counted(tmp_path: Path) -> None:
    wording = Wording("fr", tmp_path, {}.get)  # no French theme, an empty game catalog
    svg = draw(_summary("ends"), "ends", False, wording)
    assert {"How games end", "2 players", "deck empty"} <= set(_texts(svg))
    assert {"How games end", "2 players", "deck empty", "three pigeons home"} <= wording.left
    assert "20\u00a0%" in _texts(svg)  # the numbers are French all the same (CLDR's)


def test_an_english_plot_is_drawn_as_it_was() -> None:
    summary = _summary("ends")
    english = draw(summary, "ends")
    assert draw(summary, "ends", False, Wording("en")) == english
    assert draw(summary, "ends", False, Wording("en_GB", None, {"deck empty": "x"}.get)) \
        == english
    assert {"How games end", "2 players", "deck empty", "20%"} <= set(_texts(english))


def test_a_translations_plots_are_drawn_once_then_taken_from_the_cache(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A translated book draws its plots again (a second each): an unchanged summary and
    catalog take them from rulepress's cache, with the words they leave in English; a changed
    catalog draws them again."""
    import rulepress.simulate.plots as plots
    from rulepress.games.base import Figure
    from rulepress.i18n.plots import translated_plots

    monkeypatch.setenv("RULEPRESS_CACHE", str(tmp_path / "cache"))
    drawn: list[str] = []
    plot = plots.plot

    def counted(summary: Any, name: str, **options: Any) -> str:
        drawn.append(name)
        return plot(summary, name, **options)

    monkeypatch.setattr(plots, "plot", counted)
    doc = read_document(GAME / "rules.md")
    block = next(b for b in doc.boxes if b.id == "playtest")
    checked = [Figure(f"plot {n}", "<svg/>", "<svg/>") for n in range(4)]  # as the check drew

    def translated(strings: dict[str, str]) -> tuple[list[Figure], set[str]]:
        left: set[str] = set()
        return translated_plots(doc, block, checked, strings, "fr", left), left

    first, left = translated({})
    assert sorted(drawn) == sorted(["win-rates", "ends", "length", "margins"] * 2)
    assert [f.caption for f in first] == [f.caption for f in checked]
    assert {"How games end", "2 players", "deck empty", "1st"} <= left
    again, left_again = translated({})
    assert len(drawn) == 8 and again == first and left_again == left
    worded, left_worded = translated({"deck empty": "pioche vide"})
    assert len(drawn) == 16 and "deck empty" not in left_worded
    assert ">pioche vide</text>" in worded[1].svg and ">pioche vide</text>" in worded[1].narrow

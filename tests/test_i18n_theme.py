"""The theme's own words, the engine's words and numbers in a translated book: the theme's
catalog is current and German is complete, the German Pigeon Race's PDFs hold none of the
theme's English words (read back from the PDFs' text), its figures none of the engine's, and
its numbers and dates are written the German way; a language without a theme catalog prints
English and says so."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Message
from babel.messages.pofile import read_po
from click.testing import CliRunner
from support import Quiet, cut_off, pigeon_race

from rulepress.build import build_rulebooks
from rulepress.cli import main
from rulepress.i18n.books import TranslatedBooks, TranslationOptions
from rulepress.i18n.theme import extract
from rulepress.paths import templates_dir
from rulepress.words import (
    Words,
    css_content,
    localize_dates,
    localize_numbers,
    ordinal,
    theme_missing,
    theme_msgids,
    theme_words,
)

pytestmark = pytest.mark.slow  # translated books built end to end

SOURCES = Path(__file__).parents[1] / "sources"
LOCALES = templates_dir() / "locales"


def test_the_theme_catalog_is_current_and_german_is_complete() -> None:
    # Every _("...") of the templates and the code is in theme.pot (python -m
    # rulepress.i18n.theme after a word changes), and de.po translates each, none fuzzy.
    # (A plural by its singular, a word with a context as gettext keys it: "kit\x04Printing".)
    def key(m: Message) -> str:
        msgid = m.id if isinstance(m.id, str) else m.id[0]
        return f"{m.context}\x04{msgid}" if m.context else msgid

    assert set(theme_msgids()) == {key(m) for m in extract() if m.id}
    with (LOCALES / "de.po").open("rb") as fh:
        german = {key(m): m for m in read_po(fh) if m.id}
    assert set(german) >= set(theme_msgids())
    assert not [m.id for m in german.values() if not all(
        m.string if isinstance(m.string, tuple) else [m.string]) or m.fuzzy]
    assert any(isinstance(m.id, tuple) for m in german.values())  # the kit's plurals
    assert theme_missing("de") == ()
    assert theme_missing("fr") == theme_msgids()  # no French theme yet: all English


def test_words_numbers_and_dates_follow_the_language() -> None:
    de = theme_words("de")
    assert de("Contents") == "Inhalt" and de("Ruling {number}", number=5) == "Entscheidung 5"
    assert theme_words("fr")("Contents") == "Contents"  # no catalog: English
    assert theme_words("en_GB")("Contents") == "Contents"
    assert [ordinal(n) for n in (1, 2, 3, 11, 22)] == ["1st", "2nd", "3rd", "11th", "22nd"]
    assert [ordinal(n, "de") for n in (1, 11)] == ["1.", "11."]
    assert ordinal(1, "fr") == "1st"  # no French theme: English
    assert localize_numbers("won 61.3% [53.3, 68.7] of 10,000 races; 3C>2,5 moves 6",
                            "de") == ("won 61,3\u00a0% [53,3; 68,7] of 10.000 races; "
                                      "3C>2,5 moves 6")
    assert localize_numbers("won 61.3% of 10,000", "en") == "won 61.3% of 10,000"
    assert localize_dates("Version 1.0, 2026-11-27", "de") == "Version 1.0, 27.11.2026"
    assert localize_dates("2026-11-27", None) == "2026-11-27"
    # The running footer and cross-references, as the print stylesheet's content values.
    pages = {"page": "counter(page)", "pages": "counter(pages)"}
    assert css_content(theme_words(None)("page {page} of {pages}"), pages) == \
        '"page " counter(page) " of " counter(pages)'
    assert css_content(de("page {page} of {pages}"), pages) == \
        '"Seite " counter(page) " von " counter(pages)'
    assert css_content(" " + de("(p.\u00a0{page})"), {"page": "X"}) == '" (S.\\A0" X ")"'


def _theme_pairs() -> list[tuple[str, str]]:
    """(English, German) of every theme message the German catalog says otherwise: each form
    of a plural (against all the German forms), a word with a context by its msgid."""
    with (LOCALES / "de.po").open("rb") as fh:
        catalog = read_po(fh, locale="de")
    pairs = []
    for m in catalog:
        if not m.id or m.fuzzy:
            continue
        english = m.id if isinstance(m.id, tuple) else (m.id,)
        german = " ".join(m.string) if isinstance(m.string, tuple) else m.string
        pairs += [(e, german) for e in english if german and german != e]
    return pairs


def _english_left(text: str) -> set[str]:
    """The theme's English words (those German says otherwise) that ``text`` holds, outside
    quotations (the original rules, quoted in English on purpose)."""
    text = re.sub(r"„[^“]*“", " ", text.replace("\ufffe", "").replace("\u00ad", ""))
    text = re.sub(r"[\w.]+ = ", " ", text)  # the engine notation's claims: data, not words
    found = set()
    for msgid, german in _theme_pairs():
        said = re.sub(r"\{\w+\}", " ", german)
        for chunk in re.split(r"\{\w+\}", msgid):
            chunk = chunk.strip(" ().:,;\u00b7")
            if sum(c.isalpha() for c in chunk) < 4 or chunk in said:
                continue
            spaced = r"\s*".join(map(re.escape, chunk.upper()))
            if re.search(rf"\b(?:{re.escape(chunk)}|{re.escape(chunk.upper())}|{spaced})\b",
                         text):
                found.add(chunk)
    return found


def test_the_english_word_finder_finds_them() -> None:
    said = ("E X A M P L E A red card\nCredits and licence\npage 3 of 11 Ruling 5 (p.\u00a09) "
            "„Players may pass“ Tages")
    assert _english_left(said) == {"Example", "Credits and licence", "Credits", "page", "Ruling"}


@pytest.fixture(scope="module")
def german(german_pigeon_race: tuple[Path, str, list[str]]) -> tuple[Path, list[str]]:
    folder, _, notes = german_pigeon_race
    return folder, notes


def _pdf_text(path: Path) -> str:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(path)
    return "\n".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))


@pytest.mark.parametrize("edition", ["pigeon-race-a4.pdf", "pigeon-race-reference-a4.pdf"])
def test_no_english_theme_word_is_left_in_the_german_books(
        german: tuple[Path, list[str]], edition: str) -> None:
    folder, notes = german
    # Nothing printed in English: no segment, no theme word, no word of a figure.
    assert len(notes) == 1 and re.fullmatch(
        r"pigeon-race de: (\d+)/\1 segments translated, 0 fuzzy", notes[0]), notes
    text = _pdf_text(folder / edition)
    assert _english_left(text) == set()
    assert "Seite 2 von " in text and "Inhalt" in text
    # The components table ends "Was ihr braucht" ("What you need"), as in the English book:
    # no second heading ("Spielmaterial") for the same section.
    assert "Was ihr braucht" in text and "Spielmaterial" not in text
    assert "Version 1.0, 27.11.2026" in text  # the printing's date, the German way
    assert "88,9 × 63,5 mm" in text and "88.9" not in text  # the components' sizes too
    assert "Erste Auflage mit rulepress" in text or "reference" not in edition  # the changelog
    # The board's labels and places, and the facts the prose prints, in German.
    assert "ZIEL" in text and "HOME" not in text and "1." in text
    assert not re.search(r"\b\d+(?:st|nd|rd|th)\b", text)
    assert "Sie ist im Ziel" in " ".join(text.split())
    assert "(p." not in text and "(S.\u00a0" in text.replace(" ", "\u00a0")
    # The credits page's licence and sources in German, as the catalog has them.
    flat = " ".join(text.split())
    assert "Keine Lizenz angegeben; dem Autor zugeschrieben" in flat
    assert "Von Grund auf neu geschrieben" in flat and "designed by" not in flat
    # German breaks, on every page: also on those typeset again after a box taller than a
    # page (the reference edition's playtest report), where "Zu-greihenfolge" was printed.
    assert not re.search(r"Zu\u2010\s*greihenfolge|rü\u2010\s*ckwärts", text)
    # The engine's word fills the sentence itself: no aside "(in der Regel-Engine: ...)".
    assert "geht der Zug rückwärts. Taube zwei" in flat and "(in der Regel-Engine:" not in flat
    # The deal by number of players, not a list that reads as scores ("4 zu 2, 3 zu 3").
    assert "4 Tauben bei 2 Spielerinnen, 3 bei 3, 2 bei 4 bis 6" in flat or "reference" in edition
    assert "4 zu 2, 3 zu 3" not in flat and "zu 2 je 3" not in flat and "zu 4 bis 6" not in flat
    if "reference" in edition:
        # The appendix's engine reasons in the catalog's words, its notation as written.
        assert "reason = die zusätzliche Taube muss eine sein" in flat
        assert "reason = the" not in flat and "legal = false" in flat
        # The playtest report: its plots' words and its numbers the German way.
        # The plots say players as the text does (the game's own German theme words).
        assert "2 Spielerinnen: Median" in flat and not re.search(r"\d players", text)
        assert not re.search(r"\d Spieler\b", flat) and "alle Spieler)" not in flat
        assert re.search(r"\d+,\d\s%", text) and not re.search(r"\d+\.\d%", text)
        # The report's figures filled into the prose are localized once: 10,000 is 10.000.
        assert "wurden 10.000 Rennen gespielt" in " ".join(text.split()) and "10,000" not in text
        assert "Entscheidung 5" in text or "Entscheidung" in text
        # The index lists the rulings by their German titles.
        assert "Ein schwarzer Trumpf (Entscheidung 15)" in text and "Black trump" not in text
        # Collated as German readers expect: articles ignored, umlauts with their base letter.
        page = (folder / "pigeon-race-reference.html").read_text(encoding="utf-8")
        index = page.split('id="rp-index"', 1)[1].split("</ul>", 1)[0]
        order = [re.sub(r"<[^>]+>|\s*\(Entscheidung \d+\)", "", li).strip()
                 for li in re.findall(r"<li>(.*?)</li>", index)]
        assert order.index("Bahnen und Nachbarn") < order.index("Der Gleichstand") \
            < order.index("Kartenwerte") < order.index("Die Trumpfkarte") \
            < order.index("Übrige Karten") < order.index("Zielspalte")


def test_a_language_without_a_theme_catalog_prints_english_and_says_so(
        tmp_path: Path) -> None:
    folder = pigeon_race(tmp_path / "sources")  # its report's first block alone
    (tmp_path / "rulepress.toml").write_text('sources = "sources"\n')
    result = CliRunner().invoke(main, ["translate", "pigeon-race", "--lang", "fr",
                                       "--project", str(tmp_path)])
    assert result.exit_code == 0, result.stderr
    assert "rulepress.toml: added fr to the project's languages (en, fr)" in result.stderr
    assert (tmp_path / "rulepress.toml").read_text() == \
        'sources = "sources"\nlanguages = ["en", "fr"]\n'
    books = TranslatedBooks(TranslationOptions(("fr",), papers=()), pdf=False)
    build_rulebooks(folder.parent, tmp_path / "out", papers=(), reporter=Quiet(), also=[books])
    total = len(theme_msgids())
    # translate made the game's own theme catalog, empty: the summary names it.
    assert f"pigeon-race fr: the theme's words: 0/{total} translated (locales/fr-theme.po), " \
           "the rest in English" in books.notes
    assert f"pigeon-race fr: the theme's words: 0/{total} translated (locales/fr-theme.po)" \
        in result.stderr
    page = (tmp_path / "out" / "pigeon-race" / "fr" / "pigeon-race.html").read_text()
    assert "<h2 class=\"toc-title\" id=\"rp-contents-title\">Contents</h2>" in page
    # No figure word is translated either, and the summary counts them.
    # (a phone's plot wraps the win-rates title, so one of its lines may sort first)
    assert any(re.search(r"fr: \d+ words of the figures untranslated \(.*\b1st, 2 players, ", n)
               for n in books.notes), books.notes
    assert ">HOME</text>" in page and ">1st</text>" in page


def test_export_lang_writes_each_translations_export_beside_the_sources(
        tmp_path: Path) -> None:
    import json

    result = CliRunner().invoke(main, [
        "export", "pigeon-race", "--sources", str(SOURCES), "--out", str(tmp_path), "--to",
        "tts", "--lang", "en", "--lang", "de", "--base-url", "https://example.com/pr/tts/"])
    assert result.exit_code == 0, result.stderr
    made = sorted(p.relative_to(tmp_path).as_posix()
                  for p in tmp_path.glob("pigeon-race/**/*.json"))
    assert made == ["pigeon-race/de/tts/pigeon-race.json", "pigeon-race/tts/pigeon-race.json"]

    def names(path: str) -> tuple[set[str], str]:
        saved = (tmp_path / path).read_text()
        urls = re.findall(r'"FaceURL": "([^"]+)"', saved)
        objects = json.loads(saved)["ObjectStates"]
        return {o["Nickname"] for o in objects}, urls[0]

    german, url = names("pigeon-race/de/tts/pigeon-race.json")
    english, source_url = names("pigeon-race/tts/pigeon-race.json")
    assert "Wertungskarte" in german and "Scoring card" not in german
    assert "Scoring card" in english
    assert url.startswith("https://example.com/pr/tts/de/") and "/de/" not in source_url
    # The scoring card's rows, from the engine's table, say 1. (not 1st) in German.
    from rulepress.document.reader import read_document
    from rulepress.games.pigeon_race import ENGINE
    from rulepress.i18n.apply import read_catalog, translated
    from rulepress.pnp.faces import Art

    doc = read_document(SOURCES / "pigeon-race" / "rules.md")
    tables = ENGINE.tables()
    german_tables = Art(translated(doc, read_catalog(doc, "de"), "en"), tables).tables
    assert [r["place"] for r in german_tables["scores"]] == ["1.", "2.", "3.", "4.", "5.", "6."]
    assert set(german_tables["scores"][0]) == set(tables["scores"][0])  # fields as named
    assert Art(doc, tables).tables["scores"][0]["place"] == "1st"


def test_a_plot_title_wrapped_for_a_phone_is_translated_whole_and_wrapped_again() -> None:
    from rulepress.i18n.engine import translate_svg, word_translator

    lines = ["Win rate of each agent's", "seats, 95% intervals", "(dashed: an even share)"]
    svg = "<svg><g>\n" + "".join(f'<text x="{i}">{line}</text>\n'
                                 for i, line in enumerate(lines)) + "</g></svg>"
    left: set[str] = set()
    german = translate_svg(svg, word_translator({}, "de"), left)
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", german)
    assert left == set() and len(texts) == 3
    whole = " ".join(texts)
    assert "Win rate" not in whole and whole == word_translator({}, "de")(" ".join(lines))


def _kit_text(pdf: bytes) -> tuple[str, str]:
    """A kit's text (pages joined, each line's words single-spaced) and its /Lang."""
    import io

    import pypdfium2 as pdfium
    from pypdf import PdfReader

    doc = pdfium.PdfDocument(pdf)
    text = "\n".join(" ".join(doc[i].get_textpage().get_text_range().split())
                     for i in range(len(doc)))
    return text, str(PdfReader(io.BytesIO(pdf)).trailer["/Root"].get("/Lang", ""))


def test_the_german_pigeon_race_kit_says_every_word_of_rulepress_in_german(
        tmp_path: Path) -> None:
    from support import Quiet

    from rulepress.build import build_kits
    from rulepress.i18n.kits import TranslatedKitOptions, TranslatedKits

    kits = TranslatedKits(TranslatedKitOptions(papers=("a4",), langs=("de",)))
    build_kits(SOURCES, tmp_path, games=("pigeon-race",), papers=("a4",), reporter=Quiet(),
               source=False, also=[kits])
    text, lang = _kit_text((tmp_path / "pigeon-race" / "de" / "pigeon-race-a4.pdf").read_bytes())
    assert lang == "de"
    assert _english_left(text) == set()
    # The cover: its mode, a measure with a decimal comma, the plural of its sheets, its steps.
    for said in ("Bastelbogen, Papier A4, einseitig", "88,9 × 63,5 mm", "Spielmaterial",
                 "Dieser Bogen: 6 Blätter Papier A4.", "Schneiden und Falten", "Druckertest",
                 "Zusammenbau: Rennplan", "Blatt 2 von 6", "Kachel A1"):
        assert said in text, said
    assert "sheet" not in text and "Print" not in text
    # The board the engine's drawer prints: its words and places from the game's catalog.
    assert "ZIEL" in text and "HOME" not in text
    assert not re.search(r"\b\d+(?:st|nd|rd|th)\b", text)
    # The standees' colour labels, drawn by the engine's code, from the catalog too.
    assert {"ROT", "GRÜN", "GELB", "BLAU", "LILA"} <= set(text.split())
    assert not {"RED", "GREEN", "YELLOW", "BLUE", "PURPLE"} & set(text.split())
    # The tip slip's counts stay whole on a line: "4–6 Spielerinnen: 2", never "4 · 3" then
    # "Spielerinnen: 3" on the next.
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(tmp_path / "pigeon-race" / "de" / "pigeon-race-a4.pdf")
    raw = "\n".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    assert "4–6 Spielerinnen: 2" in text and not re.search(r"· \d+\s*\n\s*Spielerinnen", raw)


def test_a_kit_plural_takes_the_form_its_language_chooses() -> None:
    from rulepress.words import Words

    one, many = "This kit: {n} sheet of {paper} paper.", "This kit: {n} sheets of {paper} paper."
    de, en = Words("de"), Words(None)
    assert de.ngettext(one, many, 1, paper="A4") == "Dieser Bogen: 1 Blatt Papier A4."
    assert de.ngettext(one, many, 2, paper="A4") == "Dieser Bogen: 2 Blätter Papier A4."
    assert en.ngettext(one, many, 1, paper="A4") == "This kit: 1 sheet of A4 paper."
    assert en.ngettext(one, many, 0, paper="A4") == "This kit: 0 sheets of A4 paper."
    assert Words("fr").ngettext(one, many, 1, paper="A4") == "This kit: 1 sheet of A4 paper."
    assert (de.number(63.5), en.number(63.5), de.number(1000)) == ("63,5", "63.5", "1.000")
    assert de.pgettext("kit", "Printing") == "Drucken" and de("Printing") == "Auflage"


@pytest.mark.parametrize("sides", ["two", "one"])
def test_a_german_two_sided_kit_with_backs_and_tiles_is_german_too(sides: str) -> None:
    # The fixture game has backs (the printer check's back, the backs' footers), a tiled
    # board (glue strips, the assembly map) and pieces; only its language is changed.
    from dataclasses import replace

    from fixtures.pnp import fixture_game as G  # tests/ is on sys.path (conftest.py)

    from rulepress.document.model import Language
    from rulepress.pnp.kit import Options, build_kit

    doc = replace(G.standard(), language=Language("de", "en", {}))
    kit = build_kit(doc, G.DRAWERS, "a4", options=Options(sides=sides, duplex="short"))
    text, lang = _kit_text(kit.pdf)
    # The fixture's own words (its drawers' "tile 1/5" and "BACK", a component's name) are
    # the game's ("back" is a theme word too since the faces page says it).
    game = re.sub(r"\b(?:card|coin|tile|board|big) \d+/\d+|Rule sheet|\bBACK\b", " ", text)
    assert lang == "de" and _english_left(game) == set()
    if sides == "two":
        for said in ("Druckertest, Rückseite", "an der kurzen Kante", "Rückseiten:",
                     "KLEBEN: Kachel", "Die Rückseiten liegen hinter ihren Vorderseiten"):
            assert said in text, said
    else:
        assert "Faltteile" in text and "einseitig" in text
    english = build_kit(G.standard(), G.DRAWERS, "a4", options=Options(sides=sides))
    assert "Printer check" in _kit_text(english.pdf)[0] and not _kit_text(english.pdf)[1]


def test_the_german_figures_titles_are_german(german: tuple[Path, list[str]]) -> None:
    # What a screen reader says for each board (its SVG <title>), from the engine's words in
    # the game's catalog: the card, the pigeons moved, where every pigeon stands.
    folder, _ = german
    titles = [t for page in ("pigeon-race.html", "pigeon-race-reference.html")
              for t in re.findall(r"<svg\b.*?<title>([^<]*)</title>",
                                  (folder / page).read_text(), re.S)]
    assert len(titles) >= 20
    english = [t for t in titles if re.search(r"\b(?:board|pigeons?|square|on|of|the)\b", t)]
    assert english == []
    said = " ".join(titles)
    assert "Herz-Sechs auf Tauben 2 und 4 gespielt. Taube 1 auf Feld 3;" in said
    assert "Der Rennplan am Ende des Rennens. Taube 1 als 1. im Ziel;" in said
    assert "Taube 6 an der Startlinie." in said


def test_the_german_books_plots_are_drawn_in_german_and_fit_their_words(
        german: tuple[Path, list[str]]) -> None:
    # The reference edition's playtest plots, a page wide and for a phone: drawn with their
    # German words, so none runs past its plot's edge (as "...pielerinnen" did on p. 19,
    # where the English drawing's labels had been replaced after it was laid out).
    folder, _ = german
    page = (folder / "pigeon-race-reference.html").read_text(encoding="utf-8")
    plots = [svg for figure in re.findall(
        r'<figure data-stage="example-(?:playtest|ladder)-fig\d+">(.*?)</figure>', page, re.S)
        for svg in re.findall(r"<svg\b.*?</svg>", figure, re.S)]
    assert len(plots) == 10  # five plots, each twice
    for svg in plots:
        assert cut_off(svg) == [], svg[:200]
    texts = " ".join(re.findall(r"<text\b[^>]*>([^<]*)</text>", " ".join(plots)))
    assert "2 Spielerinnen" in texts and "Wie Partien enden" in texts and "Gierig" in texts
    assert not re.search(r"\b(?:players|How games|greedy|deck empty)\b|\d\.\d", texts)


def test_a_text_whose_numbers_alone_were_localized_is_not_counted_translated() -> None:
    from rulepress.i18n.engine import translate_svg, word_translator

    tr = word_translator({"home": "im Ziel"}, "de")
    assert tr("home") == "im Ziel" and tr("61.3%") == "61,3\u00a0%" and tr("3") is None
    # English words with a localized number: no translation exists, so none is claimed.
    assert tr("won 61.3% of races") is None
    assert tr("2 players") == "2 Spieler"  # the theme's words, the number filled in
    left: set[str] = set()
    svg = translate_svg("<svg><text>won 61.3% of races</text><text>home</text></svg>", tr,
                        left, "de")
    assert left == {"won 61.3% of races"}
    assert "<text>won 61,3\u00a0% of races</text>" in svg  # shown in German format all the same
    assert "<text>im Ziel</text>" in svg


def test_an_engine_drawer_says_the_translations_words_on_any_canvas() -> None:
    # As `export --lang de` draws a face (a plain ReportLab canvas), not only the kit.
    import io

    from reportlab.pdfgen.canvas import Canvas

    from rulepress.document.reader import read_document
    from rulepress.games.pigeon_race import ENGINE
    from rulepress.i18n.apply import read_catalog, translated
    from rulepress.pnp.api import Face
    from rulepress.pnp.faces import Art
    from rulepress.pnp.fonts import register_fonts
    from rulepress.pnp.kit import side_drawer

    register_fonts()
    source = read_document(SOURCES / "pigeon-race" / "rules.md")
    said = []
    for doc in (source, translated(source, read_catalog(source, "de"), "en")):
        board = next(c for c in doc.meta.components if c.id == "board")
        assert board.size is not None
        draw = side_drawer(board, False, ENGINE.drawers(), Art(doc, ENGINE.tables()), [])
        assert draw is not None
        buf = io.BytesIO()
        c = Canvas(buf)
        draw(c, Face(0, 1, *board.size.points, 0.0))
        assert "drawString" not in c.__dict__  # the canvas as it was, after the face
        c.save()
        text, _ = _kit_text(buf.getvalue())
        said.append(text)
    assert "HOME" in said[0] and "1st" in said[0] and "ZIEL" not in said[0]
    assert "ZIEL" in said[1] and "1." in said[1] and "HOME" not in said[1]


def test_an_empty_text_stays_empty_in_every_language() -> None:
    # gettext's lookup of "" is the catalog's header; no printed text may become it.
    assert theme_words("de")("") == ""
    assert Words("de").pgettext("kit", "") == ""


def test_a_games_own_word_replaces_rulepress_s_in_a_language_rulepress_ships(
        tmp_path: Path) -> None:
    # Pigeon Race's German text says "Spielerinnen"; rulepress's German says "Spieler".
    (tmp_path / "locales").mkdir()
    (tmp_path / "locales" / "de-theme.po").write_text(
        'msgid ""\nmsgstr ""\n"Language: de\\n"\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
        'msgid "{n} players"\nmsgstr "{n} Spielerinnen"\n\nmsgid "Contents"\nmsgstr ""\n',
        encoding="utf-8")
    _ = theme_words("de", tmp_path)
    assert _("{n} players", n=2) == "2 Spielerinnen"
    assert _("Contents") == "Inhalt"  # left empty in the game's: rulepress's word
    assert theme_words("de")("{n} players", n=2) == "2 Spieler"

"""Translations from PO catalogs: the template and msgmerge-like update of `rulepress translate`,
a round trip that leaves a book as it was, the checks at the catalog's lines, and the German
Pigeon Race proven and complete."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from click.testing import CliRunner
from support import Quiet, pigeon_race

from rulepress.build import build_rulebooks
from rulepress.cli import main
from rulepress.document.reader import read_document
from rulepress.i18n.apply import read_catalog
from rulepress.i18n.books import TranslatedBooks, TranslationOptions
from rulepress.i18n.catalog import dump, load, template
from rulepress.i18n.engine import engine_segments
from rulepress.i18n.segments import segments

pytestmark = pytest.mark.slow  # translated books built end to end

SOURCES = Path(__file__).parents[1] / "sources"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A copy of Pigeon Race without its German catalog, in a sources folder of its own (its
    playtest report the first block alone: these tests are of the catalog)."""
    return pigeon_race(tmp_path / "sources")


def translate(folder: Path, lang: str = "de") -> str:
    result = CliRunner().invoke(main, ["translate", folder.name, "--lang", lang,
                                       "--sources", str(folder.parent)])
    assert result.exit_code == 0, result.stderr
    return result.stderr


def po(folder: Path, lang: str = "de") -> list[tuple[str, str, bool, list[str]]]:
    """(msgid, msgstr, fuzzy, previous msgid) of each current message."""
    catalog = load(folder / "locales" / f"{lang}.po", lang)
    return [(m.id, m.string, m.fuzzy, m.previous_id) for m in catalog if m.id]


def test_translate_writes_a_template_and_a_catalog_with_references(game: Path) -> None:
    said = translate(game)
    assert re.search(r"pigeon-race de: 0/\d+ segments translated, 0 fuzzy, 0 obsolete", said)
    pot = (game / "locales" / "pigeon-race.pot").read_text()
    rules = (game / "rules.md").read_text().split("\n")
    # Each reference names the line the segment starts on (an example's prose: its text key);
    # an engine's word, the front matter's engine: line.
    for m in read_po(io.StringIO(pot)):
        if m.auto_comments and m.auto_comments[0].startswith("engine word"):
            assert [m.locations[0][0], rules[m.locations[0][1] - 1]] == [
                "rules.md", "engine: pigeon_race"], m.id
            continue
        for file, line in m.locations:
            near = "\n".join(rules[line - 1:line + 2]) if file == "rules.md" else None
            if near is not None:
                assert m.id.split("\n")[0][:12] in near or "text: |" in near, (line, m.id)
    assert '#. example prose\n#: rules.md:' in pot
    assert '#. table cell' in pot and '#. heading' in pot and '#. component name' in pot
    # The changelog's version note, at its line of the front matter.
    assert '#. version note\n#: rules.md:14\nmsgid "First rulepress printing"' in pot
    before = (game / "locales" / "de.po").read_bytes()
    translate(game)
    assert (game / "locales" / "de.po").read_bytes() == before  # a second run changes nothing


def test_a_changed_paragraph_makes_exactly_its_entry_fuzzy(game: Path) -> None:
    translate(game)
    path = game / "locales" / "de.po"
    text = path.read_text()
    # Translate everything as itself, then change one paragraph of the source.
    catalog = read_po(io.StringIO(text))
    for m in catalog:
        if m.id:
            m.string = f"DE {m.id}"
    path.write_bytes(dump(catalog))
    rules = game / "rules.md"
    old = "Play goes clockwise."
    rules.write_text(rules.read_text().replace(old, "Play goes counter-clockwise.", 1))
    gone = "Discard, draw one card."
    rules.write_text(rules.read_text().replace(f"5. {gone}\n", "", 1))
    said = translate(game)
    entries = po(game)
    fuzzy = [(i, s, prev) for i, s, f, prev in entries if f]
    assert len(fuzzy) == 1
    msgid, string, previous = fuzzy[0]
    assert "counter-clockwise" in msgid and "DE " in string and old in previous[0]
    assert all(s == f"DE {i}" for i, s, f, _ in entries if not f)
    assert ", 1 fuzzy, 1 obsolete" in said
    assert f'#~ msgid "{gone}"' in path.read_text()


def test_a_round_trip_through_the_catalog_leaves_the_book_byte_identical(
        game: Path, tmp_path: Path) -> None:
    """Every entry translated as itself: the translated book is the source's, but for its
    language and its links."""
    translate(game, "en_GB")
    path = game / "locales" / "en_GB.po"
    catalog = read_po(io.StringIO(path.read_text()))
    for m in catalog:
        if m.id:
            m.string = m.id
    path.write_bytes(dump(catalog))
    out = tmp_path / "out"
    books = TranslatedBooks(TranslationOptions(("en_GB",), papers=()), pdf=False)
    build_rulebooks(game.parent, out, papers=(), reporter=Quiet(), also=[books])
    assert re.search(r"en_GB: (\d+)/\1 segments translated, 0 fuzzy", books.notes[0])
    for name in ("pigeon-race.html", "pigeon-race-reference.html"):
        source = (out / "pigeon-race" / name).read_text()
        copy = (out / "pigeon-race" / "en_GB" / name).read_text()
        assert 'lang="en-GB"' in copy and "data-untranslated" not in copy
        body = re.compile(r"<body>.*?</header>(.*)</body>", re.S)
        main_of = body.search(source)
        assert main_of is not None
        assert body.search(copy).group(1) == main_of.group(1)  # type: ignore[union-attr]


def test_a_translators_wrong_number_fails_at_the_po_line(game: Path) -> None:
    translate(game)
    path = game / "locales" / "de.po"
    text = path.read_text()
    # "moves as many squares as the card's value" is fine; give a table cell another number,
    # and make an example's prose print a number of its own.
    text = text.replace('msgid "2 to 10"\nmsgstr ""', 'msgid "2 to 10"\nmsgstr "2 bis 9"')
    text = re.sub(r'(msgid ""\n"Ann plays the king of hearts[^\n]*\n(?:"[^\n]*\n)*)msgstr ""',
                  r'\1msgstr "Ann spielt den König: 13 Felder, {{ claims.moved[3] }}, '
                  r'{{ claims.positions[3] }} {{ claims.moved[3] }} {{ claims.push[0] }} '
                  r'{{ claims.positions[2] }} {{ claims.positions[4] }}."', text)
    path.write_text(text)
    lines = text.split("\n")
    cell = lines.index('msgid "2 to 10"') + 1
    prose = next(n for n, ln in enumerate(lines, 1) if ln.startswith('"Ann plays the king')) - 1
    (game.parent.parent / "rulepress.toml").write_text('languages = ["en", "de"]\n')
    result = CliRunner().invoke(main, ["check", "--project", str(game.parent.parent)])
    assert result.exit_code == 2
    assert f"locales/de.po:{cell}:1: error: the translation drops 10 and adds 9 (numbers must " \
           "stay as in the source)" in result.stderr
    assert f"locales/de.po:{prose}:1: error: the translation adds 13 (numbers must stay as in " \
           "the source)" in result.stderr


def test_strict_makes_an_untranslated_segment_an_error(game: Path, tmp_path: Path) -> None:
    translate(game)
    result = CliRunner().invoke(main, ["build", "--sources", str(game.parent), "--out",
                                       str(tmp_path / "out"), "--lang", "de", "--no-pdf",
                                       "--strict"])
    assert result.exit_code == 2
    assert re.search(r"locales/de\.po:\d+:1: error: de: untranslated: heading at rules\.md:\d+",
                     result.stderr)
    assert not (tmp_path / "out").exists()
    result = CliRunner().invoke(main, ["build", "--sources", str(game.parent), "--out",
                                       str(tmp_path / "out"), "--lang", "de", "--no-pdf"])
    assert result.exit_code == 0, result.stderr
    assert re.search(r"pigeon-race de: 0/\d+ segments translated, 0 fuzzy", result.stderr)
    page = (tmp_path / "out" / "pigeon-race" / "de" / "pigeon-race.html").read_text()
    assert 'lang="de"' in page and '<p lang="en" data-untranslated="">' in page


def test_the_german_pigeon_race_is_complete_and_proven(
        german_pigeon_race: tuple[Path, str, list[str]]) -> None:
    doc = read_document(SOURCES / "pigeon-race" / "rules.md")
    catalog = read_catalog(doc, "de")
    total, used, fuzzy = catalog.counts()
    assert (used, fuzzy) == (total, 0) and total > 150
    # The committed template is the one the sources make now (rerun translate after an edit).
    assert (SOURCES / "pigeon-race" / "locales" / "pigeon-race.pot").read_bytes() == dump(
        template(doc, segments(doc) + engine_segments(doc, None)))
    folder, summary, notes = german_pigeon_race  # as `make` builds it, with every book
    assert re.search(r"\b\d+ examples proven, 0 warnings, 0 errors", summary), summary
    assert notes == [f"pigeon-race de: {total}/{total} segments translated, 0 fuzzy"]
    page = (folder / "pigeon-race-reference.html").read_text()
    assert "data-untranslated" not in page and "Taubenrennen" in page
    assert "Zu dritt bekommt jede 2 Tauben ausgeteilt und wählt 1 weitere." in " ".join(
        page.split())
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(folder / "pigeon-race-a4.pdf")
    text = "".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    assert "Gespielt wird im Uhrzeigersinn." in text and "Play goes clockwise" not in text
    assert len(pdf) <= 11  # the player budget (10 A4 pages, test_book_pages.py) + 15 %


def test_the_german_kit_prints_the_german_rules_and_texts(tmp_path: Path) -> None:
    from rulepress.build import build_kits
    from rulepress.i18n.kits import TranslatedKitOptions, TranslatedKits

    kits = TranslatedKits(TranslatedKitOptions(papers=("a4",), langs=("de",)))
    built = build_kits(SOURCES, tmp_path, games=("pigeon-race",), papers=("a4",),
                       reporter=Quiet(), source=False, also=[kits])
    assert [p.relative_to(tmp_path).as_posix() for p in built.written] == [
        "pigeon-race/de/pigeon-race-a4.pdf"]
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(tmp_path / "pigeon-race" / "de" / "pigeon-race-a4.pdf")
    text = " ".join(" ".join(pdf[i].get_textpage().get_text_range().split())
                    for i in range(len(pdf)))
    # The slip's and scoring card's own words, and the Quick reference the player aid quotes.
    for words in ("Mein geheimer Tipp", "1. Platz", "Zeilen: wohin du die Taube getippt hast.",
                  "Dein Zug. 1. Spiele eine Karte auf eine Taube",
                  "Das Ende. Das Rennen endet mit der dritten Taube im Ziel"):
        assert words in text, words
    assert "My secret order" not in text and "Your turn" not in text


def test_a_version_note_is_translated_or_falls_back_and_is_counted(game: Path) -> None:
    from dataclasses import replace

    from rulepress.i18n.apply import translated

    translate(game)
    doc = read_document(game / "rules.md")
    catalog = read_catalog(doc, "de")
    total, used, _ = catalog.counts()
    assert used == 0 and total == len({s.text for s in catalog.segments})
    # Untranslated: printed as written, and counted among the untranslated segments.
    assert translated(doc, catalog, "en").meta.versions[0].summary == "First rulepress printing"
    assert any("version note" in d.message for d in catalog.missing())
    entries = dict(catalog.entries)
    entries["First rulepress printing"] = replace(entries["First rulepress printing"],
                                                  string="Erste Auflage mit rulepress")
    german = translated(doc, replace(catalog, entries=entries), "en")
    assert german.meta.versions[0].summary == "Erste Auflage mit rulepress"
    assert replace(catalog, entries=entries).counts()[1] == 1


def test_a_translator_gives_a_term_its_own_sort_key_in_the_catalog(tmp_path: Path) -> None:
    """The German catalog's :dfn[Startlinie]{... sort="Linie, Start"}: the German index lists
    it under L; the English book has no key, and sorts its "start line" by its words."""
    folder = pigeon_race(tmp_path / "sources", locales=True)
    po = folder / "locales" / "de.po"
    text = po.read_text(encoding="utf-8")
    assert text.count('Feld 1.\\"}') == 1
    po.write_text(text.replace('Feld 1.\\"}', 'Feld 1.\\" sort=\\"Linie, Start\\"}'),
                  encoding="utf-8")
    out = tmp_path / "out"
    books = TranslatedBooks(TranslationOptions(("de",), papers=()), pdf=False)
    build_rulebooks(folder.parent, out, papers=(), reporter=Quiet(), also=[books])

    def index(page: Path) -> list[str]:
        html = page.read_text(encoding="utf-8").split('id="rp-index"', 1)[1]
        return [re.sub(r"<[^>]+>|\s*\((?:Entscheidung|Ruling) \d+\)|\u00ad", "", li).strip()
                for li in re.findall(r"<li>(.*?)</li>", html.split("</section>", 1)[0], re.S)]

    german = index(out / "pigeon-race" / "de" / "pigeon-race-reference.html")
    many = "Mehrere Tauben in einem Zug im Ziel"
    assert german.index("Kein Passen") < german.index("Startlinie") < german.index(many)
    assert german.index("Startfeld") + 1 == german.index("Tauben im Ziel")  # its old place
    english = index(out / "pigeon-race" / "pigeon-race-reference.html")
    assert english.index("start box") + 1 == english.index("start line")
    assert "sort=" not in (out / "pigeon-race" / "de" / "pigeon-race-reference.html").read_text()

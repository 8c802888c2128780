"""A project in a language rulepress ships no theme for: Minnows, a small card game from a CSV,
translated into French with its own catalogs (tests/fixtures/french). Its French book, kit and
export print no English word of the theme or the cards when every entry is filled; check
fails on a dropped number; a changed card reprints alone in each language."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from babel.messages.pofile import read_po
from click.testing import CliRunner

from rulepress.cli import main
from rulepress.diagnostics import SourceLoc
from rulepress.document.rows import read_csv
from rulepress.words import theme_msgids

FIXTURE = Path(__file__).parent / "fixtures" / "french"
GAME = "minnows"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURE, tmp_path / "project")
    return tmp_path / "project"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stderr


def pdf_text(path: Path) -> str:
    pdf = pdfium.PdfDocument(path)
    return " ".join(" ".join(pdf[i].get_textpage().get_text_range().split())
                    for i in range(len(pdf)))


def cards(folder: Path) -> list[dict[str, str]]:
    rows, problems = read_csv(folder, "data/cards.csv", SourceLoc(folder / "rules.md", 1))
    assert not problems
    return [dict(r.fields) for r in rows]


def test_translate_lists_each_printed_card_text_at_its_row_with_its_column(
        project: Path) -> None:
    game = project / "sources" / GAME
    committed = (game / "locales" / f"{GAME}.pot").read_bytes()
    code, said = run("translate", "--project", str(project))
    assert code == 0, said
    assert "minnows fr: 30/30 segments translated, 0 fuzzy, 0 obsolete" in said
    # The committed template is what the sources make now.
    assert (game / "locales" / f"{GAME}.pot").read_bytes() == committed
    pot = {(m.context, m.id): m for m in read_po(io.BytesIO(committed)) if m.id}
    assert pot["deck.name", "Minnow"].locations == [("data/cards.csv", 2)]
    assert pot["deck.text", "Eats every Minnow."].locations == [("data/cards.csv", 7)]
    assert pot["deck.pond", "Still pond"].locations == [
        ("data/cards.csv", 2), ("data/cards.csv", 3), ("data/cards.csv", 4)]
    assert pot["deck.name", "Minnow"].auto_comments == ["card data"]
    # Only what a layout prints: the value (a number) and qty are no segments.
    assert {c for c, _ in pot if c} == {"deck.name", "deck.pond", "deck.text"}


def test_check_fails_on_a_dropped_number_in_every_language_it_is_asked(project: Path) -> None:
    po = project / "sources" / GAME / "locales" / "fr.po"
    text = po.read_text()
    assert "distribuez-en 3 à chaque" in text
    po.write_text(text.replace("distribuez-en 3 à chaque", "distribuez-en à chaque"))
    line = text.split("\n").index('msgstr "Mélangez les 6 cartes et distribuez-en 3 à chaque '
                                  'joueur."')
    problem = (f"locales/fr.po:{line}:1: error: the translation drops 3 (numbers must stay as "
               "in the source)")
    code, said = run("check", "--project", str(project))
    assert code == 2 and problem in said
    # A project that names only its source language: check --lang fr checks French.
    (project / "rulepress.toml").write_text('sources = "sources"\n')
    code, said = run("check", "--project", str(project))
    assert code == 0, said
    code, said = run("check", "--project", str(project), "--lang", "fr")
    assert code == 2 and problem in said


def test_the_french_kit_prints_the_cards_in_french(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "pnp"
    code, said = run("pnp", "--project", str(project), "--paper", "a4", "--out", str(out))
    assert code == 0, said
    french = pdf_text(out / GAME / "fr" / f"{GAME}-a4.pdf")
    english = pdf_text(out / GAME / f"{GAME}-a4.pdf")
    for row in cards(project / "sources" / GAME):
        for column in ("name", "pond", "text"):
            assert row[column] in english
            assert not re.search(rf"\b{re.escape(row[column])}(?!\w)", french), row[column]
    for words in ("Vairon", "Étang calme", "Mange tous les Vairons.", "Carte poisson",
                  "Résumé du tour"):
        assert words in french


def english_theme_words() -> list[str]:
    """The theme's words the French catalog says otherwise, whole sentences or words of more
    than five letters without placeholders: none may be left in a French output."""
    own = FIXTURE / "sources" / GAME / "locales" / "fr-theme.po"
    french = {(m.id if isinstance(m.id, str) else m.id[0]): m.string
              for m in read_po(io.BytesIO(own.read_bytes())) if m.id}
    return [w for w in (k.split("\x04")[-1] for k in theme_msgids())
            if "{" not in w and len(w) > 5 and french.get(w) not in (None, w)]


def test_the_french_book_kit_and_export_print_no_english_theme_word_or_card_text(
        project: Path, tmp_path: Path) -> None:
    build, pnp = tmp_path / "build", tmp_path / "pnp"
    code, said = run("build", "--project", str(project), "--paper", "a4", "--out", str(build),
                     "--strict")
    assert code == 0, said
    assert "minnows fr: 30/30 segments translated, 0 fuzzy" in said
    assert "the theme's words" not in said  # nothing of it left in English
    code, said = run("translate", "--project", str(project))
    total = len(theme_msgids())
    assert f"minnows fr: the theme's words: {total}/{total} translated (locales/fr-theme.po)" \
        in said
    code, said = run("pnp", "--project", str(project), "--paper", "a4", "--out", str(pnp),
                     "--lang", "fr")
    assert code == 0, said
    code, said = run("export", GAME, "--project", str(project), "--to", "tts", "--out",
                     str(pnp), "--lang", "fr")
    assert code == 0, said
    page = re.sub(r"<style.*?</style>", " ", (build / GAME / "fr" / f"{GAME}.html").read_text(),
                  flags=re.S)
    html = re.sub(r"<[^>]+>", " ", page)
    texts = {"book": pdf_text(build / GAME / "fr" / f"{GAME}-a4.pdf"),
             "reference": pdf_text(build / GAME / "fr" / f"{GAME}-reference-a4.pdf"),
             "page": " ".join(html.split()),
             "kit": pdf_text(pnp / GAME / "fr" / f"{GAME}-a4.pdf"),
             "export": (pnp / GAME / "fr" / "tts" / f"{GAME}.json").read_text()}
    words = english_theme_words()
    assert {"Contents", "Players", "Duration", "Printer check", "Components"} <= set(words)
    for what, text in texts.items():
        for word in words:
            assert not re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text), (what, word)
    for word in ("Sommaire", "JOUEURS", "page 2 sur 4", "Mise en place", "Aide-mémoire"):
        assert word in texts["book"], word
    for word in ("Test d’impression", "Ce kit : 2 feuilles de papier A4.", "feuille 2 sur 2",
                 "Vairon", "Mange tous les Vairons."):
        assert word in texts["kit"], word
    assert '"Nickname": "Cartes poisson"' in texts["export"]
    for row in cards(project / "sources" / GAME):
        for column in ("name", "pond", "text"):
            for what in ("kit", "page"):
                assert not re.search(rf"\b{re.escape(row[column])}(?!\w)", texts[what])
    # The components table sits before "Mise en place", as the English one before "Setup".
    book = texts["book"]
    assert book.index("Ce qu’il faut pour jouer") < book.index("Mise en place Mélangez")


def test_strict_makes_a_theme_word_left_in_english_an_error(project: Path,
                                                            tmp_path: Path) -> None:
    theme = project / "sources" / GAME / "locales" / "fr-theme.po"
    theme.write_text(theme.read_text().replace('msgstr "Sommaire"', 'msgstr ""'))
    out = tmp_path / "build"
    code, said = run("build", "--project", str(project), "--no-pdf", "--out", str(out))
    assert code == 0, said
    total = len(theme_msgids())
    assert f"minnows fr: the theme's words: {total - 1}/{total} translated " \
           "(locales/fr-theme.po), the rest in English" in said
    assert "Contents" in (out / GAME / "fr" / f"{GAME}.html").read_text()
    code, said = run("build", "--project", str(project), "--no-pdf", "--out", str(out),
                     "--strict")
    assert code == 2
    assert "locales/fr-theme.po:1:1: error: fr: 1 of the theme's words print in English " \
           "('Contents', ...)" in said


def test_a_changed_card_reprints_alone_in_each_language(project: Path, tmp_path: Path) -> None:
    """Trout's text changed in English (and its French with it); Perch's French alone: the
    English reprint holds Trout, the French one Trout and Perch, and no other card."""
    old = tmp_path / "old"
    shutil.copytree(project, old)
    game = project / "sources" / GAME
    csv = game / "data" / "cards.csv"
    csv.write_text(csv.read_text().replace("Jumps upstream.", "Leaps upstream."))
    po = game / "locales" / "fr.po"
    po.write_text(po.read_text().replace('msgstr "Nage seule."', 'msgstr "Nage en solitaire."')
                  .replace('msgid "Jumps upstream."\nmsgstr "Saute à contre-courant."',
                           'msgid "Leaps upstream."\nmsgstr "Bondit à contre-courant."'))
    out = tmp_path / "pnp"
    code, said = run("pnp", "--project", str(project), "--paper", "a4", "--changed-since",
                     str(old), "--out", str(out))
    assert code == 0, said
    made = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.pdf"))
    assert [m.split("-changed-since")[0] for m in made] == [
        "minnows/fr/minnows-a4", "minnows/minnows-a4"]
    english, french = (pdf_text(out / m) for m in reversed(made))
    assert "Leaps upstream." in english and "Trout" in english
    assert "Bondit à contre-courant." in french and "Nage en solitaire." in french
    names = {"Minnow": "Vairon", "Perch": "Perche", "Carp": "Carpe", "Trout": "Truite",
             "Eel": "Anguille", "Pike": "Brochet"}
    assert [n for n in names if re.search(rf"\b{n}\b", english)] == ["Trout"]
    assert [n for n, f in names.items() if re.search(rf"\b{f}\b", french)] == ["Perch", "Trout"]


def test_diff_writes_an_errata_sheet_in_each_language(project: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A French rule reworded and Perch's French changed, the English untouched: the English
    sheet has no errata, the French one names the rule, in French, and the card; every page of
    it in French, its detail pages too."""
    old = tmp_path / "old"
    shutil.copytree(project, old)
    po = project / "sources" / GAME / "locales" / "fr.po"
    po.write_text(po.read_text().replace('msgstr "Nage seule."', 'msgstr "Nage en solitaire."')
                  .replace("distribuez-en 3 à chaque joueur", "donnez-en 3 à chaque joueur"))
    out = tmp_path / "build"
    monkeypatch.chdir(tmp_path)  # the old side named "old" in the sheet's name
    code, said = run("diff", "old", "--project", str(project), "--paper", "a4", "--out",
                     str(out), "--strict")
    assert code == 0, said
    assert "minnows fr: 30/30 segments translated, 0 fuzzy" in said
    name = "minnows-errata-old-working"
    english = (out / GAME / "errata" / f"{name}.html").read_text()
    page = (out / GAME / "fr" / "errata" / f"{name}.html").read_text()
    french = " ".join(re.sub(r"<[^>]+>", " ", re.sub(r"<style.*?</style>", " ", page,
                                                     flags=re.S)).split())
    assert "There are no errata." in " ".join(english.split())
    # Its plain-words page in French, from the project's theme catalog.
    assert "Mise en place : dans « Mélangez les 6 cartes et distribuez-en 3 à ... », " \
           "« distribuez-en » devient « donnez-en »." in french
    assert "Si vous avez old : imprimez ou demandez de nouveaux exemplaires de Cartes poisson " \
           "(recto de la ligne 2 (Perche)) ; tout le reste ne change pas." in french
    assert "De old à version de travail de Vairons : 1 règle modifiée; 1 élément modifié." \
        in french and "En clair" in french and '<html lang="fr">' in page
    # The pages after it: the rule and the card, their headings, places and sides in French.
    assert "Règles Mise en place : Mélangez les 6 cartes et donnez-en 3 à ... (modifié) " \
           "avant rules.md:30, désormais rules.md:30 old Mélangez" in french
    assert "version de travail Mélangez les 6 cartes et donnez-en 3" in french
    assert "Matériel Cartes poisson (modifié)" in french
    assert "recto de la ligne 2 (Perche) (modifié) : old, puis version de travail" in french
    assert 'alt="Cartes poisson, recto de la ligne 2 (Perche), version de travail"' in page
    assert "Calculé par rulepress à partir des sources des deux éditions" in french
    pdf = pdf_text(out / GAME / "fr" / "errata" / f"{name}-a4.pdf")
    for word in english_theme_words():
        for what, text in (("page", french), ("pdf", pdf)):
            assert not re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text), (what, word)
    for word in ("Rules", "Components", "changed", "working tree", "then", "was", "now",
                 "front of", "Computed"):
        assert not re.search(rf"\b{word}\b", pdf), word
    # --lang en: the source's sheet alone.
    shutil.rmtree(out)
    code, said = run("diff", "old", "--project", str(project), "--paper", "a4", "--out",
                     str(out), "--lang", "en")
    assert code == 0, said
    assert not (out / GAME / "fr").exists() and (out / GAME / "errata" / f"{name}.html").exists()


def test_a_translated_errata_sheet_names_the_game_s_fields_and_counts_what_is_left(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The front matter's duration changed (its French not yet written): the French sheet names
    the field in French, the summary counts the segment left in English, and --strict stops
    at it; a theme word left untranslated is counted and stops --strict too."""
    old = tmp_path / "old"
    shutil.copytree(project, old)
    rules = project / "sources" / GAME / "rules.md"
    rules.write_text(rules.read_text().replace("duration: 10 minutes", "duration: 15 minutes"))
    out = tmp_path / "build"
    monkeypatch.chdir(tmp_path)
    code, said = run("diff", "old", "--project", str(project), "--paper", "a4", "--out",
                     str(out), "--lang", "fr")
    assert code == 0, said
    assert "minnows fr: 29/30 segments translated, 0 fuzzy" in said
    page = (out / GAME / "fr" / "errata" / "minnows-errata-old-working.html").read_text()
    french = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    assert "Le champ durée du jeu est désormais « 15 minutes » (il était « 10 minutes »)." \
        in french
    assert "Le jeu Quoi old version de travail durée 10 minutes 15 minutes" in french
    code, said = run("diff", "old", "--project", str(project), "--paper", "a4", "--out",
                     str(out), "--lang", "fr", "--strict")
    assert code == 2
    assert "rules.md:6:1: error: fr: this duration is not in fr.po: run rulepress translate" \
        in said
    rules.write_text(rules.read_text().replace("duration: 15 minutes", "duration: 10 minutes"))
    theme = project / "sources" / GAME / "locales" / "fr-theme.po"
    theme.write_text(theme.read_text().replace('msgstr "(absent)"', 'msgstr ""'))
    code, said = run("diff", "old", "--project", str(project), "--paper", "a4", "--out",
                     str(out), "--lang", "fr", "--strict")
    assert code == 2
    assert "locales/fr-theme.po:1:1: error: fr: 1 of the theme's words print in English " \
           "('(not there)', ...)" in said


def test_adding_a_language_keeps_the_rest_of_rulepress_toml(tmp_path: Path) -> None:
    from rulepress.project import add_languages, load_project

    config = tmp_path / "rulepress.toml"
    config.write_text('# mine\ntitle = "T"\nlanguages = [\n  "en",\n]  # English first\n\n'
                      "[limits]\nengine_seconds = 5\n")
    assert add_languages(load_project(tmp_path), ["fr", "en", "fr"]) == ("fr",)
    assert config.read_text() == ('# mine\ntitle = "T"\nlanguages = ["en", "fr"]  # English '
                                  'first\n\n[limits]\nengine_seconds = 5\n')
    assert add_languages(load_project(tmp_path), ["fr"]) == ()
    config.write_text('title = "T"\n[limits]\nengine_seconds = 5\n')
    add_languages(load_project(tmp_path), ["de"])
    assert config.read_text() == 'title = "T"\nlanguages = ["en", "de"]\n[limits]\n' \
                                 "engine_seconds = 5\n"
    assert load_project(tmp_path).engine_seconds == 5.0
    config.unlink()  # no rulepress.toml: one is made, with the languages alone
    add_languages(load_project(cwd=tmp_path), ["fr"])
    assert config.read_text() == 'languages = ["en", "fr"]\n'


def test_serve_takes_the_languages_it_is_asked(project: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    import rulepress.serve.server as server

    seen: list[tuple[str, ...]] = []
    monkeypatch.setattr(server, "serve", lambda settings, *a, **k: seen.append(
        settings.languages))
    for args, languages in (((), ("en", "fr")), (("--lang", "en"), ("en",)),
                            (("--lang", "fr"), ("en", "fr"))):
        code, said = run("serve", "--project", str(project), *args)
        assert code == 0, said
        assert seen.pop() == languages
    code, said = run("serve", "--project", str(project), "--lang", "xx-yy")
    assert code == 2 and "--lang xx-yy: 'xx-yy' is not a language code" in said


def test_pnp_strict_makes_a_card_text_left_in_english_an_error(project: Path,
                                                              tmp_path: Path) -> None:
    po = project / "sources" / GAME / "locales" / "fr.po"
    text = po.read_text()
    po.write_text(text.replace('msgstr "Glisse une fois."', 'msgstr ""'))
    line = text.split("\n").index('msgstr "Glisse une fois."')
    out = tmp_path / "pnp"
    code, said = run("pnp", "--project", str(project), "--paper", "a4", "--out", str(out),
                     "--lang", "fr", "--strict")
    assert code == 2 and not out.exists()
    assert f"locales/fr.po:{line}:1: error: fr: untranslated: card data at cards.csv:6" in said
    code, said = run("pnp", "--project", str(project), "--paper", "a4", "--out", str(out),
                     "--lang", "fr")
    assert code == 0, said
    assert "Slips away once." in pdf_text(out / GAME / "fr" / f"{GAME}-a4.pdf")


def test_the_faces_page_in_french_shows_the_french_cards(project: Path, tmp_path: Path) -> None:
    from support import Quiet

    from rulepress.build import build_rulebooks
    from rulepress.i18n.faces import TranslatedFaces
    from rulepress.serve.faces import FaceOptions, generator

    out = tmp_path / "build"
    build_rulebooks(project / "sources", out, papers=("a4",), project=project, pdf=False,
                    reporter=Quiet(), also=[generator(out, ("player",), project),
                                            TranslatedFaces(FaceOptions(editions=("player",)),
                                                            out, project, "fr", "en")])

    def images(page: Path) -> list[str]:
        return re.findall(r'<img src="([^"]+)"', page.read_text())

    english = images(out / GAME / "faces" / "index.html")
    french = images(out / GAME / "fr" / "faces" / "index.html")
    assert len(english) == len(french) == 6 + 1 + 1  # six fronts, the shared back, the aid
    fronts = [(e, f) for e, f in zip(english, french, strict=True) if e.startswith("deck-front")]
    assert len(fronts) == 6 and all(e != f for e, f in fronts)  # each card's French drawing
    assert all((out / GAME / "fr" / "faces" / f).is_file() for f in french)
    # The page's own words in French: its heading, the toggles, each face's caption.
    page = (out / GAME / "fr" / "faces" / "index.html").read_text()
    text = " ".join(re.sub(r"<[^>]+>", " ", re.sub(r"<style.*?</style>", " ", page,
                                                   flags=re.S)).split())
    assert '<html lang="fr">' in page and 'aria-label="Montrer sur chaque face"' in page
    assert text.startswith("Vairons : toutes les faces du matériel Vairons : toutes les faces "
                           "du matériel 8 faces distinctes, chacune une fois, à la taille "
                           "d’impression avec 3 mm de fond perdu. Magenta : la ligne de coupe")
    assert "Livret de règles · Tous les jeux Ligne de coupe Zone sûre Fond perdu" in text
    assert "deck recto · cards.csv:2" in text and "deck verso aid recto" in text
    assert 'alt="Cartes poisson, recto (cards.csv:2)"' in page
    assert '<a href="../../../index.html">' in page  # from <game>/fr/faces/, the games' page
    for word in english_theme_words():
        assert not re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text), word
    for word in ("front", "back", "every face", "distinct faces", "Trim", "Safe", "Bleed"):
        assert not re.search(rf"\b{word}\b", text), word


def test_a_translation_changed_alone_reprints_in_its_language_alone(project: Path,
                                                                   tmp_path: Path) -> None:
    old = tmp_path / "old"
    shutil.copytree(project, old)
    po = project / "sources" / GAME / "locales" / "fr.po"
    po.write_text(po.read_text().replace('msgstr "Nage seule."', 'msgstr "Nage en solitaire."'))
    out = tmp_path / "pnp"
    code, said = run("pnp", "--project", str(project), "--paper", "a4", "--changed-since",
                     str(old), "--out", str(out))
    assert code == 0, said
    assert "minnows: no printed face changed since" in said
    made = [p.relative_to(out).as_posix() for p in out.rglob("*.pdf")]
    assert len(made) == 1 and made[0].startswith("minnows/fr/minnows-a4-changed-since-")
    assert "Nage en solitaire." in pdf_text(out / made[0])

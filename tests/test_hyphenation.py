"""German words broken where German breaks them (rulepress.hyphenation)."""

from __future__ import annotations

from pathlib import Path

from rulepress.hyphenation import SOFT, breaks, with_breaks


def _shown(text: str | None) -> str | None:
    return None if text is None else text.replace(SOFT, "|")


def test_a_ck_that_ends_its_syllable_stays_with_it() -> None:
    # pyphen's German patterns say "rü-ck-wärts"; the word breaks "rück-wärts".
    assert _shown(breaks("rückwärts", "de")) == "rück|wärts"
    assert _shown(breaks("Rückwärtszug", "de_DE")) == "Rück|wärts|zug"
    # Before a vowel the ck opens the next syllable, as the patterns have it: left to them.
    assert breaks("Rücken", "de") is None and breaks("aufdecken", "de") is None
    assert breaks("Stück", "de") is None


def test_a_compound_breaks_at_its_seam_in_its_own_case() -> None:
    assert _shown(breaks("Zugreihenfolge", "de")) == "Zug|rei|hen|fol|ge"
    assert _shown(breaks("ZUGREIHENFOLGE", "de")) == "ZUG|REI|HEN|FOL|GE"


def test_only_the_bodys_text_is_touched_and_only_in_a_language_with_corrections() -> None:
    page = ('<html lang="de"><head><title>rückwärts</title></head><body class="rückwärts">'
            "<p>geht <b>rückwärts</b></p><code>rückwärts</code><pre>rückwärts</pre></body>")
    assert _shown(with_breaks(page, "de")) == page.replace("<b>rückwärts", "<b>rück|wärts")
    assert with_breaks(page, "en") == page and with_breaks(page, None) == page


def test_rulepress_s_german_compounds_are_data_beside_its_theme_catalog() -> None:
    from rulepress.hyphenation import exceptions
    from rulepress.paths import templates_dir

    listed = (templates_dir() / "locales" / "de-hyphenation.txt").read_text(encoding="utf-8")
    assert "Zug-rei-hen-fol-ge" in listed.split("\n")
    assert exceptions("de")["zugreihenfolge"] == "Zug-rei-hen-fol-ge"
    assert exceptions("de_AT") == exceptions("de") and exceptions("fr") == {}


def test_a_game_lists_exceptions_for_any_language_and_its_words_win(tmp_path: Path) -> None:
    locales = tmp_path / "locales"
    locales.mkdir()
    (locales / "fr-hyphenation.txt").write_text(
        "# compounds of Minnows\nporte-feuille  # a comment after a word\n"
        "Pois-son-ne-rie\n\nzz-top\n", encoding="utf-8")
    (locales / "de-hyphenation.txt").write_text("Zugrei-henfolge\n", encoding="utf-8")
    # French has no rulepress exceptions: the game's alone, in the word's own case.
    assert _shown(breaks("POISSONNERIE", "fr", tmp_path)) == "POIS|SON|NE|RIE"
    assert _shown(breaks("Poissonnerie", "fr")) is None  # another game's
    assert _shown(breaks("Zugreihenfolge", "de", tmp_path)) == "Zugrei|henfolge"
    assert _shown(breaks("Zugfolge", "de", tmp_path)) == "Zug|fol|ge"  # rulepress's still
    page = '<html lang="fr"><body><p>La poissonnerie ferme.</p></body></html>'
    assert _shown(with_breaks(page, "fr", tmp_path)) == page.replace("poissonnerie",
                                                                      "pois|son|ne|rie")
    assert with_breaks(page, "fr") == page


def test_a_bad_exception_line_is_an_error_at_its_line(tmp_path: Path) -> None:
    from rulepress.hyphenation import check_exceptions, read_exceptions
    from rulepress.limits import MAX_HYPHENATED_CHARS

    locales = tmp_path / "locales"
    locales.mkdir()
    path = locales / "nl-hyphenation.txt"
    path.write_text("# Dutch\nfiets-pad\nfiets pad\n-fiets\nfiets--pad\nfiets3-pad\nFiets-pad\n"
                    f"a-{'b' * MAX_HYPHENATED_CHARS}\nfiets\nzee-hond\n", encoding="utf-8")
    words, problems = read_exceptions(tmp_path, "locales/nl-hyphenation.txt")
    assert words == {"fietspad": "fiets-pad", "zeehond": "zee-hond"}
    said = [(d.loc.line if d.loc else 0, d.message) for d in problems]
    assert [n for n, _ in said] == [3, 4, 5, 6, 7, 8, 9]
    assert said[0][1] == ("'fiets pad' is not a word with its breaks: write one word a line, "
                          "letters only, a hyphen at each place it may break "
                          "(Zug-rei-hen-fol-ge)")
    assert said[4][1] == "'Fiets-pad' is given twice (first at line 2): keep one"
    assert said[5][1] == (f"a word of {MAX_HYPHENATED_CHARS + 2} characters, more than the "
                          f"limit of {MAX_HYPHENATED_CHARS}")
    assert [d.loc for d in check_exceptions(tmp_path)] == [d.loc for d in problems]
    path.write_bytes(b"fiets-pad\nzee-h\xf6nd\n")
    (found,) = read_exceptions(tmp_path, "locales/nl-hyphenation.txt")[1]
    assert found.loc is not None and found.loc.line == 2 and "not UTF-8" in found.message
    path.unlink()
    path.symlink_to("/etc/hostname")
    (found,) = check_exceptions(tmp_path)
    assert "cannot read the hyphenation exceptions: refused" in found.message


def test_a_game_s_bad_exception_stops_check_at_its_line(tmp_path: Path) -> None:
    import shutil

    from click.testing import CliRunner

    from rulepress.cli import main

    game = tmp_path / "sources" / "minnows"
    shutil.copytree(Path(__file__).parent / "fixtures" / "french" / "sources" / "minnows", game)
    (game / "locales" / "fr-hyphenation.txt").write_text("Vai-ron\nVai ron\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--sources", str(tmp_path / "sources")])
    assert result.exit_code == 2
    assert "locales/fr-hyphenation.txt:2:1: error: 'Vai ron' is not a word with its breaks" \
        in result.stderr


def test_a_file_past_the_limit_of_words_stops_at_the_first_word_past_it(
        tmp_path: Path) -> None:
    from rulepress.hyphenation import read_exceptions
    from rulepress.limits import MAX_HYPHENATION_WORDS

    def word(n: int) -> str:  # a distinct word of letters for each n: "ba-ab" ...
        letters = ""
        while n or len(letters) < 4:
            n, k = divmod(n, 26)
            letters += chr(ord("a") + k)
        return f"{letters[:2]}-{letters[2:]}"

    (tmp_path / "many.txt").write_text(
        "".join(f"{word(n)}\n" for n in range(MAX_HYPHENATION_WORDS + 5)), encoding="utf-8")
    words, problems = read_exceptions(tmp_path, "many.txt")
    assert len(words) == MAX_HYPHENATION_WORDS
    assert [(d.loc.line if d.loc else 0, d.message) for d in problems] == [
        (MAX_HYPHENATION_WORDS + 1, f"more than the limit of {MAX_HYPHENATION_WORDS} words")]

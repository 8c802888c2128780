"""German words broken where German breaks them (rulepress.hyphenation)."""

from __future__ import annotations

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

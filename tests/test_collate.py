"""The index's order as its language's readers expect it (rulepress.collate)."""

from __future__ import annotations

from rulepress.collate import sort_key, without_article


def test_german_index_ignores_articles_and_sorts_umlauts_with_their_base_letter() -> None:
    entries = ["Übrige Karten", "Zielspalte", "Die Trumpfkarte", "Der Gleichstand", "Trumpf",
               "Ein schwarzer Trumpf", "Startlinie", "Rückwärts am Start", "Ruhe", "Straße"]
    assert sorted(entries, key=lambda t: sort_key(t, "de")) == [
        "Der Gleichstand", "Rückwärts am Start", "Ruhe", "Ein schwarzer Trumpf",
        "Startlinie", "Straße", "Trumpf", "Die Trumpfkarte", "Übrige Karten", "Zielspalte"]


def test_an_umlaut_ties_after_its_base_letter_and_equal_entries_keep_their_order() -> None:
    assert sorted(["Übel", "ubel", "Ubel"], key=lambda t: sort_key(t, "de")) == [
        "ubel", "Ubel", "Übel"]


def test_articles_are_the_languages_own() -> None:
    assert without_article("Die Trumpfkarte", "de") == "Trumpfkarte"
    assert without_article("Die Trumpfkarte", "en") == "Die Trumpfkarte"
    assert without_article("The deck", "en_GB") == "deck"
    assert without_article("L'atout", "fr") == "atout"
    assert without_article("Die", "de") == "Die"  # a title of one word keeps it
    assert without_article("Dieb", "de") == "Dieb"

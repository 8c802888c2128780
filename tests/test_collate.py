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


def test_an_entry_s_own_sort_key_takes_the_place_of_its_words() -> None:
    # DIN 5007-2's order for one entry: Ü as Ue, given by the author; the rest as before.
    keys = {"Übrige Karten": "Uebrige Karten"}
    entries = ["Ufer", "Übrige Karten", "Udo", "Der Gleichstand"]
    assert sorted(entries, key=lambda t: sort_key(t, "de", keys.get(t, ""))) == [
        "Der Gleichstand", "Udo", "Übrige Karten", "Ufer"]
    assert sorted(entries, key=lambda t: sort_key(t, "de")) == [
        "Der Gleichstand", "Übrige Karten", "Udo", "Ufer"]
    # A key is taken as written: its article, if it gives one, counts.
    assert sort_key("Der Gleichstand", "de", "Der Gleichstand") == ("der gleichstand",
                                                                   "der gleichstand")
    assert sort_key("Udo", "de", "  ") == sort_key("Udo", "de")  # a blank key is none

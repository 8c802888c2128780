"""``rulepress check``'s check of a game's translations, which it makes nothing of: what the
translated books' check says, kept (memo.py) by the game as checked and the languages asked.
The translations' modules (the renderer among them) load only when it is not kept."""

from __future__ import annotations

from collections.abc import Callable

from rulepress import memo
from rulepress.cache import digest
from rulepress.diagnostics import Diagnostic
from rulepress.validate.check import DocumentCheck


def checked_translations(langs: tuple[str, ...], source: str,
                         strict: bool) -> Callable[[DocumentCheck], list[Diagnostic]]:
    """The check of each game's translations into ``langs`` (from ``source``)."""
    made: list[Callable[[DocumentCheck], list[Diagnostic]]] = []

    def check(game: DocumentCheck) -> list[Diagnostic]:
        key = None if game.key is None else digest(game.key, "translations", langs, source,
                                                   strict)
        kept = memo.diagnostics_in(memo.get(key)) if key is not None else None
        if kept is not None:
            return kept
        if not made:
            # Babel: only when there are translations
            from rulepress.i18n.books import TranslatedBooks, TranslationOptions

            made.append(TranslatedBooks(TranslationOptions(langs, source,
                                                           strict=strict)).check)
        found = made[0](game)
        memo.put(key, memo.diagnostics_out(found))
        return found

    return check

"""The theme's catalog: every word the templates and the renderer print into a book, found by
Babel's extractors (``_("...")`` in the templates and in rulepress's code), written to
``templates/locales/theme.pot``; each language's ``<lang>.po`` beside it is merged with it as
msgmerge does. ``python -m rulepress.i18n.theme`` regenerates both after a word changes."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from rulepress.paths import templates_dir

_TEMPLATES = [("**.j2", "jinja2.ext:babel_extract"), ("**.css", "jinja2.ext:babel_extract")]
_CODE = [("**.py", "python")]
_SKIP = ("i18n/theme.py",)
_KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
             "N_plural": (1, 2), "NP_": ((1, "c"), 2)}


def package_dir() -> Path:
    return Path(__file__).resolve().parent.parent


def extract() -> Catalog:
    """The theme's words as they are in the code and templates now, each with where it is."""
    pot = Catalog(project="rulepress theme", version="", fuzzy=False, creation_date=_epoch(),
                  revision_date=_epoch())
    for root, methods, prefix in ((templates_dir(), _TEMPLATES, "templates/"),
                                  (package_dir(), _CODE, "")):
        for name, line, message, comments, context in extract_from_dir(
                root, methods, keywords=_KEYWORDS,
                comment_tags=("Translators:",), strip_comment_tags=True):
            if isinstance(message, str | tuple) and not name.endswith(_SKIP):
                pot.add(message, locations=[(prefix + name, line)], auto_comments=comments,
                        context=context)
    return pot


def _epoch() -> datetime:
    return datetime.fromtimestamp(0, UTC)


def dump(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=100, sort_output=False, omit_header=False)
    return out.getvalue()


def main() -> None:
    folder = templates_dir() / "locales"
    pot = extract()
    (folder / "theme.pot").write_bytes(dump(pot))
    for po in sorted(folder.glob("*.po")):
        with po.open("rb") as fh:
            catalog = read_po(fh, locale=po.stem)
        catalog.update(pot, no_fuzzy_matching=False)
        po.write_bytes(dump(catalog))
        print(f"{po.name}: {sum(1 for m in catalog if m.id and m.string)}/{len(pot)}")


if __name__ == "__main__":
    main()

"""The rulebooks in every language but the source's: a generator on the shared pipeline.

A game is checked once, in its own language (the engine replays its examples there); each
translation then re-fills the examples' prose from the same data and replays nothing. Its
books go to ``<game>/<lang>/`` under the build folder, both editions, each paper."""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from rulepress.books import (
    PdfJob,
    _page,
    _render_pdf,
    _typesettings,
    book_files,
    book_name,
    booklet_name,
    kit_links,
    makeup_places,
    paper_name,
    replaced,
)
from rulepress.cache import file_key
from rulepress.diagnostics import Diagnostic, RulepressError, Severity, SourceLoc, error
from rulepress.document.editions import EDITION_NAMES, EDITIONS, PLAYER
from rulepress.document.model import Document, Example
from rulepress.document.reader import SIMULATION_INFO
from rulepress.i18n.apply import Catalogued, read_catalog, translated
from rulepress.i18n.catalog import LOCALES, load, po_path
from rulepress.i18n.engine import (
    engine_words,
    translate_svg,
    translate_values,
    word_translator,
)
from rulepress.i18n.faithful import check_catalog
from rulepress.i18n.plots import translated_plots
from rulepress.jail import read_regular
from rulepress.media import DEFAULT_LANGUAGE, PAPER_KEYS
from rulepress.pipeline import Base, Deferred, Unit
from rulepress.prose import render_prose
from rulepress.render import FONTS, render_html, templates_dir
from rulepress.render.readback import sources_of
from rulepress.simulate.report import _summary_path, figures_in
from rulepress.validate.check import DocumentCheck
from rulepress.validate.results import RenderedExample
from rulepress.words import (
    N_,
    Gettext,
    localize_numbers,
    own_theme_path,
    theme_catalog_path,
    theme_missing,
    theme_msgids,
    theme_words,
)
from rulepress.write import Manifest


@dataclass(frozen=True)
class TranslationOptions:
    """What the translated books are made with: all of it goes in their key."""

    langs: tuple[str, ...]
    source: str = DEFAULT_LANGUAGE
    papers: tuple[str, ...] = PAPER_KEYS
    editions: tuple[str, ...] = EDITIONS
    booklet: bool = False
    strict: bool = False


@dataclass
class _Game:
    catalogs: dict[str, Catalogued]
    docs: dict[str, Document]
    examples: dict[str, dict[str, RenderedExample]]


class TranslatedBooks(Base):
    """``options.langs``' books of every game that has their catalogs. ``notes``: each
    language's count of translated segments, for the summary. ``pdf=False``: the pages only;
    ``only``: the files to make, by path in the output folder (serve's), as the books'."""

    name = "translated-books"

    def __init__(self, options: TranslationOptions, *, pdf: bool = True,
                 only: Collection[str] | None = None) -> None:
        self.options, self.pdf, self.only = options, pdf, only
        self.notes: list[str] = []
        self._games: dict[str, _Game] = {}

    def check(self, game: DocumentCheck) -> list[Diagnostic]:
        doc = game.doc
        found = _Game({}, {}, {})
        diags: list[Diagnostic] = []
        for lang in languages_of(doc, self.options.langs):
            try:
                catalog = read_catalog(doc, lang, words=engine_words(game.engine))
            except RulepressError as exc:
                diags += exc.diagnostics
                continue
            found.catalogs[lang] = catalog
            checked = check_catalog(doc, catalog)
            diags += checked
            if self.options.strict:
                diags += catalog.missing()
            tdoc = translated(doc, catalog, self.options.source)
            found.docs[lang] = tdoc
            left: set[str] = set()
            examples, prose_diags = translated_examples(tdoc, game.examples, catalog, left)
            found.examples[lang] = examples
            said = {d.loc for d in checked}  # one error an entry: its own check's
            diags += [d for d in prose_diags if d.loc not in said]
            diags += theme_problems(doc, lang, self.options.strict)
            self.notes.append(f"{doc.slug} {catalog.summary()}")
            self.notes += left_in_source(doc, catalog, sorted(left))
            if self.options.strict and left:
                diags.append(error(doc.meta.engine_loc or SourceLoc(doc.path, 1), (
                    f"{lang}: the figures print {len(left)} words in the source language "
                    f"({', '.join(sorted(left)[:4])}): list them in the engine's words and "
                    "run rulepress translate")))
        self._games[doc.slug] = found
        return diags

    def prepare(self, docs: Sequence[Document]) -> None:
        stop_on_catalogs(docs, self.options.langs, self.options.strict)

    def replaces(self, slug: str, unit: str) -> bool:
        o = self.options
        return replaced(unit, slug, o.editions, o.papers, o.booklet)

    def files(self, doc: Document, lang: str) -> list[Any]:
        o = self.options
        return [replace(f, name=f"{doc.slug}/{lang}/{f.name.split('/', 1)[1]}")
                for f in book_files(doc.slug, o.editions, o.papers, o.booklet)]

    def pooled(self, doc: Document, key: str, manifest: Manifest) -> int:
        if not self.pdf:
            return 0
        return sum(len(_typesettings([f for f in self.files(doc, lang)
                                      if not manifest.fresh(f.name, file_key(key, f.name))]))
                   for lang in languages_of(doc, self.options.langs))

    def units(self, game: DocumentCheck, key: str) -> list[Unit]:
        found = self._games.get(game.doc.slug) or _Game({}, {}, {})
        units: list[Unit] = []
        for lang, doc in found.docs.items():
            files = self.files(doc, lang)
            pages = {e: Deferred(partial(_book_page, doc, found.examples[lang], e, self.options,
                                         self.pdf, FONTS))
                     for e in self.options.editions}  # rendered when first made
            # read back: the catalog's lines too, where the printed words may come from
            sources = sources_of(doc, po_path(doc, lang))
            units += [Unit(f.name, key, partial(_page, f.name, pages[f.edition], sources),
                           files=(f.name,), wanted=self.only is None or f.name in self.only)
                      for f in files if f.paper is None]
            for group in _typesettings(files):
                job = PdfJob(pages[group[0].edition], doc.folder,
                             (doc.folder.resolve(), templates_dir()), tuple(group), sources,
                             *makeup_places(doc))
                units.append(Unit(f"{lang} {job.label}", key, partial(_render_pdf, job),
                                  f"{job.label} ({lang})", files=tuple(f.name for f in group),
                                  pooled=True, ready=job.weight,
                                  wanted=self.pdf and (self.only is None or any(
                                      f.name in self.only for f in group))))
        return units


def left_in_source(doc: Document, catalog: Catalogued, figure_words: list[str]) -> list[str]:
    """The summary's lines of what prints in the source language: the figures' words the
    catalog lacks, and the theme's words its catalog lacks."""
    lines = []
    if figure_words:
        lines.append(f"{doc.slug} {catalog.lang}: {len(figure_words)} words of the figures "
                     f"untranslated ({', '.join(figure_words[:4])})")
    missing = theme_missing(catalog.lang, doc.folder)
    if missing:
        lines.append(f"{doc.slug} {catalog.lang}: the theme's words: "
                     f"{len(theme_msgids()) - len(missing)}/{len(theme_msgids())} translated "
                     f"({_theme_file(doc, catalog.lang)}), the rest in English")
    return lines


def _theme_file(doc: Document, lang: str) -> str:
    """Where the theme's words of ``lang`` come from, as the summary names it."""
    own = own_theme_path(doc.folder, lang)
    return f"{LOCALES}/{own.name}" if own.is_file() else theme_catalog_path(lang).name


def theme_problems(doc: Document, lang: str, strict: bool) -> list[Diagnostic]:
    """A game's own theme catalog read as any catalog is (errors at its lines), and with
    --strict an error for the theme's words that would print in English."""
    own = own_theme_path(doc.folder, lang)
    found: list[Diagnostic] = []
    if own.exists() or own.is_symlink():
        try:
            load(own, lang)
        except RulepressError as exc:
            return exc.diagnostics
    missing = theme_missing(lang, doc.folder)
    if strict and missing:
        at = SourceLoc(own, 1) if own.is_file() else SourceLoc(doc.path, 1)
        found.append(error(at, (
            f"{lang}: {len(missing)} of the theme's words print in English "
            f"({', '.join(repr(m.split(chr(4))[-1]) for m in missing[:3])}, ...): translate "
            f"them in {LOCALES}/{own.name} (rulepress translate --lang {lang} makes it)")))
    return found


def stop_on_catalogs(docs: Sequence[Document], langs: tuple[str, ...], strict: bool) -> None:
    """The catalogs of the games read, checked before anything is made (a translated
    generator's prepare): a bad one stops the command at its line, whatever else it was to
    write."""
    problems = []
    for doc in docs:
        for lang in languages_of(doc, langs):
            try:
                catalog = read_catalog(doc, lang)
            except RulepressError as exc:
                problems += exc.diagnostics
                continue
            problems += [d for d in check_catalog(doc, catalog) if d.severity is Severity.ERROR]
            problems += theme_problems(doc, lang, strict)
            if strict:
                problems += catalog.missing()
    if problems:
        raise RulepressError(problems)


def languages_of(doc: Document, langs: tuple[str, ...]) -> list[str]:
    """The languages of ``langs`` the game has a catalog of (a game no one has translated
    into a language has no book in it)."""
    return [lang for lang in langs
            if po_path(doc, lang).exists() or po_path(doc, lang).is_symlink()]


def _book_page(doc: Document, examples: Mapping[str, RenderedExample], edition: str,
               options: TranslationOptions, pdf: bool, fonts: str) -> str:
    lang = doc.language.code if doc.language else ""
    _ = theme_words(lang, doc.folder)

    def paper(p: str) -> str:
        return _(paper_name(p))

    N_("A4"), N_("Letter")  # the papers' names, as paper_name gives them

    links = {_("PDF ({paper})", paper=paper(p)): book_name(doc.slug, edition, p)
             for p in options.papers} if pdf else {}
    if options.booklet and edition == PLAYER and pdf:
        links |= {_("Booklet ({paper})", paper=paper(p)): booklet_name(doc.slug, p)
                  for p in options.papers}
    links |= {_("{edition} (HTML)", edition=_(EDITION_NAMES[other])): book_name(doc.slug, other)
              for other in options.editions if other != edition}
    # The kits `pnp` draws in this language: pnp/<game>/<lang>/, seen from build/<game>/<lang>/.
    links |= {_("Print-and-play ({label})", label=_kit_label(label, _)): "../../" + href.replace(
        f"/{doc.slug}/", f"/{doc.slug}/{lang}/", 1) for label, href in kit_links(
        doc, options.papers).items()}
    links[_("{edition} (HTML)", edition=_language_name(options.source, lang))] = \
        f"../{book_name(doc.slug, edition)}"
    return render_html(doc, examples, edition=edition, links=links, fonts_href=f"../../{fonts}")


def _kit_label(label: str, _: Gettext) -> str:
    """A kit link's "Letter, poker" with its paper's name translated."""
    paper, sep, rest = label.partition(", ")
    return _(paper) + sep + rest


def _language_name(code: str, lang: str) -> str:
    """``code``'s language named in ``lang`` ("Englisch"), as the link to that edition says."""
    from babel import Locale

    try:
        return str(Locale.parse(code).get_display_name(lang) or code)
    except (ValueError, LookupError):
        return code


def translated_examples(
    doc: Document, checked: Mapping[str, RenderedExample], catalog: Catalogued,
    untranslated: set[str] | None = None,
) -> tuple[dict[str, RenderedExample], list[Diagnostic]]:
    """Each box of the translated ``doc`` as checked in the source language, its title and
    prose in the translation (the prose filled from the same data, the engine's words in it
    and in its figures translated, its numbers in the language's format). A problem in the
    translated prose is reported at its entry in the catalog; a figure's word left in the
    source language is added to ``untranslated``."""
    out: dict[str, RenderedExample] = {}
    diags: list[Diagnostic] = []
    strings = catalog.strings()
    tr = word_translator(strings, catalog.lang, doc.folder)
    left = untranslated if untranslated is not None else set()

    def words(text: str) -> str | None:
        # A number alone is left to the prose's one pass: localized twice, 10,000 becomes
        # 10.000 and then 10,000 again (a decimal with three places).
        return tr(text) if any(c.isalpha() for c in text) else None

    for ex in doc.boxes:
        rendered = checked.get(ex.id)
        if rendered is None:
            continue
        context = _report_context(doc, ex) if ex.kind == SIMULATION_INFO else None
        filled = ex if context is None else replace(ex, data=context, claims={})
        prose, problems = render_prose(filled)
        entry = catalog.entries.get(_source_text(ex, catalog))
        at = entry.loc if entry is not None and entry.used else None
        diags += [replace(d, loc=at or d.loc) for d in problems]
        if not problems:  # checked as the data holds it; printed in the language's words
            worded = replace(filled, data=translate_values(filled.data, words),
                             claims=translate_values(filled.claims, words))
            prose = localize_numbers(render_prose(worded)[0], catalog.lang)
        figures = rendered.figures
        if context is None:  # an example's diagrams: their words replaced where they are
            figures = tuple(replace(f, svg=translate_svg(f.svg, tr, left, catalog.lang),
                                    narrow=f.narrow and translate_svg(f.narrow, tr, left,
                                                                      catalog.lang))
                            for f in figures)
        elif figures:  # a report's plots: drawn again in the language, laid out for its words
            try:
                figures = tuple(translated_plots(doc, ex, figures, strings, catalog.lang, left))
            except RulepressError as exc:
                diags += exc.diagnostics
        figures = tuple(replace(f, caption=tr(f.caption) or f.caption) for f in figures)
        # The appendix's claims: an engine's words (a "reason") as the catalog has them; the
        # notation's moves, numbers and true/false stay as the engine writes them.
        claims = tuple((k, strings.get(v) or v) for k, v in rendered.claims)
        out[ex.id] = replace(rendered, title=ex.title, prose=prose if not problems
                             else rendered.prose, figures=figures, claims=claims)
    return out, diags


def _source_text(ex: Example, catalog: Catalogued) -> str:
    """The msgid of ``ex``'s prose: the segment at its text's line."""
    line = ex.line_of(("text",))
    for seg in catalog.segments:
        if seg.example == ex.id and seg.loc == line and seg.kind == "example prose":
            return seg.text
    return ""


def _report_context(doc: Document, block: Example) -> dict[str, Any]:
    """What a playtest report's prose sees: its summary's figures (checked already)."""
    try:
        summary = json.loads(read_regular(_summary_path(doc, block)).decode("utf-8"))
    except (OSError, ValueError):
        return {}
    return figures_in(summary)



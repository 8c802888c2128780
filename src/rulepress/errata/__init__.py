"""Versions and errata: what changed between two printings of a game, proven on both sides.

``rulepress diff OLD NEW`` reads both printings (git revisions of the project, read by git into
a scratch folder, or project folders) through the normal reader and check, compares them by
structure (compare.py) and their printed faces by drawing (faces.py), and writes an errata
sheet per game (sheet.py) through the pipeline: build/<game>/errata/. ``rulepress pnp
--changed-since OLD`` uses the same comparison to print only the faces that changed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

from rulepress.cache import digest, game_inputs
from rulepress.diagnostics import Diagnostic, ExitStatus, Reporter, RulepressError, SourceLoc
from rulepress.document.model import Component, Document
from rulepress.document.reader import read_sources, source_games
from rulepress.errata.compare import REMOVED, compare
from rulepress.errata.faces import FaceId, faces_of
from rulepress.errata.revisions import WORKING, Side, open_side
from rulepress.errata.sheet import Printing, face_changes, render_page, render_pdfs_of, summary
from rulepress.media import DEFAULT_LANGUAGE, PAPER_KEYS
from rulepress.pipeline import (
    Base,
    Built,
    Deferred,
    Files,
    Paths,
    RunOptions,
    Unit,
    run,
)
from rulepress.project import Project
from rulepress.render import FONTS
from rulepress.render.readback import Sources, read_back_html, read_back_pdf, sources_of
from rulepress.validate.check import CheckedPrinting, DocumentCheck
from rulepress.validate.hooks import EVERY
from rulepress.validate.printing import check_printing
from rulepress.words import SOURCE_WORDS, Words
from rulepress.write import Manifest, scratch_folder


@dataclass(frozen=True)
class ErrataOptions:
    """What an errata sheet is made from besides the new printing's sources (its key)."""

    old: str  # the old side's name in file names: v1.0
    new: str
    old_inputs: tuple[tuple[str, str], ...]  # (game, digest of its old folder and engine)
    papers: tuple[str, ...] = PAPER_KEYS
    strict: bool = False  # a sheet made without --strict is checked again with it


class Errata(Base):
    """The pipeline's errata generator: one sheet per game (the manifest keeps the last one
    made of each game). The old printing is read and checked once, for the sheets to be made
    (of every language), as the first is made; its PDFs are typeset in the pool, one per
    paper, by workers that start (and load WeasyPrint) while the printings are checked."""

    name = "errata"
    up = "../../"  # from the sheet's folder to the output folder's

    def __init__(self, options: ErrataOptions, old: Side, new: Side,
                 before: OldPrinting | None = None) -> None:
        self.options, self.old, self.new = options, old, new
        # shared by the sheets of every language: the old printing is checked once for all
        self.before = before if before is not None else OldPrinting(old)
        self._manifest: Manifest | None = None

    def _names(self, doc: Document) -> tuple[str, dict[str, str]]:
        # The working tree is named by the version it declares, when it declares one: v1.1.
        new = self.options.new
        if self.new.label == WORKING and doc.meta.version:
            new = f"v{doc.meta.version}"
        slug = doc.slug
        base = f"{slug}/errata/{errata_name(slug, self.options.old, new)}"
        return f"{base}.html", {paper: f"{base}-{paper}.pdf" for paper in self.options.papers}

    def _fresh(self, doc: Document, key: str) -> bool:
        html, pdfs = self._names(doc)
        return self._manifest is not None and all(
            self._manifest.fresh(name, digest(key, name)) for name in (html, *pdfs.values()))

    def pooled(self, doc: Document, key: str, manifest: Manifest) -> int:
        self._manifest = manifest
        if self._fresh(doc, key):
            return 0
        self.before.want(doc.slug)
        return len(self.options.papers)

    def units(self, game: DocumentCheck, key: str) -> list[Unit]:
        slug = game.doc.slug
        html, pdfs = self._names(game.doc)
        folder = game.doc.folder
        # The old printing checked and the sheet rendered as the first of its units is made.
        page = Deferred(partial(self.page, game))
        sources = sources_of(game.doc)
        return [Unit(html, key, partial(_files, html, page, sources), f"{slug} errata",
                     (html,)),
                *[Unit(name, key, partial(_typeset, page, paper, folder, name, sources),
                       f"{slug} errata ({paper})", (name,), pooled=True,
                       ready=partial(_length, page))
                  for paper, name in pdfs.items()]]

    def sides_of(self, before: DocumentCheck, game: DocumentCheck
                 ) -> tuple[DocumentCheck, DocumentCheck]:
        """The printings as the sheet compares them (a translation's: in its language)."""
        return before, game

    def words(self, doc: Document) -> Words:
        """The words of the sheet."""
        return SOURCE_WORDS

    def text_of(self, doc: Document) -> Document:
        """``doc`` as its rules' text is compared (a translation's: its body translated)."""
        return doc

    def page(self, game: DocumentCheck) -> str:
        """The errata sheet's HTML: the old printing checked, both printings compared."""
        before = self.before.game(game.doc.slug)
        before, game = self.sides_of(before, game)
        old_faces, new_faces = faces_of([before, game])
        changes = face_changes(old_faces, new_faces)
        if changes:  # drawn again, as PDFs, to be shown: only the faces that changed
            shown = {(cid, *f.key) for cid, found in changes.items() for f in found}
            old_faces, new_faces = faces_of([before, game], shown)
        old = Printing(self.old.label, before.doc, before, old_faces)
        new = Printing(self.new.label, game.doc, game, new_faces)
        difference = compare(self.text_of(before.doc), self.text_of(game.doc), changes)
        return render_page(game.doc.meta.title, old, new, difference,
                           fonts_href=f"{self.up}{FONTS}", words=self.words(game.doc))


class TranslatedErrata(Errata):
    """The errata sheet in a language of the project: both printings translated, each with
    its own catalog (a rule, card or example whose translation changed is a change there),
    written to <game>/<lang>/errata/ beside the translated books. Games without a catalog of
    the language have none."""

    def __init__(self, options: ErrataOptions, old: Side, new: Side, lang: str,
                 source: str, before: OldPrinting | None = None) -> None:
        super().__init__(options, old, new, before)
        self.lang, self.source = lang, source
        self.name = f"errata-{lang}"
        self.up = "../../../"  # <game>/<lang>/errata/
        self.notes: list[str] = []

    def check(self, game: DocumentCheck) -> list[Diagnostic]:
        """What of the sheet would print in the source language: counted in ``notes`` (the
        theme's words, the rules' and cards' segments), an error each with --strict."""
        from rulepress.i18n.apply import read_catalog  # Babel: for translations
        from rulepress.i18n.books import left_in_source, theme_problems  # Babel: for translations

        doc = game.doc
        if not self._has(doc):
            return []
        try:
            catalog = read_catalog(doc, self.lang)
        except RulepressError as exc:
            return exc.diagnostics
        self.notes += [f"{doc.slug} {catalog.summary()}", *left_in_source(doc, catalog, [])]
        strict = self.options.strict
        found = theme_problems(doc, self.lang, strict)
        return [*found, *catalog.missing()] if strict else found

    def _has(self, doc: Document) -> bool:
        from rulepress.i18n.books import languages_of  # Babel: for translations

        return bool(languages_of(doc, (self.lang,)))

    def _names(self, doc: Document) -> tuple[str, dict[str, str]]:
        html, pdfs = super()._names(doc)
        mine = f"{doc.slug}/{self.lang}/"
        return (html.replace(f"{doc.slug}/", mine, 1),
                {p: n.replace(f"{doc.slug}/", mine, 1) for p, n in pdfs.items()})

    def pooled(self, doc: Document, key: str, manifest: Manifest) -> int:
        return super().pooled(doc, key, manifest) if self._has(doc) else 0

    def units(self, game: DocumentCheck, key: str) -> list[Unit]:
        return super().units(game, key) if self._has(game.doc) else []

    def words(self, doc: Document) -> Words:
        return Words(self.lang, doc.folder)

    def sides_of(self, before: DocumentCheck, game: DocumentCheck
                 ) -> tuple[DocumentCheck, DocumentCheck]:
        from rulepress.i18n.apply import read_catalog, translated  # Babel: for translations

        try:
            was = replace(before, doc=translated(before.doc, read_catalog(before.doc, self.lang),
                                                 self.source))
        except RulepressError as exc:
            raise _at_side(exc, self.old) from None
        return was, replace(game, doc=translated(game.doc, read_catalog(game.doc, self.lang),
                                                 self.source))

    def text_of(self, doc: Document) -> Document:
        """Its body's Markdown translated, for compare to read. (Its faces are drawn from
        ``doc`` as it is: a layout translates the section it prints, and finds a part by the
        source's lead, 'Scoring', where the translation's would be 'Wertung'.)"""
        from rulepress.i18n.apply import translate_markdown  # Babel: for translations

        language = doc.language
        assert language is not None
        return replace(doc, parts=tuple(
            replace(p, text=translate_markdown(p.text, language, keep_lines=True))
            for p in doc.parts))


class OldPrinting:
    """The old side of an errata comparison, read and checked once, when a sheet first needs
    it: every game a sheet of any language is to be made of (``want``, as the run plans which
    are fresh), not those whose sheets are."""

    def __init__(self, side: Side) -> None:
        self.side = side
        self.wanted: list[str] = []
        self._checked: dict[str, DocumentCheck] = {}

    def want(self, slug: str) -> None:
        if slug not in self.wanted:
            self.wanted.append(slug)

    def game(self, slug: str) -> DocumentCheck:
        if slug not in self._checked:
            self.want(slug)
            self._checked |= check_old(self.side, [s for s in self.wanted
                                                   if s not in self._checked])
        return self._checked[slug]


def _files(name: str, page: Deferred[str], sources: Sources) -> Files | list[Diagnostic]:
    """The sheet's page, once its printed text is read back (readback.py)."""
    return read_back_html(name, page(), sources) or {name: page()}


def _length(page: Deferred[str]) -> int:
    return len(page())


def _typeset(page: Deferred[str], paper: str, folder: Path, name: str,
             sources: Sources) -> Files | list[Diagnostic]:
    """One paper's PDF of the sheet (in a pool worker): typeset on the page every paper holds,
    as the books are, so both papers break alike; its text read back."""
    pdf = render_pdfs_of(page(), (paper,), folder)[paper]
    return read_back_pdf(name, pdf, sources, page()) or {name: pdf}


def errata_name(slug: str, old: str, new: str) -> str:
    return f"{slug}-errata-{old}-{new}"


class _Quiet:
    def progress(self, message: str) -> None:
        pass

    def diagnostics(self, diagnostics: list[Diagnostic]) -> None:
        pass


@contextmanager
def sides(root: Path, sources: Path, old: str, new: str | None,
          games: Sequence[str]) -> Iterator[tuple[Side, Side, list[str]]]:
    """Both printings, readable for the block (revisions unpacked into a scratch folder), and
    the games to compare: those named, else every game of the new printing."""
    with scratch_folder() as scratch:
        before = open_side(old, root, sources, scratch / "old")
        try:
            after = open_side(new, root, sources, scratch / "new", named_new=new is not None)
        except RulepressError as exc:
            if new is None or games or not exc.diagnostics[0].message.startswith("unknown rev"):
                raise
            has = ", ".join(source_games(sources))  # 'diff v1.0 go-stpo': a game misspelt?
            raise RulepressError.at(None, f"{exc.diagnostics[0].message}; nor is it a game "
                                          f"of {sources.name}/ ({has})") from None
        try:
            slugs = source_games(after.sources, games)
        except RulepressError as exc:
            raise _at_side(exc, after) from None
        present = set(source_games(before.sources)) if before.sources.is_dir() else set()
        missing = [s for s in slugs if s not in present]
        if missing:
            has = ", ".join(sorted(present)) or "no game"
            raise RulepressError.at(None, f"game '{missing[0]}' does not exist in {before.label} "
                                          f"({before.sources.name}/ there holds {has})")
        yield before, after, slugs


def check_old(before: Side, slugs: Sequence[str]) -> dict[str, DocumentCheck]:
    """The old printing read and checked; if it fails its own check, its errata cannot be
    proven: every diagnostic, placed in that printing, and exit 2."""
    try:
        docs = read_sources(before.sources, slugs)
        report = check_printing(docs, project=before.project, said=_Quiet())
    except RulepressError as exc:
        problems = _at_side(exc, before).diagnostics
        raise RulepressError([*problems, Diagnostic(None, problems[0].severity, (
            f"the errata cannot be proven: {before.label} fails its own check (above), so "
            "what changed since cannot be checked; compare with a printing that passes"))],
            ExitStatus.BAD_INPUT) from None
    return {r.doc.slug: r for r in report.documents}


def _at_side(exc: RulepressError, side: Side) -> RulepressError:
    """``exc`` with each path inside an unpacked revision written 'v1.0:sources/x/rules.md'."""
    if not side.commit:
        return exc
    root = side.project

    def placed(d: Diagnostic) -> Diagnostic:
        if d.loc is None or not d.loc.path.is_relative_to(root):
            return d
        shown = Path(f"{side.label}:{d.loc.path.relative_to(root).as_posix()}")
        return replace(d, loc=SourceLoc(shown, d.loc.line, d.loc.col))

    return RulepressError([placed(d) for d in exc.diagnostics], exc.status)


def diff(project: Project, sources: Path, out: Path, old: str, new: str | None,
         games: Sequence[str], papers: Sequence[str], reporter: Reporter,
         force: bool = False, langs: Sequence[str] = (), source: bool = True,
         strict: bool = False, notes: list[str] | None = None) -> Built:
    """``rulepress diff``: an errata sheet per game, from ``old`` to ``new`` (None: the
    working tree), written to out/<game>/errata/; and one in each of ``langs`` (the project's
    translations) a game has a catalog of, to out/<game>/<lang>/errata/. ``source=False``:
    the translations' alone; ``strict``: a word of a translation's sheet left in the source
    language is an error; ``notes``: what of each is left so, for the summary."""
    with sides(project.root, sources, old, new, games) as (before, after, slugs):
        # The old printing's files (and the engine its game names now: an engine module is
        # among them) key the sheet; it is read and checked only when a sheet is made.
        keys = tuple((s, game_inputs(before.sources / s).key(None, before.project, {}))
                     for s in slugs)
        options = ErrataOptions(before.slug, after.slug, keys, tuple(papers), strict)
        first = project.languages[0]
        was = OldPrinting(before)
        generators: list[Errata] = [Errata(options, before, after, was)] if source else []
        translated = [TranslatedErrata(options, before, after, lang, first, was)
                      for lang in langs]
        generators += translated
        try:
            return run(Paths(after.sources, out, after.project), generators, reporter,
                       RunOptions(tuple(slugs), force), EVERY)
        except RulepressError as exc:
            raise _at_side(exc, after) from None
        finally:
            if notes is not None:
                notes += [n for t in translated for n in t.notes]


def changed_faces(root: Path, sources: Path, old: str, games: Sequence[str],
                  reporter: Reporter, now: Callable[[], CheckedPrinting],
                  langs: Sequence[str] = (), source: str = DEFAULT_LANGUAGE,
                  ) -> tuple[str, dict[str, set[FaceId]]]:
    """For ``pnp --changed-since``: the old printing's label, and by game the faces of the
    working tree's printing (``now`` checks it: the printing the run then makes) that differ
    from it (its version stamp apart); by ``game/lang``
    those of each translation in ``langs`` the game has a catalog of, each printing drawn in
    that language from its own catalog, so a card whose translation changed is changed there
    (and one whose source changed, its translation gone fuzzy, too)."""
    from rulepress.i18n.apply import read_catalog, translated  # Babel: for translations
    from rulepress.i18n.books import languages_of  # Babel: for translations

    with sides(root, sources, old, None, games) as (before, after, slugs):
        reporter.progress(f"comparing the faces with {before.label}")
        checked = check_old(before, slugs)
        now_ = _passing(now(), slugs)
        changed: dict[str, set[FaceId]] = {}
        for result in now_:
            slug = result.doc.slug
            pairs = [(slug, checked[slug], result)]
            for lang in languages_of(result.doc, tuple(langs)):
                was = checked[slug]
                try:
                    then = translated(was.doc, read_catalog(was.doc, lang), source)
                except RulepressError as exc:
                    raise _at_side(exc, before) from None
                pairs.append((f"{slug}/{lang}", replace(was, doc=then), replace(
                    result, doc=translated(result.doc, read_catalog(result.doc, lang), source))))
            for key, was, new in pairs:
                old_faces, new_faces = faces_of([was, new])
                changed[key] = {(cid, *f.key) for cid, found in face_changes(
                    old_faces, new_faces).items() for f in found if f.kind != REMOVED}
        return before.label, changed


def changelog_lines(root: Path, sources: Path, old: str, games: Sequence[str],
                    reporter: Reporter, now: Callable[[], CheckedPrinting],
                    ) -> dict[str, tuple[str, ...]]:
    """For ``build --changelog-since``: by game, what changed since ``old`` in plain words,
    as the errata sheet's first page says it (both printings checked: ``now`` checks the
    working tree's, the printing the build then makes)."""
    with sides(root, sources, old, None, games) as (before, after, slugs):
        reporter.progress(f"comparing with {before.label} for the changelog")
        checked = check_old(before, slugs)
        now_ = _passing(now(), slugs)
        out: dict[str, tuple[str, ...]] = {}
        for result in now_:
            was = checked[result.doc.slug]
            old_faces, new_faces = faces_of([was, result])
            found = compare(was.doc, result.doc, face_changes(old_faces, new_faces))
            out[result.doc.slug] = tuple(summary(found)) or (f"Nothing changed since {old}.",)
        return out


def _passing(printing: CheckedPrinting, slugs: Sequence[str]) -> list[DocumentCheck]:
    """The games of ``slugs`` in the new printing, which must pass its check (as the run that
    then makes it will say, with every diagnostic) to be compared."""
    if printing.failed:
        raise RulepressError(printing.diagnostics, printing.status)
    return [g for g in printing.documents if g.doc.slug in slugs]


def only_changed(doc: Document, faces: set[FaceId]) -> Document:
    """``doc`` with only the pieces whose faces changed: of a component drawn from data rows,
    the rows whose front (or own back) changed, every row when its shared back did; of any other
    component, every copy if any face changed."""
    comps: list[Component] = []
    for comp in doc.meta.components:
        mine = {(back, i) for cid, back, i in faces if cid == comp.id}
        if not comp.in_kit or not mine:
            comps.append(comp)  # left out of the kit by the kit's ``only``
            continue
        rows = comp.data.rows if comp.data is not None else ()
        whole = any(i < 0 for _, i in mine) or not rows
        if whole:
            comps.append(comp)
            continue
        keep = tuple(r for i, r in enumerate(rows) if any(i == j for _, j in mine))
        assert comp.data is not None
        comps.append(replace(comp, data=replace(comp.data, rows=keep),
                             count=sum(r.qty for r in keep)))
    return replace(doc, meta=replace(doc.meta, components=tuple(comps)))


__all__ = ["Errata", "ErrataOptions", "changed_faces", "diff", "only_changed"]

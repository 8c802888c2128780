"""`rulepress build` and `rulepress pnp`: the pipeline with the books, or the kits."""

from __future__ import annotations

import os
from collections.abc import Collection, Sequence
from dataclasses import replace
from pathlib import Path

from rulepress.books import BookOptions, Books
from rulepress.diagnostics import Reporter, RulepressError
from rulepress.document.editions import EDITIONS, PLAYER
from rulepress.errata import changed_faces, changelog_lines
from rulepress.media import DEFAULT_LANGUAGE, FALLBACK_EPOCH, PAPER_KEYS
from rulepress.pipeline import (
    Built,
    Checked,
    Generator,
    Paths,
    RunOptions,
    check,
    run,
)
from rulepress.pnp.generator import KitOptions, Kits
from rulepress.project import DEFAULT_TITLE
from rulepress.validate.check import CheckedPrinting
from rulepress.validate.hooks import EVERY


def build_rulebooks(
    sources: Path,
    out: Path,
    *,
    games: Sequence[str] = (),
    papers: Sequence[str] = PAPER_KEYS,
    draft: bool = False,
    jobs: int = 0,
    editions: Sequence[str] = EDITIONS,
    project: Path | None = None,
    title: str = DEFAULT_TITLE,
    booklet: bool = False,
    reporter: Reporter,
    pdf: bool = True,
    press: bool = False,
    only: Collection[str] | None = None,
    force: bool = False,
    changelog_since: str | None = None,
    source: bool = True,
    also: Sequence[Generator] = (),
) -> Built:
    """Check, then write for each game and edition an HTML page and a PDF per paper, and
    out/index.html linking every game built into ``out`` (with the kits `pnp` writes).
    ``booklet`` adds the player edition imposed as a booklet per paper; ``press`` each edition
    as PDF/X-1a per paper for a manufacturer (GAME-a4-press.pdf, press.convert).

    Outputs whose inputs are unchanged (cache.py) are neither rendered nor rewritten; a game
    whose outputs are all unchanged is not even read. ``force``: rebuild everything.
    ``pdf=False``: the HTML pages only (their links to the PDFs stay). ``only``: the outputs,
    by path inside ``out``, to make; the others are left as they are. ``changelog_since``: a
    revision or folder; the reference edition's changelog says what changed since it.
    ``also``: more generators on the same check (the translations' books); ``source=False``:
    those alone."""
    if booklet and PLAYER not in editions:
        raise RulepressError.at(None, "--booklet imposes the player edition: build it too "
                                      "(--edition player or both)")
    # A fixed default keeps bytes (and the PDFs' dates) identical when the caller sets no epoch.
    os.environ.setdefault("SOURCE_DATE_EPOCH", FALLBACK_EPOCH)
    books = Books(BookOptions(tuple(papers), tuple(editions), booklet, draft,
                              os.environ["SOURCE_DATE_EPOCH"], None, press),
                  pdf=pdf, only=only, title=title)
    generators = ([books] if source else []) + list(also)
    paths = Paths(sources, out, project)
    options = RunOptions(tuple(games), force=force, draft=draft, draw=True, jobs=jobs)
    checked: list[Checked] = []
    if changelog_since is not None:  # errata/: computed from both printings, each checked once
        def now() -> CheckedPrinting:
            checked.append(check(paths, reporter, options, EVERY))  # EVERY: all hooks
            return checked[0].printing

        found = changelog_lines(project or Path.cwd(), sources, changelog_since, games,
                                reporter, now)
        books.options = replace(books.options,
                                changes=(changelog_since, tuple(sorted(found.items()))))
    return run(paths, generators, reporter, options, EVERY,
               checked[0] if checked else None)


def build_kits(
    sources: Path,
    out: Path,
    *,
    games: Sequence[str] = (),
    papers: Sequence[str] = PAPER_KEYS,
    duplex: str = "long",
    bleed_mm: float = 3.0,
    project: Path | None = None,
    reporter: Reporter,
    proof: bool = False,
    sides: str = "two",
    ink: str = "normal",
    only: Sequence[str] | None = None,
    force: bool = False,
    changed_since: str | None = None,
    source: bool = True,
    also: Sequence[Generator] = (),
    press: bool = False,
) -> Built:
    """Check every game as build does, draw every kit, and only then write them all.
    ``also``: more generators on the same check (the translations' kits); ``source=False``:
    those alone.
    ``proof``: instead of the kits, one page per game showing each distinct face at 1:1
    (out/<game>/<game>-proof.pdf). ``sides``, ``ink``, ``only``: see pnp.kit.Options. A game
    whose kit's inputs (and these options) are unchanged is skipped; ``force``: draw every kit.
    ``press``: each kit as PDF/X-1a for a print shop (<game>-<paper>-press.pdf).
    ``changed_since``: a revision or folder; each kit holds only the faces that differ from it."""
    since = None
    paths = Paths(sources, out, project)
    options = RunOptions(tuple(games), force=force)
    checked: list[Checked] = []
    if changed_since is not None:  # errata/: the faces that differ, each game's sorted
        if proof or only is not None:
            raise RulepressError.at(None, "--changed-since chooses the pieces itself: leave "
                                          f"out {'--proof' if proof else '--only'}")
        from rulepress.i18n.kits import TranslatedKits  # loads Babel: for translations alone

        translations = [g for g in also if isinstance(g, TranslatedKits)]
        langs = tuple(dict.fromkeys(x for g in translations for x in g.options.langs))

        def now() -> CheckedPrinting:
            checked.append(check(paths, reporter, options, EVERY))  # EVERY: all hooks
            return checked[0].printing

        label, changed = changed_faces(
            project or Path.cwd(), sources, changed_since, games, reporter, now, langs,
            translations[0].options.source if translations else DEFAULT_LANGUAGE)
        since = (label, tuple((slug, tuple(sorted(faces))) for slug, faces in changed.items()
                              if "/" not in slug))
        for g in translations:  # each language's own: a game/lang's changed faces
            g.options = replace(g.options, since=(label, tuple(
                (key, tuple(sorted(faces))) for key, faces in changed.items() if "/" in key)))
        for slug in (slug for slug, faces in changed.items() if not faces):
            reporter.progress(f"{slug}: no printed face changed since {label}: no kit")
    kits = Kits(KitOptions(tuple(papers), duplex, bleed_mm, proof, sides, ink,
                           None if only is None else tuple(only), since, press))
    return run(paths, ([kits] if source else []) + list(also), reporter, options, EVERY,
               checked[0] if checked else None)

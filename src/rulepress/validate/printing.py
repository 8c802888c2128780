"""The one check of a printing (a project's games as read, at one revision): every command
that checks (`check`, the pipeline's build, pnp, export and diff, both sides of an errata
comparison) calls :func:`check_printing` once per printing; nothing else checks a game."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rulepress.diagnostics import (
    Diagnostic,
    ExitStatus,
    Reporter,
    RulepressError,
    Severity,
    exit_status,
)
from rulepress.document.model import Document
from rulepress.validate.check import (
    CheckedPrinting,
    DocumentCheck,
    EngineChecks,
    check_game,
    check_kit,
)
from rulepress.validate.hooks import ALL, Hooks

if TYPE_CHECKING:
    from rulepress.write import Kept


def check_printing(
    docs: Sequence[Document],
    *,
    project: Path | None = None,
    hooks: Hooks = ALL,
    draw: bool = False,
    draft: bool = False,
    kept: Kept | None = None,
    extra: Sequence[Callable[[DocumentCheck], list[Diagnostic]]] = (),
    said: Reporter | None = None,
) -> CheckedPrinting:
    """Every game of ``docs`` checked once: its examples proven in its engine (in one worker,
    started for the whole printing), its components counted, and each hook of ``hooks`` run
    (references, glossary, teaching order, kits, playtest reports); then ``extra``, the
    generators' own checks of each game (translations, preflight), once every game has
    passed. ``project``: the folder engine modules are loaded from; ``draw``: each proven
    example's figures drawn too (the books need them); ``kept``: plots drawn by an earlier
    run, taken when drawn from the same inputs.

    Without ``said`` the printing is returned, whatever it holds (``rulepress check`` says it).
    With ``said``, any error raises with every diagnostic and the exit status of the worst
    (``draft``: examples the rules disprove are warnings, bad input still stops), the rest is
    said. A run that makes each game as it passes takes :func:`passing` instead."""
    if said is not None:
        checking(docs, said)
    printing = CheckedPrinting([])
    with EngineChecks(docs, project, draw, hooks=hooks) as engines:
        for doc in docs:
            printing.documents.append(check_game(doc, project=project, draw=draw, kit=True,
                                                 kept=kept, engines=engines))
    if extra and exit_status(_shown(printing, draft)) is ExitStatus.OK:
        for game in printing.documents:
            for check in extra:
                game.diagnostics += check(game)
    if said is not None:
        for _ in hand_on((), said=said, draft=draft, into=printing):
            pass
    return printing


def passing(
    docs: Sequence[Document],
    into: CheckedPrinting,
    *,
    said: Reporter,
    project: Path | None = None,
    hooks: Hooks = ALL,
    draw: bool = False,
    draft: bool = False,
    kept: Kept | None = None,
    extra: Sequence[Callable[[DocumentCheck], list[Diagnostic]]] = (),
) -> Iterator[DocumentCheck]:
    """:func:`check_printing` for a run that writes, game by game: each is yielded as soon as
    it and every game before it have passed (its ``extra`` run), so its units can start
    while the next is checked (and while its own kit is: the last part of its check, which no
    page depends on); ``into`` gathers them all. Once every game is checked, as
    :func:`hand_on` says."""
    checking(docs, said)
    with EngineChecks(docs, project, draw, hooks=hooks) as engines:
        def checked() -> Iterator[DocumentCheck]:
            for doc in docs:
                game = check_game(doc, project=project, draw=draw, kit=False, kept=kept,
                                  engines=engines)
                yield game
                game.add_kit(check_kit(game, engines))

        yield from hand_on(checked(), said=said, draft=draft, extra=extra, into=into)


def checking(docs: Sequence[Document], said: Reporter) -> None:
    """Say that ``docs`` are being checked (as the check says it)."""
    if docs:
        said.progress(f"checking {len(docs)} game{'' if len(docs) == 1 else 's'}")


def hand_on(
    games: Iterable[DocumentCheck],
    *,
    said: Reporter,
    into: CheckedPrinting,
    draft: bool = False,
    extra: Sequence[Callable[[DocumentCheck], list[Diagnostic]]] = (),
) -> Iterator[DocumentCheck]:
    """The games of a printing checked (by :func:`passing`, as each comes, or all before: a
    command that compared them first), handed on to a run that writes: each is gathered in
    ``into``, and yielded once it and every game before it have passed, after its ``extra``
    has run. Once all have come, any error raises with every diagnostic and the exit status
    of the worst (``draft``: examples the rules disprove are warnings); else they are said.
    Nothing is checked again here."""
    for game in games:
        into.documents.append(game)
        if exit_status(_shown(into, draft)) is ExitStatus.OK:
            for check in extra:
                game.diagnostics += check(game)
            if exit_status(_shown(into, draft)) is ExitStatus.OK:
                yield game
    status = exit_status(_shown(into, draft))
    if status is not ExitStatus.OK:
        raise RulepressError(_shown(into, draft), status)
    said.diagnostics(_shown(into, draft))


def _shown(printing: CheckedPrinting, draft: bool) -> list[Diagnostic]:
    """The printing's diagnostics as said (``draft``: examples the rules disprove warn)."""
    return [Diagnostic(d.loc, Severity.WARNING, d.message) if draft and d.disproved else d
            for d in printing.diagnostics]

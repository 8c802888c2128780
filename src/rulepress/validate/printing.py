"""The one check of a printing (a project's games as read, at one revision): every command
that checks (`check`, the pipeline's build, pnp, export and diff, both sides of an errata
comparison) calls :func:`check_printing` once per printing; nothing else checks a game."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from rulepress.diagnostics import (
    Diagnostic,
    ExitStatus,
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


class Said(Protocol):
    """Where the check says what it does and what it found (a command's reporter)."""

    def progress(self, message: str) -> None: ...
    def diagnostics(self, diagnostics: list[Diagnostic]) -> None: ...


def check_printing(
    docs: Sequence[Document],
    *,
    project: Path | None = None,
    hooks: Hooks = ALL,
    draw: bool = False,
    draft: bool = False,
    kept: Kept | None = None,
    passed: Callable[[DocumentCheck], None] | None = None,
    extra: Sequence[Callable[[DocumentCheck], list[Diagnostic]]] = (),
    said: Said | None = None,
) -> CheckedPrinting:
    """Every game of ``docs`` checked once: its examples proven in its engine (in one worker,
    started for the whole printing), its components counted, and each hook of ``hooks`` run
    (references, glossary, teaching order, kits, playtest reports); then ``extra``, the
    generators' own checks of each game (translations, preflight). ``project``: the folder
    engine modules are loaded from; ``draw``: each proven example's figures drawn too (the
    books need them); ``kept``: plots drawn by an earlier run, taken when drawn from the same
    inputs.

    Without ``said`` the printing is returned, whatever it holds (``rulepress check`` says it);
    ``extra`` then runs once every game has passed. With ``said`` (a run that writes), any
    error raises with every diagnostic and the exit status of the worst (``draft``: examples
    the rules disprove are warnings, bad input still stops), the rest is said; ``passed`` is
    given each game as soon as it and every game before it have passed, so its units can start
    while the next is checked (and while its own kit is: the last part of its check, which no
    page depends on); ``extra`` runs on each game once it has passed."""
    if said is not None:
        checking(docs, said)
    printing = CheckedPrinting([])
    with EngineChecks(docs, project, draw, hooks=hooks) as engines:
        if passed is None:
            for doc in docs:
                printing.documents.append(check_game(doc, project=project, draw=draw, kit=True,
                                                     kept=kept, engines=engines))
        else:
            assert said is not None, "a run that makes each game as it passes says the check"

            def checked() -> Iterator[DocumentCheck]:
                for doc in docs:
                    game = check_game(doc, project=project, draw=draw, kit=False, kept=kept,
                                      engines=engines)
                    yield game
                    game.add_kit(check_kit(game, engines))

            return hand_on(checked(), said=said, draft=draft, passed=passed, extra=extra,
                           into=printing)
    if extra and exit_status(_shown(printing, draft)) is ExitStatus.OK:
        for game in printing.documents:
            for check in extra:
                game.diagnostics += check(game)
    if said is None:
        return printing
    return hand_on((), said=said, draft=draft, into=printing)


def checking(docs: Sequence[Document], said: Said) -> None:
    """Say that ``docs`` are being checked (as the check says it)."""
    if docs:
        said.progress(f"checking {len(docs)} game{'' if len(docs) == 1 else 's'}")


def hand_on(
    games: Iterable[DocumentCheck],
    *,
    said: Said,
    draft: bool = False,
    passed: Callable[[DocumentCheck], None] | None = None,
    extra: Sequence[Callable[[DocumentCheck], list[Diagnostic]]] = (),
    into: CheckedPrinting | None = None,
) -> CheckedPrinting:
    """The games of a printing checked (by check_printing, as each comes, or all before: a
    command that compared them first), handed on to a run that writes: each game's ``extra``
    run once it and every game before it have passed, then ``passed`` given it; any error
    raises with every diagnostic and the exit status of the worst (``draft``: examples the
    rules disprove are warnings), the rest is said. Nothing is checked again here."""
    printing = into if into is not None else CheckedPrinting([])
    failed: RulepressError | None = None  # by ``passed``: reported after the check's own

    def shown() -> list[Diagnostic]:
        return _shown(printing, draft)

    for game in games:
        printing.documents.append(game)
        if passed is None and not extra:
            continue
        if exit_status(shown()) is ExitStatus.OK:
            for check in extra:
                game.diagnostics += check(game)
        if passed is not None and failed is None and exit_status(shown()) is ExitStatus.OK:
            try:
                passed(game)
            except RulepressError as exc:
                failed = exc
    status = exit_status(shown())
    if status is not ExitStatus.OK:
        raise RulepressError(shown(), status)
    said.diagnostics(shown())
    if failed is not None:
        raise failed
    return printing


def _shown(printing: CheckedPrinting, draft: bool) -> list[Diagnostic]:
    """The printing's diagnostics as said (``draft``: examples the rules disprove warn)."""
    return [Diagnostic(d.loc, Severity.WARNING, d.message) if draft and d.disproved else d
            for d in printing.diagnostics]

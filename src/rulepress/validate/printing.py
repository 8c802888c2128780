"""The one check of a printing (a project's games as read, at one revision): every command
that checks (`check`, the pipeline's build, pnp, export and diff, both sides of an errata
comparison) calls :func:`check_printing` once per printing; nothing else checks a game."""

from __future__ import annotations

from collections.abc import Callable, Sequence
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
    if docs and said is not None:
        said.progress(f"checking {len(docs)} game{'' if len(docs) == 1 else 's'}")
    printing = CheckedPrinting([])
    failed: RulepressError | None = None  # by ``passed``: reported after the check's own

    def shown() -> list[Diagnostic]:
        return [Diagnostic(d.loc, Severity.WARNING, d.message) if draft and d.disproved else d
                for d in printing.diagnostics]

    with EngineChecks(docs, project, draw, hooks=hooks) as engines:
        for doc in docs:
            game = check_game(doc, project=project, draw=draw, kit=passed is None, kept=kept,
                              engines=engines)
            printing.documents.append(game)
            if passed is None:
                continue
            if exit_status(shown()) is ExitStatus.OK:
                for check in extra:
                    game.diagnostics += check(game)
            if failed is None and exit_status(shown()) is ExitStatus.OK:
                try:
                    passed(game)
                except RulepressError as exc:
                    failed = exc
            game.add_kit(check_kit(game, engines))
    if passed is None and extra and exit_status(shown()) is ExitStatus.OK:
        for game in printing.documents:
            for check in extra:
                game.diagnostics += check(game)
    if said is None:
        return printing
    status = exit_status(shown())
    if status is not ExitStatus.OK:
        raise RulepressError(shown(), status)
    said.diagnostics(shown())
    if failed is not None:
        raise failed
    return printing

"""Source locations, diagnostics and the exit codes every command shares."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol


class ExitStatus(enum.IntEnum):
    """Every command's exit codes (the README states them; a test enforces the table)."""

    OK = 0
    CHECK_FAILED = 1  # an example or a cross-check was disproved
    BAD_INPUT = 2  # bad input or usage
    INTERRUPTED = 130  # stopped by Ctrl-C (128 + SIGINT)
    TERMINATED = 143  # stopped by SIGTERM (128 + SIGTERM)


@dataclass(frozen=True, order=True)
class SourceLoc:
    path: Path
    line: int  # 1-based
    col: int = 1

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"


class Severity(enum.Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class Diagnostic:
    loc: SourceLoc | None
    severity: Severity
    message: str
    disproved: bool = False  # an error the rules disprove (exit 1), not bad input (exit 2)

    def __str__(self) -> str:
        where = f"{self.loc}: " if self.loc else "rulepress: "
        return f"{where}{self.severity.value}: {self.message}"


def not_utf8(path: Path, exc: UnicodeDecodeError) -> tuple[SourceLoc, str]:
    """The line of the first byte of ``path`` that is not UTF-8, and what to say (in our words,
    not the codec's)."""
    raw = bytes(exc.object)
    line = raw.count(b"\n", 0, exc.start) + 1
    return SourceLoc(path, line), f"not UTF-8 text (byte 0x{raw[exc.start]:02x}); save it as UTF-8"


def error(loc: SourceLoc | None, message: str) -> Diagnostic:
    return Diagnostic(loc, Severity.ERROR, message)


def warning(loc: SourceLoc | None, message: str) -> Diagnostic:
    return Diagnostic(loc, Severity.WARNING, message)


def disproved(loc: SourceLoc | None, message: str) -> Diagnostic:
    """An error the rules themselves disprove: a claim, a count the engine or kit contradicts."""
    return Diagnostic(loc, Severity.ERROR, message, disproved=True)


def exit_status(diagnostics: list[Diagnostic]) -> ExitStatus:
    """2 when any error is bad input, else 1 when any error is disproved, else 0."""
    errors = [d for d in diagnostics if d.severity is Severity.ERROR]
    if any(not d.disproved for d in errors):
        return ExitStatus.BAD_INPUT
    return ExitStatus.CHECK_FAILED if errors else ExitStatus.OK


def counted(diagnostics: list[Diagnostic], proven: int | None = None) -> str:
    """'12 examples proven, 1 warning, 0 errors' (without the examples when not counted)."""
    errors = sum(d.severity is Severity.ERROR for d in diagnostics)
    parts = [] if proven is None else [_plural(proven, "example") + " proven"]
    parts += [_plural(len(diagnostics) - errors, "warning"), _plural(errors, "error")]
    return ", ".join(parts)


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


class RulepressError(Exception):
    """An error the user caused (bad input, failed check). Anything else is a bug."""

    def __init__(self, diagnostics: list[Diagnostic], status: ExitStatus = ExitStatus.BAD_INPUT):
        super().__init__("\n".join(str(d) for d in diagnostics))
        self.diagnostics = diagnostics
        self.status = status

    @classmethod
    def at(cls, loc: SourceLoc | None, message: str) -> RulepressError:
        return cls([error(loc, message)])


class Reporter(Protocol):
    """Where a command says what it does (``progress``: a plain message, or a pipeline Step)
    and what it found: the one reporter of a command, which the check and the pipeline share."""

    def progress(self, message: str) -> None: ...
    def diagnostics(self, diagnostics: list[Diagnostic]) -> None: ...

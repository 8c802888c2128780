"""Source locations, diagnostics and the exit codes every command shares."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path


class ExitStatus(enum.IntEnum):
    OK = 0
    CHECK_FAILED = 1
    BAD_INPUT = 2


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

    def __str__(self) -> str:
        where = f"{self.loc}: " if self.loc else "rulepress: "
        return f"{where}{self.severity.value}: {self.message}"


def error(loc: SourceLoc | None, message: str) -> Diagnostic:
    return Diagnostic(loc, Severity.ERROR, message)


def warning(loc: SourceLoc | None, message: str) -> Diagnostic:
    return Diagnostic(loc, Severity.WARNING, message)


class RulepressError(Exception):
    """An error the user caused (bad input, failed check). Anything else is a bug."""

    def __init__(self, diagnostics: list[Diagnostic], status: ExitStatus = ExitStatus.BAD_INPUT):
        super().__init__("\n".join(str(d) for d in diagnostics))
        self.diagnostics = diagnostics
        self.status = status

    @classmethod
    def at(cls, loc: SourceLoc | None, message: str) -> RulepressError:
        return cls([error(loc, message)])

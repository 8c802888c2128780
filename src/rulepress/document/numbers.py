"""Numbers in the rules from the engine: ``{{ tables.hand_limit.usual }}`` in the rules text
prints the engine's number, and a sentence marked as a rule,
``[Draw up to 5 cards.]{rule=hand_limit.usual}``, prints as written while its bare numbers are
checked against the engine's named constants, so prose and engine cannot drift apart.

The engine's named constants come from its tables: each field of a one-row table
(``hand_limit.usual``), and each row of a table whose rows have ``name`` and ``value``
(``scoring.bonus``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rulepress.diagnostics import Diagnostic, disproved, error
from rulepress.document.model import Document
from rulepress.suggest import suggest

REF = re.compile(r"\{\{\s*tables\.([A-Za-z_]\w*\.[A-Za-z_]\w*)\s*\}\}")
RULE = re.compile(r"\[([^\[\]\n]+)\]\{rule=([^}\n]*)\}")
NUMBER = re.compile(r"(?<![\w.])(?<!\d,)\d+(?:\.\d+)?(?!\w|,\d{3}|\.\d)")  # not in 1,000
NAME = re.compile(r"^[A-Za-z_]\w*\.[A-Za-z_]\w*\Z")

Tables = Mapping[str, Sequence[Mapping[str, Any]]]

_FILLED: dict[Path, dict[str, Any]] = {}  # a checked game's constants, for its book's text


def constants(tables: Tables) -> dict[str, Any]:
    """The named constants ``table.name`` an engine's tables hold (numbers and text)."""
    out: dict[str, Any] = {}
    for table, rows in tables.items():
        rows = list(rows)
        if len(rows) == 1:
            out |= {f"{table}.{field}": value for field, value in rows[0].items()}
        if rows and all("name" in r and "value" in r for r in rows):
            out |= {f"{table}.{r['name']}": r["value"] for r in rows}
    return {k: v for k, v in out.items() if isinstance(v, int | float | str)
            and not isinstance(v, bool)}


def uses_numbers(doc: Document) -> bool:
    return any(REF.search(p.text) or RULE.search(p.text) for p in doc.parts)


def check_numbers(doc: Document, tables: Tables | None, engine: str) -> list[Diagnostic]:
    """Every ``{{ tables... }}`` of the rules text names a constant of the engine; every
    marked rule's bare numbers are the constants it names. ``tables``: None when the game
    has no engine."""
    named = constants(tables or {})
    known = ", ".join(sorted(named)) or "none"
    found: list[Diagnostic] = []

    def unknown(name: str) -> str:
        if tables is None:
            return f"'{name}' is a number of the engine's tables, but the game names no engine"
        hint = suggest(name, sorted(named))
        return f"the {engine} engine names no constant '{name}'{hint}; it names {known}"

    for part in doc.parts:
        for n, line in enumerate(part.text.splitlines()):
            for m in REF.finditer(line):
                if m[1] not in named:
                    found.append(error(part.loc(n, m.start() + 1), unknown(m[1])))
            for m in RULE.finditer(line):
                names = [s.strip() for s in m[2].split(",")]
                here = part.loc(n, m.start() + 1)
                bad = [s for s in names if not NAME.match(s)]
                if bad or not names:
                    found.append(error(here, f"a rule names the constants it states, e.g. "
                                             f"{{rule=hand_limit.usual}}, not '{m[2]}'"))
                    continue
                missing = [s for s in names if s not in named]
                if missing:
                    found += [error(here, unknown(s)) for s in missing]
                    continue
                numbers = NUMBER.findall(m[1])
                if len(numbers) != len(names):
                    found.append(error(here, f"this rule shows {len(numbers)} number"
                                             f"{'s' * (len(numbers) != 1)} "
                                             f"({', '.join(numbers) or 'none'}) but names "
                                             f"{len(names)} constant{'s' * (len(names) != 1)} "
                                             f"({', '.join(names)}): one for each, in order"))
                    continue
                for said, name in zip(numbers, names, strict=True):
                    if not _same(said, named[name]):
                        found.append(disproved(here, f"this rule says {said} for {name}, the "
                                                     f"{engine} engine holds {named[name]}"))
    return found


def _same(said: str, held: Any) -> bool:
    try:
        return float(said) == float(held)
    except (TypeError, ValueError):
        return False


def remember(doc: Document, tables: Tables) -> None:
    """The checked game's constants, for fill() as its book is rendered (the same process)."""
    _FILLED[doc.path] = constants(tables)


def fill(doc: Document, text: str, named: Mapping[str, Any] | None = None) -> str:
    """``text`` of ``doc`` as its book prints it: numbers from the engine (``named``, else
    those the check remembered), rule marks off."""
    named = _FILLED.get(doc.path, {}) if named is None else named
    text = REF.sub(lambda m: str(named.get(m[1], m[0])), text)
    return RULE.sub(lambda m: m[1], text)

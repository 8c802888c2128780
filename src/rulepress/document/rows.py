"""A component's data rows: a CSV file in the game's folder or a list in the front matter.

One row per distinct face; its ``qty`` field (default 1) says how many copies to print, as
Squib's ``qty`` column does. Every row keeps the line it was written on.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from rulepress.diagnostics import Diagnostic, SourceLoc, error, not_utf8
from rulepress.document.model import Document, Row
from rulepress.document.yamlines import KeyPath
from rulepress.jail import PathRefused, read_regular
from rulepress.limits import MAX_COMPONENT_COUNT, MAX_DATA_BYTES, MAX_DATA_FIELDS, MAX_DATA_ROWS

# The csv module refuses a field past 128 KB, in its words; a data file's limit is ours.
csv.field_size_limit(max(csv.field_size_limit(), MAX_DATA_BYTES))

QTY = "qty"
FIELD = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\Z")
# Names every layout template sees besides a row's fields (faces.context builds them).
RESERVED = frozenset({"row", "game", "rules", "tables", "component", "item", "i"})


def inside(folder: Path, name: str) -> Path | None:
    """``name`` resolved inside ``folder`` (symlinks followed), or None when it leaves it."""
    if not name or Path(name).is_absolute() or ".." in Path(name).parts:
        return None
    root = folder.resolve()
    target = (root / name).resolve()
    return target if target.is_relative_to(root) else None


def field_problem(name: str) -> str | None:
    if not FIELD.match(name):
        fixed = re.sub(r"\W+", "_", name.strip()).strip("_") or "field"
        return (f"field name '{name}' cannot be used in a layout: use letters, digits and _ "
                f"(e.g. '{fixed}')")
    if name in RESERVED:
        return f"field name '{name}' is taken by layouts ({', '.join(sorted(RESERVED))}); rename it"
    return None


def qty_problem(value: Any) -> str | None:
    """Why ``value`` is no qty (a whole number of copies, as a number or as a CSV's text),
    or None: the one reading of qty, for data files, front matter rows and engine tables."""
    text = str(value).strip()
    # isascii: isdigit() passes '²', which int() refuses
    if isinstance(value, bool) or not text.isascii() or not text.isdigit() or not text.strip("0"):
        return f"qty must be a whole number of copies, at least 1, not {value!r}"
    if len(text.lstrip("0")) > len(str(MAX_COMPONENT_COUNT)):  # int() refuses 5000 digits
        shown = text if len(text) <= 20 else f"{text[:20]}..."
        return f"qty must be at most {MAX_COMPONENT_COUNT}, not {shown}"
    return None


def _qty(value: Any, loc: SourceLoc, out: list[Diagnostic]) -> int:
    problem = qty_problem(value)
    if problem:
        out.append(error(loc, problem))
        return 1
    return int(str(value).strip())


def read_csv(folder: Path, name: str, loc: SourceLoc) -> tuple[tuple[Row, ...], list[Diagnostic]]:
    """The rows of the CSV file ``name`` (inside ``folder``); errors at the file's lines."""
    target = inside(folder, name)
    if target is None:
        return (), [error(loc, f"data file '{name}' must be inside the game's folder")]
    if not target.is_file():
        return (), [error(loc, f"data file '{name}' does not exist in {folder.name}/")]
    where = folder / name
    try:
        text = read_regular(target, MAX_DATA_BYTES).decode("utf-8").removeprefix("\ufeff")
    except PathRefused:
        return (), [error(loc, f"data file '{name}' is larger than {MAX_DATA_BYTES // 2**20} MB")]
    except OSError as exc:
        return (), [error(SourceLoc(where, 1), f"cannot read: {exc.strerror}")]
    except UnicodeDecodeError as exc:
        return (), [error(*not_utf8(where, exc))]
    sep = separator(text)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep, strict=True)
    out: list[Diagnostic] = []
    rows: list[Row] = []
    header: list[str] | None = None
    end = 0  # the line the previous record ended on
    try:
        for record in reader:
            start, end = end + 1, reader.line_num
            here = SourceLoc(where, start)
            if not any(cell.strip() for cell in record):
                continue
            if header is None:
                header = [cell.strip() for cell in record]
                out += _header_problems(header, here)
                continue
            if len(record) > len(header):
                out.append(error(here, f"this row has {len(record)} cells but the header names "
                                       f"{len(header)}{_named(sep)}"))
                continue
            fields = dict(zip(header, [c.strip() for c in record], strict=False))
            fields |= {h: "" for h in header[len(record):]}
            rows.append(_row(fields, here, out))
            if len(rows) > MAX_DATA_ROWS:
                return (), [error(here, f"more than {MAX_DATA_ROWS} rows")]
    except csv.Error as exc:
        out.append(error(SourceLoc(where, reader.line_num), f"not a valid CSV file: {exc}"))
    if header is None:
        out.append(error(SourceLoc(where, 1), "the file is empty: the first line names the fields"))
    elif not rows and not out:
        out.append(error(SourceLoc(where, end or 1), "the file has a header but no rows"))
    return tuple(rows), out


SEPARATORS = {",": "commas", ";": "semicolons", "\t": "tabs"}


def separator(text: str) -> str:
    """The separator of a CSV file: the one its header line uses most, commas on a tie.
    Spreadsheets set to a European locale save semicolons; some tools save tabs."""
    header = next((ln for ln in text.splitlines() if ln.strip()), "")
    header = re.sub(r'"[^"]*"', "", header)  # a quoted name may hold any of them
    return max(SEPARATORS, key=lambda s: (header.count(s), s == ","))


def _named(sep: str) -> str:
    return "" if sep == "," else f" (cells separated by {SEPARATORS[sep]}, as its header is)"


def _header_problems(header: list[str], loc: SourceLoc) -> list[Diagnostic]:
    if len(header) > MAX_DATA_FIELDS:
        return [error(loc, f"the header names {len(header):,} fields, more than the limit of "
                           f"{MAX_DATA_FIELDS:,}")]
    out = [error(loc, p) for h in header if (p := field_problem(h))]
    counts = Counter(header)  # counted once: header.count() per name took minutes on a wide one
    doubled = sorted(h for h, n in counts.items() if n > 1)
    if doubled:
        out.append(error(loc, f"the header names {', '.join(doubled)} twice"))
    return out


def _row(fields: dict[str, Any], loc: SourceLoc, out: list[Diagnostic]) -> Row:
    qty = _qty(fields.pop(QTY), loc, out) if QTY in fields else 1
    return Row(fields, qty, loc)


def inline_rows(
    raw: list[Any], key: KeyPath, lines: Mapping[KeyPath, int], path: Path, fallback: int
) -> tuple[tuple[Row, ...], list[Diagnostic]]:
    """Rows written as a YAML list of mappings in the front matter."""
    out: list[Diagnostic] = []
    rows: list[Row] = []
    if len(raw) > MAX_DATA_ROWS:
        where = SourceLoc(path, lines.get(key, fallback))
        return (), [error(where, f"more than {MAX_DATA_ROWS} rows")]
    for i, item in enumerate(raw):
        here = SourceLoc(path, lines.get((*key, i), fallback))
        if not isinstance(item, dict) or not item:
            out.append(error(here, "each data row is a mapping of field names to values, "
                                   "e.g. {name: Ace, qty: 4}"))
            continue
        fields: dict[str, Any] = {}
        for name, value in item.items():
            at = SourceLoc(path, lines.get((*key, i, str(name)), here.line))
            problem = field_problem(str(name))
            if problem:
                out.append(error(at, problem))
            elif isinstance(value, dict | list):
                out.append(error(at, f"field '{name}' must be a single value (text or number)"))
            else:
                fields[str(name)] = "" if value is None else value
        rows.append(_row(fields, here, out))
    return tuple(rows), out


def copies(rows: tuple[Row, ...]) -> list[int]:
    """Copy index -> row index: each row repeated ``qty`` times, in order."""
    return [n for n, row in enumerate(rows) for _ in range(row.qty)]


def table_counts(doc: Document, tables: Mapping[str, Sequence[Mapping[str, Any]]]) -> Document:
    """``doc`` with the count of each component drawn from an engine's table, given no count
    of its own, set to the copies that table makes."""
    comps = []
    for c in doc.meta.components:
        table = tables.get(c.data.engine) if c.data is not None and c.data.engine else None
        if c.count == 0:  # 1 when the table cannot say: drawing it says why
            good = table and all(not qty_problem(r.get(QTY, 1)) for r in table)
            c = replace(c, count=sum(int(str(r.get(QTY, 1)).strip()) for r in table)
                        if table and good else 1)
        comps.append(c)
    if tuple(comps) == doc.meta.components:
        return doc
    return replace(doc, meta=replace(doc.meta, components=tuple(comps)))


def counts_from_tables(doc: Document) -> bool:
    """Some component of ``doc`` takes its count from an engine's table (table_counts)."""
    return any(c.count == 0 for c in doc.meta.components)

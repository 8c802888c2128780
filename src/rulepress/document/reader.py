"""Read phase: every source file becomes an immutable Document, or diagnostics at file:line."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import TemplateSyntaxError
from markdown_it import MarkdownIt
from markdown_it.token import Token

from rulepress.diagnostics import Diagnostic, RulepressError, SourceLoc, error, not_utf8
from rulepress.document import yamlines
from rulepress.document.editions import (
    BOX,
    CONTAINER,
    EDITIONS,
    NEW_PAGE,
    REFERENCE,
    Mark,
    heading_marker,
    heading_problem,
    marker_problem,
    section_spans,
)
from rulepress.document.lookup import find_rulings, find_terms, typed_numbers
from rulepress.document.markdown import make_parser, too_deep
from rulepress.document.model import Document, Example, Heading, Part
from rulepress.document.rows import QTY
from rulepress.document.schema import ID, build_meta
from rulepress.document.slug import game_name_problem, slugify, unique
from rulepress.document.yamlines import KeyPath
from rulepress.games.data import provide
from rulepress.jail import PathRefused, read_regular
from rulepress.prose import data_holding, shows_a_number
from rulepress.sandbox import syntax_problem
from rulepress.suggest import nearest

RULES_FILE = "rules.md"
EXAMPLE_INFO = "example"
SIMULATION_INFO = "simulation"  # a playtest report: figures from a simulation's summary
EXAMPLE_RESERVED = {"id", "title", "claims", "text", "edition"}
_FENCE = re.compile(r"^---\s*$")


def read_sources(sources: Path, games: Sequence[str] = ()) -> list[Document]:
    """Read the named games (all when empty) from a sources folder; raise once for all errors."""
    docs: list[Document] = []
    diagnostics: list[Diagnostic] = []
    for slug in source_games(sources, games):
        problem = game_name_problem(slug)
        if problem is not None:
            diagnostics.append(error(SourceLoc(sources / slug / RULES_FILE, 1), problem))
            continue
        try:
            docs.append(read_document(sources / slug / RULES_FILE, slug))
        except RulepressError as exc:
            diagnostics.extend(exc.diagnostics)
    if diagnostics:
        raise RulepressError(diagnostics)
    return docs


def source_games(sources: Path, games: Sequence[str] = ()) -> list[str]:
    """The folder names of the named games (all the folder's games when none is named), once
    each; an error when the folder or a named game does not exist."""
    if not sources.is_dir():
        raise RulepressError.at(None, f"sources folder '{sources}' does not exist")
    try:  # glob() finds nothing in a folder it may not list, and would say it holds no game
        os.scandir(sources).close()
    except OSError as exc:
        raise RulepressError.at(None, f"sources folder '{sources}' cannot be read: "
                                      f"{exc.strerror}") from None
    available = sorted(p.parent.name for p in sources.glob(f"*/{RULES_FILE}"))
    if not available:
        raise RulepressError.at(
            None, f"sources folder '{sources}' holds no game (expected <game>/{RULES_FILE})"
        )
    unknown = [g for g in games if g not in available]
    if unknown:
        raise RulepressError.at(
            None,
            f"unknown game {', '.join(repr(g) for g in unknown)}; "
            f"'{sources}' has: {', '.join(available)}",
        )
    return list(dict.fromkeys(games)) if games else available


def read_document(path: Path, slug: str | None = None) -> Document:
    slug = slug or path.parent.name
    text = _decode(path)
    if not text.strip():
        raise RulepressError.at(SourceLoc(path, 1), "the file is empty")

    lines = text.split("\n")
    if not _FENCE.match(lines[0]):
        raise RulepressError.at(
            SourceLoc(path, 1), "missing front matter: the file must start with a '---' line"
        )
    end = next((i for i in range(1, len(lines)) if _FENCE.match(lines[i])), None)
    if end is None:
        raise RulepressError.at(
            SourceLoc(path, 1), "front matter is not closed: add a '---' line after it"
        )
    try:
        data, key_lines = yamlines.load("\n".join(lines[1:end]), first_line=2)
    except yamlines.YamlError as exc:
        raise RulepressError.at(SourceLoc(path, exc.line), f"front matter: {exc.message}") from None
    if data is None:
        raise RulepressError.at(SourceLoc(path, 1), "the front matter is empty")
    meta, diagnostics = build_meta(data, key_lines, path, first_line=2)

    parts = [Part(path, "\n".join(lines[end + 1 :]), end + 2)]
    if meta is not None:
        found, file_diags = _more_parts(path, meta.files, key_lines)
        parts += found
        diagnostics += file_diags
    headings: list[Heading] = []
    examples: list[Example] = []
    marks: list[Mark] = []
    taken: set[str] = set()
    ids: set[str] = set()
    parsed = []
    for part in parts:
        tokens = _parser().parse(part.text)
        parsed.append((part, tokens))
        found_headings, heading_diags = _headings(tokens, part, taken)
        headings += found_headings
        diagnostics += heading_diags
        found_examples, example_diags = _examples(tokens, part, ids)
        examples += found_examples
        diagnostics += example_diags
        diagnostics += _raw_html(tokens, part)
        deep = too_deep(tokens)
        if deep is not None:
            diagnostics.append(error(part.loc(deep[0]), deep[1]))
        block_marks, mark_diags = _block_marks(tokens, part)
        marks += block_marks
        diagnostics += mark_diags
    terms, term_diags = find_terms(parsed, taken)
    rulings = find_rulings(parsed, taken)
    diagnostics += term_diags + typed_numbers(parsed, rulings)
    for h in headings:
        if h.edition is not None:
            marks.append(Mark(h.loc, h.edition, h.level, 0))
    spans = section_spans(
        marks, [(h.loc, h.level) for h in headings],
        [(p.path, p.first_line + p.text.count("\n")) for p in parts],
    )
    if not headings:
        diagnostics.append(error(parts[0].loc(0), "the rules text has no heading"))
    for ex in examples:
        if f"example-{ex.id}" in taken:
            diagnostics.append(error(ex.loc, f"example id '{ex.id}' clashes with a heading anchor"))
    if diagnostics or meta is None:
        raise RulepressError(sorted(diagnostics, key=lambda d: d.loc or SourceLoc(path, 0)))
    if meta.engine:  # what the engine may ask for (games.data)
        provide(meta.engine, {c.id: tuple({**r.fields, QTY: r.qty} for r in c.data.rows)
                              for c in meta.components if c.data is not None and c.data.rows})
    return Document(slug, path, meta, tuple(parts), tuple(headings),
                    tuple(e for e in examples if e.kind == EXAMPLE_INFO), tuple(spans),
                    tuple(e for e in examples if e.kind == SIMULATION_INFO),
                    terms=tuple(terms), rulings=tuple(rulings))


def _more_parts(
    path: Path, files: Sequence[str], key_lines: Mapping[KeyPath, int]
) -> tuple[list[Part], list[Diagnostic]]:
    """The Markdown files ``files:`` names, read from inside the game's folder."""
    folder = path.parent.resolve()
    parts: list[Part] = []
    diags: list[Diagnostic] = []
    seen = {path.resolve()}
    for i, name in enumerate(files):
        loc = SourceLoc(path, key_lines.get(("files", i), key_lines.get(("files",), 1)))
        target = (folder / name).resolve()
        if Path(name).is_absolute() or ".." in Path(name).parts or not target.is_relative_to(
            folder
        ):
            diags.append(error(loc, f"'{name}' is not inside the game's folder"))
        elif target.suffix != ".md":
            diags.append(error(loc, f"'{name}' is not a Markdown file (.md)"))
        elif target in seen:
            diags.append(error(loc, f"'{name}' is named twice (rules.md is read first)"))
        elif not target.is_file():
            diags.append(error(loc, f"'{name}' does not exist in {path.parent.name}/"))
        else:
            seen.add(target)
            try:
                text = _decode(folder / name)
            except RulepressError as exc:
                diags += exc.diagnostics
                continue
            parts.append(Part(folder / name, text, 1))
    return parts, diags


def _decode(path: Path) -> str:
    """The file as text with Unix line ends; an error at the first byte that is not UTF-8."""
    try:
        raw = read_regular(path)
    except OSError as exc:
        raise RulepressError.at(SourceLoc(path, 1), f"cannot read: {exc.strerror}") from None
    except PathRefused as exc:
        raise RulepressError.at(SourceLoc(path, 1), f"cannot read: {exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RulepressError.at(*not_utf8(path, exc)) from None
    return text.removeprefix("\ufeff").replace("\r\n", "\n")


@cache
def _parser() -> MarkdownIt:
    return make_parser(detect_html=True)


def _loc(token: Token, part: Part) -> SourceLoc:
    return part.loc(token.map[0] if token.map else 0)


def _inline_text(token: Token) -> str:
    return "".join(
        child.content for child in (token.children or []) if child.type in {"text", "code_inline"}
    )


def _headings(
    tokens: list[Token], part: Part, taken: set[str]
) -> tuple[list[Heading], list[Diagnostic]]:
    out: list[Heading] = []
    diags: list[Diagnostic] = []
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open":
            text, classes = heading_marker(_inline_text(tokens[i + 1]).strip())
            problem = heading_problem(classes)
            if problem:
                diags.append(error(_loc(tok, part), f"heading '{text}': {problem}"))
                classes = ()
            edition = next((c for c in classes if c in EDITIONS), None)
            anchor = unique(slugify(text), taken)
            out.append(Heading(int(tok.tag[1]), text, anchor, _loc(tok, part), edition,
                               NEW_PAGE in classes))
    return out, diags


def _block_marks(tokens: list[Token], part: Part) -> tuple[list[Mark], list[Diagnostic]]:
    """The ``::: edition`` blocks; any other name is an error at its line."""
    marks: list[Mark] = []
    diags: list[Diagnostic] = []
    opened: list[Token] = []
    for tok in tokens:
        if tok.type == f"container_{CONTAINER}_close":
            start = opened.pop()
            if not tok.markup and start.map is not None:  # markdown-it closed it for us
                diags.append(error(_loc(start, part), (
                    f"this '::: {start.info.strip()}' block is never closed, so it runs to the "
                    "end of the file (or of its list item): end it with a ':::' line")))
        if tok.type != f"container_{CONTAINER}_open":
            continue
        opened.append(tok)
        if tok.map is not None:
            name = tok.info.strip()
            if name == BOX:
                continue
            problem = marker_problem(name) if name else "a ':::' block needs an edition name"
            if problem:
                diags.append(error(_loc(tok, part), problem))
            else:
                marks.append(Mark(_loc(tok, part), name, 0, part.first_line + tok.map[1] - 1))
    return marks, diags


def _raw_html(tokens: Iterable[Token], part: Part) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    for tok in tokens:
        inline = [c for c in (tok.children or []) if c.type == "html_inline"]
        if tok.type == "html_block" or inline:
            snippet = (tok.content if tok.type == "html_block" else inline[0].content).strip()
            found.append(error(
                _loc(tok, part),
                f"raw HTML is not allowed in rules ({snippet[:40]!r}); write Markdown instead",
            ))
    return found


def _examples(
    tokens: list[Token], part: Part, ids: set[str]
) -> tuple[list[Example], list[Diagnostic]]:
    out: list[Example] = []
    diags: list[Diagnostic] = []
    for tok in tokens:
        if tok.type != "fence":
            continue
        info = tok.info.strip()
        word = info.split(maxsplit=1)[0].strip("{}.").lower() if info else ""
        if info not in (EXAMPLE_INFO, SIMULATION_INFO):
            if word in (EXAMPLE_INFO, SIMULATION_INFO):  # else a typo leaves it unchecked
                diags.append(error(_loc(tok, part), (
                    f"a fence of '{info}' would show a plain code block, never checked: "
                    f"write '{word}' alone after the backticks")))
            continue
        loc = _loc(tok, part)
        try:
            example = _example(tok.content, loc, tok.info.strip())
        except RulepressError as exc:
            diags.extend(exc.diagnostics)
            continue
        if example.id in ids:
            diags.append(error(loc, f"example id '{example.id}' is used twice"))
        ids.add(example.id)
        out.append(example)
    return out, diags


def _example(content: str, loc: SourceLoc, kind: str = EXAMPLE_INFO) -> Example:
    first = loc.line + 1
    try:
        data, lines = yamlines.load(content, first_line=first)
    except yamlines.YamlError as exc:
        raise RulepressError.at(
            SourceLoc(loc.path, exc.line), f"example data does not parse: {exc.message}"
        ) from None
    if not isinstance(data, dict):
        raise RulepressError.at(loc, "an example holds a YAML mapping: id, title, claims, text")

    def at(key: str) -> SourceLoc:
        return SourceLoc(loc.path, lines.get((key,), loc.line))

    diags: list[Diagnostic] = []
    meant: set[str] = set()  # rulepress's keys misspelt: said once, as a misspelling
    for key in data:
        near = nearest(str(key), sorted(EXAMPLE_RESERVED), cutoff=0.8)
        if near and key not in EXAMPLE_RESERVED and near not in data:  # else the engine
            meant.add(near)                                            # would ignore it
            reads = ", ".join(sorted(EXAMPLE_RESERVED))
            diags.append(error(at(str(key)), f"unknown key '{key}' (did you mean '{near}'?): "
                                             f"rulepress reads {reads}; any other key goes to "
                                             "the engine"))
    for key in ("id", "title", "text"):
        if key in meant:
            continue
        if not isinstance(data.get(key), str) or not data[key].strip():
            diags.append(error(at(key) if key in data else loc, f"example needs '{key}' as text"))
    ex_id = data.get("id")
    if isinstance(ex_id, str) and not ID.match(ex_id):
        diags.append(error(at("id"), f"example id {ex_id!r} may use only a-z, 0-9, '-' and '_'"))
    claims = data.get("claims", {})
    if not isinstance(claims, dict):
        diags.append(error(at("claims"), "example claims must be a mapping of facts to values"))
    text = data.get("text")
    if isinstance(text, str):
        try:
            bare = shows_a_number(text)
        except TemplateSyntaxError as exc:
            diags.append(error(at("text"), f"example text: {syntax_problem(exc)} (its line "
                                           f"{exc.lineno})"))
            bare = None
        if bare:
            # Point at the datum the number is, when the example holds it: the fix to paste.
            held = data_holding(bare, {k: data[k] for k in ("claims", "setup", "moves")
                                       if k in data}) if kind != SIMULATION_INFO else None
            source = f"{held} holds {bare}: write {{{{ {held} }}}}" if held else (
                "e.g. {{ claims.score }}" if kind != SIMULATION_INFO else "e.g. {{ games }}")
            diags.append(error(
                at("text"),
                f"example text shows the bare number {bare}; take it from the data ({source}), "
                "so words and numbers cannot disagree",
            ))
    edition = data.get("edition")
    if edition is not None and marker_problem(str(edition)):
        diags.append(error(at("edition"), f"example edition: {marker_problem(str(edition))}"))
    if kind == SIMULATION_INFO:
        if edition not in (None, REFERENCE):
            diags.append(error(at("edition"), "a playtest report belongs to the reference "
                                              "edition only"))
        edition = REFERENCE
    if diags:
        raise RulepressError(diags)
    payload: dict[str, Any] = {k: v for k, v in data.items() if k not in EXAMPLE_RESERVED}
    return Example(
        id=str(ex_id), title=str(data["title"]), loc=loc, data=payload, claims=claims,
        text=str(text), lines=lines, edition=None if edition is None else str(edition),
        kind=kind,
    )

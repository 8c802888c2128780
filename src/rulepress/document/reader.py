"""Read phase: every source file becomes an immutable Document, or diagnostics at file:line."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import TemplateSyntaxError
from markdown_it import MarkdownIt
from markdown_it.token import Token

from rulepress.diagnostics import Diagnostic, RulepressError, SourceLoc, error
from rulepress.document import yamlines
from rulepress.document.markdown import TOO_DEEP, make_parser, too_deep
from rulepress.document.model import Document, Example, Heading
from rulepress.document.schema import ID, build_meta
from rulepress.document.slug import game_name_problem, slugify, unique
from rulepress.jail import Refused, read_regular
from rulepress.prose import shows_a_number

RULES_FILE = "rules.md"
EXAMPLE_INFO = "example"
EXAMPLE_RESERVED = {"id", "title", "claims", "text"}
_FENCE = re.compile(r"^---\s*$")


def read_sources(sources: Path, games: Sequence[str] = ()) -> list[Document]:
    """Read the named games (all when empty) from a sources folder; raise once for all errors."""
    if not sources.is_dir():
        raise RulepressError.at(None, f"sources folder '{sources}' does not exist")
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
    chosen = list(dict.fromkeys(games)) if games else available
    docs: list[Document] = []
    diagnostics: list[Diagnostic] = []
    for slug in chosen:
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


def read_document(path: Path, slug: str | None = None) -> Document:
    slug = slug or path.parent.name
    try:
        raw = read_regular(path)
    except OSError as exc:
        raise RulepressError.at(SourceLoc(path, 1), f"cannot read: {exc.strerror}") from None
    except Refused as exc:
        raise RulepressError.at(SourceLoc(path, 1), f"cannot read: {exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise RulepressError.at(
            SourceLoc(path, line), f"not UTF-8 text (byte 0x{raw[exc.start]:02x}); save it as UTF-8"
        ) from None
    text = text.removeprefix("\ufeff").replace("\r\n", "\n")
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

    body_line = end + 2
    body = "\n".join(lines[end + 1 :])
    tokens = _parser().parse(body)
    headings = _headings(tokens, path, body_line)
    examples, example_diags = _examples(tokens, path, body_line)
    diagnostics += example_diags
    diagnostics += _raw_html(tokens, path, body_line)
    deep = too_deep(tokens)
    if deep is not None:
        diagnostics.append(error(SourceLoc(path, body_line + deep), TOO_DEEP))
    if not headings:
        diagnostics.append(error(SourceLoc(path, body_line), "the rules text has no heading"))
    taken = {h.anchor for h in headings}
    for ex in examples:
        if f"example-{ex.id}" in taken:
            diagnostics.append(error(ex.loc, f"example id '{ex.id}' clashes with a heading anchor"))
    if diagnostics or meta is None:
        raise RulepressError(sorted(diagnostics, key=lambda d: d.loc or SourceLoc(path, 0)))
    return Document(slug, path, meta, body, body_line, tuple(headings), tuple(examples))


@cache
def _parser() -> MarkdownIt:
    return make_parser(detect_html=True)


def _line(token: Token, body_line: int) -> int:
    return body_line + (token.map[0] if token.map else 0)


def _inline_text(token: Token) -> str:
    return "".join(
        child.content for child in (token.children or []) if child.type in {"text", "code_inline"}
    )


def _headings(tokens: list[Token], path: Path, body_line: int) -> list[Heading]:
    out: list[Heading] = []
    taken: set[str] = set()
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open":
            text = _inline_text(tokens[i + 1]).strip()
            out.append(Heading(
                int(tok.tag[1]), text, unique(slugify(text), taken),
                SourceLoc(path, _line(tok, body_line)),
            ))
    return out


def _raw_html(tokens: Iterable[Token], path: Path, body_line: int) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    for tok in tokens:
        inline = [c for c in (tok.children or []) if c.type == "html_inline"]
        if tok.type == "html_block" or inline:
            snippet = (tok.content if tok.type == "html_block" else inline[0].content).strip()
            found.append(error(
                SourceLoc(path, _line(tok, body_line)),
                f"raw HTML is not allowed in rules ({snippet[:40]!r}); write Markdown instead",
            ))
    return found


def _examples(
    tokens: list[Token], path: Path, body_line: int
) -> tuple[list[Example], list[Diagnostic]]:
    out: list[Example] = []
    diags: list[Diagnostic] = []
    ids: set[str] = set()
    for tok in tokens:
        if tok.type != "fence" or tok.info.strip() != EXAMPLE_INFO:
            continue
        loc = SourceLoc(path, _line(tok, body_line))
        try:
            example = _example(tok.content, loc)
        except RulepressError as exc:
            diags.extend(exc.diagnostics)
            continue
        if example.id in ids:
            diags.append(error(loc, f"example id '{example.id}' is used twice"))
        ids.add(example.id)
        out.append(example)
    return out, diags


def _example(content: str, loc: SourceLoc) -> Example:
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
    for key in ("id", "title", "text"):
        if not isinstance(data.get(key), str) or not data[key].strip():
            diags.append(error(at(key) if key in data else loc, f"example needs '{key}' as text"))
    ex_id = data.get("id")
    if isinstance(ex_id, str) and not ID.match(ex_id):
        diags.append(error(at("id"), f"example id '{ex_id}' may use only a-z, 0-9, '-' and '_'"))
    claims = data.get("claims", {})
    if not isinstance(claims, dict):
        diags.append(error(at("claims"), "example claims must be a mapping of facts to values"))
    text = data.get("text")
    if isinstance(text, str):
        try:
            bare = shows_a_number(text)
        except TemplateSyntaxError as exc:
            diags.append(error(at("text"), f"example text: {exc.message} (its line {exc.lineno})"))
            bare = False
        if bare:
            diags.append(error(
                at("text"),
                "example text shows a bare number; take it from the data, e.g. "
                "{{ claims.score }}, so words and numbers cannot disagree",
            ))
    if diags:
        raise RulepressError(diags)
    payload: dict[str, Any] = {k: v for k, v in data.items() if k not in EXAMPLE_RESERVED}
    return Example(
        id=str(ex_id), title=str(data["title"]), loc=loc, data=payload, claims=claims,
        text=str(text), lines=lines,
    )

"""Teaching order of the player edition: every defined term (``:dfn[term]``) is used only once
the reader has met its definition, and every component the front matter declares is named by
the rules.

The player edition is read in order: the body's files, with what belongs to the reference
edition left out, and the worked examples where they stand. The contents and the glossary are
made by rulepress and never read here. Terms match as whole words, in any case, with a simple
plural ("bomb", "Bombs"). A heading counts: a heading that names a term before it is defined
is a fault, unless its own section defines the term before the next heading (the heading
"Throwing the bomb" over the paragraph that defines a bomb). The paragraph that defines a term
may also name it before the mark.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from markdown_it.token import Token

from rulepress.diagnostics import Diagnostic, SourceLoc, warning
from rulepress.document.editions import PLAYER, heading_marker
from rulepress.document.markdown import DFN, make_parser
from rulepress.document.model import Document, Example

Where = tuple[int, int]  # (the file's place in reading order, its line): comparable positions


def _forms(word: str) -> str:
    """A word and its simple plural or singular, as a regex alternation."""
    w = re.escape(word)
    if word.endswith("ies"):
        return f"(?:{w}|{re.escape(word[:-3])}y)"
    if word.endswith("y"):
        return f"(?:{w}|{re.escape(word[:-1])}ies)"
    if word.endswith(("ses", "xes", "ches", "shes")):
        return f"(?:{w}|{re.escape(word[:-2])})"
    if word.endswith("s") and not word.endswith("ss"):
        return f"(?:{w}|{re.escape(word[:-1])})"
    return f"(?:{w}|{w}e?s)"


def term_pattern(term: str) -> re.Pattern[str]:
    """``term`` as whole words, any case, any spacing (a line break too), the last word
    singular or plural: 'three-card column' matches 'Three-card columns'."""
    words = term.casefold().split()
    body = r"\s+".join([*map(re.escape, words[:-1]), _forms(words[-1])])
    return re.compile(rf"(?<![\w-]){body}(?![\w-])", re.IGNORECASE)


@dataclass(frozen=True)
class _Block:
    """One inline run of text the player reads: a paragraph, a list item, a table cell, a
    heading, or a line of an example."""

    text: str  # plain text, a line break where the source breaks the line
    loc: SourceLoc  # its first line
    where: Where
    heading_until: Where | None  # a heading: where its own section's first subsection starts
    defines: frozenset[str]  # the terms (casefolded) it marks


def _plain(inline: Token) -> tuple[str, frozenset[str]]:
    text, marked = "", set()
    for child in inline.children or ():
        if child.type in ("text", "code_inline", DFN):
            text += child.content
        elif child.type in ("softbreak", "hardbreak"):
            text += "\n"
        if child.type == DFN:
            marked.add(child.content.casefold())
    return text, frozenset(marked)


def _blocks(doc: Document) -> list[_Block]:
    """The player edition's text in reading order."""
    parser = make_parser()
    examples = {(e.loc.path, e.loc.line): e for e in doc.examples}
    found: list[_Block] = []
    heads: list[int] = []  # indexes in ``found`` of the headings
    for n, part in enumerate(doc.parts):
        tokens = parser.parse(part.text)
        for i, token in enumerate(tokens):
            if token.map is None or not doc.keeps(PLAYER, part.loc(token.map[0])):
                continue
            if token.type == "fence":  # the reader puts an example at its fence's line
                example = examples.get((part.path, part.loc(token.map[0]).line))
                if example is not None and doc.has_example(example, PLAYER):
                    found += _example_blocks(example, n)
            elif token.type == "inline":
                text, marked = _plain(token)
                if tokens[i - 1].type == "heading_open":
                    heads.append(len(found))
                    text = heading_marker(text)[0]
                loc = part.loc(token.map[0])
                found.append(_Block(text, loc, (n, loc.line), None, marked))
    # A heading's grace runs to the next heading, whatever its level.
    for k, at in enumerate(heads):
        until = found[heads[k + 1]].where if k + 1 < len(heads) else (len(doc.parts), 0)
        found[at] = replace(found[at], heading_until=until)
    return found


def _example_blocks(example: Example, n: int) -> list[_Block]:
    """An example's title and its prose, at their own lines."""
    out = [_Block(example.title, example.loc, (n, example.loc.line), None, frozenset())]
    first = example.line_of(("text",)).line + 1  # the prose starts after its `text: |` key
    for token in make_parser().parse(example.text):
        if token.type == "inline" and token.map is not None:
            text, _ = _plain(token)
            loc = SourceLoc(example.loc.path, first + token.map[0])
            out.append(_Block(text, loc, (n, loc.line), None, frozenset()))
    return out


def check_teaching(doc: Document) -> list[Diagnostic]:
    """Warnings: each term used before its definition (at its first use, naming both lines),
    each component of the kit the player edition never names (at the component's line)."""
    order = {part.path: n for n, part in enumerate(doc.parts)}
    blocks = _blocks(doc)
    name = doc.meta.title.strip()
    # The book's title heading teaches nothing; elsewhere the game's name is no use of a term
    # it contains ("Worm Derby" and the worm), though it is of the term it is ("Pigeon").
    read = [b for b in blocks if not (b.heading_until is not None
                                      and b.text.strip().casefold() == name.casefold())]
    title = term_pattern(name) if name else None
    found: list[Diagnostic] = []
    for term in doc.terms:
        if not doc.keeps(PLAYER, term.loc):
            continue  # defined in the reference edition only: the glossary's, not a teacher's
        defined = (order.get(term.loc.path, 0), term.loc.line)
        pattern = term_pattern(term.text)
        early: list[SourceLoc] = []
        for block in read:
            if title is not None and term.text.casefold() != name.casefold():
                block = replace(block, text=title.sub(_blank, block.text))
            if block.where >= defined:
                break
            if term.text.casefold() in block.defines:
                continue
            if block.heading_until is not None and defined < block.heading_until:
                continue  # the heading of the section that defines it
            for m in pattern.finditer(block.text):
                line = block.loc.line + block.text.count("\n", 0, m.start())
                early.append(SourceLoc(block.loc.path, line))
        if early:
            more = f" (and {len(early) - 1} more time{'s' * (len(early) > 2)} before it)" \
                if len(early) > 1 else ""
            found.append(warning(early[0], (
                f"'{term.text}' is used before it is defined at "
                f"{term.loc.path.name}:{term.loc.line}{more}: define it first, or say it "
                "another way until it is defined")))
    text = "\n".join(b.text for b in blocks)
    for component in doc.meta.components:
        if not component.in_kit:
            continue  # what the players bring (a deck, a pencil): the table lists it
        names = _component_names(component.name, component.id)
        if not any(term_pattern(name).search(text) for name in names):
            found.append(warning(component.loc, (
                f"the component '{component.name}' is never named in the player edition's "
                "rules: say what it is for, or leave it out of the components")))
    return sorted(found, key=lambda d: (order.get(d.loc.path, -1), d.loc.line)
                  if d.loc else (-1, 0))


def _blank(m: re.Match[str]) -> str:
    return re.sub(r"\S", " ", m[0])  # keeps the line breaks, so the lines stay right


def _component_names(name: str, ident: str) -> Sequence[str]:
    """What the rules may call a component: its name, the name before a comma ("Pigeon, card"
    is a Pigeon), or its id read as words ("deck" for "Deck of 52 cards")."""
    words = ident.replace("-", " ").replace("_", " ")
    return [n for n in (name, name.split(",")[0], words) if n.strip()]

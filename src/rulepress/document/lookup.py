"""What a reader looks up: the terms the rules define (``:dfn[term]``) and the numbered rulings
(the items of the list under a heading "Rulings"), each with a stable anchor.

A ruling is cited by reference, ``[](#ruling-card-values)``, which prints "Ruling 1 (p. 12)";
a ruling number typed by hand ("see ruling 12") is an error, as it would go stale.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Sequence

from markdown_it.token import Token

from rulepress.diagnostics import Diagnostic, SourceLoc, error, warning
from rulepress.document.editions import heading_marker
from rulepress.document.markdown import DFN, make_parser
from rulepress.document.model import Part, Ruling, Term
from rulepress.document.slug import slugify, unique

RULINGS_TITLE = "rulings"  # a heading of this title (any level, any case) holds the rulings
TERM_PREFIX, RULING_PREFIX = "term-", "ruling-"
MAX_TERM_WORDS = 6  # a term is a few words; its mentions are looked up word by word
_TYPED = re.compile(r"\b[Rr]ulings? (\d+)\b")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z“\"(*])")
# Where a language writes ordinals with a dot, a range's ("1. bis 6. Platz") ends nothing.
_SENTENCE_END_ORDINAL_DOT = re.compile(r"(?<=[.!?])(?<!\d\. \w\w\w \d\.)\s+(?=[A-ZÄÖÜ„“\"(*])")


def _children(inline: Token) -> Iterator[tuple[Token, int]]:
    """Each child of an inline token with its 0-based line offset within the token."""
    line = 0
    for child in inline.children or ():
        yield child, line
        if child.type in ("softbreak", "hardbreak"):
            line += 1
        elif child.type in ("text", "code_inline"):
            line += child.content.count("\n")
        elif child.type == DFN:  # its attributes may run over lines
            line += child.meta.get("breaks", 0)


def _sentences(inline: Token, ends: re.Pattern[str] = _SENTENCE_END) -> dict[int, str]:
    """The sentence holding each child of ``inline`` (by its index), as plain text on one line;
    the paragraph is read once, however many terms it defines."""
    text, starts = "", []
    for child, _ in _children(inline):
        starts.append(len(text))
        if child.type in ("text", "code_inline", DFN):
            text += child.content
        elif child.type in ("softbreak", "hardbreak"):
            text += " "
    bounds = [0, *(m.end() for m in ends.finditer(text)), len(text) + 1]
    out: dict[int, str] = {}
    for n, at in enumerate(starts):
        k = bisect.bisect_right(bounds, at) - 1
        out[n] = text[bounds[k]:bounds[k + 1]].strip()
    return out


def _at(part: Part, line: int, needle: str) -> SourceLoc:
    """Line ``line`` (0-based) of ``part``, at the column where ``needle`` starts on it."""
    lines = part.text.split("\n")
    found = lines[line].find(needle) if 0 <= line < len(lines) else -1
    return part.loc(line, found + 1 if found >= 0 else 1)


def _inline_text(inline: Token) -> str:
    return "".join(c.content for c in inline.children or () if c.type in ("text", "code_inline"))


def dfns(text: str, ordinal_dot: bool = False) -> list[tuple[str, str, tuple[str, ...], str]]:
    """The terms one block's inline Markdown marks, in order, each with its sentence (or the
    definition its author gave), its also words and its sort key ("" if none) (``ordinal_dot``:
    the language writes "6." for "6th")."""
    tokens = make_parser().parse(text)
    for token in tokens:
        if token.type == "inline":
            sentences = _sentences(token, _SENTENCE_END_ORDINAL_DOT if ordinal_dot
                                   else _SENTENCE_END)
            return [(child.content, child.meta.get("attrs", {}).get("def") or sentences[n],
                     also_words(child.meta.get("attrs", {}).get("also", "")),
                     child.meta.get("attrs", {}).get("sort", "").strip())
                    for n, (child, _) in enumerate(_children(token)) if child.type == DFN]
    return []


TERM_ATTRS = frozenset({"def", "also", "sort"})


def also_words(said: str) -> tuple[str, ...]:
    """The words of an ``also="hand size; hand"`` attribute, each once."""
    return tuple(dict.fromkeys(w.strip() for w in said.split(";") if w.strip()))


def find_terms(parsed: Sequence[tuple[Part, list[Token]]], taken: set[str],
               ) -> tuple[list[Term], list[Diagnostic]]:
    terms: list[Term] = []
    diags: list[Diagnostic] = []
    first: dict[str, Term] = {}
    for part, tokens in parsed:
        for token in tokens:
            if token.type != "inline" or token.map is None:
                continue
            sentences: dict[int, str] | None = None
            for n, (child, offset) in enumerate(_children(token)):
                if child.type != DFN:
                    continue
                loc = _at(part, token.map[0] + offset, child.markup + child.content.split()[0])
                if len(child.content.split()) > MAX_TERM_WORDS:
                    diags.append(error(loc, (
                        f"the term '{child.content[:60]}' is more than {MAX_TERM_WORDS} words: "
                        "mark the term, and let the sentence around it define it")))
                    continue
                known = first.get(child.content.casefold())
                if known is not None:
                    diags.append(error(loc, (
                        f"the term '{child.content}' is defined twice (first at "
                        f"{known.loc.path.name}:{known.loc.line}): mark it with :dfn[...] once, "
                        "where the rules define it")))
                    continue
                attrs = dict(child.meta.get("attrs", {}))
                odd = sorted(set(attrs) - TERM_ATTRS)
                empty = [k for k in ("def", "sort") if k in attrs and not attrs[k].strip()]
                if odd or empty:
                    said = f"'{odd[0]}='" if odd else f"an empty {empty[0]}"
                    diags.append(error(loc, (
                        f"the term '{child.content}' takes def=\"...\" (the sentence that "
                        "defines it), also=\"...\" (the words players look it up by, "
                        "separated by ';') and sort=\"...\" (the words the index sorts it by), "
                        f"not {said}")))
                    continue
                anchor = unique(TERM_PREFIX + slugify(child.content), taken)
                sentences = sentences if sentences is not None else _sentences(token)
                given = attrs.get("def", "")
                term = Term(child.content, anchor, given or sentences[n], loc, bool(given),
                            also_words(attrs.get("also", "")), attrs.get("sort", "").strip())
                first[child.content.casefold()] = term
                terms.append(term)
    return terms, diags


def find_rulings(parsed: Sequence[tuple[Part, list[Token]]], taken: set[str]) -> list[Ruling]:
    """The items of the first list under each heading titled "Rulings", numbered from 1."""
    rulings: list[Ruling] = []
    for part, tokens in parsed:
        under = False
        for i, token in enumerate(tokens):
            if token.type == "heading_open":
                title = heading_marker(_inline_text(tokens[i + 1]).strip())[0]
                under = title.strip().casefold() == RULINGS_TITLE
            elif under and token.type in ("ordered_list_open", "bullet_list_open"):
                under = False
                for j in range(i + 1, len(tokens)):
                    item = tokens[j]
                    if item.type == token.type.replace("_open", "_close") \
                            and item.level == token.level:
                        break
                    if item.type == "list_item_open" and item.level == token.level + 1:
                        rulings.append(_ruling(tokens, j, part, len(rulings) + 1, taken))
    return rulings


def _ruling(tokens: list[Token], at: int, part: Part, number: int, taken: set[str]) -> Ruling:
    """The ruling of the list item at ``at``: titled by its bold lead (**Card values.**), or
    else by its first words."""
    where = tokens[at].map
    inline = next((t for t in tokens[at + 1:] if t.type == "inline"), None)
    kids = [k for k in (inline.children or () if inline is not None else ())
            if k.type != "text" or k.content]
    if kids and kids[0].type == "strong_open":
        close = next((n for n, k in enumerate(kids) if k.type == "strong_close"), len(kids))
        title = " ".join(k.content if k.type != "softbreak" else " " for k in kids[1:close])
    else:
        title = " ".join((_sentences(inline)[0] if inline and kids else "").split()[:8])
    title = " ".join(title.split()).rstrip(".:;, ") or f"Ruling {number}"
    anchor = unique(RULING_PREFIX + slugify(title), taken)
    return Ruling(number, title, anchor, part.loc(where[0] if where else 0))


def typed_numbers(parsed: Sequence[tuple[Part, list[Token]]], rulings: Sequence[Ruling],
                  ) -> list[Diagnostic]:
    """A ruling cited by a number typed in the text: refused, it would not follow a renumbering."""
    by_number = {r.number: r for r in rulings}
    diags: list[Diagnostic] = []
    for part, tokens in parsed:
        for token in tokens:
            if token.type != "inline" or token.map is None:
                continue
            for child, offset in _children(token):
                m = _TYPED.search(child.content) if child.type == "text" else None
                if m is None:
                    continue
                known = by_number.get(int(m[1]))
                fix = f"[](#{known.anchor})" if known else "[](#ruling-...)"
                diags.append(error(_at(part, token.map[0] + offset, m[0]), (
                    f"'{m[0]}' is a ruling number typed by hand: cite it as {fix}, which prints "
                    "its number and page and follows it when the rulings are renumbered")))
    return diags


# How a sentence says what a thing is: "A pile is ...", "... : this is your storage", "... are
# called disks", "the two form a column".
_DEFINES = re.compile(r"\b(?:is|are|means?|called|counts? as|forms?|makes?)\b|:|—", re.I)
_SENTENCE_STOP = re.compile(r"[.!?][”\"’')]*\Z")


def check_glossary(terms: Sequence[Term]) -> list[Diagnostic]:
    """Warnings for glossary entries that would not define: a sentence two terms share, a
    fragment (no capital to start, no full stop to end), a sentence that does not say what the
    term is. The author's own definition (def="...") is taken as written."""
    found: list[Diagnostic] = []
    first: dict[str, Term] = {}
    fix = "give the definition as a whole sentence: :dfn[{}]{{def=\"...\"}}"
    for term in terms:
        said = term.definition.strip()
        if term.given:
            continue
        shared = first.setdefault(said.casefold(), term)
        if shared is not term:
            found.append(warning(term.loc, (
                f"the glossary would define '{term.text}' by the sentence that defines "
                f"'{shared.text}' ({shared.loc.path.name}:{shared.loc.line}); "
                + fix.format(term.text))))
        elif not said[:1].isupper() and not said[:1].isdigit() or not _SENTENCE_STOP.search(said):
            found.append(warning(term.loc, (
                f"the glossary would print a fragment for '{term.text}': “{said[:70]}”; "
                + fix.format(term.text))))
        elif not _DEFINES.search(said) or not _mentions(said, term.text):
            found.append(warning(term.loc, (
                f"the sentence around '{term.text}' does not say what it is: “{said[:70]}”; "
                + fix.format(term.text))))
    return found


def _mentions(sentence: str, term: str) -> bool:
    words = re.escape(term).replace(r"\ ", r"\s+")
    return re.search(rf"\b{words}(?:s|es)?\b", sentence, re.I) is not None

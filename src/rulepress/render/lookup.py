"""The body's look-up apparatus: term definitions as anchored ``<dfn>``, every later mention of a
term linked to it, rulings numbered with their anchors, and cross-references filled in.

An internal link gets the class ``xref`` (print adds its page: "Ruling 17, Card values
(p. 12)"); an empty one, ``[](#ruling-card-values)``, takes its text from its target ("Ruling 1,
Card values", an example's or a heading's title), so no number is ever typed by hand.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import OptionsDict

from rulepress.document.lookup import MAX_TERM_WORDS
from rulepress.document.markdown import DFN
from rulepress.document.model import Document, Term
from rulepress.render.references import example_anchor
from rulepress.words import theme_words

XREF, TERM_LINK = "xref", "term-link"


def render_dfn(self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict,
               env: MutableMapping[str, Any]) -> str:
    token = tokens[idx]
    anchor = token.attrGet("id")
    at = f' id="{html.escape(str(anchor))}"' if anchor else ""
    return f'<dfn class="term"{at}>{html.escape(token.content)}</dfn>'


@dataclass(frozen=True)
class Lookup:
    """What an edition's page can point to: terms to link, and the text of empty links."""

    terms: tuple[Term, ...]
    titles: Mapping[str, str]  # anchor -> what an empty link to it prints

    @cached_property
    def forms(self) -> dict[tuple[str, ...], Term]:
        """Each term's words, and with a plural ending (s, es) on its last word, casefolded."""
        found: dict[tuple[str, ...], Term] = {}
        for term in self.terms:
            words = tuple(term.text.casefold().split())
            for end in ("", "s", "es"):
                found.setdefault((*words[:-1], words[-1] + end), term)
        return found

    def mentions(self, text: str) -> list[tuple[int, int, Term]]:
        """Where ``text`` mentions a term, as whole words, the longest first: (start, end,
        term). A term written in lower case matches a capital first letter too; one written
        with a capital matches only as written. Word by word, so any number of terms costs
        the same."""
        if not self.terms:
            return []
        words = list(_WORD.finditer(text))
        folded = [w[0].casefold() for w in words]
        found: list[tuple[int, int, Term]] = []
        i = 0
        while i < len(words):
            for n in range(min(MAX_TERM_WORDS, len(words) - i), 0, -1):
                term = self.forms.get(tuple(folded[i:i + n]))
                last = words[i + n - 1]
                if term is None or not all(text[words[k].end():words[k + 1].start()].isspace()
                                           for k in range(i, i + n - 1)):
                    continue
                if term.text[:1].isupper() and not words[i][0].startswith(term.text.split()[0]):
                    continue
                found.append((words[i].start(), last.end(), term))
                i += n - 1
                break
            i += 1
        return found


_WORD = re.compile(r"[\w’'-]+")


def lookup(doc: Document, edition: str) -> Lookup:
    kept = [t for t in doc.terms if doc.keeps(edition, t.loc)]
    titles = {h.anchor: h.text for h in doc.headings}
    titles |= {example_anchor(e.id): e.title for e in doc.boxes}
    titles |= {t.anchor: t.text for t in doc.terms}
    _ = theme_words(doc.language.code if doc.language else None, doc.folder)
    # A citation names what it cites, so that a wrong one shows: "Ruling 5, A Forceplay".
    titles |= {r.anchor: _("Ruling {number}, {title}", number=r.number, title=r.title)
               for r in doc.rulings}
    return Lookup(tuple(kept), titles)


def annotate(doc: Document, tokens: list[Token], edition: str) -> None:
    """Mark up ``tokens`` (one edition's body) in place."""
    found = lookup(doc, edition)
    anchors = {(t.loc.path, t.loc.line, t.text): t.anchor for t in doc.terms}
    anchors_by_text = {(t.loc.path, t.text): t.anchor for t in doc.terms}
    rulings = {r.loc: r for r in doc.rulings}
    lists: list[Token] = []
    heading = False
    for token in tokens:
        if token.type in ("bullet_list_open", "ordered_list_open"):
            lists.append(token)
        elif token.type in ("bullet_list_close", "ordered_list_close"):
            opened = lists.pop()
            token.tag = opened.tag
        elif token.type == "list_item_open" and token.meta.get("loc") in rulings:
            ruling = rulings[token.meta["loc"]]
            token.attrs.update({"id": ruling.anchor, "class": "ruling",
                                "value": str(ruling.number)})
            lists[-1].tag = "ol"  # rulings are numbered, whatever list the source wrote
        elif token.type in ("heading_open", "heading_close"):
            heading = token.type == "heading_open"
        elif token.type == "inline":
            loc = token.meta.get("loc")
            line = 0
            for child in token.children or ():
                line += child.type in ("softbreak", "hardbreak")
                if child.type == DFN and loc is not None:
                    at = (loc.path, loc.line + line, child.content)
                    # A translation's lines are not the source's: its block's term of that name.
                    anchor = anchors.get(at) or (anchors_by_text.get((loc.path, child.content))
                                                 if doc.language else None)
                    if anchor:
                        child.attrSet("id", anchor)
                if child.type == DFN:  # its attributes may run over lines
                    line += child.meta.get("breaks", 0)
            link_inline(token, found, mentions=not heading)


def link_inline(token: Token, found: Lookup, *, mentions: bool = True) -> None:
    """Fill in empty internal links, class them ``xref``, and link term mentions (outside
    links, code and definitions) to the definition."""
    out: list[Token] = []
    children = token.children or []
    depth = 0
    for n, child in enumerate(children):
        if child.type == "link_open":
            depth += 1
            target = str(child.attrGet("href") or "")
            if target.startswith("#"):
                child.attrSet("class", XREF)
                after = children[n + 1] if n + 1 < len(children) else None
                if after is not None and after.type == "link_close":
                    text = Token("text", "", 0, content=found.titles.get(target[1:], target[1:]))
                    out += [child, text]
                    continue
        elif child.type == "link_close":
            depth -= 1
        if child.type == "text" and depth == 0 and mentions:
            out += _linked(child.content, found)
        else:
            out.append(child)
    token.children = out


def _linked(text: str, found: Lookup) -> list[Token]:
    out: list[Token] = []
    pos = 0
    for start, end, term in found.mentions(text):
        if start > pos:
            out.append(Token("text", "", 0, content=text[pos:start]))
        opening = Token("link_open", "a", 1)
        opening.attrs = {"href": f"#{term.anchor}", "class": TERM_LINK}
        shown = Token("text", "", 0, content=text[start:end])
        out += [opening, shown, Token("link_close", "a", -1)]
        pos = end
    if pos < len(text):
        out.append(Token("text", "", 0, content=text[pos:]))
    return out
